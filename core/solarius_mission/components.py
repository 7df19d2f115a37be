"""The component set of Solarius Mission as data: the ONE loader and the ONE schema check.

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

import functools
import hashlib
import json
import marshal
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import frozen
from ..errors import InvalidSetup, json_reason

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


# -- the schema ---------------------------------------------------------------------------------------

# Numeric families: table -> field -> kind ("int", "ints", "int_pairs", "strs")
NUMBERS: dict[str, dict[str, dict[str, str]]] = {
    "mat": {
        "track": {"fuel_start": "int", "bucks_start": "int", "maximum": "int"},
        "exchange": {
            "units_per_resource": "int", "value_per_unit": "int", "bucks_per_action_point": "int",
            "fuel_per_range": "int",
        },
        "storage": {"cells": "ints", "values": "ints", "open_cells": "ints", "resource_pool": "int"},
        "tech": {
            "faces": "ints", "face_vp": "ints", "upgrade_costs": "ints", "shift_costs": "ints", "column_vp": "ints",
        },
        "contamination": {"spaces": "int", "cube_pool": "int"},
        "stations": {"slot_costs": "int_lists", "slot_vp": "ints", "contamination_spaces": "ints"},
        "drives": {"own": "int", "common_slots": "int", "price": "int", "upgrade_price": "int", "pool": "int"},
        "hand": {"limit": "int"},
        "missions": {"markers": "int", "unfulfilled_vp": "int"},
        "planets": {"unsettled_penalty": "ints", "set_of_four": "int", "set_of_three": "int"},
        "end": {"track_thresholds": "int_lists", "beside_vp": "int", "network_awards": "int_lists"},
    },
    "bridge": {"wheel": {"values": "ints", "setup_dice": "int"}, "bonus": {"split_from": "int"}},
    "dice": {
        "action_dice": {"colours": "strs", "per_colour": "int", "faces": "strs"},
        "bag": {"removed_per_colour": "ints", "dice_per_player_turn": "int"},
        "hubs": {"letters": "strs", "removed": "int", "game_turns": "int"},
    },
}
# Fixed lengths the engine relies on
LENGTHS = {
    "mat.storage.cells": 3, "mat.storage.values": 3, "mat.storage.open_cells": 5, "mat.tech.faces": 6,
    "mat.tech.face_vp": 6, "mat.tech.upgrade_costs": 5, "mat.tech.shift_costs": 4, "mat.tech.column_vp": 5,
    "mat.stations.slot_costs": 4, "mat.stations.slot_vp": 4, "mat.stations.contamination_spaces": 4,
    "mat.end.network_awards": 5, "bridge.wheel.values": 5, "dice.action_dice.colours": 4,
    "dice.action_dice.faces": 6, "dice.bag.removed_per_colour": 5,
}

EFFECT_FIELDS: dict[str, dict[str, str]] = {
    "resources": {"colour": "colour_or_any", "count": "int"},
    "fuel": {"amount": "int"},
    "bucks": {"amount": "int"},
    "action_points": {"colour": "colour_or_any?", "amount": "int"},
    "range": {"amount": "int"},
    "upgrade": {"steps": "int"},
    "shift": {"steps": "int"},
    "remove_contamination": {"count": "int"},
    "contamination_spaces": {"count": "int"},
    "drive": {"count": "int"},
    "vp_per": {"per": "per", "every": "int", "vp": "int"},
}
VP_PER = ("drive", "development", "tech_die_column_v", "fuel", "bucks", "resource", "mission_completed", "station")
PRECONDITIONS = {
    "pay_fuel": {"amount": "int"},
    "pay_bucks": {"amount": "int"},
    "tech_value": {"colour": "colour", "at_least": "int"},
    "tech_column": {"colour": "colour", "at_least": "int"},
}

# -- the bounds: what the schema accepts, the engine plays --------------------------------------------------
# The range of every number and the length of every list and text the engine relies on. The rulebook's
# figure lies inside each range; the ranges are house bounds (docs/rules/solarius-mission.md, "Bounds
# of a component set"), wide enough for any printed glossary and narrow enough that every accepted set
# sets up, is played to its end by the random player, and renders in time.
RANGES: dict[str, tuple[int, int]] = {  # a number, or each number of a list (of lists)
    "mat.track.maximum": (1, 20), "mat.track.fuel_start": (0, 20), "mat.track.bucks_start": (0, 20),
    "mat.exchange.units_per_resource": (2, 2), "mat.exchange.value_per_unit": (1, 6),
    "mat.exchange.bucks_per_action_point": (1, 6), "mat.exchange.fuel_per_range": (1, 6),
    "mat.storage.cells": (1, 6), "mat.storage.values": (1, 6), "mat.storage.open_cells": (1, 18),
    "mat.storage.resource_pool": (0, 200),
    "mat.tech.faces": (1, 6), "mat.tech.face_vp": (0, 10), "mat.tech.upgrade_costs": (0, 10),
    "mat.tech.shift_costs": (0, 10), "mat.tech.column_vp": (0, 10),
    "mat.contamination.spaces": (0, 10), "mat.contamination.cube_pool": (0, 100),
    "mat.stations.slot_costs": (1, 12), "mat.stations.slot_vp": (0, 10), "mat.stations.contamination_spaces": (0, 5),
    "mat.drives.own": (0, 5), "mat.drives.common_slots": (0, 6), "mat.drives.price": (1, 10),
    "mat.drives.upgrade_price": (1, 10), "mat.drives.pool": (0, 40),
    "mat.hand.limit": (1, 10),
    "mat.missions.markers": (0, 12), "mat.missions.unfulfilled_vp": (-10, 0),
    "mat.planets.unsettled_penalty": (0, 100), "mat.planets.set_of_four": (0, 20), "mat.planets.set_of_three": (0, 20),
    "mat.end.track_thresholds": (0, 20), "mat.end.beside_vp": (-10, 0), "mat.end.network_awards": (0, 20),
    "bridge.wheel.values": (-1, 6), "bridge.wheel.setup_dice": (1, 5), "bridge.bonus.split_from": (0, 10),
    "dice.action_dice.per_colour": (1, 10), "dice.bag.removed_per_colour": (0, 10),
    "dice.bag.dice_per_player_turn": (1, 10), "dice.hubs.removed": (0, 5), "dice.hubs.game_turns": (1, 6),
    "start_cards.rules.resources_each": (0, 5), "tiles.setup.planets_removed_per_colour": (0, 9),
}
# Lists of no fixed length (LENGTHS holds the fixed ones): (fewest, most) entries; INNER: each inner list
SPANS: dict[str, tuple[int, int]] = {
    "mat.planets.unsettled_penalty": (1, 40), "mat.end.track_thresholds": (0, 10), "dice.hubs.letters": (1, 6),
}
INNER: dict[str, tuple[int, int]] = {
    "mat.stations.slot_costs": (2, 2), "mat.end.track_thresholds": (2, 2), "mat.end.network_awards": (0, 4),
}
EFFECT_RANGES = {"count": (0, 10), "amount": (0, 10), "steps": (0, 10), "every": (1, 10), "vp": (0, 10)}
PRECONDITION_RANGES = {"amount": (0, 20), "at_least": (0, 6)}
ID_RANGE = (1, 999)  # a card's, an outpost's or a planet's number
VP_RANGE = (0, 20)  # a mission's or a planet's victory points
TILE_RANGE = (0, 19)  # hexes of one kind on a tile of 19 hexes (board.TILE_SIZE)
RECORDS = {  # how many records each family holds: (fewest, most; _cross_checks: what 4 players need)
    "progress_cards": (0, 100), "start_cards": (0, 20), "station_cards": (1, 12), "outposts": (1, 12),
    "planets": (0, 100), "tiles": (0, 7),
}
MAX_EFFECTS = 6  # effects in one list (immediate, permanent, a die space's, a bonus)
MAX_COST_TERMS = 4  # terms of one mission cost, one per colour
MAX_START_PROGRESS = 4  # progress cards named on one start card
MAX_TEXT = 600  # characters of one text (a source: the longest built-in one is 375)
MAX_NAME = 64  # characters of the set's name, a tile's name
# Before parsing: a set's TOML (all its files together) and the recorded JSON content. The content is
# recorded in the game's options, which the store holds as one JSON text of at most 64 KiB
# (events/store.py MAX_TEXT): the content as stored there (JSON-escaped) stays under MAX_CONTENT.
MAX_BYTES = 128 * 1024  # house-2016b is 32 KB of TOML
MAX_CONTENT = 60 * 1024  # house-2016b's content is 32,086 characters as stored
MAX_DEPTH = 12  # nesting of tables, arrays and dotted keys (the built-in sets nest 8 deep)
MAX_NODES = 20_000  # values in the whole tree (house-2016b: about 4,000)
# Python reads no decimal number of more than 4,300 digits (tomllib refuses one as not TOML), but a
# hexadecimal, octal or binary literal of any length reads; such a number is refused alike.
MAX_DIGITS = 4300
_HUGE = 10**MAX_DIGITS


def _shown(value: Any) -> str:
    """A value as a reason quotes it: short (a huge number by its digits, a long text or list cut)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        if abs(value) >= _HUGE:  # str() would refuse it (Python's bound for whole numbers as text)
            return f"a number of more than {MAX_DIGITS} digits"
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value) if isinstance(value, str | int | float | bool) else f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


class _Check:
    """Collects one line per bad field."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.data: list[Datum] = []

    def bad(self, path: str, reason: str) -> None:
        self.errors.append(f"{path}: {reason}")

    def keys(self, path: str, table: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> bool:
        if not isinstance(table, dict):
            self.bad(path, f"is a table, not {type(table).__name__}")
            return False
        for key in sorted(set(table) - set(required) - set(optional)):
            self.bad(f"{path}.{key}", "unknown key")
        ok = True
        for key in required:
            if key not in table:
                self.bad(f"{path}.{key}", "missing")
                ok = False
        return ok

    def within(self, path: str, value: int, bounds: tuple[int, int]) -> bool:
        lo, hi = bounds
        if not lo <= value <= hi:
            self.bad(path, f"is {lo}..{hi}, not {_shown(value)}" if lo < hi else f"is {lo}, not {_shown(value)}")
            return False
        return True

    def number(self, path: str, value: Any, bounds: tuple[int, int]) -> bool:
        """A whole number within its bounds."""
        return self.value(path, value, "int") and self.within(path, value, bounds)

    def spans(self, path: str, value: list, bounds: tuple[int, int], what: str = "values") -> bool:
        lo, hi = bounds
        if not lo <= len(value) <= hi:
            self.bad(path, f"holds {lo}..{hi} {what}, not {len(value)}" if lo != hi else f"holds {lo} {what}, not {len(value)}")
            return False
        return True

    def source(self, path: str, value: Any) -> str | None:
        if not isinstance(value, str):
            self.bad(path, f"is text ('stated: ...', 'inferred: ...' or 'house: ...'), not {type(value).__name__}")
            return None
        kind, sep, reason = value.partition(":")
        if kind.strip() not in SOURCE_KINDS or not sep or not reason.strip():
            self.bad(path, f"starts with stated:, inferred: or house: and gives a reason, not {value[:40]!r}")
            return None
        return value

    def value(self, path: str, value: Any, kind: str) -> bool:
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        del optional
        if kind == "int":
            good = isinstance(value, int) and not isinstance(value, bool)
            what = "a whole number"
        elif kind == "ints":
            good = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            what = "a list of whole numbers"
        elif kind == "int_lists":
            good = isinstance(value, list) and all(
                isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v) for v in value
            )
            what = "a list of lists of whole numbers"
        elif kind == "strs":
            good = isinstance(value, list) and all(isinstance(v, str) for v in value)
            what = "a list of texts"
        elif kind == "colour":
            good = isinstance(value, str) and value in COLOURS
            what = f"a colour ({', '.join(COLOURS)})"
        elif kind == "colour_or_any":
            good = isinstance(value, str) and value in (*COLOURS, "any")
            what = f"a colour ({', '.join(COLOURS)}) or any"
        elif kind == "per":
            good = isinstance(value, str) and value in VP_PER
            what = f"one of {', '.join(VP_PER)}"
        elif kind == "str":
            good = isinstance(value, str) and 0 < len(value) <= MAX_NAME
            what = f"a text of 1..{MAX_NAME} characters"
        else:  # pragma: no cover - a schema typo
            raise AssertionError(kind)
        if not good:
            self.bad(path, f"is {what}, not {_shown(value)}")
        return good

    def effect(self, path: str, raw: Any) -> Effect | None:
        if not isinstance(raw, dict):
            self.bad(path, f"an effect is a table with 'effect', not {_shown(raw)}")
            return None
        kind = raw.get("effect")
        if not isinstance(kind, str) or kind not in EFFECT_FIELDS:
            self.bad(f"{path}.effect", f"{_shown(kind)} is outside the effect vocabulary ({', '.join(EFFECT_FIELDS)})")
            return None
        fields = EFFECT_FIELDS[kind]
        required = tuple(k for k, v in fields.items() if not v.endswith("?"))
        optional = tuple(k for k, v in fields.items() if v.endswith("?"))
        if not self.keys(path, raw, ("effect", *required), optional):
            return None
        good = all(self.value(f"{path}.{k}", raw[k], fields[k]) for k in fields if k in raw)
        if not good:
            return None
        if not all([self.within(f"{path}.{k}", raw[k], b) for k, b in EFFECT_RANGES.items() if k in raw]):
            return None
        amount = int(raw.get("count", raw.get("amount", raw.get("steps", 0))) or 0)
        colour = raw.get("colour", "any" if kind == "action_points" else "")
        return Effect(kind, colour, amount, raw.get("per", ""), raw.get("every", 1), raw.get("vp", 0))

    def effects(self, path: str, raw: Any) -> tuple[Effect, ...]:
        if not isinstance(raw, list):
            self.bad(path, f"is a list of effects, not {type(raw).__name__}")
            return ()
        if not self.spans(path, raw, (0, MAX_EFFECTS), "effects"):
            return ()
        out = [self.effect(f"{path}[{i}]", r) for i, r in enumerate(raw)]
        return tuple(e for e in out if e is not None)

    def record(self, path: str, raw: dict, fields: dict[str, Any]) -> str | None:
        """Note a record's data with provenance; returns its source."""
        src = self.source(f"{path}.source", raw.get("source"))
        if src is None:
            return None
        self.data.append(Datum(path, "record", src))
        overrides = raw.get("sources", {})
        if not isinstance(overrides, dict):
            self.bad(f"{path}.sources", "is a table of field -> source")
            overrides = {}
        for key in sorted(overrides):
            if key not in fields:
                self.bad(f"{path}.sources.{key}", "names no field of this record")
            else:
                self.source(f"{path}.sources.{key}", overrides[key])
        for key, value in fields.items():
            self.data.append(Datum(f"{path}.{key}", value, overrides.get(key, src)))
        return src


def _cost(check: _Check, path: str, raw: Any) -> tuple[CostTerm, ...]:
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_COST_TERMS:
        check.bad(path, f"is a list of 1..{MAX_COST_TERMS} cost terms such as 'black 5', 'yellow 2 II' or 'brown III'")
        return ()
    out = []
    for i, term in enumerate(raw):
        words = term.split() if isinstance(term, str) and len(term) <= MAX_NAME else []
        where = f"{path}[{i}]"
        if len(words) < 2 or words[0] not in COLOURS:
            check.bad(where, f"a cost term starts with a colour and is written '5', '2 II' or 'III', not {_shown(term)}")
            continue
        colour, rest = words[0], words[1:]
        # a total of value 1..30, or 1..6 cubes (ASCII digits: int() would read other scripts' digits too)
        count = int(rest[0]) if rest[0].isascii() and rest[0].isdigit() and len(rest[0]) <= 2 else 0
        if len(rest) == 1 and 0 < count <= 30:
            out.append(CostTerm(colour, total=count))
        elif len(rest) == 1 and rest[0] in ROMAN:
            out.append(CostTerm(colour, cubes=(ROMAN[rest[0]],)))
        elif len(rest) == 2 and 0 < count <= 6 and rest[1] in ROMAN:
            out.append(CostTerm(colour, cubes=(ROMAN[rest[1]],) * count))
        else:
            check.bad(where, f"a cost is written '5' (a total value 1..30), '2 II' (1..6 cubes of a value) or 'III', not {_shown(term)}")
    return tuple(out)


def _bounded(check: _Check, path: str, value: Any) -> bool:
    """A datum of a numeric family within its bounds: its length (LENGTHS, SPANS, INNER) and the range
    of each of its numbers (RANGES)."""
    if isinstance(value, list):
        want = LENGTHS.get(path)
        if want is not None and not check.spans(path, value, (want, want)):
            return False
        if path in SPANS and not check.spans(path, value, SPANS[path]):
            return False
        good = True
        for i, item in enumerate(value):
            if isinstance(item, list):
                good &= path not in INNER or check.spans(f"{path}[{i}]", item, INNER[path])
                good &= all([check.within(f"{path}[{i}]", x, RANGES[path]) for x in item])
            elif isinstance(item, int):
                good &= check.within(f"{path}[{i}]", item, RANGES[path])
        return good
    return check.within(path, value, RANGES[path])


def _records(check: _Check, family: str, raw: Any, key: str) -> list[tuple[str, dict]]:
    if not check.keys(family, raw, (key,)):
        return []
    items = raw[key]
    if not isinstance(items, list) or not all(isinstance(r, dict) for r in items):
        check.bad(f"{family}.{key}", "is a list of tables ([[...]])")
        return []
    if not check.spans(f"{family}.{key}", items, RECORDS[family], "records"):
        return []
    return [(f"{family}.{key}[{i}]", r) for i, r in enumerate(items)]


def _unique(check: _Check, path: str, ids: list[Any]) -> None:
    seen = set()
    for i in ids:
        if not isinstance(i, int) or isinstance(i, bool):
            continue  # refused as a wrong type where the record is read
        if i in seen:
            check.bad(path, f"id {i!r} appears twice")
        seen.add(i)


def check_set(name: str, raw: Mapping[str, Any]) -> ComponentSet:
    """The schema check: the plain data of a set becomes the frozen model, or InvalidComponents."""
    check = _Check()
    if not isinstance(raw, Mapping):
        raise InvalidComponents("a component set is a table of families")
    _tree_bounds(dict(raw))
    for key in sorted(set(raw) - set(FAMILIES) - {"name"}):
        check.bad(key, f"unknown family (families: {', '.join(FAMILIES)})")
    for fam in FAMILIES:
        if fam not in raw:
            check.bad(fam, "family missing")
    numbers: dict[str, Any] = {}
    for fam, tables in NUMBERS.items():
        fam_raw = raw.get(fam)
        if fam_raw is None or not check.keys(fam, fam_raw, tuple(tables)):
            continue
        for table, fields in tables.items():
            t_raw = fam_raw[table]
            path = f"{fam}.{table}"
            if not check.keys(path, t_raw, (*fields, "source"), ("sources",)):
                continue
            checked = {k: t_raw[k] for k in fields if check.value(f"{path}.{k}", t_raw[k], fields[k])}
            for k, v in checked.items():
                if _bounded(check, f"{path}.{k}", v):
                    numbers[f"{path}.{k}"] = v
            check.record(path, t_raw, checked)
    if "dice.action_dice.colours" in numbers and tuple(numbers["dice.action_dice.colours"]) != COLOURS:
        check.bad("dice.action_dice.colours", f"the rows of the mat are {', '.join(COLOURS)}, in this order")
    if "dice.action_dice.faces" in numbers:
        faces = numbers["dice.action_dice.faces"]
        for f in faces:
            if f not in ("1", "2", "3", "4", "5", "6", "*", "*+1"):
                check.bad("dice.action_dice.faces", f"a face is a number 1-6, * or *+1, not {_shown(f)}")
    if "dice.hubs.letters" in numbers:
        # each hub marker names an outer tile (2.7); a letter drawn twice would be two markers of one hub
        letters = numbers["dice.hubs.letters"]
        if any(len(x) != 1 or not ("A" <= x <= "Z") for x in letters) or len(set(letters)) != len(letters):
            check.bad("dice.hubs.letters", "are different capital letters A-Z, one per outer tile")

    cards: dict[int, ProgressCard] = {}
    for path, r in _records(check, "progress_cards", raw.get("progress_cards", {}), "card"):
        if not check.keys(path, r, ("id", "source", "mission", "development"), ("sources",)):
            continue
        if not check.number(f"{path}.id", r["id"], ID_RANGE):
            continue
        mission, dev = r["mission"], r["development"]
        cost: tuple[CostTerm, ...] = ()
        vp = 0
        if check.keys(f"{path}.mission", mission, ("cost", "vp")):
            cost = _cost(check, f"{path}.mission.cost", mission["cost"])
            vp = mission["vp"] if check.number(f"{path}.mission.vp", mission["vp"], VP_RANGE) else 0
        imm: tuple[Effect, ...] = ()
        perm: tuple[Effect, ...] = ()
        space = None
        if check.keys(f"{path}.development", dev, (), ("immediate", "permanent", "die_space")):
            imm = check.effects(f"{path}.development.immediate", dev.get("immediate", []))
            perm = check.effects(f"{path}.development.permanent", dev.get("permanent", []))
            for e in imm:
                if e.kind in ("action_points", "range", "contamination_spaces", "vp_per"):
                    check.bad(f"{path}.development.immediate", f"{e.kind} is a permanent effect")
            for e in perm:
                if e.kind not in ("action_points", "range", "contamination_spaces", "vp_per"):
                    check.bad(f"{path}.development.permanent", f"{e.kind} is an immediate effect")
            if "die_space" in dev:
                ds = dev["die_space"]
                if check.keys(f"{path}.development.die_space", ds, ("colours", "effects")):
                    colours = ds["colours"]
                    if not isinstance(colours, list) or not 0 < len(colours) <= 4 or any(
                        not isinstance(c, str) or c not in (*COLOURS, "any") for c in colours
                    ):
                        check.bad(f"{path}.development.die_space.colours", "is a list of colours or ['any']")
                    else:
                        space = DieSpace(tuple(colours), check.effects(f"{path}.development.die_space.effects", ds["effects"]))
        src = check.record(path, r, {"id": r["id"], "mission.cost": mission.get("cost") if isinstance(mission, dict) else None,
                                     "mission.vp": vp, "development": dev})
        cards[r["id"]] = ProgressCard(r["id"], cost, vp, imm, perm, space, src or "")
    _unique(check, "progress_cards.card", [r.get("id") for _, r in _records(_Check(), "progress_cards", raw.get("progress_cards", {}), "card")])

    starts: dict[int, StartCard] = {}
    sc_raw = raw.get("start_cards", {})
    if check.keys("start_cards", sc_raw, ("card", "rules")):
        rules = sc_raw["rules"]
        if check.keys("start_cards.rules", rules, ("resources_each", "source"), ("sources",)):
            if check.number("start_cards.rules.resources_each", rules["resources_each"], RANGES["start_cards.rules.resources_each"]):
                numbers["start_cards.rules.resources_each"] = rules["resources_each"]
            check.record("start_cards.rules", rules, {"resources_each": rules["resources_each"]})
        for path, r in _records(check, "start_cards", {"card": sc_raw["card"]}, "card"):
            if not check.keys(path, r, ("id", "shift", "upgrade", "resources", "progress", "source"), ("sources",)):
                continue
            good = check.number(f"{path}.id", r["id"], ID_RANGE)
            good &= check.value(f"{path}.shift", r["shift"], "colour")
            good &= check.value(f"{path}.upgrade", r["upgrade"], "colour")
            good &= check.value(f"{path}.progress", r["progress"], "ints") and check.spans(
                f"{path}.progress", r["progress"], (0, MAX_START_PROGRESS), "card numbers")
            res = r["resources"]
            if not isinstance(res, list) or any(not isinstance(c, str) or c not in COLOURS for c in res):
                check.bad(f"{path}.resources", "is a list of colours")
                good = False
            if good:
                if len({r["shift"], r["upgrade"], *res}) != 2 + len(res):
                    check.bad(path, "shifts, upgrades and gives resources in different colours (4.0)")
                for cid in r["progress"]:
                    if cid not in cards:
                        check.bad(f"{path}.progress", f"names progress card {cid}, which the set lacks")
                src = check.record(path, r, {k: r[k] for k in ("shift", "upgrade", "resources", "progress")})
                starts[r["id"]] = StartCard(r["id"], r["shift"], r["upgrade"], tuple(res), tuple(r["progress"]), src or "")

    stations: dict[int, StationCard] = {}
    for path, r in _records(check, "station_cards", raw.get("station_cards", {}), "card"):
        if not check.keys(path, r, ("id", "colours", "immediate", "permanent", "source"), ("sources",)):
            continue
        if not check.number(f"{path}.id", r["id"], ID_RANGE):
            continue
        colours = r["colours"]
        if not isinstance(colours, list) or len(colours) != 2 or any(not isinstance(c, str) or c not in COLOURS for c in colours):
            check.bad(f"{path}.colours", "names two colours (9.2 B II.2)")
            colours = []
        imm = check.effects(f"{path}.immediate", r["immediate"])
        perm = check.effects(f"{path}.permanent", r["permanent"])
        src = check.record(path, r, {"colours": colours, "immediate": r["immediate"], "permanent": r["permanent"]})
        stations[r["id"]] = StationCard(r["id"], tuple(colours), imm, perm, src or "")

    outposts: dict[int, Outpost] = {}
    for path, r in _records(check, "outposts", raw.get("outposts", {}), "outpost"):
        if not check.keys(path, r, ("id", "symbol", "bonus", "source"), ("sources",)):
            continue
        if not check.number(f"{path}.id", r["id"], ID_RANGE):
            continue
        if not isinstance(r["symbol"], str) or r["symbol"] not in ("colony", "station", "mission"):
            check.bad(f"{path}.symbol", f"is colony, station or mission, not {_shown(r['symbol'])}")
        bonus = check.effects(f"{path}.bonus", r["bonus"])
        src = check.record(path, r, {"symbol": r["symbol"], "bonus": r["bonus"]})
        outposts[r["id"]] = Outpost(r["id"], str(r["symbol"]), bonus, src or "")

    planets: dict[int, Planet] = {}
    for path, r in _records(check, "planets", raw.get("planets", {}), "planet"):
        if not check.keys(path, r, ("id", "colour", "vp", "precondition", "source"), ("sources",)):
            continue
        good = check.number(f"{path}.id", r["id"], ID_RANGE) & check.value(f"{path}.colour", r["colour"], "colour")
        good &= check.number(f"{path}.vp", r["vp"], VP_RANGE)
        pre = r["precondition"]
        kind = pre.get("kind") if isinstance(pre, dict) else None
        if not isinstance(kind, str) or kind not in PRECONDITIONS:
            check.bad(f"{path}.precondition.kind", f"{_shown(kind)} is not a precondition ({', '.join(PRECONDITIONS)})")
            good = False
        elif check.keys(f"{path}.precondition", pre, ("kind", *PRECONDITIONS[kind])):
            good &= all([check.value(f"{path}.precondition.{k}", pre[k], v) and (
                v != "int" or check.within(f"{path}.precondition.{k}", pre[k], PRECONDITION_RANGES[k]))
                for k, v in PRECONDITIONS[kind].items()])
        else:
            good = False
        if good:
            src = check.record(path, r, {"colour": r["colour"], "vp": r["vp"], "precondition": pre})
            planets[r["id"]] = Planet(r["id"], r["colour"], r["vp"], tuple(sorted(pre.items())), src or "")

    tiles: list[Tile] = []
    tiles_raw = raw.get("tiles", {})
    setup = tiles_raw.get("setup") if isinstance(tiles_raw, dict) else None
    if setup is not None and check.keys("tiles.setup", setup, ("planets_removed_per_colour", "source"), ("sources",)):
        removed = setup["planets_removed_per_colour"]
        if check.value("tiles.setup.planets_removed_per_colour", removed, "ints"):
            if len(removed) != 5:
                check.bad("tiles.setup.planets_removed_per_colour", f"holds 5 values (by player count 0-4), not {len(removed)}")
            elif _bounded(check, "tiles.setup.planets_removed_per_colour", removed):
                numbers["tiles.setup.planets_removed_per_colour"] = removed
            check.record("tiles.setup", setup, {"planets_removed_per_colour": removed})
    tiles_records = {k: v for k, v in tiles_raw.items() if k != "setup"} if isinstance(tiles_raw, dict) else tiles_raw
    for path, r in _records(check, "tiles", tiles_records, "tile"):
        if not check.keys(path, r, ("name", "planet_spaces", "hubs", "portals", "source"), ("sources", "hexes")):
            continue
        spaces = r["planet_spaces"]
        good = check.value(f"{path}.name", r["name"], "str") & check.number(f"{path}.hubs", r["hubs"], TILE_RANGE)
        good &= check.number(f"{path}.portals", r["portals"], TILE_RANGE)
        if check.keys(f"{path}.planet_spaces", spaces, ("unmarked", "three", "four")):
            good &= all([check.number(f"{path}.planet_spaces.{k}", spaces[k], TILE_RANGE) for k in ("unmarked", "three", "four")])
        else:
            good = False
        hexes = r.get("hexes", [])
        if "hexes" in r and not (check.value(f"{path}.hexes", hexes, "strs") and _layout(check, f"{path}.hexes", r, hexes)):
            good = False
        if good:
            fields = {"planet_spaces": spaces, "hubs": r["hubs"], "portals": r["portals"]}
            if hexes:
                fields["hexes"] = hexes
            src = check.record(path, r, fields)
            tiles.append(Tile(r["name"], tuple(sorted(spaces.items())), r["hubs"], r["portals"], src or "", tuple(hexes)))
    if not check.errors:
        _map_checks(check, numbers, tiles, planets)

    if not check.errors:
        _cross_checks(check, numbers, cards, starts, planets)
    if check.errors:
        shown = check.errors[:25]
        more = f"\n... and {len(check.errors) - 25} more" if len(check.errors) > 25 else ""
        raise InvalidComponents(f"component set {name!r} is refused:\n" + "\n".join(shown) + more)
    canon = canonical_json(raw)
    stored = len(json.dumps(canon))  # as the game's options hold it (JSON-escaped)
    if stored > MAX_CONTENT:
        raise InvalidComponents(f"component set {name!r} is {stored:,} characters as a game records it, over the bound of "
                                f"{MAX_CONTENT:,} (the store holds a game's options in 64 KiB)")
    return ComponentSet(
        name=name,
        digest=digest_of(canon),
        canonical=canon,
        numbers=numbers,
        progress_cards=cards,
        start_cards=starts,
        station_cards=stations,
        outposts=outposts,
        planets=planets,
        tiles=tuple(tiles),
        data=tuple(check.data),
    )


def _layout(check: _Check, path: str, r: dict, hexes: list[str]) -> bool:
    """One tile's layout agrees with its own counts (4.0, 2.1)."""
    from .board import LAYOUT_KINDS, TILE_SIZE

    good = True
    if len(hexes) != TILE_SIZE:
        check.bad(path, f"lists the {TILE_SIZE} hexes of a tile (0 the middle, 1-6, 7-18 clockwise from the top), not {len(hexes)}")
        good = False
    for i, word in enumerate(hexes):
        if word not in LAYOUT_KINDS:
            check.bad(f"{path}[{i}]", f"is one of {', '.join(LAYOUT_KINDS)}, not {_shown(word)}")
            good = False
    if not good:
        return False
    spaces = r["planet_spaces"]
    counted = {
        "unmarked": hexes.count("planet"), "three": hexes.count("planet-3"), "four": hexes.count("planet-4"),
    }
    for key, n in counted.items():
        if isinstance(spaces, dict) and spaces.get(key) != n:
            check.bad(path, f"holds {n} planet spaces marked {key}, but planet_spaces.{key} says {spaces.get(key)}")
            good = False
    for key, word in (("hubs", "hub"), ("portals", "portal")):
        if r[key] != hexes.count(word):
            check.bad(path, f"holds {hexes.count(word)} {word} hexes, but {key} says {r[key]}")
            good = False
    centre = r["name"] == "centre"
    if hexes.count("home") != (1 if centre else 0) or (centre and hexes[0] != "home"):
        check.bad(path, "the home planet is the centre's middle hex (2.1 'The center contains the home planet in the middle')"
                  if centre else "only the centre holds the home planet (2.1)")
        good = False
    return good


def _map_checks(check: _Check, numbers: dict, tiles: list[Tile], planets: dict) -> None:
    """A set with a map: the centre and one tile per hub letter, each laid out, and planet spaces in use
    for each player count equal to the planets in play (4.0)."""
    laid = [t for t in tiles if t.hexes]
    if not laid:
        return  # a set without a map (part 1): played without flight
    names = sorted(t.name for t in tiles)
    letters = sorted(numbers["dice.hubs.letters"])
    if names != sorted(["centre", *letters]):
        check.bad("tiles.tile", f"a map is the centre and the tiles {', '.join(letters)}, not {', '.join(names)}")
        return
    for t in tiles:
        if not t.hexes:
            check.bad(f"tiles.tile[{t.name}].hexes", "missing: every tile of a map is laid out")
    for t in tiles:
        if t.name != "centre" and t.hexes.count("hub") != 1:
            check.bad(f"tiles.tile[{t.name}].hexes", "an outer tile holds one commercial hub space (2.7)")
    removed = numbers.get("tiles.setup.planets_removed_per_colour")
    if removed is None:
        check.bad("tiles.setup.planets_removed_per_colour", "missing: a map needs how many planets per colour are sorted out (4.0)")
        return
    if check.errors:
        return
    per_colour = {c: sum(1 for p in planets.values() if p.colour == c) for c in COLOURS}
    for players in (2, 3, 4):
        in_play = sum(max(0, n - removed[players]) for n in per_colour.values())
        used = 0
        for t in tiles:
            for word in t.hexes:
                if word == "planet" or (word == "planet-4" and players == 4) or (
                    word == "planet-3" and (players == 3 if t.name == "centre" else players >= 3)
                ):
                    used += 1
        if used != in_play:
            check.bad("tiles", f"with {players} players {used} planet spaces are in use but {in_play} planets are in play (4.0)")


def _cross_checks(check: _Check, numbers: dict, cards: dict, starts: dict, planets: dict) -> None:
    if len(cards) < 12:
        check.bad("progress_cards", f"holds {len(cards)} cards; 4 players need at least 12 to deal and draw")
    if len(starts) < 4:
        check.bad("start_cards", f"holds {len(starts)} cards; 4 players need 4")
    if sorted(numbers["mat.tech.faces"]) != list(numbers["mat.tech.faces"]):
        check.bad("mat.tech.faces", "rise from the first side to the last")
    open_cells = numbers["mat.storage.open_cells"]
    if open_cells != sorted(open_cells) or open_cells[-1] > sum(numbers["mat.storage.cells"]):
        check.bad("mat.storage.open_cells", "rise column by column and never exceed the storage cells")
    per = numbers["dice.action_dice.per_colour"]
    for players in (2, 3, 4):
        removed = numbers["dice.bag.removed_per_colour"][players]
        in_bag = 4 * (per - removed) - numbers["bridge.wheel.setup_dice"]
        if in_bag != players * numbers["dice.bag.dice_per_player_turn"]:
            check.bad("dice.bag.removed_per_colour", f"with {players} players the bag must hold 4 dice per player after the bridge")
    for track in ("fuel_start", "bucks_start"):
        if numbers[f"mat.track.{track}"] > numbers["mat.track.maximum"]:
            check.bad(f"mat.track.{track}", "is at most mat.track.maximum (5.0 'may never have more than 10 fuel or SpaceBucks')")
    dealt = 4 * 2 * numbers["start_cards.rules.resources_each"]
    if numbers["mat.storage.resource_pool"] < dealt:
        # 4.0 deals each player "two resources each in the other two colors" before anyone plays
        check.bad("mat.storage.resource_pool", f"holds the {dealt} resources the start cards deal to 4 players, not "
                  f"{numbers['mat.storage.resource_pool']}")
    values = numbers["bridge.wheel.values"]
    if len(set(values)) != len(values):
        check.bad("bridge.wheel.values", "are different: a bonus names its space on the wheel (9.2 A)")
    letters, removed_hubs = len(numbers["dice.hubs.letters"]), numbers["dice.hubs.removed"]
    if numbers["dice.hubs.game_turns"] + removed_hubs > letters:
        # 4.0: two of the six hub markers go back to the box, the other four lie on the four game turns
        check.bad("dice.hubs.game_turns", f"with {removed_hubs} hub marker(s) removed, {letters} letters reveal a hub for at most "
                  f"{letters - removed_hubs} game turns")
    named = [cid for s in starts.values() for cid in s.progress]
    for cid in sorted({cid for cid in named if named.count(cid) > 1}):
        check.bad("start_cards", f"progress card {cid} is named twice: each start card's cards are dealt from one deck (4.0)")


def canonical_json(raw: Mapping[str, Any]) -> str:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(canonical: str) -> str:
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# -- loading ---------------------------------------------------------------------------------------


def _string_end(text: str, start: int, quote: str) -> int:
    """Where a TOML string that opens at ``start`` ends (just past its closing quote); one pass, no
    regular expression (which backtracks quadratically on a long unclosed string)."""
    delim = quote * 3 if text.startswith(quote * 3, start) else quote
    k, n = start + len(delim), len(text)
    while k < n:
        ch = text[k]
        if ch == "\\" and quote == '"':
            k += 2
        elif text.startswith(delim, k):
            return k + len(delim)
        elif ch == "\n" and len(delim) == 1:
            return k  # a one-line string is not closed: tomllib says so
        else:
            k += 1
    return n


def _nesting(text: str) -> int:
    """How deep a TOML text nests, read before it is parsed: tomllib recurses into nested arrays and
    inline tables, and a dotted key of n parts costs it time and memory quadratic in n (a 100,000-part
    key ran out of memory after 26 s). Brackets and dots inside strings and comments are text."""
    depth = deepest = 0
    parts = longest = 1  # parts of the dotted key being read, and of the longest
    word = False  # the last character read (blanks aside) ends a key part
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in "\"'":
            i, word = _string_end(text, i, ch), True
            continue
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
        if ch == "." and word:
            parts += 1
            longest = max(longest, parts)
            word = False
        elif ch.isalnum() or ch in "_-":
            word = True
        elif ch not in " \t.":
            parts, word = 1, False
        i += 1
    return max(deepest, longest)


def _toml(label: str, text: str) -> dict[str, Any]:
    if _nesting(text) > MAX_DEPTH:
        raise InvalidComponents(f"{label} nests tables, arrays or dotted keys more than {MAX_DEPTH} deep")
    import tomllib  # here: a process that finds the parsed set kept (``_parsed``) parses no TOML

    try:
        raw = tomllib.loads(text)
    except ValueError as err:  # TOMLDecodeError, and a decimal number over Python's 4,300 digits
        raise InvalidComponents(f"{label} is not valid TOML: {err}") from None
    except RecursionError:
        raise InvalidComponents(f"{label} nests tables or arrays more than {MAX_DEPTH} deep") from None
    if _has_huge_number(raw):  # 0x, 0o or 0b followed by thousands of digits
        raise InvalidComponents(f"{label} is not valid TOML: a number of more than {MAX_DIGITS} digits")
    return raw


def _has_huge_number(raw: Any) -> bool:
    """Whether the parsed tree holds a whole number of more than ``MAX_DIGITS`` decimal digits (its
    depth is bounded already: ``_nesting``)."""
    stack = [raw]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) is int and (node >= _HUGE or node <= -_HUGE):
            return True
    return False


def _tree_bounds(raw: Any) -> None:
    """The whole tree within its bounds before the schema reads it: its depth, its size and the length
    of every text (keys included); texts are printable (no control or bidi characters)."""
    stack: list[tuple[Any, int]] = [(raw, 0)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH or nodes > MAX_NODES:
            raise InvalidComponents(f"a component set nests at most {MAX_DEPTH} deep and holds at most {MAX_NODES} values")
        if isinstance(node, dict):
            stack.extend((k, depth + 1) for k in node)
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
        elif isinstance(node, str) and (len(node) > MAX_TEXT or not node.isprintable()):
            what = f"is {len(node)} characters long" if len(node) > MAX_TEXT else "holds a control character"
            raise InvalidComponents(f"a text of the set {what} (at most {MAX_TEXT} printable characters): {_shown(node)}")


def parse_texts(name: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """The plain data of a set from TOML texts: one text per family (keyed by family), or one text
    whose top-level tables are the families (keyed by anything else)."""
    size = sum(len(body.encode("utf-8", "surrogatepass")) for body in texts.values())
    if size > MAX_BYTES:
        raise InvalidComponents(f"a component set is at most {MAX_BYTES // 1024} KiB of TOML, not {size:,} bytes")
    if len(texts) == 1 and next(iter(texts)) not in FAMILIES:
        (label, body), = texts.items()
        raw = _toml(label, body)
        raw.setdefault("name", name)
        return raw
    raw = {"name": name}
    for label, body in sorted(texts.items()):
        if label not in FAMILIES:
            raise InvalidComponents(f"{label}.toml: unknown family (families: {', '.join(FAMILIES)})")
        raw[label] = _toml(f"{label}.toml", body)
    return raw


def from_texts(name: str, texts: Mapping[str, str]) -> ComponentSet:
    return _from_raw(parse_texts(name, texts))


def _from_raw(raw: dict[str, Any]) -> ComponentSet:
    set_name = raw.get("name")
    if not isinstance(set_name, str) or not 0 < len(set_name) <= MAX_NAME or not set_name.isprintable():
        raise InvalidComponents(f"name: is the set's name, a text of 1..{MAX_NAME} printable characters, not {_shown(set_name)}")
    return _remember(check_set(set_name, {k: v for k, v in raw.items() if k != "name"}))


_SETS: dict[str, ComponentSet] = {}


def _remember(cset: ComponentSet) -> ComponentSet:
    # A memo by digest: equal content is the same set, so replays parse a set once per process.
    _SETS.setdefault(cset.digest, cset)
    return _SETS[cset.digest]


@functools.cache
def builtin(name: str = BUILTIN) -> ComponentSet:
    # The built-in sets ship inside the package (package data), read like a module is imported.
    if name not in BUILTINS:
        raise InvalidComponents(f"no built-in component set {name!r} (built in: {', '.join(BUILTINS)})")
    folder = DATA_DIR / name
    raw = _parsed(folder, name, {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.toml"))})
    cset = check_set(name, {k: v for k, v in raw.items() if k != "name"})
    # The built-in set is itself, by its own name, even when a file of equal content (written out
    # from it, under any name) was read first: such a file is then recorded as this set (``options_for``).
    _SETS[cset.digest] = cset
    return cset


def _parsed(folder: Path, name: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """``parse_texts(name, texts)``, kept beside the texts as Python keeps a module's bytecode (in
    ``__pycache__``, not written under PYTHONDONTWRITEBYTECODE), under the digest of the texts: a CLI
    call (one per move) then reads plain data, not TOML. Only the parsing is kept: the schema check
    (``check_set``) runs on every load, whatever was kept."""
    digest = hashlib.sha256()
    for label, body in sorted(texts.items()):
        digest.update(f"{len(label)}:{label}{len(body)}:{body}".encode("utf-8", "surrogatepass"))
    key = (name, digest.hexdigest())
    kept = folder / "__pycache__" / f"{name}.{sys.implementation.cache_tag}.marshal"
    try:
        kept_key, raw = marshal.loads(kept.read_bytes())
        if kept_key == key and isinstance(raw, dict):
            return raw
    except (OSError, ValueError, EOFError, TypeError):  # none kept yet, or unreadable: parsed again
        pass
    raw = parse_texts(name, texts)
    if not sys.dont_write_bytecode:
        try:
            kept.parent.mkdir(exist_ok=True)
            part = kept.with_name(f"{kept.name}.{os.getpid()}")
            part.write_bytes(marshal.dumps((key, raw)))
            part.replace(kept)  # whole or not at all, as another process may be reading it
        except (OSError, ValueError):  # a read-only install, or a value marshal does not keep
            pass
    return raw


def builtin_by_digest(digest: str) -> ComponentSet | None:
    for name in BUILTINS:
        if builtin(name).digest == digest:
            return builtin(name)
    return None


@functools.lru_cache(maxsize=64)
def from_canonical(name: str, canonical: str) -> ComponentSet:
    if len(canonical) > MAX_CONTENT:
        raise InvalidComponents(f"the recorded component data is {len(canonical):,} characters, over the bound of {MAX_CONTENT:,}")
    try:
        raw = json.loads(canonical)
    except (ValueError, RecursionError) as err:  # not JSON, too deep, a number over 4300 digits
        raise InvalidComponents(f"the recorded component data is not JSON: {json_reason(err)}") from None
    return _remember(check_set(name, raw))


def by_digest(digest: str) -> ComponentSet:
    if digest not in _SETS:
        known = builtin_by_digest(digest)
        if known is not None:
            return known
        raise InvalidComponents(f"component set {digest} is not loaded")
    return _SETS[digest]


def resolve(name: str, digest: str, data: str) -> ComponentSet:
    """The set a game's options name: the built-in set by name and digest, or the recorded content."""
    if data:
        cset = from_canonical(name, data)
    elif name in BUILTINS:
        cset = builtin(name)
    else:
        raise InvalidComponents(f"component set {name!r} is not built in and the game records no content for it")
    if digest and cset.digest != digest:
        raise InvalidComponents(
            f"the game was recorded with component set {name!r} digest {digest}; the data at hand has digest "
            f"{cset.digest} (the set changed since)"
        )
    return cset


def options_for(cset: ComponentSet) -> dict[str, str]:
    """The setup options that record a set: the built-in one by name and digest, others with content."""
    known = builtin_by_digest(cset.digest)
    if known is not None:
        return {"components": known.name, "components_digest": cset.digest, "components_data": ""}
    return {"components": cset.name, "components_digest": cset.digest, "components_data": cset.canonical}
