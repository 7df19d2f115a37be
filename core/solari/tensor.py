"""Solari's observation tensor (docs/ai.md, "Observation tensors"): the board square by square, the
pieces off the board, the numbers to move by, the dominoes played and the scores, each side counted
from the seat's own (its side first, then the others in turn order), so one learner plays any seat.

Solari hides nothing in its states (observation.py): a face-down domino's order is in no state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..tensors import Features
from .board import COMET, FACINGS, KINDS, Piece
from .events import HOWS
from .state import DOMINOES, SOURCES, State

SIDES = 4
SQUARES = tuple(r * 10 + c for r in range(8) for c in range(8))
NUMBERS = 6  # comets 1-6 (000: each side's six comets)
PIECES = NUMBERS + len(KINDS) - 1  # a side's comets 1-6, its chaser, blocker and doubler
# per square: a piece there, its side (from the seat's), kind, comet number, facing; per side its pieces
# off the board, dominoes played, moves made and points; whose turn; the numbers and the distances
# left; the move's progress; the options
PER_SQUARE = 1 + SIDES + len(KINDS) + NUMBERS + len(FACINGS)
SIZE = (len(SQUARES) * PER_SQUARE + SIDES * (PIECES + len(DOMINOES) + 2) + SIDES + 1
        + 1 + 2 * NUMBERS + len(HOWS) + 1 + NUMBERS + 5
        + 3 + 5 + len(SOURCES) + 2)
_SQUARE = {sq: i for i, sq in enumerate(SQUARES)}
_DOMINO = {d: i for i, d in enumerate(DOMINOES)}


def size(options: Mapping[str, Any], players: Sequence[str]) -> int:
    return SIZE


def _piece(piece: Piece) -> int:
    """A side's piece: comets 0-5, then chaser, blocker, doubler."""
    return piece.number - 1 if piece.kind == COMET else NUMBERS + KINDS.index(piece.kind) - 1


def encode(seen: State, seat: str) -> tuple[float, ...]:
    from .rules import totals

    me = seen.players.index(seat)
    n = len(seen.sides)

    def rel(side: str) -> int:  # 0: the seat's side, then the others in turn order
        return (seen.sides.index(side) - me) % n

    f = Features()
    on = dict(seen.board)
    for sq in SQUARES:
        piece = on.get(sq)
        f.flag(piece is not None)
        f.one_hot(None if piece is None else rel(piece.side), SIDES)
        f.one_hot(None if piece is None else KINDS.index(piece.kind), len(KINDS))
        f.one_hot(piece.number - 1 if piece is not None and piece.kind == COMET else None, NUMBERS)
        f.one_hot(FACINGS.index(piece.facing) if piece is not None and piece.facing else None, len(FACINGS))
    off = [[0.0] * PIECES for _ in range(SIDES)]
    for piece in seen.off_board:
        off[rel(piece.side)][_piece(piece)] = 1.0
    points = totals(seen)
    for k in range(SIDES):
        f.values.extend(off[k])
        i = (me + k) % n
        played = {_DOMINO[(min(d), max(d))] for d in seen.played[i]} if k < n and i < len(seen.played) else set()
        f.flags(d in played for d in range(len(DOMINOES)))
        f.scaled(seen.moves_made[i] if k < n and i < len(seen.moves_made) else 0, 50)
        f.scaled(points[seen.sides[i]] if k < n else 0, 100)
    f.one_hot((seen.turn - me) % n, SIDES)
    f.flag(not seen.over and seen.turn == me)
    numbers = seen.numbers
    f.flag(numbers is not None)
    f.one_hot(numbers[0] - 1 if numbers is not None else None, NUMBERS)
    f.one_hot(numbers[1] - 1 if numbers is not None else None, NUMBERS)
    f.one_hot(HOWS.index(seen.how) if seen.how in HOWS else None, len(HOWS))
    f.flag(seen.joker)
    f.counts((seen.left.count(d) for d in range(1, NUMBERS + 1)), 2)
    f.scaled(len(seen.partials), 2)
    f.scaled(len(seen.held), 4)
    f.scaled(len(seen.entered), 4)
    f.flags((seen.entry_done, seen.move_done))
    o = seen.opts
    f.one_hot(o.version - 1, 3)
    f.flags((o.teams, o.chasers, o.blockers, o.doublers, o.joker))
    f.one_hot(SOURCES.index(o.source), len(SOURCES))
    f.scaled(o.target, 100)
    f.scaled(o.moves, 50)
    return f.done()
