"""The component set of Solarius Mission as data: the model (this module), its schema and bounds
(``schema.py``), the ONE schema check (``check.py``) and the ONE loader (``loading.py``).

A set is nine families (mat, bridge, dice, progress cards, station cards, outposts, planets, start
cards, tiles), either a folder with one TOML file per family (the built-in ``house-2016``) or one
TOML file whose top-level tables are the families (what a user types in from a real glossary).
Every record carries ``source`` (``stated: <section ...>``, ``inferred: <reason>`` or ``house:
<reason>``); a record's ``sources`` table overrides it per field, so every number has provenance.

The check refuses unknown keys, wrong types, missing data and effects outside the vocabulary with
one line per bad field. The canonical content (sorted JSON of the plain data) has a digest; a game
records the set's name and digest, and the content too when the set is not the built-in one.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import frozen
from ..errors import InvalidSetup

# The built-in sets, each frozen under its name ("Built-in sets never change", docs/rules): house-2016
# (part 1: the tiles' counts only, no map, so its games are played without flight) and house-2016b
# (house-2016 plus the hex layout of the tiles), the default for new games.
BUILTINS = ("house-2016", "house-2016b")
BUILTIN = "house-2016b"
# The default set's digest, written here so that importing the game reads no TOML (a game played
# with another set never parses this one); a test checks it is the digest the set has.
BUILTIN_DIGEST = "bf84d9107590e30b"
DATA_DIR = Path(__file__).resolve().parent / "data"
FAMILIES = (
    "mat", "bridge", "dice", "progress_cards", "station_cards", "outposts", "planets", "start_cards", "tiles",
)
COLOURS = ("black", "yellow", "turquoise", "brown")
SOURCE_KINDS = ("stated", "inferred", "house")
ROMAN = {"I": 1, "II": 2, "III": 3}


class InvalidComponents(InvalidSetup):
    """A component set that does not pass the schema check; one line per bad field."""


# -- the model ---------------------------------------------------------------------------------------


@frozen.value
class Effect:
    """One effect of the vocabulary (``effects.KINDS``)."""

    kind: str
    colour: str = ""  # resources / action_points: a colour or "any"
    amount: int = 0  # fuel, bucks, action points, range; count of resources, drives, cubes, spaces; steps
    per: str = ""  # vp_per: what is counted
    every: int = 1  # vp_per: how many of it per award
    vp: int = 0  # vp_per: the award


@frozen.value
class CostTerm:
    """A mission cost in one colour: ``5`` (total value) or ``2 II`` / ``III`` (cubes of given values)."""

    colour: str
    total: int = 0
    cubes: tuple[int, ...] = ()

    def text(self) -> str:
        if self.cubes:
            value = self.cubes[0]
            roman = {1: "I", 2: "II", 3: "III"}[value]
            return f"{self.colour} {len(self.cubes)} {roman}" if len(self.cubes) > 1 else f"{self.colour} {roman}"
        return f"{self.colour} {self.total}"


@frozen.value
class DieSpace:
    colours: tuple[str, ...]  # the colours a die may have to be placed here ("any" for all)
    effects: tuple[Effect, ...]

    def accepts(self, colour: str) -> bool:
        return "any" in self.colours or colour in self.colours


@frozen.value
class ProgressCard:
    id: int
    cost: tuple[CostTerm, ...]
    vp: int
    immediate: tuple[Effect, ...]
    permanent: tuple[Effect, ...]
    die_space: DieSpace | None
    source: str


@frozen.value
class StartCard:
    id: int
    shift: str
    upgrade: str
    resources: tuple[str, ...]
    progress: tuple[int, ...]
    source: str


@frozen.value
class StationCard:
    id: int
    colours: tuple[str, ...]
    immediate: tuple[Effect, ...]
    permanent: tuple[Effect, ...]
    source: str


@frozen.value
class Outpost:
    id: int
    symbol: str
    bonus: tuple[Effect, ...]
    source: str


@frozen.value
class Planet:
    id: int
    colour: str
    vp: int
    precondition: tuple[tuple[str, Any], ...]
    source: str


@frozen.value
class Tile:
    name: str
    planet_spaces: tuple[tuple[str, int], ...]
    hubs: int
    portals: int
    source: str
    hexes: tuple[str, ...] = ()  # the layout: what is printed on hex 0..18 (board.LAYOUT_KINDS); () without a map


@frozen.value
class Datum:
    """One datum with its provenance, for ``solrec components``."""

    path: str
    value: Any
    source: str

    @property
    def kind(self) -> str:
        return self.source.split(":", 1)[0]


@frozen.value
class ComponentSet:
    name: str
    digest: str
    canonical: str  # the sorted JSON the digest is taken of
    numbers: Mapping[str, Any]  # "mat.tech.faces" -> value, for the mat, bridge and dice families
    progress_cards: Mapping[int, ProgressCard]
    start_cards: Mapping[int, StartCard]
    station_cards: Mapping[int, StationCard]
    outposts: Mapping[int, Outpost]
    planets: Mapping[int, Planet]
    tiles: tuple[Tile, ...]
    data: tuple[Datum, ...]

    def number(self, path: str) -> Any:
        return self.numbers[path]

    @property
    def has_map(self) -> bool:
        """Whether the set holds the hex layout of the tiles (house-2016, recorded by part 1, does not)."""
        return bool(self.tiles) and all(t.hexes for t in self.tiles)

    @property
    def layouts(self) -> dict[str, tuple[str, ...]]:
        return {t.name: t.hexes for t in self.tiles}

    def card(self, card_id: int) -> ProgressCard:
        return self.progress_cards[card_id]

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in SOURCE_KINDS}
        for d in self.data:
            out[d.kind] += 1
        return out
