"""Measurement (not a test): what a quiet ``solrec serve`` costs, and what one request costs after a pause.

    .venv/bin/python bench/bench_serve_idle.py [--seconds 15]

A real ``solrec serve`` on 127.0.0.1 over a scratch database (``bench_serve_load.Server``), one SOLI2
table with its two seats. The server's CPU is read per thread in ns (``/proc/PID/task/*/schedstat``).

1. **A request after a pause**: ``GET /static/table.css`` (the load bench's floor: no game work) over
   one kept connection, 400 times back to back, then with a pause of 0.2, 1, 5, 20 and 100 ms between
   requests: the server's CPU per request at each pause. On a machine whose cores drop their caches
   (or their clock) while idle, the same request costs several times more after a pause, which is
   what each play of a quiet table pays (docs/scaling.md).
2. **A quiet server's cost**, per second, each over ``--seconds``: nothing open; the floor probe alone
   (the load bench's: a static file every 0.2 s); the two seats' live streams held; both.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import re
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).parent))
import bench_serve_load as load  # noqa: E402

PAUSES = (0.0, 0.0002, 0.001, 0.005, 0.02, 0.1)


def after_a_pause(server: load.Server) -> None:
    host, port = server.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)

    def get() -> None:
        conn.request("GET", "/static/table.css")
        conn.getresponse().read()

    for _ in range(50):
        get()
    print("| pause between requests | server CPU per request | requests |\n|---|---|---|")
    for pause in PAUSES:
        n = 400 if pause < 0.01 else (150 if pause < 0.05 else 40)
        before = server.ran()
        for _ in range(n):
            get()
            if pause:
                time.sleep(pause)
        print(f"| {1000 * pause:g} ms | {1000 * server.ran_since(before) / n:.3f} ms | {n} |", flush=True)
    conn.close()


async def quiet(server: load.Server, seconds: float) -> None:
    level = load.Level(server, "soli2", 1, (0, 0), 1, 10**9, 5, 1, {})
    referee = httpx.AsyncClient(base_url=server.url, timeout=30)
    from solrec.server.seats import referee_cookie, token_hash

    referee.cookies.set(referee_cookie(token_hash(server.token)), server.token)
    form = (await referee.get("/new?game=soli2")).text
    found = re.search(r'name="csrf" value="([^"]+)"', form)
    assert found is not None
    table = await level.new_game(referee, found.group(1), 0)
    assert table is not None
    clients = [httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) for _ in range(3)]

    async def hold(client: httpx.AsyncClient, path: str) -> None:
        async with client.stream("GET", f"{path}/live?view=1") as r:
            async for _ in r.aiter_lines():
                pass

    async def probe() -> None:
        while True:
            await clients[2].get("/static/table.css")
            await asyncio.sleep(0.2)

    async def measure(what: str) -> None:
        await asyncio.sleep(2)  # what just started settles
        before = server.ran()
        await asyncio.sleep(seconds)
        print(f"| {what} | {1000 * server.ran_since(before) / seconds:.2f} ms |", flush=True)

    print("\n| a quiet server | its CPU a second |\n|---|---|")
    await measure("nothing open")
    task = asyncio.create_task(probe())
    await measure("the floor probe (a static file every 0.2 s)")
    task.cancel()
    streams = [asyncio.create_task(hold(clients[i], path)) for i, path in enumerate(table.seats.values())]
    await measure("2 live streams held")
    task = asyncio.create_task(probe())
    await measure("2 live streams held and the floor probe")
    for t in (task, *streams):
        t.cancel()
    for c in (referee, *clients):
        await c.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="the length of each quiet window (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = load.Server(Path(tmp) / "idle.db", load.free_port(), [], Path(tmp))
        try:
            after_a_pause(server)
            asyncio.run(quiet(server, args.seconds))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
