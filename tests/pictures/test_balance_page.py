"""The `solrec balance` page (issues 34, 43) in Chromium at 1280x800 and 390x844: it opens with the
verdict, a sentence per question, as the JSON says it; its plots are inline SVG with labels of at
least 12 px; it asks the network for nothing, neither it nor a table scrolls sideways, and axe-core
finds no serious or critical violation. The screenshots are looked at and kept in docs/pictures
(``tests/pictures/balance_screenshots.py``)."""

from __future__ import annotations

import json
import re
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
    report = make_page(target, ["balance", "soli2", "--games", "8", "--bot", "greedy", "--bot", "random",
                                "--against", "objective=give-away", "--json"])
    (target.parent / "report.json").write_text(report, encoding="utf-8")
    return target


SMALLEST_LABEL = """
  var sizes = [];
  document.querySelectorAll('figure svg text').forEach(function (t) {
    var m = t.getScreenCTM();
    sizes.push(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  });
  return sizes;"""
TABLES = "return Array.from(document.querySelectorAll('table')).map(t => t.scrollWidth - t.parentElement.clientWidth)"


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
def test_the_balance_page_fits_the_width_asks_for_nothing_and_has_no_serious_violation(driver, page, size):
    browser.requests(driver)  # what came before
    driver.get(page.as_uri())
    phone.viewport(driver, size)
    assert [u for u in browser.requests(driver) if not u.startswith("file:")] == []
    # the differences in two plots, one unit each (points, per cent); win rates, length, scores
    assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 5
    widths = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure svg')).map(s => s.getBoundingClientRect().width)")
    assert all(0 < w <= size[0] for w in widths)
    labels = driver.execute_script(SMALLEST_LABEL)
    assert labels and min(labels) >= 12, min(labels)
    assert driver.execute_script(TABLES) == [0, 0, 0, 0]  # differences, each set, Ludii's measures: no sideways box
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []


def test_the_page_opens_with_the_verdicts_sentences_each_with_its_interval(driver, page):
    report = json.loads((page.parent / "report.json").read_text(encoding="utf-8"))
    driver.get(page.as_uri())
    phone.viewport(driver, phone.PHONE)
    first = driver.execute_script("return document.querySelector('main > h1').nextElementSibling.className")
    assert first == "verdict"
    said = driver.execute_script("return Array.from(document.querySelectorAll('.verdict p:not(.notes)')).map(p => p.innerText)")
    assert said == [re.sub(r"\[(\d+)\]", r"\1", s) for s in report["verdict"]]  # a footnote mark is its number
    assert said[0].startswith("Game") and said[1].startswith("The first seat (Player 1) wins ")
    assert all(re.search(r"a change between [−+]?[\d.]+%? and [−+]?[\d.]+%?", s) for s in said[:2])
    # the first screen of a phone holds the verdict's first sentences
    assert driver.execute_script("return document.querySelector('.verdict p').getBoundingClientRect().bottom") < 844
    notes = driver.execute_script("return Array.from(document.querySelectorAll('ol.notes li')).map(li => li.innerText)")
    assert notes == [n["rule"] for n in report["footnotes"]] and notes  # the rules in full, once
    rows = driver.execute_script("return Array.from(document.querySelectorAll('tbody th')).map(th => th.innerText)")
    assert not [r for r in rows if "\u2026" in r]  # no rule cut short as a label
    assert not [r for r in rows if r.startswith("bot ")] or len(set(report["bots"])) > 1


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
    assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 10  # 5 a strength
    assert "The verdict" in driver.execute_script("return document.querySelector('.verdict').innerText")
    labels = driver.execute_script(SMALLEST_LABEL)
    assert labels and min(labels) >= 12, min(labels)
    assert not [w for w in driver.execute_script(TABLES) if w > 0]
    tests = driver.execute_script(
        "return Array.from(document.querySelectorAll('.verdict')).map(v => v.innerText).filter(t => t.startsWith('Sequential test'))")
    assert len(tests) == 2 and all("first-seat: H0 0 points against H1 10 points" in t for t in tests)
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []
