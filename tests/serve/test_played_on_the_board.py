"""Moves in words, played on the board, on a phone (issue 43 item 3): a SOLI2 duel against a bot seat
played to its end by taps on the board at 390x844 (no grid of coordinate buttons; a jump shows where the
marble lands and what it removes before it is played; the "cannot be taken back" question once a
game), three Solarius Mission turns played by taps, each command's button in the game's words with its
notation beside it; the taps per turn counted (printed: ``-s``); axe-core's serious and critical
violations none, at 390x844 and 1280x800. Chromium, headless, on a real server on 127.0.0.1.

Screenshots go to ``SOLREC_SHOTS`` where it is set (a folder), else to the test's temporary folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from solrec.events.store import Store
from solrec.replay.log import load, state_at
from solrec.server.seats import make_links
from solrec.workflows.games import fork_game, import_text, new_game

from ..conftest import FIXTURES
from ..pictures import browser, phone
from ..pictures.bot_duel import seat_the_bot
from ..pictures.screenshots import whole_page
from .conftest import LiveServer
from .test_phone_taps import SMALLEST_LABEL

WAIT = 40.0  # seconds for any one thing the page waits for (a bot's move on two busy cores)
pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def shots_dir(tmp_path: Path) -> Path:
    out = Path(os.environ.get("SOLREC_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def wait(driver: Any, check: Any, what: str) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]).until(
        check, f"not within {WAIT} s: {what}")


def position(driver: Any) -> int:
    return int(driver.execute_script("var s = document.querySelector('.state'); return s ? s.getAttribute('data-position') : -1;"))


def offered(driver: Any) -> list[dict[str, Any]]:
    raw = driver.execute_script("var b = document.getElementById('choices'); return b && b.getAttribute('data-choices');")
    return json.loads(raw) if raw else []


def asked(driver: Any) -> bool:
    return bool(driver.execute_script("var c = document.getElementById('confirm'); return !!c && !c.hidden;"))


def status(driver: Any) -> str:
    return driver.execute_script("var s = document.querySelector('.status'); return s ? s.textContent : '';")


def tap(driver: Any, element: Any) -> None:
    """A finger's tap where the element is (scrolled into view first where it is off the screen)."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("var r = arguments[0].getBoundingClientRect();"
                          " if (r.top < 0 || r.bottom > innerHeight) arguments[0].scrollIntoView({block: 'center'});", element)
    ActionChains(driver).move_to_element(element).click().perform()


def spot(driver: Any, step: str) -> Any:
    return wait(driver, lambda d: d.find_elements("css selector", f'.board [data-spot="{step}"].spot-candidate'),
                f"{step} highlighted on the board")[0]


def in_first_screen(driver: Any, selector: str) -> bool:
    """Whether the element is wholly on the first screen of the page (scrolled to its top)."""
    return bool(driver.execute_script(
        "var e = document.querySelector(arguments[0]); if (!e) return false; var r = e.getBoundingClientRect();"
        " return r.top + scrollY >= 0 && r.bottom + scrollY <= innerHeight;", selector))


def both_sizes(driver: Any, out: Path, name: str) -> None:
    """The first screen at 390x844 and at 1280x800, the page left at the phone's size."""
    driver.save_screenshot(str(out / f"{name}-390.png"))
    phone.viewport(driver, phone.DESKTOP)
    driver.save_screenshot(str(out / f"{name}-1280.png"))
    phone.viewport(driver, phone.PHONE)


# -- SOLI2: a duel against a bot seat, by taps on the board ------------------------------------------------
def play_soli2_by_taps(driver: Any, db: Path, out: Path) -> dict[str, Any]:
    store = Store(db)
    try:
        new_game(store, "soli2", ["Ann", "Bob"], {"mode": "duel"}, 5, False, "duel")
        links = make_links(store, "duel", ("Ann",))
    finally:
        store.close()
    taps: dict[str, list[int]] = {"place": [], "jump": []}
    questions = 0
    seen: dict[str, Any] = {}
    with LiveServer(db, 30, lifespan="on", bot_poll=0.2) as server:
        seat_the_bot(driver, server.url)  # the referee's form: Bob's seat to a quick mcts bot
        driver.delete_all_cookies()  # Ann's phone holds only her link
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/g/duel/seat/{links['Ann']}")
        while True:
            wait(driver, lambda d: offered(d) or "game over" in status(d), "Ann's turn or the game's end")
            if "game over" in status(driver):
                break
            choices = offered(driver)
            before = position(driver)
            kind = choices[0]["group"]
            if kind == "place" and "board-first" not in seen:
                # every pocket of the board on the first screen (its coordinates' bottom row and top row)
                seen["board-first"] = all(in_first_screen(driver, f'.board [data-spot="{sq}"]') for sq in ("a1", "g1", "a7"))
                seen["buttons"] = len(driver.find_elements("css selector", "#choices button.choice"))
                seen["place-words"] = driver.find_element("css selector", "#choices").text
                both_sizes(driver, out, "soli2-place")
            # a jump whose marble has one landing only, to show that one tap never plays it
            single = [c for c in choices if sum(1 for o in choices if o["steps"][0] == c["steps"][0]) == 1]
            choice = single[0] if kind == "jump" and single else choices[len(taps[kind]) % len(choices)]
            count = 0
            for k, step in enumerate(choice["steps"]):
                tap(driver, spot(driver, step))
                count += 1
                if kind == "jump" and k == 0:
                    # the landing square highlighted and the marble it removes marked, nothing played yet
                    landing = spot(driver, choice["steps"][1])
                    taken = driver.find_elements("css selector", f'.board [data-spot="{choice["takes"][0]}"].spot-taken')
                    assert taken, f"{choice['takes'][0]} is not marked as removed"
                    assert position(driver) == before and not asked(driver), "a tap on a marble played its jump"
                    seen.setdefault("landing-label", landing.get_attribute("aria-label"))
                    seen.setdefault("landing-list", driver.find_element("css selector", "#choices").text)
                    if "jump-shot" not in seen:
                        seen["jump-shot"] = True
                        both_sizes(driver, out, "soli2-jump")
            wait(driver, lambda d: position(d) != before or asked(d), f"{choice['command']!r} played or asked about")
            if asked(driver) and position(driver) == before:
                questions += 1
                seen.setdefault("question", driver.find_element("css selector", "#confirm-text").text)
                seen.setdefault("scrolled", driver.execute_script("return scrollY"))
                tap(driver, driver.find_element("css selector", "#confirm button.yes"))
                count += 1
            wait(driver, lambda d: position(d) > before, f"Ann's {choice['command']!r} shown")
            taps[kind].append(count)
        phone.viewport(driver, phone.PHONE)
        whole_page(driver, out / "soli2-over-390.png", 390, 2600)
        phone.viewport(driver, phone.PHONE)
        serious_phone = phone.serious(driver)
        phone.viewport(driver, phone.DESKTOP)
        whole_page(driver, out / "soli2-over-1280.png", 1280, 1600)
        phone.viewport(driver, phone.DESKTOP)
        serious_desktop = phone.serious(driver)
        severe = [m for m in browser.console(driver) if m["level"] == "SEVERE"]
    store = Store(db)
    try:
        log = load(store, "duel")
    finally:
        store.close()
    return {"taps": taps, "questions": questions, "seen": seen, "over": log.game.outcome(state_at(log)) is not None,
            "serious": serious_phone + serious_desktop, "severe": severe}


@pytest.fixture(scope="module")
def driver():
    with browser.session(1280, 900) as d:
        yield d


def test_a_soli2_duel_against_a_bot_is_played_by_taps_on_the_board_of_a_phone(driver, tmp_path):
    pytest.importorskip("pyspiel", reason="bot seats need the ai extra (pip install 'solrec[ai]')")
    phone.require_axe()
    played = play_soli2_by_taps(driver, tmp_path / "serve.db", shots_dir(tmp_path))
    seen = played["seen"]
    print("SOLI2 taps per turn:", {k: sorted(set(v)) for k, v in played["taps"].items()},
          "placements", len(played["taps"]["place"]), "jumps", len(played["taps"]["jump"]))
    assert played["over"], "the duel ended"
    assert seen["board-first"], "the board is not on the first screen"
    assert seen["buttons"] == 0, "a grid of coordinate buttons"
    assert "tap one of the" in seen["place-words"]
    # one placement asked about (the first), then one tap each; a jump: the marble, then where it lands
    assert played["questions"] == 1 and seen["scrolled"] == 0, (played["questions"], seen)
    assert played["taps"]["place"][0] == 2 and set(played["taps"]["place"][1:]) == {1}
    assert played["taps"]["jump"] and set(played["taps"]["jump"]) == {2}
    assert seen["landing-label"].startswith("jump the ") and ", removing the " in seen["landing-label"]
    assert "removing the" in seen["landing-list"]
    assert "cannot be taken back" in seen["question"] and "place a " in seen["question"]
    assert not played["serious"], played["serious"]
    assert not played["severe"], played["severe"]


# -- Solarius Mission: three turns by taps, in words -------------------------------------------------------
FIXTURE = "solarius-mission/space-three-players-seeded.jsonl"


def tap_button(driver: Any, step: str) -> None:
    button = wait(driver, lambda d: d.find_elements("css selector", f'#choices button.choice[data-step="{step}"]'),
                  f"a button for {step!r}")[0]
    driver.execute_script("var d = arguments[0].closest('details'); if (d) d.open = true;", button)
    tap(driver, button)




def play_turn(driver: Any, pick: Any, labels: list[float], shots: Path) -> int:
    """A seat plays its commands until the turn passes; ``pick`` chooses each command from those
    offered. Returns the taps it took; ``labels`` gets the smallest label of the map, in CSS px,
    wherever a hex is to be picked."""
    taps = 0
    me = driver.execute_script("return document.body.getAttribute('data-viewer')")
    while True:
        wait(driver, lambda d: offered(d) or me not in status(d), "a choice or the turn passed")
        choices = offered(driver)
        if not choices or "(your turn)" not in status(driver):
            return taps
        if any(c["group"] == "fly" for c in choices):
            labels.append(driver.execute_script(SMALLEST_LABEL))
            if len(labels) == 1:  # the first screen where a hex is to be picked, and the map scrolled to the hexes
                driver.save_screenshot(str(shots / "mission-fly-390.png"))
                driver.execute_script("document.querySelector('.board').scrollIntoView({block: 'start'});")
                driver.save_screenshot(str(shots / "mission-fly-map-390.png"))
                driver.execute_script("window.scrollTo(0, 0);")
        choice = pick(choices, taps)
        before = position(driver)
        for k, step in enumerate(choice["steps"]):
            candidates = driver.find_elements("css selector", f'.board [data-spot="{step}"].spot-candidate')
            on_board = [e for e in candidates if e.size["width"] >= 24 or "zoomed" in
                        driver.find_element("css selector", ".board").get_attribute("class")]
            if on_board and not driver.find_elements("css selector", f'#choices button.choice[data-step="{step}"]'):
                tap(driver, on_board[0])
            else:
                tap_button(driver, step)
            taps += 1
            rest = [c for c in choices if c["steps"][:k + 1] == choice["steps"][:k + 1]]
            if len(rest) == 1:
                break
        wait(driver, lambda d: position(d) != before or asked(d), f"{choice['command']!r} played or asked about")
        if asked(driver) and position(driver) == before:
            tap(driver, driver.find_element("css selector", "#confirm button.yes"))
            taps += 1
        wait(driver, lambda d: position(d) > before, f"{choice['command']!r} shown")


def test_three_solarius_mission_turns_are_played_by_taps_on_a_phone_in_words(driver, tmp_path):
    phone.require_axe()
    out = shots_dir(tmp_path)
    db = tmp_path / "serve.db"
    store = Store(db)
    whole, _ = import_text(store, (FIXTURES / FIXTURE).read_text(encoding="utf-8"), "whole")
    log = load(store, whole)
    at = sum(1 for r in log.rows if r.step <= 127)  # Marion is to take a die
    gid, _ = fork_game(store, log, at, "turn")
    links = make_links(store, gid, ("Marion", "Tom", "Ute"))
    store.close()
    taps: list[tuple[str, int]] = []
    with LiveServer(db, 30) as server:
        phone.viewport(driver, phone.PHONE)
        driver.get(f"{server.url}/g/{gid}/seat/{links['Marion']}")
        wait(driver, lambda d: d.find_elements("css selector", "#choices button.choice"), "Marion's choices")
        # the dice in words, the notation beside them in small type; the choices and her mat on the first two screens
        words = [e.text for e in driver.find_elements("css selector", "#choices button.choice .words")]
        assert any(w.startswith("the black 1 die on the +3 space") for w in words), words
        notation = driver.find_element("css selector", '#choices button.choice[data-step="black1@3"] .notation')
        assert notation.text.strip() == "black1@3" and float(notation.value_of_css_property("font-size")[:-2]) <= 12
        whole_page(driver, out / "mission-turn-390.png", 390, 3400)
        phone.viewport(driver, phone.PHONE)
        assert (phone.top_of(driver, "section.act") or 1e9) < phone.PHONE[1]
        # her mat: from its heading to the next player's, within the first two screens
        mat = driver.execute_script(
            "var ts = Array.prototype.slice.call(document.querySelectorAll('.board svg text'));"
            " var top = function (t) { return t.getBoundingClientRect().top + scrollY; };"
            " var mine = ts.find(function (t) { return t.textContent.indexOf('Marion (') === 0; });"
            " if (!mine) return [null, null];"
            " var next = ts.find(function (t) { return top(t) > top(mine) && /^(Tom|Ute)( \\(|$)/.test(t.textContent); });"
            " var svg = document.querySelector('.board svg').getBoundingClientRect();"
            " return [top(mine), next ? top(next) : svg.bottom + scrollY];")
        print("Marion's mat at", mat, "px")
        assert mat[0] is not None and mat[1] is not None and mat[1] <= 2 * phone.PHONE[1], f"Marion's mat spans {mat} px"
        assert not phone.serious(driver)
        # Marion: a die, its action, then what the turn asks, ending it
        labels: list[float] = []
        taps.append(("Marion", play_turn(driver, fly_then_end, labels, out)))
        for seat in ("Tom", "Ute"):
            driver.get(f"{server.url}/g/{gid}/seat/{links[seat]}")
            taps.append((seat, play_turn(driver, fly_then_end, labels, out)))
        phone.viewport(driver, phone.DESKTOP)
        whole_page(driver, out / "mission-turn-1280.png", 1280, 2400)
        phone.viewport(driver, phone.DESKTOP)
        assert not phone.serious(driver)
    print("Solarius Mission taps per turn:", taps, "smallest map label where a hex is picked:", labels)
    assert all(0 < n <= 12 for _, n in taps), taps
    assert labels and min(labels) >= 12, labels  # the map zoomed by itself wherever a hex is to be picked


def fly_then_end(choices: list[dict[str, Any]], taps: int) -> dict[str, Any]:
    """A short turn: a die and its first action, a flight where one is offered early in the turn, then
    the end of the turn where offered, else the first command offered (a bonus, a card's side)."""
    flights = [c for c in choices if c["group"] == "fly"]
    if flights and taps < 6:
        return flights[0]
    for group in ("end-turn", "pass", "end", "close"):
        found = [c for c in choices if c["command"].split(" ")[0] == group]
        if found:
            return found[0]
    return choices[0]
