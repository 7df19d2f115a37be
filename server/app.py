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
``state.py``'s docstring and docs/architecture.md. The endpoints are module-level functions, by what
they serve: ``reads.py`` (the pages), ``live.py`` (the streams and the tables page), ``writes.py``
(the POSTs), with ``asking.py`` (who is asking, a POST's checks); their state is
``request.app.state.server`` (a ``ServerState``); this module makes the app (``create_app``), its
middleware, its fault pages and its addresses (``ROUTES``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import bots, pages
from .live import live, tables_live, tables_page
from .reads import disputes_page, fragment, game_page, home, new_page, new_post, static_file, study_page
from .state import NOT_FOUND, Caller, Refused, ServerState
from .writes import (
    fork,
    hint,
    make_seats,
    make_spectators,
    note,
    play,
    rematch,
    revoke_spectators,
    seat_bots,
    spectator_refused,
    switch_hints,
    undo,
)

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
__all__ = ["CSP", "NOT_FOUND", "Caller", "Refused", "ServerState", "create_app"]


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
