"""Solo Dice events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event


@attrs.frozen
class Rolled(Event):
    TYPE: ClassVar[str] = "rolled"
    dice: tuple[int, ...]


@attrs.frozen
class PairsChosen(Event):
    """The selection became final. ``free_throw``: no open leftover number was rolled (marked F)."""

    TYPE: ClassVar[str] = "pairs-chosen"
    first: tuple[int, int]
    second: tuple[int, int]
    leftover: int
    free_throw: bool
