"""`solrec balance` throughput (issue 34; docs/scaling.md, "Balance runs").

1. Games per second, per game and bot kind, on one core: ``--games`` games of each (one option set),
   through ``solrec.ai.balance.play_game``, as a run plays them (wall and CPU seconds).
2. ``--jobs 2`` against ``--jobs 1``: the same ``solrec balance`` command (two option sets, paired)
   timed whole, in one run; the ratio against the floor of 1.7 (two cores; the load average printed
   beside it: the machine is shared).
3. A 2-worker LocalCluster on 127.0.0.1 started here: the same command's JSON compared byte for byte
   with ``--jobs 1``'s.

    python bench/bench_balance.py                    # the defaults (a few minutes on 2 cores)
    python bench/bench_balance.py --games 50 --ratio-games 400
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from solrec.ai.balance import Plan, has_table, parse_bots, play_game
from solrec.core.play import make_header
from solrec.core.registry import get_game

KINDS = ("sampler", "random", "greedy")
GAMES = {"solo-dice": {}, "soli2": {}, "solar-solitaire": {}, "solari": {}, "solarius-mission": {}}  # game: options
FLOOR = 1.7


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_game(game_id: str, options: dict, kind: str, games: int) -> dict:
    game = get_game(game_id)
    header = make_header(game, None, options, "seeded", 0)
    plan = Plan(game_id, header.players, parse_bots([kind], len(header.players)), (header.options,), 0,
                tabled=has_table(game_id, header.options_dict(), header.players))
    wall, cpu = time.perf_counter(), time.process_time()
    moves = 0
    for k in range(games):
        moves += play_game(plan, 0, k).moves
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"game": game_id, "bot": kind, "games": games,
            "games_per_s": round(games / wall, 2), "cpu_games_per_s": round(games / cpu, 2),
            "moves_per_game": round(moves / games, 1)}


def cli(args: list[str]) -> tuple[str, float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solrec.cli.main", "balance", *args, "--json"],
                          capture_output=True, text=True, check=True)
    return done.stdout, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per game and bot kind (Solari: a fifth)")
    parser.add_argument("--ratio-games", type=int, default=300, help="paired games of the --jobs run (SOLI2, greedy)")
    parser.add_argument("--skip-cluster", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {load()} (2 cores)", flush=True)
    for game_id, options in GAMES.items():
        for kind in KINDS:
            n = max(2, args.games // 5) if game_id == "solari" else args.games
            print(json.dumps(per_game(game_id, options, kind, n)), flush=True)

    command = ["soli2", "--games", str(args.ratio_games), "--bot", "greedy", "--bot", "random",
               "--against", "objective=give-away", "--seed", "7"]
    one, t1 = cli([*command, "--jobs", "1"])
    two, t2 = cli([*command, "--jobs", "2"])
    ratio = t1 / t2
    print(f"--jobs 1: {t1:.1f} s; --jobs 2: {t2:.1f} s; ratio {ratio:.2f} (floor {FLOOR}: "
          f"{'met' if ratio >= FLOOR else 'NOT met'}); same JSON: {one == two}; load average {load()}", flush=True)
    if args.skip_cluster:
        return
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        there, tc = cli([*command, "--cluster", cluster.scheduler_address])
    print(f"2-worker LocalCluster: {tc:.1f} s; JSON byte for byte that of --jobs 1: {there == one}; "
          f"load average {load()}", flush=True)


if __name__ == "__main__":
    main()
