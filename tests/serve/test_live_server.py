"""``solrec serve`` as a real server on 127.0.0.1: two devices at the same moment, a server killed
right after it acknowledged a command, the command line itself. Bounded in requests and time."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from solrec.events.store import Store
from solrec.replay.log import load
from solrec.server.seats import referee_cookie, token_hash

from .conftest import REFEREE, LiveServer, csrf_of, free_port, position_of

TIMEOUT = 20.0


def referee_client(url: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=TIMEOUT)
    client.cookies.set(referee_cookie(token_hash(REFEREE)), REFEREE)
    return client


def new_game(client: httpx.Client, game: str, players: str, seed: int) -> str:
    form = client.get(f"/new?game={game}").text
    r = client.post("/new", data={"csrf": csrf_of(form), "game": game, "players": players, "chance": "seeded",
                                  "seed": str(seed)})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def stored_commands(db: Path, gid: str) -> list[str]:
    store = Store(db)
    try:
        return [r.command for r in load(store, gid).rows]
    finally:
        store.close()


def test_two_devices_playing_at_the_same_position_store_exactly_one_command(tmp_path):
    db = tmp_path / "serve.db"
    with LiveServer(db) as server, referee_client(server.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        page = client.get(f"/g/{gid}").text
        at, head = position_of(page)
        csrf = csrf_of(page)
        before = stored_commands(db, gid)
        answers: list[int] = []
        start = threading.Barrier(2)

        def device(command: str) -> None:
            with referee_client(server.url) as mine:
                start.wait(timeout=TIMEOUT)
                r = mine.post(f"/g/{gid}/play", data={"command": command, "at": at, "version": head, "csrf": csrf})
                answers.append(r.status_code)

        threads = [threading.Thread(target=device, args=(c,)) for c in ("place d4", "place d5")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=TIMEOUT)
        assert sorted(answers) == [200, 409]
        after = stored_commands(db, gid)
        new = after[len(before):]
        assert after[: len(before)] == before
        assert [c for c in new if c.startswith("place d")] in (["place d4"], ["place d5"])


def test_the_live_stream_announces_a_command_played_from_the_command_line(tmp_path):
    db = tmp_path / "serve.db"
    # the stream lives a minute: long enough for a command line started on a busy machine; the test
    # reads its first message, plays once it has it, and reads the next (each read bounded)
    with LiveServer(db, live_seconds=60) as server, referee_client(server.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        events = len(stored_commands(db, gid))
        with client.stream("GET", f"/g/{gid}/live") as r:
            data = (line[5:].strip() for line in r.iter_lines() if line.startswith("data:"))
            assert next(data) == str(events)
            subprocess.run([sys.executable, "-m", "solrec.cli.main", "play", gid, "place d4", "--db", str(db)],
                           check=True, capture_output=True, timeout=TIMEOUT)
            assert int(next(data)) > events


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killing_the_server_right_after_an_acknowledged_command_loses_nothing(tmp_path):
    db = tmp_path / "serve.db"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "solrec.cli.main", "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        link = ""
        deadline = time.monotonic() + TIMEOUT
        while not link and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            found = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", line)
            if found:
                link = found.group(0)
        assert link, "the server printed no referee link"
        url = link.split("/?", 1)[0]
        with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
            while True:
                try:
                    r = client.get(link.replace(url, ""), follow_redirects=True)
                    break
                except httpx.ConnectError:
                    assert time.monotonic() < deadline, "the server did not answer"
                    time.sleep(0.05)
            assert r.status_code == 200  # the redirect followed, the cookie kept
            gid = new_game(client, "soli2", "Ann\nBob", 3)
            page = client.get(f"/g/{gid}").text
            at, head = position_of(page)
            r = client.post(f"/g/{gid}/play", data={"command": "place d4", "at": at, "version": head, "csrf": csrf_of(page)})
            assert r.status_code == 200
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        assert "place d4" in stored_commands(db, gid)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=TIMEOUT)


def test_serve_prints_the_referee_link_once_and_warns_beyond_loopback(monkeypatch, tmp_path):
    import uvicorn
    from typer.testing import CliRunner

    from solrec.cli.main import app

    ran: list[object] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: ran.append(self.config))
    runner = CliRunner()
    port = free_port()
    result = runner.invoke(app, ["serve", "--db", str(tmp_path / "x.db"), "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert len(re.findall(rf"http://127\.0\.0\.1:{port}/\?token=\S{{32}}", result.stdout)) == 1
    assert "warning" not in result.stderr
    result = runner.invoke(app, ["serve", "--db", str(tmp_path / "x.db"), "--host", "0.0.0.0", "--port", str(free_port())])
    assert result.exit_code == 0
    assert "the links' tokens are the only protection and there is no TLS" in result.stderr
    assert len(ran) == 2


def test_serve_without_the_serve_extra_says_how_to_install_it(monkeypatch, tmp_path):
    import importlib.util

    from typer.testing import CliRunner

    from solrec.cli.main import app

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("starlette", "uvicorn") else real(name, *a))
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert result.stderr.strip() == "solrec: solrec serve needs the serve extra: pip install 'solrec[serve]'"


def test_serve_on_a_port_in_use_is_refused_in_one_line(tmp_path):
    import socket

    from typer.testing import CliRunner

    from solrec.cli.main import app

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "x.db"), "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"solrec: cannot listen on 127.0.0.1:{port}:") and result.stderr.count("\n") == 1
