"""`solrec balance --sprt` against a fixed number of games (issue 45): the pairs a sequential test plays
to decide, against the pairs a fixed-N test needs for the same decision at the same error rates.

For each case a pool of paired games is played once (one core, as ``solrec balance`` plays them); the
sequential test (ai/sprt.py, looks every ``BATCH`` pairs) is then run ``--runs`` times on pairs drawn
from the pool with replacement (a bootstrap of the games: each run a fresh sequence of the same game's
pairs), and the pairs it used are counted. The fixed-N figure is the one-sided z-test's sample size for
the same alpha, beta and hypotheses, from the pool's spread of the metric's influence:
``N = ((z(1-alpha) + z(1-beta)) * sd / |h1 - h0|)^2``. A third column is the first run on the real
seeds, through the command itself (``solrec balance --sprt``, --jobs 1): pairs played and wall seconds.

    python bench/bench_sprt.py                 # three cases, a few minutes on a busy core
    python bench/bench_sprt.py --runs 200 --solari-36
    python bench/bench_sprt.py --only-solari-36      # the issue's known answer: Solari 36 -> 72
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

from solrec.ai import sprt, stats
from solrec.ai.balance import Plan, has_table, parse_bots, run
from solrec.core.play import make_header
from solrec.core.registry import get_game

# (game, bot, first options, --against, --sprt, pool of pairs)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], str, int]] = [
    ("solari", "greedy", {"target": 12}, {"target": 24}, "length-ratio:0:0.2", 48),
    ("soli2", "random", {}, {"objective": "give-away"}, "first-seat:0:10", 400),
    ("solari", "greedy", {"target": 12}, {"version": 2}, "first-seat:0:10", 96),
]
SOLARI_36 = ("solari", "greedy", {}, {"target": 72}, "length-ratio:0:0.2", 24)
Z95 = 1.6448536269514722  # the normal's 95% quantile: alpha = beta = 0.05


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pool(game_id: str, bot: str, first: dict, second: dict, test: sprt.Test, pairs: int) -> tuple[np.ndarray, np.ndarray]:
    game = get_game(game_id)
    a_header = make_header(game, None, first, "seeded", 0)
    b_header = make_header(game, None, {**first, **second}, "seeded", 0)
    plan = Plan(game_id, a_header.players, parse_bots([bot], len(a_header.players)), (a_header.options, b_header.options),
                0, tabled=has_table(game_id, a_header.options_dict(), a_header.players))
    samples = [stats.Sample(pairs), stats.Sample(pairs)]
    for pair in run(plan, pairs):
        for which, played in enumerate(pair):
            samples[which].put(played.k, stats.row_of(played))
    names = sorted(set().union(*(s.columns for s in samples)))
    columns = sprt.columns_of(test.metric, names)
    a, b = (sum(s.column(c) for c in columns) for s in samples)
    return np.asarray(a, dtype=float), np.asarray(b, dtype=float)


def bootstrap_runs(test: sprt.Test, a: np.ndarray, b: np.ndarray, runs: int, max_pairs: int) -> list[sprt.Look]:
    rng = np.random.default_rng(2026)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        picked = rng.integers(0, len(a), n)
        return a[picked], b[picked]

    return [sprt.simulate(test, draw, max_pairs) for _ in range(runs)]


def fixed_n(test: sprt.Test, a: np.ndarray, b: np.ndarray) -> float:
    """The one-sided z-test's pairs for the same alpha = beta = 0.05 and the same two hypotheses."""
    _, psi = sprt.influence(test.metric, a, b)
    sd = float(psi.std(ddof=1))
    return ((Z95 + Z95) * sd / abs(test.h1 - test.h0)) ** 2


def command(game_id: str, bot: str, first: dict, second: dict, text: str) -> tuple[dict, float]:
    args = ["balance", game_id, "--bot", bot, "--sprt", text, "--jobs", "1", "--json"]
    for k, v in first.items():
        args += ["-o", f"{k}={v}"]
    for k, v in second.items():
        args += ["--against", f"{k}={v}"]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solrec.cli.main", *args], capture_output=True, text=True)
    return json.loads(done.stdout)["sprt"], time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100, help="sequential tests per case on the bootstrapped pool")
    parser.add_argument("--solari-36", action="store_true", help="also Solari 36 -> 72 (a pool of 24 pairs: minutes)")
    parser.add_argument("--only-solari-36", action="store_true", help="Solari 36 -> 72 alone")
    args = parser.parse_args()
    print(f"load average before: {load()} (2 cores)", flush=True)
    cases = [SOLARI_36] if args.only_solari_36 else CASES + ([SOLARI_36] if args.solari_36 else [])
    for game_id, bot, first, second, text, pairs in cases:
        test = sprt.parse(text)
        start = time.process_time()
        a, b = pool(game_id, bot, first, second, test, pairs)
        played = time.process_time() - start
        looks = bootstrap_runs(test, a, b, args.runs, 10_000)
        used = [look.pairs for look in looks]
        accepted = {h: sum(look.accepted == h for look in looks) for h in ("H0", "H1", None)}
        n = fixed_n(test, a, b)
        real, wall = command(game_id, bot, first, second, text)
        print(json.dumps({
            "case": f"{game_id} {bot} {first or 'defaults'} -> {second} --sprt {text}",
            "pool_pairs": pairs, "pool_cpu_s": round(played, 1),
            "sprt_pairs_mean": round(statistics.mean(used), 1), "sprt_pairs_median": statistics.median(used),
            "sprt_pairs_p90": float(np.percentile(used, 90)), "accepted": {str(k): v for k, v in accepted.items()},
            "fixed_n_pairs": round(n, 1), "ratio_sprt_to_fixed": round(statistics.mean(used) / n, 2) if n else None,
            "command": {"accepted": real["accepted"], "pairs": real["pairs"], "wall_s": round(wall, 1)},
            "load": load(),
        }), flush=True)


if __name__ == "__main__":
    main()
