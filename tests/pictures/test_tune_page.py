"""The `solrec tune` page (issue 45, item 4) in Chromium at 1280x800 and 390x844: its plots are inline
SVG whose axis text shows at 12 CSS px or more, it asks the network for nothing, it does not scroll
sideways, and axe-core finds no serious or critical violation."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from . import browser, phone

pytest.importorskip("matplotlib", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra")
pytest.importorskip("optuna", reason="the tune extra: pip install -e '.[tune]'")


@pytest.fixture(scope="module")
def driver():
    phone.require_axe()
    with browser.session() as d:
        yield d


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    from solrec.cli.main import app

    folder = tmp_path_factory.mktemp("tune")
    target = folder / "tune.html"
    result = CliRunner().invoke(app, ["tune", "solari", "--vary", "target=6..12", "--target", "length=100", "--trials", "4",
                                      "--games-per-trial", "1", "--db", str(folder / "solrec.db"), "--html", str(target)])
    assert result.exit_code == 0, result.stderr
    return target


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
def test_the_tune_page_fits_the_width_reads_at_12px_asks_for_nothing_and_has_no_serious_violation(driver, page, size):
    browser.requests(driver)  # what came before
    driver.get(page.as_uri())
    phone.viewport(driver, size)
    assert [u for u in browser.requests(driver) if not u.startswith("file:")] == []
    assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 2
    widths = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure svg')).map(s => s.getBoundingClientRect().width)")
    assert all(0 < w <= size[0] for w in widths)
    # the axis labels and tick numbers as shown: the text's height on screen, not its size in the drawing
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure svg text')).map(t => t.getBoundingClientRect().height)")
    assert shown and min(shown) >= 12
    assert "target=" in driver.execute_script("return document.querySelector('.verdict').innerText")
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []
