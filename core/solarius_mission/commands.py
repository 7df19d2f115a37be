"""Solarius Mission commands: one per decision at the table (notation in notation.py)."""

from __future__ import annotations

from typing import ClassVar

from .. import frozen
from ..game import Command
from .board import Hex

# -- chance ---------------------------------------------------------------------------------------


@frozen.value
class DealStartCard(Command):
    """Chance: the next player (in seating order) receives this start card."""

    chance: ClassVar[bool] = True
    card: int


@frozen.value
class FirstPlayer(Command):
    chance: ClassVar[bool] = True
    player: str


@frozen.value
class Roll(Command):
    """Chance: a die drawn from the bag and rolled (setup of the bridge, or the refill)."""

    chance: ClassVar[bool] = True
    colour: str
    face: str


@frozen.value
class RevealHub(Command):
    chance: ClassVar[bool] = True
    hub: str


@frozen.value
class DrawCard(Command):
    """Chance: the card the waiting player draws."""

    chance: ClassVar[bool] = True
    card: int


# -- players --------------------------------------------------------------------------------------


@frozen.value
class ChooseStart(Command):
    """Without start cards: shift one die, upgrade another, resources in the other two; keep two cards."""

    shift: str
    upgrade: str
    keep: tuple[int, ...]


@frozen.value
class Take(Command):
    colour: str
    face: str
    bonus: int
    space: str  # standard, transform, research, card
    new_colour: str = ""  # transform
    card: int = 0  # card


@frozen.value
class Bonus(Command):
    fuel: int
    bucks: int


@frozen.value
class BuyActionPoints(Command):
    points: int


@frozen.value
class Resources(Command):
    """Place cubes: (colour, column) in order; the die action or a waiting effect."""

    cubes: tuple[tuple[str, int], ...]


@frozen.value
class Fuel(Command):
    pass


@frozen.value
class Bucks(Command):
    pass


@frozen.value
class Upgrade(Command):
    colours: tuple[str, ...]


@frozen.value
class Shift(Command):
    colours: tuple[str, ...]


@frozen.value
class Draw(Command):
    """Research: draw one card; supplementary: draw two, then discard one."""


@frozen.value
class PlayCard(Command):
    card: int
    side: str  # mission or development


@frozen.value
class Skip(Command):
    """Research: neither draw nor play."""


@frozen.value
class Discard(Command):
    card: int


@frozen.value
class BuyDrives(Command):
    count: int


@frozen.value
class Pass(Command):
    """No supplementary action."""


@frozen.value
class EndTurn(Command):
    pass


@frozen.value
class ExchangeForResource(Command):
    """2 fuel and/or SpaceBucks for one resource placed under the pyramid rule."""

    fuel: int
    bucks: int
    colour: str
    column: int


@frozen.value
class ExchangeResources(Command):
    """Resources of total value 2 per fuel or SpaceBuck."""

    cubes: tuple[tuple[str, int], ...]
    fuel: int
    bucks: int


@frozen.value
class UpgradeDrive(Command):
    """3 fuel: a common drive from 1 to 2."""


@frozen.value
class Settle(Command):
    """Complete the settlement of a waiting planet (9.2 d.3; at turn end of the last game turn, 10.0)."""

    planet: int


@frozen.value
class Close(Command):
    """Done with the turn end (station effects resolved, settlements made)."""


# -- space: the map (part 2) ------------------------------------------------------------------------------


@frozen.value
class PlaceTiles(Command):
    """Chance (4.0): the outer tiles around the centre, (letter, rotation 0-5) per position 0-5."""

    chance: ClassVar[bool] = True
    placement: tuple[tuple[str, int], ...]


@frozen.value
class RevealPlanet(Command):
    """Chance: which planet the face-down planet being turned is."""

    chance: ClassVar[bool] = True
    planet: int


ALL: tuple[type[Command], ...] = (
    DealStartCard, FirstPlayer, Roll, RevealHub, DrawCard, ChooseStart, Take, Bonus, BuyActionPoints, Resources,
    Fuel, Bucks, Upgrade, Shift, Draw, PlayCard, Skip, Discard, BuyDrives, Pass, EndTurn, ExchangeForResource,
    ExchangeResources, UpgradeDrive, Settle, Close,
    PlaceTiles, RevealPlanet,
)


# -- space (part 2): supplementary action II and what follows a flight ----------------------------


@frozen.value
class Fly(Command):
    """9.2 B II: the ship's path, the ship's hex first; ``jumps`` are the path indices reached through a
    portal. ``portal``: "flip" (a 2-drive turned to 1) or "return" (a 1-drive to the pool) activates the
    portals; "" does not. Range beyond the drives is bought at once with fuel (2 per point)."""

    path: tuple[Hex, ...]
    jumps: tuple[int, ...] = ()
    portal: str = ""


@frozen.value
class Colonize(Command):
    """9.2 B II.1: a colony on the planet of the ship's hex; the planet goes beside the mat (waiting)."""

    outpost: int = 0


@frozen.value
class Decline(Command):
    """9.2 B II.1: the revealer does not settle; explorer bonus = the planet's VP in resources."""


@frozen.value
class Build(Command):
    """9.2 B II.2: station card ``card`` on the ship's hex, paid with these cubes (the next slot's two
    values in the card's two colours)."""

    card: int
    cubes: tuple[tuple[str, int], ...]
    outpost: int = 0


@frozen.value
class CompleteMission(Command):
    """9.2 B II.3: mission ``card`` paid with these cubes, its marker onto the ship's hex next to hub
    ``hub`` (a tile letter; may be left out when the hex touches one hub only)."""

    card: int
    cubes: tuple[tuple[str, int], ...]
    hub: str = ""
    outpost: int = 0


@frozen.value
class HubBonus(Command):
    """9.2 B II.3: the bonus of a first mission at a built hub: one of the six outpost bonuses."""

    outpost: int


SPACE = (Fly, Colonize, Decline, Build, CompleteMission, HubBonus)
ALL = (*ALL, *SPACE)
