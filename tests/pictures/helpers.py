"""Logs of the recorded fixtures, without a database: the record decided, its rows chained."""

from __future__ import annotations

from pathlib import Path

from solrec.core.registry import games
from solrec.events.envelope import chain_rows, codec_for, genesis_hash
from solrec.events.record import decide_record
from solrec.replay.log import Log, from_rows

from ..conftest import FIXTURES

FIXTURE_FILES = sorted(FIXTURES.glob("*/*.jsonl"))
FIXTURE_IDS = [f"{p.parent.name}/{p.stem}" for p in FIXTURE_FILES]


def fixture_log(path: Path | str) -> Log:
    path = FIXTURES / path if isinstance(path, str) else path
    header, steps, _, _ = decide_record(path.read_text(encoding="utf-8"))
    rows = chain_rows(codec_for(games()[header.game]), genesis_hash(header), 0, 0, steps)
    return from_rows(path.stem, header, rows)
