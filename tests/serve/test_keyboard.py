"""Every action with the keyboard alone (issue 31): the board's places a click may pick are buttons
to assistive technology, named in the game's words and reached by Tab; Enter picks one; a command
asked about is confirmed from the keyboard too. Chromium, headless, on a real server on 127.0.0.1."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solrec.cli.session import new_game
from solrec.events.store import Store
from solrec.replay.log import load
from solrec.server.seats import make_links

from ..pictures import browser
from .conftest import LiveServer

WAIT = 30.0
pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def until(check, what: str):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"not within {WAIT} s: {what}")


FOCUSED = """var e = document.activeElement; if (!e) return null;
return {spot: e.getAttribute('data-spot'), role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
        candidate: !!(e.classList && e.classList.contains('spot-candidate')), yes: !!(e.classList && e.classList.contains('yes'))};"""


def test_a_solari_turn_is_played_with_the_keyboard_alone_from_the_boards_named_places(tmp_path: Path):
    from solrec.replay.log import state_at

    db = tmp_path / "serve.db"
    store = Store(db)
    new_game(store, "solari", ["Ann", "Bob"], {}, 7, False, "duel")
    log = load(store, "duel")
    player = log.game.to_act(state_at(log))
    token = make_links(store, "duel", (player,))[player]
    before = len(log.rows)
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        driver.get(f"{server.url}/g/duel/seat/{token}")
        until(lambda: driver.find_elements("css selector", ".board .spot-candidate"), "no place offered on the board")
        places = driver.find_elements("css selector", ".board .spot-candidate")
        assert places
        for p in places:  # every place to pick is a named button in the tab order
            assert p.get_attribute("role") == "button" and p.get_attribute("tabindex") == "0"
            assert p.get_attribute("aria-label"), p.get_attribute("data-spot")
        first, confirmed = play_by_keys(driver, db, before)
        first_row = _rows(db)[before]
        while not confirmed and len(_rows(db)) < before + 20:  # on to the move that hands the dice to chance
            _, confirmed = play_by_keys(driver, db, len(_rows(db)))
        assert confirmed, "no move of the turn was asked about (the last one cannot be taken back)"
    assert first_row.actor == player and first_row.command.startswith(first)


def play_by_keys(driver, db: Path, before: int) -> tuple[str, bool]:
    """Tab to a place on the board, Enter, Enter on the destination that has the focus, and "yes"
    from the keyboard where the page asks: the first place's step, and whether it asked."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    until(lambda: driver.find_elements("css selector", ".board .spot-candidate"), "no place offered on the board")
    driver.execute_script("document.activeElement && document.activeElement.blur && document.activeElement.blur();")
    for _ in range(200):  # Tab until a place on the board has the focus
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.execute_script(FOCUSED)
        if focused and focused["candidate"]:
            break
    else:
        raise AssertionError("Tab never reaches a place on the board")
    first = focused["spot"]
    assert focused["role"] == "button" and focused["label"].endswith(first)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    stored = lambda: len(_rows(db)) > before  # noqa: E731
    asked = lambda: driver.execute_script("var c = document.getElementById('confirm'); return !!c && !c.hidden;")  # noqa: E731
    # picked: the places it may go to are offered, the first has the focus; Enter plays the move
    until(lambda: stored() or asked() or ((driver.execute_script(FOCUSED) or {}).get("candidate")
                                          and driver.execute_script(FOCUSED)["spot"] != first), "the focus on a destination")
    if not stored() and not asked():
        ActionChains(driver).send_keys(Keys.ENTER).perform()
    until(lambda: stored() or asked(), "the move neither played nor asked about")
    confirmed = bool(asked())
    if confirmed:  # asked about: "no, go back" has the focus; Shift+Tab reaches "yes"
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert driver.execute_script(FOCUSED)["yes"]
        ActionChains(driver).send_keys(Keys.ENTER).perform()
    until(stored, "the move played with the keyboard was not stored")
    until(lambda: driver.execute_script("var s = document.querySelector('.state'); return s && s.getAttribute('data-position');")
          == str(len(_rows(db))), "the page at the new position")
    return first, confirmed




def _rows(db: Path):
    store = Store(db)
    try:
        return load(store, "duel").rows
    finally:
        store.close()
