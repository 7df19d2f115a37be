"""Who is asking, for every endpoint of ``solrec serve``: the referee (by the cookie holding the
start-up link's token, checked against the kept hash at every request), a seat (by its link's
token, looked up by its hash), a spectator (likewise); a POST's own checks (where it comes from, its
form, its CSRF value); the query's positions (docs/security.md)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from starlette.requests import Request

from solrec.core.errors import SolrecError
from solrec.core.observe import Viewer as Seer

from . import seats
from .state import NOT_FOUND, Caller, Fragment, Refused, ServerState


def state(request: Request) -> ServerState:
    return request.app.state.server


# -- who is asking -----------------------------------------------------------------------------------
def cookie_name(request: Request) -> str:
    return state(request).referee_cookie()


def is_referee(request: Request) -> bool:
    return state(request).referee_token_ok(request.cookies.get(cookie_name(request), ""))


def referee(request: Request, game_id: str = "") -> Caller:
    if not is_referee(request):
        raise Refused(403, "this page needs the referee's link (printed when the server started)")
    token = request.cookies.get(cookie_name(request), "")
    return Caller(Seer.referee(), f"/g/{game_id}", state(request).csrf_for("referee", token), token=token)


def quick_seat(server: ServerState, game_id: str, token: str) -> Fragment | None:
    """A seat's kept live page, from the event loop's reads (``ServerState.kept_fragment``), or None."""
    try:
        store = server.quick_store()
        player = seats.seat_of(store, game_id, token) if store is not None else None
        return server.kept_fragment(game_id, player) if player is not None else None
    except (SolrecError, sqlite3.Error):
        return None


def seat_viewer(server: ServerState, game_id: str, token: str) -> Caller:
    """A seat link's viewer: its player found by the token's hash (a blocking read); 404 for none."""
    player = seats.seat_of(server.store(), game_id, token) if server.db.exists() else None
    if player is None:
        raise Refused(404, NOT_FOUND)
    return Caller(Seer.seat(player), f"/g/{game_id}/seat/{token}", server.csrf_for("seat", token, game_id), f"{game_id}\0{token}",
                  token=token)


async def seat(request: Request) -> tuple[str, Caller]:
    server = state(request)
    game_id, token = request.path_params["gid"], request.path_params["token"]
    return game_id, await server.blocking(seat_viewer, server, game_id, token)


async def spectator(request: Request) -> tuple[str, Caller]:
    server = state(request)
    game_id, token = request.path_params["gid"], request.path_params["watch"]
    ok = await server.blocking(lambda: seats.is_spectator(server.store(), game_id, token) if server.db.exists() else False)
    if not ok:
        raise Refused(404, NOT_FOUND)
    return game_id, Caller(Seer.table(), f"/g/{game_id}/watch/{token}", "", f"{game_id}\0watch\0{token}", token=token)


async def who(request: Request) -> tuple[str, Caller]:
    if "watch" in request.path_params:
        return await spectator(request)
    if "token" in request.path_params:
        return await seat(request)
    game_id = request.path_params["gid"]
    return game_id, referee(request, game_id)


async def who_later(request: Request) -> tuple[str, Callable[[], Caller]]:
    """``who`` for an endpoint with blocking work of its own: a seat's token is looked up in that
    work's thread, the first thing it does (a request of a seat, the most frequent, then waits for
    one worker thread instead of two: each such hop cost about as much CPU as the kept view it fetched)."""
    if "token" in request.path_params and "watch" not in request.path_params:
        server = state(request)
        game_id, token = request.path_params["gid"], request.path_params["token"]
        return game_id, lambda: seat_viewer(server, game_id, token)
    game_id, viewer = await who(request)
    return game_id, lambda: viewer


async def check_post(request: Request, viewer: Caller) -> dict[str, str]:
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


def posted(post: Posted, viewer: Caller) -> dict[str, str]:
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


