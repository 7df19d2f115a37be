"""Solari state, its setup options, and how each event changes the state (one mutator per event)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..folds import RememberedFolds
from ..frozen import evolve as copy_with
from ..options import option
from . import text
from .board import Board, Piece, as_dict, board_from
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .scoring import (
    DIMINISHED_CHOICES,
    FULL_BOTH_CHOICES,
    PARTIALS_CHOICES,
    PARTNER_DOUBLER_CHOICES,
    UNCHANGED_ROW_CHOICES,
    Unit,
)

SOURCES = ("dice", "dominoes-hidden", "dominoes-open", "dominoes-free")
DOMINOES = tuple((a, b) for a in range(1, 7) for b in range(a, 7))  # the 21 combinations 1-1 .. 6-6


@attrs.frozen
class Options:
    sides: str = option("", "which sides play, in seat (turn) order, e.g. Uranus,Saturn; empty = by player count",
                        rule=text.OPTION_SIDES)
    teams: bool = option(False, "4 players: Uranus+Neptune against Saturn+Jupiter", rule=text.OPTION_TEAMS)
    version: int = option(3, "1: rows only; 2: + sequences; 3: + orientations", choices=(1, 2, 3), rule=text.OPTION_VERSION)
    chasers: bool = option(True, "play with the chasers", rule=text.OPTION_CHASERS)
    blockers: bool = option(True, "play with the blockers", rule=text.OPTION_BLOCKERS)
    doublers: bool = option(True, "play with the doublers", rule=text.OPTION_DOUBLERS)
    joker: bool = option(False, "6-6 plays as any combination up to 6 per die", rule=text.OPTION_JOKER)
    source: str = option("dice", "where the numbers come from", choices=SOURCES, rule=text.OPTION_SOURCE)
    target: int = option(36, "points that end the game at the end of a move (0 = no target)", rule=text.OPTION_TARGET)
    moves: int = option(0, "a fixed number of moves per player (0 = none)", rule=text.OPTION_MOVES)
    layout: str = option("", "start layout in the layout notation (empty = the house layout)")
    reentry: str = option(
        "move", "a total shot's reentry is the whole move (move) or comes before a normal move (extra)",
        choices=("move", "extra"), rule=text.OPTION_REENTRY,
    )
    # Scoring readings (docs/rules/solari-scoring.md); the names match core.solari.scoring.ScoringRules.
    full_sequence_and_orientation: str = option(
        "both", "a row both a full sequence and a full orientation: both / higher / additive", choices=FULL_BOTH_CHOICES,
        rule=text.OPTION_FULL_BOTH,
    )
    partials_per_row: str = option("all", "several partial units of one kind in a row: all / best", choices=PARTIALS_CHOICES,
                                   rule=text.OPTION_PARTIALS)
    unchanged_row_full_unit: str = option(
        "bonus", "a changed full sequence/orientation in an unchanged row: bonus / full", choices=UNCHANGED_ROW_CHOICES,
        rule=text.OPTION_UNCHANGED_ROW,
    )
    partner_doubler: str = option(
        "ignored", "teams: the partner's doubler is ignored / doubles / neutralizes", choices=PARTNER_DOUBLER_CHOICES,
        rule=text.OPTION_PARTNER_DOUBLER,
    )
    diminished: str = option(
        "comets", "a shorter unit is diminished when most of its comets / squares came from a longer one on its line",
        choices=DIMINISHED_CHOICES, rule=text.OPTION_DIMINISHED,
    )


@attrs.frozen
class Held:
    """A shot piece in the shooter's hand, waiting to be judged and placed."""

    piece: Piece
    square: int  # where it was shot
    by: str  # the kind of the shooting piece ("entry" for a reentering piece)
    kind: str | None  # simple / aimed / total once judged
    own: bool  # a self shot


@attrs.frozen
class Partial:
    kind: str
    number: int
    frm: int
    to: int
    distance: int
    shot: bool = False


@attrs.frozen
class ScoredMove:
    side: str
    move_no: int
    units: tuple[Unit, ...]


@attrs.frozen
class State:
    opts: Options
    players: tuple[str, ...]
    sides: tuple[str, ...]  # seat order = turn order; players[i] plays sides[i]
    board: Board
    off_board: tuple[Piece, ...] = ()
    turn: int = 0
    moves_made: tuple[int, ...] = ()
    dealt: tuple[tuple[tuple[int, int], ...], ...] = ()
    played: tuple[tuple[tuple[int, int], ...], ...] = ()
    numbers: tuple[int, int] | None = None
    how: str = ""
    joker: bool = False
    left: tuple[int, ...] = ()
    partials: tuple[Partial, ...] = ()
    entered: tuple[Piece, ...] = ()
    held: tuple[Held, ...] = ()
    entry_done: bool = False
    move_done: bool = False
    before: Board = ()
    scored: tuple[ScoredMove, ...] = ()
    ended: str | None = None

    @property
    def mover(self) -> str:
        return self.sides[self.turn]

    @property
    def player(self) -> str:
        return self.players[self.turn]

    @property
    def over(self) -> bool:
        return self.ended is not None

    def seat(self, side: str) -> int:
        return self.sides.index(side)

    def player_of(self, side: str) -> str:
        return self.players[self.sides.index(side)]


def _replace(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1 :]


def _dealt(s: State, e: Dealt) -> State:
    return copy_with(s, dealt=_replace(s.dealt, s.seat(e.side), tuple(e.order)))


def _numbers_set(s: State, e: NumbersSet) -> State:
    played = s.played
    if e.how != "rolled":
        i = s.seat(e.side)
        played = _replace(played, i, (*played[i], tuple(sorted(e.numbers))))
    return copy_with(
        s, numbers=(e.numbers[0], e.numbers[1]), how=e.how, joker=e.joker, left=tuple(e.numbers), played=played,
        before=s.board, entry_done=False, move_done=False, partials=(), entered=(), held=(),
    )


def _stepped(s: State, e: Stepped) -> State:
    board = as_dict(s.board)
    del board[e.frm]
    board[e.to] = e.piece
    held = s.held
    if e.shot is not None:
        own = e.shot.side == e.side
        held = (*held, Held(e.shot, e.to, e.piece.kind, "simple" if own else None, own))
    left = list(s.left)
    if s.joker:
        left.pop()
    else:
        left.remove(e.distance)
    partials = (*s.partials, Partial(e.piece.kind, e.piece.number, e.frm, e.to, e.distance, e.shot is not None))
    return copy_with(
        s, board=board_from(board), held=held, left=tuple(left), partials=partials,
        move_done=len(partials) == 2 or not left,
    )


def _entered(s: State, e: Entered) -> State:
    board = as_dict(s.board)
    board[e.square] = e.piece
    off = list(s.off_board)
    off.remove(copy_with(e.piece, facing=None))
    held = s.held
    if e.shot is not None:
        if e.shot_kind == "total":
            off.append(copy_with(e.shot, facing=None))
        else:
            held = (*held, Held(e.shot, e.square, "entry", e.shot_kind, e.shot.side == e.side))
    return copy_with(
        s, board=board_from(board), off_board=tuple(off), held=held, entry_done=True,
        move_done=s.opts.reentry == "move", entered=(*s.entered, e.piece),
    )


def _reentry_postponed(s: State, e: ReentryPostponed) -> State:
    return copy_with(s, entry_done=True)


def _judged(s: State, e: Judged) -> State:
    kinds = iter(e.kinds)
    held: list[Held] = []
    off = list(s.off_board)
    for h in s.held:
        if h.kind is not None:
            held.append(h)
            continue
        kind = next(kinds)
        if kind == "total":
            off.append(copy_with(h.piece, facing=None))
        else:
            held.append(copy_with(h, kind=kind))
    return copy_with(s, held=tuple(held), off_board=tuple(off))


def _placed(s: State, e: Placed) -> State:
    board = as_dict(s.board)
    board[e.square] = e.piece
    held = list(s.held)
    for i, h in enumerate(held):
        if (h.piece.side, h.piece.kind, h.piece.number) == (e.piece.side, e.piece.kind, e.piece.number):
            del held[i]
            break
    return copy_with(s, board=board_from(board), held=tuple(held))


def _set_aside(s: State, e: SetAside) -> State:
    held = list(s.held)
    for i, h in enumerate(held):
        if (h.piece.side, h.piece.kind, h.piece.number) == (e.piece.side, e.piece.kind, e.piece.number):
            del held[i]
            break
    off = (*s.off_board, copy_with(e.piece, facing=None))
    # The mover's own piece reenters in his next move, not in the middle of this one.
    entry_done = s.entry_done or e.piece.side == s.mover
    return copy_with(s, held=tuple(held), off_board=off, entry_done=entry_done)


def _forfeited(s: State, e: Forfeited) -> State:
    return copy_with(s, move_done=True, left=())


def _number_lost(s: State, e: NumberLost) -> State:
    return copy_with(s, move_done=True, left=())


def _move_scored(s: State, e: MoveScored) -> State:
    i = s.seat(e.side)
    return copy_with(
        s,
        scored=(*s.scored, ScoredMove(e.side, e.move_no, tuple(e.units))),
        moves_made=_replace(s.moves_made, i, s.moves_made[i] + 1),
        turn=(s.turn + 1) % len(s.sides),
        numbers=None, how="", joker=False, left=(), partials=(), entered=(), held=(), entry_done=False, move_done=False,
        before=(),
    )


def _game_ended(s: State, e: GameEnded) -> State:
    return copy_with(s, ended=e.reason)


MUTATORS: dict[type, Callable[[State, Any], State]] = {
    Dealt: _dealt,
    NumbersSet: _numbers_set,
    Stepped: _stepped,
    Entered: _entered,
    ReentryPostponed: _reentry_postponed,
    Judged: _judged,
    Placed: _placed,
    SetAside: _set_aside,
    Forfeited: _forfeited,
    NumberLost: _number_lost,
    MoveScored: _move_scored,
    GameEnded: _game_ended,
}


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)


# What the last ``decide`` folded, handed back by the game's mutators when the very same events are
# folded onto the very same state again (core/folds.py).
_FOLDS = RememberedFolds()


def decided(folds: list[tuple[State, object, State]]) -> None:
    """Remember the last decision's folds (before, event, after), forgetting the one before."""
    _FOLDS.forget()
    for before, event, after in folds:
        _FOLDS.remember(before, event, after)


# The game's mutators (``Game.mutators``): each event type's own, with ``decide``'s folds reused.
FOLDS: dict[type, Callable[[State, Any], State]] = _FOLDS.recalling(MUTATORS)
