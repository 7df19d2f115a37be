"""The learned bot against the mcts bot (issue 44 item 3; docs/ai.md, "The learned bot").

Solitaires (Solo Dice, SOLI2's solitaire, Solar Solitaire): each bot's mean score over the same seeded
deals (game k's chance from ``bench-chance:k``, as ``bench_bots.py`` draws it) with its 95% interval,
and the mean of the paired differences (policy less mcts, game by game) with its 95% interval. The
SOLI2 duel: the learned bot against mcts, seats alternated (game k: the learned bot first when k is
even), its share of the games (a draw half) with its 95% Wilson interval. Move time: CPU seconds
(``time.process_time``) of each move with a choice, per bot: the mean and the median, and the
learned bot's mean over mcts's (the issue: at most 1/20).

The mcts games cost seconds each, so ``--mcts-games`` may be fewer than ``--games`` (said in the
output); the mcts bot plays at its default strength unless ``--mcts`` says otherwise (said too).

    python bench/bench_policy.py --games 200
    python bench/bench_policy.py --games 200 --mcts-games 60 --only solo-dice,soli2-solitaire --progress
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the solrec command sets it (cli/main.py): before numpy loads

from bench_bots import play, wilson  # the same games as bench_bots.py: its seeds, its move seeds

from solrec.ai.table import Table

SOLITAIRES = {"solo-dice": ("solo-dice", {}), "soli2-solitaire": ("soli2", {"mode": "soli2-solitaire"}),
              "solar-solitaire": ("solar-solitaire", {})}
DUELS = {"soli2-duel": ("soli2", {"mode": "duel"})}


def interval(values: list[float]) -> tuple[float, float]:
    """The 95% interval of a mean (normal approximation; 200 games)."""
    if len(values) < 2:
        return (math.nan, math.nan)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    mean = statistics.mean(values)
    return (round(mean - half, 2), round(mean + half, 2))


def cpu(times: list[float]) -> dict:
    return {"moves": len(times), "mean": round(statistics.mean(times), 6) if times else None,
            "median": round(statistics.median(times), 6) if times else None}


def say(progress: bool, **line) -> None:
    if progress:
        print(json.dumps({**line, "load_average": round(os.getloadavg()[0], 2)}), file=sys.stderr, flush=True)


def moves(times: dict, mcts: str) -> dict:
    mine, theirs = cpu(times.get("policy", [])), cpu(times.get(mcts, []))
    ratio = mine["mean"] / theirs["mean"] if mine["mean"] and theirs["mean"] else None
    return {"policy": mine, "mcts": theirs, "policy_over_mcts": round(ratio, 5) if ratio else None}


class Cache:
    """The mcts bot's games kept in a JSON file (``--cache``): its score or result and its move times per
    game, so a run stopped part way, or a run for a new model, plays no mcts game twice. The learned
    bot's games are always played."""

    def __init__(self, path: str | None):
        self.path = path
        self.kept: dict[str, dict] = {}
        if path and os.path.exists(path):
            with open(path) as f:
                self.kept = json.load(f)

    def game(self, key: str, mcts: str, play_it) -> dict:
        if key in self.kept:
            return self.kept[key]
        times: dict[str, list[float]] = {}
        found = {"value": play_it(times), "times": times.get(mcts, []), "other_times": times.get("policy", [])}
        if self.path:
            self.kept[key] = found
            with open(self.path + ".tmp", "w") as f:
                json.dump(self.kept, f)
            os.replace(self.path + ".tmp", self.path)
        return found


def solitaire(name: str, games: int, mcts_games: int, mcts: str, progress: bool, cache: Cache) -> dict:
    times: dict[str, list[float]] = {}
    game_id, options = SOLITAIRES[name]
    table = Table(game_id, options)
    (seat,) = table.players
    scores: dict[str, list[int]] = {"policy": [], mcts: []}

    def score(kind: str, k: int, times: dict) -> int:
        return table.scores(play(table, {seat: kind}, k, times))[seat]

    for kind, count in (("policy", games), (mcts, mcts_games)):
        for k in range(count):
            if kind == mcts:
                found = cache.game(f"{name}:{mcts}:{k}", mcts, lambda t, k=k: score(mcts, k, t))
                times.setdefault(mcts, []).extend(found["times"])
                scores[kind].append(found["value"])
            else:
                scores[kind].append(score(kind, k, times))
            say(progress, game=name, bot=kind, k=k, score=scores[kind][-1], mean=round(statistics.mean(scores[kind]), 2))
    paired = [p - m for p, m in zip(scores["policy"], scores[mcts])]
    return {"game": name, "policy": {"games": games, "mean_score": round(statistics.mean(scores["policy"]), 2) if games else None,
                                     "interval95": interval(scores["policy"])},
            "mcts": {"bot": mcts, "games": mcts_games, "mean_score": round(statistics.mean(scores[mcts]), 2) if mcts_games else None,
                     "interval95": interval(scores[mcts])},
            "paired_difference": {"games": len(paired), "mean": round(statistics.mean(paired), 2) if paired else None,
                                  "interval95": interval(paired)},
            "move_cpu_seconds": moves(times, mcts)}


def duel(name: str, games: int, mcts: str, progress: bool, first: int = 0) -> dict:
    times: dict[str, list[float]] = {}
    game_id, options = DUELS[name]
    table = Table(game_id, options)
    a, b = table.players
    share = 0.0
    for k in range(first, games):
        mine = a if k % 2 == 0 else b
        end = play(table, {a: "policy" if mine == a else mcts, b: "policy" if mine == b else mcts}, k, times)
        result = dict(zip(table.players, table.returns(end)))[mine]
        share += 1.0 if result > 0 else 0.5 if result == 0 else 0.0
        played = k + 1 - first
        say(progress, game=name, k=k, policy_result=result, share=round(share / played, 3),
            interval95=wilson(share / played, played))
    n = games - first
    return {"game": name, "pairing": f"policy vs {mcts}", "games": n, "first": first, "policy_share": round(share / n, 3),
            "interval95": wilson(share / n, n), "move_cpu_seconds": moves(times, mcts)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="games of the learned bot per game (and duels)")
    parser.add_argument("--mcts-games", type=int, default=None, help="games of mcts per solitaire (default --games)")
    parser.add_argument("--mcts", default="mcts", help="the mcts bot (default: its default strength)")
    parser.add_argument("--only", default="", help="some of: " + ",".join([*SOLITAIRES, *DUELS]))
    parser.add_argument("--progress", action="store_true", help="a JSON line per game on stderr")
    parser.add_argument("--cache", default=None, help="a JSON file keeping the mcts bot's solitaire games")
    parser.add_argument("--first", type=int, default=0,
                        help="the duel's first game (seed): a run stopped at game K goes on with --first K")
    parser.add_argument("--mcts-only", action="store_true", help="play the mcts bot's solitaire games alone (into --cache)")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    cache = Cache(args.cache)
    results = []
    started, cpu_started = time.time(), time.process_time()
    for name in SOLITAIRES:
        if not only or name in only:
            results.append(solitaire(name, 0 if args.mcts_only else args.games,
                                     args.games if args.mcts_games is None else args.mcts_games, args.mcts, args.progress, cache))
            print(json.dumps(results[-1]), flush=True)
    for name in DUELS:
        if (not only or name in only) and not args.mcts_only:
            results.append(duel(name, args.games, args.mcts, args.progress, args.first))
            print(json.dumps(results[-1]), flush=True)
    print(json.dumps({"results": results, "mcts": args.mcts, "cpu_seconds": round(time.process_time() - cpu_started, 1),
                      "wall_seconds": round(time.time() - started, 1), "load_average": os.getloadavg()}, indent=2))


if __name__ == "__main__":
    main()
