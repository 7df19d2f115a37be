"""Measurement (not a test): a club's night on ``solrec serve`` — many tables, each seat a device.

    .venv/bin/python bench/bench_serve_load.py [--pace quick|people|both] [--levels 1,16,64]
                                              [--seconds 30] [--game soli2] [--max-requests N]

A real ``solrec serve`` is started as a subprocess on 127.0.0.1 over a scratch database. Per level,
the referee (through the server's own ``/new`` form and seat-links button) starts N tables of a
2-player game, and the driver (asyncio + httpx2, in this process) plays every table with 2 seats.
Each seat does what its page's script does (``server/static/table.js``): it opens the page once
(its CSRF value), holds the live stream ``.../live?view=1``, which sends its new view itself (a
``view`` event; on a plain message it fetches ``.../view``), and, when the view offers it choices,
thinks for a while and POSTs one of the legal commands the view lists (``data-choices``; one that
ends the game only when nothing else is left, ``resign`` last), asking for its new view with the
answer (``view=1``). As the page
does, a view or message naming (its ``id``) the version the seat already shows, or one arriving
while its own command is in flight, is passed over. A stream that ends is opened again after 2 s (the ``retry`` the server sends); one
refused (503), which a browser's EventSource does not retry, is asked again after ``--reload-seconds``
(default 5: the person, seeing nothing move, reloads), the view fetched each time. With
``--referee-pages N`` the referee (one browser) holds N tables' game pages and the tables page
(``/tables``) live beside them; every stream the server ends while the level runs (a seat's while
its game goes on, or a desk page's) is counted as closed (issue 42: there should be none). A finished game is
followed by a new one at that table. Each seat is one browser: its own HTTP client, kept over its
table's games, its idle connections kept 60 s (the server keeps them 75 s), as a browser does.

Paces: quick, 0.5-1.5 s of thought per move (levels 1, 16, 64 tables); people's, 5-15 s per move
(levels 64, 256). Each level runs ``--seconds`` (after the tables are set up) and at most
``--max-requests`` requests; the plays still in flight at its end are waited for (at most a
request's timeout) and their clicks counted. Measured per level:

- plays/s: acknowledged commands (200) per second of the level;
- click: a POST /play from sending to its answer;
- live: from the mover's answer to the other seat's live message for that position (0 when the
  message came first);
- other board: from the mover's POST to the other seat's view (sent on its stream, or fetched)
  showing the new position;
- the streams' own cost: before the plays, the seats sit down (over 2 s), open their pages and
  streams and hold them for ``--quiet-seconds`` (default 6) without playing; the server's CPU over
  the second half of that, as a share of a core, with the number of streams held;
- server CPU per acknowledged play (``/proc`` of the server's pid over the level; the live streams'
  own cost included), the server's CPU as a share of one core, the time its threads waited for a
  core while runnable (``/proc/PID/task/*/schedstat``: on a shared machine, other work's share of
  its latency), its RSS at the end;
- refusals: live streams refused (503), and other requests that failed (a status other than 200,
  303 or 409, or no answer);
- the idle cost: then the floor probe (below) starts, still without plays, and the server's CPU over
  3 s is its idle cost (streams held + the probe's requests); the level's CPU per play carries it,
  printed beside it as "idle" (its share of a play: at 1 table, most of it). The streams' and the
  idle windows' CPU are read per thread in ns (``/proc/PID/task/*/schedstat``), the level's in clock
  ticks (``/proc/PID/stat``, every thread that ended included);
- CPU per play less the floor probe's own: the idle cost less the streams' own is what the probe's
  requests cost the server (the instrument, not the night: 5 requests a second, about 2 ms of CPU a
  second on an otherwise idle server); taken from the level's CPU, it is what the plays and the
  streams cost. Both are printed;
- the floor: ``GET /static/table.css`` every 0.2 s during the same level (loopback HTTP, the event
  loop, no game work) — the time the same server and driver take for the least a request can cost.

The load average (1 min) is printed at each level's start and end: the driver runs on the same
machine (its own CPU is printed too). At the end the server is stopped and every game is checked:
each acknowledged command stored exactly once, in order (the stored commands of each game equal its
acknowledged ones), and ``solrec validate --all`` on the database.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

PACES = {"quick": ((0.5, 1.5), [1, 16, 64]), "people": ((5.0, 15.0), [64, 256])}
TIMEOUT = 30.0  # seconds for one request's answer


# -- the server ---------------------------------------------------------------------------------------
class Server:
    """``solrec serve`` on 127.0.0.1 in a subprocess: its address, referee token and pid. Its output
    goes to files (a pipe nobody reads would stop it once full: it logs every client that hangs up).
    CPU, waits and memory are those of its process and every process under it (``--workers``)."""

    def __init__(self, db: Path, port: int, options: list[str], folder: Path):
        self.db = db
        self.out, self.err = folder / "serve.out", folder / "serve.err"
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "solrec.cli.main", "serve", "--db", str(db), "--port", str(port), *options],
                stdout=out, stderr=err, env={**os.environ, "NO_COLOR": "1"},
            )
        deadline = time.monotonic() + 60
        while (link := re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", self.out.read_text())) is None:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {self.err.read_text()[-2000:]}")
            time.sleep(0.05)
        self.url, self.token = link.group(1), link.group(2)
        self.port = port
        while True:  # listening
            try:
                httpx.get(f"{self.url}/static/table.css", timeout=5)
                break
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server does not answer: {self.err.read_text()[-2000:]}") from None
                time.sleep(0.05)

    def pids(self) -> list[int]:
        """The server's process and every process under it."""
        parents: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                parents.setdefault(ppid, []).append(int(entry.name))
        out, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo += parents.get(pid, [])
        return out

    def cpu_seconds(self) -> float:
        """User and system CPU of the server's processes so far (``/proc/PID/stat``; the main one's
        children that ended included)."""
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if pid == self.proc.pid else 0)
        return total / os.sysconf("SC_CLK_TCK")

    def schedstat(self, field: int) -> dict[str, int]:
        """One field of each of the server's threads' ``/proc/PID/task/TID/schedstat``, in ns, by
        thread: 0, the CPU time it ran; 1, how long it waited for a core while runnable."""
        out: dict[str, int] = {}
        for pid in self.pids():
            try:
                tasks = list(Path(f"/proc/{pid}/task").iterdir())
            except OSError:
                continue
            for task in tasks:
                try:
                    out[f"{pid}/{task.name}"] = int((task / "schedstat").read_text().split()[field])
                except (OSError, IndexError, ValueError):
                    continue
        return out

    def ran(self) -> dict[str, int]:
        """CPU time of each thread alive now: precise where ``cpu_seconds`` counts clock ticks (10 ms),
        for the short idle windows (``ran_since``)."""
        return self.schedstat(0)

    def ran_since(self, before: dict[str, int]) -> float:
        """Seconds of CPU since ``before``, per thread: of the threads alive at both ends what each
        ran meanwhile, of those started meanwhile all they ran (a worker thread that retired meanwhile,
        idle, is left out: it ran nothing worth counting while nothing was played)."""
        return sum(v - before.get(k, 0) for k, v in self.ran().items()) / 1e9

    def waited(self) -> dict[str, int]:
        """How long each thread has waited for a core, runnable: summed over a level
        (``waited_since``), on a shared machine, the part of its latency that is other work's load."""
        return self.schedstat(1)

    def waited_since(self, before: dict[str, int]) -> float:
        """Seconds waited for a core since ``before``, summed over the threads alive now (one that
        ended meanwhile, a worker thread retired, is not counted: a lower bound)."""
        return sum(v - before.get(k, 0) for k, v in self.waited().items()) / 1e9

    def rss_mb(self) -> tuple[float, float]:
        """(resident now, the sum of each process's peak) in MB, over the server's processes."""
        now = peak = 0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            kb = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in status.splitlines() if ":" in line)
                  if k in ("VmRSS", "VmHWM")}
            now, peak = now + kb.get("VmRSS", 0), peak + kb.get("VmHWM", 0)
        return now / 1024, peak / 1024

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=20)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- what a level measures --------------------------------------------------------------------------
@dataclass
class Tally:
    plays: int = 0
    conflicts: int = 0  # 409: should stay 0, the seats of a table take turns
    refused_streams: int = 0
    closed_streams: int = 0  # streams the server ended while the level ran (seats' and the referee's desk)
    desk_events: int = 0  # events the referee's desk pages heard (``--referee-pages``)
    streams_open: int = 0  # now
    refused_requests: int = 0
    unanswered_plays: list[tuple[str, str, str]] = field(default_factory=list)  # (game, actor, command): no answer
    requests: int = 0
    games_finished: int = 0
    click: list[float] = field(default_factory=list)
    live: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)

    samples: list[str] = field(default_factory=list)  # the first few failures' own words

    def refuse(self, why: str, detail: str = "") -> None:
        self.refused_requests += 1
        self.reasons[why] = self.reasons.get(why, 0) + 1
        if len(self.samples) < 3:
            self.samples.append(f"{why}: {detail[:160]}")


@dataclass
class Pending:
    """A command in flight at a table: the position it was played at and its times."""

    at: int
    posted: float
    mover: str
    answered: float | None = None
    heard: float | None = None  # the other seat's live message, if it came before the answer
    live_done: bool = False
    board_done: bool = False


@dataclass
class Page:
    """What a seat's page shows (its position and version) and whether its command is in flight."""

    at: int | None = None
    version: str | None = None
    busy: bool = False
    sent: str | None = None  # a view its stream sent, not shown yet


@dataclass
class Table:
    game_id: str
    seats: dict[str, str]  # player -> the path of its seat link
    pending: Pending | None = None
    over: asyncio.Event = field(default_factory=asyncio.Event)


class Level:
    """One level: N tables played for a bounded time and number of requests."""

    def __init__(self, server: Server, game: str, tables: int, pace: tuple[float, float], seconds: float,
                 max_requests: int, reload: float, quiet: float, acked: dict[str, list[tuple[str, str]]],
                 live: str = "/live?view=1", referee_pages: int = 0):
        self.server, self.game, self.n, self.pace, self.seconds = server, game, tables, pace, seconds
        self.live = live  # the stream's address under a seat's link
        self.referee_pages = referee_pages  # the referee's desk: this many game pages and the tables page, held live
        self.max_requests, self.reload = max_requests, reload
        self.inflight = 0  # plays sent and not answered yet: waited for at the level's end
        self.quiet = quiet
        self.playing = asyncio.Event()  # set after the quiet phase
        self.idle = asyncio.Event()
        self.tally = Tally()
        self.acked = acked  # game id -> [(actor, command)] acknowledged, in order
        self.stop = asyncio.Event()
        self.rng = random.Random(tables * 7919 + int(pace[0] * 10))
        self.created = 0

    # every request goes through here: counted, bounded, its failures tallied
    async def request(self, client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response | None:
        self.tally.requests += 1
        if self.tally.requests >= self.max_requests:
            self.stop.set()
        try:
            r = await client.request(method, url, **kw)
        except httpx.HTTPError as err:
            if not self.stop.is_set():
                self.tally.refuse(type(err).__name__, f"{method} {url.split('/seat/')[0]}: {err}")
            return None
        if r.status_code not in (200, 303, 409):
            self.tally.refuse(str(r.status_code), f"{method} {url.split('/seat/')[0]}: {r.text[:100]}")
        return r

    async def new_game(self, referee: httpx.AsyncClient, csrf: str, k: int) -> Table | None:
        self.created += 1
        players = f"A{k}\nB{k}"
        r = await self.request(referee, "POST", "/new", data={"csrf": csrf, "game": self.game, "players": players,
                                                               "chance": "seeded", "seed": "", "id": ""})
        if r is None or r.status_code != 303:
            return None
        gid = r.headers["location"].rsplit("/", 1)[1]
        r = await self.request(referee, "POST", f"/g/{gid}/seats", data={"csrf": csrf})
        if r is None or r.status_code != 200:
            return None
        pairs = re.findall(r'<span class="player"><bdi>([^<]*)</bdi></span>: <a class="seat-link" href="https?://[^/"]+([^"]+)"', r.text)
        self.acked.setdefault(gid, [])
        return Table(gid, {html.unescape(p): path for p, path in pairs})

    async def run(self) -> dict[str, Any]:
        # connections kept idle shorter than uvicorn keeps them (5 s): one reused as the server closes it
        # would fail a request for a reason that is no part of the load
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None, keepalive_expiry=2.0)
        referee = httpx.AsyncClient(base_url=self.server.url, timeout=TIMEOUT, limits=limits)
        from solrec.server.seats import referee_cookie, token_hash

        referee.cookies.set(referee_cookie(token_hash(self.server.token)), self.server.token)
        # each seat is one person's browser: its own client, its connections kept idle 60 s (a browser
        # keeps them about that long; the server keeps them 75 s), kept over its table's games. One
        # client per seat holds its stream's connection and one for its requests, so finding a free
        # connection costs nothing (one pool shared by 512 seats searched hundreds at each request).
        # One SSL context for all (each client would otherwise build its own, certificates loaded).
        kept = httpx.Limits(max_connections=None, max_keepalive_connections=None, keepalive_expiry=60.0)
        tls = ssl.create_default_context()
        browsers = [[httpx.AsyncClient(base_url=self.server.url, timeout=httpx.Timeout(TIMEOUT, read=None), limits=kept, verify=tls)
                     for _ in range(2)] for _ in range(self.n)]
        probe = httpx.AsyncClient(base_url=self.server.url, timeout=TIMEOUT, limits=limits)
        try:
            form = (await referee.get(f"/new?game={self.game}")).text
            csrf = re.search(r'name="csrf" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
            # the tables, set up before the clock starts (a few at a time, as a referee's page would)
            gate = asyncio.Semaphore(8)

            async def one(k: int) -> Table | None:
                async with gate:
                    return await self.new_game(referee, csrf, k)

            tables = [t for t in await asyncio.gather(*(one(k) for k in range(self.n))) if t is not None]
            if len(tables) < self.n:
                raise SystemExit(f"only {len(tables)} of {self.n} tables could be set up: {self.tally.reasons}")
            self.tally = Tally()  # the set-up is not measured
            # the seats sit down (spread over the first 2 s), open their pages and streams, and wait:
            # the server's CPU over the second half of this quiet phase is what the streams cost alone
            tasks = [asyncio.create_task(self.table_loop(browsers[k], referee, csrf, k, t)) for k, t in enumerate(tables)]
            if self.referee_pages:  # one browser, its tabs: a game page each, and the tables page
                desk = httpx.AsyncClient(base_url=self.server.url, timeout=httpx.Timeout(TIMEOUT, read=None), limits=kept)
                desk.cookies.set(referee_cookie(token_hash(self.server.token)), self.server.token)
                browsers.append([desk])
                tasks += [asyncio.create_task(self.desk_page(desk, f"/g/{t.game_id}/live?view=1"))
                          for t in tables[:self.referee_pages]]
                tasks.append(asyncio.create_task(self.desk_page(desk, "/tables/live")))
            await asyncio.sleep(self.quiet / 2)
            quiet_cpu, quiet_t = self.server.ran(), time.perf_counter()
            await asyncio.sleep(self.quiet / 2)
            quiet = self.server.ran_since(quiet_cpu) / (time.perf_counter() - quiet_t)
            held = self.tally.streams_open
            # then the floor probe starts, still without plays: the server's idle cost (the streams
            # held and the probe's requests) over 3 s, which the level's CPU per play carries too;
            # less the streams' own, it is the probe's: the instrument's cost, printed beside the
            # level's CPU per play and taken from it in the column "less the probe"
            tasks.append(asyncio.create_task(self.floor(probe)))
            await asyncio.sleep(0.5)
            idle_cpu, idle_t = self.server.ran(), time.perf_counter()
            await asyncio.sleep(3.0)
            idle = self.server.ran_since(idle_cpu) / (time.perf_counter() - idle_t)
            self.tally.floor.clear()  # the floor's latencies are those measured during the plays
            load_before = os.getloadavg()[0]
            cpu_before, t0 = self.server.cpu_seconds(), time.perf_counter()
            waited_before = self.server.waited()
            own_before = time.process_time()
            self.playing.set()
            try:
                await asyncio.wait_for(self.stop.wait(), self.seconds)
            except TimeoutError:
                pass
            self.stop.set()
            elapsed = time.perf_counter() - t0
            cpu = self.server.cpu_seconds() - cpu_before
            waited = self.server.waited_since(waited_before)
            own = time.process_time() - own_before
            rss, peak = self.server.rss_mb()
            load_after = os.getloadavg()[0]
            plays = self.tally.plays  # acknowledged within the level's time
            # the plays in flight are answered before the seats leave (their clicks count: leaving them
            # out would keep the slowest out of the percentiles), within one request's timeout
            if self.inflight:
                try:
                    await asyncio.wait_for(self.idle.wait(), TIMEOUT + 5)
                except TimeoutError:
                    pass
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for c in (referee, probe, *(b for pair in browsers for b in pair)):
                await c.aclose()
        return {"tables": self.n, "pace": self.pace, "seconds": elapsed, "plays": plays, "cpu": cpu, "waited": waited, "held": held, "quiet": quiet, "idle": idle, "driver_cpu": own, "rss": rss,
                "peak": peak, "load": (load_before, load_after), "tally": self.tally}

    async def desk_page(self, client: httpx.AsyncClient, path: str) -> None:
        """A referee's page held live (``--referee-pages``): its events counted; a stream the server
        ends before the level does is counted as closed and opened again after 2 s, as a browser does."""
        while not self.stop.is_set():
            self.tally.requests += 1
            try:
                async with client.stream("GET", path) as r:
                    if r.status_code != 200:
                        self.tally.refuse(f"desk {r.status_code}")
                    else:
                        async for line in r.aiter_lines():
                            if not line:
                                self.tally.desk_events += 1
                            elif line.startswith("event: refused") or line.startswith("event: gone"):
                                self.tally.refuse(f"desk {line[7:]}")
                if not self.stop.is_set():
                    self.tally.closed_streams += 1
            except httpx.HTTPError as err:
                if not self.stop.is_set():
                    self.tally.closed_streams += 1
                    self.tally.refuse(f"desk {type(err).__name__}", str(err))
            await asyncio.sleep(2.0)

    async def floor(self, client: httpx.AsyncClient) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            r = await self.request(client, "GET", "/static/table.css")
            if r is not None and r.status_code == 200:
                self.tally.floor.append(time.perf_counter() - start)
            await asyncio.sleep(0.2)

    async def table_loop(self, browsers: list[httpx.AsyncClient], referee: httpx.AsyncClient, csrf: str, k: int, table: Table) -> None:
        # arrivals spread over the quiet phase's first half: a club's tables do not sit down in one instant
        await asyncio.sleep(self.rng.uniform(0, min(2.0, self.quiet / 2)))
        while not self.stop.is_set():
            seats = [asyncio.create_task(self.seat(browser, table, player, path))
                     for browser, (player, path) in zip(browsers, table.seats.items(), strict=False)]
            try:
                await table.over.wait()
            finally:
                for s in seats:
                    s.cancel()
                await asyncio.gather(*seats, return_exceptions=True)
            self.tally.games_finished += 1
            fresh = await self.new_game(referee, csrf, k)
            if fresh is None:
                return
            table = fresh

    async def seat(self, client: httpx.AsyncClient, table: Table, player: str, path: str) -> None:
        page = await self.request(client, "GET", path)
        if page is None or page.status_code != 200:
            return
        found = re.search(r'data-csrf="([^"]+)"', page.text)
        if found is None:
            return
        csrf = found.group(1)
        wake = asyncio.Event()
        wake.set()  # the page opens on the live position: look at it once
        page = Page()
        listener = asyncio.create_task(self.listen(client, table, player, path, wake, page))
        try:
            await self.act(client, table, player, path, csrf, wake, page)
        finally:
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)

    async def listen(self, client: httpx.AsyncClient, table: Table, player: str, path: str, wake: asyncio.Event, page: Page) -> None:
        """The seat's live stream. One that ends is opened again after 2 s (the ``retry`` the server
        sends); a refused one (503) is not retried by a browser's EventSource: the person looks again
        (the view fetched) and reloads the page after ``reload`` seconds."""
        while not self.stop.is_set():
            self.tally.requests += 1
            try:
                async with client.stream("GET", f"{path}{self.live}") as r:
                    if r.status_code == 503:
                        self.tally.refused_streams += 1
                        await asyncio.sleep(self.reload)
                        wake.set()  # the reloaded page shows the position, and asks for its stream again
                        continue
                    elif r.status_code != 200:
                        self.tally.refuse(f"live {r.status_code}")
                    else:
                        self.tally.streams_open += 1
                        try:
                            said, kind, data = "", "", []  # the event's id (the version the seat now sees), type, data lines
                            async for line in r.aiter_lines():
                                if line.startswith("id:"):
                                    said = line[3:].strip()
                                elif line.startswith("event:"):
                                    kind = line[6:].strip()
                                elif line.startswith("data:"):
                                    data.append(line[6:] if line.startswith("data: ") else line[5:])
                                elif not line and data:  # the event's end
                                    text = "\n".join(data)
                                    if kind == "view":
                                        found = STATE.search(text)
                                        position = int(found.group(1)) if found else -1
                                    else:
                                        position = int(text.strip())
                                    self.heard(table, player, position, time.perf_counter())
                                    # as table.js: a page showing that version already, or waiting
                                    # for its own command's answer (which carries its view), passes it over
                                    if not page.busy and (position, said) != (page.at, page.version):
                                        page.sent = text if kind == "view" else None
                                        wake.set()
                                    said, kind, data = "", "", []
                        finally:
                            self.tally.streams_open -= 1
                            if not self.stop.is_set() and not table.over.is_set():
                                self.tally.closed_streams += 1
            except httpx.HTTPError as err:
                if not self.stop.is_set():
                    self.tally.refuse(f"live {type(err).__name__}", str(err))
            wake.set()  # the page fetches its view again on reconnecting, or the person reloads it
            await asyncio.sleep(2.0)

    def heard(self, table: Table, player: str, position: int, now: float) -> None:
        """The other seat's live message for the pending command: a later position than the mover's page showed."""
        p = table.pending
        if p is None or p.mover == player or p.live_done or position <= p.at:
            return
        if p.answered is not None:
            self.tally.live.append(max(0.0, now - p.answered))
            p.live_done = True
        elif p.heard is None:
            p.heard = now

    async def act(self, client: httpx.AsyncClient, table: Table, player: str, path: str, csrf: str, wake: asyncio.Event, page: Page) -> None:
        answered: str | None = None  # the view a command's answer carried (``view=1``, as table.js asks)
        while not self.stop.is_set():
            if answered is not None:
                text, answered = answered, None
            else:
                await wake.wait()
                wake.clear()
                if page.sent is not None:  # the view its stream sent
                    text, page.sent = page.sent, None
                else:
                    r = await self.request(client, "GET", f"{path}/view")
                    if r is None or r.status_code != 200:
                        continue
                    text = r.text
            done = time.perf_counter()
            state = STATE.search(text)
            if state is None:
                continue
            at, version = int(state.group(1)), state.group(2)
            page.at, page.version = at, version
            p = table.pending
            if p is not None and p.mover != player and not p.board_done and at > p.at:
                self.tally.board.append(done - p.posted)
                p.board_done = True
            status = re.search(r'<p class="status">([^<]*)', text)
            if status is not None and "game over" in status.group(1):
                table.over.set()
                return
            found = re.search(r'data-choices="([^"]*)"', text)
            if found is None:
                continue
            listed = json.loads(html.unescape(found.group(1)))
            # a move that ends the game only when nothing else is left (then a new game is set up at
            # the table), a resignation only when nothing but it is
            choices = ([c["command"] for c in listed if not c.get("ends")]
                       or [c["command"] for c in listed if c["command"] != "resign"] or [c["command"] for c in listed])
            if not choices:
                continue
            await self.playing.wait()
            await asyncio.sleep(self.rng.uniform(*self.pace))
            if self.stop.is_set():
                return
            command = self.rng.choice(choices)
            pending = Pending(at, time.perf_counter(), player)
            table.pending = pending
            self.inflight += 1
            page.busy = True
            page.sent = None  # what the stream sent before the command is older than its answer
            wake.clear()
            try:
                r = await self.request(client, "POST", f"{path}/play",
                                       data={"command": command, "at": str(at), "version": version, "csrf": csrf, "view": "1"})
            except asyncio.CancelledError:  # still unanswered when the level ended: it may be stored or not
                self.tally.unanswered_plays.append((table.game_id, player, command))
                raise
            finally:
                page.busy = False
                self.inflight -= 1
                if self.inflight == 0 and self.stop.is_set():
                    self.idle.set()
            now = time.perf_counter()
            if r is None:
                self.tally.unanswered_plays.append((table.game_id, player, command))
                table.pending = None
            elif r.status_code == 200:
                self.tally.plays += 1
                self.tally.click.append(now - pending.posted)
                self.acked[table.game_id].append((player, command))
                pending.answered = now
                if pending.heard is not None and not pending.live_done:
                    self.tally.live.append(0.0)
                    pending.live_done = True
                answered = r.text  # the seat's new view: shown at once
                continue
            else:
                self.tally.click.append(now - pending.posted)
                if r.status_code == 409:
                    self.tally.conflicts += 1
                table.pending = None
            wake.set()  # the page fetches its view after its command's answer


# -- the check: every acknowledged play stored exactly once -------------------------------------------
STATE = re.compile(r'data-position="(\d+)" data-version="([0-9a-f]+)"')


def check_stored(db: Path, acked: dict[str, list[tuple[str, str]]], unanswered: set[tuple[str, str, str]]) -> tuple[bool, str]:
    from solrec.events.store import Store
    from solrec.replay.log import load

    store = Store(db)
    bad: list[str] = []
    stored_total = late = 0
    try:
        for gid, mine in acked.items():
            log = load(store, gid)
            stored = [(g[0].actor, g[0].command) for g in log.steps() if g[0].actor != "chance"]
            # every answered command exactly once, in order; one that got no answer may or may not be stored
            j = 0
            for s in stored:
                if j < len(mine) and s == mine[j]:
                    j += 1
                elif (gid, *s) in unanswered:
                    late += 1
                else:
                    bad.append(f"{gid}: {s} stored, not acknowledged")
                    break
            if j != len(mine):
                bad.append(f"{gid}: {len(mine)} acknowledged, {j} of them stored in order")
            stored_total += j
    finally:
        store.close()
    acked_total = sum(len(v) for v in acked.values())
    result = subprocess.run([sys.executable, "-m", "solrec.cli.main", "validate", "--all", "--db", str(db)],
                            capture_output=True, text=True, timeout=1800)
    summary = (result.stdout.strip().splitlines() or [""])[-1]
    ok = not bad and result.returncode == 0
    lines = [f"{acked_total} acknowledged plays in {len(acked)} games, {stored_total} stored: "
             + ("each exactly once, in order" if not bad else f"MISMATCH in {len(bad)} games: {bad[:5]}")
             + f" (and {late} of the {len(unanswered)} plays cut off unanswered at a level's end)",
             f"solrec validate --all: exit {result.returncode}, {summary}"]
    return ok, "\n".join(lines)


# -- the table printed ----------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def three(values: list[float]) -> str:
    return " / ".join(f"{pct(values, q):,.0f}" for q in (0.5, 0.95, 0.99)) + " ms"


def probe_cost(r: dict[str, Any]) -> float:
    """The floor probe's own server CPU over the level, in seconds: the idle cost less the streams' own."""
    return max(0.0, r["idle"] - r["quiet"]) * r["seconds"]


def row(r: dict[str, Any]) -> str:
    t: Tally = r["tally"]
    pace = "quick" if r["pace"][0] < 2 else "people"
    per_play = (f"{1000 * r['cpu'] / r['plays']:.1f} ms ({1000 * r['idle'] * r['seconds'] / r['plays']:.1f} idle) | "
                f"**{1000 * (r['cpu'] - probe_cost(r)) / r['plays']:.1f} ms**" if r["plays"] else "- | -")
    refused = f"{t.refused_streams} / {t.refused_requests}"
    return (f"| {r['tables']} | {pace} | {r['plays'] / r['seconds']:.1f} | {three(t.click)} | {three(t.live)} | {three(t.board)} "
            f"| {r['held']}: {100 * r['quiet']:.1f}% | {100 * r['idle']:.1f}% | {per_play} | {100 * r['cpu'] / r['seconds']:.0f}% | {100 * r['waited'] / r['seconds']:.0f}% | {r['rss']:.0f} MB | {refused} | {three(t.floor)} | {r['load'][0]:.1f} -> {r['load'][1]:.1f} |")


def crossings(results: list[dict[str, Any]]) -> list[str]:
    """Per pace, where the click's p95 crosses 100 ms (the issue's target) among the levels run."""
    out = []
    for pace in sorted({r["pace"] for r in results}):
        levels = sorted((r["tables"], pct(r["tally"].click, 0.95)) for r in results if r["pace"] == pace and r["tally"].click)
        if not levels:
            continue
        within = [n for n, p95 in levels if p95 <= 100]
        above = [n for n, p95 in levels if not p95 <= 100]
        name = f"{pace[0]:g}-{pace[1]:g} s"
        if not above:
            out.append(f"at {name}: click p95 <= 100 ms at every level run (up to {levels[-1][0]} tables)")
        elif not within:
            out.append(f"at {name}: click p95 > 100 ms from the first level run ({above[0]} tables)")
        else:
            out.append(f"at {name}: click p95 <= 100 ms up to {max(within)} tables, above it from {min(above)} tables")
    return out


HEADER = ("| tables | pace | plays/s | click p50 / p95 / p99 | live delay p50 / p95 / p99 | other seat's board p50 / p95 / p99 "
          "| streams held: their CPU alone | idle: streams + floor probe, no plays | server CPU per play (of it idle) | the same less the floor probe's own | server CPU | server waiting for a core | server RSS | refused streams / requests | floor: static file p50 / p95 / p99 | load 1 min |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pace", choices=["quick", "people", "both"], default="both")
    parser.add_argument("--levels", help="comma-separated numbers of tables (default: 1,16,64 quick; 64,256 people)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the length of each level (default 30)")
    parser.add_argument("--game", default="soli2", help="a 2-player game (default soli2: one marble placed or moved per command)")
    parser.add_argument("--max-requests", type=int, default=200_000, help="a level stops after this many requests")
    parser.add_argument("--serve-option", action="append", default=[], metavar="OPTION",
                        help="passed to solrec serve (repeat it), e.g. --serve-option=--workers --serve-option=2")
    parser.add_argument("--reload-seconds", type=float, default=5.0,
                        help="a seat whose live stream was refused looks again and reloads after this long (default 5)")
    parser.add_argument("--quiet-seconds", type=float, default=6.0,
                        help="before each level's plays, the seats hold their streams this long without playing (default 6)")
    parser.add_argument("--plain-live", action="store_true",
                        help="the streams without view=1, as a page before it: a message says only the position, the seat fetches its view")
    parser.add_argument("--referee-pages", type=int, default=0, metavar="N",
                        help="the referee holds N tables' game pages and the tables page live (a tournament desk); "
                             "streams the server closes are counted")
    parser.add_argument("--db", type=Path, help="the scratch database (default: a temporary folder's)")
    args = parser.parse_args()
    paces = ["quick", "people"] if args.pace == "both" else [args.pace]
    plan = [(PACES[p][0], n) for p in paces for n in ([int(x) for x in args.levels.split(",")] if args.levels else PACES[p][1])]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "load.db"
        server = Server(db, free_port(), args.serve_option, Path(tmp))
        print(f"solrec serve {' '.join(args.serve_option)} (pid {server.proc.pid}) on {server.url}, {args.game}, {args.seconds:.0f} s per level; "
              f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        results = []
        acked: dict[str, list[tuple[str, str]]] = {}
        unanswered: set[tuple[str, str, str]] = set()
        try:
            for pace, n in plan:
                level = Level(server, args.game, n, pace, args.seconds, args.max_requests, args.reload_seconds,
                              args.quiet_seconds, acked, "/live" if args.plain_live else "/live?view=1",
                              args.referee_pages)
                r = asyncio.run(level.run())
                results.append(r)
                t = r["tally"]
                unanswered.update(t.unanswered_plays)
                print(f"  {n} tables at {pace[0]:g}-{pace[1]:g} s: {r['plays']} plays in {r['seconds']:.1f} s "
                      f"({t.plays - r['plays']} more answered after it), "
                      f"{t.requests} requests, {t.conflicts} conflicts, {len(t.unanswered_plays)} unanswered plays, "
                      f"{t.games_finished} games finished, {r['held']} streams held costing {100 * r['quiet']:.0f}% of a core alone ({100 * r['idle']:.1f}% with the floor probe), server CPU {r['cpu']:.1f} s (waited {r['waited']:.1f} s for a core), driver CPU {r['driver_cpu']:.1f} s, "
                      f"RSS {r['rss']:.0f} MB (peak {r['peak']:.0f}), refusals {t.reasons or 'none'}, "
                      f"{t.closed_streams} streams closed by the server, "
                      f"{t.desk_events} events on the referee's {args.referee_pages} game pages and tables page, "
                      f"load {r['load'][0]:.2f} -> {r['load'][1]:.2f}", flush=True)
                for sample in t.samples:
                    print(f"    e.g. {sample}", flush=True)
        finally:
            server.stop()
            said = [ln for ln in server.err.read_text(errors="replace").splitlines() if "hung up" not in ln]
            if said:
                print(f"the server's log, {len(said)} lines (besides clients hanging up), the last:", *said[-5:], sep="\n  ")
        print()
        print(HEADER)
        for r in results:
            print(row(r))
        for line in crossings(results):
            print(line)
        ok, report = check_stored(db, acked, unanswered)
        print()
        print(report)
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
