"""Beyond one machine, in one test (docs/scaling.md): two ``solrec serve`` processes, each on its own
shard database, behind one ``solrec front`` page that lists both servers' games and sends a game's
address to the server that holds it. Everything on 127.0.0.1; every request and wait bounded."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from typer.testing import CliRunner

from solrec.cli.main import app
from solrec.events.store import Store

from .conftest import csrf_of, free_port, position_of
from .test_attacks import TIMEOUT, Served, wait_for

START = 60.0  # a process started on a machine whose cores are busy


class Front:
    """``solrec front`` in its own process over the given servers."""

    def __init__(self, tmp: Path, servers: list[Served]):
        self.port = free_port()
        self.out = tmp / "front.out"
        given = [a for s in servers for a in ("--server", f"{s.url}={s.db}")]
        with open(self.out, "wb") as out, open(tmp / "front.err", "wb") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "solrec.cli.main", "front", *given, "--port", str(self.port)],
                                         stdout=out, stderr=err, env={**os.environ, "NO_COLOR": "1"})
        self.url = f"http://127.0.0.1:{self.port}"
        wait_for(lambda: f"solrec front: {self.url}/" in self.out.read_text(), "the front to start", START)
        self.client = httpx.Client(base_url=self.url, timeout=TIMEOUT)
        wait_for(self._answers, "the front to answer", START)

    def _answers(self) -> bool:
        try:
            return self.client.get("/").status_code == 200
        except httpx.ConnectError:
            return False

    def close(self) -> None:
        self.client.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)


def start_with_id(server: Served, game_id: str) -> str:
    """A SOLI2 duel on ``server`` under an id the tournament gives it (unique across its servers)."""
    form = server.referee.get("/new?game=soli2").text
    r = server.referee.post("/new", data={"csrf": csrf_of(form), "game": "soli2", "players": "Ann\nBob",
                                           "chance": "seeded", "seed": "3", "id": game_id})
    assert r.status_code == 303, r.text
    return str(r.headers["location"]).rsplit("/", 1)[1]


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[tuple[list[Served], Front]]:
    servers: list[Served] = []
    front = None
    try:
        for name in ("shard-1", "shard-2"):
            (tmp_path / name).mkdir()
            servers.append(Served(tmp_path / name))
        front = Front(tmp_path, servers)
        yield servers, front
    finally:
        if front is not None:
            front.close()
        for s in servers:
            s.close()


def test_the_front_page_lists_both_servers_games_and_a_seat_plays_through_its_link(tournament):
    (one, two), front = tournament
    first, second = start_with_id(one, "r1-t1"), start_with_id(two, "r1-t2")
    seats = two.seats(second)

    page = front.client.get("/").text
    # each game listed once, linked to the server that holds it
    assert re.findall(r'<a class="game" href="([^"]+)">', page) == [f"{one.url}/g/{first}", f"{two.url}/g/{second}"]
    assert page.count("<td><bdi>Ann</bdi>, <bdi>Bob</bdi></td>") == 2  # each game's players

    # Ann's seat link given with the front's address: the front sends it on to the second server,
    # where the seat's page and its play live (the token is checked there, as always)
    with httpx.Client(base_url=front.url, timeout=TIMEOUT, follow_redirects=True) as device:
        r = device.get(seats["Ann"])
        assert r.status_code == 200
        assert str(r.url) == f"{two.url}{seats['Ann']}"
        assert r.history[0].status_code == 307
        at, version = position_of(r.text)
        played = device.post(f"{two.url}{seats['Ann']}/play",
                             data={"command": "place d4", "at": at, "version": version, "csrf": csrf_of(r.text)})
        assert played.status_code == 200, played.text
        # the view the page then fetches, through the front's address as well
        view = device.get(f"{seats['Ann']}/view")
        assert view.status_code == 200 and int(position_of(view.text)[0]) > int(at)

    # stored on the second shard only, once
    assert [r.command for r in two.log(second).rows].count("place d4") == 1
    store = Store(one.db)
    try:
        assert not store.has_game(second) and store.has_game(first)
    finally:
        store.close()

    # a wrong seat link is the holding server's own 404, an unknown game the front's
    assert front.client.get(f"/g/{second}/seat/not-a-token", follow_redirects=True).status_code == 404
    assert front.client.get("/g/no-such-game").status_code == 404

    # an id two servers hold cannot be pinned: the front says so instead of guessing
    start_with_id(one, "r1-t3")
    start_with_id(two, "r1-t3")
    assert front.client.get("/g/r1-t3").status_code == 409
    assert "the same id on another server" in front.client.get("/").text


def test_the_front_refuses_a_server_it_cannot_pin_games_to(tmp_path):
    runner = CliRunner()
    db = tmp_path / "a.db"
    assert runner.invoke(app, ["new", "soli2", "-p", "Ann", "-p", "Bob", "--db", str(db)]).exit_code == 0
    for args, reason in (
        (["--server", "127.0.0.1:8001=" + str(db)], "--server is http://HOST:PORT=DATABASE"),
        (["--server", f"http://127.0.0.1:8001={tmp_path / 'missing.db'}"], "no such database"),
        (["--server", f"http://127.0.0.1:8001={db}", "--server", f"http://127.0.0.1:8002={db}"], "is named twice"),
    ):
        result = runner.invoke(app, ["front", *args, "--port", str(free_port())])
        assert result.exit_code == 2, result.output
        assert reason in result.stderr and result.stderr.count("\n") == 1


def test_the_front_page_fits_a_phone_and_a_desk(tmp_path):
    """The front page in Chromium at 390x844 and 1280x800: no sideways scrolling, no serious or
    critical axe-core violation (served in this process: its links need no server behind them)."""
    import threading

    import uvicorn

    from solrec.server.front import Shard, create_front_app

    from ..pictures import browser, phone

    phone.require_axe()
    runner = CliRunner()
    shards = []
    for k, players in enumerate((["Ann", "Bob"], ["Bartholomew Featherstone", "Zoë"])):
        db = tmp_path / f"shard-{k}.db"
        for n in range(3):
            args = ["new", "soli2", *(a for p in players for a in ("-p", p)), "--id", f"s{k}-round-1-table-{n}", "--db", str(db)]
            assert runner.invoke(app, args).exit_code == 0
        shards.append(Shard(f"http://127.0.0.1:{free_port()}", db))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_front_app(shards, hosts={"127.0.0.1"}), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, "the front to start")
        with browser.session(1280, 900) as driver:
            for size in (phone.PHONE, phone.DESKTOP):
                phone.viewport(driver, size)
                driver.get(f"http://127.0.0.1:{port}/")
                assert driver.find_elements("css selector", "a.game"), "the front page lists no game"
                assert phone.sideways(driver) == 0, f"the front page scrolls sideways at {size[0]} px"
                assert phone.serious(driver) == []
    finally:
        server.should_exit = True
        thread.join(timeout=TIMEOUT)


def test_a_shard_the_front_cannot_read_is_a_line_on_its_page_not_a_fault(tmp_path):
    from starlette.testclient import TestClient

    from solrec.server.front import Shard, create_front_app

    runner = CliRunner()
    kept, lost = tmp_path / "kept.db", tmp_path / "lost.db"
    for db, gid in ((kept, "s1-t1"), (lost, "s2-t1")):
        assert runner.invoke(app, ["new", "soli2", "-p", "Ann", "-p", "Bob", "--id", gid, "--db", str(db)]).exit_code == 0
    front = create_front_app([Shard("http://127.0.0.1:8001", kept), Shard("http://127.0.0.1:8002", lost)])
    lost.unlink()  # the second server's disk gone
    with TestClient(front) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert 'href="http://127.0.0.1:8001/g/s1-t1"' in page.text
        assert "http://127.0.0.1:8002: " in page.text and "s2-t1" not in page.text
        assert client.get("/g/s2-t1/seat/x", follow_redirects=False).status_code == 404
        moved = client.get("/g/s1-t1/seat/x?move=2", follow_redirects=False)
        assert moved.status_code == 307 and moved.headers["location"] == "http://127.0.0.1:8001/g/s1-t1/seat/x?move=2"
