"""Start-up of the CLI, the way it is used at a table: one process per command.

Measures, in one run, the median wall time of ``python -c "import typer"`` (the floor no Typer CLI
can beat), ``solrec --version``, ``solrec show ID`` and ``solrec play ID CMD`` on a game of about
200 events (a simulated Solar Solitaire game taken back to just under 200; each play is undone),
and prints each as a ratio to the floor. Target: ``show`` and ``play`` within 2x of the floor.

    .venv/bin/python bench/bench_cli.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent


def wall(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def solrec_json(solrec: str, env: dict[str, str], *args: str) -> Any:
    out = subprocess.run([solrec, *args, "--json"], env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def running_game(solrec: str, env: dict[str, str], events: int) -> tuple[dict[str, Any], str]:
    """A seeded Solar Solitaire game taken back (``undo``) to the last player's command at or
    before ``events`` events, and a legal command there."""
    for seed in range(1, 50):
        (gid,) = solrec_json(solrec, env, "simulate", "solar-solitaire", "--games", "1", "--seed", str(seed))["ids"]
        rows = solrec_json(solrec, env, "log", gid, "--reveal")["events"]
        if len(rows) <= events:
            continue
        starts = [r for i, r in enumerate(rows) if r["actor"] != "chance" and (i == 0 or rows[i - 1]["step"] != r["step"])]
        cut = max((r for r in starts if r["seq"] <= events), key=lambda r: r["seq"])
        solrec_json(solrec, env, "undo", gid, "--steps", str(rows[-1]["step"] - cut["step"] + 1))
        legal = solrec_json(solrec, env, "legal", gid)["commands"]
        game = next(g for g in solrec_json(solrec, env, "list") if g["id"] == gid)
        return game, legal[0]
    raise SystemExit("no simulated game long enough")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (the median is reported)")
    args = parser.parse_args()
    solrec = str(BIN / "solrec")
    with tempfile.TemporaryDirectory() as tmp:
        # As installed for use: bytecode caches are written (the first, unmeasured run writes them),
        # even where the environment turns them off.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["SOLREC_DB"] = str(Path(tmp) / "bench.db")
        game, legal = running_game(solrec, env, 200)
        commands = {
            'python -c "import typer"': [sys.executable, "-c", "import typer"],
            "solrec --version": [solrec, "--version"],
            f"solrec show ID ({game['events']}-event {game['game']} game)": [solrec, "show", game["id"]],
            f"solrec play ID '{legal}' (undone after each run)": [solrec, "play", game["id"], legal],
        }
        undo = [solrec, "undo", game["id"]]
        for argv in commands.values():  # warm the caches (pycache, page cache) once
            wall(argv, env)
            if argv[1:2] == ["play"]:
                wall(undo, env)
        # Round robin: one run of each command in turn, so a change of load on a shared machine
        # weighs on every command alike and the ratios stay fair.
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(wall(argv, env))
                if argv[1:2] == ["play"]:
                    wall(undo, env)  # back to the same position, so every play is the same
        medians = {name: statistics.median(t) for name, t in times.items()}
    floor = medians['python -c "import typer"']
    print(f"median of {args.runs} runs each, python {sys.version.split()[0]}")
    print("| command | median ms | ratio to the floor |\n|---|---|---|")
    for name, m in medians.items():
        print(f"| `{name}` | {m * 1000:.0f} | {m / floor:.2f}x |")


if __name__ == "__main__":
    main()
