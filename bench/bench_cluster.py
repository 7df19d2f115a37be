"""Benchmark (not a test): a corpus on a Dask cluster with bounded memory and honest counts (issue 32).

    .venv/bin/python bench/bench_cluster.py [--events 1000000] [--db-dir DIR] [--skip-kill]

On a corpus of Solo Dice games of at least ``--events`` events (simulated, or reused from
DIR/solo-dice-cluster.db), with a LocalCluster of two worker processes on 127.0.0.1 started here:

    client RSS     `solrec validate --all --json --cluster ADDRESS`, by path and with --ship-rows:
                   the CLI process's peak resident memory (its own rusage) and elapsed time; the
                   verdicts compared with `--jobs 1` (issue 32: --ship-rows at most 200 MB for
                   1,000,000 events; it read every row first, 863 MB against 110 MB by path)
    killed worker  `solrec validate` and `solrec impact --all --json --cluster ADDRESS` while a worker
                   process is killed (SIGKILL) as soon as the scheduler has a batch running on it:
                   `retried` (issue 32: at least 1; it said 0) and the results against `--jobs 1`
    subset         CPU time of validating 1% of the games as a block of consecutive ids and as a
                   scattered subset (every 100th id), against reading their payloads (the floor, a
                   query per game), and the scattered subset read as before issue 32 (every game
                   between its first and its last): a scattered subset reads its games only (issue
                   32: 71x the floor against 6x for a block)

The load average is printed before and after: the machine is shared, so elapsed times vary; RSS
and `retried` do not depend on the load.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOLREC = [sys.executable, "-c", "from solrec.cli.main import run; run()"]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def corpus(path: Path, events: int) -> None:
    """Solo Dice games until the file holds at least ``events`` events (about 36 a game)."""
    from solrec.events import Store
    from solrec.workflows.games import simulate_games

    store = Store(path)
    have = store.recorded_events()
    seed = 0
    while have < events:
        games = max(100, (events - have) // 36 + 50)
        simulate_games(store, "solo-dice", games, 1000 + seed, [], {})
        seed += 1
        have = store.recorded_events()
    print(f"corpus: {len(store.game_ids()):,} games, {have:,} events in {path}", flush=True)
    store.close()


def run_cli(args: list[str], during=None) -> tuple[int, str, float, float]:
    """``solrec ARGS``: (exit code, stdout, elapsed s, peak RSS MB of that process alone).
    ``during(proc)``, if given, runs while it does."""
    out = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen([*SOLREC, *args], stdout=out, stderr=subprocess.DEVNULL)
    if during is not None:
        during(proc)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    return proc.returncode, out.read().decode(), elapsed, usage.ru_maxrss / 1024


def without_retried(text: str) -> dict:
    data = json.loads(text)
    data.pop("retried", None)
    return data


def kill_a_busy_worker(address: str):
    """While the CLI runs: once the scheduler has a batch running on a worker, SIGKILL that worker's
    process (a nanny starts a new one). Bounded: gives up after 120 s."""
    from distributed import Client

    def during(proc: subprocess.Popen) -> None:
        with Client(address, timeout="10s") as client:
            pids = client.run(os.getpid)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None:
                busy = [w for w, keys in client.processing().items() if keys]
                if busy:
                    time.sleep(0.5)  # into the batch's work, not at its very start (a bench, not a test)
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    print(f"  killed worker {busy[0]} (pid {pids[busy[0]]})", flush=True)
                    return
                time.sleep(0.05)
            print("  no batch was seen running: nothing killed", flush=True)

    return during


def subset(path: Path) -> None:
    from solrec.events import Store
    from solrec.replay.corpus import validate_corpus

    store = Store(path, create=False)
    ids = sorted(store.game_ids())
    n = len(ids) // 100
    block, scattered = ids[len(ids) // 2 : len(ids) // 2 + n], ids[::100][:n]
    sizes = store.recorded_event_counts()

    def cpu(func) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            func()
            best = min(best, time.process_time() - start)
        return best

    def floor(part: list[str]) -> None:  # every payload of the games read and unpacked, in one query each
        import msgpack

        for gid in part:
            for (payload,) in store.conn.execute("select payload from events where game_id = ?", [gid]):
                msgpack.unpackb(payload)

    def as_before(part: list[str]) -> None:  # every game between the first and the last read (before issue 32)
        every = store.games_between
        store.games_between = lambda first, last: 0  # type: ignore[method-assign]
        try:
            validate_corpus(store, part, jobs=1)
        finally:
            store.games_between = every  # type: ignore[method-assign]

    validate_corpus(store, ids[:10], jobs=1)  # imports and caches warm
    runs = (("block", block, validate_corpus), ("scattered", scattered, validate_corpus),
            ("scattered, read as before", scattered, lambda s, p, jobs: as_before(p)))
    for name, part, how in runs:
        events = sum(sizes[g] for g in part)
        base, took = cpu(lambda: floor(part)), cpu(lambda: how(store, part, jobs=1))
        print(f"  {name:>25}: {len(part):,} games, {events:,} events: validate {took:.3f} s CPU,"
              f" {took / base:.1f}x the floor ({base:.3f} s)", flush=True)
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--db-dir", type=Path, default=None)
    parser.add_argument("--skip-kill", action="store_true")
    parser.add_argument("--subset-only", action="store_true", help="only the subset figures")
    args = parser.parse_args()
    folder = args.db_dir or Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "solo-dice-cluster.db"
    print(f"load average before: {load()} (2 cores)", flush=True)
    corpus(db, args.events)
    print("subset of 1% of the games, CPU time of one process, best of 3:", flush=True)
    subset(db)
    if args.subset_only:
        return

    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        base = ["--all", "--json", "--db", str(db)]
        code, one, elapsed, rss = run_cli(["validate", *base, "--jobs", "1"])
        print(f"validate --jobs 1: exit {code}, {elapsed:.1f} s, client RSS {rss:.0f} MB", flush=True)
        for label, extra in (("by path", []), ("--ship-rows", ["--ship-rows"])):
            code, out, elapsed, rss = run_cli(["validate", *base, "--cluster", address, *extra])
            same = without_retried(out) == json.loads(one)
            print(f"validate --cluster {label}: exit {code}, {elapsed:.1f} s, client RSS {rss:.0f} MB,"
                  f" retried {json.loads(out)['retried']}, verdicts of --jobs 1: {same}", flush=True)
        print(f"load average: {load()}", flush=True)
        if not args.skip_kill:
            for command in ("validate", "impact"):
                code, one, _, _ = run_cli([command, *base, "--jobs", "1"])
                cluster.wait_for_workers(2, timeout=120)
                code, out, elapsed, rss = run_cli([command, *base, "--cluster", address], kill_a_busy_worker(address))
                same = without_retried(out) == without_retried(one)
                print(f"{command} --cluster, a worker killed: exit {code}, {elapsed:.1f} s,"
                      f" retried {json.loads(out)['retried']}, results of --jobs 1: {same}", flush=True)
    print(f"load average after: {load()}", flush=True)


if __name__ == "__main__":
    main()
