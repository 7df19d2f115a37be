"""Solar Solitaire commands. Chance shuffles or deals and turns stock cards; the player acts."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Command


@attrs.frozen
class Shuffle(Command):
    """Chance: the whole deck in the order shuffled, top first (``shuffle 0-0-0 1-2-3 ...``, 40 cards).

    The first four become launch pads 0 to 3, the other 36 the stockpile in turning order. A seeded
    game always shuffles; an entered game may type a known order this way."""

    chance: ClassVar[bool] = True
    order: tuple[str, ...]


@attrs.frozen
class Deal(Command):
    """Chance, entered games: the four launch pad cards as dealt, pads 0 to 3 (``deal 1-2-3 0-0-1 2-3-2 0-1-1``)."""

    chance: ClassVar[bool] = True
    pads: tuple[str, ...]


@attrs.frozen
class Card(Command):
    """Chance: the stock card just turned (``card 1-2-3``)."""

    chance: ClassVar[bool] = True
    card: str


@attrs.frozen
class Turn(Command):
    """Turn the next stockpile card (``turn``)."""


@attrs.frozen
class Play(Command):
    """Choose the launch pad of a forced play that matches several pads (``play pad2``)."""

    pad: int


@attrs.frozen
class Move(Command):
    """Free movement (emergency rules): top card of one pile to another (``move waste pad1``)."""

    source: str
    target: str


@attrs.frozen
class Resign(Command):
    """Give the game up (``resign``)."""
