"""Screenshots of ``solrec serve`` for the README (``make pictures``, after the replay pages): the
games list, the new-game form, one seat's page per game mid-game (each recorded fixture forked at
the command ``screenshots.SHOTS`` shows), the referee's page of an entered Solo Dice game with its
form of dice. Served on 127.0.0.1 by a thread of this process, from a database made for the shots.

    .venv/bin/python -m tests.pictures.serve_screenshots [OUT_DIR]   (default docs/pictures)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from solrec.cli.server.seats import make_links
from solrec.cli.session import fork_game, import_text, new_game
from solrec.events.store import Store
from solrec.replay.log import load

from ..conftest import FIXTURES, ROOT
from ..serve.conftest import REFEREE, LiveServer
from . import browser
from .screenshots import whole_page

WIDTH = 1200


def shoot(driver: Any, url: str, target: Path, ready: str = ".state") -> None:
    """The page at ``url`` once ``ready`` shows, the viewport as tall as the page."""
    driver.get(url)
    deadline = time.monotonic() + 20
    while not driver.find_elements("css selector", ready):
        assert time.monotonic() < deadline, f"{url}: {ready} not shown in 20 s"
        time.sleep(0.05)
    time.sleep(0.3)  # the script's buttons drawn
    whole_page(driver, target, WIDTH, 3200)
    print(target)


def mid() -> dict[str, tuple[str, int]]:
    """(fixture, command) per game: the replay pages' ``SHOTS``, Solarius Mission in its first game
    turn (the replay's shot is near the end, where no one is to act any more)."""
    from .screenshots import SHOTS

    return {**SHOTS, "solarius-mission": (SHOTS["solarius-mission"][0], 60)}


def mid_games(store: Store) -> dict[str, tuple[str, str]]:
    """game -> (id, a seat token): each fixture of ``mid()`` forked after its command, the seat of the
    player to act there (the first player where chance is)."""
    from solrec.replay.log import state_at

    seats = {}
    for game, (path, command) in mid().items():
        whole, _ = import_text(store, (FIXTURES / path).read_text(encoding="utf-8"), f"{game}-whole")
        log = load(store, whole)
        at = sum(1 for r in log.rows if r.step <= command)
        gid, _ = fork_game(store, log, at, game)
        forked = load(store, gid)
        actor = forked.game.to_act(state_at(forked))
        player = actor if actor in log.header.players else log.header.players[0]
        seats[game] = (gid, make_links(store, gid, (player,))[player])
    return seats


def main(out: Path) -> None:
    reason = browser.missing()
    if reason:
        raise SystemExit(reason)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "serve.db"
        store = Store(db)
        seats = mid_games(store)
        new_game(store, "solo-dice", ["Ann"], {}, None, True, "dice-at-the-table")
        store.close()
        with LiveServer(db, 2) as server, browser.chromium(WIDTH, 900) as driver:
            driver.get(f"{server.url}/?token={REFEREE}")
            shoot(driver, f"{server.url}/", out / "serve-games.png", "table.games")
            shoot(driver, f"{server.url}/new?game=soli2", out / "serve-new-game.png", "form")
            shoot(driver, f"{server.url}/g/dice-at-the-table", out / "serve-referee.png", "form.pick")
            driver.delete_all_cookies()  # a seat's device holds only its link
            for game, (gid, token) in seats.items():
                shoot(driver, f"{server.url}/g/{gid}/seat/{token}", out / f"serve-seat-{game}.png")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures")
