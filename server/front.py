"""``solrec front``: one page for a tournament larger than one server (docs/scaling.md, "Beyond one
machine").

Each game server is a ``solrec serve`` on its own shard database; a game lives on exactly one of
them, from its creation to its end (pinned by its id). The front lists every shard's games, each
linking to the server that holds it, and sends any address of a game (``/g/ID/...``: a seat's link,
a spectator's, the referee's) to that server with a 307: a link made with the front's address
works wherever the game is. It keeps nothing and writes nothing: it reads the shards' games rows
(read-only, at each request), and holds no token; the servers check every token as always. What a
proxy in front of several machines does instead (forward rather than redirect) is in
docs/scaling.md.

Endpoints at module level; the shards are on the app (``app.state.shards``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from solrec.core.errors import SolrecError
from solrec.core.words import one_line

from . import pages
from .app import NOT_FOUND, HostCheck, SecurityHeaders


@attrs.frozen
class Shard:
    """A game server and the database it serves: ``url`` is ``http://HOST:PORT`` as players reach it."""

    url: str
    db: Path


def holders(shards: tuple[Shard, ...], game_id: str) -> list[Shard]:
    """The shards whose database holds ``game_id`` (one, when ids are unique across the tournament)."""
    from solrec.events.store import Store

    found = []
    for shard in shards:
        try:
            store = Store(shard.db, create=False)
        except SolrecError:
            continue  # a shard that cannot be read holds nothing to send anyone to (the list says why)
        try:
            if store.has_game(game_id):
                found.append(shard)
        except SolrecError:
            pass
        finally:
            store.close()
    return found


def listing(shards: tuple[Shard, ...]) -> tuple[list[tuple[Shard, dict[str, Any]]], list[str]]:
    """Every shard's games rows, and a line for each shard that could not be read."""
    from solrec.events.store import Store

    rows: list[tuple[Shard, dict[str, Any]]] = []
    problems: list[str] = []
    for shard in shards:
        try:
            store = Store(shard.db, create=False)
            try:
                rows += [(shard, r) for r in store.list_games()]
            finally:
                store.close()
        except SolrecError as err:
            problems.append(f"{shard.url}: {one_line(str(err))}")
    return rows, problems


def front_page(rows: list[tuple[Shard, dict[str, Any]]], problems: list[str]) -> str:
    import json

    esc = pages.esc
    ids: dict[str, int] = {}
    for _, r in rows:
        ids[r["id"]] = ids.get(r["id"], 0) + 1
    body = ["<header><h1>solrec: the tournament's games</h1>",
            "<p>Each game is played on the server that holds it: its link leads there. A seat's link works "
            "with this page's address too.</p></header>", "<main>"]
    body += [f'<p class="warning" role="alert">{esc(p)}</p>' for p in problems]
    body.append('<table class="games"><thead><tr><th>id</th><th>game</th><th>players</th><th>status</th>'
                "<th>server</th></tr></thead><tbody>")
    for shard, r in rows:
        players = ", ".join(pages.name(p) for p in json.loads(r["players"]))
        status = "over" if r["outcome"] is not None else "running"
        twice = ' <span class="warning">(the same id on another server: its links here cannot tell them apart)</span>' \
            if ids[r["id"]] > 1 else ""
        body.append(f'<tr><td><a class="game" href="{esc(shard.url)}/g/{esc(r["id"])}">{esc(r["id"])}</a>{twice}</td>'
                    f'<td>{esc(r["game"])}</td><td>{players}</td><td>{status}</td>'
                    f'<td class="server">{esc(shard.url)}</td></tr>')
    if not rows:
        body.append('<tr><td colspan="5">no game stored yet</td></tr>')
    body.append("</tbody></table></main>")
    return pages.document("solrec: the tournament's games", "\n".join(body), script=False)


async def home(request: Request) -> Response:
    rows, problems = await run_in_threadpool(listing, request.app.state.shards)
    return HTMLResponse(front_page(rows, problems))


async def to_server(request: Request) -> Response:
    """A game's address sent on to the server that holds the game (307: the method and any body kept)."""
    game_id = request.path_params["gid"]
    found = await run_in_threadpool(holders, request.app.state.shards, game_id)
    if not found:
        return HTMLResponse(pages.message("solrec", NOT_FOUND), status_code=404)
    if len(found) > 1:
        servers = ", ".join(s.url for s in found)
        return HTMLResponse(pages.message("solrec", f"two servers hold a game of this id ({servers}): open it from its own "
                                                    "server's link"), status_code=409)
    query = request.url.query
    return RedirectResponse(found[0].url + request.url.path + (f"?{query}" if query else ""), status_code=307)


async def stylesheet(request: Request) -> Response:
    from importlib import resources

    css = resources.files("solrec.server.static").joinpath("table.css").read_bytes()
    return Response(css, media_type="text/css; charset=utf-8", headers={"cache-control": "no-cache"})


async def not_found(request: Request, exc: Exception) -> Response:
    return HTMLResponse(pages.message("solrec", NOT_FOUND), status_code=404)


def create_front_app(shards: list[Shard], *, hosts: set[str] | None = None) -> ASGIApp:
    """The front over ``shards``; ``hosts``: the Host names it answers to (None: any), as ``serve``'s."""
    app = Starlette(
        routes=[Route("/", home), Route("/static/table.css", stylesheet), Route("/g/{gid}{rest:path}", to_server)],
        exception_handlers={404: not_found, 405: not_found},
    )
    app.state.shards = tuple(shards)
    app.add_middleware(HostCheck, hosts=hosts)
    return SecurityHeaders(app)
