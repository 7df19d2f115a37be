"""The games on a solrec database (sqlite-utils): a ``games`` table and one hash-chained ``events``
stream per game, read and written through ``Store`` (opening, checking, migrating and the
transactions: events/database.py; the tables: events/schema.py; seals: events/seal.py).

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
text: a JavaScript client reads a number above 2**53 inexactly.

Every write that continues a log (``append``, and ``truncate`` for ``undo``) names the head it was
decided against: the position and the hash of the last event. The check and the writes run in one
``BEGIN IMMEDIATE`` transaction, and the primary key (game_id, seq) backs it, so a write decided on
a log that has since changed (even to another log of the same length) gets ``ConcurrencyConflict``
("the game changed: replay and try again") and writes nothing.

Reading checks every stored value's type (a text that is not UTF-8 included) and refuses a payload
over ``MAX_PAYLOAD`` bytes without reading it. A write refuses first what a read would refuse
(``Unreadable``: a value over its bound, an option value that is not one, an event that does not
decode back), so no game is written that no reader can open.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import attrs
import msgpack

from solrec.core.errors import CorruptLog, InvalidSetup, json_reason
from solrec.core.play import INT64_MAX, INT64_MIN, Header, Step, check_bots, upcast_options
from solrec.core.registry import game_ids, get_game
from solrec.core.words import at_event, quoted

from .codec import EventCodec
from .database import (  # noqa: F401 - the store's errors and opening, where callers have always found them
    ConcurrencyConflict,
    CorruptDatabase,
    Database,
    NotASolrecDatabase,
    StoreError,
    Undecodable,
    UnknownGameId,
    Unreadable,
    close_all,
    default_db_path,
    no_such_database,
)
from .envelope import Row, chain_rows, genesis_hash
from .schema import (  # noqa: F401 - the bounds a reader keeps, where callers have always found them
    FOLLOW_THEIR_GAME,
    MAX_DATA,
    MAX_HEAD,
    MAX_PAYLOAD,
    MAX_TEXT,
    NOTES_TABLES,
    SCHEMA_VERSION,
    TABLES,
    head_types,
    payload_json,
)

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
_GAMES_COLUMNS = TABLES["games"].columns  # the games row, in its order


@attrs.frozen
class NewGame:
    """A game to create under an automatic id (``Store.create_games``): its header, first steps and
    what was recorded beside them."""

    header: Header
    steps: Sequence[Step]
    scores: dict | None = None
    outcome: dict | None = None


_DATA: dict[bytes, str | None] = {}  # payload -> its ``data`` text: a corpus repeats its payloads


def _data_of(payload: Any) -> str | None:
    """``payload_json`` remembered (``validate`` compares every row's ``data`` with its payload)."""
    if type(payload) is not bytes:
        return None
    text = _DATA.get(payload, _MISSING)
    if text is _MISSING:
        if len(_DATA) >= 1 << 16:
            _DATA.clear()
        text = _DATA[payload] = payload_json(payload)
    return text


_MISSING: Any = object()


def now() -> str:
    """The time stored beside what is written (an event, a comment, a seal, a seat link)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not _ID.match(game_id):
        raise InvalidSetup(f"game id {quoted(game_id)}: use letters, digits, '.', '_' and '-' (at most 80)")
    return game_id


class Store(Database):
    """The games of a solrec database: reading them (each value checked, nothing read past its
    bound) and writing them (refused first where a reader would refuse). Opening, checking,
    migrating and the transactions are ``Database``'s (events/database.py)."""

    # -- games ------------------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        """Every game id (an id stored as something other than text is shown as text)."""
        return [str(r[0]) for r in self.query("select id from games order by created, id")]

    def game_kinds(self) -> list[str]:
        """The game kinds (``solari``, ...) the games rows name, each once (what an option given for a
        whole corpus is checked against)."""
        return sorted(r[0] for r in self.query("select distinct game from games") if isinstance(r[0], str))

    def has_game(self, game_id: str) -> bool:
        return bool(self.query("select 1 from games where id = ?", [game_id]))

    def new_game_id(self, game: str) -> str:
        return f"{game}-{self.last_game_number(game) + 1}"

    def _allocate_id(self, conn: sqlite3.Connection, game: str) -> str:
        """The next ``GAME-N`` (what ``new_game_id`` gives), inside the caller's write transaction, in
        constant time after the first: the largest N is scanned for once, then counted on, for as long
        as no other connection has committed since (SQLite's ``data_version`` says so: a concurrent
        writer or a rename makes it scan again). Any other write through this store forgets the count
        (``transaction``), so the ids are exactly those one scan per game would give."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if self._numbers is None:
            self._numbers = {}
        known = self._numbers.get(game)
        n = known[1] if known is not None and known[0] == version else self.last_game_number(game)
        self._numbers[game] = (version, n + 1)
        return f"{game}-{n + 1}"


    def last_game_number(self, game: str) -> int:
        """The largest N among ids ``GAME-N`` (0 when there is none)."""
        n = 0
        for (gid,) in self.query("select id from games where id like ?", [f"{game}-%"]):
            tail = str(gid)[len(game) + 1 :]
            if tail.isdigit() and len(tail) < 19:
                n = max(n, int(tail))
        return n

    def game_row(self, game_id: str) -> dict[str, Any]:
        """The game's games row, with ``bots``: its header's bot seats (``header_bots``), if any."""
        rows = self.query(f"select {_GAME_PICKS} from games where id = ?", [game_id])
        if not rows:
            raise UnknownGameId(f"no game {quoted(game_id)} in {self.path}")
        out = _game_row(game_id, rows[0])
        out["bots"] = self._header_bots("game_id = ?", [game_id]).get(game_id, [])
        return out

    def _header_bots(self, where: str, params: Sequence[Any]) -> dict[Any, list[tuple[Any, Any]]]:
        """game id -> its ``header_bots`` rows (player, bot), as stored (``header`` checks them)."""
        if not self.query("select 1 from sqlite_master where type = 'table' and name = 'header_bots'"):
            return {}
        out: dict[Any, list[tuple[Any, Any]]] = {}
        for gid, player, bot in self.query(
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
        for values in self.query(f"select {_GAME_PICKS}, id from games where {where}", params):
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
        bad = f"game {quoted(game_id)}: its header does not decode"
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
            raise CorruptLog(f"{bad} (chance is {quoted(row['chance'][:20])}, neither \"seeded\" nor \"entered\")")
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
            raise CorruptLog(f"game {quoted(game_id)}: its recorded event count or head is not of its type")
        if row["events"] < 0:  # a count, never below none: a position before the header means nothing
            raise CorruptLog(f"game {quoted(game_id)}: its recorded event count is negative ({row['events']})")
        out = {"events": row["events"], "head": row["head"]}
        for field in ("scores", "outcome"):
            value = row[field]
            try:
                out[field] = json.loads(_text(value, field)) if value else None
            except (ValueError, RecursionError) as err:
                raise CorruptLog(f"game {quoted(game_id)}: its recorded {field} is not JSON ({json_reason(err)})") from None
        if out["scores"] is not None and not isinstance(out["scores"], dict):
            raise CorruptLog(f"game {quoted(game_id)}: its recorded scores are not a map")
        if out["outcome"] is not None and not isinstance(out["outcome"], dict):
            raise CorruptLog(f"game {quoted(game_id)}: its recorded outcome is not a map")
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
        with self.transaction(counting=game_id is None) as conn:
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
        with self.transaction(counting=True) as conn:
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
        rows = chain_rows(codec, genesis, 0, 0, steps, now())
        values = [
            header.game, header.rules, json.dumps(header.recorded_options(), sort_keys=True),
            header.chance, header.seed, json.dumps(list(header.players)), now(), genesis,
            len(rows), rows[-1].hash if rows else genesis, _json(scores), _json(outcome),
        ]
        problem = _over_bound(zip(_GAMES_COLUMNS, [None, *values]))
        if problem is not None:
            raise Unreadable(f"the game's {problem}; nothing was written")
        return values, rows

    def _insert_game(self, conn: sqlite3.Connection, gid: str, values: list[Any], codec: EventCodec, rows: list[Row],
                     bots: Sequence[tuple[str, str]] = ()) -> None:
        """A new game's games row, its header's bot seats (``header_bots``, made by the first) and
        rows, inside the caller's write transaction."""
        if self.has_game(gid):
            raise StoreError(f"a game {quoted(gid)} already exists in {self.path}")
        conn.execute(
            "insert into games (id, game, rules, options, chance, seed, players, created, genesis, events,"
            " head, scores, outcome) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [gid, *values],
        )
        if bots:
            self.create_table("header_bots")
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
            with self.transaction() as conn:
                next_seq, next_step, prev = self._head(conn, game_id)
                if (next_seq, prev) != (expected_seq, expected_head):
                    raise self._changed(game_id, expected_seq, expected_head, next_seq, prev, "written")
                rows = chain_rows(codec, prev, next_seq, next_step, steps, now())
                _decode_back(codec, rows)
                self._insert(game_id, rows)
                conn.execute(
                    "update games set events = ?, head = ?, scores = ?, outcome = ? where id = ?",
                    [next_seq + len(rows), rows[-1].hash if rows else prev, _json(scores), _json(outcome), game_id],
                )
        except sqlite3.IntegrityError:
            raise ConcurrencyConflict(
                f"game {quoted(game_id)}: the game changed: replay and try again (another writer took event "
                f"{expected_seq}); nothing was written"
            ) from None
        return rows

    def _head(self, conn: sqlite3.Connection, game_id: str) -> tuple[int, int, Any]:
        """The log's head as a write sees it: the next position, the next command number and the
        hash the next event chains from (the genesis hash of an empty log)."""
        row = conn.execute("select head from games where id = ?", [game_id]).fetchone()
        if row is None:
            raise UnknownGameId(f"no game {quoted(game_id)} in {self.path}")
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
            f"game {quoted(game_id)}: the game changed: replay and try again (decided at position {seq}, "
            f"head {str(head)[:12]}; the log now has {now_seq} events, head {str(now_head)[:12]}); nothing was {done}"
        )

    def _insert(self, game_id: str, rows: Sequence[Row]) -> None:
        """Insert rows (inside the caller's transaction), refusing first any with a value over the
        bound its reader keeps (``_decode_back`` has checked their events)."""
        values = []
        for r in rows:
            data = payload_json(r.payload)
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
        with self.transaction() as conn:
            conn.execute("delete from events where game_id = ?", [game_id])
            conn.execute("delete from games where id = ?", [game_id])
            objects = self.objects()
            if "seals" in objects:
                conn.execute("delete from seals where game_id = ?", [game_id])
            for table in NOTES_TABLES:
                if table in objects:
                    conn.execute(f"delete from {table} where game_id = ?", [game_id])
            if "forks" in objects:  # its forks stay, as games of their own
                conn.execute("delete from forks where game_id = ? or parent = ?", [game_id, game_id])
            if "seats" in objects:  # a later game of the same id gets no link of this one's
                conn.execute("delete from seats where game_id = ?", [game_id])
            for table in FOLLOW_THEIR_GAME:  # nor its bots and settings
                if table in objects:
                    conn.execute(f"delete from {table} where game_id = ?", [game_id])

    def truncate(
        self, game_id: str, expected_events: int, expected_head: str, keep: int, scores: dict | None, outcome: dict | None
    ) -> None:
        """Drop the events from position ``keep`` on (``undo``), if the log still holds
        ``expected_events`` ending with the event whose hash is ``expected_head`` (the head the undo
        was decided against); the recorded count, head, scores and outcome follow, in one transaction."""
        with self.transaction() as conn:
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
        with self.transaction() as conn:
            if not self.has_game(game_id):
                raise UnknownGameId(f"no game {quoted(game_id)} in {self.path}")
            if self.has_game(new_id):
                raise StoreError(f"a game {quoted(new_id)} already exists in {self.path}")
            conn.execute("update events set game_id = ? where game_id = ?", [new_id, game_id])
            conn.execute("update games set id = ? where id = ?", [new_id, game_id])
            objects = self.objects()
            if "seals" in objects:
                conn.execute("delete from seals where game_id = ?", [game_id])
            if "seats" in objects:  # a seat link names the game's id: renamed, it is made again
                conn.execute("delete from seats where game_id = ?", [game_id])
            for table in FOLLOW_THEIR_GAME:  # a bot stays seated, a setting kept
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
        for r in self.query(f"select {picks} from games order by created, id"):
            row = dict(zip(names, r))
            out.append(row)
            gid = row["id"]
            if not all(isinstance(row[c], str) for c in ("id", "game", "players", "created")) or type(row["events"]) is not int:
                raise CorruptLog(f"game {quoted(str(gid)[:80])}: its games row is not of its type (or over {MAX_TEXT} long)")
            try:
                players = json.loads(row["players"])
                scores = json.loads(row["scores"]) if row["scores"] else None
            except (ValueError, RecursionError, TypeError) as err:
                raise CorruptLog(f"game {quoted(gid)}: its players or scores are not JSON ({json_reason(err)})") from None
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise CorruptLog(f"game {quoted(gid)}: its players are not a list of names")
            if scores is not None and not isinstance(scores, dict):
                raise CorruptLog(f"game {quoted(gid)}: its recorded scores are not a map")
        return out

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
        stored = self.query(sql + " order by seq", params)
        return [self._row(game_id, i, *r) for i, r in enumerate(stored)]

    def unmirrored(self, game_id: str) -> int | None:
        """The position of the game's first row whose browsing columns disagree with its head and
        payload (``data``: the payload as JSON), or None."""
        sql = f"select {_HASHED}, {MIRRORS_SQL} from events where game_id = ? order by seq"
        for position, (head, payload, _, *mirrors) in enumerate(self.query(sql, [game_id])):
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
        count = self.query("select count(*) from games where id between ? and ?", [first, last])
        return int(count[0][0]) if count else 0

    def recorded_event_counts(self) -> dict[str, int]:
        """Each game's event count as its games row records it (unverified: for planning work only)."""
        return {
            gid: n for gid, n in self.query("select id, events from games") if type(gid) is str and type(n) is int
        }

    def recorded_events(self) -> int:
        """The events the games rows record, all told (unverified: for planning work only)."""
        total = self.query("select total(events) from games where typeof(events) = 'integer'")
        return int(total[0][0]) if total else 0

    def orphan_events(self) -> list[tuple[str, int]]:
        """(game id, event count) of events that have no ``games`` row (one deleted behind solrec's back)."""
        return [
            (str(r[0]), int(r[1]))
            for r in self.query(
                "select game_id, count(*) from events where game_id not in (select id from games)"
                " group by game_id order by game_id"
            )
        ]

    def _row(self, game_id: str, position: int, head: Any, payload: Any, digest: Any, time: Any) -> Row:
        """A stored row from its hashed head and payload, its hash and time, or why it is damaged (a
        time that is not text, NULL included, is taken as no time). ``position``: the row's place in
        its game's log, as read."""
        where = f"game {quoted(game_id)} at {at_event(position)}"
        if head is None or payload is None:
            sizes = self.query(
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
        if type(fields) is not list or len(fields) != 6 or not head_types(*fields):
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
    f"case when length({c}) <= {MAX_TEXT} then {c} end, length({c}), typeof({c})" for c in _GAMES_COLUMNS
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
        return f"option {quoted(str(name)[:40])} is {shown}, not text, true/false or a whole number of at most 64 bits"
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
    for i, col in enumerate(_GAMES_COLUMNS):
        value, length, kind = values[3 * i : 3 * i + 3]
        if value is None and kind != "null":
            raise CorruptLog(f"game {quoted(game_id)}: its {col} is {length} long, over the bound of {MAX_TEXT}")
        out[col] = value
    return out


# A Row from a checked tuple of its ten values, without the named tuple's Python-level ``__new__``.
_new_row = tuple.__new__
# A head unpacked with msgpack's defaults (its own limits, strings as text): anything else is refused
# by the types a head's six fields must have.
_unpack_head = msgpack.unpackb


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text")
    return value


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)
