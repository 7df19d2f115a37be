"""Benchmark (not a test): `simulate` at the speed of deciding (issue 32), in one run.

    .venv/bin/python bench/bench_simulate.py [--games 10000 100000] [--peer 1000] [--dir DIR]

For each count it simulates that many Solo Dice games (seed 1) into a new database, as
``solrec simulate solo-dice --games N`` does (``workflows/games.py: simulate_games``, batched commits),
in this process, and prints:

    elapsed / CPU          the run's wall time against this process's CPU time (issue 32: within 1.3x)
    run-queue wait         time this process was ready to run but waited for a core (Linux
                           /proc/self/schedstat): on a shared machine that is other programs' load,
                           not simulate's; elapsed minus it, against CPU, is what simulate itself waits
                           for (its disk syncs)
    CPU per game           over the first and the last tenth of the run (issue 32: flat from 10k to
                           100k games; it was 4.2 ms at 10k and 10.8 ms at 20k, the id scan growing)

``--append-to FILE`` (a file the run before kept with ``--dir``) simulates 5,000 games into a copy
of it and into an empty file, in turn, twice: CPU per game against the file's size, measured in one
run (a long run's first and last tenth are minutes apart, and the machine's load moves meanwhile).

``--peer N`` simulates N games committed one per write (one disk sync per game, as before issue 32)
in the same run: the ratio its elapsed / CPU against the batched run's is what batching buys. The
load average is printed before and after: figures from a busy machine are marked as such.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from solrec.events import Store
from solrec.workflows.games import simulate_games


def run_queue_wait() -> float:
    """Seconds this process has waited on a run queue (Linux; 0.0 elsewhere)."""
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def simulate(path: Path, games: int, batch_games: int | None = None) -> dict:
    """Simulate ``games`` Solo Dice games into a new file at ``path``; the figures of the run."""
    marks: list[tuple[int, float]] = []  # (games recorded, CPU seconds) after each batch
    done = 0

    def progress(n: int) -> None:
        nonlocal done
        done += n
        marks.append((done, time.process_time() - cpu0))

    store = Store(path)
    extra = {} if batch_games is None else {"batch_games": batch_games}
    wait0, cpu0, wall0 = run_queue_wait(), time.process_time(), time.perf_counter()
    ids, _ = simulate_games(store, "solo-dice", games, 1, [], {}, progress, **extra)
    wall, cpu, wait = time.perf_counter() - wall0, time.process_time() - cpu0, run_queue_wait() - wait0
    store.close()
    assert len(ids) == games
    tenth = max(1, games // 10)

    def cpu_at(n: int) -> tuple[int, float]:  # the first mark at or past n games
        return next((g, c) for g, c in marks if g >= n)

    g1, c1 = cpu_at(tenth)
    g9, c9 = cpu_at(games - tenth)
    return {
        "games": games, "elapsed": wall, "cpu": cpu, "wait": wait,
        "first_ms": 1000 * c1 / g1, "last_ms": 1000 * (cpu - c9) / max(1, games - g9),
        "mb": path.stat().st_size / 1e6,
    }


def show(label: str, r: dict) -> None:
    print(
        f"{label:>14} {r['games']:>8,} games: elapsed {r['elapsed']:8.1f} s, CPU {r['cpu']:8.1f} s,"
        f" elapsed/CPU {r['elapsed'] / r['cpu']:.2f}x; run-queue wait {r['wait']:7.1f} s,"
        f" (elapsed - wait)/CPU {(r['elapsed'] - r['wait']) / r['cpu']:.2f}x;"
        f" CPU per game {r['first_ms']:.2f} ms (first tenth) / {r['last_ms']:.2f} ms (last tenth),"
        f" {r['cpu'] / r['games'] * 1000:.2f} ms overall; file {r['mb']:.0f} MB",
        flush=True,
    )


def append(big: Path, folder: Path, games: int, rounds: int = 2) -> None:
    """CPU per game of ``games`` more games simulated into a copy of ``big`` and into an empty file,
    taken in turn ``rounds`` times (on a shared machine, a ratio measured in one run)."""
    for r in range(rounds):
        for source in (None, big):
            path = folder / f"append-{r}.db"
            if source is not None:
                shutil.copy(source, path)
            store = Store(path)
            have = len(store.game_ids())
            start = time.process_time()
            ids, _ = simulate_games(store, "solo-dice", games, 99, [], {})
            took = time.process_time() - start
            store.close()
            path.unlink()
            print(f"  {games:,} games appended to a file of {have:>7,} games (from {ids[0]}):"
                  f" CPU per game {1000 * took / games:.3f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--peer", type=int, default=1_000, help="games committed one per write (0: none)")
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go (default: a new temporary folder)")
    parser.add_argument("--append-to", type=Path, default=None,
                        help="a file of many games: 5,000 more simulated into a copy of it and into an empty file, in turn")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="bench-simulate-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {load()}  (2 cores; files in {folder})", flush=True)
    try:
        if args.peer:
            show("one per write", simulate(folder / f"peer-{args.peer}.db", args.peer, batch_games=1))
        for n in args.games:
            show("batched", simulate(folder / f"solo-dice-{n}.db", n))
            print(f"load average: {load()}", flush=True)
        if args.append_to is not None:
            append(args.append_to, folder, 5_000)
            print(f"load average: {load()}", flush=True)
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
