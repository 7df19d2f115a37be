"""Live updates of ``solrec serve`` (Server-Sent Events): a game's stream for each viewer, the
referee's tables page and its one stream, and the bounds on streams (docs/security.md). A stream
checks its viewer again before an event after a revocation and ends a revoked token's with ``gone``."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.observe import Viewer as Seer
from solrec.core.words import one_line

from . import pages
from .asking import referee, state, who
from .reads import page_shown
from .state import NOT_FOUND, Caller, Refused, ServerState, Stream


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
                v = server.view_for(server.load_log(gid), Caller(Seer.referee(), f"/g/{gid}", ""))
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


async def stream(server: ServerState, game_id: str, viewer: Caller, slot: Stream, shows: bool = False,
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
    referee_ = viewer.referee
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


async def shown_view(server: ServerState, game_id: str, viewer: Caller, row: Any) -> str | None:
    """A ``view`` event: the viewer's live fragment (the one the play that made ``row`` made for its
    kind, else a seat's kept one read on the event loop, else made in a worker thread under the
    game's lock), its version as the event's ``id``, each of its lines a ``data:`` line (an event's
    data is its lines joined by a line feed). None: no live position to show (a damaged game, one
    gone): the stream sends the plain message instead."""
    shown = server.kept_page(game_id, row, viewer.kind)
    if shown is None and viewer.player is not None:  # a seat's (a spectator has no player)
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


