"""Screenshots of ``solrec serve`` (``make pictures``, after the replay pages), at 390x844 (a phone)
and 1280x800 (a desk): for each of the five games, a seat mid-game (the player to act, each
recorded fixture forked at the command ``screenshots.SHOTS`` shows), a seat at the game's end, the
referee's page, a spectator's and the new-game form; and the games list. Served on 127.0.0.1 by a
thread of this process, from a database made for the shots. ``table_pages`` is the same set of
pages for tests/serve/test_phone_pages.py.

    .venv/bin/python -m tests.pictures.serve_screenshots [OUT_DIR]   (default docs/pictures)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from solrec.events.store import Store
from solrec.replay.log import load
from solrec.server import seats as seat_links
from solrec.workflows.games import fork_game, import_text

from ..conftest import FIXTURES, ROOT
from ..serve.conftest import REFEREE, LiveServer
from . import browser, phone
from .screenshots import whole_page

SIZES = {"390": phone.PHONE, "1280": phone.DESKTOP}
GAMES = ("solo-dice", "soli2", "solar-solitaire", "solari", "solarius-mission")


def mid() -> dict[str, tuple[str, int]]:
    """(fixture, command) per game: the replay pages' ``SHOTS``, Solarius Mission in its first game
    turn (the replay's shot is near the end, where no one is to act any more)."""
    from .screenshots import SHOTS

    return {**SHOTS, "solarius-mission": (SHOTS["solarius-mission"][0], 60)}


def table_pages(store: Store) -> list[tuple[str, str, str, bool]]:
    """(name, game, path, referee's cookie) of every page shot: per game the seat of the player to act
    mid-game, a seat at the end, the referee's page, a spectator's, the new-game form; the games list."""
    from solrec.replay.log import state_at

    pages: list[tuple[str, str, str, bool]] = [("games", "", "/", True)]
    for game in GAMES:
        path, command = mid()[game]
        whole, _ = import_text(store, (FIXTURES / path).read_text(encoding="utf-8"), f"{game}-end")
        log = load(store, whole)
        at = sum(1 for r in log.rows if r.step <= command)
        gid, _ = fork_game(store, log, at, game)
        forked = load(store, gid)
        actor = forked.game.to_act(state_at(forked))
        player = actor if actor in log.header.players else log.header.players[0]
        token = seat_links.make_links(store, gid, (player,))[player]
        last = log.header.players[-1]
        end_token = seat_links.make_links(store, whole, (last,))[last]
        watch = spectator_link(store, gid)
        pages += [
            ("seat", game, f"/g/{gid}/seat/{token}", False),
            ("seat-end", game, f"/g/{whole}/seat/{end_token}", False),
            ("referee", game, f"/g/{gid}", True),
            *([("spectator", game, watch, False)] if watch else []),
            ("new-game", game, f"/new?game={game}", True),
        ]
    return pages


def spectator_link(store: Store, game_id: str) -> str | None:
    make = getattr(seat_links, "make_spectator_link", None)
    return None if make is None else f"/g/{game_id}/watch/{make(store, game_id)}"


def show(driver: Any, url: str, ready: str) -> None:
    """Open ``url`` and wait until ``ready`` shows (and the script has drawn its buttons)."""
    driver.get(url)
    deadline = time.monotonic() + 30
    while not driver.find_elements("css selector", ready):
        assert time.monotonic() < deadline, f"{url}: {ready} not shown in 30 s"
        time.sleep(0.05)
    deadline = time.monotonic() + 5
    while driver.find_elements("css selector", "#choices:empty") and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)


def ready_of(name: str) -> str:
    return {"games": "table.games", "new-game": "form.newgame"}.get(name, ".state")


def main(out: Path) -> None:
    reason = browser.missing()
    if reason:
        raise SystemExit(reason)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "serve.db"
        store = Store(db)
        pages = table_pages(store)
        store.close()
        with LiveServer(db, 2) as server, browser.chromium(1280, 900) as driver:
            driver.get(f"{server.url}/?token={REFEREE}")
            referee_cookies = driver.get_cookies()
            for name, game, path, referee in pages:
                driver.delete_all_cookies()  # a seat's device holds only its link
                if referee:
                    for cookie in referee_cookies:
                        driver.add_cookie(cookie)
                for label, size in SIZES.items():
                    phone.viewport(driver, size)
                    show(driver, server.url + path, ready_of(name))
                    target = out / f"serve-{name}{'-' + game if game else ''}-{label}.png"
                    whole_page(driver, target, size[0], 2600 if label == "390" else 1600)
                    print(target)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures")
