"""Benchmark (not a test): Solarius Mission replay and validation speed over 1,000 simulated games,
and the ratio to Solo Dice's, both measured in the same run on the same machine.

    .venv/bin/python bench/bench_solarius_mission.py [--games 1000] [--seed 1] [--players 3]

Prints events per second of (b) full replay to the final state and (c) full validation for Solarius
Mission and for Solo Dice (the same number of games), then Solarius Mission's rates as a share of
Solo Dice's.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from solrec.events import Store
from solrec.replay.log import load, state_at
from solrec.replay.validate import validate
from solrec.workflows.games import simulate_games


def rates(store: Store, game: str, games: int, seed: int, players: list[str]) -> tuple[float, float, int]:
    start = time.perf_counter()
    ids, _ = simulate_games(store, game, games, seed, players, {})  # (ids, summary) since issue 12
    total = sum(len(store.rows(gid)) for gid in ids)
    print(f"{game}: simulated and recorded {len(ids):,} games in {time.perf_counter() - start:.1f} s, "
          f"{total:,} events ({total / len(ids):.1f} per game)")

    start = time.perf_counter()
    for gid in ids:
        state_at(load(store, gid))
    replay = total / (time.perf_counter() - start)

    start = time.perf_counter()
    bad = [gid for gid in ids if not validate(load(store, gid)).ok]
    assert not bad, bad
    validation = total / (time.perf_counter() - start)
    print(f"  (b) full replay   {replay:12,.0f} events/s")
    print(f"  (c) validation    {validation:12,.0f} events/s")
    return replay, validation, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        sm = rates(store, "solarius-mission", args.games, args.seed, [f"P{i + 1}" for i in range(args.players)])
        sd = rates(store, "solo-dice", args.games, args.seed, [])
    print(f"\nSolarius Mission / Solo Dice: replay {sm[0] / sd[0]:.2f}, validation {sm[1] / sd[1]:.2f} "
          "(events/s, same run, same machine)")


if __name__ == "__main__":
    main()
