"""Revoked means revoked (issue 42, item 1; docs/security.md): new seat links, a revoked spectator
link, a deleted or renamed game, a bot seated in a person's place and a new referee's link end every
open stream of the old token with a ``gone`` event (the page says "this link no longer works"),
never another view, and the old token's writes are refused; a revocation through one process ends
the streams another serves. A real uvicorn on 127.0.0.1; every wait is for a condition, bounded."""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from solrec.events.store import Store
from solrec.server import seats

from .conftest import LiveServer, Table, csrf_of, position_of
from .test_live_server import TIMEOUT, new_game, referee_client
from .test_live_views import events

BOUND = 30.0  # seconds: generous, for two busy cores; the server's own pace is the poller's (docs/scaling.md)


class Listener:
    """A stream read in a thread, as a page's EventSource reads it: the events it got, in order."""

    def __init__(self, client: httpx.Client, path: str):
        self.client, self.path = client, path
        self.got: list[tuple[str, str | None, str]] = []
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)

    def read(self) -> None:
        try:
            with self.client.stream("GET", self.path) as r:
                assert r.status_code == 200, r.status_code
                for event in events(r.iter_lines()):
                    self.got.append(event)
        except httpx.HTTPError:
            pass
        finally:
            self.ended.set()

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.got]


def wait_for(what: str, done: Callable[[], Any], bound: float = BOUND) -> Any:
    deadline = time.monotonic() + bound
    while True:
        got = done()
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {bound:.0f} s for {what}"
        time.sleep(0.02)


@contextmanager
def listening(url: str, path: str, referee: bool = False) -> Iterator[Listener]:
    with (referee_client(url) if referee else httpx.Client(base_url=url, timeout=TIMEOUT)) as client:
        listener = Listener(client, path + "/live?view=1")
        listener.thread.start()
        wait_for("the stream to open", lambda: listener.got or listener.ended.is_set())
        assert listener.kinds() == ["message"], listener.got  # it opens on the version the page has loaded
        yield listener
        client.close()
        listener.thread.join(timeout=BOUND)


def ends_gone(listener: Listener) -> None:
    """The stream ends with ``gone``, having sent nothing but its opening message before it."""
    wait_for("the stream to end", listener.ended.is_set)
    assert listener.kinds() == ["message", "gone"], listener.got


def test_new_seat_links_end_the_old_links_streams_with_gone_and_no_view(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        table = Table(served.db, client)
        old = table.seat_links(gid)
        with listening(served.url, old["Ann"]) as ann:
            new = table.seat_links(gid)  # a lost phone: the referee makes new links
            with httpx.Client(base_url=served.url, timeout=TIMEOUT) as bob:
                assert table.play(new["Ann"], "place d4", bob).status_code == 200  # a play follows at once
            ends_gone(ann)
        with httpx.Client(base_url=served.url, timeout=TIMEOUT) as lost:
            assert lost.get(old["Ann"]).status_code == 404
            page = lost.get(new["Bob"]).text
            at, version = position_of(page)
            refused = lost.post(f"{old['Ann']}/play", data={"command": "place e4", "at": at, "version": version,
                                                           "csrf": csrf_of(page)})
            assert refused.status_code == 404


def test_a_revoked_spectator_links_streams_end_with_gone(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        page = client.get(f"/g/{gid}").text
        made = client.post(f"/g/{gid}/spectators", data={"csrf": csrf_of(page)}).text
        watch = "/g/" + made.split("/g/", 1)[1].split('"', 1)[0]
        with listening(served.url, watch) as screen, listening(served.url, watch) as phone:
            page = client.get(f"/g/{gid}").text
            assert client.post(f"/g/{gid}/spectators/revoke", data={"csrf": csrf_of(page)}).status_code in (200, 303)
            assert Table(served.db, client).play(f"/g/{gid}", "place d4").status_code == 200
            ends_gone(screen)
            ends_gone(phone)


@pytest.mark.parametrize("change", ["delete", "rename"])
def test_a_game_deleted_or_renamed_behind_the_server_ends_its_streams_with_gone(tmp_path: Path, change: str):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        links = Table(served.db, client).seat_links(gid)
        with listening(served.url, links["Ann"]) as ann, listening(served.url, f"/g/{gid}", referee=True) as desk:
            store = Store(served.db)  # as the CLI does it, on a connection of its own
            try:
                store.delete_game(gid) if change == "delete" else store.rename_game(gid, "renamed-1")
            finally:
                store.close()
            ends_gone(ann)
            ends_gone(desk)


def test_a_bot_seated_in_a_persons_place_ends_that_seats_streams(tmp_path: Path):
    if importlib.util.find_spec("pyspiel") is None:
        pytest.skip("bot seats need the ai extra (pip install 'solrec[ai]')")
    with LiveServer(tmp_path / "serve.db", live_seconds=60, bot_processes=False) as served, \
            referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        links = Table(served.db, client).seat_links(gid)
        with listening(served.url, links["Ann"]) as ann, listening(served.url, links["Bob"]) as bob:
            page = client.get(f"/g/{gid}").text
            r = client.post(f"/g/{gid}/bots", data={"csrf": csrf_of(page), "player": "Ann", "kind": "random",
                                                    "settings": "", "seed": "5"})
            assert r.status_code in (200, 303), r.text[:300]
            ends_gone(ann)
            assert not bob.ended.is_set() or "gone" not in bob.kinds()  # Bob's link still works
        with httpx.Client(base_url=served.url, timeout=TIMEOUT) as lost:
            assert lost.get(links["Ann"]).status_code == 404
            assert lost.get(links["Bob"]).status_code == 200


def test_a_new_referee_link_ends_the_old_referees_streams_and_refuses_its_writes(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        page = client.get(f"/g/{gid}").text
        with listening(served.url, f"/g/{gid}", referee=True) as desk:
            store = Store(served.db)  # ``solrec serve --new-referee-link`` on the same file
            try:
                seats.keep_referee_token(store, "a-new-referee-token")
            finally:
                store.close()
            ends_gone(desk)
        at, version = position_of(page)
        r = client.post(f"/g/{gid}/play", data={"command": "place d4", "at": at, "version": version, "csrf": csrf_of(page)})
        assert r.status_code == 403


def test_a_revocation_through_one_process_ends_the_streams_another_serves(tmp_path: Path):
    db = tmp_path / "serve.db"
    with LiveServer(db, live_seconds=60) as one, LiveServer(db, live_seconds=60) as other, \
            referee_client(one.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        table = Table(db, client)
        old = table.seat_links(gid)
        with listening(other.url, old["Ann"]) as ann:
            table.seat_links(gid)  # through the first process
            ends_gone(ann)
