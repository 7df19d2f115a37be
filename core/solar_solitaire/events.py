"""Solar Solitaire events, each with a stable tag and schema version."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..game import Event


@attrs.frozen
class Shuffled(Event):
    """The deck's order, top first (hidden from ``show``; the log keeps it)."""

    TYPE: ClassVar[str] = "shuffled"
    order: tuple[str, ...]


@attrs.frozen
class Dealt(Event):
    """Four launch pads, pads 0 to 3; the rest is the stockpile."""

    TYPE: ClassVar[str] = "dealt"
    pads: tuple[str, ...]


@attrs.frozen
class DealRefused(Event):
    """A rocket lay on a launch pad where the deal may not stand: all cards are picked up again.
    ``own`` is true for a rocket on its own pad under ``own_pad_rocket=redeal``."""

    TYPE: ClassVar[str] = "deal-refused"
    rocket: str
    pad: int
    own: bool


@attrs.frozen
class TurnAsked(Event):
    """The player turns the next stock card; chance names it."""

    TYPE: ClassVar[str] = "turn-asked"


@attrs.frozen
class Turned(Event):
    TYPE: ClassVar[str] = "turned"
    card: str


@attrs.frozen
class Played(Event):
    """A forced play onto a launch pad; ``source`` is ``stock`` (the turned card) or ``waste``."""

    TYPE: ClassVar[str] = "played"
    card: str
    pad: int
    source: str


@attrs.frozen
class Wasted(Event):
    """The turned card goes onto the waste heap."""

    TYPE: ClassVar[str] = "wasted"
    card: str


@attrs.frozen
class ChoiceWaiting(Event):
    """A forced play matches several launch pads: the player chooses one."""

    TYPE: ClassVar[str] = "choice-waiting"
    card: str
    pads: tuple[int, ...]
    source: str


@attrs.frozen
class Moved(Event):
    """Free movement: the top card of ``source`` onto ``target`` (places as in the notation)."""

    TYPE: ClassVar[str] = "moved"
    card: str
    source: str
    target: str


@attrs.frozen
class EmergencyOn(Event):
    """A rocket lies in the waste heap: space stations and free movement apply."""

    TYPE: ClassVar[str] = "emergency-on"
    rockets: tuple[str, ...]


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


@attrs.frozen
class Resigned(Event):
    TYPE: ClassVar[str] = "resigned"
