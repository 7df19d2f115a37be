"""The `solrec balance` page (issue 34) in Chromium at 1280x800 and 390x844: its plots are inline
SVG, it asks the network for nothing, it does not scroll sideways, and axe-core finds no serious
or critical violation. The screenshots are looked at and kept in docs/pictures
(``tests/pictures/balance_screenshots.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import browser, phone

pytest.importorskip("matplotlib", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra")


@pytest.fixture(scope="module")
def driver():
    phone.require_axe()
    with browser.session() as d:
        yield d


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    from .balance_screenshots import make_page

    target = tmp_path_factory.mktemp("balance") / "balance.html"
    make_page(target, ["balance", "soli2", "--games", "8", "--bot", "greedy", "--bot", "random",
                       "--against", "objective=give-away"])
    return target


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
def test_the_balance_page_fits_the_width_asks_for_nothing_and_has_no_serious_violation(driver, page, size):
    browser.requests(driver)  # what came before
    driver.get(page.as_uri())
    phone.viewport(driver, size)
    assert [u for u in browser.requests(driver) if not u.startswith("file:")] == []
    assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 4
    widths = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure svg')).map(s => s.getBoundingClientRect().width)")
    assert all(0 < w <= size[0] for w in widths)
    verdict = driver.execute_script("return document.querySelector('.verdict').innerText")
    assert "objective standard -> give-away" in verdict
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []


@pytest.fixture(scope="module")
def ladder_page(tmp_path_factory) -> Path:
    from .balance_screenshots import make_page

    target = tmp_path_factory.mktemp("balance") / "ladder.html"
    make_page(target, ["balance", "soli2", "--bots", "random,greedy", "--against", "objective=give-away",
                       "--sprt", "first-seat:0:10", "--max-games", "16"])
    return target


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
def test_a_ladder_page_with_its_sequential_tests_fits_the_width_and_has_no_serious_violation(driver, ladder_page, size):
    driver.get(ladder_page.as_uri())
    phone.viewport(driver, size)
    assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 8  # 4 a strength
    assert "the verdict" in driver.execute_script("return document.querySelector('.verdict').innerText")
    tests = driver.execute_script(
        "return Array.from(document.querySelectorAll('.verdict')).map(v => v.innerText).filter(t => t.startsWith('Sequential test'))")
    assert len(tests) == 2 and all("first-seat: H0 0 points against H1 10 points" in t for t in tests)
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []
