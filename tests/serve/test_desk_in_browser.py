"""The referee's desk in headless Chromium (issue 30), on a live server on 127.0.0.1: a game opened
at ``#move=12``, a spectator link live and read-only, the disputes page opening a disputed move, a
study page with the fixture's two forks as chapters; and the impact report's page of a changed game.
Screenshots at 1280x800 and 390x844 go to /tmp (looked at by whoever changes these pages)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solrec.events.store import Store
from solrec.workflows.games import import_all, new_game

from ..conftest import FIXTURES, Cli
from ..pictures.browser import chromium, session
from .conftest import REFEREE, LiveServer
from .test_playthroughs_in_browser import wait

DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"
SIZES = ((1280, 800), (390, 844))


@pytest.fixture(scope="module")
def driver():
    with session(1280, 800) as d:
        yield d


def stored(tmp_path: Path) -> Path:
    db = tmp_path / "desk.db"
    store = Store(db)
    try:
        import_all(store, DISPUTED.read_text(), "disp")
        new_game(store, "solar-solitaire", ["Solo"], {}, 3, False, "deal")
    finally:
        store.close()
    return db


def move_shown(driver: Any) -> str:
    return driver.find_element("css selector", ".state").get_attribute("data-move")


def shots(url: str, name: str, ready, cookie: bool = False, server: Any = None) -> None:
    for w, h in SIZES:
        with chromium(w, h) as d:
            if cookie:
                d.get(f"{server.url}/?token={REFEREE}")
            d.get(url)
            wait(d, ready, f"{name} ready")
            d.save_screenshot(f"/tmp/solrec-desk-{name}-{w}x{h}.png")


def test_a_referee_opens_a_served_game_at_move_12_and_the_address_follows(driver, tmp_path):
    db = stored(tmp_path)
    with LiveServer(db, 5) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/disp#move=12")
        wait(driver, lambda d: move_shown(d) == "12", "the page at move 12")
        assert "after move 12" in driver.find_element("css selector", ".status").text
        assert driver.find_element("css selector", ".moves li.current").get_attribute("data-move") == "12"
        driver.find_element("css selector", '.moves a.goto[data-move="10"]').click()
        wait(driver, lambda d: move_shown(d) == "10" and d.execute_script("return location.hash") == "#move=10",
             "the address kept at move 10")
        shots(f"{server.url}/g/disp#move=12", "referee-move-12", lambda d: move_shown(d) == "12", True, server)


def test_a_spectator_link_shows_the_public_view_live_and_refuses_a_write(driver, tmp_path):
    db = stored(tmp_path)
    with LiveServer(db, 5) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/deal")
        driver.find_element("css selector", "form.spectators button").click()
        link = wait(driver, lambda d: d.find_elements("css selector", "a.spectator-link"), "the spectator link")[0]
        watch = link.get_attribute("href")
        with chromium(390, 844) as spectator:
            spectator.get(watch)
            wait(spectator, lambda d: d.find_elements("css selector", ".state"), "the spectator's page")
            assert "a spectator" in spectator.find_element("css selector", ".who").text
            assert not spectator.find_elements("css selector", "form.note, #choices, button.undo")
            assert "seed" not in spectator.find_element("css selector", ".setup").text.replace("chance seeded", "")
            start = move_shown(spectator)
            # a write from the spectator's page is refused, and nothing is stored
            status = spectator.execute_async_script(
                "var done = arguments[0]; var s = document.querySelector('.state');"
                "fetch(location.pathname + '/play', {method: 'POST', headers: {'content-type':"
                " 'application/x-www-form-urlencoded'}, body: 'command=resign&at=' + s.getAttribute('data-position') +"
                " '&head=' + s.getAttribute('data-head') + '&csrf='}).then(function (r) { done(r.status); });")
            assert status == 403
            store = Store(db)
            try:
                assert store.game_row("deal")["events"] == int(spectator.find_element("css selector", ".state")
                                                              .get_attribute("data-position"))
            finally:
                store.close()
            # the referee plays: the spectator's page follows live
            driver.get(f"{server.url}/g/deal")
            wait(driver, lambda d: d.find_elements("css selector", "form.notation input"), "the referee's box")
            driver.find_element("css selector", "form.notation input").send_keys("resign")
            driver.find_element("css selector", "form.notation button").click()
            # resigning asks first (issue 31): confirmed
            wait(driver, lambda d: d.find_element("css selector", "#confirm").is_displayed(), "the confirmation")
            driver.find_element("css selector", "#confirm button.yes").click()
            wait(spectator, lambda d: "game over" in d.find_element("css selector", ".status").text, "the live update")
            assert move_shown(spectator) != start
            spectator.save_screenshot("/tmp/solrec-desk-spectator-390x844.png")
        shots(watch, "spectator", lambda d: d.find_elements("css selector", ".state"))


def test_the_disputes_page_lists_the_disputed_comment_and_opens_its_move(driver, tmp_path):
    db = stored(tmp_path)
    with LiveServer(db, 5) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/disputes")
        rows = driver.find_elements("css selector", "tr.dispute")
        disputed = [r for r in rows if "disputed" in r.text]
        assert disputed and "the comet went 06-00" in disputed[0].text
        times = [r.find_element("css selector", "td").text for r in rows]
        assert times == sorted(times, reverse=True)  # newest first
        shots(f"{server.url}/disputes", "disputes", lambda d: d.find_elements("css selector", "tr.dispute"), True, server)
        disputed = [r for r in driver.find_elements("css selector", "tr.dispute") if "disputed" in r.text]
        disputed[0].find_element("css selector", "a.goto-move").click()
        wait(driver, lambda d: d.find_elements("css selector", ".state") and move_shown(d) == "10", "the disputed move")
        notes = driver.find_element("css selector", '.moves li[data-move="10"]').text
        assert "the comet went 06-00" in notes


def test_a_study_page_shows_the_fixtures_two_forks_as_chapters(driver, tmp_path):
    db = stored(tmp_path)
    with LiveServer(db, 5) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/disp")
        driver.find_element("css selector", "a.study").click()
        wait(driver, lambda d: d.find_elements("css selector", "section.chapter"), "the study page")
        chapters = driver.find_elements("css selector", "section.chapter")
        assert [c.get_attribute("data-id") for c in chapters] == ["disp", "disp.void", "disp.other"]
        assert "It leaves disp after move 9" in chapters[1].text and "It leaves disp after move 21" in chapters[2].text
        assert "the comet went 06-00" in chapters[0].text
        # styled by the server's sheet (no inline style there): the chapters are boxed in its rule
        assert chapters[0].value_of_css_property("border-top-style") == "solid"
        shots(f"{server.url}/g/disp/study", "study", lambda d: d.find_elements("css selector", "section.chapter"), True, server)


def test_the_impact_page_names_what_it_tested_and_opens_the_changed_game_at_its_first_differing_move(driver, tmp_path):
    cli = Cli(tmp_path / "impact.db")
    for path in sorted((FIXTURES / "solari").glob("*.jsonl")):
        cli.run("import", str(path))
    report = tmp_path / "impact.html"
    out = cli.run("impact", "--all", "-o", "diminished=squares", "--html", str(report), expect=1).stdout
    assert out.rstrip().endswith(f"wrote {report}")
    driver.get(report.as_uri())
    text = driver.find_element("css selector", "body").text
    assert "tested solari: diminished comets (as recorded) -> squares" in text
    assert f"corpus: {cli.db} (7 games)" in text
    from solrec.cli.app import VERSION

    assert f"by solrec {VERSION} on " in text
    for w, h in SIZES:
        driver.set_window_size(w, h)
        driver.save_screenshot(f"/tmp/solrec-desk-impact-report-{w}x{h}.png")
    driver.set_window_size(1280, 800)
    link = driver.find_element("css selector", "a.move")
    move = int(re.search(r"move (\d+)", link.text).group(1))
    driver.find_element("link text", "two-players-greedy-to-36-entered").click()
    wait(driver, lambda d: d.find_elements("css selector", "#stepinfo"), "the game's page")
    assert driver.find_element("css selector", "#stepinfo").text.startswith(f"move {move} of ")
    assert "diminished comets (as recorded) -> squares" in driver.find_element("css selector", "#tested").text
    changed = driver.find_elements("css selector", "#game0 .sheet tr.changed")
    assert changed and all("changed" in r.text for r in changed)
    final = driver.find_elements("css selector", "#final tr.changed")
    assert final and "diminished" in final[0].text
    for w, h in SIZES:
        driver.set_window_size(w, h)
        driver.execute_script("arguments[0].scrollIntoView()", changed[0])
        driver.save_screenshot(f"/tmp/solrec-desk-impact-game-{w}x{h}.png")
    driver.set_window_size(1280, 800)
    data = cli.json("impact", "--all", "--from", "diminished=comets", "--to", "diminished=squares", expect=1)
    assert data["tested"]["change"] == [{"game": "solari", "option": "diminished", "recorded": ["comets"],
                                         "from": "comets", "to": "squares"}]
    assert [c["id"] for c in data["changed"]] == ["two-players-greedy-to-36-entered"]
    assert "game_id" not in json.dumps(data)
