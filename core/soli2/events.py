"""SOLI2 events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event

# Why a game ended (Ended.reason).
NO_JUMP = "no-jump"  # duel: neither player has a legal jump; solitaire: no jump remains
BLACK_OUT = "black-out"  # duel: black has no marbles left
WHITE_OUT = "white-out"  # duel: white has no marbles left


@attrs.frozen
class Drawn(Event):
    """A marble came out of the pouch."""

    TYPE: ClassVar[str] = "drawn"
    color: str


@attrs.frozen
class Placed(Event):
    """A marble went into an empty pocket (in SOLI2 solitaire, the next pocket in order)."""

    TYPE: ClassVar[str] = "placed"
    player: str
    color: str
    square: str


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


@attrs.frozen
class Passed(Event):
    """A player had no legal jump and passed automatically."""

    TYPE: ClassVar[str] = "passed"
    player: str
    color: str


@attrs.frozen
class Ended(Event):
    """The game is over (``reason``: NO_JUMP, BLACK_OUT or WHITE_OUT)."""

    TYPE: ClassVar[str] = "ended"
    reason: str
