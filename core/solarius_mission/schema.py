"""The schema of a Solarius Mission component set: what each family holds and the bounds of every
number, list and text (the check, ``check.py``, reads them)."""

from __future__ import annotations

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
HUGE = 10**MAX_DIGITS
