"""Solar Solitaire solver benchmark (not a test): positions per second and the share of seeded deals
decided within the node budget.

    .venv/bin/python bench/bench_solar_solitaire.py [--deals 50] [--seed 0] [--budget 100000]
"""

from __future__ import annotations

import argparse
import time

from solrec.core.registry import get_game
from solrec.core.solar_solitaire import solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=100_000)
    args = parser.parse_args()
    game = get_game("solar-solitaire")

    started = time.perf_counter()
    report = game.survey(args.deals, args.seed, args.budget)
    seconds = time.perf_counter() - started
    n = report["deals"]
    print(f"solar-solitaire solver: {n} seeded deals from seed {args.seed}, budget {args.budget} positions per deal")
    print(f"  positions searched   {report['positions']:>10}  in {seconds:.1f} s")
    print(f"  positions/second     {report['positions'] / seconds:>10.0f}")
    print(f"  decided in budget    {report['decided']:>10}  ({100 * report['decided'] / n:.1f}%)")
    print(f"  winnable             {report['winnable']:>10}  ({100 * report['winnable'] / n:.1f}%)")
    print(f"  proven unwinnable    {report['unwinnable']:>10}")
    print(f"  undecided            {report['undecided']:>10}")
    print(f"  won by forced plays  {report['forced_won']:>10}  ({100 * report['forced_won'] / n:.1f}%)")
    print(f"  won by greedy player {report['greedy_won']:>10}  ({100 * report['greedy_won'] / n:.1f}%)")

    # the loss proof alone: exhaustive free-move searches from the end of forced-play games
    searched, proofs, started = 0, 0, time.perf_counter()
    for i in range(args.deals):
        state = solver.deal_position(game, solver.deal_seed(args.seed, i))
        piles = solver.piles_of(state)
        for card in state.stock:
            piles = solver.place_turned(piles, solver.INDEX[card])[0][1]
        found, positions, _ = solver.free_search(piles, 300_000)
        searched += positions
        proofs += found is False
    seconds = time.perf_counter() - started
    print(f"loss search at the end of forced-play games: {searched} positions in {seconds:.1f} s "
          f"({searched / seconds:.0f}/s), {proofs} of {args.deals} proven lost")


if __name__ == "__main__":
    main()
