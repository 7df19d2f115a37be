"""The SQLite event store (sqlite-utils): a ``games`` table and one hash-chained ``events`` stream per game.

Browsable without solrec: each event row also carries ``data``, its payload as JSON text, written in
the same insert as the msgpack ``payload`` it mirrors (so the two never disagree), and the views
``event_log`` (events with their game and position, ``data`` as JSON) and ``game_list`` (games with
``players``, ``options``, ``scores`` and ``outcome`` as JSON) let sqlite-utils and Datasette users
query them with SQLite's JSON functions. SQLite cannot read msgpack, so a view or a generated column
over ``payload`` alone cannot show it; a companion table would need its own cleanup on delete.

What the hash chain covers is stored as it is hashed: ``head`` (the packed position, command number,
actor, command, type and version) and ``payload``. Reading a log reads those two, the hash and the
time, and nothing else; ``seq`` orders the rows. The columns ``step``, ``actor``, ``command``,
``type``, ``version`` and ``data`` are written beside them in the same insert, for people browsing
the file; solrec never reads them back, and ``validate`` reports a row where any of them disagrees
with what is hashed, ``data`` with the payload (docs/security.md). ``game_list`` gives seeds as
text: a JavaScript client reads a number above 2**53 inexactly. Older databases are migrated by their
first write (or ``upgrade``; a read migrates a private copy and writes nothing: ``Store``): schema 1
gains ``data``, schema 2 gains ``head``, packed from its columns (a row edited before the migration
still breaks its chain).

Every read of several statements runs in one read transaction (``snapshot``: one snapshot under
WAL), so a write landing between two of them is never half seen. Every write that continues a log
(``append``, and ``truncate`` for ``undo``) names the head it was decided against: the position and
the hash of the last event. The check and the writes run in one ``BEGIN IMMEDIATE`` transaction, and
the primary key (game_id, seq) backs it, so a write decided on a log that has since changed (even to
another log of the same length) gets ``ConcurrencyConflict`` ("the game changed: replay and try
again") and writes nothing.

A database file is untrusted input (docs/security.md). Opening checks the whole file before anything
reads past ``sqlite_master`` or writes to it, a migration included: exactly solrec's tables, columns,
declared types and constraints, its views by name, no trigger and no index of its own; reading checks
every stored value's type (a text that is not UTF-8 included) and refuses a payload over
``MAX_PAYLOAD`` bytes without reading it. A file that does not exist yet is created by the first
write, never by a read or a refusal. A write refuses first what a read would refuse (``Unreadable``: a
value over its bound, an option value that is not one, an event that does not decode back), so no
game is written that no reader can open.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs
import msgpack

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError, json_reason
from solrec.core.play import INT64_MAX, INT64_MIN, Header, Step, check_bots, upcast_options
from solrec.core.registry import game_ids, get_game
from solrec.core.words import at_event

from .codec import EventCodec
from .envelope import Row, chain_rows, genesis_hash, pack_head

SCHEMA_VERSION = 3
_VIEWS = {
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
MAX_PAYLOAD = 64 * 1024  # bytes of one stored event; the largest real payload is under 1 KiB
MAX_TEXT = 64 * 1024  # characters of one stored text field (options, players, scores, commands)
MAX_HEAD = 4 * MAX_TEXT + 64  # bytes of one stored head: a command of MAX_TEXT characters, and the rest
MAX_DATA = 8 * MAX_PAYLOAD  # characters of one row's ``data`` (its payload as JSON text: a byte is at most ~6)
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
_SQLITE_MAGIC = b"SQLite format 3\0"

GAMES_COLUMNS = {
    "id": str, "game": str, "rules": str, "options": str, "chance": str, "seed": int, "players": str,
    "created": str, "genesis": str, "events": int, "head": str, "scores": str, "outcome": str,
}
EVENTS_COLUMNS = {
    "game_id": str, "seq": int, "step": int, "actor": str, "command": str, "type": str, "version": int,
    "payload": bytes, "hash": str, "time": str, "data": str, "head": bytes,
}
SEALS_COLUMNS = {"game_id": str, "events": int, "head": str, "mac": str, "sealed": str}
# Comments (``solrec note``, events/notes.py): every table a solrec file may hold for them, with its
# columns. Both are made by the first comment; ``notes`` holds the comments and their own hash chain,
# ``note_heads`` each game's comment count and chain head (and what a seal covered of them).
NOTES_TABLES = {
    "notes": {
        "game_id": str, "n": int, "position": int, "by": str, "time": str, "mark": str, "text": str, "hash": str,
    },
    "note_heads": {"game_id": str, "notes": int, "head": str, "sealed_notes": int, "sealed_head": str},
}
# Variations (``solrec fork``, events/forks.py): which game a fork came from, and at which position.
# Made by the first fork.
FORKS_COLUMNS = {"game_id": str, "parent": str, "position": int}
# Seat links of ``solrec serve`` (server/seats.py): one per player of a game, its token kept only
# as a SHA-256 hash. Made by the first seat link; deleting or renaming a game drops its links.
SEATS_COLUMNS: dict[str, type] = {"game_id": str, "player": str, "token_hash": str, "created": str}
# Bot seats of ``solrec serve`` (server/bots.py): the bot (``KIND[:SETTINGS]``) at a player's seat
# and its seed (the referee's only), so a restart keeps it seated; and a game's table settings (its
# "hint" button switched off). Made by the first bot seated, the first setting changed.
BOTS_COLUMNS: dict[str, type] = {"game_id": str, "player": str, "bot": str, "seed": int, "created": str}
TABLE_SETTINGS_COLUMNS: dict[str, type] = {"game_id": str, "key": str, "value": str}
# The bots of a game's header (``Header.bots``: ``simulate --player NAME=bot:KIND``): one row per bot
# seat, the bot as ``KIND[:SETTINGS]``. Part of the header, so covered by its genesis hash like the
# games row's columns, and read back with them by ``Store.header``; made by the first game with bots
# (a file without such a game lacks it, so older files and older games read as they did).
HEADER_BOTS_COLUMNS: dict[str, type] = {"game_id": str, "player": str, "bot": str}
META_COLUMNS = {"key": str, "value": str}
# What a file may hold, and how solrec makes it (checked on open, before anything is written)
_PRIMARY_KEY = {
    "solrec_meta": {"key": 1}, "games": {"id": 1}, "events": {"game_id": 1, "seq": 2}, "seals": {"game_id": 1},
    "notes": {"game_id": 1, "n": 2}, "note_heads": {"game_id": 1}, "forks": {"game_id": 1},
    "seats": {"game_id": 1, "player": 2}, "bots": {"game_id": 1, "player": 2}, "table_settings": {"game_id": 1, "key": 2},
    "header_bots": {"game_id": 1, "player": 2},
}
_NOT_NULL = {
    "games": ("game", "rules", "options", "chance", "players", "created", "genesis", "events", "head"),
    "events": ("step", "actor", "command", "type", "version", "payload", "hash", "time", "head"),
    "notes": tuple(NOTES_TABLES["notes"]),
    "forks": tuple(FORKS_COLUMNS),
    "seats": tuple(SEATS_COLUMNS),
    "bots": tuple(BOTS_COLUMNS),
    "table_settings": tuple(TABLE_SETTINGS_COLUMNS),
    "header_bots": tuple(HEADER_BOTS_COLUMNS),
}
# Tables made by the first command that needs them: a file may lack them
_OPTIONAL = {"seals": SEALS_COLUMNS, **NOTES_TABLES, "forks": FORKS_COLUMNS, "seats": SEATS_COLUMNS,
             "bots": BOTS_COLUMNS, "table_settings": TABLE_SETTINGS_COLUMNS, "header_bots": HEADER_BOTS_COLUMNS}
_ADDED_SINCE = {("events", 1): ("data", "head"), ("events", 2): ("head",)}  # columns a migration adds
_AFFINITY = {str: "TEXT", int: "INTEGER", bytes: "BLOB"}
# The words of a CREATE TABLE that solrec (sqlite-utils, ALTER TABLE ADD COLUMN) writes
_TABLE_WORDS = {"CREATE", "TABLE", "IF", "NOT", "EXISTS", "PRIMARY", "KEY", "NULL", "FOREIGN", "REFERENCES", "TEXT", "INTEGER", "BLOB"}
_SQL_TOKEN = re.compile(r""""(?:[^"]|"")*"|\[[^\]]*\]|`(?:[^`]|``)*`|'(?:[^']|'')*'|\w+|\S""")


class StoreError(SolrecError):
    """The database cannot be used as asked."""


class NotASolrecDatabase(StoreError):
    pass


class CorruptDatabase(StoreError, CorruptLog):
    """The file is a solrec database, but damaged: one verdict for the whole file (exit 1)."""


class UnknownGameId(StoreError):
    pass


class Unreadable(StoreError):
    """A value the read path would refuse (over a bound, not of its type): refused before it is
    written, so that whatever is written reads back (exit 2, nothing written)."""


class ConcurrencyConflict(StoreError):
    pass


@attrs.frozen
class NewGame:
    """A game to create under an automatic id (``Store.create_games``): its header, first steps and
    what was recorded beside them."""

    header: Header
    steps: Sequence[Step]
    scores: dict | None = None
    outcome: dict | None = None


def default_db_path(given: bool = True) -> Path:
    """``SOLREC_DB``, else ``$XDG_DATA_HOME/solrec/solrec.db`` (``~/.local/share/solrec/solrec.db``).
    ``given=False``: the latter only (the database no one named, which a read may find not made yet)."""
    env = os.environ.get("SOLREC_DB")
    if env and given:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "solrec" / "solrec.db"


class _Database:
    """The connection, with sqlite-utils' ``Database`` built only when something asks for more than
    ``execute`` (importing sqlite-utils costs more than a whole ``show``)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._full: Any = None
        self.objects: tuple[int, dict[str, str]] | None = None  # ``Store._objects``, kept per schema version
        _OPEN.add(self)

    def __del__(self) -> None:
        # A connection is a reference cycle in CPython's sqlite3 (its statement cache refers back to
        # it): left alone, it is closed only by the cyclic collector, which the CLI does not run over
        # the whole heap at exit (cli/main.py ``run``). Closed here when its store lets it go.
        conn = self.__dict__.get("conn")  # not ``self.conn``: ``__getattr__`` would build sqlite-utils
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:  # made in another thread: the collector closes it, as before
                pass

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("select name from sqlite_master where type = 'table'")]

    @property
    def full(self) -> Any:
        if self._full is None:
            import sqlite_utils

            self._full = sqlite_utils.Database(self.conn)
        return self._full

    def __getitem__(self, name: str) -> Any:
        return self.full[name]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.full, name)


_OPEN: weakref.WeakSet[_Database] = weakref.WeakSet()  # the connections of stores still alive


# Private migrated copies of older files this process reads (``Store._read_copy``): (path, device,
# inode, size, mtime, its -wal's size and mtime) -> the copy, in one folder removed at exit.
_COPIES: dict[tuple[Any, ...], Path] = {}
_FOLDER: list[str] = []
_COPYING = threading.Lock()


def _private_folder() -> str:
    if not _FOLDER:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="solrec-read-")  # mode 700: this user's only
        owner = os.getpid()

        def remove() -> None:
            if os.getpid() == owner:  # not a worker process this one forked
                shutil.rmtree(folder, ignore_errors=True)

        atexit.register(remove)
        _FOLDER.append(folder)
    return _FOLDER[0]


def close_all() -> None:
    """Close the connection of every store still alive (the CLI's exit, cli/main.py ``run``)."""
    for db in list(_OPEN):
        try:
            db.conn.close()
        except sqlite3.Error:  # made in another thread, which closes it
            pass


def _payload_json(payload: bytes) -> str | None:
    """An event's msgpack payload as JSON text (the ``data`` column)."""
    try:
        return _to_json(msgpack.unpackb(payload, raw=False, strict_map_key=False))
    except Exception:  # damaged bytes stay damaged: validate reports them from the payload
        return None


# ``json.dumps(value, sort_keys=True, ensure_ascii=False)``, its encoder built once (``dumps`` builds
# one per call when given options): ``validate`` recomputes every distinct payload's ``data``.
_to_json = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode


_DATA: dict[bytes, str | None] = {}  # payload -> its ``data`` text: a corpus repeats its payloads


def _data_of(payload: Any) -> str | None:
    """``_payload_json`` remembered (``validate`` compares every row's ``data`` with its payload)."""
    if type(payload) is not bytes:
        return None
    text = _DATA.get(payload, _MISSING)
    if text is _MISSING:
        if len(_DATA) >= 1 << 16:
            _DATA.clear()
        text = _DATA[payload] = _payload_json(payload)
    return text


_MISSING: Any = object()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def no_such_database(path: Path) -> StoreError:
    """A read of a file that does not exist: a mistyped path is not an empty corpus."""
    return StoreError(f"no such database: {path} (it is created by new, import or simulate)")


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not _ID.match(game_id):
        raise InvalidSetup(f"game id {game_id!r}: use letters, digits, '.', '_' and '-' (at most 80)")
    return game_id


# What reads an older file hears of it, and what the first write to one says when it migrates it:
# set by the CLI (a line on stderr); nothing by default.
announce: Callable[[str], None] | None = None


class Store:
    """A solrec database, opened for reading: nothing is written to the file (nor a ``-wal`` left
    beside it) until the first write, which reopens it for writing and, for a file an older solrec
    wrote, migrates it first (``announce`` says so). Until then an older file is read through a
    private migrated copy (``read_path``), made once per process and file version."""

    def __init__(self, path: str | Path, create: bool = True, writing: bool = False):
        """``writing``: open the file for writing at once (``solrec upgrade``: an older file is
        migrated now, with no private copy made first)."""
        self.path = Path(path)
        self._db: _Database | None = None
        self._has_seals = False  # seen at open (and made by put_seal): reading a game asks no more
        self._reading = False  # the connection reads only (the file's own, or a private copy's)
        self._may_write = False  # the file's own connection was opened for writing, writes refused
        self._old: int | None = None  # the schema of an older file, read through a private copy
        self._copy: Path | None = None
        if not self.path.exists():
            if not create:
                raise no_such_database(self.path)
            return  # created by the first write (a refused command leaves no file behind)
        if not self.path.is_file():
            raise StoreError(f"{self.path} is not a regular file, so it cannot hold a solrec database")
        if writing:
            self._check_writable()
        self._db = self._connect(create=False) if writing else self._connect_reading()
        tables = self._objects()
        self._has_seals = "seals" in tables
        if not tables:
            if not create:
                raise NotASolrecDatabase(f"{self.path} is not a solrec database (it is empty)")
            self._db.conn.close()  # an empty file gets its schema with the first write, like a new one
            self._db, self._reading = None, False
        else:
            self._check_schema(tables)

    # -- opening ----------------------------------------------------------------------------
    def _connect_reading(self) -> _Database:
        """A connection that reads the file and writes nothing to it. A file this process may write
        is opened as for writing with writes refused (``query_only``): SQLite then removes the
        ``-wal`` and ``-shm`` files it makes beside it when the connection closes, and a writer in
        another process is seen as it commits. A file or folder it may not write (a ``chmod 444``
        copy, a read-only mount), where SQLite would leave those files behind or could not make
        them, is opened read-only, and ``immutable`` (no lock, no file beside it) unless a ``-wal``
        beside it holds what a writer committed."""
        path = self.path
        if os.access(path, os.W_OK) and os.access(path.absolute().parent, os.W_OK):
            db = self._connect(create=False)
            try:
                db.conn.execute("PRAGMA query_only = ON")
            except sqlite3.Error as err:
                db.conn.close()
                raise self._error(err, "open") from None
            self._may_write = True
        else:
            wal = path.with_name(path.name + "-wal")
            db = self._connect(create=False, mode="ro" if wal.exists() else "ro&immutable=1")
        self._reading = True
        return db

    def _connect(self, create: bool, mode: str | None = None, path: Path | None = None) -> _Database:
        mode = mode or ("rwc" if create else "rw")
        uri = f"file:{_uri_path(path or self.path)}?mode={mode}"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=10, isolation_level=None)
        except sqlite3.Error as err:
            raise self._error(err, "open") from None
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("PRAGMA trusted_schema = OFF")  # no functions from views/triggers of a foreign file
        except sqlite3.Error as err:
            conn.close()
            raise self._error(err, "open") from None
        return _Database(conn)

    def _objects(self) -> dict[str, str]:
        """Every table, view, index and trigger of the file: name -> type (not to be changed by the
        caller). Kept per connection and its schema's version (``PRAGMA schema_version``: SQLite moves
        it on every change to ``sqlite_master``, by any connection): a server's request asks whether
        a table exists several times (seats, notes, bots), and reading ``sqlite_master`` each time
        cost more than the reads it guarded."""
        db = self._db if isinstance(self._db, _Database) else None  # (a read-only file's is sqlite-utils' own)
        version = None
        if db is not None:
            try:
                version = db.conn.execute("PRAGMA schema_version").fetchone()[0]
            except sqlite3.Error:
                version = None  # read the ordinary way, which says what is wrong
            kept = db.objects
            if version is not None and kept is not None and kept[0] == version:
                return kept[1]
        objects = {str(name): str(kind) for name, kind in self._query("select name, type from sqlite_master")}
        if db is not None and version is not None:
            db.objects = (version, objects)  # read after the version: a change between them is read again
        return objects

    def _check_schema(self, objects: dict[str, str]) -> None:
        """Check the whole file before anything reads past ``sqlite_master`` or writes to it (a
        migration included), then migrate an older schema. What is not solrec's is refused: a
        trigger would run code on the next write, an index or a constraint could fail or slow every
        insert, a view where a table belongs would run a query on every read."""
        if "solrec_meta" not in objects:
            raise NotASolrecDatabase(f"{self.path} is not a solrec database (it has other tables)")
        master = {
            str(name): (str(kind), sql)
            for name, kind, sql in self._query("select name, type, sql from sqlite_master")
        }
        self._check_table(master, "solrec_meta", META_COLUMNS, SCHEMA_VERSION)  # alike in every schema
        version = self._query("select value from solrec_meta where key = 'schema'")
        if not version:
            raise CorruptDatabase(f"{self.path}: the solrec schema version is missing")
        value = version[0][0]
        if isinstance(value, str) and value.strip().isdigit() and len(value) < 10:
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            raise CorruptDatabase(f"{self.path}: the solrec schema version {str(value)[:40]!r} is not a number")
        if number not in (1, 2, SCHEMA_VERSION):
            raise NotASolrecDatabase(
                f"{self.path}: solrec schema {number}; this solrec reads schema {SCHEMA_VERSION}"
            )
        self._check_file(master, number)
        if number in (1, 2):
            if self._reading:
                self._read_copy(number)  # a read writes nothing: an older file is read as it is
            else:
                self._migrate(number)
                self.migrated_from = number
                if announce is not None:
                    announce(f"{self.path}: migrated from solrec schema {number} to schema {SCHEMA_VERSION} "
                             "(a file an older solrec wrote)")

    def _read_copy(self, number: int) -> None:
        """Read an older file through a private copy, migrated there (the file itself is left as it
        is: a referee may be handed it): the copy is made with SQLite's backup (one consistent
        snapshot) into a folder of this process's own, once per file version, and removed at exit."""
        stat = self.path.stat()
        wal = self.path.with_name(self.path.name + "-wal")
        wal_stat = wal.stat() if wal.exists() else None
        key = (str(self.path.absolute()), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
               wal_stat and (wal_stat.st_size, wal_stat.st_mtime_ns))
        with _COPYING:  # the server's requests open stores from several threads
            copy = _COPIES.get(key)
            if copy is None or not copy.exists():
                import tempfile

                handle, name = tempfile.mkstemp(suffix=".db", dir=_private_folder())
                os.close(handle)
                copy = Path(name)
                target = sqlite3.connect(copy, isolation_level=None)
                try:
                    self.conn.backup(target)
                except sqlite3.Error as err:
                    raise self._error(err, "read") from None
                finally:
                    target.close()
                self._db.conn.close()  # type: ignore[union-attr]
                self._db = self._connect(create=False, path=copy)
                self._migrate(number)
                _COPIES[key] = copy
            else:
                self._db.conn.close()  # type: ignore[union-attr]
                self._db = self._connect(create=False, path=copy)
        self._db.conn.execute("PRAGMA query_only = ON")
        self._old, self._copy = number, copy

    @property
    def read_path(self) -> Path:
        """The file reads come from: the database, or the private migrated copy of an older one."""
        return self._copy if self._copy is not None else self.path

    @property
    def older_schema(self) -> int | None:
        """The schema of a file an older solrec wrote, read as it is until a write migrates it."""
        return self._old

    def _for_writing(self) -> None:
        """Reopen a file opened for reading for writing, migrating an older one first (it is checked
        again: another process may have migrated or changed it since)."""
        if not self._reading or self._db is None:
            return
        if self._old is None and self._may_write:  # the file's own connection: it may write from now on
            try:
                self._db.conn.execute("PRAGMA query_only = OFF")
            except sqlite3.Error as err:
                raise self._error(err, "write") from None
            self._reading = False
            return
        self._check_writable()
        self._db.conn.close()
        self._db, self._reading, self._old, self._copy = None, False, None, None
        self._views_checked = False
        self._db = self._connect(create=False)
        objects = self._objects()
        if not objects:  # emptied since: made as a new file is
            self._create_schema()
        else:
            self._check_schema(objects)

    migrated_from: int | None = None  # the schema of the older file this store migrated, if it did

    def _check_writable(self) -> None:
        """Refuse a write to a file this process may not write before SQLite opens it: opened all the
        same (read-only, as SQLite does then), it would make a ``-wal`` and ``-shm`` beside it in a
        folder anyone may write, owned by this user, and the file's owner could no longer write it
        until someone removed them (docs/security.md). A folder that may not be written is refused
        unless both files are there already (a running server's)."""
        path = self.path
        folder_ok = os.access(path.absolute().parent, os.W_OK) or all(
            path.with_name(path.name + end).exists() for end in ("-wal", "-shm"))
        if not os.access(path, os.W_OK) or not folder_ok:
            raise StoreError(f"{path}: the database or its folder is read-only; nothing was written")

    def upgrade(self) -> int | None:
        """Migrate a file an older solrec wrote (``solrec upgrade``): the schema it had, or None when it
        is current (nothing is written then)."""
        if self._old is not None:
            self._for_writing()
        return self.migrated_from

    def _check_file(self, master: dict[str, tuple[str, Any]], number: int) -> None:
        """Every object of the file is one that solrec's schema ``number`` has (docs/security.md)."""
        for table, columns in (("games", GAMES_COLUMNS), ("events", EVENTS_COLUMNS), *_OPTIONAL.items()):
            if table in _OPTIONAL and table not in master:
                continue  # made by the first `seal`, `note`, `fork`, seat link (`serve`)
            later = _ADDED_SINCE.get((table, number), ())
            self._check_table(master, table, {c: t for c, t in columns.items() if c not in later}, number)
        triggers = sorted(name for name, (kind, _) in master.items() if kind == "trigger")
        if triggers:
            raise CorruptDatabase(f"{self.path}: it holds a trigger ({triggers[0]!r}) solrec never makes")
        for name, (kind, sql) in sorted(master.items()):
            ours = (
                kind == "table" and (name in _PRIMARY_KEY or name.startswith("sqlite_stat"))  # ANALYZE's
                or kind == "view" and name in _VIEWS  # never read by solrec
                or kind == "index" and sql is None and name.startswith("sqlite_autoindex_")  # a primary key's
            )
            if not ours:
                raise CorruptDatabase(f"{self.path}: it holds a {kind} ({name[:80]!r}) solrec never makes")

    def _check_table(self, master: dict[str, tuple[str, Any]], table: str, columns: Mapping[str, type], number: int) -> None:
        """``table`` is the table solrec's schema ``number`` makes: exactly ``columns``, of their
        declared types, its primary key, NOT NULL where solrec puts it, and no other clause (CHECK,
        DEFAULT, a generated column, COLLATE, UNIQUE, a conflict clause, WITHOUT ROWID, ...)."""
        where = f"{self.path}: the {table} table"
        if table not in master:
            raise CorruptDatabase(f"{where} is missing")
        kind, sql = master[table]
        if kind != "table":
            raise CorruptDatabase(f"{self.path}: {table} is a {kind}, not a table")
        names = {table, *columns} | ({"games", "id"} if table == "events" else set())
        for token in dict.fromkeys(_SQL_TOKEN.findall(sql if isinstance(sql, str) else "")):  # in order, once
            quoted = token[0] in "\"[`'"
            word = token[1:-1] if quoted else token
            if not (word.lower() in names or not quoted and word.upper() in _TABLE_WORDS or token in "(),"):
                raise CorruptDatabase(f"{where} is not the one solrec makes ({token[:40]!r} in its definition)")
        have = set()
        for _, name, declared, notnull, default, pk, hidden in self._query(f"PRAGMA table_xinfo({table})"):
            name = str(name).lower()
            if name not in columns:
                raise CorruptDatabase(f"{where} has a column {name[:80]!r} that solrec's schema {number} has not")
            if _affinity(str(declared)) != _AFFINITY[columns[name]]:
                raise CorruptDatabase(f"{where}: its column {name!r} is declared {str(declared)[:40]!r}")
            if default is not None or hidden or (notnull and name not in _NOT_NULL.get(table, ())):
                raise CorruptDatabase(f"{where}: its column {name!r} has a default or a constraint solrec never makes")
            if pk != _PRIMARY_KEY[table].get(name, 0):
                raise CorruptDatabase(f"{where}: its primary key is not ({', '.join(_PRIMARY_KEY[table])})")
            have.add(name)
        missing = sorted(set(columns) - have)
        if missing:
            raise CorruptDatabase(f"{where} lacks the column {missing[0]!r}")

    def _create_views(self) -> None:
        for name, sql in _VIEWS.items():
            self.conn.execute(f"create view if not exists {name} as {sql}")

    def _refresh_views(self, conn: sqlite3.Connection) -> None:
        """Views made by an older solrec (``game_list`` gave seeds as numbers) are made again by the
        first write: a read never writes."""
        stored = dict(conn.execute("select name, sql from sqlite_master where type = 'view'").fetchall())
        for name, sql in _VIEWS.items():
            if name in stored and not str(stored[name]).endswith(f" as {sql}"):
                conn.execute(f"drop view {name}")
                conn.execute(f"create view {name} as {sql}")
        self._views_checked = True

    _views_checked = False

    def _migrate(self, number: int) -> None:
        """Schema 1 -> 2: add ``events.data`` (the payload as JSON) and the views. Schema 2 -> 3: add
        ``events.head``, packed from the columns it mirrors. One transaction for both: a migration
        that cannot complete (a full disk) leaves the file as it was. The file was checked first
        (``_check_file``): nothing in it runs or refuses on these writes."""
        self.conn.text_factory = _tolerant_text  # a text that is not UTF-8 makes its row damaged, not the file
        try:
            with self._transaction("migrate") as conn:
                version = conn.execute("select value from solrec_meta where key = 'schema'").fetchone()
                if version is None or str(version[0]) != str(number):
                    return  # another process migrated it first
                if number == 1:
                    conn.execute("alter table events add column data text")
                    rows = conn.execute(f"select rowid, payload from events where length(payload) <= {MAX_PAYLOAD}").fetchall()
                    conn.executemany(
                        "update events set data = ? where rowid = ?",
                        [(_payload_json(p) if isinstance(p, bytes) else None, r) for r, p in rows],
                    )
                    self._create_views()
                conn.execute("alter table events add column head blob")
                # A row whose columns are not of their types (or over their bounds) keeps no head: it
                # reads back as damaged, as it did before.
                texts = " and ".join(f"length({c}) <= {MAX_TEXT}" for c in ("actor", "command", "type"))
                rows = conn.execute(f"select rowid, seq, step, actor, command, type, version from events where {texts}").fetchall()
                conn.executemany(
                    "update events set head = ? where rowid = ?",
                    [(pack_head(q, st, a, c, t, v), r) for r, q, st, a, c, t, v in rows if _head_types(q, st, a, c, t, v)],
                )
                conn.execute("update solrec_meta set value = ? where key = 'schema'", [str(SCHEMA_VERSION)])
        finally:
            self.conn.text_factory = str

    def _create_schema(self) -> None:
        """Create the tables, unless another process did first (several `new` may race on a new file)."""
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error as err:
            raise self._error(err, "create") from None
        with self._transaction("create"):
            objects = self._objects()
            if objects:
                self._check_schema(objects)
                return
            db = self.db.full
            db.table("solrec_meta").create(dict(META_COLUMNS), pk="key")
            db.execute("insert into solrec_meta values ('schema', ?)", [str(SCHEMA_VERSION)])
            db.table("games").create(
                dict(GAMES_COLUMNS),
                pk="id",
                not_null=set(_NOT_NULL["games"]),
            )
            db.table("events").create(
                dict(EVENTS_COLUMNS),
                pk=("game_id", "seq"),
                foreign_keys=[("game_id", "games", "id")],
                not_null=set(_NOT_NULL["events"]),
            )
            self._create_views()

    @property
    def db(self) -> _Database:
        """The open database; a store for a file that does not exist yet creates it now."""
        if self._db is None:
            made = not self.path.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect(create=True)
            objects = self._objects()
            if objects:
                self._check_schema(objects)
            else:
                self._create_schema()
            if made and announce is not None:
                announce(f"created {self.path}")
        return self._db

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    @property
    def exists(self) -> bool:
        return self._db is not None

    def close(self) -> None:
        if self._db is not None:
            self._db.conn.close()

    def _error(self, err: sqlite3.Error, doing: str) -> StoreError:
        """SQLite's error as what it is, in one line (never a masking follow-up error)."""
        text = str(err).splitlines()[0] if str(err) else type(err).__name__
        low = text.lower()
        where = str(self.path)
        nothing = "" if doing in ("open", "read") else "; nothing was written"
        if "locked" in low or "busy" in low:
            return ConcurrencyConflict(f"{where}: the database is busy (locked by another program){nothing}")
        if "readonly" in low or "read-only" in low:
            return StoreError(f"{where}: the database or its folder is read-only{nothing}")
        if "full" in low:
            return StoreError(f"{where}: the disk is full{nothing}")
        if "unable to open" in low or "cannot open" in low:
            reason = "permission denied" if self.path.exists() or not os.access(self.path.parent, os.W_OK) else text
            return StoreError(f"{where}: cannot open the database ({reason})")
        if "malformed" in low or "not a database" in low or "corrupt" in low:
            if _looks_like_sqlite(self.path):
                return CorruptDatabase(f"{where}: the database file is damaged ({text})")
            return NotASolrecDatabase(f"{where} is not a solrec database ({text})")
        if "disk i/o" in low or isinstance(err, sqlite3.OperationalError):
            return StoreError(f"{where}: {text}{nothing}")
        return CorruptDatabase(f"{where}: {text}")

    @contextmanager
    def _transaction(self, doing: str = "write", counting: bool = False) -> Iterator[sqlite3.Connection]:
        """``counting``: a write that takes its ids from ``_allocate_id`` only, which keeps its count."""
        if self._grouped:  # inside ``group``: a savepoint of its transaction, committed with it
            with self._savepoint(doing, counting) as conn:
                yield conn
            return
        if self._reading and doing != "migrate":
            self._for_writing()
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._error(err, doing) from None
        if not counting:
            self._numbers = None  # a write may take or free any id: the next GAME-N is scanned for again
        try:
            if not self._views_checked:
                self._refresh_views(conn)
            yield conn
            conn.execute("COMMIT")
        except BaseException as err:
            self._roll_back(conn)
            if isinstance(err, sqlite3.IntegrityError):
                raise
            if isinstance(err, sqlite3.Error):
                raise self._error(err, doing) from None
            raise

    _grouped = False  # inside ``group``: every write is a savepoint of its one transaction
    _savepoints = 0
    _lost = False  # the group's transaction was rolled back under it

    @contextmanager
    def group(self) -> Iterator[sqlite3.Connection]:
        """Several writes in one transaction, so one disk sync commits them all (the server's writer
        groups the writes of several games: no table waits for a sync per other table's write). Each
        write inside is a savepoint (``savepoint``): one that fails is rolled back alone and the
        others stay. All of them are on disk when this returns, or none (it raises): nothing written
        inside may be acknowledged before then."""
        if self._reading:
            self._for_writing()
        conn = self.conn
        try:
            # the commit syncs the WAL before it returns (SQLite's default, said here: the group's
            # writes are acknowledged on the strength of it; docs/security.md)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._error(err, "write") from None
        self._grouped, self._savepoints, self._lost = True, 0, False
        try:
            if not self._views_checked:
                self._refresh_views(conn)
            yield conn
            if self._lost or not conn.in_transaction:  # SQLite rolled it all back (a full disk does)
                raise StoreError(f"{self.path}: the write was rolled back; nothing was written")
            conn.execute("COMMIT")
        except BaseException as err:
            self._roll_back(conn)
            if isinstance(err, sqlite3.Error):
                raise self._error(err, "write") from None
            raise
        finally:
            self._grouped = False

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        """A failed transaction's end: what was counted on was not written. SQLite may have rolled
        back already (a full disk does): rolling back again must not replace the real error with
        "cannot rollback - no transaction is active"."""
        self._numbers = None
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    @contextmanager
    def savepoint(self, doing: str = "write") -> Iterator[sqlite3.Connection]:
        """One write of a ``group`` (several store writes together): all of it or none of it."""
        with self._savepoint(doing, False) as conn:
            yield conn

    @contextmanager
    def _savepoint(self, doing: str, counting: bool) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        if not conn.in_transaction:  # SQLite rolled the group back (a full disk does): nothing more joins it
            self._lost = True
            raise StoreError(f"{self.path}: the write was rolled back; nothing was written")
        self._savepoints += 1
        name = f"solrec_{self._savepoints}"
        if not counting:
            self._numbers = None
        try:
            conn.execute(f"SAVEPOINT {name}")
        except sqlite3.Error as err:
            raise self._error(err, doing) from None
        try:
            yield conn
            conn.execute(f"RELEASE {name}")
        except BaseException as err:
            self._numbers = None
            if conn.in_transaction:
                try:
                    conn.execute(f"ROLLBACK TO {name}")
                    conn.execute(f"RELEASE {name}")
                except sqlite3.Error:
                    pass
            if isinstance(err, sqlite3.IntegrityError):
                raise
            if isinstance(err, sqlite3.Error):
                raise self._error(err, doing) from None
            raise

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read inside one read transaction: every statement sees the database as it was at the
        first (one snapshot under WAL), so a write landing between two statements of one read (a
        games row and its events) is not half seen. Nested uses share the outer snapshot."""
        conn = self._db.conn if self._db is not None else None
        if conn is None or conn.in_transaction:
            yield  # nothing to read yet, or already inside a snapshot (or a write, which sees its own)
            return
        try:
            conn.execute("BEGIN")  # deferred: the snapshot is taken by the first read
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        try:
            yield
        finally:
            try:  # nothing was written: this only lets the snapshot go (SQLite may have already)
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        if self._db is None:
            return []
        try:
            return self._db.conn.execute(sql, list(params)).fetchall()
        except sqlite3.Error as err:
            if not self._tolerate(err):
                raise self._error(err, "read") from None
        try:  # once more, a text that is not UTF-8 read as ``Undecodable``
            return self._db.conn.execute(sql, list(params)).fetchall()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None

    def _tolerate(self, err: sqlite3.Error) -> bool:
        """After SQLite handed over a stored text that is not UTF-8, read texts as ``_tolerant_text``
        does (a little slower) so that the value is damaged data where it is, not a failed read of
        the whole file. Whether ``err`` was that."""
        if self._db is None or not str(err).startswith("Could not decode to UTF-8"):
            return False
        self._db.conn.text_factory = _tolerant_text
        return True

    # -- games ------------------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        """Every game id (an id stored as something other than text is shown as text)."""
        return [str(r[0]) for r in self._query("select id from games order by created, id")]

    def game_kinds(self) -> list[str]:
        """The game kinds (``solari``, ...) the games rows name, each once (what an option given for a
        whole corpus is checked against)."""
        return sorted(r[0] for r in self._query("select distinct game from games") if isinstance(r[0], str))

    def has_game(self, game_id: str) -> bool:
        return bool(self._query("select 1 from games where id = ?", [game_id]))

    def new_game_id(self, game: str) -> str:
        return f"{game}-{self.last_game_number(game) + 1}"

    def _allocate_id(self, conn: sqlite3.Connection, game: str) -> str:
        """The next ``GAME-N`` (what ``new_game_id`` gives), inside the caller's write transaction, in
        constant time after the first: the largest N is scanned for once, then counted on, for as long
        as no other connection has committed since (SQLite's ``data_version`` says so: a concurrent
        writer or a rename makes it scan again). Any other write through this store forgets the count
        (``_transaction``), so the ids are exactly those one scan per game would give."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if self._numbers is None:
            self._numbers = {}
        known = self._numbers.get(game)
        n = known[1] if known is not None and known[0] == version else self.last_game_number(game)
        self._numbers[game] = (version, n + 1)
        return f"{game}-{n + 1}"

    # game kind -> (SQLite's data_version, the largest N of its GAME-N ids) as the last write that took
    # automatic ids saw them (``_allocate_id``); None: scan again
    _numbers: dict[str, tuple[int, int]] | None = None

    def last_game_number(self, game: str) -> int:
        """The largest N among ids ``GAME-N`` (0 when there is none)."""
        n = 0
        for (gid,) in self._query("select id from games where id like ?", [f"{game}-%"]):
            tail = str(gid)[len(game) + 1 :]
            if tail.isdigit() and len(tail) < 19:
                n = max(n, int(tail))
        return n

    def game_row(self, game_id: str) -> dict[str, Any]:
        """The game's games row, with ``bots``: its header's bot seats (``header_bots``), if any."""
        rows = self._query(f"select {_GAME_PICKS} from games where id = ?", [game_id])
        if not rows:
            raise UnknownGameId(f"no game {game_id!r} in {self.path}")
        out = _game_row(game_id, rows[0])
        out["bots"] = self._header_bots("game_id = ?", [game_id]).get(game_id, [])
        return out

    def _header_bots(self, where: str, params: Sequence[Any]) -> dict[Any, list[tuple[Any, Any]]]:
        """game id -> its ``header_bots`` rows (player, bot), as stored (``header`` checks them)."""
        if not self._query("select 1 from sqlite_master where type = 'table' and name = 'header_bots'"):
            return {}
        out: dict[Any, list[tuple[Any, Any]]] = {}
        for gid, player, bot in self._query(
            f"select game_id, case when length(player) <= {MAX_TEXT} then player end,"
            f" case when length(bot) <= {MAX_TEXT} then bot end from header_bots where {where}", params
        ):
            out.setdefault(gid, []).append((player, bot))
        return out

    def game_rows(self, first: str, last: str, only: Sequence[str] | None = None) -> dict[str, dict[str, Any] | CorruptLog]:
        """The games rows whose id lies from ``first`` to ``last`` (in id order), read in one query:
        id -> row, or the CorruptLog ``game_row`` would raise for it. ``only``: just these ids (a
        scattered subset of the range: only its rows are read)."""
        out: dict[str, dict[str, Any] | CorruptLog] = {}
        where, params = _id_range("id", first, last, only)
        for values in self._query(f"select {_GAME_PICKS}, id from games where {where}", params):
            gid = values[-1]
            if type(gid) is str:
                try:
                    out[gid] = _game_row(gid, values)
                except CorruptLog as err:
                    out[gid] = err
        where, params = _id_range("game_id", first, last, only)
        bots = self._header_bots(where, params) if out else {}
        for gid, row in out.items():
            if isinstance(row, dict):
                row["bots"] = bots.get(gid, [])
        return out

    def header(self, game_id: str, row: dict[str, Any] | None = None) -> Header:
        """The game's header (``row``: its games row, when already read)."""
        row = self.game_row(game_id) if row is None else row
        bad = f"game {game_id!r}: its header does not decode"
        # Games set up alike store the same options and players texts: decoded once (a corpus read).
        key = (row["game"], row["options"], row["players"])
        known = _HEADER_PARTS.get(key)
        if known is None:
            try:
                options = json.loads(_text(row["options"], "options"))
                players = json.loads(_text(row["players"], "players"))
            except (ValueError, RecursionError) as err:
                raise CorruptLog(f"{bad} ({json_reason(err)})") from None
            if not isinstance(options, dict):
                raise CorruptLog(f"{bad} (options are not a map)")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise CorruptLog(f"{bad} (players are not a list of names)")
            problem = option_values_problem(options)
            if problem is not None:
                raise CorruptLog(f"{bad} ({problem})")
            upcast: tuple[str, ...] = ()
            if row["game"] in game_ids():  # an unknown game is refused by whoever reads its log
                options, upcast = upcast_options(get_game(row["game"]), options)
            known = (tuple(sorted(options.items())), tuple(players), upcast)
            if len(_HEADER_PARTS) >= 1024:
                _HEADER_PARTS.clear()
            _HEADER_PARTS[key] = known
        for field in ("game", "chance", "rules"):
            if not isinstance(row[field], str):
                raise CorruptLog(f"{bad} ({field} is not text)")
        seed = row["seed"]
        if seed is not None and type(seed) is not int:
            raise CorruptLog(f"{bad} (the seed is not a whole number)")
        if row["chance"] not in ("seeded", "entered"):
            raise CorruptLog(f"{bad} (chance is {row['chance'][:20]!r}, neither 'seeded' nor 'entered')")
        if row["chance"] == "seeded" and seed is None:
            raise CorruptLog(f"{bad} (a seeded game without a seed)")
        return Header(
            game=row["game"], players=known[1], chance=row["chance"], seed=seed, options=known[0], rules=row["rules"],
            upcast=known[2], bots=_bots_of(bad, known[1], row.get("bots", ())),
        )

    def recorded(self, game_id: str, row: dict[str, Any] | None = None) -> dict[str, Any]:
        """What was recorded beside the events: count, head hash, scores and outcome."""
        row = self.game_row(game_id) if row is None else row
        if type(row["events"]) is not int or not isinstance(row["head"], str):
            raise CorruptLog(f"game {game_id!r}: its recorded event count or head is not of its type")
        if row["events"] < 0:  # a count, never below none: a position before the header means nothing
            raise CorruptLog(f"game {game_id!r}: its recorded event count is negative ({row['events']})")
        out = {"events": row["events"], "head": row["head"]}
        for field in ("scores", "outcome"):
            value = row[field]
            try:
                out[field] = json.loads(_text(value, field)) if value else None
            except (ValueError, RecursionError) as err:
                raise CorruptLog(f"game {game_id!r}: its recorded {field} is not JSON ({json_reason(err)})") from None
        if out["scores"] is not None and not isinstance(out["scores"], dict):
            raise CorruptLog(f"game {game_id!r}: its recorded scores are not a map")
        if out["outcome"] is not None and not isinstance(out["outcome"], dict):
            raise CorruptLog(f"game {game_id!r}: its recorded outcome is not a map")
        return out

    # -- writing ----------------------------------------------------------------------------
    def create_game(
        self,
        game_id: str | None,
        header: Header,
        codec: EventCodec,
        steps: Sequence[Step] = (),
        scores: dict | None = None,
        outcome: dict | None = None,
    ) -> list[Row]:
        """Create a game and (optionally) its first steps, all in one transaction.

        ``game_id`` None takes the next free ``GAME-N``, chosen inside the transaction so that
        concurrent writers never pick the same id.
        """
        if game_id is not None:
            check_game_id(game_id)
        values, rows = self._new_game(header, codec, steps, scores, outcome)
        with self._transaction(counting=game_id is None) as conn:
            gid = game_id if game_id is not None else self._allocate_id(conn, header.game)
            self._insert_game(conn, gid, values, codec, rows, header.bots)
        self.last_created = gid
        return rows

    def create_games(self, games: Sequence[NewGame], codec: EventCodec) -> list[str]:
        """Create several games, each under the next free ``GAME-N`` of its kind, in one transaction
        (``simulate``'s batches: one disk sync for many games): all of them or none. Their ids, in order.
        Each game is stored exactly as ``create_game(None, ...)`` would store it."""
        prepared = [(g.header, *self._new_game(g.header, codec, g.steps, g.scores, g.outcome)) for g in games]
        ids: list[str] = []
        with self._transaction(counting=True) as conn:
            for header, values, rows in prepared:
                gid = self._allocate_id(conn, header.game)
                self._insert_game(conn, gid, values, codec, rows, header.bots)
                ids.append(gid)
        if ids:
            self.last_created = ids[-1]
        return ids

    def _new_game(
        self, header: Header, codec: EventCodec, steps: Sequence[Step], scores: dict | None, outcome: dict | None
    ) -> tuple[list[Any], list[Row]]:
        """A new game's games-row values (all but its id) and its rows, refused (``Unreadable``) where a
        reader would refuse them."""
        problem = option_values_problem(header.recorded_options())
        if problem is not None:
            raise Unreadable(f"the game's {problem}; nothing was written")
        genesis = genesis_hash(header)
        rows = chain_rows(codec, genesis, 0, 0, steps, _now())
        values = [
            header.game, header.rules, json.dumps(header.recorded_options(), sort_keys=True),
            header.chance, header.seed, json.dumps(list(header.players)), _now(), genesis,
            len(rows), rows[-1].hash if rows else genesis, _json(scores), _json(outcome),
        ]
        problem = _over_bound(zip(GAMES_COLUMNS, [None, *values]))
        if problem is not None:
            raise Unreadable(f"the game's {problem}; nothing was written")
        return values, rows

    def _insert_game(self, conn: sqlite3.Connection, gid: str, values: list[Any], codec: EventCodec, rows: list[Row],
                     bots: Sequence[tuple[str, str]] = ()) -> None:
        """A new game's games row, its header's bot seats (``header_bots``, made by the first) and
        rows, inside the caller's write transaction."""
        if self.has_game(gid):
            raise StoreError(f"a game {gid!r} already exists in {self.path}")
        conn.execute(
            "insert into games (id, game, rules, options, chance, seed, players, created, genesis, events,"
            " head, scores, outcome) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [gid, *values],
        )
        if bots:
            if "header_bots" not in self._objects():
                self.db.full.table("header_bots").create(
                    dict(HEADER_BOTS_COLUMNS), pk=("game_id", "player"), not_null=set(HEADER_BOTS_COLUMNS)
                )
            conn.executemany("insert into header_bots (game_id, player, bot) values (?,?,?)",
                             [(gid, p, b) for p, b in bots])
        _decode_back(codec, rows)
        self._insert(gid, rows)

    last_created: str | None = None

    def append(
        self,
        game_id: str,
        expected_seq: int,
        expected_head: str,
        codec: EventCodec,
        steps: Sequence[Step],
        scores: dict | None = None,
        outcome: dict | None = None,
    ) -> list[Row]:
        """Append the events of ``steps`` at ``expected_seq``, after the event whose hash is
        ``expected_head`` (the genesis hash for an empty log): the head the steps were decided
        against. In one transaction, or nothing is written."""
        try:
            with self._transaction() as conn:
                next_seq, next_step, prev = self._head(conn, game_id)
                if (next_seq, prev) != (expected_seq, expected_head):
                    raise self._changed(game_id, expected_seq, expected_head, next_seq, prev, "written")
                rows = chain_rows(codec, prev, next_seq, next_step, steps, _now())
                _decode_back(codec, rows)
                self._insert(game_id, rows)
                conn.execute(
                    "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                    [next_seq + len(rows), rows[-1].hash if rows else prev, _json(scores), _json(outcome), game_id],
                )
        except sqlite3.IntegrityError:
            raise ConcurrencyConflict(
                f"game {game_id!r}: the game changed: replay and try again (another writer took event "
                f"{expected_seq}); nothing was written"
            ) from None
        return rows

    def _head(self, conn: sqlite3.Connection, game_id: str) -> tuple[int, int, Any]:
        """The log's head as a write sees it: the next position, the next command number and the
        hash the next event chains from (the genesis hash of an empty log)."""
        row = conn.execute("select head from games where id = ?", [game_id]).fetchone()
        if row is None:
            raise UnknownGameId(f"no game {game_id!r} in {self.path}")
        last = conn.execute(
            "select seq, step, hash from events where game_id = ? order by seq desc limit 1", [game_id]
        ).fetchone()
        if last is None:
            return 0, 0, row[0]
        return last[0] + 1, last[1] + 1, last[2]

    @staticmethod
    def _changed(game_id: str, seq: int, head: str, now_seq: Any, now_head: Any, done: str) -> ConcurrencyConflict:
        """A write decided against another head than the game's (an ABA race included: the same
        length, another last event)."""
        return ConcurrencyConflict(
            f"game {game_id!r}: the game changed: replay and try again (decided at position {seq}, "
            f"head {str(head)[:12]}; the log now has {now_seq} events, head {str(now_head)[:12]}); nothing was {done}"
        )

    def _insert(self, game_id: str, rows: Sequence[Row]) -> None:
        """Insert rows (inside the caller's transaction), refusing first any with a value over the
        bound its reader keeps (``_decode_back`` has checked their events)."""
        values = []
        for r in rows:
            data = _payload_json(r.payload)
            if data is None or (
                len(r.payload) > MAX_PAYLOAD or len(r.head) > MAX_HEAD or len(data) > MAX_DATA
                or len(r.actor) > MAX_TEXT or len(r.command) > MAX_TEXT or len(r.type) > MAX_TEXT
            ):
                problem = _over_bound([*zip(Row._fields, r), ("data", data)], _ROW_BOUNDS)
                raise Unreadable(f"the event at {at_event(r.seq, r.step)}: its {problem or 'payload does not decode'}; nothing was written")
            values.append(
                (game_id, r.seq, r.step, r.actor, r.command, r.type, r.version, r.payload, r.hash, r.time, data, r.head)
            )
        self.conn.executemany(
            "insert into events (game_id, seq, step, actor, command, type, version, payload, hash, time, data, head)"
            " values (?,?,?,?,?,?,?,?,?,?,?,?)",
            values,
        )

    def delete_game(self, game_id: str) -> None:
        with self._transaction() as conn:
            conn.execute("delete from events where game_id = ?", [game_id])
            conn.execute("delete from games where id = ?", [game_id])
            objects = self._objects()
            if "seals" in objects:
                conn.execute("delete from seals where game_id = ?", [game_id])
            for table in NOTES_TABLES:
                if table in objects:
                    conn.execute(f"delete from {table} where game_id = ?", [game_id])
            if "forks" in objects:  # its forks stay, as games of their own
                conn.execute("delete from forks where game_id = ? or parent = ?", [game_id, game_id])
            if "seats" in objects:  # a later game of the same id gets no link of this one's
                conn.execute("delete from seats where game_id = ?", [game_id])
            for table in ("bots", "table_settings", "header_bots"):  # nor its bots and settings
                if table in objects:
                    conn.execute(f"delete from {table} where game_id = ?", [game_id])

    def truncate(
        self, game_id: str, expected_events: int, expected_head: str, keep: int, scores: dict | None, outcome: dict | None
    ) -> None:
        """Drop the events from position ``keep`` on (``undo``), if the log still holds
        ``expected_events`` ending with the event whose hash is ``expected_head`` (the head the undo
        was decided against); the recorded count, head, scores and outcome follow, in one transaction."""
        with self._transaction() as conn:
            events, _, head = self._head(conn, game_id)
            if (events, head) != (expected_events, expected_head):
                raise self._changed(game_id, expected_events, expected_head, events, head, "changed")
            conn.execute("delete from events where game_id = ? and seq >= ?", [game_id, keep])
            kept = conn.execute("select hash from events where game_id = ? and seq = ?", [game_id, keep - 1]).fetchone()
            genesis = conn.execute("select genesis from games where id = ?", [game_id]).fetchone()
            conn.execute(
                "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                [keep, kept[0] if kept else genesis[0], _json(scores), _json(outcome), game_id],
            )

    def rename_game(self, game_id: str, new_id: str) -> None:
        """Give a game another id (the hash chain does not cover ids, so it stays valid; a seal binds
        the id, so a sealed game must be sealed again under its new id)."""
        check_game_id(new_id)
        with self._transaction() as conn:
            if not self.has_game(game_id):
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            if self.has_game(new_id):
                raise StoreError(f"a game {new_id!r} already exists in {self.path}")
            conn.execute("update events set game_id = ? where game_id = ?", [new_id, game_id])
            conn.execute("update games set id = ? where id = ?", [new_id, game_id])
            objects = self._objects()
            if "seals" in objects:
                conn.execute("delete from seals where game_id = ?", [game_id])
            if "seats" in objects:  # a seat link names the game's id: renamed, it is made again
                conn.execute("delete from seats where game_id = ?", [game_id])
            for table in ("bots", "table_settings", "header_bots"):  # a bot stays seated, a setting kept
                if table in objects:
                    conn.execute(f"update {table} set game_id = ? where game_id = ?", [new_id, game_id])
            if "forks" in objects:  # a fork keeps its parent, renamed or not
                conn.execute("update forks set game_id = ? where game_id = ?", [new_id, game_id])
                conn.execute("update forks set parent = ? where parent = ?", [new_id, game_id])
            if "notes" in objects:  # comments follow their game; what a seal covered goes with the seal
                conn.execute("update notes set game_id = ? where game_id = ?", [new_id, game_id])
                conn.execute(
                    "update note_heads set game_id = ?, sealed_notes = null, sealed_head = null where game_id = ?",
                    [new_id, game_id],
                )

    def list_games(self) -> list[dict[str, Any]]:
        """Every game's row as recorded (no event is read), oldest first."""
        names = ["id", "game", "players", "created", "events", "scores", "outcome"]
        picks = ", ".join(f"case when length({c}) <= {MAX_TEXT} then {c} end" for c in names)
        out = []
        for r in self._query(f"select {picks} from games order by created, id"):
            row = dict(zip(names, r))
            out.append(row)
            gid = row["id"]
            if not all(isinstance(row[c], str) for c in ("id", "game", "players", "created")) or type(row["events"]) is not int:
                raise CorruptLog(f"game {str(gid)[:80]!r}: its games row is not of its type (or over {MAX_TEXT} long)")
            try:
                players = json.loads(row["players"])
                scores = json.loads(row["scores"]) if row["scores"] else None
            except (ValueError, RecursionError, TypeError) as err:
                raise CorruptLog(f"game {gid!r}: its players or scores are not JSON ({json_reason(err)})") from None
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise CorruptLog(f"game {gid!r}: its players are not a list of names")
            if scores is not None and not isinstance(scores, dict):
                raise CorruptLog(f"game {gid!r}: its recorded scores are not a map")
        return out

    # -- seals ------------------------------------------------------------------------------
    def put_seal(self, game_id: str, events: int, head: str, mac: str) -> None:
        with self._transaction() as conn:
            if "seals" not in self._objects():
                self.db.full.table("seals").create(dict(SEALS_COLUMNS), pk="game_id")
            self._has_seals = True
            if not self.has_game(game_id):
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            conn.execute("insert or replace into seals values (?,?,?,?,?)", [game_id, events, head, mac, _now()])

    def seal(self, game_id: str) -> dict[str, Any] | None:
        """The stored seal of a game, or None (no seal was ever made)."""
        if self._db is None or not self._has_seals:
            return None  # no seals table when the file was opened (or made): a seal made since is not seen
        rows = self._query(
            "select case when length(head) <= 200 then head end, events, case when length(mac) <= 200 then mac end,"
            " sealed from seals where game_id = ?",
            [game_id],
        )
        if not rows:
            return None
        head, events, mac, sealed = rows[0]
        if not isinstance(head, str) or type(events) is not int or not isinstance(mac, str):
            raise CorruptLog(f"game {game_id!r}: its seal is not of its type")
        return {"events": events, "head": head, "mac": mac, "sealed": sealed}

    # -- reading ----------------------------------------------------------------------------
    def rows(self, game_id: str, upto: int | None = None) -> list[Row]:
        self.game_row(game_id)
        return self._rows_of(game_id, upto)

    def rows_of_read_game(self, game_id: str) -> list[Row]:
        """The rows of a game whose games row the caller has just read (no second look-up)."""
        return self._rows_of(game_id)

    def _rows_of(self, game_id: str, upto: int | None = None) -> list[Row]:
        params: list[Any] = [game_id]
        sql = ROWS_SQL_FROM + " where game_id = ?"
        if upto is not None:
            sql += " and seq < ?"
            params.append(upto)
        stored = self._query(sql + " order by seq", params)
        return [self._row(game_id, i, *r) for i, r in enumerate(stored)]

    def unmirrored(self, game_id: str) -> int | None:
        """The position of the game's first row whose browsing columns disagree with its head and
        payload (``data``: the payload as JSON), or None."""
        sql = f"select {_HASHED}, {MIRRORS_SQL} from events where game_id = ? order by seq"
        for position, (head, payload, _, *mirrors) in enumerate(self._query(sql, [game_id])):
            try:
                if _unpack_head(head) != mirrors[:6] or mirrors[6] != _data_of(payload):
                    return position
            except Exception:  # noqa: BLE001 - a head that does not unpack is reported by reading the rows
                return position
        return None

    def stream_rows(
        self, first: str, last: str, mirrors: bool = False, only: Sequence[str] | None = None
    ) -> Iterator[tuple[Any, list[Row] | CorruptLog, int | None]]:
        """Every game's rows for the game ids from ``first`` to ``last``, in one query, in id order:
        (game id, its rows or the CorruptLog ``rows`` would raise for it, and with ``mirrors`` what
        ``unmirrored`` says of it). Each game's rows are handed on as soon as they are read, so a
        corpus of any size streams through. Times are not read (nothing that streams the corpus
        shows them): the rows' ``time`` is empty. ``only``: just these ids' rows (a scattered subset
        of the range: each looked up by the primary key, nothing between them read)."""
        if self._db is None:
            return
        sql = STREAM_SQL + ", game_id"
        if mirrors:
            sql += ", " + MIRRORS_SQL
        where, params = _id_range("game_id", first, last, only)
        sql += f" from events where {where} order by game_id, seq"
        current: Any = None
        rows: list[Row] = []
        problem: CorruptLog | None = None
        unmirrored: int | None = None
        try:
            cursor = self._db.conn.execute(sql, params)
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        new_row, unpack_head, data_of, known_data, missing = _new_row, _unpack_head, _data_of, _DATA, _MISSING
        while True:
            try:
                batch = cursor.fetchmany(4096)
            except sqlite3.Error as err:
                self._tolerate(err)  # the stream breaks off here; the rest is read game by game
                raise self._error(err, "read") from None
            if not batch:
                break
            for r in batch:
                gid = r[3]
                if gid != current:
                    if current is not None:
                        yield current, problem if problem is not None else rows, unmirrored
                    current, rows, problem, unmirrored = gid, [], None, None
                if problem is not None:
                    continue
                # ``_row``, inlined for the usual row: this runs for every row of the corpus
                head, payload, digest = r[:3]
                try:
                    seq, step, actor, command, tag, version = unpack_head(head)
                    if (
                        type(seq) is int and type(step) is int and type(actor) is str and type(command) is str
                        and type(tag) is str and type(version) is int and type(payload) is bytes
                        and type(digest) is str
                    ):
                        if mirrors and unmirrored is None:
                            data = known_data.get(payload, missing)
                            if data is missing:
                                data = data_of(payload)
                            if r[10] != data or r[4:10] != (seq, step, actor, command, tag, version):
                                unmirrored = len(rows)
                        rows.append(new_row(Row, (seq, step, actor, command, tag, version, payload, digest, head, "")))
                        continue
                except Exception:  # noqa: BLE001 - whatever the head holds; ``_row`` names it
                    pass
                try:
                    rows.append(self._row(str(gid), len(rows), head, payload, digest, ""))
                except CorruptLog as err:
                    problem = err
        if current is not None:
            yield current, problem if problem is not None else rows, unmirrored

    def games_between(self, first: str, last: str) -> int:
        """How many games rows have an id from ``first`` to ``last`` (the primary key's index only)."""
        count = self._query("select count(*) from games where id between ? and ?", [first, last])
        return int(count[0][0]) if count else 0

    def recorded_event_counts(self) -> dict[str, int]:
        """Each game's event count as its games row records it (unverified: for planning work only)."""
        return {
            gid: n for gid, n in self._query("select id, events from games") if type(gid) is str and type(n) is int
        }

    def recorded_events(self) -> int:
        """The events the games rows record, all told (unverified: for planning work only)."""
        total = self._query("select total(events) from games where typeof(events) = 'integer'")
        return int(total[0][0]) if total else 0

    def orphan_events(self) -> list[tuple[str, int]]:
        """(game id, event count) of events that have no ``games`` row (one deleted behind solrec's back)."""
        return [
            (str(r[0]), int(r[1]))
            for r in self._query(
                "select game_id, count(*) from events where game_id not in (select id from games)"
                " group by game_id order by game_id"
            )
        ]

    def _row(self, game_id: str, position: int, head: Any, payload: Any, digest: Any, time: Any) -> Row:
        """A stored row from its hashed head and payload, its hash and time, or why it is damaged (a
        time that is not text, NULL included, is taken as no time). ``position``: the row's place in
        its game's log, as read."""
        where = f"game {game_id!r} at {at_event(position)}"
        if head is None or payload is None:
            sizes = self._query(
                "select length(head), length(payload) from events where game_id = ? order by seq limit 1 offset ?",
                [game_id, position],
            )
            head_size, size = sizes[0] if sizes else (None, None)
            if head is None and head_size is not None and head_size > MAX_HEAD:
                raise CorruptLog(f"{where}: its head is {head_size} bytes, over the bound of {MAX_HEAD}", position)
            if payload is None and size is not None and size > MAX_PAYLOAD:
                raise CorruptLog(f"{where}: the payload is {size} bytes, over the bound of {MAX_PAYLOAD}", position)
        if not isinstance(head, bytes):
            raise CorruptLog(f"{where}: its head (position, actor, command, type, version) is not stored bytes", position)
        try:
            fields = _unpack_head(head)
        except Exception as err:  # noqa: BLE001 - whatever the bytes hold
            raise CorruptLog(f"{where}: its head does not unpack ({json_reason(err)})", position) from None
        if type(fields) is not list or len(fields) != 6 or not _head_types(*fields):
            raise CorruptLog(f"{where}: its head is not a position, command number, actor, command, type and version", position)
        if not isinstance(payload, bytes):
            raise CorruptLog(f"{where}: the payload is not stored bytes", position)
        if not isinstance(digest, str):
            raise CorruptLog(f"{where}: its hash is not text (or is over {MAX_TEXT} characters)", position)
        seq, step, actor, command, tag, version = fields
        # The time is not hashed and the corpus stream does not read it: one that is not text is no
        # time, as a NULL is, so that ``show`` and ``validate --all`` agree on the game.
        return Row(seq, step, actor, command, tag, version, payload, digest, head, time if isinstance(time, str) else "")


# What a Row is read from: the hashed head and payload, the hash and the time, in the order of the
# primary key's ``seq``. A value over its bound comes back as NULL: never read whole. Types are checked
# in Python, where it is a tenth of the cost of SQLite's ``typeof``. The browsing columns (step, actor,
# command, type, version, data) are not read.
_HASHED = (
    f"case when length(head) <= {MAX_HEAD} then head end,"
    f" case when length(payload) <= {MAX_PAYLOAD} then payload end,"
    f" case when length(hash) <= {MAX_TEXT} then hash end"
)
ROWS_SQL_FROM = f"select {_HASHED}, case when length(time) <= {MAX_TEXT} then time end from events"
STREAM_SQL = f"select {_HASHED}"
# The browsing columns a head (and, for ``data``, the payload) is compared with (``validate``), over
# their bounds as NULL.
MIRRORS_SQL = ", ".join(
    [f"case when length({c}) <= {MAX_TEXT} then {c} end" for c in ("seq", "step", "actor", "command", "type", "version")]
    + [f"case when length(data) <= {MAX_DATA} then data end"]
)


def _id_range(column: str, first: str, last: str, only: Sequence[str] | None) -> tuple[str, list[Any]]:
    """The ``where`` of a read of the ids from ``first`` to ``last``, or of ``only`` those (sorted:
    SQLite seeks each in the primary key's index, in that order, so rows still come in id order)."""
    if only is None:
        return f"{column} between ? and ?", [first, last]
    return f"{column} in ({', '.join('?' * len(only))})", sorted(only)


# (game, options text, players text) -> a header's options, players and upcast option names
_HEADER_PARTS: dict[tuple[Any, Any, Any], tuple[tuple[tuple[str, Any], ...], tuple[str, ...], tuple[str, ...]]] = {}

# Text columns longer than MAX_TEXT come back as NULL with their length, never read whole.
_GAME_PICKS = ", ".join(
    f"case when length({c}) <= {MAX_TEXT} then {c} end, length({c}), typeof({c})" for c in GAMES_COLUMNS
)


def option_values_problem(options: dict[str, Any]) -> str | None:
    """Why a header's options are not option values (text, true/false, a whole number of at most 64
    bits: what ``core/options.py`` reads), or None. A reader refuses such a header; a writer never
    stores one."""
    for name, value in options.items():
        kind = type(value)
        if kind is str or kind is bool or (kind is int and INT64_MIN <= value <= INT64_MAX):
            continue
        shown = f"a whole number of {len(str(value))} digits" if kind is int else f"a {_JSON_KINDS.get(kind, 'value')}"
        return f"option {str(name)[:40]!r} is {shown}, not text, true/false or a whole number of at most 64 bits"
    return None


_JSON_KINDS = {float: "fraction", list: "list", dict: "map", type(None): "null"}


def _over_bound(values: Iterable[tuple[str, Any]], bounds: dict[str, int] | None = None) -> str | None:
    """Which of the (column, value) pairs about to be written is over the bound its reader keeps
    (``MAX_TEXT`` characters, unless ``bounds`` says otherwise), or None."""
    for column, value in values:
        if isinstance(value, (str, bytes)):
            bound = (bounds or {}).get(column, MAX_TEXT)
            if len(value) > bound:
                unit = "bytes" if isinstance(value, bytes) else "characters"
                return f"{column} would be {len(value)} {unit} long, over the bound of {bound} a reader keeps"
    return None


_ROW_BOUNDS = {"head": MAX_HEAD, "payload": MAX_PAYLOAD, "data": MAX_DATA}


def _decode_back(codec: EventCodec, rows: Sequence[Row]) -> None:
    """Refuse rows whose events a reader would not decode (``codec``: strict structuring and the
    event's ``check``), before they are written: an event ``decide`` made outside its game's domain
    is refused here, not by every later reader."""
    for r in rows:
        try:
            codec.decode(r.type, r.version, r.payload)
        except CorruptLog as err:
            raise Unreadable(f"the event at {at_event(r.seq, r.step)} would not read back ({err}); nothing was written") from None


def _bots_of(bad: str, players: tuple[str, ...], stored: Sequence[tuple[Any, Any]]) -> tuple[tuple[str, str], ...]:
    """A header's bot seats from its ``header_bots`` rows, checked as ``make_header`` checks them."""
    if not stored:
        return ()
    if not all(type(p) is str and type(b) is str for p, b in stored):
        raise CorruptLog(f"{bad} (a bot seat is not text)")
    try:
        return check_bots(players, stored)
    except InvalidSetup as err:
        raise CorruptLog(f"{bad} ({err})") from None


def _game_row(game_id: str, values: tuple) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, col in enumerate(GAMES_COLUMNS):
        value, length, kind = values[3 * i : 3 * i + 3]
        if value is None and kind != "null":
            raise CorruptLog(f"game {game_id!r}: its {col} is {length} long, over the bound of {MAX_TEXT}")
        out[col] = value
    return out


# A Row from a checked tuple of its ten values, without the named tuple's Python-level ``__new__``.
_new_row = tuple.__new__
# A head unpacked with msgpack's defaults (its own limits, strings as text): anything else is refused
# by the types a head's six fields must have.
_unpack_head = msgpack.unpackb


def _head_types(seq: Any, step: Any, actor: Any, command: Any, tag: Any, version: Any) -> bool:
    return (
        type(seq) is int and type(step) is int and type(actor) is str and type(command) is str
        and type(tag) is str and type(version) is int
    )


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text")
    return value


class Undecodable:
    """A stored text that is not UTF-8, kept as its bytes: neither text nor bytes to whoever checks
    a stored value's type, so it is reported as damaged where it is."""

    __slots__ = ("raw",)

    def __init__(self, raw: bytes):
        self.raw = raw

    def __repr__(self) -> str:
        return f"<not UTF-8: {self.raw[:40]!r}>"

    __str__ = __repr__


def _tolerant_text(raw: bytes) -> str | Undecodable:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return Undecodable(raw)


def _affinity(declared: str) -> str:
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


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    except OSError:
        return False


def _uri_path(path: Path) -> str:
    from urllib.parse import quote

    return quote(str(path.absolute()), safe="/")


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)
