"""Solar Solitaire events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event
from ..words import quoted
from .cards import ALL_CARDS, PLACES, ROCKETS, WASTE

SOURCES = ("stock", WASTE)  # where a forced play takes its card from


def _check(cards: tuple[str, ...] = (), pads: tuple[int, ...] = (), source: str | None = None) -> None:
    """A stored event's values must be the deck's: a card in canonical form, a pad 0 to 3."""
    for card in cards:
        if card not in ALL_CARDS:
            raise ValueError(f"{quoted(card)} is not a Space Domino (written a-b-c, smaller end first)")
    for pad in pads:
        if pad not in range(4):
            raise ValueError(f"{quoted(pad)} is not a launch pad (0 to 3)")
    if source is not None and source not in SOURCES:
        raise ValueError(f"{quoted(source)} is not where a forced play comes from (stock or waste)")


def _distinct(what: str, cards: tuple[str, ...]) -> None:
    if len(set(cards)) != len(cards):
        raise ValueError(f"{what} names a card twice")


@attrs.frozen
class Shuffled(Event):
    """The deck's order, top first (hidden from ``show``; the log keeps it)."""

    TYPE: ClassVar[str] = "shuffled"
    order: tuple[str, ...]

    def check(self) -> None:
        _check(self.order)
        _distinct("the deck's order", self.order)


@attrs.frozen
class Dealt(Event):
    """Four launch pads, pads 0 to 3; the rest is the stockpile."""

    TYPE: ClassVar[str] = "dealt"
    pads: tuple[str, ...]

    def check(self) -> None:
        if len(self.pads) != 4:
            raise ValueError(f"a deal lays four launch pads, not {len(self.pads)}")
        _check(self.pads)
        _distinct("the deal", self.pads)


@attrs.frozen
class DealRefused(Event):
    """A rocket lay on a launch pad where the deal may not stand: all cards are picked up again.
    ``own`` is true for a rocket on its own pad under ``own_pad_rocket=redeal``."""

    TYPE: ClassVar[str] = "deal-refused"
    rocket: str
    pad: int
    own: bool

    def check(self) -> None:
        _check(pads=(self.pad,))
        if self.rocket not in ROCKETS:
            raise ValueError(f"{quoted(self.rocket)} is not a rocket")


@attrs.frozen
class TurnAsked(Event):
    """The player turns the next stock card; chance names it."""

    TYPE: ClassVar[str] = "turn-asked"


@attrs.frozen
class Turned(Event):
    TYPE: ClassVar[str] = "turned"
    card: str

    def check(self) -> None:
        _check((self.card,))


@attrs.frozen
class Played(Event):
    """A forced play onto a launch pad; ``source`` is ``stock`` (the turned card) or ``waste``."""

    TYPE: ClassVar[str] = "played"
    card: str
    pad: int
    source: str

    def check(self) -> None:
        _check((self.card,), (self.pad,), self.source)


@attrs.frozen
class Wasted(Event):
    """The turned card goes onto the waste heap."""

    TYPE: ClassVar[str] = "wasted"
    card: str

    def check(self) -> None:
        _check((self.card,))


@attrs.frozen
class ChoiceWaiting(Event):
    """A forced play matches several launch pads: the player chooses one."""

    TYPE: ClassVar[str] = "choice-waiting"
    card: str
    pads: tuple[int, ...]
    source: str

    def check(self) -> None:
        _check((self.card,), self.pads, self.source)


@attrs.frozen
class Moved(Event):
    """Free movement: the top card of ``source`` onto ``target`` (places as in the notation)."""

    TYPE: ClassVar[str] = "moved"
    card: str
    source: str
    target: str

    def check(self) -> None:
        _check((self.card,))
        for place in (self.source, self.target):
            if place not in PLACES:
                raise ValueError(f"{quoted(place)} is not a place of the layout ({', '.join(PLACES)})")


@attrs.frozen
class EmergencyOn(Event):
    """A rocket lies in the waste heap: space stations and free movement apply."""

    TYPE: ClassVar[str] = "emergency-on"
    rockets: tuple[str, ...]

    def check(self) -> None:
        _check(self.rockets)


@attrs.frozen
class EmergencyOff(Event):
    """No rocket lies in the waste heap any more: the emergency rules no longer apply."""

    TYPE: ClassVar[str] = "emergency-off"


@attrs.frozen
class Won(Event):
    TYPE: ClassVar[str] = "won"


@attrs.frozen
class Lost(Event):
    """The stockpile is used up and the complete loss proof (proof.py) found no way to free another
    stranded rocket; ``positions`` is how many positions its search visited (0: a cheap proof
    settled it without a search)."""

    TYPE: ClassVar[str] = "lost"
    stranded: tuple[str, ...]
    positions: int

    def check(self) -> None:
        _check(self.stranded)
        if self.positions < 0:
            raise ValueError(f"a search cannot visit {self.positions} positions")


@attrs.frozen
class Resigned(Event):
    TYPE: ClassVar[str] = "resigned"
