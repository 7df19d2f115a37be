"""The writes of ``solrec serve``: a command, a take-back, a comment, a fork, a rematch, seat and
spectator links, bot seats, the hint switch, a seat's hint. Each is a POST checked against the
position and version the page showed and its CSRF value, decided under the game's lock and stored
through the server's one writer (``writer.py``) before it is answered (docs/security.md)."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.words import one_line, quoted
from solrec.events.store import ConcurrencyConflict

from . import bots, pages, seats
from .asking import check_post, posted, read_post, state, who, who_later
from .reads import page_shown
from .state import NOT_FOUND, Caller, Refused, ServerState

MAX_COMMAND = 2000  # characters of a typed command
MAX_NOTE = 4000


# -- writes ------------------------------------------------------------------------------------------
Work = Callable[[ServerState, Caller, dict[str, str], str], Any]


class Shown(NamedTuple):
    """A play's answer when the page asks for its view with it (``view=1``): the viewer's fragment,
    and whose (``Caller.key``: its streams need not send it again)."""

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

        def identify() -> tuple[Caller, dict[str, str]]:
            viewer = viewer_of()
            return viewer, posted(post, viewer)
    else:
        game_id, known = await who(request)
        if known.spectator:
            raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")
        values_ = await check_post(request, known)

        def identify() -> tuple[Caller, dict[str, str]]:
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


def answered(server: ServerState, game_id: str, shown: Shown) -> None:
    """Mark the streams of the viewer whose command was answered with ``shown`` with its version."""
    if shown.version is not None:
        for slot in server.streams:
            if slot.game_id == game_id and slot.viewer == shown.viewer:
                slot.answered = shown.version


def given(values: dict[str, str], field: str, empty: str, what: str, most: int) -> str:
    text = values.get(field, "").strip()
    if not text:
        raise Refused(400, empty)
    if len(text) > most:
        raise Refused(400, f"{what} is at most {most} characters")
    return text


def at_command_end(server: ServerState, viewer: Caller, game_id: str, values: dict[str, str], verb: str) -> tuple[int, Any]:
    """The position the page shows, still the game's end, where a command ends; and the log."""
    from solrec.workflows.undo import check_command_end

    log_ = server.checked(game_id, viewer, values)
    check_command_end(log_, len(log_.rows), verb)
    return len(log_.rows), log_


def do_play(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str, show: bool = False) -> Written:
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


def do_undo(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> int:
    from solrec.workflows.undo import take_back

    log_ = server.checked(game_id, viewer, values)
    done = take_back(server.store(), game_id, None, (len(log_.rows), log_.head), by=viewer.player,
                     ruling="referee" if viewer.player is None else None, drop_comments=True)
    return int(done["position"])


class Noted(NamedTuple):
    """A comment stored: its position, its move, and whether the page's own form sent it (``page``:
    answered with that page at the move, for a browser without the script)."""

    at: int
    move: int
    page: bool


def do_note(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> Noted:
    """A comment on the move the page shows: the live position's (a seat's tools), or the desk's at
    ``#move=N`` (whose form names the log's length it saw, ``end``: moves played since keep it). Stored as ``solrec comment --at
    N`` stores it (``notes.add`` at the position after move N); its author the seat, or "referee".
    Only the referee rules (the mark ``ruled``); a spectator is refused before this."""
    from solrec.events import notes
    from solrec.replay.log import move_at

    text = given(values, "text", "the comment is empty: give its text", "a comment", MAX_NOTE)
    mark = notes.check_mark(values.get("mark") or None)
    if mark == "ruled" and viewer.player is not None:
        raise Refused(403, "only the referee rules on a move: a seat comments")
    if not values.get("end"):  # the tools' form (a seat's, at the live position): the live position's
        at, log_ = at_command_end(server, viewer, game_id, values, "comment on")
    else:
        at, log_ = at_earlier_move(server, viewer, game_id, values)
    notes.add(server.store(), game_id, at, viewer.player or "referee", mark, text)
    return Noted(at, move_at(log_.rows, at), values.get("page") == "1")


def at_earlier_move(server: ServerState, viewer: Caller, game_id: str, values: dict[str, str]) -> tuple[int, Any]:
    """The position of the move a page's desk shows (its form: ``at``, ``version`` and the log's
    length then, ``end``; the live position's too), where a move ends; and the log. Moves played since keep it: the
    version is checked against the same view of the log as it was (its first ``end`` rows); a
    take-back over it, or rows changed under it, is a conflict (409)."""
    from solrec.replay.log import from_rows
    from solrec.workflows.undo import check_command_end

    from .state import position_of
    from .views import view

    at, version = position_of(values)
    end = values.get("end", "")
    if not (end.isascii() and end.isdigit()) or len(end) > 12:
        raise Refused(400, "the page did not say which position it shows (reload the page)")
    log_ = server.as_stored(server.load_log(game_id))
    if not at <= int(end) <= len(log_.rows):
        raise ConcurrencyConflict("the position changed")
    then = log_ if int(end) == len(log_.rows) else from_rows(game_id, log_.header, log_.rows[:int(end)])
    shown = server.view_for(then, viewer, at) if then is log_ else view(then, viewer.seen, at)
    if not hmac.compare_digest(version.encode("utf-8", "surrogatepass"), server.version_of(shown).encode()):
        raise ConcurrencyConflict("the position changed")
    return check_command_end(log_, at, "comment on"), log_


def do_fork(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> str:
    from solrec.workflows.games import fork_game

    if viewer.player is not None:
        raise Refused(403, "only the referee forks a variation")
    at, log_ = at_command_end(server, viewer, game_id, values, "fork at")
    return fork_game(server.store(), log_, at, None)[0]


def do_rematch(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> str:
    """A finished game again (``workflows/rematch.py``), asked from the page showing its end."""
    from solrec.workflows.rematch import rematch

    if viewer.player is not None:
        raise Refused(403, "only the referee starts a rematch")
    return rematch(server.store(), server.checked(game_id, viewer, values))


def do_seats(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> dict[str, str]:
    if viewer.player is not None:
        raise Refused(403, "only the referee makes seat links")
    s = server.store()
    return seats.make_links(s, game_id, s.header(game_id).players)


def do_spectators(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> str:
    if viewer.player is not None:
        raise Refused(403, "only the referee makes a spectator link")
    return seats.make_spectator_link(server.store(), game_id)


def do_revoke_spectators(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> bool:
    if viewer.player is not None:
        raise Refused(403, "only the referee revokes a spectator link")
    return seats.revoke_spectator_link(server.store(), game_id)


def do_bots(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> str:
    """The referee seats a bot at a seat (``kind``: random, greedy, mcts, with ``settings`` and an
    optional ``seed``), or a person again (``kind`` person): checked, then stored (``bots.py``)."""
    if viewer.player is not None:
        raise Refused(403, "only the referee seats a bot")
    s = server.store()
    log_ = server.load_log(game_id)
    player, kind = values.get("player", ""), values.get("kind", "").strip()
    if player not in log_.header.players:
        raise Refused(400, f"{quoted(player[:40])} is not a player of {game_id}")
    if kind == bots.PERSON:
        bots.unseat_bot(s, game_id, player)
        return game_id
    bot = bots.check_bot(kind, values.get("settings", ""))
    seed_text = values.get("seed", "").strip()
    if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
        raise Refused(400, f"a bot's seed is a whole number (or empty: random), not {quoted(seed_text[:30])}")
    if bots.whose_turn(log_) is None:
        raise Refused(400, f"the game is over: {game_id} needs no bot")
    bots.check_table(log_.game, log_.header.players, log_.header.options_dict(), (bot,))
    bots.seat_bot(s, game_id, player, bot, int(seed_text) if seed_text else None)
    server.runner.expect()  # the write's wake asks the file at once: the runner starts if it has not
    return game_id


def do_hints(server: ServerState, viewer: Caller, values: dict[str, str], game_id: str) -> str:
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


def still_hinted(server: ServerState, game_id: str, viewer: Caller) -> None:
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
    """A comment: answered with its position (the script), or, from the page's own form sent without
    the script (``page``), with that page at the move (its address ``?move=N#move=N``)."""
    base = request.url.path.removesuffix("/note")

    def answer(done: Noted) -> Response:
        if done.page:
            return RedirectResponse(f"{base}?move={done.move}#move={done.move}", status_code=303)
        return PlainTextResponse(str(done.at))

    return await write(request, do_note, answer)


async def fork(request: Request) -> Response:
    return await write(request, do_fork)


async def rematch(request: Request) -> Response:
    return await write(request, do_rematch)


async def make_seats(request: Request) -> Response:
    base, game_id = base_of(request), request.path_params["gid"]

    def shown(tokens: dict[str, str]) -> Response:
        links = {p: f"{base}/g/{game_id}/seat/{t}" for p, t in tokens.items()}
        return HTMLResponse(pages.links_page(game_id, links, lan_command(request, base)))

    return await write(request, do_seats, shown)


def lan_command(request: Request, base: str) -> str | None:
    """Where the links made here name this machine only (the server listens on loopback): the command
    that serves the local network, which their page says beside the QR codes; else None."""
    from solrec.events.store import default_db_path

    if not seats.loopback_only(base):
        return None
    server = request.scope.get("server")
    port = server[1] if server and server[1] else request.url.port
    return seats.lan_command(str(state(request).db), str(default_db_path()), port)


async def make_spectators(request: Request) -> Response:
    base, game_id = base_of(request), request.path_params["gid"]
    return await write(request, do_spectators,
                       lambda token: HTMLResponse(pages.spectator_page(game_id, f"{base}/g/{game_id}/watch/{token}",
                                                                       lan_command(request, base))))


async def revoke_spectators(request: Request) -> Response:
    game_id = request.path_params["gid"]
    return await write(request, do_revoke_spectators, lambda _: RedirectResponse(f"/g/{game_id}", status_code=303))


async def spectator_refused(request: Request) -> Response:
    await who(request)  # a wrong link is the same 404 as everywhere
    raise Refused(403, "a spectator link only watches: it cannot play, take back or comment")


