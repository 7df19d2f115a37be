"""The pages of ``solrec serve`` (what a GET answers): the referee's list of games, the new-game
form and its POST, a game's page and its fragment for each viewer, the disputes and study pages,
the static files. What a viewer sees is made in one place (``views.view``, through ``ServerState``)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.words import one_line, quoted

from . import bots, pages, seats
from .asking import at_param, check_post, cookie_name, move_param, quick_seat, referee, state, who_later
from .state import NOT_FOUND, STATIC, Caller, Fragment, Refused, ServerState


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
                raise InvalidSetup(f"the seed is a whole number, not {quoted(seed_text[:30])}") from None
        gid = values.get("id", "").strip() or None
        if seated:
            bots.check_table(game, players, options, seated.values())
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
        referee_ = viewer.referee
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


def page_fragment(server: ServerState, game_id: str, viewer: Caller, at: int | None = None, move: int | None = None) -> str:
    """What ``.../view`` answers: the viewer's fragment of the position (under the game's lock)."""
    return page_shown(server, game_id, viewer, at, move).html


def page_shown(server: ServerState, game_id: str, viewer: Caller, at: int | None = None, move: int | None = None) -> Fragment:
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


