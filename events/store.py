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
the file; solrec never reads them back, and ``validate`` reports a row where they disagree with what
is hashed (docs/security.md). Older databases are migrated on open: schema 1 gains ``data``, schema 2
gains ``head``, packed from its columns (a row edited before the migration still breaks its chain).

Appends name the sequence number they expect to write next; the check and the inserts run in one
``BEGIN IMMEDIATE`` transaction, and the primary key (game_id, seq) backs it, so of two writers
racing for a position exactly one wins and the other gets ``ConcurrencyConflict`` and writes nothing.

A database file is untrusted input (docs/security.md). Opening checks that ``games`` and ``events``
are real tables with the expected columns and that no trigger hides behind them; reading checks every
stored value's type and refuses a payload over ``MAX_PAYLOAD`` bytes without reading it. A file that
does not exist yet is created by the first write, never by a read or a refusal.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgpack

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError
from solrec.core.play import Header, Step, upcast_options
from solrec.core.registry import game_ids, get_game

from .codec import EventCodec
from .envelope import Row, chain_rows, genesis_hash, pack_head

SCHEMA_VERSION = 3
_VIEWS = {
    "event_log": (
        "select e.game_id, g.game, e.seq + 1 as position, e.seq, e.step, e.actor, e.command, e.type,"
        " e.version, json(e.data) as data, e.hash, e.time from events e join games g on g.id = e.game_id"
    ),
    "game_list": (
        "select id, game, rules, chance, seed, json(players) as players, json(options) as options, created,"
        " events, case when outcome is null then 'running' else 'over' end as status,"
        " json(scores) as scores, json(outcome) as outcome from games"
    ),
}
MAX_PAYLOAD = 64 * 1024  # bytes of one stored event; the largest real payload is under 1 KiB
MAX_TEXT = 64 * 1024  # characters of one stored text field (options, players, scores, commands)
MAX_HEAD = 4 * MAX_TEXT + 64  # bytes of one stored head: a command of MAX_TEXT characters, and the rest
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


class StoreError(SolrecError):
    """The database cannot be used as asked."""


class NotASolrecDatabase(StoreError):
    pass


class CorruptDatabase(StoreError, CorruptLog):
    """The file is a solrec database, but damaged: one verdict for the whole file (exit 1)."""


class UnknownGameId(StoreError):
    pass


class ConcurrencyConflict(StoreError):
    pass


def default_db_path() -> Path:
    """``SOLREC_DB``, else ``$XDG_DATA_HOME/solrec/solrec.db`` (``~/.local/share/solrec/solrec.db``)."""
    env = os.environ.get("SOLREC_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "solrec" / "solrec.db"


class _Database:
    """The connection, with sqlite-utils' ``Database`` built only when something asks for more than
    ``execute`` (importing sqlite-utils costs more than a whole ``show``)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._full: Any = None

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


def _payload_json(payload: bytes) -> str | None:
    """An event's msgpack payload as JSON text (the ``data`` column)."""
    try:
        return json.dumps(msgpack.unpackb(payload, raw=False, strict_map_key=False), sort_keys=True, ensure_ascii=False)
    except Exception:  # damaged bytes stay damaged: validate reports them from the payload
        return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not _ID.match(game_id):
        raise InvalidSetup(f"game id {game_id!r}: use letters, digits, '.', '_' and '-' (at most 80)")
    return game_id


class Store:
    def __init__(self, path: str | Path, create: bool = True):
        self.path = Path(path)
        self._db: _Database | None = None
        self._has_seals = False  # seen at open (and made by put_seal): reading a game asks no more
        if not self.path.exists():
            if not create:
                raise StoreError(f"{self.path}: no such database (it is created by new, import or simulate)")
            return  # created by the first write (a refused command leaves no file behind)
        if not self.path.is_file():
            raise StoreError(f"{self.path} is not a regular file, so it cannot hold a solrec database")
        self._db = self._connect(create=False)
        tables = self._objects()
        self._has_seals = "seals" in tables
        if not tables:
            if not create:
                raise NotASolrecDatabase(f"{self.path} is not a solrec database (it is empty)")
            self._db.conn.close()  # an empty file gets its schema with the first write, like a new one
            self._db = None
        else:
            self._check_schema(tables)

    # -- opening ----------------------------------------------------------------------------
    def _connect(self, create: bool) -> _Database:
        mode = "rwc" if create else "rw"
        uri = f"file:{_uri_path(self.path)}?mode={mode}"
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
        """Every table, view, index and trigger of the file: name -> type."""
        try:
            rows = self.conn.execute("select name, type from sqlite_master").fetchall()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        return {name: kind for name, kind in rows}

    def _check_schema(self, objects: dict[str, str]) -> None:
        if "solrec_meta" not in objects:
            raise NotASolrecDatabase(f"{self.path} is not a solrec database (it has other tables)")
        try:
            version = self.conn.execute("select value from solrec_meta where key = 'schema'").fetchone()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        if version is None:
            raise CorruptDatabase(f"{self.path}: the solrec schema version is missing")
        value = version[0]
        if isinstance(value, str) and value.strip().isdigit() and len(value) < 10:
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            raise CorruptDatabase(f"{self.path}: the solrec schema version {str(value)[:40]!r} is not a number")
        if number in (1, 2) and objects.get("events") == "table":
            self._migrate(number)
            number = SCHEMA_VERSION
        if number != SCHEMA_VERSION:
            raise NotASolrecDatabase(
                f"{self.path}: solrec schema {number}; this solrec reads schema {SCHEMA_VERSION}"
            )
        for table, columns in (("games", GAMES_COLUMNS), ("events", EVENTS_COLUMNS), ("seals", SEALS_COLUMNS)):
            kind = objects.get(table)
            if kind is None and table == "seals":
                continue  # made by the first `seal`
            if kind is None:
                raise CorruptDatabase(f"{self.path}: the {table} table is missing")
            if kind != "table":
                raise CorruptDatabase(f"{self.path}: {table} is a {kind}, not a table")
            try:
                have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            except sqlite3.Error as err:
                raise self._error(err, "read") from None
            missing = sorted(set(columns) - have)
            if missing:
                raise CorruptDatabase(f"{self.path}: the {table} table lacks the column {missing[0]!r}")
        triggers = sorted(name for name, kind in objects.items() if kind == "trigger")
        if triggers:
            raise CorruptDatabase(f"{self.path}: it holds a trigger ({triggers[0]!r}) solrec never makes")

    def _create_views(self) -> None:
        for name, sql in _VIEWS.items():
            self.conn.execute(f"create view if not exists {name} as {sql}")

    def _migrate(self, number: int) -> None:
        """Schema 1 -> 2: add ``events.data`` (the payload as JSON) and the views. Schema 2 -> 3: add
        ``events.head``, packed from the columns it mirrors. One transaction for both."""
        with self._transaction("migrate") as conn:
            version = conn.execute("select value from solrec_meta where key = 'schema'").fetchone()
            if version is None or str(version[0]) != str(number):
                return  # another process migrated it first
            columns = {r[1] for r in conn.execute("pragma table_info(events)")}
            if number == 1:
                if "data" not in columns:
                    conn.execute("alter table events add column data text")
                rows = conn.execute(
                    f"select game_id, seq, payload from events where length(payload) <= {MAX_PAYLOAD}"
                ).fetchall()
                conn.executemany(
                    "update events set data = ? where game_id = ? and seq = ?",
                    [(_payload_json(p) if isinstance(p, bytes) else None, g, q) for g, q, p in rows],
                )
                self._create_views()
            if "head" not in columns:
                conn.execute("alter table events add column head blob")
            # A row whose columns are not of their types (or over their bounds) keeps no head: it
            # reads back as damaged, as it did before.
            texts = " and ".join(f"length({c}) <= {MAX_TEXT}" for c in ("actor", "command", "type"))
            rows = conn.execute(
                f"select game_id, seq, step, actor, command, type, version from events where {texts}"
            ).fetchall()
            conn.executemany(
                "update events set head = ? where game_id = ? and seq = ?",
                [(pack_head(q, st, a, c, t, v), g, q) for g, q, st, a, c, t, v in rows if _head_types(q, st, a, c, t, v)],
            )
            conn.execute("update solrec_meta set value = ? where key = 'schema'", [str(SCHEMA_VERSION)])

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
            db.table("solrec_meta").create({"key": str, "value": str}, pk="key")
            db.execute("insert into solrec_meta values ('schema', ?)", [str(SCHEMA_VERSION)])
            db.table("games").create(
                dict(GAMES_COLUMNS),
                pk="id",
                not_null={"game", "rules", "options", "chance", "players", "created", "genesis", "events", "head"},
            )
            db.table("events").create(
                dict(EVENTS_COLUMNS),
                pk=("game_id", "seq"),
                foreign_keys=[("game_id", "games", "id")],
                not_null={"step", "actor", "command", "type", "version", "payload", "hash", "time", "head"},
            )
            self._create_views()

    @property
    def db(self) -> _Database:
        """The open database; a store for a file that does not exist yet creates it now."""
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect(create=True)
            objects = self._objects()
            if objects:
                self._check_schema(objects)
            else:
                self._create_schema()
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
    def _transaction(self, doing: str = "write") -> Iterator[sqlite3.Connection]:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._error(err, doing) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as err:
            # SQLite may have rolled back already (a full disk does): rolling back again must not
            # replace the real error with "cannot rollback - no transaction is active".
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(err, sqlite3.IntegrityError):
                raise
            if isinstance(err, sqlite3.Error):
                raise self._error(err, doing) from None
            raise

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        if self._db is None:
            return []
        try:
            return self._db.conn.execute(sql, list(params)).fetchall()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None

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

    def last_game_number(self, game: str) -> int:
        """The largest N among ids ``GAME-N`` (0 when there is none)."""
        n = 0
        for (gid,) in self._query("select id from games where id like ?", [f"{game}-%"]):
            tail = str(gid)[len(game) + 1 :]
            if tail.isdigit() and len(tail) < 19:
                n = max(n, int(tail))
        return n

    def game_row(self, game_id: str) -> dict[str, Any]:
        rows = self._query(f"select {_GAME_PICKS} from games where id = ?", [game_id])
        if not rows:
            raise UnknownGameId(f"no game {game_id!r} in {self.path}")
        return _game_row(game_id, rows[0])

    def game_rows(self, first: str, last: str) -> dict[str, dict[str, Any] | CorruptLog]:
        """The games rows whose id lies from ``first`` to ``last`` (in id order), read in one query:
        id -> row, or the CorruptLog ``game_row`` would raise for it."""
        out: dict[str, dict[str, Any] | CorruptLog] = {}
        for values in self._query(f"select {_GAME_PICKS}, id from games where id between ? and ?", [first, last]):
            gid = values[-1]
            if type(gid) is str:
                try:
                    out[gid] = _game_row(gid, values)
                except CorruptLog as err:
                    out[gid] = err
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
                raise CorruptLog(f"{bad} ({_one_line(err)})") from None
            if not isinstance(options, dict):
                raise CorruptLog(f"{bad} (options are not a map)")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise CorruptLog(f"{bad} (players are not a list of names)")
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
            upcast=known[2],
        )

    def recorded(self, game_id: str, row: dict[str, Any] | None = None) -> dict[str, Any]:
        """What was recorded beside the events: count, head hash, scores and outcome."""
        row = self.game_row(game_id) if row is None else row
        if type(row["events"]) is not int or not isinstance(row["head"], str):
            raise CorruptLog(f"game {game_id!r}: its recorded event count or head is not of its type")
        out = {"events": row["events"], "head": row["head"]}
        for field in ("scores", "outcome"):
            value = row[field]
            try:
                out[field] = json.loads(_text(value, field)) if value else None
            except (ValueError, RecursionError) as err:
                raise CorruptLog(f"game {game_id!r}: its recorded {field} is not JSON ({_one_line(err)})") from None
        if out["scores"] is not None and not isinstance(out["scores"], dict):
            raise CorruptLog(f"game {game_id!r}: its recorded scores are not a map")
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
        genesis = genesis_hash(header)
        rows = chain_rows(codec, genesis, 0, 0, steps, _now())
        values = [
            header.game, header.rules, json.dumps(header.recorded_options(), sort_keys=True),
            header.chance, header.seed, json.dumps(list(header.players)), _now(), genesis,
            len(rows), rows[-1].hash if rows else genesis, _json(scores), _json(outcome),
        ]
        with self._transaction() as conn:
            gid = game_id if game_id is not None else self.new_game_id(header.game)
            if self.has_game(gid):
                raise StoreError(f"a game {gid!r} already exists in {self.path}")
            conn.execute(
                "insert into games (id, game, rules, options, chance, seed, players, created, genesis, events,"
                " head, scores, outcome) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [gid, *values],
            )
            self._insert(gid, rows)
        self.last_created = gid
        return rows

    last_created: str | None = None

    def append(
        self,
        game_id: str,
        expected_seq: int,
        codec: EventCodec,
        steps: Sequence[Step],
        scores: dict | None = None,
        outcome: dict | None = None,
    ) -> list[Row]:
        """Append the events of ``steps`` at ``expected_seq``, in one transaction, or write nothing."""
        try:
            with self._transaction() as conn:
                row = conn.execute("select events, head from games where id = ?", [game_id]).fetchone()
                if row is None:
                    raise UnknownGameId(f"no game {game_id!r} in {self.path}")
                last = conn.execute(
                    "select seq, step, hash from events where game_id = ? order by seq desc limit 1", [game_id]
                ).fetchone()
                next_seq = 0 if last is None else last[0] + 1
                if next_seq != expected_seq:
                    raise ConcurrencyConflict(
                        f"game {game_id!r} moved on: expected to write event {expected_seq}, the log has "
                        f"{next_seq} events; nothing was written"
                    )
                next_step = 0 if last is None else last[1] + 1
                prev = row[1] if last is None else last[2]
                rows = chain_rows(codec, prev, next_seq, next_step, steps, _now())
                self._insert(game_id, rows)
                conn.execute(
                    "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                    [next_seq + len(rows), rows[-1].hash if rows else prev, _json(scores), _json(outcome), game_id],
                )
        except sqlite3.IntegrityError:
            raise ConcurrencyConflict(
                f"game {game_id!r}: another writer took event {expected_seq}; nothing was written"
            ) from None
        return rows

    def _insert(self, game_id: str, rows: Sequence[Row]) -> None:
        self.conn.executemany(
            "insert into events (game_id, seq, step, actor, command, type, version, payload, hash, time, data, head)"
            " values (?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (game_id, r.seq, r.step, r.actor, r.command, r.type, r.version, r.payload, r.hash, r.time,
                 _payload_json(r.payload), r.head)
                for r in rows
            ],
        )

    def delete_game(self, game_id: str) -> None:
        with self._transaction() as conn:
            conn.execute("delete from events where game_id = ?", [game_id])
            conn.execute("delete from games where id = ?", [game_id])
            if "seals" in self._objects():
                conn.execute("delete from seals where game_id = ?", [game_id])

    def truncate(self, game_id: str, expected_events: int, keep: int, scores: dict | None, outcome: dict | None) -> None:
        """Drop the events from position ``keep`` on (``undo``), if the log still holds
        ``expected_events``; the recorded count, head, scores and outcome follow, in one transaction."""
        with self._transaction() as conn:
            row = conn.execute("select events, genesis from games where id = ?", [game_id]).fetchone()
            if row is None:
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            if row[0] != expected_events:
                raise ConcurrencyConflict(
                    f"game {game_id!r} moved on: it has {row[0]} events, not {expected_events}; nothing was changed"
                )
            conn.execute("delete from events where game_id = ? and seq >= ?", [game_id, keep])
            head = conn.execute("select hash from events where game_id = ? and seq = ?", [game_id, keep - 1]).fetchone()
            conn.execute(
                "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                [keep, head[0] if head else row[1], _json(scores), _json(outcome), game_id],
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
            if "seals" in self._objects():
                conn.execute("delete from seals where game_id = ?", [game_id])

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
                raise CorruptLog(f"game {gid!r}: its players or scores are not JSON ({_one_line(err)})") from None
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
        if self._db is None:
            return []
        try:
            stored = self._db.conn.execute(sql + " order by seq", params).fetchall()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        return [self._row(game_id, i, *r) for i, r in enumerate(stored)]

    def unmirrored(self, game_id: str) -> int | None:
        """The position of the game's first row whose browsing columns disagree with its head, or None."""
        sql = f"select head, {MIRRORS_SQL} from events where game_id = ? order by seq"
        for position, (head, *mirrors) in enumerate(self._query(sql, [game_id])):
            try:
                if _unpack_head(head) != mirrors:
                    return position
            except Exception:  # noqa: BLE001 - a head that does not unpack is reported by reading the rows
                return position
        return None

    def stream_rows(
        self, first: str, last: str, mirrors: bool = False
    ) -> Iterator[tuple[Any, list[Row] | CorruptLog, int | None]]:
        """Every game's rows for the game ids from ``first`` to ``last``, in one query, in id order:
        (game id, its rows or the CorruptLog ``rows`` would raise for it, and with ``mirrors`` what
        ``unmirrored`` says of it). Each game's rows are handed on as soon as they are read, so a
        corpus of any size streams through. Times are not read (nothing that streams the corpus
        shows them): the rows' ``time`` is empty."""
        if self._db is None:
            return
        sql = STREAM_SQL + ", game_id"
        if mirrors:
            sql += ", " + MIRRORS_SQL
        sql += " from events where game_id between ? and ? order by game_id, seq"
        current: Any = None
        rows: list[Row] = []
        problem: CorruptLog | None = None
        unmirrored: int | None = None
        try:
            cursor = self._db.conn.execute(sql, [first, last])
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        new_row, unpack_head = _new_row, _unpack_head
        while True:
            try:
                batch = cursor.fetchmany(4096)
            except sqlite3.Error as err:
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
                        if mirrors and unmirrored is None and r[4:] != (seq, step, actor, command, tag, version):
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
        NULL time is taken as no time). ``position``: the row's place in its game's log, as read."""
        where = f"game {game_id!r} event {position}"
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
            raise CorruptLog(f"{where}: its head does not unpack ({_one_line(err)})", position) from None
        if type(fields) is not list or len(fields) != 6 or not _head_types(*fields):
            raise CorruptLog(f"{where}: its head is not a position, command number, actor, command, type and version", position)
        if not isinstance(payload, bytes):
            raise CorruptLog(f"{where}: the payload is not stored bytes", position)
        if not isinstance(digest, str):
            raise CorruptLog(f"{where}: its hash is not text (or is over {MAX_TEXT} characters)", position)
        if time is not None and not isinstance(time, str):
            raise CorruptLog(f"{where}: its time is not text", position)
        seq, step, actor, command, tag, version = fields
        return Row(seq, step, actor, command, tag, version, payload, digest, head, time or "")


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
# The browsing columns a head is compared with (``validate``), over their bounds as NULL.
MIRRORS_SQL = ", ".join(
    [f"case when length({c}) <= {MAX_TEXT} then {c} end" for c in ("seq", "step", "actor", "command", "type", "version")]
)

# (game, options text, players text) -> a header's options, players and upcast option names
_HEADER_PARTS: dict[tuple[Any, Any, Any], tuple[tuple[tuple[str, Any], ...], tuple[str, ...], tuple[str, ...]]] = {}

# Text columns longer than MAX_TEXT come back as NULL with their length, never read whole.
_GAME_PICKS = ", ".join(
    f"case when length({c}) <= {MAX_TEXT} then {c} end, length({c}), typeof({c})" for c in GAMES_COLUMNS
)


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


def _one_line(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "nested too deeply"
    text = str(err)
    return text.splitlines()[0] if text else type(err).__name__


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
