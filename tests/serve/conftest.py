"""``solrec serve`` through HTTP: Starlette's TestClient on the app, and a real uvicorn on 127.0.0.1
(in a thread, or a subprocess to kill) where a test needs one. Nothing listens beyond loopback."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="solrec serve needs the serve extra (pip install 'solrec[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from solrec.events.store import Store  # noqa: E402
from solrec.replay.log import load  # noqa: E402
from solrec.server.app import create_app  # noqa: E402
from solrec.server.seats import referee_cookie, token_hash  # noqa: E402

REFEREE = "referee-token-of-the-tests"


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page) or re.search(r'data-csrf="([^"]+)"', page)
    assert found, "the page carries no CSRF value"
    return found.group(1)


def position_of(page: str) -> tuple[str, str]:
    """The position and version a page (or fragment) shows: what a write names."""
    found = re.search(r'data-position="(\d+)" data-version="([0-9a-f]+)"', page)
    assert found, "the page shows no position"
    return found.group(1), found.group(2)


class Table:
    """One server's client as the referee (its cookie set), with the steps people take."""

    def __init__(self, db: Path, client: TestClient):
        self.db = db
        self.client = client

    def page(self, path: str, status: int = 200) -> str:
        r = self.client.get(path)
        assert r.status_code == status, (r.status_code, r.text[:300])
        return r.text

    def start(self, game: str, players: list[str] | None = None, *, seed: int | None = None, entered: bool = False,
              options: dict[str, str] | None = None, game_id: str | None = None) -> str:
        form = self.page(f"/new?game={game}")
        data = {"csrf": csrf_of(form), "game": game, "chance": "entered" if entered else "seeded",
                "seed": "" if seed is None else str(seed), "id": game_id or ""}
        if players is not None:
            data["players"] = "\n".join(players)
        data.update({f"option.{k}": v for k, v in (options or {}).items()})
        r = self.client.post("/new", data=data, follow_redirects=False)
        assert r.status_code == 303, (r.status_code, r.text[:500])
        return r.headers["location"].rsplit("/", 1)[1]

    def seat_links(self, gid: str) -> dict[str, str]:
        """player -> the path of his seat link (made by the referee, shown once)."""
        page = self.page(f"/g/{gid}")
        r = self.client.post(f"/g/{gid}/seats", data={"csrf": csrf_of(page)})
        assert r.status_code == 200, r.text
        pairs = re.findall(r'<span class="player"><bdi>([^<]*)</bdi></span>: <a class="seat-link" href="http://[^/"]+([^"]+)"', r.text)
        import html

        return {html.unescape(p): path for p, path in pairs}

    def seated(self, game: str = "soli2", players: tuple[str, ...] = ("Ann", "Bob"), seed: int = 3,
               options: dict[str, str] | None = None):
        """A new game, its seat links, and a device holding only those: (id, seats, device)."""
        gid = self.start(game, list(players), seed=seed, options=options)
        return gid, self.seat_links(gid), stranger(self)

    def play(self, base: str, command: str, client: TestClient | None = None, **fields: str) -> Any:
        """POST a command from the page at ``base`` (``/g/ID`` or a seat's), at the position it shows;
        ``fields``: more of the form (``view="1"``)."""
        client = client or self.client
        page = client.get(base).text
        at, head = position_of(page)
        return client.post(f"{base}/play", data={"command": command, "at": at, "version": head, "csrf": csrf_of(page), **fields})

    def log(self, gid: str):
        store = Store(self.db)
        try:
            return load(store, gid)
        finally:
            store.close()


def make_client(db: Path, *, referee: bool = True, **kwargs: Any) -> TestClient:
    app = create_app(db, REFEREE, b"k" * 32, live_seconds=kwargs.pop("live_seconds", 0.3), poll_seconds=0.05, quiet_poll_seconds=0.05, **kwargs)
    client = TestClient(app, raise_server_exceptions=False)
    if referee:
        client.cookies.set(referee_cookie(token_hash(REFEREE)), REFEREE)
    return client


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    db = tmp_path / "serve.db"
    with make_client(db) as client:
        yield Table(db, client)


def stranger(table: Table) -> TestClient:
    """A client of the same server with no cookie: a device holding only what it was given."""
    client = TestClient(table.client.app, raise_server_exceptions=False)
    return client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn serving the app on 127.0.0.1 in a thread, for requests that must really run at once."""

    def __init__(self, db: Path, live_seconds: float = 1, lifespan: str = "on", **options: Any):
        import uvicorn

        self.db = db
        self.port = free_port()
        options = {"poll_seconds": 0.05, "quiet_poll_seconds": 0.05, **options}
        self.app = create_app(db, REFEREE, b"k" * 32, live_seconds=live_seconds, **options)
        app = self.app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan=lifespan))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start in 20 s"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
