"""The SQLite event store (sqlite-utils): a ``games`` table and one hash-chained ``events`` stream per game.

Browsable without solrec: each event row also carries ``data``, its payload as JSON text, written in
the same insert as the msgpack ``payload`` it mirrors (so the two never disagree), and the views
``event_log`` (events with their game and position, ``data`` as JSON) and ``game_list`` (games with
``players``, ``options``, ``scores`` and ``outcome`` as JSON) let sqlite-utils and Datasette users
query them with SQLite's JSON functions. SQLite cannot read msgpack, so a view or a generated column
over ``payload`` alone cannot show it; a companion table would need its own cleanup on delete. The
hash chain covers ``payload`` only; ``data`` is derived from it. Schema 1 databases (no ``data``) are
migrated on open.

Appends name the sequence number they expect to write next; the check and the inserts run in one
``BEGIN IMMEDIATE`` transaction, and the primary key (game_id, seq) backs it, so of two writers
racing for a position exactly one wins and the other gets ``ConcurrencyConflict`` and writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError
from solrec.core.play import Header, Step, upcast_options
from solrec.core.registry import game_ids, get_game

from .codec import EventCodec
from .envelope import Row, chain_rows, genesis_hash

SCHEMA_VERSION = 2
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
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")


class StoreError(SolrecError):
    """The database cannot be used as asked."""


class NotASolrecDatabase(StoreError):
    pass


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
    import msgpack

    try:
        return json.dumps(msgpack.unpackb(payload, raw=False, strict_map_key=False), sort_keys=True, ensure_ascii=False)
    except Exception:  # damaged bytes stay damaged: validate reports them from the payload
        return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    def __init__(self, path: str | Path, create: bool = True):
        self.path = Path(path)
        if not self.path.exists():
            if not create:
                raise StoreError(f"{self.path}: no such database (it is created by new, import or simulate)")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(str(self.path), timeout=10, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 10000")
            self.db = _Database(conn)
            tables = set(self.db.table_names())
        except sqlite3.DatabaseError as err:
            raise NotASolrecDatabase(f"{self.path} is not a solrec database ({err})") from None
        if tables and "solrec_meta" not in tables:
            raise NotASolrecDatabase(f"{self.path} is not a solrec database (it has other tables)")
        if not tables:
            self._create_schema()
        else:
            version = self.db.execute("select value from solrec_meta where key = 'schema'").fetchone()
            if version is not None and version[0] == "1":
                self._migrate_from_1()
            elif version is None or int(version[0]) != SCHEMA_VERSION:
                raise NotASolrecDatabase(f"{self.path}: unsupported solrec schema {version and version[0]!r}")

    def _create_views(self) -> None:
        for name, sql in _VIEWS.items():
            self.db.conn.execute(f"create view if not exists {name} as {sql}")

    def _migrate_from_1(self) -> None:
        """Schema 1 -> 2: add ``events.data`` (the payload as JSON), fill it, create the views."""
        self._begin()
        try:
            columns = {r[1] for r in self.db.conn.execute("pragma table_info(events)")}
            if "data" not in columns:
                self.db.conn.execute("alter table events add column data text")
            rows = self.db.conn.execute("select game_id, seq, payload from events").fetchall()
            self.db.conn.executemany(
                "update events set data = ? where game_id = ? and seq = ?",
                [(_payload_json(p) if isinstance(p, bytes) else None, g, q) for g, q, p in rows],
            )
            self._create_views()
            self.db.conn.execute("update solrec_meta set value = ? where key = 'schema'", [str(SCHEMA_VERSION)])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _create_schema(self) -> None:
        db = self.db.full
        db.enable_wal()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.table("solrec_meta").create({"key": str, "value": str}, pk="key")
            db.execute("insert into solrec_meta values ('schema', ?)", [str(SCHEMA_VERSION)])
            db.table("games").create(
                {
                    "id": str, "game": str, "rules": str, "options": str, "chance": str, "seed": int,
                    "players": str, "created": str, "genesis": str, "events": int, "head": str,
                    "scores": str, "outcome": str,
                },
                pk="id",
                not_null={"game", "rules", "options", "chance", "players", "created", "genesis", "events", "head"},
            )
            db.table("events").create(
                {
                    "game_id": str, "seq": int, "step": int, "actor": str, "command": str, "type": str,
                    "version": int, "payload": bytes, "hash": str, "time": str, "data": str,
                },
                pk=("game_id", "seq"),
                foreign_keys=[("game_id", "games", "id")],
                not_null={"step", "actor", "command", "type", "version", "payload", "hash", "time"},
            )
            self._create_views()
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.db.conn.close()

    # -- games ------------------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("select id from games order by created, id").fetchall()]

    def has_game(self, game_id: str) -> bool:
        return self.db.execute("select 1 from games where id = ?", [game_id]).fetchone() is not None

    def new_game_id(self, game: str) -> str:
        return f"{game}-{self.last_game_number(game) + 1}"

    def last_game_number(self, game: str) -> int:
        """The largest N among ids ``GAME-N`` (0 when there is none)."""
        n = 0
        for (gid,) in self.db.execute("select id from games where id like ?", [f"{game}-%"]).fetchall():
            tail = gid[len(game) + 1 :]
            if tail.isdigit():
                n = max(n, int(tail))
        return n

    def game_row(self, game_id: str) -> dict[str, Any]:
        cur = self.db.execute("select * from games where id = ?", [game_id])
        row = cur.fetchone()
        if row is None:
            raise UnknownGameId(f"no game {game_id!r} in {self.path}")
        return dict(zip([d[0] for d in cur.description], row))

    def header(self, game_id: str) -> Header:
        row = self.game_row(game_id)
        try:
            options = json.loads(row["options"])
            players = json.loads(row["players"])
            upcast: tuple[str, ...] = ()
            if row["game"] in game_ids():  # an unknown game is refused by whoever reads its log
                options, upcast = upcast_options(get_game(row["game"]), options)
            return Header(
                game=row["game"],
                players=tuple(players),
                chance=row["chance"],
                seed=row["seed"],
                options=tuple(sorted(options.items())),
                rules=row["rules"],
                upcast=upcast,
            )
        except (ValueError, TypeError, AttributeError) as err:
            raise CorruptLog(f"game {game_id!r}: its header does not decode ({err})") from None

    def recorded(self, game_id: str) -> dict[str, Any]:
        """What was recorded beside the events: count, head hash, scores and outcome."""
        row = self.game_row(game_id)
        return {
            "events": row["events"],
            "head": row["head"],
            "scores": json.loads(row["scores"]) if row["scores"] else None,
            "outcome": json.loads(row["outcome"]) if row["outcome"] else None,
        }

    # -- writing ----------------------------------------------------------------------------
    def _begin(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise ConcurrencyConflict(f"the database is busy ({err}); nothing was written") from None

    def create_game(
        self,
        game_id: str,
        header: Header,
        codec: EventCodec,
        steps: Sequence[Step] = (),
        scores: dict | None = None,
        outcome: dict | None = None,
    ) -> list[Row]:
        """Create a game and (optionally) its first steps, all in one transaction."""
        if not _ID.match(game_id):
            raise InvalidSetup(f"game id {game_id!r}: use letters, digits, '.', '_' and '-' (at most 80)")
        genesis = genesis_hash(header)
        rows = chain_rows(codec, genesis, 0, 0, steps, _now())
        self._begin()
        try:
            if self.has_game(game_id):
                raise StoreError(f"a game {game_id!r} already exists in {self.path}")
            self.db.conn.execute(
                "insert into games (id, game, rules, options, chance, seed, players, created, genesis, events,"
                " head, scores, outcome) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    game_id, header.game, header.rules, json.dumps(header.recorded_options(), sort_keys=True),
                    header.chance, header.seed, json.dumps(list(header.players)), _now(), genesis,
                    len(rows), rows[-1].hash if rows else genesis, _json(scores), _json(outcome),
                ],
            )
            self._insert(game_id, rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return rows

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
        self._begin()
        try:
            row = self.db.conn.execute("select events, head from games where id = ?", [game_id]).fetchone()
            if row is None:
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            last = self.db.conn.execute(
                "select seq, step, hash from events where game_id = ? order by seq desc limit 1", [game_id]
            ).fetchone()
            next_seq = 0 if last is None else last[0] + 1
            if next_seq != expected_seq:
                raise ConcurrencyConflict(
                    f"game {game_id!r} moved on: expected to write event {expected_seq}, the log has {next_seq} "
                    "events; nothing was written"
                )
            next_step = 0 if last is None else last[1] + 1
            prev = row[1] if last is None else last[2]
            rows = chain_rows(codec, prev, next_seq, next_step, steps, _now())
            self._insert(game_id, rows)
            self.db.conn.execute(
                "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                [next_seq + len(rows), rows[-1].hash if rows else prev, _json(scores), _json(outcome), game_id],
            )
            self.db.execute("COMMIT")
        except sqlite3.IntegrityError:
            self.db.execute("ROLLBACK")
            raise ConcurrencyConflict(
                f"game {game_id!r}: another writer took event {expected_seq}; nothing was written"
            ) from None
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return rows

    def _insert(self, game_id: str, rows: Sequence[Row]) -> None:
        self.db.conn.executemany(
            "insert into events (game_id, seq, step, actor, command, type, version, payload, hash, time, data)"
            " values (?,?,?,?,?,?,?,?,?,?,?)",
            [
                (game_id, r.seq, r.step, r.actor, r.command, r.type, r.version, r.payload, r.hash, r.time,
                 _payload_json(r.payload))
                for r in rows
            ],
        )

    def delete_game(self, game_id: str) -> None:
        self._begin()
        try:
            self.db.conn.execute("delete from events where game_id = ?", [game_id])
            self.db.conn.execute("delete from games where id = ?", [game_id])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def truncate(self, game_id: str, expected_events: int, keep: int, scores: dict | None, outcome: dict | None) -> None:
        """Drop the events from position ``keep`` on (``undo``), if the log still holds
        ``expected_events``; the recorded count, head, scores and outcome follow, in one transaction."""
        self._begin()
        try:
            row = self.db.conn.execute("select events, genesis from games where id = ?", [game_id]).fetchone()
            if row is None:
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            if row[0] != expected_events:
                raise ConcurrencyConflict(
                    f"game {game_id!r} moved on: it has {row[0]} events, not {expected_events}; nothing was changed"
                )
            self.db.conn.execute("delete from events where game_id = ? and seq >= ?", [game_id, keep])
            head = self.db.conn.execute(
                "select hash from events where game_id = ? and seq = ?", [game_id, keep - 1]
            ).fetchone()
            self.db.conn.execute(
                "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                [keep, head[0] if head else row[1], _json(scores), _json(outcome), game_id],
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def rename_game(self, game_id: str, new_id: str) -> None:
        """Give a game another id (the hash chain does not cover ids, so it stays valid)."""
        if not _ID.match(new_id):
            raise InvalidSetup(f"game id {new_id!r}: use letters, digits, '.', '_' and '-' (at most 80)")
        self._begin()
        try:
            if not self.has_game(game_id):
                raise UnknownGameId(f"no game {game_id!r} in {self.path}")
            if self.has_game(new_id):
                raise StoreError(f"a game {new_id!r} already exists in {self.path}")
            self.db.conn.execute("update events set game_id = ? where game_id = ?", [new_id, game_id])
            self.db.conn.execute("update games set id = ? where id = ?", [new_id, game_id])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def list_games(self) -> list[dict[str, Any]]:
        """Every game's row as recorded (no event is read), oldest first."""
        cur = self.db.execute(
            "select id, game, players, created, events, scores, outcome from games order by created, id"
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    # -- reading ----------------------------------------------------------------------------
    def rows(self, game_id: str, upto: int | None = None) -> list[Row]:
        self.game_row(game_id)
        sql = (
            "select seq, step, actor, command, type, version, payload, hash, time from events"
            " where game_id = ? order by seq"
        )
        out = []
        for r in self.db.conn.execute(sql, [game_id]):
            if upto is not None and r[0] >= upto:
                break
            payload = r[6]
            if not isinstance(payload, bytes):
                raise CorruptLog(f"game {game_id!r} event {r[0]}: the payload is not stored bytes")
            out.append(Row(r[0], r[1], r[2], r[3], r[4], r[5], payload, r[7], r[8] or ""))
        return out

    def iter_all_rows(self) -> Iterator[tuple[str, Row]]:
        sql = (
            "select game_id, seq, step, actor, command, type, version, payload, hash, time from events"
            " order by game_id, seq"
        )
        for r in self.db.conn.execute(sql):
            yield r[0], Row(*r[1:])


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)
