"""Solo Dice events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event

FACES = range(1, 7)
_FACE_SET = frozenset(FACES)  # one set test per event: this runs for every stored event read back


def _faces(what: str, dice: tuple[int, ...]) -> None:
    if not _FACE_SET.issuperset(dice):
        raise ValueError(f"{what} {dice} holds a number that is not a die face (1-6)")


@attrs.frozen
class Rolled(Event):
    TYPE: ClassVar[str] = "rolled"
    dice: tuple[int, ...]

    def check(self) -> None:
        if len(self.dice) != 5:
            raise ValueError(f"a roll is five dice, not {len(self.dice)}")
        _faces("the roll", self.dice)


@attrs.frozen
class PairsChosen(Event):
    """The selection became final. ``free_throw``: no open leftover number was rolled (marked F)."""

    TYPE: ClassVar[str] = "pairs-chosen"
    first: tuple[int, int]
    second: tuple[int, int]
    leftover: int
    free_throw: bool

    def check(self) -> None:
        _faces("the selection", (*self.first, *self.second, self.leftover))
