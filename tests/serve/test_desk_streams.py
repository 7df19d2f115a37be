"""Many pages, one viewer, no churn (issue 42, item 2): a referee's desk of six game pages and a
family's six phones on one spectator link stay open together, every one of them live, none closed by
the server; the referee's tables page shows every running game on one stream (whose turn, the score,
the last move), each linking to its game. A real uvicorn on 127.0.0.1, bounded; the 60 s run of 8
referee pages beside 256 tables is `bench/bench_serve_load.py --referee-pages 8`; the same desk held
for 60 s is a slow check (make test-slow)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest

from .conftest import LiveServer, Table, csrf_of
from .test_live_server import TIMEOUT, new_game, referee_client
from .test_revocation import Listener, wait_for

PAGES = 6


@contextmanager
def held(url: str, paths: list[str], referee: bool) -> Iterator[list[Listener]]:
    """Each path's stream open on a client of its own (a page each), read in a thread."""
    with ExitStack() as stack:
        listeners = []
        for path in paths:
            client = stack.enter_context(referee_client(url) if referee else httpx.Client(base_url=url, timeout=TIMEOUT))
            listener = Listener(client, path)
            listener.thread.start()
            listeners.append(listener)
        wait_for("every stream to open", lambda: all(r.got or r.ended.is_set() for r in listeners))
        yield listeners
    for listener in listeners:  # their clients closed: each reader ends
        listener.thread.join(timeout=TIMEOUT)


def test_six_referee_pages_and_six_phones_on_one_spectator_link_all_stay_live(tmp_path: Path):
    desk_and_phones_stay_live(tmp_path, hold=0)


@pytest.mark.slow
def test_six_referee_pages_and_six_phones_stay_live_for_a_minute(tmp_path: Path):
    desk_and_phones_stay_live(tmp_path, hold=60)


def desk_and_phones_stay_live(tmp_path: Path, hold: float) -> None:
    """Six referee pages and six phones on one spectator link held open for ``hold`` seconds (at least
    three rounds of a move at every table, spread over it): the server closes none of them."""
    start = time.monotonic()
    with LiveServer(tmp_path / "serve.db", live_seconds=int(hold) + 60) as served, referee_client(served.url) as client:
        table = Table(served.db, client)
        games = [new_game(client, "soli2", "Ann\nBob", 3 + k) for k in range(PAGES)]
        page = client.get(f"/g/{games[0]}").text
        made = client.post(f"/g/{games[0]}/spectators", data={"csrf": csrf_of(page)}).text
        watch = "/g/" + made.split("/g/", 1)[1].split('"', 1)[0]
        with held(served.url, [f"/g/{g}/live?view=1" for g in games], True) as desk, \
                held(served.url, [f"{watch}/live?view=1"] * PAGES, False) as phones:
            for k in range(3):  # three rounds of a move at every table
                threading.Event().wait(max(0.0, start + hold * k / 3 - time.monotonic()))  # the hold is the check
                for g in games:
                    assert table.play(f"/g/{g}", ["place d4", "place e5", "place c3"][k]).status_code == 200
                wait_for("every page to hear each move", lambda k=k: all(
                    r.kinds().count("view") >= k + 1 for r in desk) and all(r.kinds().count("view") >= k + 1 for r in phones))
            threading.Event().wait(max(0.0, start + hold - time.monotonic()))
            assert not any(r.ended.is_set() for r in desk + phones)  # the server closed none of them
            assert all(kind in ("message", "view") for r in desk + phones for kind in r.kinds())


def test_the_tables_page_shows_every_running_game_live_on_one_stream(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        table = Table(served.db, client)
        games = [new_game(client, "soli2", "Ann\nBob", 3 + k) for k in range(3)]
        page = client.get("/tables").text
        assert all(f'<a href="/g/{g}">{g}</a>' in page for g in games)
        assert page.count('<td class="turn">') == 3 and page.count("no move yet") == 3
        with held(served.url, ["/tables/live"], True) as (desk,):
            assert table.play(f"/g/{games[1]}", "place d4").status_code == 200
            moved = f'<tr><td><a href="/g/{games[1]}">{games[1]}</a></td><td>SOLI2</td><td class="turn"><bdi>Bob</bdi></td>'
            shown = wait_for("the move on the tables page", lambda: next(
                (data for kind, _, data in desk.got if kind == "view" and moved in data), None))
            row = re.search(rf'<tr><td><a href="/g/{games[1]}">.*?</tr>', shown)
            assert row and "<bdi>Ann</bdi>: " in row.group(0) and "d4" in row.group(0)  # Ann's move, in words
            assert shown.count("no move yet") == 2  # the other tables, unchanged
            assert not desk.ended.is_set()
        with httpx.Client(base_url=served.url, timeout=TIMEOUT) as stranger:
            assert stranger.get("/tables").status_code == 403
            assert stranger.get("/tables/live").status_code == 403
