"""Solari commands: chance gives the numbers (dice, turned or dealt dominoes); the player chooses a free
domino, moves one partial move at a time, places shot pieces and reenters totally shot ones."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Command


@attrs.frozen
class Roll(Command):
    """Chance: the two dice (``roll 3 5``)."""

    chance: ClassVar[bool] = True
    dice: tuple[int, int]


@attrs.frozen
class Turn(Command):
    """Chance, hidden dominoes: the mover's next domino is turned face up (``turn 3-5``)."""

    chance: ClassVar[bool] = True
    domino: tuple[int, int]


@attrs.frozen
class Deal(Command):
    """Chance, open dominoes: one side's 21 dominoes in their shuffled order (``deal Uranus 1-1 3-5 ...``)."""

    chance: ClassVar[bool] = True
    side: str
    order: tuple[tuple[int, int], ...]


@attrs.frozen
class Domino(Command):
    """Free dominoes: the mover picks an unplayed domino (``domino 3-5``)."""

    domino: tuple[int, int]


@attrs.frozen
class Step(Command):
    """One partial move: the piece on ``frm`` goes to ``to`` (``25-55``)."""

    frm: int
    to: int


@attrs.frozen
class Place(Command):
    """Set a shot piece on a margin square; ``facing`` for a comet of an aimed shot (``place 70 N``)."""

    square: int
    facing: str | None = None


@attrs.frozen
class Enter(Command):
    """Reenter a totally shot piece (``enter 3 25 N``: comet 3 on 25 facing north; ``enter c 25``)."""

    piece: str  # "1".."6" for a comet, "c"/"b"/"d" for chaser, blocker, doubler
    square: int
    facing: str | None = None
