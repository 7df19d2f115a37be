"""Solari events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event
from ..words import quoted
from .board import FACINGS, KINDS, SIDES, Piece, on_board, row_col
from .scoring import Unit

HOWS = ("rolled", "turned", "chosen", "next")  # how a mover's numbers were set
SHOT_KINDS = ("simple", "aimed", "total")


def _check(
    side: str | None = None, pieces: tuple[Piece | None, ...] = (), squares: tuple[int, ...] = (),
    numbers: tuple[int, ...] = (), kinds: tuple[str | None, ...] = (),
) -> None:
    """A stored event's values must be the game's: a side of the four, a square of the 8x8 board."""
    for s in (side, *(p.side for p in pieces if p is not None)):
        if s is not None and s not in SIDES:
            raise ValueError(f"{quoted(s)} is not a side ({', '.join(SIDES)})")
    for piece in pieces:
        if piece is None:
            continue
        if piece.kind not in KINDS:
            raise ValueError(f"{quoted(piece.kind)} is not a kind of piece ({', '.join(KINDS)})")
        if piece.kind == "comet" and (piece.number not in range(1, 7) or piece.facing not in (*FACINGS, None)):
            raise ValueError(f"a comet is numbered 1-6 and faces N, E, S or W, not {piece.number} {quoted(piece.facing)}")
        if piece.kind != "comet" and (piece.number != 0 or piece.facing is not None):
            raise ValueError(f"a {piece.kind} has no number and no facing")
    for sq in squares:
        if not (0 <= sq <= 77 and on_board(*row_col(sq))):
            raise ValueError(f"{quoted(sq)} is not a square of the board (00 to 77)")
    for n in numbers:
        if n not in range(1, 7):
            raise ValueError(f"{quoted(n)} is not a number of a die or domino half (1-6)")
    for kind in kinds:
        if kind is not None and kind not in SHOT_KINDS:
            raise ValueError(f"{quoted(kind)} is not a kind of shot ({', '.join(SHOT_KINDS)})")


@attrs.frozen
class Dealt(Event):
    """Open dominoes: one side's set lies face up in this order."""

    TYPE: ClassVar[str] = "dealt"
    side: str
    order: tuple[tuple[int, int], ...]

    def check(self) -> None:
        _check(self.side, numbers=tuple(n for pair in self.order for n in pair))


@attrs.frozen
class NumbersSet(Event):
    """The mover's two numbers for this move. ``how``: rolled, turned (hidden domino), chosen (free
    domino), next (open domino). ``joker``: 6-6 played as any combination."""

    TYPE: ClassVar[str] = "numbers-set"
    side: str
    numbers: tuple[int, int]
    how: str
    joker: bool = False

    def check(self) -> None:
        _check(self.side, numbers=self.numbers)
        if self.how not in HOWS:
            raise ValueError(f"{quoted(self.how)} is not how numbers are set ({', '.join(HOWS)})")


@attrs.frozen
class Stepped(Event):
    """One partial move. ``shot``: the piece that stood on ``to`` (it is taken in hand)."""

    TYPE: ClassVar[str] = "stepped"
    side: str
    piece: Piece  # as it stands after the step (a comet with its new facing)
    frm: int
    to: int
    distance: int
    shot: Piece | None = None

    def check(self) -> None:
        _check(self.side, (self.piece, self.shot), (self.frm, self.to))
        if not 0 <= self.distance <= 14:
            raise ValueError(f"a step cannot go {self.distance} squares")


@attrs.frozen
class Entered(Event):
    """A totally shot piece comes back on ``square``. ``shot``: the piece that stood there."""

    TYPE: ClassVar[str] = "entered"
    side: str
    piece: Piece
    square: int
    shot: Piece | None = None
    shot_kind: str | None = None  # simple / aimed / total for ``shot``

    def check(self) -> None:
        _check(self.side, (self.piece, self.shot), (self.square,), kinds=(self.shot_kind,))


@attrs.frozen
class ReentryPostponed(Event):
    TYPE: ClassVar[str] = "reentry-postponed"
    side: str
    reason: str

    def check(self) -> None:
        _check(self.side)


@attrs.frozen
class Judged(Event):
    """After both partial moves: the kind of each opposing shot, in the order they were shot."""

    TYPE: ClassVar[str] = "shots-judged"
    kinds: tuple[str, ...]  # simple / aimed / total
    reasons: tuple[str, ...]

    def check(self) -> None:
        _check(kinds=self.kinds)
        if len(self.reasons) != len(self.kinds):
            raise ValueError("each judged shot has one reason")


@attrs.frozen
class Placed(Event):
    """A shot piece is set on a margin square (``facing``: the comet's facing there)."""

    TYPE: ClassVar[str] = "placed"
    piece: Piece
    square: int
    kind: str  # simple / aimed

    def check(self) -> None:
        _check(pieces=(self.piece,), squares=(self.square,), kinds=(self.kind,))


@attrs.frozen
class SetAside(Event):
    """A shot piece with no free margin square left (28 pieces on the margin) leaves the board; its
    owner reenters it in his next move, as after a total shot (docs/rules/solari.md)."""

    TYPE: ClassVar[str] = "set-aside"
    piece: Piece
    shot_on: int  # where it was shot
    kind: str  # simple / aimed, as judged


@attrs.frozen
class Forfeited(Event):
    TYPE: ClassVar[str] = "forfeited"
    side: str
    reason: str

    def check(self) -> None:
        _check(self.side)


@attrs.frozen
class NumberLost(Event):
    """The second number cannot be played after the first."""

    TYPE: ClassVar[str] = "number-lost"
    side: str
    number: int

    def check(self) -> None:
        _check(self.side, numbers=(self.number,))


@attrs.frozen
class MoveScored(Event):
    """The move is over: the units the mover scored (possibly none); the turn passes."""

    TYPE: ClassVar[str] = "move-scored"
    side: str
    move_no: int
    units: tuple[Unit, ...]

    def check(self) -> None:
        _check(self.side, squares=tuple(sq for u in self.units for sq in u.squares))
        for unit in self.units:
            _check(unit.side)


@attrs.frozen
class GameEnded(Event):
    TYPE: ClassVar[str] = "game-ended"
    reason: str
