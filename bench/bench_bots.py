"""Bot strength and move time (issue 33; docs/ai.md, "Strength").

Duels: ``--games`` seeded games per pairing (mcts against random, mcts against greedy), seats
alternated (game k: mcts first when k is even), chance drawn from game k's seed; the mcts bot's share
of wins (a draw counts half). Solitaires: each bot's mean normalised return (and mean score) over the
same seeded deals. Move time: CPU seconds (``time.process_time``) of each mcts move at its default
strength, median and worst. Prints one JSON object; the load average is printed with it.

    python bench/bench_bots.py --games 200            # the issue's count
    python bench/bench_bots.py --games 20 --only soli2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from solrec.ai.bots import make_bot, move_seed
from solrec.ai.table import Table
from solrec.core.game import CHANCE

DUELS = {"soli2": ("soli2", {"mode": "duel"}), "solari": ("solari", {}), "solari-to-12": ("solari", {"target": 12})}
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


def duel(name: str, games: int, opponent: str, times: dict[str, list[float]]) -> dict:
    game_id, options = DUELS[name]
    table = Table(game_id, options)
    a, b = table.players
    score = 0.0
    for k in range(games):
        mcts_seat = a if k % 2 == 0 else b
        kinds = {a: "mcts" if mcts_seat == a else opponent, b: "mcts" if mcts_seat == b else opponent}
        end = play(table, kinds, k, times)
        returns = dict(zip(table.players, table.returns(end)))
        score += 1.0 if returns[mcts_seat] > 0 else 0.5 if returns[mcts_seat] == 0 else 0.0
    return {"game": name, "pairing": f"mcts vs {opponent}", "games": games, "mcts_share": round(score / games, 3)}


def solitaire(name: str, games: int, kind: str, times: dict[str, list[float]]) -> dict:
    game_id, options = SOLITAIRES[name]
    table = Table(game_id, options)
    (seat,) = table.players
    returns, scores = [], []
    for k in range(games):
        end = play(table, {seat: kind}, k, times)
        returns.append(table.returns(end)[0])
        scores.append(table.scores(end)[seat])
    return {"game": name, "bot": kind, "games": games, "mean_return": round(statistics.mean(returns), 3),
            "mean_score": round(statistics.mean(scores), 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solitaire-games", type=int, default=None)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    times: dict[str, list[float]] = {}
    results = []
    started = time.time()
    for name in DUELS:
        if only and name not in only:
            continue
        for opponent in ("random", "greedy"):
            results.append(duel(name, args.games, opponent, times))
            print(json.dumps(results[-1]), flush=True)
    for name in SOLITAIRES:
        if only and name not in only:
            continue
        for kind in ("random", "greedy", "mcts"):
            results.append(solitaire(name, args.solitaire_games or args.games, kind, times))
            print(json.dumps(results[-1]), flush=True)
    mcts_times = sorted(times.get("mcts", []))
    summary = {
        "results": results,
        "mcts_move_cpu_seconds": {
            "moves": len(mcts_times),
            "median": round(statistics.median(mcts_times), 3) if mcts_times else None,
            "worst": round(mcts_times[-1], 3) if mcts_times else None,
        },
        "wall_seconds": round(time.time() - started, 1),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
