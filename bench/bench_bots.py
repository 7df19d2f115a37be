"""Bot strength and move time (issue 33; docs/ai.md, "Strength").

Duels: ``--games`` seeded games per pairing (mcts against random, mcts against greedy), seats
alternated (game k: mcts first when k is even), chance drawn from game k's seed; the mcts bot's share
of wins (a draw counts half). Solitaires: each bot's mean normalised return (and mean score) over the
same seeded deals. Move time: CPU seconds (``time.process_time``) of each mcts move at its default
strength, median and worst. Prints one JSON object; the load average is printed with it.

    python bench/bench_bots.py --games 200            # the issue's count
    python bench/bench_bots.py --games 20 --only soli2
    python bench/bench_bots.py --games 200 --first 120 --only solari --against greedy --progress   # go on from game 120
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time

from solrec.ai.bots import make_bot, move_seed
from solrec.ai.table import Table
from solrec.core.game import CHANCE

DUELS = {"soli2": ("soli2", {"mode": "duel"}), "solari": ("solari", {}), "solari-to-12": ("solari", {"target": 12}),
         "solarius-mission": ("solarius-mission", {}, ("Ann", "Bob"))}
SOLITAIRES = {"solo-dice": ("solo-dice", {}), "solar-solitaire": ("solar-solitaire", {}),
              "soli2-solitaire": ("soli2", {"mode": "soli2-solitaire"}),
              "classic-solitaire": ("soli2", {"mode": "classic-solitaire"})}


def play(table: Table, kinds: dict[str, str], seed: int, times: dict[str, list[float]]):
    bots = {seat: make_bot(kind) for seat, kind in kinds.items()}
    rng = random.Random(f"bench-chance:{seed}")
    position = table.initial()
    while (outlook := table.to_act(position)).actor is not None:
        if outlook.actor == CHANCE:
            position = table.draw(position, rng.randrange(outlook.outcomes))
            continue
        seat = outlook.actor
        start = time.process_time()
        decision = bots[seat].decide(table, position, seat, move_seed(seed, position.moves))
        if len(table.legal(position)) > 1:
            times.setdefault(kinds[seat], []).append(time.process_time() - start)
        position = table.play(position, decision.command)
    return position


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share over ``n`` games (what a partial count can claim)."""
    if n == 0:
        return (0.0, 1.0)
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def _cpu(times: dict[str, list[float]]) -> dict:
    t = sorted(times.get("mcts", []))
    return {"moves": len(t), "median": round(statistics.median(t), 3) if t else None,
            "worst": round(t[-1], 3) if t else None}


def duel(name: str, games: int, opponent: str, times: dict[str, list[float]], progress: bool = False,
         first: int = 0) -> dict:
    game_id, options, *rest = DUELS[name]
    table = Table(game_id, options, *rest)
    a, b = table.players[:2]
    score = 0.0
    for k in range(first, games):
        mcts_seat = a if k % 2 == 0 else b
        kinds = {a: "mcts" if mcts_seat == a else opponent, b: "mcts" if mcts_seat == b else opponent}
        cpu = time.process_time()
        end = play(table, kinds, k, times)
        returns = dict(zip(table.players, table.returns(end)))
        result = 1.0 if returns[mcts_seat] > 0 else 0.5 if returns[mcts_seat] == 0 else 0.0
        score += result
        played = k + 1 - first
        if progress:  # one line per game (its seed k and result): runs of parts of the range add up
            print(json.dumps({"game": name, "pairing": f"mcts vs {opponent}", "k": k, "mcts_result": result,
                              "game_cpu": round(time.process_time() - cpu, 2), "played": played,
                              "mcts_share": round(score / played, 3), "interval95": wilson(score / played, played),
                              "mcts_move_cpu": _cpu(times), "load_average": os.getloadavg()[0]}), flush=True)
    n = games - first
    return {"game": name, "pairing": f"mcts vs {opponent}", "games": n, "first": first,
            "mcts_share": round(score / n, 3), "interval95": wilson(score / n, n)}


def solitaire(name: str, games: int, kind: str, times: dict[str, list[float]], progress: bool = False) -> dict:
    game_id, options = SOLITAIRES[name]
    table = Table(game_id, options)
    (seat,) = table.players
    returns, scores = [], []
    for k in range(games):
        end = play(table, {seat: kind}, k, times)
        returns.append(table.returns(end)[0])
        scores.append(table.scores(end)[seat])
        if progress:
            print(json.dumps({"game": name, "bot": kind, "played": k + 1, "mean_return": round(statistics.mean(returns), 3),
                              "mean_score": round(statistics.mean(scores), 2),
                              "won": sum(1 for r in returns if r == 1.0), "mcts_move_cpu": _cpu(times),
                              "load_average": os.getloadavg()[0]}), flush=True)
    return {"game": name, "bot": kind, "games": games, "mean_return": round(statistics.mean(returns), 3),
            "mean_score": round(statistics.mean(scores), 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solitaire-games", type=int, default=None)
    parser.add_argument("--only", default="")
    parser.add_argument("--against", default="random,greedy", help="the duels' opponents of mcts")
    parser.add_argument("--kinds", default="random,greedy,mcts", help="the bots that play the solitaires")
    parser.add_argument("--progress", action="store_true", help="one JSON line per game played")
    parser.add_argument("--first", type=int, default=0,
                        help="the duels' first game (seed) to play: a run stopped at game K goes on with --first K")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    times: dict[str, list[float]] = {}
    results = []
    started = time.time()
    for name in DUELS:
        if only and name not in only:
            continue
        for opponent in args.against.split(","):
            results.append(duel(name, args.games, opponent, times, args.progress, args.first))
            print(json.dumps(results[-1]), flush=True)
    for name in SOLITAIRES:
        if only and name not in only:
            continue
        for kind in args.kinds.split(","):
            results.append(solitaire(name, args.solitaire_games or args.games, kind, times, args.progress))
            print(json.dumps(results[-1]), flush=True)
    summary = {
        "results": results,
        "mcts_move_cpu_seconds": _cpu(times),
        "wall_seconds": round(time.time() - started, 1),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
