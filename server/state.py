"""What a ``solrec serve`` process keeps between requests (``app.state.server``, as Starlette's own
examples keep their state on the app) and the blocking work done on it.

How the server works at once for many tables (docs/architecture.md, "The server at a club's night"):

- **No global lock.** Each game has its own lock (``game_lock``): the requests of one table run one at
  a time (they share that game's log and its states), those of different tables side by side.
- **Reads on their own connections.** Each worker thread reads through a store of its own (``store``),
  kept open: WAL lets them read while the writer writes.
- **One writer, group commit** (``writer.py``): the writes waiting at a moment go to one thread that
  commits them, of any games, in one transaction and one disk sync; a write finding nothing
  committing or waiting is committed by its own thread on its own connection (``store``), the same
  way; a write is answered after its group's ``COMMIT`` returned (it is on disk: killing the server
  loses no acknowledged command).
- **Logs of active games kept** (``logs``, bounded): a request checks a game's stamp (its recorded
  count and head, its last event, its comments' count and head: one indexed read) and reuses the log
  it verified when that is unchanged; a log read again with rows appended goes on from the kept one's
  states. A damaged log is read and refused every time.
- **A view made once** per (game, stamp, viewer kind, position) (``views``) and its fragment's HTML
  once (``fragments``): a seat's page, its version check at a write and its live stream share one.
  A view depends only on the log and on who looks (the referee, a player, the table), so it is the
  same bytes whoever of that kind asks (views.py is the one place a seat's bytes are filtered).
- **Live streams woken in process** (``notify``): a write through this process wakes the streams of
  its game at once, and each finds its viewer's new version and page kept (``prepare``); one poller
  per process (``poll``) reads ``PRAGMA data_version`` every ``quiet_poll_seconds`` (every
  ``poll_seconds`` for ``AWAKE`` seconds after another connection wrote) and, when another connection
  committed (the CLI, another ``--workers`` process, or this process's writer), the rows of the
  watched games only, waking those that changed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
from starlette.concurrency import run_in_threadpool

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.observe import REFEREE, SEAT, TABLE
from solrec.core.observe import Viewer as Seer
from solrec.events.database import ChangeWatch
from solrec.events.store import ConcurrencyConflict, Store

from . import bots, seats
from .views import View, keep_moves, observed, view
from .writer import GroupWriter

STATIC = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
NOT_FOUND = "no such page: check the link (a seat link works only as it was given)"
MAX_LOGS = 1024  # logs of active games kept (a club's night: 256 tables, with room to spare)
AWAKE = 30.0  # seconds the poller keeps its quick pace after finding another connection's write
TABLES = "\0tables"  # what the referee's tables stream waits on (no game's id: ids are printable), woken by any write
MAX_VIEWS = 64  # views kept per game, of its current stamp (each seat's, the referee's, the table's; older positions)


class Refused(Exception):
    """An answer other than the page: a status and a one-line reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


Kind = Seer  # who looks (the core viewer): two callers of one kind see the same bytes


@attrs.frozen
class Caller:
    """Who is asking: the core viewer (``Seer``: the referee, the table through a spectator link, or
    a seat) and the caller's own record: the address of the game it asks through, its CSRF value, its
    streams' key (whose bound they count against: the referee, or a link's game and token) and the
    token it came by (checked again live: ``ServerState.still_lets_in``)."""

    seen: Seer
    base: str  # the caller's address of the game
    csrf: str
    key: str = "referee"
    token: str = ""

    @classmethod
    def of(cls, seen: Seer) -> Caller:
        """A caller of that kind with no address (the pages the server makes for a kind of viewer)."""
        return cls(seen, "", "")

    @property
    def player(self) -> str | None:
        """The seat's player (None: the referee, or a spectator)."""
        return self.seen.name if self.seen.kind == SEAT else None

    @property
    def spectator(self) -> bool:
        return self.seen.kind == TABLE

    @property
    def referee(self) -> bool:
        return self.seen.kind == REFEREE

    @property
    def kind(self) -> Kind:
        """Whose view it sees: two callers of one kind see the same bytes."""
        return self.seen


@attrs.frozen
class Fragment:
    """A view's fragment as a page fetches it and a stream sends it: its HTML and the version it shows
    (None: a reason shown instead of a position), kept together so no one reads a version back out of
    the HTML."""

    html: str
    version: str | None


@attrs.define(eq=False)
class KeptView:
    """A view kept for a game's stamp, with its fragment once drawn (``ServerState.fragment_of``)."""

    view: View
    html: str | None = None


@attrs.define(eq=False)
class GameViews:
    """A game's kept views, all of one stamp (a change drops them): (viewer kind, position[, what the
    page shows besides]) -> the view."""

    stamp: tuple
    views: dict[tuple, KeptView] = attrs.field(factory=dict)


@attrs.define(eq=False)
class LivePosition:
    """A game's live position as its streams find it without a worker thread: its row (count, head),
    each viewer kind's version there, and each kind's fragment as the play that made it drew it."""

    row: tuple[int, str]
    versions: dict[Kind, str] = attrs.field(factory=dict)
    fragments: dict[Kind, Fragment] = attrs.field(factory=dict)


class ViewCache:
    """Each game's ``LivePosition`` (the most recently used ``most``), under its own lock: what a
    seat's live stream compares (a version) and sends (a fragment with its version)."""

    def __init__(self, most: int):
        self.games = Bounded(most)
        self.lock = threading.Lock()

    def keep_version(self, game_id: str, row: tuple[int, str], kind: Kind, version: str) -> None:
        with self.lock:
            kept = self.games.get_fresh(game_id)
            if kept is None or kept.row != row:
                kept = LivePosition(row)
                self.games.put(game_id, kept)
            kept.versions[kind] = version

    def keep_fragment(self, game_id: str, row: tuple[int, str], kind: Kind, fragment: Fragment) -> None:
        with self.lock:
            kept = self.games.get(game_id)
            if kept is not None and kept.row == row:
                kept.fragments[kind] = fragment

    def version(self, game_id: str, row: Any, kind: Kind) -> str | None:
        with self.lock:
            kept = self.games.get(game_id)
            return kept.versions.get(kind) if kept is not None and kept.row == row else None

    def fragment(self, game_id: str, row: Any, kind: Kind) -> Fragment | None:
        with self.lock:
            kept = self.games.get(game_id)
            return kept.fragments.get(kind) if kept is not None and kept.row == row else None


@attrs.define(eq=False)
class Stream:
    """One live stream, counted from the moment its request is answered until its response ends."""

    viewer: str  # whose (the referee, or a game's seat token): the bound is per viewer
    game_id: str
    closed: bool = False  # its viewer opened one too many: it ends at its next wake
    kind: Kind | None = None  # a seat's or a spectator's viewer kind (its version is compared)
    answered: str | None = None  # the version its viewer's command was just answered with (``view=1``): not sent again


class Bounded(OrderedDict):
    """A dict keeping its ``most`` most recently used entries (used under ``ServerState.cache``)."""

    def __init__(self, most: int):
        super().__init__()
        self.most = most

    def get_fresh(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.most:
            self.popitem(last=False)


@attrs.define(eq=False)
class ServerState:
    """One server's state. ``referee_token``: the referee's secret (the start-up link); besides it,
    the one whose hash the database keeps (``seats.keep_referee_token``: the link survives a
    restart); ``reachable``: the address players reach the server at (``http://HOST:PORT``, when it
    listens beyond loopback), which the seat links carry whatever address the referee used; ``key``:
    the key of the CSRF values and of the versions; ``hosts``: the Host names accepted (None: any);
    live streams: each at most ``live_seconds`` long (the page reconnects), changes made by other
    connections looked for every ``poll_seconds``, at most ``live_per_viewer`` per viewer (a desk of
    pages, a family's phones on one spectator link; one more is refused on its page, never another of
    the viewer's pages closed) and ``max_live`` at once (a club's night: 256 tables of 2 seats,
    with the referee's and the spectators' besides)."""

    db: Path
    referee_token: str | None
    key: bytes
    hosts: set[str] | None = None
    live_seconds: float = 600.0
    poll_seconds: float = 0.3
    quiet_poll_seconds: float = 1.0  # the poller's pace while no other connection has written for ``AWAKE`` seconds
    max_live: int = 1024
    live_per_viewer: int = 64
    reachable: str | None = None
    worker: str | None = None  # with ``--workers``: this process's name, said in a header (tests, bench/)
    _referee_cookie: str | None = attrs.field(default=None, init=False)
    local: threading.local = attrs.field(factory=threading.local)  # each thread's store
    writer: GroupWriter = attrs.field(init=False)
    locks: dict[str, threading.Lock] = attrs.field(factory=dict)  # game -> its lock
    cache: threading.Lock = attrs.field(factory=threading.Lock)  # guards the dicts below (held for dict work only)
    logs: Bounded = attrs.field(factory=lambda: Bounded(MAX_LOGS))  # game -> (stamp, verified log)
    # game -> its ``GameViews``: a game's views of its current stamp only (a change drops the others),
    # so memory follows the games, not the plays
    views: Bounded = attrs.field(factory=lambda: Bounded(MAX_LOGS))
    # game -> its ``LivePosition``: what a seat's live stream compares and sends, found without a
    # worker thread (``kept_version``, ``kept_page``)
    versions: ViewCache = attrs.field(factory=lambda: ViewCache(MAX_LOGS))
    # live updates: the streams waiting on each game, the last row seen of each watched game
    # game -> {event loop: the event its streams of that game wait on} (one loop under uvicorn; a
    # test client may run requests on several)
    waiters: dict[str, dict[asyncio.AbstractEventLoop, asyncio.Event]] = attrs.field(factory=dict)
    heads: dict[str, Any] = attrs.field(factory=dict)
    poller: asyncio.Task | None = None
    others_wrote: float = -float("inf")  # when the poller last found a change not made through this process (loop time)
    recheck: bool = False  # a stream started from a row read beside a write: the poller reads the rows at its next turn
    streams: list[Stream] = attrs.field(factory=list)  # open live streams, oldest first
    # revocation (a link's token made anew or revoked, a bot seated in a person's place, the referee's
    # link made anew): game -> a mark that moves at each (``""``: the referee's link, every game's);
    # a stream checks its viewer again before its next event whenever the marks it last checked moved
    marks: dict[str, int] = attrs.field(factory=dict)
    keys_seen: dict[str, Any] = attrs.field(factory=dict)  # game -> its links and bots as the poller last read them
    static: dict[str, bytes] = attrs.field(factory=lambda: {
        name: resources.files("solrec.server.static").joinpath(name).read_bytes() for name in STATIC})
    # bot seats (bots.py): the runner that plays them (set by ``create_app``), the "hint" button's bot
    runner: Any = None
    hint_bot: str = bots.HINT_BOT

    def __attrs_post_init__(self) -> None:
        from solrec.replay.log import keep_replays

        self.writer = GroupWriter(self.db, on_store=self._writer_store, thread_store=self.store)
        keep_replays(MAX_LOGS)
        keep_moves(4 * MAX_LOGS)  # each kept game's seats, its referee and its table

    @classmethod
    def make(cls, db: Path, referee_token: str | None, secret: bytes | None = None, **kwargs: Any) -> ServerState:
        return cls(db, referee_token, secret if secret is not None else secrets.token_bytes(32), **kwargs)

    # -- the database and the keys ---------------------------------------------------------------------
    def store(self, create: bool = False) -> Store:
        """This thread's store (its own connection, kept open: reads see every commit as it lands).
        A file not made yet, or one an older solrec wrote (read through a private migrated copy until
        a write migrates it), is opened afresh each time."""
        kept = getattr(self.local, "store", None)
        if kept is not None:
            return kept
        store = Store(self.db, create=True)
        if store.exists and store.older_schema is None:
            self.local.store = store
        return store

    def _writer_store(self, store: Store) -> None:
        self.local.store = store  # the writer thread reads inside its own transaction

    def csrf_for(self, kind: str, token: str, game_id: str = "") -> str:
        return hmac.new(self.key, f"{kind}\0{game_id}\0{token}".encode(), hashlib.sha256).hexdigest()

    def referee_cookie(self) -> str:
        """The referee's cookie's name (``seats.referee_cookie``): from the start-up link when there is
        one, else from the link the database keeps; every process of one server names it alike."""
        name = self._referee_cookie
        if name is None:
            kept = seats.token_hash(self.referee_token) if self.referee_token is not None else (
                seats.referee_hash(self.store()) if self.db.exists() else None)
            if kept is None:
                return seats.referee_cookie("")  # no referee link at all: a name no token matches
            name = self._referee_cookie = seats.referee_cookie(kept)
        return name

    def referee_token_ok(self, given: str) -> bool:
        """Whether ``given`` is the referee's token now: the one whose hash the database keeps (read at
        each asking, one keyed row: a ``--new-referee-link`` made by another process stops the old link
        here too), or, in a file that keeps none, the start-up one."""
        if not given:
            return False
        kept = seats.referee_hash(self.store()) if self.db.exists() else None
        if kept is not None:
            return hmac.compare_digest(kept, seats.token_hash(given))
        return self.referee_token is not None and hmac.compare_digest(given.encode(), self.referee_token.encode())

    def game_lock(self, game_id: str) -> threading.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            with self.cache:
                lock = self.locks.setdefault(game_id, threading.Lock())
        return lock

    async def blocking(self, work: Callable[..., Any], *args: Any, game: str | None = None) -> Any:
        """``work(*args)`` in a worker thread; with ``game``, under that game's lock (its log and
        states are shared by its requests), never under another game's."""
        if game is None:
            return await run_in_threadpool(work, *args)

        def locked() -> Any:
            with self.game_lock(game):
                return work(*args)

        return await run_in_threadpool(locked)

    def write(self, work: Callable[[Store], Any]) -> Any:
        """``work(store)`` through the writer: committed (on disk) when this returns, or raised."""
        return self.writer.write(work)

    # -- logs and views --------------------------------------------------------------------------------
    def stamp(self, game_id: str, store: Store | None = None) -> tuple | None:
        """What a kept log is checked against: the game's recorded count and head, its last event's
        position and hash, its comments' recorded count and head (None: no such game)."""
        store = store or self.store()
        if not store.exists:
            return None
        try:
            with store.snapshot():
                row = store.conn.execute(
                    "select g.events, g.head, e.seq, e.hash from games g left join "
                    "(select seq, hash from events where game_id = ?1 order by seq desc limit 1) e where g.id = ?1",
                    [game_id]).fetchone()
                notes = store.conn.execute("select notes, head from note_heads where game_id = ?", [game_id]).fetchone() \
                    if self._has_notes(store) else None
        except sqlite3.Error:
            return ("unreadable",)  # read again, the ordinary way, which says what is wrong
        return None if row is None else (*row, *(notes or (None, None)))

    @staticmethod
    def _has_notes(store: Store) -> bool:
        return store.has_table("notes")

    @staticmethod
    def stamp_of(log: Any) -> tuple | None:
        rec = log.recorded
        if rec is None:
            return None
        last = log.rows[-1] if log.rows else None
        notes = log.notes.recorded or (None, None)
        return (rec["events"], rec["head"], last.seq if last else None, last.hash if last else None, *notes)

    def load_log(self, game_id: str) -> Any:
        """The game's verified log: the kept one while its stamp is unchanged, else read (and
        verified) again, going on from the kept one's states. Under the game's lock."""
        from solrec.replay.log import carry_over, load

        stamp = self.stamp(game_id)
        with self.cache:
            kept = self.logs.get_fresh(game_id)
        if kept is not None and stamp is not None and kept[0] == stamp:
            return kept[1]
        fresh = load(self.store(), game_id)
        if kept is not None:
            carry_over(kept[1], fresh)
        self.remember(game_id, fresh)
        return fresh

    def remember(self, game_id: str, log: Any) -> None:
        stamp = self.stamp_of(log)
        if stamp is None:
            return
        with self.cache:
            self.logs.put(game_id, (stamp, log))

    def version_of(self, v: View) -> str:
        """The opaque version of what ``v``'s viewer sees (``views.observed``; the referee, who sees
        everything, the head hash): an HMAC under the server's secret, so it can be checked and not
        computed by anyone else, and a seat's depends on nothing it may not see."""
        digest = v.head.encode() if v.referee else observed(v)
        data = b"version\0" + f"{v.game_id}\0{v.player or ''}\0{v.position}\0".encode("utf-8", "surrogatepass") + digest
        return hmac.new(self.key, data, hashlib.sha256).hexdigest()[:32]

    def view_for(self, log_: Any, viewer: Caller, at: int | None = None,
                 table: tuple[tuple[tuple[str, str], ...], bool] = ((), False)) -> View:
        """The view of ``viewer`` (a spectator's is the table's, a seat's its own, the referee's
        everything) with its version; made once per log stamp, viewer kind and position. ``table``:
        the bots seated (player, bot) and whether this seat may ask for hints (``view_of``), which
        a page shows and its version does not depend on."""
        if table != ((), False):  # the viewer's view (made once), then the page's, kept beside it
            base = self.view_for(log_, viewer, at)
            return self._kept(log_, (viewer.kind, base.position, table), lambda: attrs.evolve(
                base, bots=table[0], hint=table[1] and base.live and base.choices is not None))

        def make() -> View:
            v = view(log_, viewer.seen, at)
            v = attrs.evolve(v, version=self.version_of(v))
            if v.live and log_.recorded is not None:
                self._keep_version(log_, viewer.kind, v.version)
            return v

        return self._kept(log_, (viewer.kind, len(log_.rows) if at is None else at), make)

    def _keep_version(self, log_: Any, kind: Kind, version: str) -> None:
        self.versions.keep_version(log_.game_id, (len(log_.rows), log_.head), kind, version)

    def kept_page(self, game_id: str, row: Any, kind: Kind) -> Fragment | None:
        """The live fragment a play made for ``kind`` at ``row`` (its count and head), with its
        version, if any: read with no query at all, as ``kept_version`` (a stream woken by that play
        sends it)."""
        return self.versions.fragment(game_id, row, kind)

    def kept_version(self, game_id: str, row: Any, kind: Kind) -> str | None:
        """The version of ``kind``'s view of the game at ``row`` (its count and head), if one was made:
        a log is the same rows wherever its head is the same (the hash chain), and a version depends on
        nothing else (``views.observed``: the header, the rows and who looks), so a stream woken with
        that row says what ``seen_by`` would say of it without reading the file in a worker thread."""
        return self.versions.version(game_id, row, kind)

    def prepare(self, log_: Any, mover: Caller | None = None) -> Fragment | None:
        """The pages of a new live position for the seats (and the table) watching the game here,
        made in the write's own thread before its streams are woken: each stream then finds its
        version kept (``kept_version``) and each seat's fetch its page (``kept_fragment``), with no
        worker thread of their own to wait for. With ``mover``, its page too, returned (the answer to
        its command, when its page asks for it: ``view=1``); None when it could not be made."""
        kinds = {s.kind for s in self.streams if s.game_id == log_.game_id and s.kind is not None}
        if mover is not None:
            kinds.add(mover.kind)
        store = self.store()
        seated, hints = bots.bots_of(store, log_.game_id), None  # read once for every page made
        shown = None
        for seen in kinds:
            viewer = Caller.of(seen)
            if hints is None and viewer.player is not None and viewer.player not in seated:
                hints = bots.hints_on(store, log_.game_id)
            try:
                v = self.view_for(log_, viewer, None, self.table_of(store, log_, viewer, seated, hints))
                made = Fragment(self.fragment_of(v), v.version)
            except SolrecError:
                return None  # the play is stored: its answer stands, and each stream reads the game itself
            self.versions.keep_fragment(log_.game_id, (len(log_.rows), log_.head), seen, made)
            if mover is not None and seen == mover.kind:
                shown = made
        return shown

    def _kept(self, log_: Any, key: tuple, make: Callable[[], View]) -> View:
        """The view kept under ``key`` for the log's stamp, else ``make()``'s, kept."""
        stamp = self.stamp_of(log_)
        if stamp is not None:
            with self.cache:
                kept = self.views.get_fresh(log_.game_id)
                found = kept.views.get(key) if kept is not None and kept.stamp == stamp else None
            if found is not None:
                return found.view
        v = make()
        if stamp is not None:
            with self.cache:
                kept = self.views.get_fresh(log_.game_id)
                if kept is None or kept.stamp != stamp or len(kept.views) >= MAX_VIEWS:
                    kept = GameViews(stamp)
                    self.views.put(log_.game_id, kept)
                kept.views[key] = KeptView(v)
        return v

    def fragment_of(self, v: View) -> str:
        """The fragment's HTML of a view, made once per view (a seat's board is drawn once per position)."""
        from . import pages

        with self.cache:
            kept = self.views.get(v.game_id)
            found = next((e for e in kept.views.values() if e.view is v), None) if kept is not None else None
            if found is not None and found.html is not None:
                return found.html
        html = pages.fragment(v)
        if found is not None:
            found.html = html
        return html

    def view_of(self, game_id: str, viewer: Caller, at: int | None, move: int | None = None) -> View:
        log_ = self.load_log(game_id)
        if move is not None:
            from solrec.replay.log import move_ends

            ends = move_ends(log_)
            if move >= len(ends):
                raise Refused(400, f"move {move} is outside the game (0, the set-up, to {len(ends) - 1})")
            at = ends[move]
        if at is not None and not 0 <= at <= len(log_.rows):
            raise Refused(400, f"position {at} is outside the log (0 to {len(log_.rows)})")
        return self.view_for(log_, viewer, at, self.table_of(self.store(), log_, viewer))

    @staticmethod
    def table_of(store: Store, log_: Any, viewer: Caller, seated: dict[str, tuple[str, int]] | None = None,
                 hints: bool | None = None) -> tuple[tuple[tuple[str, str], ...], bool]:
        """What a page shows besides the view: the bots seated (player, bot: everyone may know who
        is a bot) and whether the seat has a hint button (the referee left hints on). ``seated`` and
        ``hints``: the game's bots and hint switch, when already read."""
        if seated is None:
            seated = bots.bots_of(store, log_.game_id)
        hint = (viewer.player is not None and viewer.player not in seated
                and (hints if hints is not None else bots.hints_on(store, log_.game_id)) and bots.adapted(log_.header))
        return tuple((p, b) for p, (b, _) in seated.items()), hint

    # -- a kept page without a worker thread -----------------------------------------------------------
    def quick_store(self) -> Store | None:
        """The event loop's own connection, for ``kept_fragment``'s reads: it never waits for a lock
        (busy_timeout 0: a busy file sends the request the ordinary way). None: no file to read yet."""
        kept = getattr(self.local, "quick", None)
        if kept is None:
            if not self.db.exists():
                return None
            kept = Store(self.db)
            if not kept.exists or kept.older_schema is not None:
                return None
            kept.conn.execute("PRAGMA busy_timeout = 0")
            self.local.quick = kept
        return kept

    def asking_store(self) -> Store | None:
        """The bot runner's question whether any game has bots (``BotRunner.poke``, at each write):
        through the event loop's kept connection when asked there, else None (it opens one)."""
        kept: Store | None = getattr(self.local, "quick", None)
        return kept

    def kept_fragment(self, game_id: str, player: str) -> Fragment | None:
        """The live fragment of ``player``'s seat when all of it is kept for the game's current stamp
        (``prepare`` keeps it after a play), read on the event loop: one hop to a worker thread cost
        about as much CPU as the kept page, and a seat fetches its page after every command. It reads
        what ``view_of`` reads (the stamp, the bots, the hint switch) and makes nothing: None when
        anything is missing or the file is busy (then the request goes the ordinary way)."""
        store = self.quick_store()
        if store is None:
            return None
        try:
            stamp = self.stamp(game_id, store)
            with self.cache:
                kept = self.logs.get(game_id)
            if stamp is None or kept is None or kept[0] != stamp:
                return None
            log_ = kept[1]
            table = self.table_of(store, log_, Caller.of(Seer.seat(player)))
        except (sqlite3.Error, SolrecError):
            return None
        with self.cache:
            views = self.views.get(game_id)
            if views is None or views.stamp != stamp:
                return None
            found = views.views.get((Seer.seat(player), len(log_.rows), table))
            return Fragment(found.html, found.view.version) if found is not None and found.html is not None else None

    def as_stored(self, log_: Any) -> Any:
        """``log_`` (the kept log a write is about to be decided on) if the game's stored rows are still
        the ones it holds, every hashed field and mirror compared (one indexed read of the game's rows,
        no hashing): a payload edited in place or a row deleted behind the server's back leaves the
        games row and the last event as they were, so the kept log's stamp cannot see it. Otherwise
        the game is read and verified again as the command line reads it: a damaged log raises its
        ``CorruptLog`` (the write is refused with the stored-data verdict) and is kept no more; one
        changed soundly meanwhile (a write racing this one) is a conflict."""
        from solrec.replay.log import load

        stored = self.store().conn.execute(
            "select seq, step, actor, command, type, version, payload, hash, head from events where game_id = ? "
            "order by seq", [log_.game_id]).fetchall()
        if len(stored) == len(log_.rows) and all(a == b[:9] for a, b in zip(stored, log_.rows, strict=True)):
            return log_
        with self.cache:
            self.logs.pop(log_.game_id, None)
            self.views.pop(log_.game_id, None)
        fresh = load(self.store(), log_.game_id)  # raises CorruptLog with the command line's verdict
        self.remember(log_.game_id, fresh)
        raise ConcurrencyConflict("the position changed")

    def checked(self, game_id: str, viewer: Caller, values: dict[str, str]) -> Any:
        """The log a write is decided on: the position and version the page showed must be the live
        position's for this viewer now, else the position changed (409); and the stored rows must be
        the kept log's (``as_stored``). The store's head-checked write then takes this log's head, so
        a write landing meanwhile is a conflict as well."""
        at, version = position_of(values)
        log_ = self.as_stored(self.load_log(game_id))
        if at != len(log_.rows):
            raise ConcurrencyConflict("the position changed")
        now = self.view_for(log_, viewer).version
        if not hmac.compare_digest(version.encode("utf-8", "surrogatepass"), now.encode()):
            raise ConcurrencyConflict("the position changed")
        return log_

    def damaged(self, game_id: str, viewer: Caller, err: CorruptLog) -> str:
        """What a page shows of a damaged game instead of a board: the referee, validate's verdict; a
        seat, only that it is damaged (the verdict may quote a hidden command)."""
        if viewer.player is not None:
            return "this game's stored data is damaged; the referee's page shows validate's verdict"
        from solrec.replay.validate import validate_stored

        verdict = validate_stored(self.store(), game_id)
        return f"this game's stored data is damaged: {verdict.line()}" if not verdict.ok else str(err)

    # -- live streams ----------------------------------------------------------------------------------
    def notify(self, game_id: str, row: Any = None) -> None:
        """Wake the streams of ``game_id`` (on the event loop): ``row`` its games row (count, head) as
        just written, or None: they read it again."""
        if row is None:
            self.heads.pop(game_id, None)
        else:
            self.heads[game_id] = row
        self.wake(game_id)
        self.wake(TABLES)
        if self.runner is not None:
            self.runner.poke(game_id)  # a bot may be to act now

    def waiting(self, game_id: str) -> asyncio.Event:
        """The event a stream of ``game_id`` waits on (in the running event loop)."""
        loop = asyncio.get_running_loop()
        return self.waiters.setdefault(game_id, {}).setdefault(loop, asyncio.Event())

    def wake(self, game_id: str) -> None:
        """Wake every stream of ``game_id``, in whichever event loop it waits."""
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for loop, event in self.waiters.pop(game_id, {}).items():
            if loop is here:
                event.set()
            elif not loop.is_closed():
                loop.call_soon_threadsafe(event.set)

    # -- revocation ------------------------------------------------------------------------------------
    def mark_of(self, game_id: str) -> tuple[int, int]:
        """What a stream of ``game_id`` compares before each event: its game's mark and the referee's."""
        return self.marks.get(game_id, 0), self.marks.get("", 0)

    def revoke(self, game_id: str) -> None:
        """Links of ``game_id`` (``""``: the referee's) may have stopped working: its streams (every
        stream, for the referee's) check their viewer again before their next event (on the event loop)."""
        self.marks[game_id] = self.marks.get(game_id, 0) + 1
        for gid in {s.game_id for s in self.streams} if game_id == "" else {game_id}:
            self.wake(gid)

    def still_lets_in(self, game_id: str, viewer: Caller) -> bool:
        """Whether the token ``viewer`` was let in by still opens this game's page as that viewer (a
        blocking read): a seat's link not made anew nor its seat given to a bot, a spectator link not
        revoked, the referee's link not made anew."""
        if not self.db.exists():
            return False
        store = self.store()
        if viewer.referee:
            return self.referee_token_ok(viewer.token)
        if viewer.spectator:
            return seats.is_spectator(store, game_id, viewer.token)
        return seats.seat_of(store, game_id, viewer.token) == viewer.player

    def keys_changed(self, found: dict[str, list]) -> None:
        """The poller's look at the links and bots of the watched games and at the referee's link
        (``ChangeWatch.links``, read only when another connection committed): a game whose rows differ
        from the last look (or that had none) is ``revoke``d, so a revocation by another process
        (``--workers``, the CLI, a second server) ends the streams held here at the poller's pace."""
        for gid, rows in found.items():
            now = sorted(rows, key=repr)
            if self.keys_seen.get(gid) != now:
                self.keys_seen[gid] = now
                self.revoke(gid)
        for gid in set(self.keys_seen) - set(found):
            del self.keys_seen[gid]

    # -- bot seats -------------------------------------------------------------------------------------
    def bot_play(self, game_id: str, player: str, command: str, expected: tuple[int, str]) -> int:
        """A bot's move (``bots.BotRunner``, in its thread), decided on the kept log under the game's
        lock and stored through the writer as its seat's command against the head it was thought at,
        then marked as the bot's by a comment (replay/marks.py); its streams woken."""
        from solrec.events import notes
        from solrec.replay.log import Log, carry_over
        from solrec.replay.marks import BOT_AUTHOR, bot_note_text
        from solrec.workflows.games import decide_commands

        with self.game_lock(game_id):
            s = self.store()
            seated = bots.bots_of(s, game_id).get(player)
            if seated is None:
                raise ConcurrencyConflict(f"no bot sits at {player}'s seat now")
            before = self.as_stored(self.load_log(game_id))
            played = decide_commands(before, [command], actor=player, expected=expected)
            end = expected[0] + len(played.steps[0].events)

            def move_and_mark(store: Store) -> Log:  # one write: never a bot's move stored unmarked
                log = played.append(store)
                notes.add(store, game_id, end, BOT_AUTHOR, "", bot_note_text(seated[0]))
                return log

            after = self.write(move_and_mark)
            carry_over(before, after)
            self.remember(game_id, after)
        self.notify(game_id)
        return end

    def close(self, slot: Stream) -> None:
        """A stream leaves the count at once; its loop ends at its next wake (woken now)."""
        if not slot.closed:
            slot.closed = True
            self.streams.remove(slot)
            self.wake(slot.game_id)

    def row_of(self, game_id: str) -> Any:
        """The games row (count, head) of a game, read (in a worker thread); None: no such game."""
        store = self.store()
        if not store.exists:
            return None
        try:
            found = store.conn.execute("select events, head from games where id = ?", [game_id]).fetchone()
        except sqlite3.Error:
            return False  # busy or briefly unreadable: asked again at the next change
        return None if found is None else tuple(found)

    def seen_by(self, game_id: str, viewer: Caller) -> str | None:
        """What a seat's stream compares: its version of the live position (None: no such game)."""
        try:
            return self.view_for(self.load_log(game_id), viewer).version
        except CorruptLog:
            return "damaged"
        except SolrecError:
            return None

    def watch(self) -> None:
        """Start this process's poller (on the event loop, once)."""
        loop = asyncio.get_running_loop()
        if self.poller is None or self.poller.done() or self.poller.get_loop() is not loop:
            self.poller = loop.create_task(self.poll())

    def poll_interval(self, now: float) -> float:
        """How long the poller sleeps: ``poll_seconds`` while another connection is writing (it wrote
        in the last ``AWAKE`` seconds) or a stream asked for a look (``recheck``), else
        ``quiet_poll_seconds``. This process's own writes wake their streams at once; the poller is
        for the others' (the CLI, another ``--workers`` process), and each turn of it wakes the
        process, which on this machine costs about as much CPU as a small request."""
        if self.recheck or now - self.others_wrote < AWAKE:
            return self.poll_seconds
        return max(self.poll_seconds, self.quiet_poll_seconds)

    async def poll(self) -> None:
        """Changes made by other connections, every ``poll_interval`` while streams are open: ``PRAGMA
        data_version`` (a number that moves when another connection commits; free to read), then the
        rows of the watched games only. Runs on the event loop and never waits for a lock (a busy file
        is asked again at the next poll)."""
        conn = ChangeWatch(self.db)  # its own read-only connection, never waiting for a lock
        version = None
        loop = asyncio.get_running_loop()
        try:
            while self.streams:
                turn = loop.time()
                await asyncio.sleep(aligned(turn, self.poll_interval(turn)))
                now = conn.version()
                if now is None or (now == version and not self.recheck):
                    continue
                self.recheck = False
                watched = list({s.game_id for s in self.streams})
                rows = conn.heads(watched)
                links = conn.links(watched)
                if rows is None or links is None:
                    continue
                self.keys_changed(links)
                version = now
                self.wake(TABLES)  # another connection committed: the tables page looks again
                for gid in watched:
                    row = rows.get(gid)
                    if self.heads.get(gid, False) != row:  # not this process's write (``notify`` keeps those)
                        self.heads[gid] = row
                        self.others_wrote = loop.time()
                        self.wake(gid)
                for gid in set(self.heads) - set(watched):  # kept only while watched (then kept fresh)
                    del self.heads[gid]
        finally:
            conn.close()
            self.heads.clear()  # nothing keeps them fresh now: a stream reads its game's row
            self.keys_seen.clear()


def aligned(now: float, period: float) -> float:
    """The time from ``now`` to the next multiple of ``period`` on the loop's clock: the process's
    periodic turns (the poller's, the main loop's: ``running.py``) fall due together, one wake of
    the process where there would be two (on this machine a wake costs about what a small request
    does)."""
    left = period - now % period
    return left if left > period / 100 else left + period


def position_of(values: dict[str, str]) -> tuple[int, str]:
    at, version = values.get("at", ""), values.get("version", "")
    if not (at.isascii() and at.isdigit()) or len(at) > 12 or not version:
        raise Refused(400, "the page did not say which position it shows (reload the page)")
    return int(at), version
