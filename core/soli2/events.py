"""SOLI2 events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event
from ..words import quoted
from .board import COLORS, is_square

# Why a game ended (Ended.reason).
NO_JUMP = "no-jump"  # duel: neither player has a legal jump; solitaire: no jump remains
BLACK_OUT = "black-out"  # duel: black has no marbles left
WHITE_OUT = "white-out"  # duel: white has no marbles left
REASONS = (NO_JUMP, BLACK_OUT, WHITE_OUT)


def _check(color: str | None = None, squares: tuple[str, ...] = (), player: str | None = None) -> None:
    """A stored event's values must be the game's: a colour is black or white, a square is on the board."""
    if color is not None and color not in COLORS:
        raise ValueError(f"{quoted(color)} is not a marble colour (black or white)")
    for square in squares:
        if not is_square(square):
            raise ValueError(f"{quoted(square)} is not a pocket of the board (a1 to g7)")
    if player is not None and not player:
        raise ValueError("the player's name is empty")


@attrs.frozen
class Drawn(Event):
    """A marble came out of the pouch."""

    TYPE: ClassVar[str] = "drawn"
    color: str

    def check(self) -> None:
        _check(self.color)


@attrs.frozen
class Placed(Event):
    """A marble went into an empty pocket (in SOLI2 solitaire, the next pocket in order)."""

    TYPE: ClassVar[str] = "placed"
    player: str
    color: str
    square: str

    def check(self) -> None:
        _check(self.color, (self.square,), self.player)


@attrs.frozen
class Jumped(Event):
    """A marble jumped from ``start`` over ``over`` into ``end``; the marble on ``over`` (``removed``)
    left the board for the channel."""

    TYPE: ClassVar[str] = "jumped"
    player: str
    color: str
    start: str
    over: str
    end: str
    removed: str

    def check(self) -> None:
        _check(self.color, (self.start, self.over, self.end), self.player)
        _check(self.removed)


@attrs.frozen
class Passed(Event):
    """A player had no legal jump and passed automatically."""

    TYPE: ClassVar[str] = "passed"
    player: str
    color: str

    def check(self) -> None:
        _check(self.color, (), self.player)


@attrs.frozen
class Ended(Event):
    """The game is over (``reason``: NO_JUMP, BLACK_OUT or WHITE_OUT)."""

    TYPE: ClassVar[str] = "ended"
    reason: str

    def check(self) -> None:
        if self.reason not in REASONS:
            raise ValueError(f"{quoted(self.reason)} is not a way a game ends ({', '.join(REASONS)})")
