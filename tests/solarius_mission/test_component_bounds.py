"""A component set the schema accepts, the engine can play (issue 21): every number, list and text
has its bounds (docs/rules/solarius-mission.md, "Bounds of a component set"); what is outside them
is refused by `new` in one line, exit 2, with nothing written, and what is inside is played."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from solrec.core.solarius_mission import components as comp
from solrec.core.solarius_mission import loading, schema
from solrec.events.store import MAX_TEXT

HOUSE = comp.DATA_DIR / comp.BUILTIN


def changed(tmp_path: Path, family: str, old: str, new: str) -> Path:
    """A copy of the built-in set's folder with one text of one family's file replaced."""
    folder = tmp_path / "glossary"
    if not folder.exists():
        shutil.copytree(HOUSE, folder)
    path = folder / f"{family}.toml"
    body = path.read_text(encoding="utf-8")
    assert old in body, old
    path.write_text(body.replace(old, new, 1), encoding="utf-8")
    return folder


def refused_by_new(cli, folder: Path) -> str:
    """`new` refuses the set: exit 2, one line, no database written. Returns the line."""
    result = cli.run("new", "solarius-mission", "--components", str(folder), "--seed", "1", expect=2)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and result.stdout == ""
    assert not cli.db.exists()
    return lines[0]


# -- one datum out of its bounds: (failure class, family, the built-in text, the changed text, the reason) ----------

OUT_OF_BOUNDS = [
    # a list or an inline table where an id, an effect or a precondition kind belongs (was exit 3, TypeError)
    ("id-a-list", "progress_cards", "[[card]]\nid = 1\n", "[[card]]\nid = [1]\n", "progress_cards.card[0].id: is a whole number"),
    ("id-a-table", "progress_cards", "[[card]]\nid = 1\n", "[[card]]\nid = {a = 1}\n", "progress_cards.card[0].id: is a whole number"),
    ("effect-a-list", "progress_cards", 'effect = "resources", colour = "black"', 'effect = [], colour = "black"',
     "is outside the effect vocabulary"),
    ("effect-a-table", "progress_cards", 'effect = "resources", colour = "black"', 'effect = {x = 1}, colour = "black"',
     "is outside the effect vocabulary"),
    ("precondition-kind-a-list", "planets", 'precondition = {kind = "pay_fuel", amount = 2}',
     'precondition = {kind = ["pay_fuel"], amount = 2}', "planets.planet[0].precondition.kind: a list is not a precondition"),
    # a list the engine indexes, empty (was exit 3, IndexError)
    ("empty-unsettled-penalty", "mat", "unsettled_penalty = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]",
     "unsettled_penalty = []", "mat.planets.unsettled_penalty: holds 1..40 values, not 0"),
    # a divisor of 0: accepted, then `legal` exited 3 (ZeroDivisionError)
    ("divisor-value-per-unit", "mat", "value_per_unit = 2", "value_per_unit = 0", "mat.exchange.value_per_unit: is 1..6, not 0"),
    ("divisor-fuel-per-range", "mat", "fuel_per_range = 2", "fuel_per_range = 0", "mat.exchange.fuel_per_range: is 1..6, not 0"),
    ("divisor-bucks-per-action-point", "mat", "bucks_per_action_point = 2", "bucks_per_action_point = 0",
     "mat.exchange.bucks_per_action_point: is 1..6, not 0"),
    ("divisor-drive-price", "mat", "\nprice = 3", "\nprice = 0", "mat.drives.price: is 1..10, not 0"),
    # a count drawn space by space or turn by turn: accepted, then `svg` ran past 60 s
    ("huge-track", "mat", "maximum = 10", "maximum = 1000000000000000000", "mat.track.maximum: is 1..20, not a number of 19 digits"),
    ("huge-contamination-spaces", "mat", "spaces = 3", "spaces = 1000000000000000000", "mat.contamination.spaces: is 0..10"),
    ("huge-common-slots", "mat", "common_slots = 3", "common_slots = 1000000", "mat.drives.common_slots: is 0..6, not 1000000"),
    ("huge-game-turns", "dice", "game_turns = 4", "game_turns = 1000000", "dice.hubs.game_turns: is 1..6, not 1000000"),
    ("more-turns-than-hubs", "dice", "game_turns = 4", "game_turns = 5",
     "dice.hubs.game_turns: with 2 hub marker(s) removed, 6 letters reveal a hub for at most 4"),
    # a start beyond the track: accepted, two plays, then `legal` exited 1
    ("fuel-start-huge", "mat", "fuel_start = 2", "fuel_start = 1000000000000000000", "mat.track.fuel_start: is 0..20, not a number of 19 digits"),
    ("bucks-start-beyond-maximum", "mat", "bucks_start = 2", "bucks_start = 11", "mat.track.bucks_start: is at most mat.track.maximum"),
    # found by the fuzz: sets the check accepted that the random player could not finish
    # (it exchanges at the stated 2:1, 5.0)
    ("units-per-resource", "mat", "units_per_resource = 2", "units_per_resource = 4", "mat.exchange.units_per_resource: is 2, not 4"),
    # (a space costing 2 could be afforded from fuel and SpaceBucks together but is paid from one alone)
    ("wheel-value-below-minus-one", "bridge", "values = [-1, 0, 1, 2, 3]", "values = [-2, 0, 1, 2, 3]",
     "bridge.wheel.values[0]: is -1..6, not -2"),
    ("wheel-values-twice", "bridge", "values = [-1, 0, 1, 2, 3]", "values = [-1, 0, 1, 1, 3]", "bridge.wheel.values: are different"),
    # (the start cards deal their resources from the pool before anyone plays)
    ("pool-below-the-start", "mat", "resource_pool = 70", "resource_pool = 6",
     "mat.storage.resource_pool: holds the 16 resources the start cards deal"),
    ("card-on-two-start-cards", "start_cards", "progress = [3, 4]", "progress = [1, 4]", "progress card 1 is named twice"),
]


@pytest.mark.parametrize("family, old, new, reason", [pytest.param(*case[1:], id=case[0]) for case in OUT_OF_BOUNDS])
def test_a_datum_out_of_its_bounds_is_refused_in_one_line_with_nothing_written(cli, tmp_path, family, old, new, reason):
    assert reason in refused_by_new(cli, changed(tmp_path, family, old, new))


# -- input too large to parse ------------------------------------------------------------------------


def test_a_number_over_4300_digits_is_refused_as_not_valid_toml(cli, tmp_path):
    line = refused_by_new(cli, changed(tmp_path, "mat", "limit = 3", "limit = 3" + "0" * 5000))
    assert "mat.toml is not valid TOML" in line


def test_a_deep_dotted_key_is_refused_before_it_is_parsed(cli, tmp_path):
    deep = "a" + ".a" * 40_000 + " = 1\n"
    line = refused_by_new(cli, changed(tmp_path, "mat", "[track]\n", deep + "[track]\n"))
    assert f"mat.toml nests tables, arrays or dotted keys more than {schema.MAX_DEPTH} deep" in line


def test_deeply_nested_arrays_are_refused_before_they_are_parsed(cli, tmp_path):
    line = refused_by_new(cli, changed(tmp_path, "mat", "limit = 3", "limit = " + "[" * 3000 + "]" * 3000))
    assert "more than 12 deep" in line


def test_brackets_and_dots_inside_texts_do_not_count_as_nesting():
    assert loading._nesting('source = "a.b.c.d.e.f.g.h.i.j.k.l.m.n [[[[[[[[[[[[[[" # {{{{{{{{{{{{{{{ x.y.z.w.v.u.t.s.r.q.p.o\n') == 1


def test_a_set_larger_than_its_bound_is_refused_before_it_is_parsed(cli, tmp_path):
    folder = changed(tmp_path, "mat", "[track]\n", "# " + "x" * (schema.MAX_BYTES + 1) + "\n[track]\n")
    assert f"a component set is at most {schema.MAX_BYTES // 1024} KiB of TOML" in refused_by_new(cli, folder)


def test_a_file_over_the_reading_bound_or_not_a_regular_file_is_refused_unread(cli, tmp_path):
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # sparse: 50 MB that are never read
    assert "a component set is at most 1024 KiB" in refused_by_new(cli, big)
    assert "/dev/zero is not a regular file" in refused_by_new(cli, Path("/dev/zero"))


# -- a huge count the setup deals --------------------------------------------------------------------------


def test_a_huge_number_of_start_resources_is_refused_by_new_and_by_validate(cli, tmp_path):
    folder = changed(tmp_path, "start_cards", "resources_each = 2", "resources_each = 1000000000")
    assert "start_cards.rules.resources_each: is 0..5, not 1000000000" in refused_by_new(cli, folder)
    cli.run("new", "solarius-mission", "--seed", "1", "--id", "g")
    result = cli.run("validate", "--components", str(folder), "g", expect=2)
    assert len(result.stderr.strip().splitlines()) == 1 and "resources_each: is 0..5" in result.stderr


# -- texts -----------------------------------------------------------------------------------------------------


def test_a_source_text_of_70000_characters_is_refused_and_no_game_is_written(cli, tmp_path):
    folder = changed(tmp_path, "bridge", 'source = "stated: 9.2 A', 'source = "stated: ' + "w" * 70_000 + " 9.2 A")
    line = refused_by_new(cli, folder)
    assert re.search(rf"a text of the set is 70\d\d\d characters long \(at most {schema.MAX_TEXT} printable characters\)", line)


def test_a_control_character_in_a_text_is_refused(cli, tmp_path):
    folder = changed(tmp_path, "bridge", 'source = "stated: 9.2 A', 'source = "stated: \\u202e 9.2 A')
    assert "holds a control character" in refused_by_new(cli, folder)


def test_the_content_a_game_records_fits_in_the_store_s_options():
    # the options text holds the content JSON-escaped, and the other options beside it
    assert schema.MAX_CONTENT + 1024 <= MAX_TEXT
    assert len(json.dumps(loading.builtin().canonical)) < schema.MAX_CONTENT


def test_recorded_content_out_of_bounds_is_refused_not_a_crash():
    with pytest.raises(comp.InvalidComponents, match="not JSON"):
        loading.from_canonical("x", '{"a": ' + "1" * 5000 + "}")
    with pytest.raises(comp.InvalidComponents, match="not JSON|nests at most"):
        loading.from_canonical("x", "[" * 5000 + "]" * 5000)
    with pytest.raises(comp.InvalidComponents, match="over the bound"):
        loading.from_canonical("x", '"' + "x" * (schema.MAX_CONTENT + 1) + '"')


# -- every bound is stated, and the largest set within them is played ----------------------------------------


def test_every_number_of_the_numeric_families_has_its_range():
    numeric = {f"{fam}.{table}.{k}" for fam, tables in schema.NUMBERS.items() for table, fields in tables.items()
               for k, kind in fields.items() if kind != "strs"}
    assert numeric | {"start_cards.rules.resources_each", "tiles.setup.planets_removed_per_colour"} == set(schema.RANGES)


def test_the_set_at_its_upper_bounds_sets_up_and_renders(cli, tmp_path):
    edits = {
        "mat": [("maximum = 10", "maximum = 20"), ("fuel_start = 2", "fuel_start = 20"), ("\nspaces = 3", "\nspaces = 10"),
                ("common_slots = 3", "common_slots = 6"), ("limit = 3", "limit = 10"),
                ("contamination_spaces = [2, 2, 2, 2]", "contamination_spaces = [5, 5, 5, 5]")],
        "start_cards": [("resources_each = 2", "resources_each = 5")],
    }
    for family, pairs in edits.items():
        for old, new in pairs:
            folder = changed(tmp_path, family, old, new)
    cli.run("new", "solarius-mission", "--components", str(folder), "--seed", "3", "--id", "g")
    for reader in ("legal", "svg", "show"):
        cli.run(reader, "g")
    assert cli.json("validate", "g")["valid"] == 1


def test_an_unclosed_string_is_read_in_one_pass_not_backtracked():
    # a regular expression over strings backtracked for 270 s on this 120 KB text
    assert loading._nesting('x = """' + 'a"' * 60_000) == 1
