"""``solrec serve --workers 2``: two server processes on one database, on 127.0.0.1. A play made
through one reaches a live stream the other serves. Bounded in requests and time; every wait is for
a condition."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from solrec.events.store import Store
from solrec.replay.log import load, state_at
from solrec.server.seats import make_links
from solrec.workflows.games import new_game

from .conftest import csrf_of, free_port, position_of

TIMEOUT = 60.0  # generous: the suite runs while both cores are busy


def started(proc: subprocess.Popen, deadline: float) -> str:
    """The server's address, once it printed its link and answers."""
    url = ""
    while not url:
        assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
        line = proc.stdout.readline() if proc.stdout else ""
        found = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=\S+", line)
        url = found.group(1) if found else ""
    while True:
        try:
            httpx.get(f"{url}/static/table.css", timeout=TIMEOUT)
            return url
        except httpx.TransportError:
            assert time.monotonic() < deadline and proc.poll() is None, "the server does not answer"
            time.sleep(0.05)


def read_messages(response: httpx.Response, into: queue.Queue) -> None:
    """The position numbers a live stream says, as they come (until it ends)."""
    try:
        for line in response.iter_lines():
            if line.startswith("data:"):
                into.put(int(line[5:].strip()))
    except httpx.HTTPError:
        pass  # the server stopped at the test's end


@pytest.mark.skipif(sys.platform == "win32", reason="uvicorn's workers share a socket")
def test_a_play_through_one_worker_reaches_a_live_stream_served_by_the_other(tmp_path: Path):
    db = tmp_path / "serve.db"
    store = Store(db, create=True)
    gid = new_game(store, "soli2", ["Ann", "Bob"], {}, 3, False, "w")[0]
    log = load(store, gid)
    mover = log.game.to_act(state_at(log))
    watcher = next(p for p in ("Ann", "Bob") if p != mover)
    links = make_links(store, gid, ("Ann", "Bob"))
    store.close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "solrec.cli.main", "serve", "--db", str(db), "--port", str(free_port()), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "NO_COLOR": "1"},
    )
    deadline = time.monotonic() + TIMEOUT
    client = None
    try:
        url = started(proc, deadline)
        client = httpx.Client(base_url=url, timeout=TIMEOUT)
        watching = f"/g/{gid}/seat/{links[watcher]}"
        # the watcher's live streams, each on a connection of its own, until each process serves one
        # (a stream served twice by one process is closed at once: at most a few per viewer)
        streams: dict[str, queue.Queue] = {}
        for _ in range(50):
            if len(streams) == 2:
                break
            own = httpx.Client(base_url=url, timeout=TIMEOUT)
            response = own.send(own.build_request("GET", f"{watching}/live"), stream=True)
            assert response.status_code == 200
            worker = response.headers["x-solrec-worker"]
            if worker in streams:
                response.close()
                own.close()
                continue
            streams[worker] = queue.Queue()
            threading.Thread(target=read_messages, args=(response, streams[worker]), daemon=True).start()
        assert len(streams) == 2, "two processes serve the streams"
        first = {worker: messages.get(timeout=TIMEOUT) for worker, messages in streams.items()}
        assert set(first.values()) == {len(log.rows)}
        # the mover plays through whichever process answers it
        playing = f"/g/{gid}/seat/{links[mover]}"
        page = client.get(playing).text
        at, version = position_of(page)
        r = client.post(f"{playing}/play", data={"command": "place d4", "at": at, "version": version,
                                                 "csrf": csrf_of(page)})
        assert r.status_code == 200, r.text
        other = next(w for w in streams if w != r.headers["x-solrec-worker"])
        # the other process's stream says the new position
        assert streams[other].get(timeout=TIMEOUT) > len(log.rows)
    finally:
        if client is not None:
            client.close()
        proc.terminate()
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=TIMEOUT)
