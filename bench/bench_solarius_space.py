"""Solarius Mission at a table: the CPU of answering ``legal`` and ``play`` at every position of the
three seeded space fixtures (2, 3 and 4 players), and of the text map ``show`` draws.

Per position where a player is to act: ``legal`` = what ``solrec legal`` computes (the legal commands
in the position's notation, the forms where they are not listed, and the reachable hexes with what
each flight costs and what can be done there); ``play`` = parsing the recorded command in the
position and deciding it, and folding its events. Process start-up and the store are bench_cli's.
CPU seconds (``time.process_time``). Targets (issue 22): ``legal`` at most 0.15 s at the median
position and 0.5 s at the worst; ``play`` at most 0.15 s at the median.

    .venv/bin/python bench/bench_solarius_space.py [--every N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from solrec.core.game import CHANCE
from solrec.core.play import fold, initial_state
from solrec.core.registry import get_game
from solrec.events.record import decide_record

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ("space-two-players-seeded", "space-three-players-seeded", "space-four-players-seeded")


def legal_answer(game: Any, state: Any) -> Any:
    """What ``solrec legal`` computes beside the store."""
    legal = game.legal_commands(state)
    commands = None if legal is None else [game.format_at(c, state) for c in legal]
    forms = game.command_forms(state) if legal is None else ()
    return commands, forms, game.legal_details(state)


def cpu(fn: Any, *args: Any) -> float:
    started = time.process_time()
    fn(*args)
    return time.process_time() - started


def measure(name: str, every: int) -> dict[str, list[float]]:
    header, steps, _, _ = decide_record((ROOT / "fixtures" / "solarius-mission" / f"{name}.jsonl").read_text("utf-8"))
    game = get_game("solarius-mission")
    before = initial_state(game, header)
    out: dict[str, list[float]] = {"legal": [], "play": [], "map": []}
    for i, step in enumerate(steps):
        if i % every == 0 and game.to_act(before) not in (None, CHANCE):
            out["legal"].append(cpu(legal_answer, game, before))
            text = step.notation
            out["play"].append(cpu(lambda: fold(game, before, game.decide(before, game.parse(text, before)))))
            out["map"].append(cpu(game.render, before))
        before = fold(game, before, step.events)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=1, help="measure every N-th command (default all)")
    args = parser.parse_args()
    total: dict[str, list[float]] = {"legal": [], "play": [], "map": []}
    for name in FIXTURES:
        got = measure(name, args.every)
        for k, v in got.items():
            total[k].extend(v)
        print(f"{name}: {len(got['legal'])} positions; legal median {statistics.median(got['legal']):.3f} s, "
              f"worst {max(got['legal']):.3f} s; play median {statistics.median(got['play']):.3f} s, "
              f"worst {max(got['play']):.3f} s; text map median {1000 * statistics.median(got['map']):.1f} ms")
    legal, play, drawn = total["legal"], total["play"], total["map"]
    print(f"all {len(legal)} positions: legal median {statistics.median(legal):.3f} s (target 0.15), worst "
          f"{max(legal):.3f} s (target 0.5); play median {statistics.median(play):.3f} s (target 0.15); "
          f"show's text map median {1000 * statistics.median(drawn):.1f} ms")


if __name__ == "__main__":
    main()
