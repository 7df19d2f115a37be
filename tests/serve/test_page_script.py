"""The game page's script (static/table.js) in headless Chromium against a real server on 127.0.0.1:
choices narrowed click by click (buttons and the board's ``data-spot`` places), a refusal shown in
place, a command on one seat's page shown live on another's. The choices here are made two-step on
purpose (a SOLI2 square as its column, then its row) and two places are drawn on the board, so the
script's narrowing is tested whatever each game's own ``choices`` and pictures give."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solrec.core.game import Choice, Choices
from solrec.core.registry import get_game
from solrec.events.store import Store
from solrec.server.seats import make_links
from solrec.workflows.games import new_game

from ..pictures.browser import console, session
from .conftest import REFEREE, LiveServer

WAIT = 10.0


@pytest.fixture(scope="module")
def driver():
    with session(1100, 900) as d:
        yield d


@pytest.fixture
def two_step(monkeypatch):
    """SOLI2's placements as two clicks (column, then row), and two places on its board."""
    game = type(get_game("soli2"))
    looks = type(get_game("soli2").observation)  # every surface draws through the observation's draw_svg
    plain_choices, plain_svg = game.choices, looks.draw_svg

    def choices(self, state, entered=False):
        made = plain_choices(self, state, entered)
        return Choices(made.actor, tuple(
            Choice(c.command, (c.command.split()[-1][0], c.command.split()[-1][1]), c.group, f"to {c.command.split()[-1]}")
            for c in made.commands if c.command.startswith("place ")), made.forms)

    def svg(self, seen, viewer, **kwargs):
        places = ('<rect data-spot="d" x="0" y="0" width="30" height="30" fill="#ccc"/>\n'
                  '<rect data-spot="5" x="40" y="0" width="30" height="30" fill="#ccc"/>\n')
        return plain_svg(self, seen, viewer, **kwargs).replace("</svg>", places + "</svg>")

    monkeypatch.setattr(game, "choices", choices)
    monkeypatch.setattr(looks, "draw_svg", svg)


def until(check, what: str):
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            got = check()
        except StaleElementReferenceException:  # the view was just replaced: look again
            got = None
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"not within {WAIT} s: {what}")


def game_with_seats(db: Path) -> dict[str, str]:
    store = Store(db)
    new_game(store, "soli2", ["Ann", "Bob"], {}, 3, False, "duel")
    links = make_links(store, "duel", ("Ann", "Bob"))
    store.close()
    return links


def commands(db: Path) -> list[str]:
    from solrec.replay.log import load

    store = Store(db)
    try:
        return [r.command for r in load(store, "duel").rows]
    finally:
        store.close()


def loads(driver) -> int:
    """How many views the page fetched and handled (a live message's included): ``body[data-loads]``."""
    return int(driver.find_element("css selector", "body").get_attribute("data-loads") or 0)


def heard(driver) -> int:
    """How many live messages the page handled, whether it fetched its view or not: ``body[data-heard]``."""
    return int(driver.find_element("css selector", "body").get_attribute("data-heard") or 0)


def texts(driver, selector: str) -> list[str]:
    return [e.text for e in driver.find_elements("css selector", selector)]


def test_a_click_on_a_place_then_on_a_highlighted_one_plays_the_command_they_make(driver, two_step, tmp_path):
    db = tmp_path / "serve.db"
    links = game_with_seats(db)
    with LiveServer(db, 60) as server:
        driver.get(f"{server.url}/g/duel/seat/{links['Ann']}")
        until(lambda: texts(driver, "#choices button.choice"), "the first steps listed")
        assert texts(driver, "#choices .group h3") == ["place"]
        assert texts(driver, "#choices button.choice") == list("abcdefg")
        assert [e.get_attribute("data-spot") for e in driver.find_elements("css selector", ".board .spot-candidate")] == ["d"]
        driver.find_element("css selector", '.board [data-spot="d"]').click()
        until(lambda: driver.find_elements("css selector", ".picked"), "the step picked")
        steps = [e.get_attribute("data-step") for e in driver.find_elements("css selector", "#choices button.choice")]
        assert steps == list("1234567")
        # the one command each makes, in words, its notation beside it and what it does
        four = driver.find_element("css selector", '#choices button.choice[data-step="4"]')
        assert [four.find_element("css selector", k).text.strip() for k in (".words", ".notation", ".detail")] == [
            "place a black marble on d4", "place d4", "to d4"]
        assert [e.get_attribute("data-spot") for e in driver.find_elements("css selector", ".board .spot-candidate")] == ["5"]
        driver.find_element("css selector", '.board [data-spot="5"]').click()
        # the pouch draws next (seeded): the seat could not take it back, so the page asks first
        until(lambda: driver.find_element("css selector", "#confirm").is_displayed(), "the question")
        driver.find_element("css selector", "#confirm button.yes").click()
        until(lambda: "place d5" in commands(db), "the command stored")
        until(lambda: "Bob to act" in driver.find_element("css selector", ".status").text, "the board updated")
        assert not [m for m in console(driver) if m["level"] == "SEVERE"]


def test_a_refused_command_shows_its_reason_in_place_and_keeps_it_across_a_reconnection(driver, tmp_path):
    db = tmp_path / "serve.db"
    links = game_with_seats(db)
    with LiveServer(db, 1) as server:  # the live stream ends each second: the page reconnects
        driver.get(f"{server.url}/g/duel/seat/{links['Ann']}")
        box = until(lambda: driver.find_elements("css selector", "form.notation input"), "the notation box")[0]
        box.send_keys("nonsense\n")
        until(lambda: "is not SOLI2 notation" in driver.find_element("css selector", "#refusal").text, "the refusal")
        before = heard(driver)
        # past a reconnection and its message: handled once more (the first stream's message counts
        # once; only a reconnection's gives the second). Its id is the version the page shows, so
        # the page fetches nothing; the refusal stays either way
        until(lambda: heard(driver) > before and heard(driver) >= 2, "a reconnection's message handled")
        assert "is not SOLI2 notation" in driver.find_element("css selector", "#refusal").text
        assert "nonsense" not in commands(db)


def test_a_command_played_on_one_seat_shows_live_on_the_other(driver, tmp_path):
    from ..pictures.browser import chromium

    db = tmp_path / "serve.db"
    links = game_with_seats(db)
    with LiveServer(db, 60) as server, chromium(900, 800) as other:
        other.get(f"{server.url}/g/duel/seat/{links['Bob']}")
        until(lambda: other.find_elements("css selector", ".status"), "Bob's page")
        assert not other.find_elements("css selector", "#choices")
        driver.get(f"{server.url}/g/duel/seat/{links['Ann']}")
        # SOLI2's pockets are tapped on the board (no grid of coordinate buttons)
        until(lambda: driver.find_elements("css selector", ".board .spot-candidate"), "Ann's choices")[0].click()
        if driver.execute_script("var c = document.getElementById('confirm'); return !!c && !c.hidden;"):
            driver.find_element("css selector", "#confirm button.yes").click()  # the pouch draws next: asked first
        until(lambda: "(your turn)" in other.find_element("css selector", ".status").text, "Bob's page updated")
        assert other.find_elements("css selector", ".board .spot-candidate")


def test_the_referee_link_opens_the_games_and_the_script_loads_no_other_server(driver, tmp_path):
    db = tmp_path / "serve.db"
    game_with_seats(db)
    with LiveServer(db, 60) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        until(lambda: "duel" in texts(driver, "table.games a"), "the games listed")
        assert "token" not in driver.current_url
        driver.get(f"{server.url}/g/duel")
        until(lambda: driver.find_elements("css selector", ".board .spot-candidate"), "the referee's choices")


def test_a_seat_page_whose_link_was_made_anew_says_the_link_no_longer_works(driver, tmp_path):
    db = tmp_path / "serve.db"
    links = game_with_seats(db)
    with LiveServer(db, 60) as server:
        driver.get(f"{server.url}/g/duel/seat/{links['Ann']}")
        until(lambda: driver.find_elements("css selector", ".status"), "Ann's page")
        until(lambda: driver.find_element("css selector", "body").get_attribute("data-heard"), "its stream open")
        store = Store(db)
        try:
            make_links(store, "duel", ("Ann",))  # a lost phone: the referee makes Ann a new link
        finally:
            store.close()
        until(lambda: driver.find_element("css selector", "#connection").text == "this link no longer works",
              "the page to say so")
        assert not [m for m in console(driver) if m["level"] == "SEVERE" and m.get("source") == "javascript"]


def test_the_tables_page_shows_a_move_made_at_a_table_live(driver, tmp_path):
    db = tmp_path / "serve.db"
    game_with_seats(db)
    with LiveServer(db, 60) as server:
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/tables")
        until(lambda: "duel" in texts(driver, "table.tables a"), "the running game listed")
        assert texts(driver, "td.turn") == ["Ann"]
        from solrec.workflows.games import play_commands

        store = Store(db)
        try:
            play_commands(store, "duel", ["place d4"], actor="Ann")
        finally:
            store.close()
        until(lambda: texts(driver, "td.turn") == ["Bob"], "the tables page updated")
        assert "Ann: " in texts(driver, "td.last")[0]
        assert not [m for m in console(driver) if m["level"] == "SEVERE" and m.get("source") == "javascript"]
