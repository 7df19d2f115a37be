"""What one viewer of a game sees at a position: the one place where ``solrec serve`` filters.

A viewer is the referee (None: everything, as ``--reveal``), a player (his seat: the ``--as`` view), or
a spectator (``table``: what the table shows, no hand, no seed, nothing to play).
Every byte a seat receives about a game comes from ``view``: the board through ``svg_as`` /
``render_as``, the commands in their public notation (``public_notation_at``), no event descriptions
(an event's words may name what a seat must not see: the card another player drew), no seed, and
choices only when that player is to act. The set-up position is filtered like every other (the way
this fails elsewhere: boardgame.io's initial state sent unfiltered, its issue 1159).
"""

from __future__ import annotations

from typing import Any

import attrs

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.game import CHANCE, Choices
from solrec.core.play import ENTERED
from solrec.events.envelope import Row
from solrec.replay.log import Log, move_at, replay_of, state_at

_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'
MAX_OPTION_SHOWN = 80  # characters of an option value shown (a component set's content is named by its size)


@attrs.frozen
class Move:
    number: int  # the command's number (1, 2, ...)
    actor: str
    command: str
    position: int  # the position after it (events applied)
    events: tuple[str, ...] = ()  # the referee's view only


@attrs.frozen
class View:
    game_id: str
    title: str
    player: str | None  # None: the referee
    position: int  # the position shown
    head: str  # the log's head hash (the position a write is decided against)
    end: int  # the log's length: ``position == end`` is the live position
    players: tuple[str, ...]
    setup: tuple[tuple[str, str], ...]  # what the header says besides the players, as the viewer may see it
    to_act: str | None
    status: str
    board: str  # an inline SVG, or "" (then ``text``)
    text: str
    totals: tuple[tuple[str, int], ...]
    lines: tuple[tuple[str, int, str, str], ...]
    moves: tuple[Move, ...]
    notes: tuple[tuple[int, int, str, str, str], ...]  # position, n, by, mark, text
    choices: Choices | None  # what the viewer may click now (None: nothing to play)
    may_type: bool  # the notation box
    may_undo: bool
    hints: tuple[str, ...] = ()  # at an entered chance step: what the referee types (``chance_forms``)
    spectator: bool = False  # the table's view through a spectator link: read-only
    move: int = 0  # the move shown (move N: the record's N-th line; 0 the set-up)

    @property
    def live(self) -> bool:
        return self.position == self.end


# The move lists of the last logs read, per viewer kind (a player's or the referee's): a page
# fetches its view after every command, and a long game's list is the costly part (a parse per
# command). A log that is the last one with commands appended gets only the new commands' lines.
_MOVES: dict[tuple[str, bool], tuple[Log, tuple[Move, ...]]] = {}


def _moves(log: Log, reveal: bool) -> tuple[Move, ...]:
    key = (log.game_id, reveal)
    kept = _MOVES.get(key)
    moves: list[Move] = []
    if kept is not None:
        old, old_moves = kept
        # the lines of the commands both logs share: the same hash at the last one's end is the same
        # rows up to there (the hash chain, verified on load)
        shared = [m for m in old_moves if m.position <= len(log.rows)]
        if old.header == log.header and shared and log.rows[shared[-1].position - 1].hash == old.rows[shared[-1].position - 1].hash:
            moves = shared
    game = log.game
    done = moves[-1].position if moves else 0
    replay = replay_of(log)
    for group in log.steps():
        if group[0].seq < done:
            continue
        first, end = group[0].seq, group[-1].seq + 1
        before = replay.state_at(first)
        written = group[0].command
        try:
            parsed = game.parse(written, before)
            shown = game.format_at(parsed, before) if reveal else game.public_notation_at(parsed, before)
        except SolrecError:
            # a stored command that does not read where it stands: the referee sees it as stored;
            # a seat sees the table's version of it, which hides what the game hides in its notation
            shown = written if reveal else game.public_command_text(written)
        described = tuple(game.describe_event_at(e, before) for e in replay.events(end)[first:end]) if reveal else ()
        moves.append(Move(len(moves) + 1, group[0].actor, shown, end, described))
    out = tuple(moves)
    if key not in _MOVES and len(_MOVES) >= 32:
        _MOVES.pop(next(iter(_MOVES)))
    _MOVES[key] = (log, out)
    return out


def _last_events(log: Log, position: int) -> list[Any] | None:
    """The events of the command that ends at ``position`` (highlighted on the board)."""
    if position == 0:
        return None
    rows: list[Row] = []
    for group in log.steps():
        if group[-1].seq + 1 == position:
            rows = group
            break
    if not rows:
        return None
    return replay_of(log).events(position)[rows[0].seq:position]


def _setup(log: Log, reveal: bool) -> tuple[tuple[str, str], ...]:
    header = log.header
    out = [("chance", header.chance)]
    if reveal and header.seed is not None:
        out.append(("seed", str(header.seed)))  # a seed tells every future draw: the referee's only
    for name, value in header.options_dict().items():
        text = "on" if value is True else "off" if value is False else str(value)
        if len(text) > MAX_OPTION_SHOWN:
            text = f"<{len(text):,} characters>"
        out.append((name, text))
    out.append(("rules", header.rules))
    return tuple(out)


def inline_svg(picture: str | None) -> str:
    """A game's standalone SVG document as an element to put in a page."""
    if not picture:
        return ""
    return picture.replace(_XML_DECL, "", 1).strip()


def view(log: Log, player: str | None, at: int | None = None, *, table: bool = False) -> View:
    """What ``player`` (None: the referee; with ``table``, a spectator: the public view) sees of the
    game at position ``at`` (None: the end)."""
    game = log.game
    end = len(log.rows)
    position = end if at is None else at
    if not 0 <= position <= end:
        raise CorruptLog(f"position {position} is outside the log (0 to {end})")  # the app checks first
    state = state_at(log, position)
    reveal = player is None and not table
    last = _last_events(log, position)
    if player is None:
        picture = game.svg(state, reveal=reveal, last=last)
        text = "" if picture else game.render(state, reveal)
    else:
        picture = game.svg_as(state, player, last=last)
        text = "" if picture else game.render_as(state, player)
    outcome = game.outcome(state)
    to_act = game.to_act(state)
    if outcome is not None:
        status = f"game over: {outcome.reason}"
    elif to_act == CHANCE:
        status = "chance to act: the referee enters what the table shows" if log.header.chance == ENTERED else "chance to act"
    else:
        status = f"{to_act} to act" + (" (your turn)" if to_act == player else "")
    choices = None
    live = position == end
    entered = log.header.chance == ENTERED
    if live and to_act is not None and not table:
        if reveal and (to_act != CHANCE or entered):
            choices = game.choices(state, entered=entered)
        elif not reveal and to_act == player:
            choices = game.choices(state, entered=False)
    moves = _moves(log, reveal)
    shown_moves = tuple(m for m in moves if m.position <= position) if not live else moves
    sheet = game.score(state)
    may_undo = live and bool(moves) and not table and (
        reveal or _last_player(moves, log.header.chance != ENTERED) == player)
    return View(
        game_id=log.game_id, title=game.title, player=player, position=position, head=log.head, end=end,
        players=tuple(log.header.players), setup=_setup(log, reveal), to_act=to_act, status=status,
        board=inline_svg(picture), text=text, totals=tuple(sheet.totals),
        lines=tuple((ln.player, ln.points, ln.what, ln.rule) for ln in sheet.lines),
        moves=shown_moves,
        notes=tuple((n.position, n.n, n.by, n.mark, n.text) for n in log.notes.notes if n.position <= position),
        choices=choices, may_type=choices is not None, may_undo=may_undo,
        hints=tuple(game.chance_forms(state)) if choices is not None and to_act == CHANCE else (),
        spectator=table, move=move_at(log.rows, position),
    )


def _last_player(moves: tuple[Move, ...], seeded: bool) -> str | None:
    """The player whose command a seat's "take back" takes back: the last one, past the seeded chance
    it caused (``manage.take_back`` with ``steps`` None)."""
    for m in reversed(moves):
        if not (seeded and m.actor == CHANCE):
            return m.actor
    return None
