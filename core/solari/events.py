"""Solari events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event
from .board import Piece
from .scoring import Unit


@attrs.frozen
class Dealt(Event):
    """Open dominoes: one side's set lies face up in this order."""

    TYPE: ClassVar[str] = "dealt"
    side: str
    order: tuple[tuple[int, int], ...]


@attrs.frozen
class NumbersSet(Event):
    """The mover's two numbers for this move. ``how``: rolled, turned (hidden domino), chosen (free
    domino), next (open domino). ``joker``: 6-6 played as any combination."""

    TYPE: ClassVar[str] = "numbers-set"
    side: str
    numbers: tuple[int, int]
    how: str
    joker: bool = False


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


@attrs.frozen
class Entered(Event):
    """A totally shot piece comes back on ``square``. ``shot``: the piece that stood there."""

    TYPE: ClassVar[str] = "entered"
    side: str
    piece: Piece
    square: int
    shot: Piece | None = None
    shot_kind: str | None = None  # simple / aimed / total for ``shot``


@attrs.frozen
class ReentryPostponed(Event):
    TYPE: ClassVar[str] = "reentry-postponed"
    side: str
    reason: str


@attrs.frozen
class Judged(Event):
    """After both partial moves: the kind of each opposing shot, in the order they were shot."""

    TYPE: ClassVar[str] = "shots-judged"
    kinds: tuple[str, ...]  # simple / aimed / total
    reasons: tuple[str, ...]


@attrs.frozen
class Placed(Event):
    """A shot piece is set on a margin square (``facing``: the comet's facing there)."""

    TYPE: ClassVar[str] = "placed"
    piece: Piece
    square: int
    kind: str  # simple / aimed


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


@attrs.frozen
class NumberLost(Event):
    """The second number cannot be played after the first."""

    TYPE: ClassVar[str] = "number-lost"
    side: str
    number: int


@attrs.frozen
class MoveScored(Event):
    """The move is over: the units the mover scored (possibly none); the turn passes."""

    TYPE: ClassVar[str] = "move-scored"
    side: str
    move_no: int
    units: tuple[Unit, ...]


@attrs.frozen
class GameEnded(Event):
    TYPE: ClassVar[str] = "game-ended"
    reason: str
