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
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
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


def process_cpu(argv: list[str], env: dict[str, str]) -> float:
    """The CPU (user + system) of one CLI process, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def one_process(runs: int) -> tuple[float, float]:
    """``solrec legal`` and ``solrec play`` (then ``undo``) as processes, at the middle of the 2-player
    fixture: the median CPU of ``runs`` runs each."""
    solrec = str(Path(sys.executable).parent / "solrec")
    lines = (ROOT / "fixtures" / "solarius-mission" / f"{FIXTURES[0]}.jsonl").read_text("utf-8").splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        # As installed for use: bytecode caches are written (the first, unmeasured runs write them),
        # even where the environment turns them off (as bench_cli.py).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["HOME"] = tmp
        record = Path(tmp) / "mid.jsonl"
        record.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")
        db = str(Path(tmp) / "bench.db")
        subprocess.run([solrec, "import", str(record), "--db", db, "--id", "mid"], env=env, check=True, capture_output=True)
        legal = json.loads(subprocess.run([solrec, "legal", "mid", "--db", db, "--json"], env=env, check=True,
                                          capture_output=True, text=True).stdout)
        move = (legal["commands"] or [""])[0]
        lt = [process_cpu([solrec, "legal", "mid", "--db", db], env) for _ in range(runs)]
        pt = []
        played = json.loads(subprocess.run([solrec, "play", "mid", move, "--db", db, "--json"], env=env, check=True,
                                           capture_output=True, text=True).stdout)
        back = str(len(played["steps"]))  # the command and the chance that followed it
        subprocess.run([solrec, "undo", "mid", "--steps", back, "--db", db], env=env, check=True, capture_output=True)
        for _ in range(runs):
            pt.append(process_cpu([solrec, "play", "mid", move, "--db", db], env))
            subprocess.run([solrec, "undo", "mid", "--steps", back, "--db", db], env=env, check=True, capture_output=True)
    return statistics.median(lt), statistics.median(pt)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=1, help="measure every N-th command (default all)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each CLI process (default 5)")
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
    legal_p, play_p = one_process(args.runs)
    print(f"one process at the 2-player fixture's middle, start-up included (bench_cli.py's part): "
          f"solrec legal {legal_p:.2f} s CPU, solrec play {play_p:.2f} s CPU")


if __name__ == "__main__":
    main()
