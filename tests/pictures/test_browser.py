"""The replay page in a real browser (Debian's Chromium, headless, through selenium): for one
fixture of every game, pressing next k times shows command k, its position and the score totals
the engine computes after k commands; no request leaves the page; the console stays free of errors."""

from __future__ import annotations

import pytest

from solrec.core.observe import Viewer
from solrec.replay.html import page
from solrec.replay.log import walk

from . import browser
from .helpers import fixture_log

ONE_PER_GAME = {
    "solo-dice": "solo-dice/worked-example.jsonl",
    "soli2": "soli2/duel-pouch-standard.jsonl",
    "solar-solitaire": "solar-solitaire/lost-entered.jsonl",
    "solari": "solari/two-players-dominoes-open-seeded.jsonl",
    "solarius-mission": "solarius-mission/three-players-chosen-start-seeded.jsonl",
}


@pytest.fixture(scope="module")
def driver():
    with browser.session() as d:
        yield d


def engine_view(path: str) -> list[dict]:
    """What the page must show after k commands, k = 0..n, computed by the engine."""
    log = fixture_log(path)
    game = log.game
    from solrec.core.play import initial_state

    before = initial_state(game, log.header)
    views = [{"command": "", "position": 0, "totals": ", ".join(f"{p} {t}" for p, t in game.score(before).totals)}]
    for group, _, after in walk(log):
        views.append({
            "command": game.observation.command(game.parse(group[0].command, before), before, Viewer.table()),
            "position": group[-1].seq + 1,
            "actor": group[0].actor + ":",
            "totals": ", ".join(f"{p} {t}" for p, t in game.score(after).totals),
        })
        before = after
    return views


def text(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


@pytest.mark.parametrize("game_id", sorted(ONE_PER_GAME))
def test_pressing_next_k_times_shows_the_engines_command_position_and_scores(driver, game_id, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    path = ONE_PER_GAME[game_id]
    views = engine_view(path)
    n = len(views) - 1
    target = tmp_path / f"{game_id}.html"
    target.write_text(page(fixture_log(path)), encoding="utf-8")
    browser.requests(driver), browser.console(driver)  # start both logs afresh
    driver.get(target.as_uri())
    # a finished game opens at its end (every fixture here is finished); first goes to the set-up
    assert text(driver, "stepinfo") == f"move {n} of {n}"
    driver.find_element("id", "first").click()
    assert text(driver, "stepinfo") == f"move 0 of {n} (the set-up)"
    assert text(driver, "actor") == "the set-up"
    assert text(driver, "status").startswith("the set-up")
    for k in sorted({1, 2, 5, min(n, 12)}):  # the mechanism; End and the slider reach move n below
        driver.find_element("id", "first").click()
        for _ in range(k):
            driver.find_element("id", "next").click()
        assert text(driver, "stepinfo") == f"move {k} of {n}"
        assert text(driver, "status").startswith(f"after move {k}") and views[k]["position"] >= k
        assert text(driver, "actor") == views[k]["actor"]
        assert text(driver, "command") == views[k]["command"]
        assert text(driver, "totals") == views[k]["totals"]
        assert driver.find_elements("css selector", "#board svg")
    # next stops at the end; prev, the arrow keys, Home/End and the slider move too
    driver.find_element("id", "last").click()
    driver.find_element("id", "next").click()
    assert text(driver, "stepinfo") == f"move {n} of {n}"
    driver.find_element("id", "prev").click()
    assert text(driver, "command") == views[n - 1]["command"]
    ActionChains(driver).send_keys(Keys.HOME).perform()
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    assert text(driver, "stepinfo") == f"move 3 of {n}" and text(driver, "totals") == views[3]["totals"]
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    assert text(driver, "command") == views[2]["command"]
    driver.execute_script(
        "var s = document.getElementById('slider'); s.value = arguments[0];"
        " s.dispatchEvent(new Event('input'));", n // 3)
    assert text(driver, "stepinfo") == f"move {n // 3} of {n}" and text(driver, "totals") == views[n // 3]["totals"]
    driver.find_element("id", "last").click()
    assert text(driver, "totals") == views[n]["totals"]
    # nothing but the file itself was ever requested, and the console holds no error
    assert browser.requests(driver) == [target.as_uri()]
    assert [m for m in browser.console(driver) if m["level"] in ("SEVERE", "ERROR")] == []


def test_the_diff_page_marks_the_first_divergence(driver, tmp_path):
    from solrec.replay.html import diff_page

    a = fixture_log("soli2/duel-pouch-standard.jsonl")
    b = type(a)("cut", a.header, tuple(r for r in a.rows if r.step < 100))
    target = tmp_path / "diff.html"
    target.write_text(diff_page(a, b), encoding="utf-8")
    browser.requests(driver), browser.console(driver)
    driver.get(target.as_uri())
    first = next(r.seq for r in a.rows if r.step == 100)  # the first event of a's 101st command
    assert first and text(driver, "divergence") == "the games first differ in move 101; they agree up to move 100"
    driver.find_element("id", "jump").click()
    assert text(driver, "stepinfo") == "move 101 of 134"
    for side in ("game0", "game1"):
        assert "diverged" in driver.find_element("id", side).get_attribute("class")
        assert "first divergence" in driver.find_element("id", side).text
    assert "(the game ended after move 100)" in driver.find_element("id", "game1").text
    assert text(driver, "status").startswith("after move 101")
    assert text(driver, "command") == a.game.format(a.game.parse(next(r for r in a.rows if r.step == 100).command))
    driver.find_element("id", "prev").click()
    assert "diverged" not in driver.find_element("id", "game0").get_attribute("class")
    assert browser.requests(driver) == [target.as_uri()]
    assert [m for m in browser.console(driver) if m["level"] in ("SEVERE", "ERROR")] == []


def test_every_hex_label_of_the_space_map_is_readable_at_the_pages_default_width(driver, tmp_path):
    # issue 22: the labels were font-size 3.9; at the board's default width each renders at least 9 px high
    html = tmp_path / "space.html"
    html.write_text(page(fixture_log("solarius-mission/space-two-players-seeded.jsonl")), encoding="utf-8")
    driver.get(html.as_uri())
    driver.execute_script("var s = document.getElementById('slider'); s.value = 200; s.dispatchEvent(new Event('input'));")
    heights = driver.execute_script(
        "return Array.from(document.querySelectorAll('.board svg text'))"
        ".filter(t => /^[A-FH][0-9]+$/.test(t.textContent)).map(t => t.getBoundingClientRect().height)")
    assert len(heights) == 133  # every hex of the seven tiles
    assert min(heights) >= 9
