"""What a ``solrec serve`` process keeps between requests (``app.state.server``, as Starlette's own
examples keep their state on the app) and the blocking work done on it: the database, the keys, the
logs of the games being played, the views made of them, the open live streams.

The endpoints (app.py) read a request, call these, and answer; everything here that touches the
database or replays a log is blocking and runs in a worker thread (``blocking``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
from starlette.concurrency import run_in_threadpool

from solrec.core.errors import CorruptLog, SolrecError
from solrec.events.store import ConcurrencyConflict, Store

from . import bots, seats
from .views import View, observed, view

STATIC = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
NOT_FOUND = "no such page: check the link (a seat link works only as it was given)"


class Refused(Exception):
    """An answer other than the page: a status and a one-line reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


@attrs.frozen
class Viewer:
    player: str | None  # None: the referee (or, with ``spectator``, a spectator)
    base: str  # the viewer's address of the game
    csrf: str
    key: str = "referee"  # whose live streams these are (a seat: its game and token)
    spectator: bool = False  # a spectator link: the table's view, read-only


@attrs.define(eq=False)
class Stream:
    """One live stream, counted from the moment its request is answered until its response ends."""

    viewer: str  # whose (the referee, or a game's seat token): the bound is per viewer
    game_id: str
    closed: bool = False  # its viewer opened one too many: it ends at its next wake


@attrs.define(eq=False)
class ServerState:
    """One server's state. ``referee_token``: the referee's secret (the start-up link); besides it,
    the one whose hash the database keeps (``seats.keep_referee_token``: the link survives a
    restart); ``reachable``: the address players reach the server at (``http://HOST:PORT``, when it
    listens beyond loopback), which the seat links carry whatever address the referee used; ``key``:
    the key of the CSRF values and of the versions; ``hosts``: the Host names accepted (None: any);
    live streams: each at most ``live_seconds`` long (the page reconnects), the game's row polled
    every ``poll_seconds``, at most ``live_per_viewer`` per viewer (one more closes that viewer's own
    oldest) and ``max_live`` at once."""

    db: Path
    referee_token: str | None
    key: bytes
    hosts: set[str] | None = None
    live_seconds: float = 600.0
    poll_seconds: float = 0.3
    max_live: int = 256
    live_per_viewer: int = 4
    reachable: str | None = None
    waiters: dict[str, asyncio.Event] = attrs.field(factory=dict)
    # The last log read of each game: read again (and verified) on every request, it is this one
    # when nothing changed, and one with rows appended goes on from this one's states (a long game's
    # next view costs its new events, not a replay from the set-up). The states are shared, so the
    # blocking work runs one request at a time (``serial``): a table's requests are short.
    logs: dict[str, Any] = attrs.field(factory=dict)
    serial: threading.Lock = attrs.field(factory=threading.Lock)
    streams: list[Stream] = attrs.field(factory=list)  # open live streams, oldest first
    known: set[str] = attrs.field(factory=set)  # referee tokens found in the database (kept until --new-referee-link)
    # (game, player, spectator, its row's count and head) -> that viewer's version
    versions: dict[tuple[str, str | None, bool, Any], str | None] = attrs.field(factory=dict)
    static: dict[str, bytes] = attrs.field(factory=lambda: {
        name: resources.files("solrec.server.static").joinpath(name).read_bytes() for name in STATIC})
    # bot seats (bots.py): the runner that plays them (set by ``create_app``), the "hint" button's bot
    runner: Any = None
    hint_bot: str = bots.HINT_BOT

    @classmethod
    def make(cls, db: Path, referee_token: str | None, secret: bytes | None = None, **kwargs: Any) -> ServerState:
        return cls(db, referee_token, secret if secret is not None else secrets.token_bytes(32), **kwargs)

    # -- the database and the keys ---------------------------------------------------------------------
    def store(self, create: bool = False) -> Store:
        return Store(self.db, create=True) if create or not self.db.exists() else Store(self.db)

    def csrf_for(self, kind: str, token: str, game_id: str = "") -> str:
        return hmac.new(self.key, f"{kind}\0{game_id}\0{token}".encode(), hashlib.sha256).hexdigest()

    def referee_token_ok(self, given: str) -> bool:
        if self.referee_token is not None and hmac.compare_digest(given.encode(), self.referee_token.encode()):
            return True
        if given in self.known:
            return True
        if given and self.db.exists() and seats.is_referee_token(self.store(), given):
            self.known.add(given)
            return True
        return False

    async def blocking(self, work: Callable[..., Any], *args: Any) -> Any:
        def serially() -> Any:
            with self.serial:
                return work(*args)

        return await run_in_threadpool(serially)

    # -- logs and views --------------------------------------------------------------------------------
    def load_log(self, game_id: str) -> Any:
        from solrec.replay.log import load

        fresh = load(self.store(), game_id)
        return self.remember(game_id, fresh)

    def remember(self, game_id: str, fresh: Any) -> Any:
        from solrec.replay.log import carry_over

        old = self.logs.pop(game_id, None)
        if old is not None and old == fresh:
            fresh = old
        elif old is not None:
            carry_over(old, fresh)
        if len(self.logs) >= 16:
            self.logs.pop(next(iter(self.logs)))
        self.logs[game_id] = fresh
        return fresh

    def version_of(self, v: View) -> str:
        """The opaque version of what ``v``'s viewer sees (``views.observed``; the referee, who sees
        everything, the head hash): an HMAC under the server's secret, so it can be checked and not
        computed by anyone else, and a seat's depends on nothing it may not see."""
        digest = v.head.encode() if v.player is None and not v.spectator else observed(v)
        data = b"version\0" + f"{v.game_id}\0{v.player or ''}\0{v.position}\0".encode("utf-8", "surrogatepass") + digest
        return hmac.new(self.key, data, hashlib.sha256).hexdigest()[:32]

    def view_for(self, log_: Any, viewer: Viewer, at: int | None = None) -> View:
        """The view of ``viewer``: a spectator's is the table's, a seat's its own, the referee's everything."""
        return view(log_, None, at, table=True) if viewer.spectator else view(log_, viewer.player, at)

    def view_of(self, game_id: str, viewer: Viewer, at: int | None, move: int | None = None) -> View:
        log_ = self.load_log(game_id)
        if move is not None:
            from solrec.replay.log import move_ends

            ends = move_ends(log_)
            if move >= len(ends):
                raise Refused(400, f"move {move} is outside the game (0, the set-up, to {len(ends) - 1})")
            at = ends[move]
        if at is not None and not 0 <= at <= len(log_.rows):
            raise Refused(400, f"position {at} is outside the log (0 to {len(log_.rows)})")
        v = self.view_for(log_, viewer, at)
        # who is a bot, everyone may know; a seat's hint button, where the referee left hints on
        s = self.store()
        seated = bots.bots_of(s, game_id)
        hint = (viewer.player is not None and not viewer.spectator and v.live and v.choices is not None
                and viewer.player not in seated and bots.hints_on(s, game_id) and bots.adapted(log_.header))
        return attrs.evolve(v, version=self.version_of(v), bots=tuple((p, b) for p, (b, _) in seated.items()), hint=hint)

    def checked(self, game_id: str, viewer: Viewer, values: dict[str, str]) -> Any:
        """The log a write is decided on: the position and version the page showed must be the live
        position's for this viewer now, else the position changed (409). The store's head-checked
        write then takes this log's head, so a write landing meanwhile is a conflict as well."""
        at, version = position_of(values)
        log_ = self.load_log(game_id)
        if at != len(log_.rows):
            raise ConcurrencyConflict("the position changed")
        now = self.version_of(self.view_for(log_, viewer))
        if not hmac.compare_digest(version.encode("utf-8", "surrogatepass"), now.encode()):
            raise ConcurrencyConflict("the position changed")
        return log_

    def damaged(self, game_id: str, viewer: Viewer, err: CorruptLog) -> str:
        """What a page shows of a damaged game instead of a board: the referee, validate's verdict; a
        seat, only that it is damaged (the verdict may quote a hidden command)."""
        if viewer.player is not None:
            return "this game's stored data is damaged; the referee's page shows validate's verdict"
        from solrec.replay.validate import validate_stored

        verdict = validate_stored(self.store(), game_id)
        return f"this game's stored data is damaged: {verdict.line()}" if not verdict.ok else str(err)

    # -- live streams ----------------------------------------------------------------------------------
    def notify(self, game_id: str) -> None:
        event = self.waiters.pop(game_id, None)
        if event is not None:
            event.set()
        if self.runner is not None:
            self.runner.poke(game_id)

    # -- bot seats -------------------------------------------------------------------------------------
    def bot_play(self, game_id: str, player: str, command: str, expected: tuple[int, str]) -> int:
        """A bot's move (``bots.BotRunner``), stored as its seat's command against the head it was
        thought at, then marked as the bot's by a comment (replay/marks.py), both before any page
        reads the game again (``serial``)."""
        from solrec.events import notes
        from solrec.replay.marks import BOT_AUTHOR, bot_note_text
        from solrec.workflows.games import play_commands

        with self.serial:
            s = self.store()
            seated = bots.bots_of(s, game_id).get(player)
            if seated is None:
                raise ConcurrencyConflict(f"no bot sits at {player}'s seat now")
            before = self.load_log(game_id)
            steps, after, _, _ = play_commands(s, game_id, [command], actor=player, expected=expected, log=before)
            self.remember(game_id, after)
            end = expected[0] + len(steps[0].events)
            notes.add(s, game_id, end, BOT_AUTHOR, "", bot_note_text(seated[0]))
        return end

    def close(self, slot: Stream) -> None:
        """A stream leaves the count at once; its loop ends at its next wake (woken now)."""
        if not slot.closed:
            slot.closed = True
            self.streams.remove(slot)
            self.notify(slot.game_id)

    def seen_by(self, game_id: str, viewer: Viewer, row: Any) -> str | None:
        """What a seat's stream compares: its version of the live position (None: no such game);
        worked out once per player and stored head, however many of its streams ask."""
        key = (game_id, viewer.player, viewer.spectator, tuple(row))
        if key in self.versions:
            return self.versions[key]
        try:
            log_ = self.load_log(game_id)
            seen: str | None = self.version_of(self.view_for(log_, viewer))
        except CorruptLog:
            return "damaged"
        except SolrecError:
            return None
        if (len(log_.rows), log_.head) == tuple(row):  # kept only for the row it was read at
            self.versions[key] = seen
            if len(self.versions) > 256:
                self.versions.pop(next(iter(self.versions)))
        return seen


def position_of(values: dict[str, str]) -> tuple[int, str]:
    at, version = values.get("at", ""), values.get("version", "")
    if not (at.isascii() and at.isdigit()) or len(at) > 12 or not version:
        raise Refused(400, "the page did not say which position it shows (reload the page)")
    return int(at), version
