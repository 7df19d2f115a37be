"""`log` lines its columns up: widths from the data, long cells cut with an ellipsis, --wide shows all."""

from __future__ import annotations

import pytest

from .conftest import FIXTURES


def _table(cli, *extra: str) -> list[str]:
    """The table's lines; a comment's line (``#N ...``, under its position's event) is not a row."""
    lines = cli.run("log", "g", "--reveal", *extra).stdout.splitlines()[1:]
    return [line for line in lines if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("record", ["solo-dice/*.jsonl", "solarius-mission/worked-examples-entered.jsonl"])
def test_every_column_starts_where_its_header_starts(cli, record):
    cli.run("import", str(next(FIXTURES.glob(record))), "--id", "g")
    header, *rows = _table(cli)
    hash_at = header.index("HASH")
    event_at = header.index("EVENT")
    command_at = header.index("COMMAND")
    for row in rows:
        assert len(row) == hash_at + 12  # the hash column is never ragged
        assert row[event_at - 2: event_at] == "  " and row[command_at - 2: command_at] == "  "


def test_long_cells_are_cut_with_an_ellipsis_and_wide_shows_them_whole(cli):
    cli.run("import", str(FIXTURES / "solarius-mission" / "worked-examples-entered.jsonl"), "--id", "g")
    cut = _table(cli)
    whole = _table(cli, "--wide")
    assert any("…" in row for row in cut)
    assert not any("…" in row for row in whole)
    events = [e["text"] for e in cli.json("log", "g", "--reveal")["events"]]
    longest = max(events, key=len)
    assert len(longest) > 64 and any(longest in row for row in whole)
