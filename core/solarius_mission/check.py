"""The one schema check of a Solarius Mission component set: a parsed set (plain data) to a
``ComponentSet``, or one line per bad field; the canonical JSON and its digest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from ..words import quoted
from .components import (
    COLOURS,
    FAMILIES,
    ROMAN,
    SOURCE_KINDS,
    ComponentSet,
    CostTerm,
    Datum,
    DieSpace,
    Effect,
    InvalidComponents,
    Outpost,
    Planet,
    ProgressCard,
    StartCard,
    StationCard,
    Tile,
)
from .schema import (
    EFFECT_FIELDS,
    EFFECT_RANGES,
    HUGE,
    ID_RANGE,
    INNER,
    LENGTHS,
    MAX_CONTENT,
    MAX_COST_TERMS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_EFFECTS,
    MAX_NAME,
    MAX_NODES,
    MAX_START_PROGRESS,
    MAX_TEXT,
    NUMBERS,
    PRECONDITION_RANGES,
    PRECONDITIONS,
    RANGES,
    RECORDS,
    SPANS,
    TILE_RANGE,
    VP_PER,
    VP_RANGE,
)


def shown_value(value: Any) -> str:
    """A value as a reason quotes it: short (a huge number by its digits, a long text or list cut)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        if abs(value) >= HUGE:  # str() would refuse it (Python's bound for whole numbers as text)
            return f"a number of more than {MAX_DIGITS} digits"
        return f"a number of {len(str(abs(value)))} digits"
    text = quoted(value) if isinstance(value, str | int | float | bool) else f"a {type(value).__name__}"
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
            self.bad(path, f"is {lo}..{hi}, not {shown_value(value)}" if lo < hi else f"is {lo}, not {shown_value(value)}")
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
            self.bad(path, f"starts with stated:, inferred: or house: and gives a reason, not {quoted(value[:40])}")
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
            self.bad(path, f"is {what}, not {shown_value(value)}")
        return good

    def effect(self, path: str, raw: Any) -> Effect | None:
        if not isinstance(raw, dict):
            self.bad(path, f"an effect is a table with 'effect', not {shown_value(raw)}")
            return None
        kind = raw.get("effect")
        if not isinstance(kind, str) or kind not in EFFECT_FIELDS:
            self.bad(f"{path}.effect", f"{shown_value(kind)} is outside the effect vocabulary ({', '.join(EFFECT_FIELDS)})")
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
            check.bad(where, f"a cost term starts with a colour and is written '5', '2 II' or 'III', not {shown_value(term)}")
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
            check.bad(where, f"a cost is written '5' (a total value 1..30), '2 II' (1..6 cubes of a value) or 'III', not {shown_value(term)}")
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
            check.bad(path, f"id {quoted(i)} appears twice")
        seen.add(i)


def tree_bounds(raw: Any) -> None:
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
            raise InvalidComponents(f"a text of the set {what} (at most {MAX_TEXT} printable characters): {shown_value(node)}")


def check_set(name: str, raw: Mapping[str, Any]) -> ComponentSet:
    """The schema check: the plain data of a set becomes the frozen model, or InvalidComponents."""
    check = _Check()
    if not isinstance(raw, Mapping):
        raise InvalidComponents("a component set is a table of families")
    tree_bounds(dict(raw))
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
                check.bad("dice.action_dice.faces", f"a face is a number 1-6, * or *+1, not {shown_value(f)}")
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
            check.bad(f"{path}.symbol", f"is colony, station or mission, not {shown_value(r['symbol'])}")
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
            check.bad(f"{path}.precondition.kind", f"{shown_value(kind)} is not a precondition ({', '.join(PRECONDITIONS)})")
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
        raise InvalidComponents(f"component set {quoted(name)} is refused:\n" + "\n".join(shown) + more)
    canon = canonical_json(raw)
    stored = len(json.dumps(canon))  # as the game's options hold it (JSON-escaped)
    if stored > MAX_CONTENT:
        raise InvalidComponents(f"component set {quoted(name)} is {stored:,} characters as a game records it, over the bound of "
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
            check.bad(f"{path}[{i}]", f"is one of {', '.join(LAYOUT_KINDS)}, not {shown_value(word)}")
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
