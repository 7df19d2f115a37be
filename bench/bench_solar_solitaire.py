"""Solar Solitaire benchmarks (not a test): the loss proof and the solver.

    .venv/bin/python bench/bench_solar_solitaire.py [all]    # both, with the defaults below
    .venv/bin/python bench/bench_solar_solitaire.py loss [--games 200] [--seed 0] [--waste no|yes]
    .venv/bin/python bench/bench_solar_solitaire.py solve [--deals 50] [--seed 0] [--budget 100000] [--waste no|yes]

``loss``: the loss proof at the end of forced-play games (every card turned, only the forced plays
made, the lowest pad when there is a choice): its total time, the largest number of positions one
proof searched, the worst case, and how many proofs needed no search at all.

``solve``: a survey of seeded deals (``solrec solve solar-solitaire --deals N``), with the share of
winnable deals and its Wilson 95% confidence interval.
"""

from __future__ import annotations

import argparse
import math
import time

from solrec.core.registry import get_game
from solrec.core.solar_solitaire import proof, rules, solver
from solrec.core.solar_solitaire.piles import INDEX, piles_of


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def loss(games: int, seed: int, waste: str) -> None:
    game = get_game("solar-solitaire")
    onto_waste = waste == "yes"
    total, largest, worst, worst_at, lost, unsearched = 0.0, 0, 0.0, -1, 0, 0
    for i in range(games):
        state = solver.deal_position(game, solver.deal_seed(seed, i), {"waste_takes_free_moves": waste})
        piles = piles_of(state)
        for card in state.stock:
            piles = solver.place_turned(piles, INDEX[card])[0][1]
        proof.rescue.cache_clear()
        started = time.perf_counter()
        found, positions = rules.loss_search(piles, onto_waste)
        seconds = time.perf_counter() - started
        total += seconds
        largest = max(largest, positions)
        lost += not found
        unsearched += not found and positions == 0
        if seconds > worst:
            worst, worst_at = seconds, i
    print(f"loss proof at the end of {games} forced-play games (seed {seed}, waste_takes_free_moves={waste}):")
    print(f"  total time         {total:>10.2f} s")
    print(f"  largest search     {largest:>10} positions")
    print(f"  worst case         {worst:>10.3f} s (game {worst_at})")
    print(f"  proven lost        {lost:>10}  ({unsearched} without a search)")


def solve(deals: int, seed: int, budget: int, waste: str) -> None:
    game = get_game("solar-solitaire")
    started = time.perf_counter()
    report = solver.survey(game, deals, seed, budget, options={"waste_takes_free_moves": waste})
    seconds = time.perf_counter() - started
    n = report["deals"]
    low, high = wilson(report["winnable"], n)
    print(f"solar-solitaire solver: {n} seeded deals from seed {seed}, budget {budget} positions per deal, "
          f"waste_takes_free_moves={waste}")
    print(f"  positions searched   {report['positions']:>10}  in {seconds:.1f} s")
    print(f"  decided in budget    {report['decided']:>10}  ({100 * report['decided'] / n:.1f}%)")
    print(f"  winnable             {report['winnable']:>10}  ({100 * report['winnable'] / n:.1f}%, "
          f"Wilson 95% {100 * low:.1f}%-{100 * high:.1f}%)")
    print(f"  proven unwinnable    {report['unwinnable']:>10}")
    print(f"  undecided            {report['undecided']:>10}")
    print(f"  won by forced plays  {report['forced_won']:>10}  ({100 * report['forced_won'] / n:.1f}%)")
    print(f"  won by greedy player {report['greedy_won']:>10}  ({100 * report['greedy_won'] / n:.1f}%)")
    undecided = [r["index"] for r in report["rows"] if r["verdict"] == "undecided"]
    if undecided:
        print(f"  undecided deals      {undecided}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=("loss", "solve", "all"), default="all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--waste", choices=("no", "yes"), default="no")
    args = parser.parse_args()
    if args.what in ("loss", "all"):
        loss(args.games, args.seed, args.waste)
    if args.what in ("solve", "all"):
        solve(args.deals, args.seed, args.budget, args.waste)


if __name__ == "__main__":
    main()
