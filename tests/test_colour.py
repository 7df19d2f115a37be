"""Colour where the output is a terminal (headers, refusals, the side to act, score lines); none when
piped or under NO_COLOR (no-color.org)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from .conftest import FIXTURES

SOLREC = [sys.executable, "-c", "from solrec.cli.main import run; run()"]
ESCAPE = "\x1b["


def _on_a_terminal(args: list[str], **env: str) -> str:
    """What ``solrec ARGS`` prints to a terminal (stdout and stderr on one pseudo-terminal)."""
    leader, follower = pty.openpty()
    done = subprocess.run([*SOLREC, *args], stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
                          env={**os.environ, "TERM": "xterm", **env}, timeout=60)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert done.returncode in (0, 2), out
    return out.decode("utf-8", "replace")


def _store_with_a_game(tmp_path: Path) -> str:
    db = str(tmp_path / "c.db")
    record = next((FIXTURES / "solo-dice").glob("*.jsonl"))
    subprocess.run([*SOLREC, "import", str(record), "--id", "g", "--db", db], check=True, capture_output=True)
    return db


def test_a_terminal_gets_coloured_headers_and_refusals(tmp_path):
    db = _store_with_a_game(tmp_path)
    assert f"{ESCAPE}1mMOVE" in _on_a_terminal(["log", "g", "--db", db])
    assert f"{ESCAPE}1;31msolrec:" in _on_a_terminal(["show", "nope", "--db", db])


def test_the_side_to_act_is_coloured_on_a_terminal(tmp_path):
    db = str(tmp_path / "c.db")
    out = _on_a_terminal(["new", "solo-dice", "-p", "Ann", "--entered", "--db", db])
    assert f"{ESCAPE}1;33mchance{ESCAPE}0m to act" in out


def test_no_colour_under_no_color(tmp_path):
    db = _store_with_a_game(tmp_path)
    assert ESCAPE not in _on_a_terminal(["log", "g", "--db", db], NO_COLOR="1")
    assert ESCAPE not in _on_a_terminal(["show", "nope", "--db", db], NO_COLOR="1")


def test_no_colour_when_piped(tmp_path):
    db = _store_with_a_game(tmp_path)
    for args in (["log", "g"], ["list"], ["show", "nope"]):
        done = subprocess.run([*SOLREC, *args, "--db", db], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "TERM": "xterm"})
        assert ESCAPE not in done.stdout + done.stderr


def test_score_totals_are_coloured_on_a_terminal(tmp_path):
    db = _store_with_a_game(tmp_path)
    assert f"Ann: {ESCAPE}1;32m" in _on_a_terminal(["score", "g", "--db", db])


def test_a_stored_escape_sequence_never_reaches_a_terminal_as_colour(tmp_path):
    """Colour is written after the output is escaped: a stored ESC is shown as ``\\x1b`` even where
    the line around it is coloured."""
    import sqlite3

    db = _store_with_a_game(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("update games set players = ? where id = 'g'", ['["A\\u001b[31mnn"]'])
    conn.commit()
    conn.close()
    out = _on_a_terminal(["list", "--db", db])
    assert f"{ESCAPE}1mID" in out and "A\\x1b[31mnn" in out and f"A{ESCAPE}31m" not in out
