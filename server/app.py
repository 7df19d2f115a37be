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
answer (the server's one writer, ``writer.py``, which commits the writes of several games in one
synced transaction), so an acknowledged command is committed (killing the server loses none) and two
devices playing at once store one command (the other gets 409, "the position changed"). A refusal is
400 with its one-line reason; nothing is stored.

Live updates are Server-Sent Events. A plain stream carries only the new position number (and, for
a seat, the version it now sees as the event's id); the page then fetches its own (filtered) view.
A stream asked with ``view=1`` (the page script's) carries the viewer's new view itself, the very
bytes its ``.../view`` gives, as a ``view`` event. A stream wakes at once on a write through this
process, and through the process's poller on a write by another (the CLI, another ``--workers``
process); a seat's stream speaks only when that seat's version changes. Streams are bounded per
viewer (64: a desk of pages; one more is told so on its page), in number overall, and in lifetime.

How the work is shared out (per-game locks, kept logs and views, the writer, the poller):
``state.py``'s docstring and docs/architecture.md. The endpoints are the module's functions below,
their state ``request.app.state.server`` (a ``ServerState``), the addresses ``ROUTES``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.words import one_line
from solrec.events.store import ConcurrencyConflict

from . import bots, pages, seats
from .state import NOT_FOUND, STATIC, Fragment, Refused, ServerState, Stream, Viewer

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

__all__ = ["CSP", "NOT_FOUND", "Refused", "ServerState", "Viewer", "create_app"]


class SecurityHeaders:
    """Every response carries the CSP and the other headers; pages are not cached (they hold tokens
    and hidden information)."""

    def __init__(self, app: ASGIApp, worker: str | None = None) -> None:
        self.app = app
        # with --workers: which process answered (the cross-process test and bench/ read it)
        self.extra = [(b"x-solrec-worker", worker.encode())] if worker else []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in {k for k, _ in SECURITY_HEADERS}]
                headers += SECURITY_HEADERS + self.extra
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db: Path, referee_token: str | None, secret: bytes | None = None, *, hosts: set[str] | None = None,
    live_seconds: float = 600.0, poll_seconds: float = 0.3, quiet_poll_seconds: float = 1.0, max_live: int = 1024,
    live_per_viewer: int = 64,
    reachable: str | None = None, worker: str | None = None, bot_workers: int = 1, bot_processes: bool = True,
    bot_poll: float = 1.0, hint_bot: str = bots.HINT_BOT,
) -> ASGIApp:
    """The app on the database ``db`` (``ServerState`` says what each argument is; ``secret``: the
    key of the CSRF values and of the versions, random by default; a loopback server accepts only
    loopback Host names, against DNS rebinding). Its state is ``app.state.server``; its endpoints,
    below, read it from their request. Bot seats (``bots.py``): their moves and the seats' hints
    thought by ``bot_workers`` worker processes (threads without ``bot_processes``), the games with
    bots looked at every ``bot_poll`` seconds besides every write; ``hint_bot``: the "hint" button's bot."""
    server = ServerState.make(db, referee_token, secret, hosts=hosts, live_seconds=live_seconds,
                              poll_seconds=poll_seconds, quiet_poll_seconds=quiet_poll_seconds, max_live=max_live,
                              live_per_viewer=live_per_viewer,
                              reachable=reachable, worker=worker, hint_bot=hint_bot)
    server.runner = bots.BotRunner(db, server.bot_play, workers=bot_workers, processes=bot_processes, poll=bot_poll,
                                   asking=server.asking_store)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # run by ``solrec serve`` (uvicorn's lifespan on) and by a test client used as a context:
        # the start-up once, the bots' pool closed at shutdown
        server.runner.poke()  # a restarted server resumes its bots
        try:
            yield
        finally:
            server.runner.close()

    app = Starlette(
        routes=ROUTES,
        exception_handlers={Refused: refused, ClientDisconnect: hung_up, 404: not_found, 405: not_found, Exception: fault},
        lifespan=lifespan,
    )
    app.state.server = server
    app.add_middleware(HostCheck, hosts=hosts)
    # outside Starlette's own error middleware, so that a 500 page carries the headers too
    return SecurityHeaders(app, worker)


def state(request: Request) -> ServerState:
    return request.app.state.server


# -- who is asking -----------------------------------------------------------------------------------
def cookie_name(request: Request) -> str:
    return state(request).referee_cookie()


def is_referee(request: Request) -> bool:
    return state(request).referee_token_ok(request.cookies.get(cookie_name(request), ""))


def referee(request: Request, game_id: str = "") -> Viewer:
    if not is_referee(request):
        raise Refused(403, "this page needs the referee's link (printed when the server started)")
    token = request.cookies.get(cookie_name(request), "")
    return Viewer(None, f"/g/{game_id}", state(request).csrf_for("referee", token), token=token)


def quick_seat(server: ServerState, game_id: str, token: str) -> Fragment | None:
    """A seat's kept live page, from the event loop's reads (``ServerState.kept_fragment``), or None."""
    try:
        store = server.quick_store()
        player = seats.seat_of(store, game_id, token) if store is not None else None
        return server.kept_fragment(game_id, player) if player is not None else None
    except (SolrecError, sqlite3.Error):
        return None


def seat_viewer(server: ServerState, game_id: str, token: str) -> Viewer:
    """A seat link's viewer: its player found by the token's hash (a blocking read); 404 for none."""
    player = seats.seat_of(server.store(), game_id, token) if server.db.exists() else None
    if player is None:
        raise Refused(404, NOT_FOUND)
    return Viewer(player, f"/g/{game_id}/seat/{token}", server.csrf_for("seat", token, game_id), f"{game_id}\0{token}",
                  token=token)


async def seat(request: Request) -> tuple[str, Viewer]:
    server = state(request)
    game_id, token = request.path_params["gid"], request.path_params["token"]
    return game_id, await server.blocking(seat_viewer, server, game_id, token)


async def spectator(request: Request) -> tuple[str, Viewer]:
    server = state(request)
    game_id, token = request.path_params["gid"], request.path_params["watch"]
    ok = await server.blocking(lambda: seats.is_spectator(server.store(), game_id, token) if server.db.exists() else False)
    if not ok:
        raise Refused(404, NOT_FOUND)
    return game_id, Viewer(None, f"/g/{game_id}/watch/{token}", "", f"{game_id}\0watch\0{token}", spectator=True,
                           token=token)


async def who(request: Request) -> tuple[str, Viewer]:
    if "watch" in request.path_params:
        return await spectator(request)
    if "token" in request.path_params:
        return await seat(request)
    game_id = request.path_params["gid"]
    return game_id, referee(request, game_id)


async def who_later(request: Request) -> tuple[str, Callable[[], Viewer]]:
    """``who`` for an endpoint with blocking work of its own: a seat's token is looked up in that
    work's thread, the first thing it does (a request of a seat, the most frequent, then waits for
    one worker thread instead of two: each such hop cost about as much CPU as the kept view it fetched)."""
    if "token" in request.path_params and "watch" not in request.path_params:
        server = state(request)
        game_id, token = request.path_params["gid"], request.path_params["token"]
        return game_id, lambda: seat_viewer(server, game_id, token)
    game_id, viewer = await who(request)
    return game_id, lambda: viewer


async def check_post(request: Request, viewer: Viewer) -> dict[str, str]:
    """The form of a POST, refused unless it comes from this server's own page: the browser says
    so (Sec-Fetch-Site, or Origin), and its CSRF value is the viewer's."""
    return posted(await read_post(request), viewer)


Posted = tuple[dict[str, str], None] | tuple[None, Refused]


async def read_post(request: Request) -> Posted:
    """A POST's checks that need no viewer (where it comes from, its form read): the form, or the
    refusal, kept to be raised by ``posted`` once the viewer is known (a wrong link is a 404 first)."""
    # A browser says where a request comes from in Sec-Fetch-Site; an older one in Origin (a
    # form sent from a page whose referrer policy is no-referrer says "null": not a site).
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    try:
        if site is not None:
            if site not in ("same-origin", "none"):
                raise Refused(403, "refused: the request came from another site")
        elif origin not in (None, "null") and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            raise Refused(403, "refused: the request came from another site")
        return await form_of(request), None
    except Refused as refusal:
        return None, refusal


def posted(post: Posted, viewer: Viewer) -> dict[str, str]:
    """The form ``read_post`` read, if it was this viewer's page's (its CSRF value), else refused."""
    import hmac

    values, refusal = post
    if refusal is not None:
        raise refusal
    assert values is not None
    if not hmac.compare_digest(values.get("csrf", "").encode(), viewer.csrf.encode()):
        raise Refused(403, "refused: the form is not this page's (reload the page)")
    return values


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


# -- pages -------------------------------------------------------------------------------------------
async def home(request: Request) -> Response:
    server = state(request)
    given = request.query_params.get("token")
    if given is not None:
        if not server.referee_token_ok(given):
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

        if not server.db.exists():
            return []
        out = []
        for r in server.store().list_games():
            over = "over" if r["outcome"] is not None else "running"
            if (game and r["game"] != game) or (status and over != status):
                continue
            out.append({"id": r["id"], "game": r["game"], "players": json.loads(r["players"]), "events": r["events"],
                        "status": over, "created": r["created"], "scores": json.loads(r["scores"]) if r["scores"] else None})
        return out

    return HTMLResponse(pages.games_page(await server.blocking(rows), kinds(), game, status))


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
    server = state(request)
    viewer = referee(request)
    values = await check_post(request, viewer)
    game_name = values.get("game", "")

    def start() -> str:
        from solrec.core.errors import InvalidSetup
        from solrec.core.registry import get_game
        from solrec.workflows.games import new_game

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
        made = server.write(lambda store: new_game(store, game.id, players, options, seed, entered, gid, seated)[0])
        for player, bot in seated.items():  # NAME=bot:KIND[:SETTINGS]: a bot at that seat from the start
            bots.seat_bot(server.store(), made, player, bot)
        if seated:
            server.runner.expect()
        return made

    try:
        gid = await server.blocking(start)
        server.notify(gid)
    except (SolrecError, bots.BotRefused) as err:
        try:
            page = new_form(game_name, viewer.csrf, values, one_line(str(err)))
        except SolrecError:
            raise Refused(400, one_line(str(err))) from None
        return HTMLResponse(page, status_code=400)
    return RedirectResponse(f"/g/{gid}", status_code=303)


async def game_page(request: Request) -> Response:
    server = state(request)
    game_id, viewer_of = await who_later(request)
    at, move = at_param(request), move_param(request)

    def build() -> str:
        viewer = viewer_of()
        try:
            v = server.view_of(game_id, viewer, at, move)
        except CorruptLog as err:
            return pages.message(f"{game_id}: damaged", server.damaged(game_id, viewer, err))
        referee_ = viewer.player is None and not viewer.spectator
        made = seats.seated(server.store(), game_id) if referee_ else set()
        watched = referee_ and seats.has_spectator_link(server.store(), game_id)
        return pages.game_page(v, viewer.base, viewer.csrf, made, watched, bots.hints_on(server.store(), game_id))

    return HTMLResponse(await server.blocking(build, game=game_id))


async def fragment(request: Request) -> Response:
    server = state(request)
    game_id, viewer_of = await who_later(request)
    at, move = at_param(request), move_param(request)
    if at is None and move is None and "token" in request.path_params and "watch" not in request.path_params:
        kept = quick_seat(server, game_id, request.path_params["token"])
        if kept is not None:  # a seat's live page, kept: answered on the event loop (``kept_fragment``)
            return HTMLResponse(kept.html)

    def build() -> str:
        return page_fragment(server, game_id, viewer_of(), at, move)

    return HTMLResponse(await server.blocking(build, game=game_id))


def page_fragment(server: ServerState, game_id: str, viewer: Viewer, at: int | None = None, move: int | None = None) -> str:
    """What ``.../view`` answers: the viewer's fragment of the position (under the game's lock)."""
    return page_shown(server, game_id, viewer, at, move).html


def page_shown(server: ServerState, game_id: str, viewer: Viewer, at: int | None = None, move: int | None = None) -> Fragment:
    """The viewer's fragment of the position with its version (under the game's lock); a damaged
    game's reason, with none."""
    try:
        v = server.view_of(game_id, viewer, at, move)
        return Fragment(server.fragment_of(v), v.version)
    except CorruptLog as err:
        return Fragment(f'<p class="reason">{pages.esc(server.damaged(game_id, viewer, err))}</p>', None)


async def disputes_page(request: Request) -> Response:
    server = state(request)
    referee(request)

    def build() -> str:
        from solrec.replay.disputes import disputes

        return pages.disputes_page(disputes([server.store()]) if server.db.exists() else [])

    return HTMLResponse(await server.blocking(build))


async def study_page(request: Request) -> Response:
    server = state(request)
    game_id = request.path_params["gid"]
    referee(request, game_id)

    def build() -> str:
        from solrec.replay.log import load
        from solrec.replay.study import chapters_of, study_page

        s = server.store()
        if not server.db.exists() or not s.has_game(game_id):
            raise Refused(404, NOT_FOUND)
        try:
            return study_page(chapters_of(s, game_id, load), reveal=True, stylesheet="/static/study.css")
        except CorruptLog as err:
            return pages.message(f"{game_id}: damaged", one_line(str(err)))

    return HTMLResponse(await server.blocking(build))


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    if name == "study.css":
        from solrec.replay.study import CSS

        return Response(CSS, media_type="text/css; charset=utf-8", headers={"cache-control": "no-cache"})
    static = state(request).static
    if name not in static:
        raise Refused(404, NOT_FOUND)
    return Response(static[name], media_type=STATIC[name], headers={"cache-control": "no-cache"})


# -- live updates ------------------------------------------------------------------------------------
async def live(request: Request) -> Response:
    server = state(request)
    # the marks before the viewer is looked up: a revocation landing after that look moves them, so
    # the stream checks its viewer again before its first event
    checked = server.mark_of(request.path_params["gid"])
    game_id, viewer = await who(request)
    row = await server.blocking(server.row_of, game_id)
    if row is None:
        raise Refused(404, NOT_FOUND)
    refusal = admit(server, viewer.key)
    if refusal is not None:
        return refusal
    slot = Stream(viewer.key, game_id, kind=None if viewer.referee else viewer.kind)
    server.streams.append(slot)
    if row is not False:
        server.heads[game_id] = row
        server.recheck = True  # read beside any write in flight: the poller reads it again at its next turn
    server.watch()
    shows = request.query_params.get("view") == "1"
    return LiveResponse(stream(server, game_id, viewer, slot, shows, checked), lambda: server.close(slot), media_type="text/event-stream",
                        headers={"x-accel-buffering": "no"})


FULL = "event: refused\ndata: {}\n\n"  # the page shows the reason and stops listening (no reconnection loop)


def admit(server: ServerState, key: str) -> Response | None:
    """A new stream of the viewer ``key`` admitted (None), or its refusal. Counted with no await
    between the count and the stream taking its place (one event loop): a hundred requests at once
    cannot all pass before any is counted. Past ``max_live`` streams of the process: 503. A viewer
    past its own bound (``live_per_viewer``, large enough for a referee's desk or a family's phones on
    one spectator link) gets a stream that says so and ends: its page shows the reason rather than
    reconnecting, and none of the viewer's open pages is closed."""
    streams = server.streams
    if len(streams) >= server.max_live:
        raise Refused(503, "too many live pages open: try again in a moment")
    if sum(1 for s in streams if s.viewer == key) >= server.live_per_viewer:
        reason = (f"this link has {server.live_per_viewer} live pages open here already: this one is not kept "
                  "live (close another and reload it)")

        async def said() -> AsyncIterator[str]:
            yield FULL.format(reason)

        return StreamingResponse(said(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})
    return None


HEARTBEAT = 15.0  # seconds of silence before a comment line keeps the connection open
TABLES_PACE = 1.0  # seconds between two views of the tables page at most (people's pace; each reads every running game)


async def tables_page(request: Request) -> Response:
    server = state(request)
    referee(request)
    return HTMLResponse(pages.tables_page(await server.blocking(tables_fragment, server)))


def tables_fragment(server: ServerState) -> str:
    """Every running game's line for the referee (its kept log and view: a game unchanged since the
    last look costs its stamp's read), in a worker thread, each game under its own lock."""
    if not server.db.exists():
        return pages.tables_fragment([])
    lines: list[tuple[Any, str, str]] = []
    for r in server.store().list_games():
        if r["outcome"] is not None:
            continue
        gid = r["id"]
        try:
            with server.game_lock(gid):
                v = server.view_for(server.load_log(gid), Viewer(None, f"/g/{gid}", ""))
            lines.append((v, gid, r["game"]))
        except CorruptLog:
            lines.append((None, gid, "this game's stored data is damaged: its page shows validate's verdict"))
        except SolrecError as err:  # deleted meanwhile, or unreadable: said, never a fault
            lines.append((None, gid, one_line(str(err))))
    return pages.tables_fragment(lines)


async def tables_live(request: Request) -> Response:
    """The tables page's one stream: a ``view`` event of every running game's lines whenever a game
    changed (a write through this process or, found by the poller, through another), at most once a
    ``TABLES_PACE``; ended with ``gone`` once the referee's link no longer works."""
    from .state import TABLES

    server = state(request)
    checked = server.mark_of(TABLES)
    viewer = referee(request)
    refusal = admit(server, viewer.key)
    if refusal is not None:
        return refusal
    slot = Stream(viewer.key, TABLES)
    server.streams.append(slot)
    server.recheck = True
    server.watch()

    async def tables() -> AsyncIterator[str]:
        nonlocal checked
        loop = asyncio.get_running_loop()
        deadline = loop.time() + server.live_seconds
        said, quiet = None, loop.time()
        try:
            yield "retry: 2000\n\n"
            while not slot.closed and loop.time() < deadline:
                event = server.waiting(TABLES)  # asked before the look: a write meanwhile wakes the next wait
                if server.mark_of(TABLES) != checked:
                    checked = server.mark_of(TABLES)
                    if not await server.blocking(server.still_lets_in, TABLES, viewer):
                        yield GONE
                        return
                html = await server.blocking(tables_fragment, server)
                if html != said:  # the first too: a game may have moved since the page was made
                    yield view_event(html, "tables")
                    said, quiet = html, loop.time()
                elif loop.time() - quiet > HEARTBEAT:
                    quiet = loop.time()
                    yield ": still here\n\n"
                await asyncio.sleep(TABLES_PACE)  # people's pace: the writes of a second shown at once
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), max(0.0, min(HEARTBEAT, deadline - loop.time())))
        finally:
            server.close(slot)

    return LiveResponse(tables(), lambda: server.close(slot), media_type="text/event-stream",
                        headers={"x-accel-buffering": "no"})


GONE = "event: gone\ndata: 0\n\n"  # the page says "this link no longer works" and stops listening


async def stream(server: ServerState, game_id: str, viewer: Viewer, slot: Stream, shows: bool = False,
                 checked: tuple[int, int] = (0, 0)) -> AsyncIterator[str]:
    """The game's position whenever it changes (an undo to the same length included: the head
    changes): woken at once by a write through this process (``ServerState.notify``), and by the
    process's poller for a write by another (the CLI, another worker). A seat's stream speaks only
    when what that seat sees changed (its version): a take-back and a replay of what it cannot see
    look to it as if nothing happened. Between wakes it costs nothing.

    ``shows`` (``.../live?view=1``, as table.js asks): each change after the stream opened comes as a
    ``view`` event carrying the viewer's fragment itself, the very bytes its ``.../view`` gives (kept
    since the play made it), so the page makes no request of its own; a stream without it is as
    before.

    Before each event it sends, the stream checks that its viewer's token still opens the page
    (``checked``: the revocation marks it was last checked at, ``ServerState.revoke``): a seat link
    made anew, a spectator link revoked, a bot seated in the person's place, the referee's link made
    anew, the game deleted or renamed end it with a ``gone`` event, never another view."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + server.live_seconds
    last: Any = None
    said: Any = None
    quiet = loop.time()
    referee_ = viewer.player is None and not viewer.spectator
    async def admitted() -> bool:
        """Whether the viewer's token still opens the page, checked again if a revocation mark moved
        since its last check (again while one moves during the check)."""
        nonlocal checked
        while server.mark_of(game_id) != checked:
            checked = server.mark_of(game_id)
            if not await server.blocking(server.still_lets_in, game_id, viewer):
                return False
        return True

    try:
        yield "retry: 2000\n\n"
        while True:
            if not await admitted():
                yield GONE
                return
            now = server.heads.get(game_id, False)
            if now is False:  # not known here: read it
                now = await server.blocking(server.row_of, game_id)
                if now is False:
                    now = last  # busy or briefly unreadable: asked again at the next change
            if now is None:
                yield GONE
                return
            if now != last:
                last = now
                seen = now if referee_ else (server.kept_version(game_id, now, viewer.kind)
                                             or await server.blocking(server.seen_by, game_id, viewer, game=game_id))
                if seen != said:
                    quiet = loop.time()
                    # the view its own command's answer carried is not sent again: its page shows it
                    # (or will: the page passes over what comes while its command is in flight); nor
                    # is the one the stream opens on, which the page has just loaded (the message
                    # names its version: a page behind it fetches it)
                    mine, slot.answered = slot.answered, None
                    shown = (await shown_view(server, game_id, viewer, now)
                             if shows and said is not None and seen != "damaged" and mine != seen else None)
                    said = seen
                    if not await admitted():  # a revocation while the event was made
                        yield GONE
                        return
                    if shown is not None:
                        yield shown
                    else:
                        # a seat's (and the table's) message names the version it now sees (its page's
                        # ``data-version``): a page already showing it, as after its own command's
                        # answer, need not fetch it again
                        yield (f"id: {seen}\n" if not referee_ and isinstance(seen, str) else "") + f"data: {int(now[0])}\n\n"
            if loop.time() - quiet > HEARTBEAT:
                quiet = loop.time()
                yield ": still here\n\n"
            left = deadline - loop.time()
            if left <= 0 or slot.closed:
                return
            event = server.waiting(game_id)
            try:
                await asyncio.wait_for(event.wait(), min(HEARTBEAT, left))
            except TimeoutError:
                pass
    finally:
        server.close(slot)


LINE_ENDS = re.compile(r"\r\n|\r|\n")


async def shown_view(server: ServerState, game_id: str, viewer: Viewer, row: Any) -> str | None:
    """A ``view`` event: the viewer's live fragment (the one the play that made ``row`` made for its
    kind, else a seat's kept one read on the event loop, else made in a worker thread under the
    game's lock), its version as the event's ``id``, each of its lines a ``data:`` line (an event's
    data is its lines joined by a line feed). None: no live position to show (a damaged game, one
    gone): the stream sends the plain message instead."""
    shown = server.kept_page(game_id, row, viewer.kind)
    if shown is None and viewer.player is not None and not viewer.spectator:
        shown = server.kept_fragment(game_id, viewer.player)
    if shown is None:
        try:
            shown = await server.blocking(page_shown, server, game_id, viewer, game=game_id)
        except (Refused, SolrecError):
            return None
    return view_event(shown.html, shown.version) if shown.version is not None else None


def view_event(html: str, version: str) -> str:
    """A fragment as a ``view`` event: its version the id, each of its lines (split at each of SSE's
    line ends, CR, LF and CRLF) a ``data:`` line."""
    # a page has no CR (``pages.esc`` shows a control character as its escape): split at C speed
    lines = html.split("\n") if "\r" not in html else LINE_ENDS.split(html)
    data = "".join(f"data: {line}\n" for line in lines)
    return f"event: view\nid: {version}\n{data}\n"


def answered(server: ServerState, game_id: str, shown: Shown) -> None:
    """Mark the streams of the viewer whose command was answered with ``shown`` with its version."""
    if shown.version is not None:
        for slot in server.streams:
            if slot.game_id == game_id and slot.viewer == shown.viewer:
                slot.answered = shown.version


# -- writes ------------------------------------------------------------------------------------------
Work = Callable[[ServerState, Viewer, dict[str, str], str], Any]


class Shown(NamedTuple):
    """A play's answer when the page asks for its view with it (``view=1``): the viewer's fragment,
    and whose (``Viewer.key``: its streams need not send it again)."""

    html: str
    viewer: str = ""
    version: str | None = None  # the version the fragment shows (None: a reason instead)


class Written(NamedTuple):
    """A write's answer and the game's row after it (count, head): its streams are told at once."""

    value: Any
    row: tuple[int, str]


async def write(request: Request, work: Work, answer: Callable[[Any], Awaitable[Response] | Response] | None = None) -> Response:
    """A write: ``work`` decided under the game's lock and stored through the writer (``writer.py``),
    answered once its group is committed. Only a play decides outside the writer (its hot path: the
    decision in this request's thread, only the append in the group); the rarer writes run whole in
    the writer's transaction."""
    server = state(request)
    if "token" in request.path_params:  # a seat: its token looked up in the work's thread (``who_later``)
        game_id, viewer_of = await who_later(request)
        post = await read_post(request)

        def identify() -> tuple[Viewer, dict[str, str]]:
            viewer = viewer_of()
            return viewer, posted(post, viewer)
    else:
        game_id, known = await who(request)
        if known.spectator:
            raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")
        values_ = await check_post(request, known)

        def identify() -> tuple[Viewer, dict[str, str]]:
            return known, values_

    def run() -> Any:
        viewer, values = identify()
        if work is do_play:
            # with ``view=1`` the page asks for its new view with the answer (table.js): the very
            # fragment its ``.../view`` would give now, made in this thread under the game's lock,
            # so the page needs no request of its own after each of its commands
            return do_play(server, viewer, values, game_id, values.get("view") == "1")
        return server.write(lambda store: work(server, viewer, values, game_id))

    try:
        done = await server.blocking(run, game=game_id)
    except ConcurrencyConflict:
        server.notify(game_id)
        raise Refused(409, "the position changed: showing the new one") from None
    except CorruptLog as err:  # the command line's verdict (exit 1) for the referee; a seat, only that it is damaged
        raise Refused(409, f"stored data problem: {one_line(str(err))}" if "token" not in request.path_params
                      else "stored data problem: this game's stored data is damaged; the referee's page shows "
                           "validate's verdict") from None
    except SolrecError as err:
        raise Refused(400, one_line(str(err))) from None
    if work in REVOKING:  # the old links' streams end at once (``ServerState.revoke``)
        server.revoke(game_id)
    if isinstance(done, Written):
        if isinstance(done.value, Shown):  # before its streams wake: they need not send it this view
            answered(server, game_id, done.value)
        server.notify(game_id, done.row)
        done = done.value
    else:
        server.notify(game_id)
    if isinstance(done, Shown):
        return HTMLResponse(done.html)
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


def at_command_end(server: ServerState, viewer: Viewer, game_id: str, values: dict[str, str], verb: str) -> tuple[int, Any]:
    """The position the page shows, still the game's end, where a command ends; and the log."""
    from solrec.workflows.undo import check_command_end

    log_ = server.checked(game_id, viewer, values)
    check_command_end(log_, len(log_.rows), verb)
    return len(log_.rows), log_


def do_play(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str, show: bool = False) -> Written:
    """Decided here, on the kept log (under the game's lock), then appended through the writer.
    ``show``: answered with the viewer's new page (``Shown``) instead of the word."""
    from solrec.replay.log import carry_over
    from solrec.workflows.games import decide_commands

    text = given(values, "command", "no command given", "a command", MAX_COMMAND)
    if viewer.player is not None and viewer.player in bots.bots_of(server.store(), game_id):
        raise Refused(400, f"a bot plays {viewer.player}'s seat: the referee seats a person there again first")
    before = server.checked(game_id, viewer, values)
    played = decide_commands(before, [text], actor=viewer.player, expected=(len(before.rows), before.head))
    after = server.write(played.append)
    carry_over(before, after)
    server.remember(game_id, after)
    shown = server.prepare(after, viewer if show else None)
    row = (len(after.rows), after.head)
    if show:
        try:
            made = shown if shown is not None else page_shown(server, game_id, viewer)
            return Written(Shown(made.html, viewer.key, made.version), row)
        except SolrecError:
            pass  # the command is stored: it is answered so (the word, below), and the page fetches its view
    # the referee learns the new position; a seat only that its command is stored (how many
    # events it made may hang on what it may not see: a turned card played on at once, a seeded
    # draw after it); its page then fetches its own view
    return Written(len(after.rows) if viewer.player is None else "stored", row)


def do_undo(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> int:
    from solrec.workflows.undo import take_back

    log_ = server.checked(game_id, viewer, values)
    done = take_back(server.store(), game_id, None, (len(log_.rows), log_.head), by=viewer.player,
                     ruling="referee" if viewer.player is None else None)
    return int(done["position"])


def do_note(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> int:
    from solrec.events import notes

    text = given(values, "text", "the comment is empty: give its text", "a comment", MAX_NOTE)
    at = at_command_end(server, viewer, game_id, values, "comment on")[0]
    notes.add(server.store(), game_id, at, viewer.player or "referee", notes.check_mark(values.get("mark") or None), text)
    return at


def do_fork(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> str:
    from solrec.workflows.games import fork_game

    if viewer.player is not None:
        raise Refused(403, "only the referee forks a variation")
    at, log_ = at_command_end(server, viewer, game_id, values, "fork at")
    return fork_game(server.store(), log_, at, None)[0]


def do_rematch(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> str:
    """A finished game again (``workflows/rematch.py``), asked from the page showing its end."""
    from solrec.workflows.rematch import rematch

    if viewer.player is not None:
        raise Refused(403, "only the referee starts a rematch")
    return rematch(server.store(), server.checked(game_id, viewer, values))


def do_seats(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> dict[str, str]:
    if viewer.player is not None:
        raise Refused(403, "only the referee makes seat links")
    s = server.store()
    return seats.make_links(s, game_id, s.header(game_id).players)


def do_spectators(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> str:
    if viewer.player is not None:
        raise Refused(403, "only the referee makes a spectator link")
    return seats.make_spectator_link(server.store(), game_id)


def do_revoke_spectators(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> bool:
    if viewer.player is not None:
        raise Refused(403, "only the referee revokes a spectator link")
    return seats.revoke_spectator_link(server.store(), game_id)


def do_bots(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> str:
    """The referee seats a bot at a seat (``kind``: random, greedy, mcts, with ``settings`` and an
    optional ``seed``), or a person again (``kind`` person): checked, then stored (``bots.py``)."""
    if viewer.player is not None:
        raise Refused(403, "only the referee seats a bot")
    s = server.store()
    log_ = server.load_log(game_id)
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
    server.runner.expect()  # the write's wake asks the file at once: the runner starts if it has not
    return game_id


def do_hints(server: ServerState, viewer: Viewer, values: dict[str, str], game_id: str) -> str:
    """The referee switches the seats' "hint" button on or off for this game (kept in the database)."""
    if viewer.player is not None:
        raise Refused(403, "only the referee switches hints")
    if values.get("hints") not in ("on", "off"):
        raise Refused(400, "hints are on or off")
    server.load_log(game_id)  # an unknown game is refused
    bots.set_hints(server.store(), game_id, values["hints"] == "on")
    return game_id


REVOKING = {do_seats, do_spectators, do_revoke_spectators, do_bots}  # writes after which an old link may not work


async def referee_form(request: Request, work: Work) -> Response:
    """A referee's form on the game's page (no script needed): done, then the game's page again."""
    server = state(request)
    game_id, viewer = await who(request)
    if viewer.spectator:
        raise Refused(403, "a spectator link only watches")
    values = await check_post(request, viewer)
    try:
        await server.blocking(work, server, viewer, values, game_id)
    except (SolrecError, bots.BotRefused) as err:
        raise Refused(400, one_line(str(err))) from None
    if work in REVOKING:
        server.revoke(game_id)
    server.notify(game_id)
    return RedirectResponse(f"/g/{game_id}", status_code=303)


async def seat_bots(request: Request) -> Response:
    return await referee_form(request, do_bots)


async def switch_hints(request: Request) -> Response:
    return await referee_form(request, do_hints)


async def hint(request: Request) -> Response:
    """A seat's hint: the hint bot's command for this seat at the live position its page shows, from
    what the seat sees, thought in the bots' pool (never on the event loop); nothing is stored."""
    server = state(request)
    game_id, viewer = await who(request)
    if viewer.player is None:
        raise Refused(403, "a hint is a seat's: open the seat's link")
    values = await check_post(request, viewer)

    def ask() -> tuple[int, str]:
        log_ = server.checked(game_id, viewer, values)
        still_hinted(server, game_id, viewer)
        if bots.whose_turn(log_) != viewer.player:
            raise Refused(400, "a hint is for the seat to act: it is not your turn")
        return len(log_.rows), log_.head

    try:
        at = await server.blocking(ask)
    except ConcurrencyConflict:
        raise Refused(409, "the position changed: showing the new one") from None
    except CorruptLog:  # a seat's: the verdict may quote what it may not see
        raise Refused(409, "stored data problem: this game's stored data is damaged; the referee's page shows "
                           "validate's verdict") from None
    except SolrecError as err:
        raise Refused(400, one_line(str(err))) from None
    try:
        # submitted from a worker thread (the pool's first use spawns its processes), awaited off the loop
        future = await run_in_threadpool(server.runner.ask, game_id, viewer.player, server.hint_bot, bots.HINT_SEED)
        thought = await asyncio.wrap_future(future)
    except bots.BotRefused as err:
        raise Refused(400, one_line(str(err))) from None
    if (thought.events, thought.head) != at:
        raise Refused(409, "the position changed: showing the new one")
    # asked again once it is thought: a switch (or a bot seated, a link revoked) that landed while the
    # hint was in flight refuses it; one decided before the switch is answered
    await server.blocking(still_hinted, server, game_id, viewer)
    return PlainTextResponse(thought.hint_text())


def still_hinted(server: ServerState, game_id: str, viewer: Viewer) -> None:
    """Refused unless the seat's page offers a hint now: hints on in the game, no bot at the seat, the
    seat's link still its own (a blocking read)."""
    store = server.store()
    if not server.still_lets_in(game_id, viewer):
        raise Refused(404, NOT_FOUND)
    if viewer.player in bots.bots_of(store, game_id):
        raise Refused(400, f"a bot plays {viewer.player}'s seat: no hint for a bot's seat")
    if not bots.hints_on(store, game_id):
        raise Refused(400, "the referee switched hints off for this game")


def base_of(request: Request) -> str:
    return state(request).reachable or str(request.base_url).rstrip("/")


async def play(request: Request) -> Response:
    return await write(request, do_play)


async def undo(request: Request) -> Response:
    return await write(request, do_undo)


async def note(request: Request) -> Response:
    return await write(request, do_note)


async def fork(request: Request) -> Response:
    return await write(request, do_fork)


async def rematch(request: Request) -> Response:
    return await write(request, do_rematch)


async def make_seats(request: Request) -> Response:
    base, game_id = base_of(request), request.path_params["gid"]

    def shown(tokens: dict[str, str]) -> Response:
        links = {p: f"{base}/g/{game_id}/seat/{t}" for p, t in tokens.items()}
        return HTMLResponse(pages.links_page(game_id, links))

    return await write(request, do_seats, shown)


async def make_spectators(request: Request) -> Response:
    base, game_id = base_of(request), request.path_params["gid"]
    return await write(request, do_spectators,
                       lambda token: HTMLResponse(pages.spectator_page(game_id, f"{base}/g/{game_id}/watch/{token}")))


async def revoke_spectators(request: Request) -> Response:
    game_id = request.path_params["gid"]
    return await write(request, do_revoke_spectators, lambda _: RedirectResponse(f"/g/{game_id}", status_code=303))


async def spectator_refused(request: Request) -> Response:
    await who(request)  # a wrong link is the same 404 as everywhere
    raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")


# -- faults ------------------------------------------------------------------------------------------
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


# -- the addresses -----------------------------------------------------------------------------------
# the pages of a game, at the referee's address, at each seat's and (reading only) at a spectator's
PER_VIEWER = [("", game_page, "GET"), ("/view", fragment, "GET"), ("/live", live, "GET"),
              ("/play", play, "POST"), ("/undo", undo, "POST"), ("/note", note, "POST")]
ROUTES = [
    Route("/", home),
    Route("/new", new_page),
    Route("/new", new_post, methods=["POST"]),
    Route("/static/{name}", static_file),
    Route("/g/{gid}/fork", fork, methods=["POST"]),
    Route("/g/{gid}/rematch", rematch, methods=["POST"]),
    Route("/g/{gid}/seats", make_seats, methods=["POST"]),
    Route("/g/{gid}/spectators", make_spectators, methods=["POST"]),
    Route("/g/{gid}/spectators/revoke", revoke_spectators, methods=["POST"]),
    Route("/g/{gid}/bots", seat_bots, methods=["POST"]),
    Route("/g/{gid}/hints", switch_hints, methods=["POST"]),
    Route("/g/{gid}/seat/{token}/hint", hint, methods=["POST"]),
    Route("/g/{gid}/watch/{watch}/hint", spectator_refused, methods=["POST"]),
    Route("/g/{gid}/study", study_page),
    Route("/disputes", disputes_page),
    Route("/tables", tables_page),
    Route("/tables/live", tables_live),
    *(Route(base + path, endpoint, methods=[method])
      for base in ("/g/{gid}", "/g/{gid}/seat/{token}") for path, endpoint, method in PER_VIEWER),
    *(Route("/g/{gid}/watch/{watch}" + path, endpoint if method == "GET" else spectator_refused, methods=[method])
      for path, endpoint, method in PER_VIEWER),
]


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
