"""Measurement (not a test): the size of ``solrec html`` pages, and the time to build them.

    .venv/bin/python bench/bench_html_size.py

For every fixture, then for long simulated games (a few hundred steps), prints the number of steps,
the page's size, what the same page would weigh with every step's SVG written out whole (no sharing),
and the build time.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from solrec.core.play import make_header
from solrec.core.registry import get_game
from solrec.events.envelope import chain_rows, codec_for, genesis_hash
from solrec.events.record import decide_record
from solrec.replay.html import page
from solrec.replay.log import Log, from_rows
from solrec.replay.simulate import game_seed, player_rng, simulate

ROOT = Path(__file__).resolve().parent.parent

# long games: (game, options) simulated by random legal players from seed 1
LONG = [
    ("solari", None, {"target": 0, "moves": 60}),
    ("solari", None, {"target": 0, "moves": 150}),
    ("solari", ("Ann", "Bob", "Cid"), {"target": 0, "moves": 21, "source": "dominoes-free"}),
    ("soli2", None, {}),
    ("solar-solitaire", None, {}),
    ("solo-dice", None, {}),
]


def measure(name: str, log: Log) -> None:
    start = time.perf_counter()
    html = page(log)
    seconds = time.perf_counter() - start
    data = json.loads(re.search(r'id="data">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    frags = data["fragments"]
    unshared = sum(
        sum(len(frags[f + i]) + 1 for f, c in s["svg"] for i in range(c)) for s in data["games"][0]["steps"]
    )
    steps = len(data["games"][0]["steps"]) - 1
    print(f"{name:<58} {steps:>5} steps {len(html.encode()) / 1e6:7.3f} MB"
          f"  (SVGs unshared {unshared / 1e6:6.2f} MB)  {seconds:5.2f} s")


def main() -> None:
    for path in sorted((ROOT / "fixtures").glob("*/*.jsonl")):
        header, steps, _, _ = decide_record(path.read_text(encoding="utf-8"))
        rows = chain_rows(codec_for(get_game(header.game)), genesis_hash(header), 0, 0, steps)
        measure(f"{path.parent.name}/{path.stem}", from_rows(path.stem, header, rows))
    for game_id, players, options in LONG:
        game = get_game(game_id)
        header = make_header(game, players, options, "seeded", game_seed(1, 0), None)
        steps, _ = simulate(game, header, player_rng(1, 0))
        rows = chain_rows(codec_for(game), genesis_hash(header), 0, 0, steps)
        label = f"simulated {game_id} " + " ".join(f"{k}={v}" for k, v in options.items())
        measure(label, from_rows(game_id, header, rows))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
