"""Benchmark (not a test): re-deciding against replaying, per game, and `impact` (issue 24), in one run.

    .venv/bin/python bench/bench_impact.py [--scale 1.0] [--seed 1] [--db-dir DIR] [--games GAME ...]

For every game it simulates a corpus (or reuses DIR/<game>.db) and times, in CPU time, each stage in
a fresh process (so none profits from caches the simulation or another stage warmed), best of 3:

    replay    every game read from the corpus stream, verified and folded (``final_states``)
    validate  every game validated (``validate --all --jobs 1``: every command decided again)
    impact    every game re-played by ``impact --all --jobs 1`` under its own options

and prints validate / replay and impact / replay (issue 24's targets: Solari at most 5x, every
other game at most 3x), games/s and events/s per core. Then ``impact`` on the Solari rules-1 corpus
(fixtures/impact/) and on 1,000 Solo Dice games; and the Dask path against ``--jobs`` at the same
worker count: elapsed time of ``impact --all`` with ``--jobs 1``, ``--jobs 2`` and ``--cluster`` on a
LocalCluster of two worker processes on 127.0.0.1 (started here; the ``cluster`` extra), the
engine's overhead as the ratio cluster / jobs 2. ``--dask-only`` prints only that line; ``--games``
only the named games' lines of the table.
"""

from __future__ import annotations

import argparse
import gzip
import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from solrec.events import Store
from solrec.replay.corpus import final_states, map_corpus, validate_corpus
from solrec.replay.impact import ImpactTask
from solrec.workflows.games import simulate_games

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# game id -> games simulated at --scale 1 (a random Solari game is ~5k events)
GAMES = {"solo-dice": 1000, "soli2": 60, "solar-solitaire": 60, "solari": 3, "solarius-mission": 30}


def cpu(func: Callable[[], object]) -> float:
    start = time.process_time()
    func()
    return time.process_time() - start


def stage(path: Path, which: str) -> tuple[int, int, float]:
    """One stage's CPU time, in this process: (games, events, seconds). The first game is replayed
    before the clock starts (the code imported, nothing decided)."""
    store = Store(path, create=False)
    try:
        ids = store.game_ids()
        events = store.recorded_events()
        [None for _ in final_states(store, ids[:1])]
        if which == "replay":
            seconds = cpu(lambda: [None for _ in final_states(store, ids)])
        elif which == "validate":
            seconds = cpu(lambda: validate_corpus(store, None, jobs=1))
        else:
            seconds = cpu(lambda: map_corpus(store, ImpactTask(), None, jobs=1))
    finally:
        store.close()
    return len(ids), events, seconds


def measure(path: Path, repeat: int = 3) -> tuple[int, int, float, float, float]:
    """Each stage in a fresh process, the best of ``repeat`` (the machine is shared): no stage
    profits from what the simulation or an earlier stage left in a game's caches (Solar Solitaire's
    loss proof memoises its answers), as a ``solrec validate`` or ``solrec impact`` run starts cold."""
    times = []
    for which in ("replay", "validate", "impact"):
        best = float("inf")
        for _ in range(repeat):
            with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
                n, events, seconds = pool.submit(stage, path, which).result()
            best = min(best, seconds)
        times.append(best)
    return n, events, times[0], times[1], times[2]


def corpus(folder: Path, game: str, count: int, seed: int) -> Path:
    path = folder / f"{game}.db"
    if not path.exists():
        store = Store(path)
        simulate_games(store, game, count, seed, [], {})
        store.close()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-dir", type=Path, help="keep the corpora in this folder (reused when present)")
    parser.add_argument("--dask-only", action="store_true", help="only the Dask against --jobs line")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), metavar="GAME",
                        help="time only these games (and skip the rules-1, Solo Dice and Dask lines)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.db_dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.dask_only:
            dask_against_jobs([corpus(folder, "solo-dice", 1000, args.seed), corpus(folder, "solari", 3, args.seed)])
            return
        print(f"{'game':<18}{'games':>7}{'events':>9}{'replay s':>10}{'validate s':>11}{'impact s':>10}"
              f"{'val/replay':>11}{'imp/replay':>11}{'impact games/s':>15}{'impact events/s':>16}")
        for game, count in GAMES.items():
            if args.games and game not in args.games:
                continue
            n, events, replay, validate, impact = measure(corpus(folder, game, max(1, int(count * args.scale)), args.seed))
            print(f"{game:<18}{n:>7}{events:>9}{replay:>10.2f}{validate:>11.2f}{impact:>10.2f}"
                  f"{validate / replay:>10.1f}x{impact / replay:>10.1f}x{n / impact:>15,.1f}{events / impact:>16,.0f}")
        if args.games:
            return
        rules_1 = Path(tmp) / "solari-rules-1.db"
        with gzip.open(FIXTURES / "impact" / "solari-rules-1.db.gz", "rb") as packed, open(rules_1, "wb") as out:
            shutil.copyfileobj(packed, out)
        n, events, replay, validate, impact = measure(rules_1)
        print(f"impact on the Solari rules-1 corpus (fixtures/impact/, {n} games, {events} events): {impact:.2f} s CPU"
              f" ({n / impact:,.1f} games/s, {impact / replay:.1f}x its replay)")
        n, events, replay, validate, impact = measure(corpus(folder, "solo-dice", 1000, args.seed))
        print(f"impact on {n} Solo Dice games ({events} events): {impact:.2f} s CPU ({n / impact:,.0f} games/s)")
        dask_against_jobs([corpus(folder, "solo-dice", 1000, args.seed), corpus(folder, "solari", 3, args.seed)])


def wall(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def dask_against_jobs(paths: list[Path]) -> None:
    """Elapsed time of the same corpus run on 1 and 2 processes and on a 2-worker LocalCluster."""
    try:
        import distributed
    except ImportError:
        print("Dask against --jobs: skipped (pip install -e '.[cluster]')")
        return
    from solrec.replay.cluster import map_cluster, map_files

    task = ImpactTask()
    one = wall(lambda: map_files(paths, task, jobs=1))
    two = wall(lambda: map_files(paths, task, jobs=2))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        map_cluster(cluster.scheduler_address, paths, task)  # the workers import solrec and the games once
        dask = wall(lambda: map_cluster(cluster.scheduler_address, paths, task))
    print(f"impact --all over {', '.join(p.name for p in paths)}, elapsed: --jobs 1 {one:.2f} s, --jobs 2 {two:.2f} s,"
          f" --cluster (2 workers) {dask:.2f} s: cluster / jobs 2 = {dask / two:.2f}x, speed-up over --jobs 1 {one / dask:.2f}x")


if __name__ == "__main__":
    main()
