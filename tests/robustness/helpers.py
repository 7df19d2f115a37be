"""Shared by the robustness tests: run the CLI as a hostile user would, and check what must hold.

``Hostile.run`` fails the test on exit 3, on a traceback, on a refusal longer than one line, and on
any change to the database after a refusal. ``Tally`` counts what was tried, for the closing figures.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from solrec.cli.main import app
from solrec.core.game import Event
from solrec.core.play import make_header
from solrec.core.registry import games, get_game
from solrec.events.envelope import codec_for
from solrec.replay.simulate import game_seed, player_rng, simulate

ROOT = Path(__file__).resolve().parents[2]
# The CLI as another process runs it (for races between processes)
SOLREC = [sys.executable, "-c", "from solrec.cli.main import run; run()"]
FIXTURES = ROOT / "fixtures"

TALLY: Counter[str] = Counter()  # inputs tried per kind, exits per code (printed by the slow run)


def fingerprint(path: Path) -> Any:
    """Everything a database holds, as data (None when there is no file): WAL files included."""
    if not path.exists():
        return None
    if not path.is_file():
        return "not a file"
    if path.stat().st_size == 0:
        return b""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return path.read_bytes()
    try:
        return tuple(conn.iterdump())
    except sqlite3.Error:
        return path.read_bytes()
    finally:
        conn.close()


class Hostile:
    """The CLI against one database, with every run checked for what must hold."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def run(self, *args: str, input: str | None = None, kind: str = "cli", db: Path | None = None):
        target = db or self.db
        before = fingerprint(target)
        data = None if input is None else input.encode("utf-8", "surrogatepass")  # stdin carries bytes
        result = self.runner.invoke(app, [*args, "--db", str(target)], input=data)
        TALLY[kind] += 1
        TALLY[f"exit {result.exit_code}"] += 1
        detail = (args, result.exit_code, result.stdout[-500:], result.stderr[-500:])
        assert result.exit_code in (0, 1, 2), detail
        assert "Traceback" not in result.stdout + result.stderr, detail
        exc = result.exception
        assert exc is None or isinstance(exc, SystemExit), (detail, repr(exc))
        if result.exit_code != 0:
            lines = result.stderr.strip().splitlines()
            assert len(lines) <= 1 or result.exit_code == 1 and args[0] in ("validate", "seal"), detail
            if result.exit_code == 2 or args[0] not in ("validate", "seal"):
                assert len(lines) == 1 and lines[0].startswith("solrec: "), detail
                assert fingerprint(target) == before, ("the database changed after a refusal", detail)
        return result


def record_of(game_id: str) -> list[Path]:
    return sorted((FIXTURES / game_id).glob("*.jsonl"))


def every_game() -> list[str]:
    return sorted(games())


def sample_events(per_game: int = 2) -> dict[tuple[str, str], list[tuple[Any, Event, Any]]]:
    """(game, event tag) -> [(header, event, state before it)] from simulated games of every game."""
    from solrec.core.play import initial_state

    out: dict[tuple[str, str], list[tuple[Any, Event, Any]]] = {}
    option_sets = {
        "solari": [{}, {"source": "dominoes-open"}, {"source": "dominoes-free"}],
        "soli2": [{}, {"mode": "classic-solitaire"}, {"mode": "soli2-solitaire"}],
    }
    for gid in every_game():
        game = get_game(gid)
        for options in option_sets.get(gid, [{}]):
            for index in range(per_game):
                header = make_header(game, [], options, "seeded", game_seed(5, index))
                steps, _ = simulate(game, header, player_rng(5, index))
                state = initial_state(game, header)
                for step in steps:
                    for event in step.events:
                        bucket = out.setdefault((gid, event.TYPE), [])
                        if len(bucket) < 6:
                            bucket.append((header, event, state))
                        state = game.evolve(state, event)
    return out


def codec(game_id: str):
    return codec_for(get_game(game_id))


def edit_command(db: Path, game_id: str, seq: int, command: str) -> None:
    """Edit a stored command as someone who knows the store would: the hashed head and the browsing
    column alike (the hash left as it was)."""
    from solrec.events.envelope import pack_head

    conn = sqlite3.connect(db)
    step, actor, tag, version = conn.execute(
        "select step, actor, type, version from events where game_id = ? and seq = ?", [game_id, seq]
    ).fetchone()
    conn.execute(
        "update events set command = ?, head = ? where game_id = ? and seq = ?",
        [command, pack_head(seq, step, actor, command, tag, version), game_id, seq],
    )
    conn.commit()
    conn.close()


def rechain(db: Path, game_id: str, fix_games: bool = True) -> None:
    """Do what an attacker with write access can: recompute the unkeyed chain after an edit (the
    heads packed again from the browsing columns), and the games row's count and head to match."""
    from solrec.events.envelope import genesis_hash, pack_head, row_hash
    from solrec.events.store import Store

    store = Store(db, create=False)
    header = store.header(game_id)
    store.close()
    conn = sqlite3.connect(db)
    prev = genesis_hash(header)
    rows = conn.execute(
        "select seq, step, actor, command, type, version, payload from events where game_id = ? order by seq",
        [game_id],
    ).fetchall()
    for seq, step, actor, command, tag, version, payload in rows:
        prev = row_hash(prev, seq, step, actor, command, tag, version, bytes(payload))
        head = pack_head(seq, step, actor, command, tag, version)
        conn.execute("update events set hash = ?, head = ? where game_id = ? and seq = ?", [prev, head, game_id, seq])
    if fix_games:
        conn.execute("update games set events = ?, head = ? where id = ?", [len(rows), prev, game_id])
    conn.commit()
    conn.close()


def sql(db: Path, *statements: str, params: tuple = ()) -> None:
    conn = sqlite3.connect(db)
    for statement in statements:
        conn.execute(statement, params if "?" in statement else ())
    conn.commit()
    conn.close()


def as_schema(db: Path, version: int, *edits: str) -> None:
    """The database as an older solrec left it (schema 2: no ``head`` column; schema 1: no ``data``
    either, nor the views), then ``edits``, made under that schema."""
    statements = ["alter table events drop column head"]
    if version == 1:
        statements = ["drop view event_log", "drop view game_list", "alter table events drop column data", *statements]
    sql(db, *statements, f"update solrec_meta set value = '{version}' where key = 'schema'", *edits)


def two_games(db: Path) -> Hostile:
    """The worked example imported twice, as ``we`` (to damage) and ``ok`` (to stay as it is)."""
    cli = Hostile(db)
    for game_id in ("we", "ok"):
        cli.run("import", str(FIXTURES / "solo-dice" / "worked-example.jsonl"), "--id", game_id)
    return cli


def small_disk(monkeypatch, spare_pages: int) -> None:
    """Every database opened from now on may grow by ``spare_pages`` pages only (a full disk)."""
    from solrec.events.store import Store

    original = Store._connect

    def connect(self, create, *args, **kwargs):
        db = original(self, create, *args, **kwargs)
        pages = db.conn.execute("PRAGMA page_count").fetchone()[0]
        db.conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")
        return db

    monkeypatch.setattr(Store, "_connect", connect)
