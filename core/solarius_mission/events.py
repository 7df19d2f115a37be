"""Solarius Mission events, each with a stable tag and schema version.

Events that depend on the component set carry what the set said (a card side's text, a start
card's contents), so a changed set changes the recorded events of exactly the commands that used it.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .. import frozen
from ..game import Event
from .board import Hex


@frozen.value
class StartCardDealt(Event):
    """Chance dealt a start card to ``player``; it shifts, upgrades, gives resources and two cards."""

    TYPE: ClassVar[str] = "sm-start-card-dealt"
    player: str
    card: int
    text: str


@frozen.value
class StartChosen(Event):
    """Without start cards: the player kept two cards and chose his starting position."""

    TYPE: ClassVar[str] = "sm-start-chosen"
    player: str
    shift: str
    upgrade: str
    resources: tuple[str, ...]
    keep: tuple[int, ...]
    discard: int


@frozen.value
class StartingPlayerChosen(Event):
    TYPE: ClassVar[str] = "sm-starting-player"
    player: str


@frozen.value
class SetupDieRolled(Event):
    """One of the four dice the starting player draws and rolls for the bridge."""

    TYPE: ClassVar[str] = "sm-setup-die-rolled"
    colour: str
    face: str


@frozen.value
class BridgeSetUp(Event):
    """The four setup dice placed by value, highest on -1 (ties share a space)."""

    TYPE: ClassVar[str] = "sm-bridge-set-up"
    spaces: tuple[tuple[str, ...], ...]  # per wheel value, the dice as "colour:face"


@frozen.value
class HubRevealed(Event):
    TYPE: ClassVar[str] = "sm-hub-revealed"
    turn: int
    hub: str


@frozen.value
class DieTaken(Event):
    TYPE: ClassVar[str] = "sm-die-taken"
    player: str
    colour: str  # as it lay on the bridge
    face: str
    bonus: int
    space: str  # standard, transform, research, card
    acts_as: str  # the colour of its action (the new colour on the transformation space)
    card: int  # the development whose die space it took, else 0
    points: int  # the die's own points (star valued by the tech die)
    action_points: int  # points plus development boosts


@frozen.value
class Contaminated(Event):
    TYPE: ClassVar[str] = "sm-contaminated"
    player: str
    on_spaces: int
    beside: int
    why: str


@frozen.value
class ContaminationRemoved(Event):
    TYPE: ClassVar[str] = "sm-contamination-removed"
    player: str
    count: int


@frozen.value
class TrackChanged(Event):
    """Fuel and SpaceBucks moved by these amounts (after the cap of 10)."""

    TYPE: ClassVar[str] = "sm-track-changed"
    player: str
    fuel: int
    bucks: int
    why: str


@frozen.value
class BonusTaken(Event):
    TYPE: ClassVar[str] = "sm-bonus-taken"
    player: str
    fuel: int
    bucks: int


@frozen.value
class ActionPointsBought(Event):
    TYPE: ClassVar[str] = "sm-action-points-bought"
    player: str
    points: int


@frozen.value
class ActionPointsAdded(Event):
    """A die space's effect adds action points to the die on it."""

    TYPE: ClassVar[str] = "sm-action-points-added"
    player: str
    points: int


@frozen.value
class ResourcesPlaced(Event):
    TYPE: ClassVar[str] = "sm-resources-placed"
    player: str
    cubes: tuple[tuple[str, int], ...]  # (colour, column 1..3), in placing order


@frozen.value
class ResourcesRemoved(Event):
    TYPE: ClassVar[str] = "sm-resources-removed"
    player: str
    cubes: tuple[tuple[str, int], ...]


@frozen.value
class TechUpgraded(Event):
    TYPE: ClassVar[str] = "sm-tech-upgraded"
    player: str
    colours: tuple[str, ...]  # one step each, in order


@frozen.value
class TechShifted(Event):
    TYPE: ClassVar[str] = "sm-tech-shifted"
    player: str
    colours: tuple[str, ...]


@frozen.value
class DieActionDone(Event):
    TYPE: ClassVar[str] = "sm-die-action-done"
    player: str
    action: str
    used: int
    forfeited: int


@frozen.value
class ResearchDone(Event):
    TYPE: ClassVar[str] = "sm-research-done"
    player: str
    what: str  # draw, play, skip


@frozen.value
class CardsRequested(Event):
    """The player draws: chance names the cards."""

    TYPE: ClassVar[str] = "sm-cards-requested"
    player: str
    count: int
    discard: int  # cards to discard afterwards besides the hand limit


@frozen.value
class CardDrawn(Event):
    TYPE: ClassVar[str] = "sm-card-drawn"
    player: str
    card: int


@frozen.value
class DeckReshuffled(Event):
    TYPE: ClassVar[str] = "sm-deck-reshuffled"
    cards: int


@frozen.value
class CardDiscarded(Event):
    TYPE: ClassVar[str] = "sm-card-discarded"
    player: str
    card: int


@frozen.value
class CardPlayed(Event):
    TYPE: ClassVar[str] = "sm-card-played"
    player: str
    card: int
    side: str  # mission or development
    text: str  # the side as the set prints it


@frozen.value
class EffectWaiting(Event):
    """An effect that needs the player's choice (where resources go, which dice)."""

    TYPE: ClassVar[str] = "sm-effect-waiting"
    player: str
    kind: str  # resources, upgrade, shift
    colour: str
    count: int


@frozen.value
class EffectResolved(Event):
    TYPE: ClassVar[str] = "sm-effect-resolved"
    player: str


@frozen.value
class DrivesBought(Event):
    TYPE: ClassVar[str] = "sm-drives-bought"
    player: str
    count: int


@frozen.value
class DrivesGained(Event):
    TYPE: ClassVar[str] = "sm-drives-gained"
    player: str
    count: int


@frozen.value
class DriveUpgraded(Event):
    TYPE: ClassVar[str] = "sm-drive-upgraded"
    player: str
    slot: int


@frozen.value
class SupplementaryDone(Event):
    TYPE: ClassVar[str] = "sm-supplementary-done"
    player: str
    what: str  # drives, draw, play, pass


@frozen.value
class TurnEnded(Event):
    TYPE: ClassVar[str] = "sm-turn-ended"
    player: str


@frozen.value
class Refilled(Event):
    """The wheel turned (the die on 3 rides along) and a new die was drawn and rolled onto -1."""

    TYPE: ClassVar[str] = "sm-refilled"
    colour: str
    face: str


@frozen.value
class GameTurnEnded(Event):
    TYPE: ClassVar[str] = "sm-game-turn-ended"
    turn: int
    next_start: str  # the next starting player ("" after the fourth game turn)


@frozen.value
class TurnEndStarted(Event):
    """10.0: the players use their stations' permanent effects, in turn order (reading 8); in the last
    game turn they may also complete settlements with fuel and SpaceBucks."""

    TYPE: ClassVar[str] = "sm-turn-end-started"
    order: tuple[str, ...]


@frozen.value
class PlayerClosed(Event):
    TYPE: ClassVar[str] = "sm-player-closed"
    player: str


@frozen.value
class PlanetSettled(Event):
    """A waiting planet's precondition met (paying fuel or SpaceBucks where it asks): bottom right."""

    TYPE: ClassVar[str] = "sm-planet-settled"
    player: str
    planet: int
    fuel: int
    bucks: int


# -- space: the map (part 2) ------------------------------------------------------------------------------


@frozen.value
class TilesPlaced(Event):
    """4.0: the six outer tiles "placed circularly and in any alignment around the center": the tile
    letter and its rotation (0-5, clockwise in steps of 60 degrees) per position 0-5, clockwise from the top."""

    TYPE: ClassVar[str] = "sm-tiles-placed"
    placement: tuple[tuple[str, int], ...]


@frozen.value
class PlanetsDealt(Event):
    """4.0: one planet face down on each planet space in use for the player count (which planet it is
    becomes known, by chance, only when it is turned)."""

    TYPE: ClassVar[str] = "sm-planets-dealt"
    hexes: tuple[Hex, ...]


@frozen.value
class PlanetTurned(Event):
    """9.2 B II.1: "If the planet is still concealed (on its back), the player turns it": chance names it next."""

    TYPE: ClassVar[str] = "sm-planet-turned"
    player: str
    hex: Hex


@frozen.value
class PlanetRevealed(Event):
    """Chance: the face-down planet on ``hex`` is ``planet``; ``text`` is what the set says of it."""

    TYPE: ClassVar[str] = "sm-planet-revealed"
    hex: Hex
    planet: int
    text: str


ALL: tuple[type[Event], ...] = (
    StartCardDealt, StartChosen, StartingPlayerChosen, SetupDieRolled, BridgeSetUp, HubRevealed, DieTaken,
    Contaminated, ContaminationRemoved, TrackChanged, BonusTaken, ActionPointsBought, ActionPointsAdded,
    ResourcesPlaced, ResourcesRemoved, TechUpgraded, TechShifted, DieActionDone, ResearchDone, CardsRequested,
    CardDrawn, DeckReshuffled, CardDiscarded, CardPlayed, EffectWaiting, EffectResolved, DrivesBought,
    DrivesGained, DriveUpgraded, SupplementaryDone, TurnEnded, Refilled, GameTurnEnded, TurnEndStarted,
    PlayerClosed, PlanetSettled,
    TilesPlaced, PlanetsDealt, PlanetTurned, PlanetRevealed,
)


# -- space (part 2): supplementary action II and what follows a flight ----------------------------


@frozen.value
class PortalsActivated(Event):
    """9.2 B II: range reduced by 1 (the drive in ``slot`` flipped from 2 to 1, or a 1-drive returned to
    the pool); all portals active for the rest of the turn."""

    TYPE: ClassVar[str] = "sm-portals-activated"
    player: str
    slot: int
    returned: bool


@frozen.value
class ShipFlown(Event):
    """The ship flew this path (its hex first); ``jumps``: indices reached through a portal; ``cost``:
    range used, ``bought``: of it bought with fuel at once."""

    TYPE: ClassVar[str] = "sm-ship-flown"
    player: str
    path: tuple[Hex, ...]
    jumps: tuple[int, ...]
    cost: int
    bought: int


@frozen.value
class PlanetColonized(Event):
    """A colony on the planet's hex; the planet beside the mat, waiting (9.2 B II.1)."""

    TYPE: ClassVar[str] = "sm-planet-colonized"
    player: str
    hex: Hex
    planet: int


@frozen.value
class PlanetDeclined(Event):
    """The revealer did not settle: the planet stays face up; explorer bonus of ``vp`` resources."""

    TYPE: ClassVar[str] = "sm-planet-declined"
    player: str
    hex: Hex
    planet: int
    vp: int


@frozen.value
class StationBuilt(Event):
    """The next station of the mat onto the ship's hex, with this station card (paid before, 9.2 B II.2)."""

    TYPE: ClassVar[str] = "sm-station-built"
    player: str
    hex: Hex
    card: int


@frozen.value
class MissionCompleted(Event):
    """Mission ``card`` paid; its marker onto ``hex`` next to hub ``hub``. ``bonus``: "now" (first mission
    at a built hub), "later" (first at an unbuilt hub: when it is built), "" (none)."""

    TYPE: ClassVar[str] = "sm-mission-completed"
    player: str
    hex: Hex
    card: int
    hub: str
    bonus: str


@frozen.value
class OutpostBuilt(Event):
    """Outpost ``outpost`` beside the player's figure on ``hex`` (9.2 B II.4); its bonus follows at once."""

    TYPE: ClassVar[str] = "sm-outpost-built"
    player: str
    hex: Hex
    outpost: int


@frozen.value
class HubBonusTaken(Event):
    """The hub bonus of hub ``hub``: the bonus of outpost ``outpost``, freely chosen (9.2 B II.3)."""

    TYPE: ClassVar[str] = "sm-hub-bonus-taken"
    player: str
    hub: str
    outpost: int


@frozen.value
class SpaceActionDone(Event):
    """What the player did after the flight (colony, decline, station, mission)."""

    TYPE: ClassVar[str] = "sm-space-action-done"
    player: str
    what: str


SPACE = (PortalsActivated, ShipFlown, PlanetColonized, PlanetDeclined, StationBuilt, MissionCompleted, OutpostBuilt,
         HubBonusTaken, SpaceActionDone)
ALL = (*ALL, *SPACE)


# Every number in this game is small (counts, card and planet ids, slots, hex coordinates, VP) and
# every text short; a stored event far outside that is damage, refused on reading back before
# ``evolve`` can meet it (a count of 2**40 would otherwise build a tuple of 2**40 drives).
_LIMIT = 10_000


def _within(value: object, path: str) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -_LIMIT <= value <= _LIMIT:
            raise ValueError(f"{path} is {value}, far outside the game")
    elif isinstance(value, str):
        if len(value) > 200:
            raise ValueError(f"{path} is {len(value)} characters long, far outside the game")
    elif isinstance(value, tuple):
        if len(value) > _LIMIT:
            raise ValueError(f"{path} holds {len(value)} items, far outside the game")
        for i, item in enumerate(value):
            _within(item, f"{path}[{i}]")
    elif attrs.has(type(value)):
        for f in attrs.fields(type(value)):  # type: ignore[arg-type]  # attrs.has said so
            _within(getattr(value, f.name), f"{path}.{f.name}")


def _check_bounds(self: Event) -> None:
    for f in attrs.fields(type(self)):  # type: ignore[arg-type]  # every event is an attrs class
        _within(getattr(self, f.name), f.name)


for _event_type in ALL:
    if "check" not in _event_type.__dict__:
        _event_type.check = _check_bounds  # type: ignore[method-assign]
