"""A Solarius Mission turn played on a phone (390x844) by taps (issue 31): a die and its action, a
bonus, a card played, then a flight by tapping a hex on the map, zoomed by itself once a hex is to be
picked (issue 43) so that its labels read at 12 CSS px or more. Chromium, headless, on a real server on 127.0.0.1."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solrec.events.store import Store
from solrec.replay.log import load
from solrec.server.seats import make_links
from solrec.workflows.games import fork_game, import_text

from ..conftest import FIXTURES
from ..pictures import browser, phone
from .conftest import LiveServer

FIXTURE = "solarius-mission/space-three-players-seeded.jsonl"
WAIT = 60.0


def position(driver) -> str:
    return driver.execute_script("var s = document.querySelector('.state'); return s && s.getAttribute('data-position');")


def wait_for(driver, what, why: str):
    deadline = time.monotonic() + WAIT
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def tap_step(driver, step: str, plays: bool) -> None:
    before = position(driver)
    button = wait_for(driver, lambda: driver.find_elements("css selector", f'button.choice[data-step="{step}"]'),
                      f"no button {step!r}")[0]
    # a long group is folded under its heading: opened first, as a person taps it open
    driver.execute_script("var d = arguments[0].closest('details'); if (d) d.open = true;"
                          " arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    if plays:
        asked = lambda: driver.execute_script("var c = document.getElementById('confirm'); return !!c && !c.hidden;")  # noqa: E731
        wait_for(driver, lambda: position(driver) not in (None, before) or asked(), f"{step!r} played nothing")
        if position(driver) in (None, before) and asked():  # one the seat could not take back: asked about first
            driver.find_element("css selector", "#confirm button.yes").click()
        wait_for(driver, lambda: position(driver) not in (None, before), f"{step!r} played nothing")
        wait_for(driver, lambda: driver.find_elements("css selector", "#choices button.choice"), "no choices after it")


SMALLEST_LABEL = """
var svg = document.querySelector('.board svg'), box = svg.viewBox.baseVal;
var scale = svg.getBoundingClientRect().width / box.width, least = 1e9;
svg.querySelectorAll('text').forEach(function (t) {
  var size = parseFloat(getComputedStyle(t).fontSize);
  if (size > 0 && t.textContent.trim()) least = Math.min(least, size * scale);
});
return least;"""


def test_a_solarius_mission_turn_is_played_by_taps_on_a_phone(tmp_path: Path):
    db = tmp_path / "serve.db"
    store = Store(db)
    whole, _ = import_text(store, (FIXTURES / FIXTURE).read_text(encoding="utf-8"), "whole")
    log = load(store, whole)
    at = sum(1 for r in log.rows if r.step <= 127)  # Marion is to take a die
    gid, _ = fork_game(store, log, at, "turn")
    token = make_links(store, gid, ("Marion",))["Marion"]
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/g/{gid}/seat/{token}")
        wait_for(driver, lambda: driver.find_elements("css selector", "#choices button.choice"), "no choices shown")
        first = phone.top_of(driver, 'button.choice[data-step="black1@3"]')
        assert first is not None and first < phone.PHONE[1], "the dice are not on the first screen"
        tap_step(driver, "black1@3", plays=False)  # the die
        tap_step(driver, "research", plays=True)  # its action
        tap_step(driver, "bonus fuel 3", plays=True)
        tap_step(driver, "card 21", plays=False)
        tap_step(driver, "development", plays=True)
        tap_step(driver, "resources black I", plays=True)
        # a hex is to be picked: the map has zoomed by itself (issue 43); the button fits it and zooms it again
        zoomed = driver.execute_script(SMALLEST_LABEL)
        driver.find_element("css selector", "button.zoom").click()
        fitted = driver.execute_script(SMALLEST_LABEL)
        driver.find_element("css selector", "button.zoom").click()
        assert fitted < 12 <= zoomed == driver.execute_script(SMALLEST_LABEL), (fitted, zoomed)
        assert phone.sideways(driver) == 0  # the map pans inside its box; the page does not scroll sideways
        before = position(driver)
        hex_ = wait_for(driver, lambda: driver.find_elements("css selector", '.board [data-spot="H11"].spot-candidate'),
                        "H11 is not offered on the map")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", hex_)
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(driver).move_to_element(hex_).click().perform()
        wait_for(driver, lambda: position(driver) not in (None, before), "the tap on H11 played nothing")
    store = Store(db)
    try:
        commands = [g[0].command for g in load(store, gid).steps()][-4:]
    finally:
        store.close()
    # the flight is stored in the record's coordinates (the hex labelled H11 on this map is 1,1)
    assert commands == ["bonus fuel 3", "play 21 development", "resources black I", "fly 1,1"]


pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def test_a_solar_solitaire_deal_is_entered_card_by_card_from_the_cards_still_unplaced(tmp_path: Path):
    from solrec.workflows.games import new_game

    from .conftest import REFEREE

    db = tmp_path / "serve.db"
    store = Store(db)
    new_game(store, "solar-solitaire", [], {}, None, True, "table")
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/table")
        form = wait_for(driver, lambda: driver.find_elements("css selector", 'form.pick[data-template^="deal"]'),
                        "no deal form")[0]
        pad = wait_for(driver, lambda: form.find_elements("css selector", ".pad button.value"), "no pad of cards")
        assert len(pad) == 40 and "0-1-1" in [b.text for b in pad] and "1-1-0" not in [b.text for b in pad]
        for card in ("1-2-3", "0-0-1", "2-3-2", "0-1-1"):
            button = form.find_element("css selector", f'.pad button.value[data-value="{card}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
            button.click()
            assert not button.is_displayed(), f"{card} is placed: it leaves the pad"
        submit = form.find_element("css selector", "button[type=submit]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
        submit.click()
        wait_for(driver, lambda: position(driver) not in (None, "0"), "the deal was not stored")
        assert phone.sideways(driver) == 0
    store = Store(db)
    try:
        assert load(store, "table").rows[0].command == "deal 1-2-3 0-0-1 2-3-2 0-1-1"
    finally:
        store.close()


def test_resigning_asks_first_and_no_stores_nothing(tmp_path: Path):
    from solrec.workflows.games import new_game

    db = tmp_path / "serve.db"
    store = Store(db)
    new_game(store, "solar-solitaire", ["Ann"], {}, 3, False, "g")
    token = make_links(store, "g", ("Ann",))["Ann"]
    events = len(load(store, "g").rows)
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/g/g/seat/{token}")
        box = wait_for(driver, lambda: driver.find_elements("css selector", "form.notation input"), "no command box")[0]
        box.send_keys("resign")
        driver.find_element("css selector", "form.notation button").click()
        wait_for(driver, lambda: driver.find_element("css selector", "#confirm").is_displayed(), "resign was not questioned")
        assert "ends the game" in driver.find_element("css selector", "#confirm-text").text
        driver.find_element("css selector", "#confirm button.no").click()
        assert not driver.find_element("css selector", "#confirm").is_displayed()
    store = Store(db)
    try:
        assert len(load(store, "g").rows) == events
    finally:
        store.close()


def test_solarius_missions_tiles_and_cards_are_entered_by_taps_each_tile_once(tmp_path: Path):
    from solrec.cli.session import new_game

    from .conftest import REFEREE

    db = tmp_path / "serve.db"
    store = Store(db)
    new_game(store, "solarius-mission", ["Ann", "Bob"], {}, None, True, "table")
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/table")
        form = wait_for(driver, lambda: driver.find_elements("css selector", 'form.pick[data-template^="tiles"]'),
                        "no tiles form")[0]
        pads = form.find_elements("css selector", ".pad")
        assert [p.get_attribute("aria-label") for p in pads] == ["tap each tile in order", "tap each turn in order"]
        tiles = [b.text for b in pads[0].find_elements("css selector", "button.value")]
        assert len(tiles) == 6
        order = tiles[::-1]
        for k, tile in enumerate(order):
            button = pads[0].find_element("css selector", f'button.value[data-value="{tile}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
            button.click()
            assert not button.is_displayed(), f"tile {tile} is placed: it leaves the pad"
            turn = pads[1].find_element("css selector", f'button.value[data-value="{k % 6}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", turn)
            turn.click()
            assert turn.is_displayed() or k == 5, "a turn may be used again"
        assert form.find_element("css selector", ".filled").text.startswith("12 of 12")
        submit = form.find_element("css selector", "button[type=submit]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
        submit.click()
        wait_for(driver, lambda: position(driver) not in (None, "0"), "the tiles were not stored")
        # the next chance step names one thing (a start card, a card, a player, a die): a row of values, one tapped
        form = wait_for(driver, lambda: driver.find_elements("css selector", "form.pick.tapped"), "no pad after the tiles")[0]
        values = form.find_elements("css selector", ".pad button.value")
        assert values and phone.sideways(driver) == 0
        before = position(driver)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", values[-1])
        values[-1].click()
        assert values[-1].get_attribute("aria-pressed") == "true"
        chosen = values[-1].get_attribute("data-value")
        template = form.get_attribute("data-template")
        submit = form.find_element("css selector", "button[type=submit]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
        submit.click()
        wait_for(driver, lambda: position(driver) not in (None, before), "the tapped value was not stored")
    store = Store(db)
    try:
        steps = load(store, "table").steps()
        assert steps[0][0].command == "tiles " + " ".join(f"{t}{k}" for k, t in enumerate(order))
        assert chosen in steps[1][0].command.split() and steps[1][0].command.split()[0] == template.split()[0]
    finally:
        store.close()
