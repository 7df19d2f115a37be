"""What a solrec database holds: one record per table (its columns and their types, its key, the
columns that may not be NULL, whether the first command that needs it makes it, and the schema
version each column arrived in), the views, the bounds a reader keeps, and the check that a file
holds exactly this and nothing else (docs/record-format.md, docs/security.md).

Nothing here opens a file: ``check_file`` is handed ``sqlite_master`` and a way to ask SQLite about
a table (events/database.py does the opening).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import msgpack

from solrec.core.words import quoted

SCHEMA_VERSION = 3
MAX_PAYLOAD = 64 * 1024  # bytes of one stored event; the largest real payload is under 1 KiB
MAX_TEXT = 64 * 1024  # characters of one stored text field (options, players, scores, commands)
MAX_HEAD = 4 * MAX_TEXT + 64  # bytes of one stored head: a command of MAX_TEXT characters, and the rest
MAX_DATA = 8 * MAX_PAYLOAD  # characters of one row's ``data`` (its payload as JSON text: a byte is at most ~6)


@attrs.frozen
class Table:
    """One table of the file, as solrec makes it (with sqlite-utils) and as opening checks it."""

    name: str
    columns: Mapping[str, type]  # in the order of the CREATE TABLE
    key: tuple[str, ...]  # the primary key, in order
    not_null: tuple[str, ...] = ()
    optional: bool = False  # made by the first command that needs it: a file may lack it
    added: Mapping[str, int] = attrs.field(factory=dict)  # a column a migration added -> its schema
    references: tuple[tuple[str, str, str], ...] = ()  # (column, table, column) foreign keys

    def columns_in(self, schema: int) -> dict[str, type]:
        """The columns the table has in a file of schema ``schema`` (before its migration)."""
        return {c: t for c, t in self.columns.items() if self.added.get(c, 1) <= schema}


def _table(name: str, columns: Mapping[str, type], key: tuple[str, ...], not_null: tuple[str, ...] | bool = (),
           optional: bool = True, **more: Any) -> Table:
    return Table(name, dict(columns), key, tuple(columns) if not_null is True else tuple(not_null or ()), optional,
                 **more)


TABLES: dict[str, Table] = {t.name: t for t in (
    _table("solrec_meta", {"key": str, "value": str}, ("key",), optional=False),
    _table(
        "games",
        {"id": str, "game": str, "rules": str, "options": str, "chance": str, "seed": int, "players": str,
         "created": str, "genesis": str, "events": int, "head": str, "scores": str, "outcome": str},
        ("id",), ("game", "rules", "options", "chance", "players", "created", "genesis", "events", "head"),
        optional=False,
    ),
    _table(
        "events",
        {"game_id": str, "seq": int, "step": int, "actor": str, "command": str, "type": str, "version": int,
         "payload": bytes, "hash": str, "time": str, "data": str, "head": bytes},
        ("game_id", "seq"), ("step", "actor", "command", "type", "version", "payload", "hash", "time", "head"),
        optional=False, added={"data": 2, "head": 3}, references=(("game_id", "games", "id"),),
    ),
    # Seals (``solrec seal``, events/seal.py): made by the first seal.
    _table("seals", {"game_id": str, "events": int, "head": str, "mac": str, "sealed": str}, ("game_id",)),
    # Comments (``solrec note``, events/notes.py), made by the first comment: ``notes`` holds the
    # comments and their own hash chain, ``note_heads`` each game's comment count and chain head (and
    # what a seal covered of them).
    _table("notes", {"game_id": str, "n": int, "position": int, "by": str, "time": str, "mark": str, "text": str,
                     "hash": str}, ("game_id", "n"), True),
    _table("note_heads", {"game_id": str, "notes": int, "head": str, "sealed_notes": int, "sealed_head": str},
           ("game_id",)),
    # Variations (``solrec fork``, events/forks.py): which game a fork came from, and at which
    # position. Made by the first fork.
    _table("forks", {"game_id": str, "parent": str, "position": int}, ("game_id",), True),
    # Seat links of ``solrec serve`` (server/seats.py): one per player of a game, its token kept only
    # as a SHA-256 hash. Made by the first seat link; deleting or renaming a game drops its links.
    _table("seats", {"game_id": str, "player": str, "token_hash": str, "created": str}, ("game_id", "player"), True),
    # Bot seats of ``solrec serve`` (server/bots.py): the bot (``KIND[:SETTINGS]``) at a player's seat
    # and its seed (the referee's only), so a restart keeps it seated; and a game's table settings
    # (its "hint" button switched off). Made by the first bot seated, the first setting changed.
    _table("bots", {"game_id": str, "player": str, "bot": str, "seed": int, "created": str}, ("game_id", "player"),
           True),
    _table("table_settings", {"game_id": str, "key": str, "value": str}, ("game_id", "key"), True),
    # The bots of a game's header (``Header.bots``: ``simulate --player NAME=bot:KIND``): one row per
    # bot seat, the bot as ``KIND[:SETTINGS]``. Part of the header, so covered by its genesis hash
    # like the games row's columns, and read back with them by ``Store.header``; made by the first
    # game with bots (a file without such a game lacks it, so older files and older games read as
    # they did).
    _table("header_bots", {"game_id": str, "player": str, "bot": str}, ("game_id", "player"), True),
)}

# The tables a game's rows are kept in beside ``games`` and ``events``, and what deleting or renaming
# the game does to them (``Store.delete_game``, ``Store.rename_game``).
NOTES_TABLES = ("notes", "note_heads")
FOLLOW_THEIR_GAME = ("bots", "table_settings", "header_bots")  # renamed with it, deleted with it

VIEWS = {
    "event_log": (
        "select e.game_id, g.game, e.seq + 1 as position, e.seq, e.step, e.actor, e.command, e.type,"
        " e.version, json(e.data) as data, e.hash, e.time from events e join games g on g.id = e.game_id"
    ),
    "game_list": (
        "select id, game, rules, chance, cast(seed as text) as seed, json(players) as players,"
        " json(options) as options, created, events,"
        " case when outcome is null then 'running' else 'over' end as status,"
        " json(scores) as scores, json(outcome) as outcome from games"
    ),
}

_AFFINITY = {str: "TEXT", int: "INTEGER", bytes: "BLOB"}
# The words of a CREATE TABLE that solrec (sqlite-utils, ALTER TABLE ADD COLUMN) writes
_TABLE_WORDS = {"CREATE", "TABLE", "IF", "NOT", "EXISTS", "PRIMARY", "KEY", "NULL", "FOREIGN", "REFERENCES", "TEXT", "INTEGER", "BLOB"}
_SQL_TOKEN = re.compile(r""""(?:[^"]|"")*"|\[[^\]]*\]|`(?:[^`]|``)*`|'(?:[^']|'')*'|\w+|\S""")


def create(db: Any, table: Table) -> None:
    """Make ``table`` with sqlite-utils (``db``: its ``Database``), as solrec always has: the same
    CREATE TABLE, byte for byte (a one-column key given as a name, as sqlite-utils writes it inline)."""
    db.table(table.name).create(
        dict(table.columns),
        pk=table.key[0] if len(table.key) == 1 else table.key,
        foreign_keys=list(table.references) or None,
        not_null=set(table.not_null) or None,
    )


def check_file(where: Path, master: dict[str, tuple[str, Any]], number: int,
               table_info: Callable[[str], list[tuple]], corrupt: type[Exception]) -> None:
    """Every object of the file is one that solrec's schema ``number`` has (docs/security.md):
    ``master``: name -> (type, sql) from ``sqlite_master``; ``table_info``: ``PRAGMA table_xinfo`` of
    a table; ``corrupt``: the error a file that is not so gets."""
    for table in TABLES.values():
        if table.name == "solrec_meta" or (table.optional and table.name not in master):
            continue  # made by the first `seal`, `note`, `fork`, seat link (`serve`)
        check_table(where, master, table, table.columns_in(number), number, table_info, corrupt)
    triggers = sorted(name for name, (kind, _) in master.items() if kind == "trigger")
    if triggers:
        raise corrupt(f"{where}: it holds a trigger ({quoted(triggers[0])}) solrec never makes")
    for name, (kind, sql) in sorted(master.items()):
        ours = (
            kind == "table" and (name in TABLES or name.startswith("sqlite_stat"))  # ANALYZE's
            or kind == "view" and name in VIEWS  # never read by solrec
            or kind == "index" and sql is None and name.startswith("sqlite_autoindex_")  # a primary key's
        )
        if not ours:
            raise corrupt(f"{where}: it holds a {kind} ({quoted(name[:80])}) solrec never makes")


def check_table(where_file: Path, master: dict[str, tuple[str, Any]], table: Table, columns: Mapping[str, type],
                number: int, table_info: Callable[[str], list[tuple]], corrupt: type[Exception]) -> None:
    """The table is the one solrec's schema ``number`` makes: exactly ``columns``, of their declared
    types, its primary key, NOT NULL where solrec puts it, and no other clause (CHECK, DEFAULT, a
    generated column, COLLATE, UNIQUE, a conflict clause, WITHOUT ROWID, ...)."""
    name_ = table.name
    where = f"{where_file}: the {name_} table"
    if name_ not in master:
        raise corrupt(f"{where} is missing")
    kind, sql = master[name_]
    if kind != "table":
        raise corrupt(f"{where_file}: {name_} is a {kind}, not a table")
    names = {name_, *columns} | {name for ref in table.references for name in ref[1:]}
    for token in dict.fromkeys(_SQL_TOKEN.findall(sql if isinstance(sql, str) else "")):  # in order, once
        in_quotes = token[0] in "\"[`'"
        word = token[1:-1] if in_quotes else token
        if not (word.lower() in names or not in_quotes and word.upper() in _TABLE_WORDS or token in "(),"):
            raise corrupt(f"{where} is not the one solrec makes ({quoted(token[:40])} in its definition)")
    have = set()
    key = {c: i + 1 for i, c in enumerate(table.key)}
    for _, name, declared, notnull, default, pk, hidden in table_info(name_):
        name = str(name).lower()
        if name not in columns:
            raise corrupt(f"{where} has a column {quoted(name[:80])} that solrec's schema {number} has not")
        if affinity(str(declared)) != _AFFINITY[columns[name]]:
            raise corrupt(f"{where}: its column {quoted(name)} is declared {quoted(str(declared)[:40])}")
        if default is not None or hidden or (notnull and name not in table.not_null):
            raise corrupt(f"{where}: its column {quoted(name)} has a default or a constraint solrec never makes")
        if pk != key.get(name, 0):
            raise corrupt(f"{where}: its primary key is not ({', '.join(table.key)})")
        have.add(name)
    missing = sorted(set(columns) - have)
    if missing:
        raise corrupt(f"{where} lacks the column {quoted(missing[0])}")


def affinity(declared: str) -> str:
    """The type affinity SQLite gives a declared column type (sqlite.org/datatype3.html, 3.1)."""
    upper = declared.upper()
    if "INT" in upper:
        return "INTEGER"
    if "CHAR" in upper or "CLOB" in upper or "TEXT" in upper:
        return "TEXT"
    if "BLOB" in upper or not upper:
        return "BLOB"
    if "REAL" in upper or "FLOA" in upper or "DOUB" in upper:
        return "REAL"
    return "NUMERIC"


def payload_json(payload: bytes) -> str | None:
    """An event's msgpack payload as JSON text (the ``data`` column)."""
    try:
        return _to_json(msgpack.unpackb(payload, raw=False, strict_map_key=False))
    except Exception:  # damaged bytes stay damaged: validate reports them from the payload
        return None


# ``json.dumps(value, sort_keys=True, ensure_ascii=False)``, its encoder built once (``dumps`` builds
# one per call when given options): ``validate`` recomputes every distinct payload's ``data``.
_to_json = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode


def head_types(seq: Any, step: Any, actor: Any, command: Any, tag: Any, version: Any) -> bool:
    """Whether a head's six fields are of their types (a position, a command number, an actor, a
    command, a type and a version)."""
    return (
        type(seq) is int and type(step) is int and type(actor) is str and type(command) is str
        and type(tag) is str and type(version) is int
    )
