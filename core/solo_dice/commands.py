"""Solo Dice commands: chance rolls five dice, the player sets two pairs and a leftover die aside."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Command


@attrs.frozen
class Roll(Command):
    """Chance: the five dice as rolled (notation ``roll 6 1 5 5 5``)."""

    chance: ClassVar[bool] = True
    dice: tuple[int, ...]


@attrs.frozen
class Choose(Command):
    """The player's selection: two pairs, then the leftover die (notation ``6+1 5+5 5``)."""

    first: tuple[int, int]
    second: tuple[int, int]
    leftover: int

    @property
    def sums(self) -> tuple[int, int]:
        return (sum(self.first), sum(self.second))

    @property
    def dice(self) -> tuple[int, ...]:
        return (*self.first, *self.second, self.leftover)
