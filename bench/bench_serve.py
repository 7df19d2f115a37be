"""Measurement (not a test): ``solrec serve``'s server time from a click to the updated board.

    .venv/bin/python bench/bench_serve.py [--rounds N]

For each game, its longest fixture (imported into a scratch database), forked just before its last
command: the longest position of the fixture where someone is still to act. Then, ``--rounds`` times:
the referee's page POSTs that last command (request to response: decided, appended, committed), the
live stream wakes and sends the new position (request to the stream's message), and a seat's page
fetches its view of the new position (request to response: what every device does after the
message); then the command is taken back. The server is uvicorn in this process, on 127.0.0.1
(the times include loopback HTTP, no network). Target (issue 25): at most 100 ms at the median,
the click to every device's updated board.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx
import uvicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_html import longest_fixtures  # noqa: E402

from solrec.events.store import Store  # noqa: E402
from solrec.replay.log import load  # noqa: E402
from solrec.server.app import create_app  # noqa: E402
from solrec.server.seats import referee_cookie, token_hash  # noqa: E402
from solrec.workflows.games import fork_game, import_text  # noqa: E402

TOKEN = "bench"


def prepare(db: Path, fixture: Path) -> tuple[str, str, int]:
    """The fixture forked before its last command: (the fork's id, that command, its events)."""
    store = Store(db)
    gid, _ = import_text(store, fixture.read_text(encoding="utf-8"), None)
    log = load(store, gid)
    groups = log.steps()
    last = max(k for k, g in enumerate(groups) if g[0].actor != "chance")
    at = groups[last][0].seq
    fork, _ = fork_game(store, log, at, f"{gid}-bench")
    store.close()
    return fork, groups[last][0].command, len(log.rows)


def field(page: str, name: str) -> str:
    return re.search(rf'{name}="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure(db: Path, gid: str, command: str, rounds: int) -> dict[str, list[float]]:
    port = free_port()
    app = create_app(db, TOKEN, b"k" * 32, live_seconds=3600, poll_seconds=0.3)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        return rounds_on(f"http://127.0.0.1:{port}", port, gid, command, rounds)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def rounds_on(url: str, port: int, gid: str, command: str, rounds: int) -> dict[str, list[float]]:
    client = httpx.Client(base_url=url, timeout=30)
    client.cookies.set(referee_cookie(token_hash(TOKEN)), TOKEN)
    page = client.get(f"/g/{gid}").text
    csrf = field(page, "data-csrf")
    links = client.post(f"/g/{gid}/seats", data={"csrf": csrf}).text
    seat = re.findall(r'class="seat-link" href="http://127.0.0.1:\d+([^"]+)"', links)[0]
    times: dict[str, list[float]] = {"play": [], "live": [], "view": [], "click to board": []}
    heard: list[float] = []
    stop = threading.Event()

    def listen() -> None:  # one device's live stream, as its page keeps it open
        with httpx.Client(base_url=url, timeout=None) as device, device.stream("GET", f"{seat}/live") as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    heard.append(time.perf_counter())
                if stop.is_set():
                    return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(0.5)
    for _ in range(rounds):
        page = client.get(f"/g/{gid}/view").text
        at, version = field(page, "data-position"), field(page, "data-version")
        count = len(heard)
        start = time.perf_counter()
        r = client.post(f"/g/{gid}/play", data={"command": command, "at": at, "version": version, "csrf": csrf})
        answered = time.perf_counter()
        assert r.status_code == 200, r.text
        while len(heard) == count and time.perf_counter() - start < 5:
            time.sleep(0.0005)
        got = heard[-1] if len(heard) > count else float("nan")
        view_start = time.perf_counter()
        assert client.get(f"{seat}/view").status_code == 200
        done = time.perf_counter()
        times["play"].append(answered - start)
        times["live"].append(got - start)
        times["view"].append(done - view_start)
        # every device: the later of the answer (the clicking one) and the live message (the others),
        # then its view fetched
        times["click to board"].append(max(answered, got) - start + (done - view_start))
        page = client.get(f"/g/{gid}/view").text
        r = client.post(f"/g/{gid}/undo", data={"at": field(page, "data-position"), "version": field(page, "data-version"), "csrf": csrf})
        assert r.status_code == 200, r.text
        time.sleep(0.05)
    stop.set()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':<18} {'events':>6}  {'play ms':>8} {'live ms':>8} {'view ms':>8} {'click to board ms':>18}")
    with tempfile.TemporaryDirectory() as tmp:
        for game, fixture in longest_fixtures().items():
            db = Path(tmp) / f"{game}.db"
            gid, command, events = prepare(db, fixture)
            times = measure(db, gid, command, args.rounds)
            med = {k: 1000 * statistics.median(v) for k, v in times.items()}
            print(f"{game:<18} {events:>6}  {med['play']:>8.1f} {med['live']:>8.1f} {med['view']:>8.1f} {med['click to board']:>18.1f}")
    print("medians of", args.rounds, "rounds; target: click to board at most 100 ms")


if __name__ == "__main__":
    main()
