"""Benchmark (not a test): Solo Dice replay and validation speed over many simulated games.

    .venv/bin/python bench/bench_solo_dice.py [--games 10000] [--seed 1]

Prints events per second for (a) reading and msgpack-decoding the stored events only, (b) full
replay to the final state, (c) full validation, and the append rate of ``import``; then the replay
overhead ratio (a)/(b), all measured in one run on one machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from solrec.core.registry import get_game
from solrec.events import Store, codec_for
from solrec.events.record import export_lines
from solrec.replay.log import load, state_at
from solrec.replay.validate import validate
from solrec.workflows.games import import_text, simulate_games


def timed(label: str, events: int, func) -> float:
    start = time.perf_counter()
    func()
    seconds = time.perf_counter() - start
    rate = events / seconds
    print(f"{label:<44} {seconds:8.2f} s  {rate:12,.0f} events/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--import-games", type=int, default=1_000, help="games exported and re-imported")
    args = parser.parse_args()

    game = get_game("solo-dice")
    codec = codec_for(game)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        start = time.perf_counter()
        ids, _ = simulate_games(store, "solo-dice", args.games, args.seed, [], {})  # (ids, summary) since issue 12
        print(f"simulated and recorded {len(ids):,} games in {time.perf_counter() - start:.1f} s")
        total = store.db.execute("select count(*) from events").fetchone()[0]
        print(f"{total:,} events, {total / len(ids):.1f} per game\n")

        def read_and_decode():
            for gid in ids:
                for row in store.rows(gid):
                    codec.decode(row.type, row.version, row.payload)

        def replay():
            for gid in ids:
                state_at(load(store, gid))

        def validate_all():
            bad = [gid for gid in ids if not validate(load(store, gid)).ok]
            assert not bad, bad

        a = timed("(a) read + msgpack-decode only", total, read_and_decode)
        b = timed("(b) full replay to the final state", total, replay)
        c = timed("(c) full validation", total, validate_all)

        records = [
            "\n".join(export_lines(gid, store.header(gid), store.rows(gid)))
            for gid in ids[: args.import_games]
        ]
        imported = sum(len(store.rows(gid)) for gid in ids[: args.import_games])
        target = Store(Path(tmp) / "import.db")

        def import_all():
            for text in records:
                import_text(target, text, None)

        d = timed(f"(d) import of {len(records):,} exported games", imported, import_all)
        print(f"\nreplay overhead ratio (a)/(b): {a / b:.2f}  (replay takes {a / b:.2f}x the time of reading + decoding)")
        print(f"validation vs replay (b)/(c):  {b / c:.2f}")
        print(f"import appends {d:,.0f} events/s")


if __name__ == "__main__":
    main()
