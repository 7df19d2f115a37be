"""A SOLI2 duel played in Chromium against a bot seat (issue 33): the referee seats the bot at Bob's
seat with the form on the game's page; Ann plays her seat by clicks, asking for a hint now and then
and playing what it suggests; Bob's bot answers in the server. Screenshots of Ann's page mid-game
(the hint shown, the bot's moves marked in the move list) and of the referee's page, at 390x844 and
1280x800. tests/serve/test_bot_duel_in_browser.py plays it (screenshots into a temporary folder);
``make pictures`` writes them to docs/pictures:

    .venv/bin/python -m tests.pictures.bot_duel [OUT_DIR]   (default docs/pictures)
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

from solrec.events.store import Store
from solrec.replay.log import load, state_at
from solrec.server.seats import make_links
from solrec.workflows.games import new_game

from ..conftest import ROOT
from ..serve.conftest import REFEREE, LiveServer
from . import browser, phone
from .screenshots import whole_page

BOT = ("mcts", "simulations=24,rollout=4")  # Bob's bot: quick, so the duel ends in a test's time
HINT_BOT = "mcts:simulations=24,rollout=4"
GID = "duel"
SHOT_AT = 24  # Ann's moves before the mid-game screenshots
WAIT = 120.0  # seconds for any one thing the page waits for (a bot's move on two busy cores)


def wait(driver: Any, check: Any, what: str, seconds: float = WAIT) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]).until(
        check, f"not within {seconds} s: {what}")


def stored(db: Path) -> Any:
    store = Store(db)
    try:
        return load(store, GID)
    finally:
        store.close()


def status(driver: Any) -> str:
    found = driver.find_elements("css selector", ".status")
    return found[0].text if found else ""


def choices(driver: Any) -> list[dict[str, Any]]:
    import json

    box = driver.find_elements("css selector", "#choices")
    return json.loads(box[0].get_attribute("data-choices")) if box else []


def shown(driver: Any) -> int:
    return int(driver.find_element("css selector", ".state").get_attribute("data-position"))


def ann_to_play_or_over(driver: Any) -> bool:
    return bool(choices(driver)) or "game over" in status(driver)


def seat_the_bot(driver: Any, url: str) -> None:
    """The referee's form on the game's page: Bob's seat to the bot."""
    from selenium.webdriver.support.ui import Select

    driver.get(f"{url}/?token={REFEREE}")
    driver.get(f"{url}/g/{GID}")
    form = wait(driver, lambda d: d.find_elements("css selector", "form.bots"), "the bot seats' form")[0]
    Select(form.find_element("name", "player")).select_by_value("Bob")
    Select(form.find_element("name", "kind")).select_by_value(BOT[0])
    form.find_element("name", "settings").send_keys(BOT[1])
    form.find_element("name", "seed").send_keys("7")
    form.find_element("css selector", "button[type=submit]").click()
    wait(driver, lambda d: "Bob is the bot mcts" in d.find_element("css selector", "form.bots").text, "Bob seated as a bot")


def ask_hint(driver: Any) -> str:
    driver.find_element("css selector", "button.hint").click()
    return wait(driver, lambda d: (t := d.find_element("css selector", "#hint").text).startswith("the bot suggests") and t,
                "the hint")


def asking(driver: Any) -> bool:
    """Whether the page asks about a command (its question shown)."""
    return bool(driver.execute_script("var c = document.getElementById('confirm'); return !!c && !c.hidden;"))


def play_typed(driver: Any, command: str) -> None:
    box = driver.find_element("css selector", "form.notation input[name=command]")
    box.send_keys(command)
    driver.find_element("css selector", "form.notation button[type=submit]").click()


def shoot(driver: Any, out: Path, name: str, ready: str) -> list[Path]:
    made = []
    for label, size in (("390", phone.PHONE), ("1280", phone.DESKTOP)):
        phone.viewport(driver, size)
        wait(driver, lambda d: d.find_elements("css selector", ready), ready)
        time.sleep(0.3)  # the layout settles at the new width
        target = out / f"serve-bot-{name}-{label}.png"
        whole_page(driver, target, size[0], 2600 if label == "390" else 1600)
        made.append(target)
    phone.viewport(driver, phone.DESKTOP)
    return made


def play_against_bot(driver: Any, db: Path, out: Path) -> dict[str, Any]:
    """The whole duel; returns what the tests check: Ann's commands, the hints she followed, the
    screenshots, the stored log and the console's severe messages."""
    store = Store(db)
    try:
        new_game(store, "soli2", ["Ann", "Bob"], {"mode": "duel"}, 5, False, GID)
        links = make_links(store, GID, ("Ann",))
    finally:
        store.close()
    shots: list[Path] = []
    hints: list[str] = []
    ann: list[str] = []
    with LiveServer(db, 2, lifespan="on", bot_poll=0.2, hint_bot=HINT_BOT) as server:
        seat_the_bot(driver, server.url)
        referee_cookies = driver.get_cookies()
        driver.delete_all_cookies()  # Ann's device holds only her link
        driver.get(f"{server.url}/g/{GID}/seat/{links['Ann']}")
        while True:
            wait(driver, ann_to_play_or_over, "Ann's turn or the game's end")
            if "game over" in status(driver):
                break
            before = len(stored(db).rows)
            offered = choices(driver)
            if len(ann) % 8 == 0 or len(ann) == SHOT_AT:  # a hint now and then: Ann plays what it suggests
                text = ask_hint(driver)
                command = re.match(r"the bot suggests (.+) \(estimate [-+]\d\.\d\d for you, bot ", text).group(1)
                hints.append(command)
                if len(ann) == SHOT_AT:
                    shots += shoot(driver, out, "duel-seat", "#hint")
                play_typed(driver, command)
                asked = [c for c in offered if c["command"] == command and (c.get("ends") or c.get("final"))]
                if asked:  # a typed command the page lists as ending or final is asked about too (table.js); a
                    # final one the first time in a game only
                    wait(driver, lambda d: asking(d) or len(stored(db).rows) > before, f"{command!r} asked about or played")
                    if asking(driver):
                        driver.find_element("css selector", "#confirm button.yes").click()
            else:
                from ..serve.test_playthroughs_in_browser import click_steps

                command = offered[0]["command"]
                click_steps(driver, offered[0])
            ann.append(command)
            wait(driver, lambda d: len(stored(db).rows) > before, f"Ann's {command!r} stored")
            wait(driver, lambda d: shown(d) > before, f"Ann's {command!r} shown")  # not her last position's choices
        for cookie in referee_cookies:
            driver.add_cookie(cookie)
        driver.get(f"{server.url}/g/{GID}")
        shots += shoot(driver, out, "duel-referee", "form.bots")
        severe = [m for m in browser.console(driver) if m["level"] == "SEVERE"]
    log = stored(db)
    return {"ann": ann, "hints": hints, "shots": shots, "log": log, "over": log.game.outcome(state_at(log)) is not None,
            "severe": severe}


def main(out: Path) -> None:
    import tempfile

    reason = browser.missing()
    if reason:
        raise SystemExit(reason)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, browser.chromium(1280, 900) as driver:
        played = play_against_bot(driver, Path(tmp) / "serve.db", out)
        for shot in played["shots"]:
            print(shot)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures")
