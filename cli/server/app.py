"""The ``solrec serve`` web app (Starlette): pages, their fragments, live updates, and the writes.

Who may see what (docs/security.md): every page needs a token. The referee's token (made at
start-up, printed once as a link) is kept in an HttpOnly, SameSite=Strict cookie; a seat's token is
in its link ``/g/ID/seat/TOKEN`` (the database keeps only its hash, ``seats.py``). A wrong token, a
revoked one and an unknown game all get the same 404 page. What a viewer sees is made in one place
(``views.view``).

Writes (a command, a take-back, a comment, a fork) are POSTs carrying the position and the version
the page showed and a CSRF value (an HMAC of the server's secret and the viewer's token). A version is
opaque: an HMAC under the server's secret of the game, the viewer, the position and a digest of what
that viewer has observed up to there (``views.observed``; the referee's, of the head hash), so no
value a seat receives depends on what it may not see (the head hash is a hash of the seed and of
every hidden draw: an oracle for both). The server recomputes the version from the current log for
that viewer, and then decides and stores the write through the store's head-checked write before the
answer, so an acknowledged command is committed (killing the server loses none) and two devices
playing at once store one command (the other gets 409, "the position changed"). A refusal is 400 with
its one-line reason; nothing is stored.

Live updates are Server-Sent Events carrying only the new position number; the page then fetches
its own (filtered) view. The stream polls the game's row (a command played from the CLI shows too)
and wakes at once on a write through this server; a seat's stream speaks only when that seat's
version changes. Streams are bounded per viewer (a few; one more closes that viewer's own oldest),
in number overall, and in lifetime.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solrec.core.errors import CorruptLog, SolrecError
from solrec.events.store import ConcurrencyConflict, Store, _uri_path

from ..guard import one_line
from . import bots, pages, seats
from .views import View, observed, view

log = logging.getLogger("solrec.serve")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a seat's token is in its address
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
MAX_COMMAND = 2000  # characters of a typed command
MAX_NOTE = 4000
STATIC = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}


class SecurityHeaders:
    """Every response carries the CSP and the other headers; pages are not cached (they hold tokens
    and hidden information)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in {k for k, _ in SECURITY_HEADERS}]
                headers += SECURITY_HEADERS
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


@attrs.frozen
class Viewer:
    player: str | None  # None: the referee (or, with ``spectator``, a spectator)
    base: str  # the viewer's address of the game
    csrf: str
    key: str = "referee"  # whose live streams these are (a seat: its game and token)
    spectator: bool = False  # a spectator link: the table's view, read-only


class Refused(Exception):
    """An answer other than the page: a status and a one-line reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


NOT_FOUND = "no such page: check the link (a seat link works only as it was given)"


@attrs.define(eq=False)
class Stream:
    """One live stream, counted from the moment its request is answered until its response ends."""

    viewer: str  # whose (the referee, or a game's seat token): the bound is per viewer
    game_id: str
    closed: bool = False  # its viewer opened one too many: it ends at its next wake


def create_app(
    db: Path, referee_token: str | None, secret: bytes | None = None, *, hosts: set[str] | None = None,
    live_seconds: float = 600.0, poll_seconds: float = 0.3, max_live: int = 256, live_per_viewer: int = 4,
    reachable: str | None = None, bot_workers: int = 1, bot_processes: bool = True, bot_poll: float = 1.0,
    hint_bot: str = bots.HINT_BOT,
) -> ASGIApp:
    """The app on the database ``db``. ``referee_token``: the referee's secret (the start-up link);
    besides it, the one whose hash the database keeps (``seats.keep_referee_token``: the link
    survives a restart); ``reachable``: the address players reach the server at (``http://HOST:PORT``,
    when it listens beyond loopback), which the seat links carry whatever address the referee used;
    ``secret``: the key of the CSRF values and of the versions (random by default); ``hosts``: the
    Host names accepted (None: any; a loopback server accepts only loopback names, against DNS
    rebinding); live streams: each at most ``live_seconds`` long (the page reconnects), the game's
    row polled every ``poll_seconds``, at most ``live_per_viewer`` per viewer (one more closes that
    viewer's own oldest) and ``max_live`` at once. Bot seats (``bots.py``): their moves and the
    seats' hints thought by ``bot_workers`` worker processes (threads without ``bot_processes``), the
    games with bots looked at every ``bot_poll`` seconds besides every write; ``hint_bot``: the bot
    of the "hint" button."""
    key = secret if secret is not None else secrets.token_bytes(32)
    waiters: dict[str, asyncio.Event] = {}
    # The last log read of each game: read again (and verified) on every request, it is this one
    # when nothing changed, and one with rows appended goes on from this one's states (a long game's
    # next view costs its new events, not a replay from the set-up). The states are shared, so the
    # blocking work runs one request at a time (``serial``): a table's requests are short.
    logs: dict[str, Any] = {}
    serial = threading.Lock()
    streams: list[Stream] = []  # open live streams, oldest first
    static = {name: resources.files("solrec.cli.server.static").joinpath(name).read_bytes() for name in STATIC}

    def csrf_for(kind: str, token: str, game_id: str = "") -> str:
        return hmac.new(key, f"{kind}\0{game_id}\0{token}".encode(), hashlib.sha256).hexdigest()

    def store(create: bool = False) -> Store:
        return Store(db, create=True) if create or not db.exists() else Store(db)

    def cookie_name(request: Request) -> str:
        return f"solrec_referee_{request.url.port or 80}"

    known: set[str] = set()  # referee tokens found in the database (kept until --new-referee-link restarts it)

    def referee_token_ok(given: str) -> bool:
        if referee_token is not None and hmac.compare_digest(given.encode(), referee_token.encode()):
            return True
        if given in known:
            return True
        if given and db.exists() and seats.is_referee_token(store(), given):
            known.add(given)
            return True
        return False

    def is_referee(request: Request) -> bool:
        return referee_token_ok(request.cookies.get(cookie_name(request), ""))

    def referee(request: Request, game_id: str = "") -> Viewer:
        if not is_referee(request):
            raise Refused(403, "this page needs the referee's link (printed when the server started)")
        return Viewer(None, f"/g/{game_id}", csrf_for("referee", request.cookies.get(cookie_name(request), "")))

    async def seat(request: Request) -> tuple[str, Viewer]:
        game_id, token = request.path_params["gid"], request.path_params["token"]
        player = await blocking(lambda: seats.seat_of(store(), game_id, token) if db.exists() else None)
        if player is None:
            raise Refused(404, NOT_FOUND)
        return game_id, Viewer(player, f"/g/{game_id}/seat/{token}", csrf_for("seat", token, game_id), f"{game_id}\0{token}")

    async def spectator(request: Request) -> tuple[str, Viewer]:
        game_id, token = request.path_params["gid"], request.path_params["watch"]
        ok = await blocking(lambda: seats.is_spectator(store(), game_id, token) if db.exists() else False)
        if not ok:
            raise Refused(404, NOT_FOUND)
        return game_id, Viewer(None, f"/g/{game_id}/watch/{token}", "", f"{game_id}\0watch\0{token}", spectator=True)

    async def who(request: Request) -> tuple[str, Viewer]:
        if "watch" in request.path_params:
            return await spectator(request)
        if "token" in request.path_params:
            return await seat(request)
        game_id = request.path_params["gid"]
        return game_id, referee(request, game_id)

    async def check_post(request: Request, viewer: Viewer) -> dict[str, str]:
        """The form of a POST, refused unless it comes from this server's own page: the browser says
        so (Sec-Fetch-Site, or Origin), and its CSRF value is the viewer's."""
        # A browser says where a request comes from in Sec-Fetch-Site; an older one in Origin (a
        # form sent from a page whose referrer policy is no-referrer says "null": not a site).
        site = request.headers.get("sec-fetch-site")
        origin = request.headers.get("origin")
        if site is not None:
            if site not in ("same-origin", "none"):
                raise Refused(403, "refused: the request came from another site")
        elif origin not in (None, "null") and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            raise Refused(403, "refused: the request came from another site")
        values = await form_of(request)
        if not hmac.compare_digest(values.get("csrf", "").encode(), viewer.csrf.encode()):
            raise Refused(403, "refused: the form is not this page's (reload the page)")
        return values

    def position_of(values: dict[str, str]) -> tuple[int, str]:
        at, version = values.get("at", ""), values.get("version", "")
        if not (at.isascii() and at.isdigit()) or len(at) > 12 or not version:
            raise Refused(400, "the page did not say which position it shows (reload the page)")
        return int(at), version

    def version_of(v: View) -> str:
        """The opaque version of what ``v``'s viewer sees (``views.observed``; the referee, who sees
        everything, the head hash): an HMAC under the server's secret, so it can be checked and not
        computed by anyone else, and a seat's depends on nothing it may not see."""
        digest = v.head.encode() if v.player is None and not v.spectator else observed(v)
        data = b"version\0" + f"{v.game_id}\0{v.player or ''}\0{v.position}\0".encode("utf-8", "surrogatepass") + digest
        return hmac.new(key, data, hashlib.sha256).hexdigest()[:32]

    def view_for(log_: Any, viewer: Viewer, at: int | None = None) -> View:
        """The view of ``viewer``: a spectator's is the table's, a seat's its own, the referee's everything."""
        return view(log_, None, at, table=True) if viewer.spectator else view(log_, viewer.player, at)

    def checked(game_id: str, viewer: Viewer, values: dict[str, str]) -> Any:
        """The log a write is decided on: the position and version the page showed must be the live
        position's for this viewer now, else the position changed (409). The store's head-checked
        write then takes this log's head, so a write landing meanwhile is a conflict as well."""
        at, version = position_of(values)
        log_ = load_log(game_id)
        if at != len(log_.rows):
            raise ConcurrencyConflict("the position changed")
        now = version_of(view_for(log_, viewer))
        if not hmac.compare_digest(version.encode("utf-8", "surrogatepass"), now.encode()):
            raise ConcurrencyConflict("the position changed")
        return log_

    def notify(game_id: str) -> None:
        event = waiters.pop(game_id, None)
        if event is not None:
            event.set()
        runner.poke(game_id)

    def bot_play(game_id: str, player: str, command: str, expected: tuple[int, str]) -> int:
        """A bot's move, stored as its seat's command against the head it was thought at, then marked
        as the bot's by a comment (replay/marks.py), both before any page reads the game again."""
        from solrec.events import notes
        from solrec.replay.marks import BOT_AUTHOR, bot_note_text

        from ..session import play_commands

        with serial:
            s = store()
            seated = bots.bots_of(s, game_id).get(player)
            if seated is None:
                raise ConcurrencyConflict(f"no bot sits at {player}'s seat now")
            before = load_log(game_id)
            steps, after, _, _ = play_commands(s, game_id, [command], actor=player, expected=expected, log=before)
            remember(game_id, after)
            end = expected[0] + len(steps[0].events)
            notes.add(s, game_id, end, BOT_AUTHOR, "", bot_note_text(seated[0]))
        return end

    runner = bots.BotRunner(db, bot_play, workers=bot_workers, processes=bot_processes, poll=bot_poll)

    def load_log(game_id: str):
        from solrec.replay.log import load

        fresh = load(store(), game_id)
        return remember(game_id, fresh)

    def remember(game_id: str, fresh: Any) -> Any:
        from solrec.replay.log import carry_over

        old = logs.pop(game_id, None)
        if old is not None and old == fresh:
            fresh = old
        elif old is not None:
            carry_over(old, fresh)
        if len(logs) >= 16:
            logs.pop(next(iter(logs)))
        logs[game_id] = fresh
        return fresh

    async def blocking(work: Callable[..., Any], *args: Any) -> Any:
        def serially() -> Any:
            with serial:
                return work(*args)

        return await run_in_threadpool(serially)

    def damaged(game_id: str, viewer: Viewer, err: CorruptLog) -> str:
        """What a page shows of a damaged game instead of a board: the referee, validate's verdict; a
        seat, only that it is damaged (the verdict may quote a hidden command)."""
        if viewer.player is not None:
            return "this game's stored data is damaged; the referee's page shows validate's verdict"
        from solrec.replay.validate import validate_stored

        verdict = validate_stored(store(), game_id)
        return f"this game's stored data is damaged: {verdict.line()}" if not verdict.ok else str(err)

    def view_of(game_id: str, viewer: Viewer, at: int | None, move: int | None = None) -> View:
        log_ = load_log(game_id)
        if move is not None:
            from solrec.replay.log import move_ends

            ends = move_ends(log_)
            if move >= len(ends):
                raise Refused(400, f"move {move} is outside the game (0, the set-up, to {len(ends) - 1})")
            at = ends[move]
        if at is not None and not 0 <= at <= len(log_.rows):
            raise Refused(400, f"position {at} is outside the log (0 to {len(log_.rows)})")
        v = view_for(log_, viewer, at)
        # who is a bot, everyone may know; a seat's hint button, where the referee left hints on
        s = store()
        seated = bots.bots_of(s, game_id)
        hint = (viewer.player is not None and not viewer.spectator and v.live and v.choices is not None
                and viewer.player not in seated and bots.hints_on(s, game_id))
        return attrs.evolve(v, version=version_of(v), bots=tuple((p, b) for p, (b, _) in seated.items()), hint=hint)

    def move_param(request: Request) -> int | None:
        move = request.query_params.get("move")
        if move is None or move == "":
            return None
        if not (move.isascii() and move.isdigit()) or len(move) > 12:
            raise Refused(400, "move is a move's number: 0 (the set-up), 1, 2, ...")
        return int(move)

    def at_param(request: Request) -> int | None:
        at = request.query_params.get("at")
        if at is None or at == "":
            return None
        if not (at.isascii() and at.isdigit()) or len(at) > 12:
            raise Refused(400, "at is a position: a whole number of events")
        return int(at)

    # -- pages -----------------------------------------------------------------------------------------
    async def home(request: Request) -> Response:
        given = request.query_params.get("token")
        if given is not None:
            if not referee_token_ok(given):
                raise Refused(403, "this is not the referee's link (it is printed when the server starts)")
            response = RedirectResponse("/", status_code=303)
            # kept a year: the link itself survives restarts, so the device that opened it stays the referee's
            response.set_cookie(cookie_name(request), given, httponly=True, samesite="strict", path="/",
                                max_age=365 * 24 * 3600)
            return response
        referee(request)
        game = request.query_params.get("game") or None
        status = request.query_params.get("status") or None

        def rows() -> list[dict[str, Any]]:
            import json

            if not db.exists():
                return []
            out = []
            for r in store().list_games():
                over = "over" if r["outcome"] is not None else "running"
                if (game and r["game"] != game) or (status and over != status):
                    continue
                out.append({"id": r["id"], "game": r["game"], "players": json.loads(r["players"]), "events": r["events"],
                            "status": over, "created": r["created"], "scores": json.loads(r["scores"]) if r["scores"] else None})
            return out

        return HTMLResponse(pages.games_page(await blocking(rows), kinds(), game, status))

    def kinds() -> list[tuple[str, str]]:
        from solrec.core.registry import games

        return [(g.id, g.title) for g in games().values()]

    def new_form(game_id: str, csrf: str, values: dict[str, str], error: str = "") -> str:
        from solrec.core.options import describe_options
        from solrec.core.registry import get_game

        game = get_game(game_id)
        described = describe_options(game.Options)
        components = None
        if any(o["name"] == "components" for o in described):
            try:
                listing = game.components_listing(None, None)
            except SolrecError:
                listing = None
            if listing is not None:
                help_ = next(o["help"] for o in described if o["name"] == "components")
                components = (str(listing["set"]), help_)
                described = [o for o in described if not o["name"].startswith("components")]
        return pages.new_game_page(game.id, game.title, (game.min_players, game.max_players), game.default_players(),
                                   described, values, components, csrf, error)

    async def new_page(request: Request) -> Response:
        viewer = referee(request)
        game_id = request.query_params.get("game", "")
        try:
            return HTMLResponse(new_form(game_id, viewer.csrf, {}))
        except SolrecError as err:
            raise Refused(404, one_line(str(err))) from None

    async def new_post(request: Request) -> Response:
        viewer = referee(request)
        values = await check_post(request, viewer)
        game_name = values.get("game", "")

        def start() -> str:
            from solrec.core.errors import InvalidSetup
            from solrec.core.registry import get_game

            from ..session import new_game

            game = get_game(game_name)
            players, seated = bots.players_and_bots(values.get("players", ""))
            options = {k.removeprefix("option."): v for k, v in values.items() if k.startswith("option.")}
            name = values.get("components", "").strip()
            if name:
                listing = game.components_listing(name, None)
                if listing["set"] != game.components_listing(None, None)["set"]:
                    options.update({"components": str(listing["set"]), "components_digest": str(listing["digest"])})
            seed_text = values.get("seed", "").strip()
            entered = values.get("chance") == "entered"
            seed = None
            if seed_text and not entered:
                try:
                    seed = int(seed_text)
                except ValueError:
                    raise InvalidSetup(f"the seed is a whole number, not {seed_text[:30]!r}") from None
            gid = values.get("id", "").strip() or None
            if seated:
                bots.check_table(game, players, options)
            made = new_game(store(create=True), game.id, players, options, seed, entered, gid)[0]
            for player, bot in seated.items():
                bots.seat_bot(store(), made, player, bot)
            return made

        try:
            gid = await blocking(start)
            runner.poke(gid)
        except (SolrecError, bots.BotRefused) as err:
            try:
                page = new_form(game_name, viewer.csrf, values, one_line(str(err)))
            except SolrecError:
                raise Refused(400, one_line(str(err))) from None
            return HTMLResponse(page, status_code=400)
        return RedirectResponse(f"/g/{gid}", status_code=303)

    async def game_page(request: Request) -> Response:
        game_id, viewer = await who(request)
        at, move = at_param(request), move_param(request)

        def build() -> str:
            try:
                v = view_of(game_id, viewer, at, move)
            except CorruptLog as err:
                return pages.message(f"{game_id}: damaged", damaged(game_id, viewer, err))
            referee_ = viewer.player is None and not viewer.spectator
            made = seats.seated(store(), game_id) if referee_ else set()
            watched = referee_ and seats.has_spectator_link(store(), game_id)
            return pages.game_page(v, viewer.base, viewer.csrf, made, watched, bots.hints_on(store(), game_id))

        return HTMLResponse(await blocking(build))

    async def fragment(request: Request) -> Response:
        game_id, viewer = await who(request)
        at, move = at_param(request), move_param(request)

        def build() -> str:
            try:
                return pages.fragment(view_of(game_id, viewer, at, move))
            except CorruptLog as err:
                return f'<p class="reason">{pages.esc(damaged(game_id, viewer, err))}</p>'

        return HTMLResponse(await blocking(build))

    async def live(request: Request) -> Response:
        game_id, viewer = await who(request)
        if not await blocking(lambda: store().has_game(game_id)):
            raise Refused(404, NOT_FOUND)
        # Counted here, with no await between the count and the stream taking its place (one event
        # loop): a hundred requests at once cannot all pass a check before any is counted. A viewer
        # at its bound gets its own oldest stream closed, never another viewer refused.
        mine = [s for s in streams if s.viewer == viewer.key]
        oldest = mine[: max(0, len(mine) - live_per_viewer + 1)]
        if len(streams) - len(oldest) >= max_live:
            raise Refused(503, "too many live pages open: try again in a moment")
        for old in oldest:
            close(old)
        slot = Stream(viewer.key, game_id)
        streams.append(slot)
        return LiveResponse(stream(game_id, viewer, slot), lambda: close(slot), media_type="text/event-stream",
                            headers={"x-accel-buffering": "no"})

    def close(slot: Stream) -> None:
        """A stream leaves the count at once; its loop ends at its next wake (woken now)."""
        if not slot.closed:
            slot.closed = True
            streams.remove(slot)
            notify(slot.game_id)

    versions: dict[tuple[str, str | None, bool, Any], str | None] = {}  # (game, player, spectator, its row's count and head)

    def seen_by(game_id: str, viewer: Viewer, row: Any) -> str | None:
        """What a seat's stream compares: its version of the live position (None: no such game);
        worked out once per player and stored head, however many of its streams ask."""
        key = (game_id, viewer.player, viewer.spectator, tuple(row))
        if key in versions:
            return versions[key]
        try:
            log_ = load_log(game_id)
            seen: str | None = version_of(view_for(log_, viewer))
        except CorruptLog:
            return "damaged"
        except SolrecError:
            return None
        if (len(log_.rows), log_.head) == tuple(row):  # kept only for the row it was read at
            versions[key] = seen
            if len(versions) > 256:
                versions.pop(next(iter(versions)))
        return seen

    async def stream(game_id: str, viewer: Viewer, slot: Stream) -> AsyncIterator[str]:
        """The game's position whenever it changes (an undo to the same length included: the head
        changes), polled, or at once on a write through this server. A seat's stream speaks only when
        what that seat sees changed (its version): a take-back and a replay of what it cannot see
        look to it as if nothing happened."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + live_seconds
        last: Any = None
        said: Any = None
        quiet = loop.time()
        conn = None
        try:
            # never waits for a lock (it runs on the event loop): a busy file is asked again at the next poll
            conn = sqlite3.connect(f"file:{_uri_path(db)}?mode=ro", uri=True, check_same_thread=False, timeout=0)
            yield "retry: 2000\n\n"
            while True:
                try:
                    now = conn.execute("select events, head from games where id = ?", [game_id]).fetchone()
                except sqlite3.Error:
                    now = last  # busy or briefly unreadable: ask again at the next poll
                if now is None:
                    yield "event: gone\ndata: 0\n\n"
                    return
                if now != last:
                    last = now
                    seen = now if viewer.player is None and not viewer.spectator else await blocking(seen_by, game_id, viewer, now)
                    if seen != said:
                        said = seen
                        quiet = loop.time()
                        yield f"data: {int(now[0])}\n\n"
                if loop.time() - quiet > 15:
                    quiet = loop.time()
                    yield ": still here\n\n"
                left = deadline - loop.time()
                if left <= 0 or slot.closed:
                    return
                event = waiters.setdefault(game_id, asyncio.Event())
                try:
                    await asyncio.wait_for(event.wait(), min(poll_seconds, left))
                except TimeoutError:
                    pass
        finally:
            if conn is not None:
                conn.close()
            close(slot)

    # -- writes ----------------------------------------------------------------------------------------
    async def write(request: Request, work: Callable[[Viewer, dict[str, str], str], Any],
                    answer: Callable[[Any], Awaitable[Response] | Response] | None = None) -> Response:
        game_id, viewer = await who(request)
        if viewer.spectator:
            raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")
        values = await check_post(request, viewer)
        try:
            done = await blocking(work, viewer, values, game_id)
        except ConcurrencyConflict:
            notify(game_id)
            raise Refused(409, "the position changed: showing the new one") from None
        except CorruptLog as err:
            raise Refused(409, f"stored data problem: {one_line(str(err))}") from None
        except SolrecError as err:
            raise Refused(400, one_line(str(err))) from None
        notify(game_id)
        if answer is not None:
            result = answer(done)
            return await result if not isinstance(result, Response) else result
        return PlainTextResponse(str(done))

    def given(values: dict[str, str], field: str, empty: str, what: str, most: int) -> str:
        text = values.get(field, "").strip()
        if not text:
            raise Refused(400, empty)
        if len(text) > most:
            raise Refused(400, f"{what} is at most {most} characters")
        return text

    def at_command_end(viewer: Viewer, game_id: str, values: dict[str, str], verb: str) -> tuple[int, Any]:
        """The position the page shows, still the game's end, where a command ends; and the log."""
        from ..annotate import check_command_end

        log_ = checked(game_id, viewer, values)
        check_command_end(log_, len(log_.rows), verb)
        return len(log_.rows), log_

    def do_play(viewer: Viewer, values: dict[str, str], game_id: str) -> int | str:
        from ..session import play_commands

        text = given(values, "command", "no command given", "a command", MAX_COMMAND)
        if viewer.player is not None and viewer.player in bots.bots_of(store(), game_id):
            raise Refused(400, f"a bot plays {viewer.player}'s seat: the referee seats a person there again first")
        before = checked(game_id, viewer, values)
        expected = (len(before.rows), before.head)
        _, after, _, _ = play_commands(store(), game_id, [text], actor=viewer.player, expected=expected, log=before)
        remember(game_id, after)
        # the referee learns the new position; a seat only that its command is stored (how many
        # events it made may hang on what it may not see: a turned card played on at once, a seeded
        # draw after it); its page then fetches its own view
        return len(after.rows) if viewer.player is None else "stored"

    def do_undo(viewer: Viewer, values: dict[str, str], game_id: str) -> int:
        from ..manage import take_back

        log_ = checked(game_id, viewer, values)
        done = take_back(store(), game_id, None, (len(log_.rows), log_.head), by=viewer.player,
                         ruling="referee" if viewer.player is None else None)
        return int(done["position"])

    def do_note(viewer: Viewer, values: dict[str, str], game_id: str) -> int:
        from solrec.events import notes

        text = given(values, "text", "the comment is empty: give its text", "a comment", MAX_NOTE)
        at = at_command_end(viewer, game_id, values, "comment on")[0]
        notes.add(store(), game_id, at, viewer.player or "referee", notes.check_mark(values.get("mark") or None), text)
        return at

    def do_fork(viewer: Viewer, values: dict[str, str], game_id: str) -> str:
        from ..session import fork_game

        if viewer.player is not None:
            raise Refused(403, "only the referee forks a variation")
        at, log_ = at_command_end(viewer, game_id, values, "fork at")
        return fork_game(store(), log_, at, None)[0]

    def do_rematch(viewer: Viewer, values: dict[str, str], game_id: str) -> str:
        """A finished game again: the same players and options, a new seed (an entered game stays
        entered); the new game's id."""
        import secrets as random_seeds

        from solrec.core.play import SEEDED, advance_chance, initial_state

        from ..session import store_new

        if viewer.player is not None:
            raise Refused(403, "only the referee starts a rematch")
        log_ = checked(game_id, viewer, values)
        game, old = log_.game, log_.header
        from solrec.replay.log import state_at

        if game.to_act(state_at(log_)) is not None:
            raise Refused(400, "the game is not over: a rematch follows a finished game")
        header = attrs.evolve(old, seed=random_seeds.randbits(63) if old.chance == SEEDED else None,
                              rules=game.rules_version, upcast=())
        state = initial_state(game, header)
        steps, state, _ = advance_chance(game, header, state, 0)
        return store_new(store(), game, header, None, steps, state)

    def do_seats(viewer: Viewer, values: dict[str, str], game_id: str) -> dict[str, str]:
        if viewer.player is not None:
            raise Refused(403, "only the referee makes seat links")
        s = store()
        return seats.make_links(s, game_id, s.header(game_id).players)

    def do_spectators(viewer: Viewer, values: dict[str, str], game_id: str) -> str:
        if viewer.player is not None:
            raise Refused(403, "only the referee makes a spectator link")
        return seats.make_spectator_link(store(), game_id)

    def do_revoke_spectators(viewer: Viewer, values: dict[str, str], game_id: str) -> bool:
        if viewer.player is not None:
            raise Refused(403, "only the referee revokes a spectator link")
        return seats.revoke_spectator_link(store(), game_id)

    def do_bots(viewer: Viewer, values: dict[str, str], game_id: str) -> str:
        """The referee seats a bot at a seat (or a person again): checked, then stored (``bots``)."""
        if viewer.player is not None:
            raise Refused(403, "only the referee seats a bot")
        s = store()
        log_ = load_log(game_id)
        player, kind = values.get("player", ""), values.get("kind", "").strip()
        if player not in log_.header.players:
            raise Refused(400, f"{player[:40]!r} is not a player of {game_id}")
        if kind == bots.PERSON:
            bots.unseat_bot(s, game_id, player)
            return game_id
        bot = bots.check_bot(kind, values.get("settings", ""))
        seed_text = values.get("seed", "").strip()
        if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
            raise Refused(400, f"a bot's seed is a whole number (or empty: random), not {seed_text[:30]!r}")
        if bots.whose_turn(log_) is None:
            raise Refused(400, f"the game is over: {game_id} needs no bot")
        bots.check_table(log_.game, log_.header.players, log_.header.options_dict())
        bots.seat_bot(s, game_id, player, bot, int(seed_text) if seed_text else None)
        return game_id

    def do_hints(viewer: Viewer, values: dict[str, str], game_id: str) -> str:
        if viewer.player is not None:
            raise Refused(403, "only the referee switches hints")
        if values.get("hints") not in ("on", "off"):
            raise Refused(400, "hints are on or off")
        load_log(game_id)  # an unknown game is refused
        bots.set_hints(store(), game_id, values["hints"] == "on")
        return game_id

    async def referee_form(request: Request, work: Callable[[Viewer, dict[str, str], str], Any]) -> Response:
        game_id, viewer = await who(request)
        values = await check_post(request, viewer)
        try:
            await blocking(work, viewer, values, game_id)
        except bots.BotRefused as err:
            raise Refused(400, one_line(str(err))) from None
        except SolrecError as err:
            raise Refused(400, one_line(str(err))) from None
        runner.poke(game_id)
        return RedirectResponse(f"/g/{game_id}", status_code=303)

    async def seat_bots(request: Request) -> Response:
        return await referee_form(request, do_bots)

    async def switch_hints(request: Request) -> Response:
        return await referee_form(request, do_hints)

    async def hint(request: Request) -> Response:
        """A seat's hint: the hint bot's command for this seat at the live position the page shows,
        from what the seat sees, thought in the bots' pool (never on the event loop)."""
        game_id, viewer = await who(request)
        if viewer.player is None:
            raise Refused(403, "a hint is a seat's: open the seat's link")
        values = await check_post(request, viewer)

        def ask() -> Any:
            log_ = checked(game_id, viewer, values)
            if not bots.hints_on(store(), game_id):
                raise Refused(400, "the referee switched hints off for this game")
            if bots.whose_turn(log_) != viewer.player:
                raise Refused(400, "a hint is for the seat to act: it is not your turn")
            return len(log_.rows), log_.head

        try:
            at = await blocking(ask)
        except ConcurrencyConflict:
            raise Refused(409, "the position changed: showing the new one") from None
        except SolrecError as err:
            raise Refused(400, one_line(str(err))) from None
        try:
            # submitted from a worker thread (starting the pool spawns processes), awaited off the loop
            future = await run_in_threadpool(runner.ask, game_id, viewer.player, hint_bot, bots.HINT_SEED)
            thought = await asyncio.wrap_future(future)
        except bots.BotRefused as err:
            raise Refused(400, one_line(str(err))) from None
        if (thought.events, thought.head) != at:
            raise Refused(409, "the position changed: showing the new one")
        return PlainTextResponse(thought.hint_text())

    async def make_spectators(request: Request) -> Response:
        base = reachable or str(request.base_url).rstrip("/")
        game_id = request.path_params["gid"]
        return await write(request, do_spectators,
                           lambda token: HTMLResponse(pages.spectator_page(game_id, f"{base}/g/{game_id}/watch/{token}")))

    async def revoke_spectators(request: Request) -> Response:
        game_id = request.path_params["gid"]
        return await write(request, do_revoke_spectators, lambda _: RedirectResponse(f"/g/{game_id}", status_code=303))

    async def disputes_page(request: Request) -> Response:
        referee(request)

        def build() -> str:
            from solrec.replay.disputes import disputes

            return pages.disputes_page(disputes([store()]) if db.exists() else [])

        return HTMLResponse(await blocking(build))

    async def study_page(request: Request) -> Response:
        game_id = request.path_params["gid"]
        referee(request, game_id)

        def build() -> str:
            from solrec.replay.log import load
            from solrec.replay.study import chapters_of, study_page

            s = store()
            if not db.exists() or not s.has_game(game_id):
                raise Refused(404, NOT_FOUND)
            try:
                return study_page(chapters_of(s, game_id, load), reveal=True, stylesheet="/static/study.css")
            except CorruptLog as err:
                return pages.message(f"{game_id}: damaged", one_line(str(err)))

        return HTMLResponse(await blocking(build))

    async def spectator_refused(request: Request) -> Response:
        await who(request)  # a wrong link is the same 404 as everywhere
        raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")

    def writer(work: Callable[[Viewer, dict[str, str], str], Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await write(request, work)

        return endpoint

    async def make_seats(request: Request) -> Response:
        base = reachable or str(request.base_url).rstrip("/")
        game_id = request.path_params["gid"]

        def shown(tokens: dict[str, str]) -> Response:
            links = {p: f"{base}/g/{game_id}/seat/{t}" for p, t in tokens.items()}
            return HTMLResponse(pages.links_page(game_id, links))

        return await write(request, do_seats, shown)

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "study.css":
            from solrec.replay.study import CSS

            return Response(CSS, media_type="text/css; charset=utf-8", headers={"cache-control": "no-cache"})
        if name not in static:
            raise Refused(404, NOT_FOUND)
        return Response(static[name], media_type=STATIC[name], headers={"cache-control": "no-cache"})

    # -- faults ----------------------------------------------------------------------------------------
    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        if request.method == "POST" and request.url.path != "/new":
            return PlainTextResponse(exc.reason, status_code=exc.status)
        return HTMLResponse(pages.message("solrec", exc.reason), status_code=exc.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        return HTMLResponse(pages.message("solrec", NOT_FOUND), status_code=404)

    async def hung_up(request: Request, exc: Exception) -> Response:
        # the client went away mid-request: nobody to answer, nothing was read or stored, no fault
        # (not its address: a seat's holds its token, which the server shows only once)
        log.info("a client hung up during a %s before its request was read; nothing was stored", request.method)
        return Response(status_code=400)

    async def fault(request: Request, exc: Exception) -> Response:
        route = request.scope.get("route")  # its pattern: a seat's address holds its token
        log.error("internal error on %s %s", request.method, getattr(route, "path", "?"), exc_info=exc)
        return HTMLResponse(pages.message("solrec", "internal error: the server log has the details; please report it"),
                            status_code=500)

    # the pages of a game, at the referee's address and at each seat's
    per_viewer = [("", game_page, "GET"), ("/view", fragment, "GET"), ("/live", live, "GET"),
                  ("/play", writer(do_play), "POST"), ("/undo", writer(do_undo), "POST"), ("/note", writer(do_note), "POST")]
    guarded = [
        Route("/", home),
        Route("/new", new_page),
        Route("/new", new_post, methods=["POST"]),
        Route("/static/{name}", static_file),
        Route("/g/{gid}/fork", writer(do_fork), methods=["POST"]),
        Route("/g/{gid}/rematch", writer(do_rematch), methods=["POST"]),
        Route("/g/{gid}/seats", make_seats, methods=["POST"]),
        Route("/g/{gid}/spectators", make_spectators, methods=["POST"]),
        Route("/g/{gid}/spectators/revoke", revoke_spectators, methods=["POST"]),
        Route("/g/{gid}/bots", seat_bots, methods=["POST"]),
        Route("/g/{gid}/hints", switch_hints, methods=["POST"]),
        Route("/g/{gid}/seat/{token}/hint", hint, methods=["POST"]),
        Route("/g/{gid}/watch/{watch}/hint", spectator_refused, methods=["POST"]),
        Route("/g/{gid}/study", study_page),
        Route("/disputes", disputes_page),
        *(Route(base + path, endpoint, methods=[method])
          for base in ("/g/{gid}", "/g/{gid}/seat/{token}") for path, endpoint, method in per_viewer),
        *(Route("/g/{gid}/watch/{watch}" + path, endpoint if method == "GET" else spectator_refused, methods=[method])
          for path, endpoint, method in per_viewer),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        runner.poke()  # a restarted server resumes its bots
        try:
            yield
        finally:
            runner.close()

    app = Starlette(
        routes=guarded,
        exception_handlers={Refused: refused, ClientDisconnect: hung_up, 404: not_found, 405: not_found, Exception: fault},
        lifespan=lifespan,
    )
    runner.poke()  # resumed at once too where no lifespan runs (a server started with lifespan off)
    app.add_middleware(HostCheck, hosts=hosts)
    # outside Starlette's own error middleware, so that a 500 page carries the headers too
    return SecurityHeaders(app)


class LiveResponse(StreamingResponse):
    """A live stream's response: it gives its place in the count back however it ends (a client gone
    before the first byte included, when the stream's own ``finally`` never runs)."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


MAX_FORM = 64 * 1024  # bytes of a form: a command, a comment, a new game's players and options


async def form_of(request: Request) -> dict[str, str]:
    """A urlencoded form (the pages send no other), read up to ``MAX_FORM`` bytes; the last value of
    a repeated name. Parsed here rather than by Starlette's form parser, which needs python-multipart."""
    from urllib.parse import parse_qsl

    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Refused(415, "refused: a form is sent urlencoded")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_FORM:
            raise Refused(413, f"refused: a form is at most {MAX_FORM // 1024} KiB")
    try:
        return dict(parse_qsl(data.decode("utf-8"), keep_blank_values=True, max_num_fields=200))
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "refused: the form is not UTF-8 text") from None


# A Host header as RFC 9110 allows it: a name or address, then at most a port; nothing else (no
# user part "@", no list ", ", no path): ``127.0.0.1:8000@evil`` is not 127.0.0.1.
HOST = re.compile(r"(?P<name>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::[0-9]{1,5})?")


class HostCheck:
    """Only the Host names a loopback server answers to (against DNS rebinding: a foreign site whose
    name resolves to 127.0.0.1); None: any (a LAN server is reached by its address). 421 Misdirected
    Request, as Starlette's TrustedHostMiddleware would not say (it answers 400), and exact: one Host
    header, a name and at most a port, the name one of ``hosts`` (``[::1]`` in its brackets)."""

    def __init__(self, app: ASGIApp, hosts: set[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    def allowed(self, scope: Scope) -> bool:
        given = [v for k, v in scope.get("headers", []) if k.lower() == b"host"]
        if len(given) != 1:
            return False
        found = HOST.fullmatch(given[0].decode("latin-1"))
        return found is not None and self.hosts is not None and found.group("name").lower() in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.hosts is not None and not self.allowed(scope):
            response = PlainTextResponse("refused: this server answers only to its own address", status_code=421)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
