"""SOLI2 commands: chance draws from the pouch; players place marbles and jump."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Command


@attrs.frozen
class Draw(Command):
    """Chance: the marble drawn from the pouch (notation ``draw black`` / ``draw white``)."""

    chance: ClassVar[bool] = True
    color: str


@attrs.frozen
class Place(Command):
    """Place a marble into an empty pocket: ``place d4`` (the marble drawn from the pouch) or, in
    pure skill, ``place white d4`` (the color chosen from the player's channel)."""

    square: str
    color: str | None = None


@attrs.frozen
class Jump(Command):
    """Jump a marble two pockets straight over one marble into the empty pocket: ``d2-d4``."""

    start: str
    end: str


@attrs.frozen
class Pass(Command):
    """``pass``: never legal when typed; a player without a legal jump passes automatically."""
