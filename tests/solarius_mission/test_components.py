"""The component set as data: one loader, one schema check, provenance for every datum."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from solrec.core.solarius_mission import check, loading, schema
from solrec.core.solarius_mission import components as comp

HOUSE = comp.DATA_DIR / comp.BUILTIN


def texts_of(folder: Path) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.toml"))}


def test_the_built_in_set_has_every_family_and_the_counts_of_the_text():
    s = loading.builtin()
    assert s.name == "house-2016b"
    assert len(s.progress_cards) == 32 and len(s.station_cards) == 6 and len(s.outposts) == 6
    assert len(s.planets) == 36 and len(s.start_cards) == 4 and len(s.tiles) == 7
    assert sorted({p.colour for p in s.planets.values()}) == sorted(comp.COLOURS)


def test_every_datum_carries_its_source_stated_inferred_or_house():
    s = loading.builtin()
    kinds = {d.kind for d in s.data}
    assert kinds == {"stated", "inferred", "house"}
    counts = s.counts()
    assert sum(counts.values()) == len(s.data) and min(counts.values()) > 0


def test_no_house_card_pretends_to_be_official():
    s = loading.builtin()
    assert all(c.source.startswith("house:") for c in s.progress_cards.values())
    assert all(c.source.startswith("house:") for c in s.start_cards.values())


def test_the_house_cards_use_both_cost_notations_and_every_effect_kind():
    s = loading.builtin()
    costs = [t for c in s.progress_cards.values() for t in c.cost]
    assert any(t.total for t in costs) and any(len(t.cubes) > 1 for t in costs) and any(len(t.cubes) == 1 for t in costs)
    kinds = {e.kind for c in s.progress_cards.values() for e in (*c.immediate, *c.permanent)}
    kinds |= {e.kind for c in s.progress_cards.values() if c.die_space for e in c.die_space.effects}
    assert kinds == set(schema.EFFECT_FIELDS)
    assert any(c.die_space for c in s.progress_cards.values()) and any(not c.die_space for c in s.progress_cards.values())


def test_the_digest_is_of_the_content_not_of_the_name():
    renamed = loading.from_texts("another-name", texts_of(HOUSE))
    assert renamed.digest == loading.builtin().digest
    assert loading.options_for(loading.builtin())["components_data"] == ""


# A game of the built-in set records only its name and digest (not its content), so the data under
# that name must never change: docs/rules/solarius-mission.md, "Built-in sets never change".
# house-2016 (part 1, no map) and house-2016b (house-2016 plus the tiles' hex layout, part 2).
PINNED = {"house-2016": "a48068fe6f45209a", "house-2016b": "bf84d9107590e30b"}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_built_in_set_never_changes_under_its_name(name):
    assert loading.builtin(name).name == name
    assert loading.builtin(name).digest == PINNED[name], (
        f"the data of the built-in component set {name!r} changed (digest {loading.builtin(name).digest}, pinned "
        f"{PINNED[name]}). Recorded games store only the built-in set's name and digest, so every game of "
        f"{name} would refuse to replay. Changing built-in data means a new set name: restore "
        f"data/{name}, put the changed data in a new folder under a new name, make that "
        "the default for new games, and pin its digest here (docs/rules/solarius-mission.md, 'Built-in sets "
        "never change')."
    )


def test_new_games_default_to_the_set_with_the_map():
    assert comp.BUILTIN == "house-2016b" and loading.builtin().has_map
    assert not loading.builtin("house-2016").has_map


@pytest.mark.parametrize("name", sorted(PINNED))
def test_a_recorded_game_of_the_built_in_set_stores_its_name_and_digest_not_its_content(name):
    assert loading.options_for(loading.builtin(name)) == {
        "components": name, "components_digest": PINNED[name], "components_data": "",
    }


def refused(texts: dict[str, str]) -> str:
    with pytest.raises(comp.InvalidComponents) as err:
        loading.from_texts("bad", texts)
    return str(err.value)


def test_an_unknown_key_is_refused_with_its_path():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("[hand]\nlimit = 3", "[hand]\nlimit = 3\nlimt = 4")
    assert "mat.hand.limt: unknown key" in refused(texts)


def test_a_wrong_type_is_refused():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("limit = 3", 'limit = "three"')
    assert 'mat.hand.limit: is a whole number, not "three"' in refused(texts)


def test_a_missing_datum_is_refused():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("fuel_start = 2\n", "")
    assert "mat.track.fuel_start: missing" in refused(texts)
    del texts["planets"]
    assert "planets: family missing" in refused(texts)


def test_an_effect_outside_the_vocabulary_is_refused():
    texts = texts_of(HOUSE)
    texts["progress_cards"] = texts["progress_cards"].replace('effect = "fuel", amount = 3', 'effect = "teleport", amount = 3', 1)
    assert "is outside the effect vocabulary" in refused(texts)


def test_each_bad_field_is_one_line():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("limit = 3", 'limit = "x"').replace("markers = 6", "markers = 6.5")
    lines = refused(texts).splitlines()
    assert len(lines) == 3 and lines[1].startswith("mat.hand.limit") and lines[2].startswith("mat.missions.markers")


def test_a_source_must_say_stated_inferred_or_house():
    texts = texts_of(HOUSE)
    texts["bridge"] = texts["bridge"].replace('[bonus]\nsplit_from = 2\nsource = "stated:', '[bonus]\nsplit_from = 2\nsource = "official:')
    assert "bridge.bonus.source: starts with stated:, inferred: or house:" in refused(texts)


def test_one_file_holds_a_whole_set_as_tables():
    import tomllib

    whole = {fam: tomllib.loads(text) for fam, text in texts_of(HOUSE).items()}
    as_json = check.check_set("one-file", whole)
    assert as_json.digest == loading.builtin().digest


# -- the CLI ----------------------------------------------------------------------------------------------


def test_components_lists_data_with_provenance_and_counts(cli):
    out = cli.json("components", "solarius-mission")
    assert out["set"] == "house-2016b" and set(out["counts"]) == {"stated", "inferred", "house"}
    assert cli.json("components", "solarius-mission", "--set", "house-2016")["set"] == "house-2016"
    text = cli.run("components", "solarius-mission").stdout
    assert "mat.tech.shift_costs = [1, 2, 3, 4]  [house:" in text
    assert text.strip().splitlines()[-1].endswith(f"({len(out['data'])} data)")


def changed_copy(tmp_path: Path, card: int = 5, field: str = "vp") -> Path:
    """A copy of house-2016 with one datum of one card changed: its mission's VP (5 -> 15 for card 5)
    or its mission's cost (the first term's count one higher: 'black 2 II' -> 'black 3 II')."""
    real = tmp_path / "real-glossary"
    shutil.copytree(HOUSE, real)
    path = real / "progress_cards.toml"
    body = path.read_text(encoding="utf-8")
    head, sep, tail = body.partition(f"[[card]]\nid = {card}\n")
    if field == "vp":
        tail = tail.replace("vp = ", "vp = 1", 1)
    else:
        before, cost, after = tail.partition('cost = ["')
        colour, count, rest = after.split(" ", 2)
        tail = before + cost + f"{colour} {int(count) + 1} {rest}"
    path.write_text(head + sep + tail, encoding="utf-8")
    return real


def test_a_game_records_another_set_and_replays_with_it(cli, tmp_path):
    real = changed_copy(tmp_path)
    out = cli.json("new", "solarius-mission", "--components", str(real), "--seed", "5", "--id", "g")
    options = out["header"]["options"]
    assert options["components"] == "real-glossary" and options["components_data"]
    assert options["components_digest"] != loading.builtin().digest
    assert cli.json("validate", "g")["valid"] == 1
    listing = cli.json("components", "solarius-mission", "--set", str(real))
    assert listing["digest"] == options["components_digest"]


def test_a_bad_set_is_refused_with_exit_two_and_nothing_written(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("mat = 3\n", encoding="utf-8")
    result = cli.run("new", "solarius-mission", "--components", str(bad), expect=2)
    assert "mat: is a table" in result.stderr
    assert not cli.db.exists() or cli.json("validate", "--all", expect=2)


def plays(cli, gid: str, command: str) -> list[int]:
    """The positions (``log``'s POS) the events of each recorded ``command`` in game ``gid`` lead to."""
    return [e["position"] for e in cli.json("log", gid)["events"] if e["command"] == command]


def changed_games(cli, tmp_path: Path, field: str) -> tuple[dict, set, set]:
    cli.json("simulate", "solarius-mission", "--games", "12", "--seed", "4", "-p", "A", "-p", "B")
    real = changed_copy(tmp_path, 5, field)
    games = [f"solarius-mission-{i}" for i in range(1, 13)]
    as_mission = {g for g in games if plays(cli, g, "play 5 mission")}
    as_development = {g for g in games if plays(cli, g, "play 5 development")} - as_mission
    assert as_mission, "the seed should play card 5 as a mission in some game"
    result = cli.run("validate", "--all", "--components", str(real), "--json", expect=1)
    report = json.loads(result.stdout)
    return {g["id"]: g for g in report["games"] if g["changed"]}, as_mission, as_development


def test_validate_components_names_exactly_the_games_that_used_the_changed_card(cli, tmp_path):
    changed, used, _ = changed_games(cli, tmp_path, "vp")
    assert set(changed) == used
    for g in changed.values():
        assert ": play 5 mission) now yields" in g["reason"] and "15 VP" in g["reason"]


def test_validate_components_with_a_changed_cost_names_the_games_and_the_first_command_that_played_it(cli, tmp_path):
    # 003 9.2 B II.3: "To complete a mission, the player must pay the resources listed on the mission
    # card" (in space, part 2), so in part 1 the cost decides nothing; the played side is recorded as
    # printed (CardPlayed.text), so the log of every game that played card 5 as a mission changes at
    # that command, and no other game's does: 9.2 B I.3 "only the selected function should be visible".
    changed, as_mission, as_development = changed_games(cli, tmp_path, "cost")
    assert as_development, "the seed should also play card 5 as a development in some game"
    assert set(changed) == as_mission and not set(changed) & as_development
    for gid, g in changed.items():
        assert g["position"] == plays(cli, gid, "play 5 mission")[0]
        assert ": play 5 mission) now yields" in g["reason"]
        assert "black 3 II + yellow 2 for 5 VP" in g["reason"] and "black 2 II + yellow 2 for 5 VP" in g["reason"]


def test_a_game_of_a_changed_built_in_set_refuses_to_set_up_with_a_reason():
    with pytest.raises(comp.InvalidComponents, match='recorded with component set "house-2016b" digest 0000'):
        loading.resolve(comp.BUILTIN, "0000000000000000", "")


def test_the_set_travels_with_the_exported_game(cli, tmp_path):
    real = changed_copy(tmp_path)
    cli.run("new", "solarius-mission", "--components", str(real), "--seed", "5", "--id", "g")
    record = cli.run("export", "g", "--reveal").stdout  # a running seeded game: its record holds the hidden deck
    header = json.loads(record.splitlines()[0])
    assert header["options"]["components"] == "real-glossary" and header["options"]["components_data"]
    path = tmp_path / "g.jsonl"
    path.write_text(record, encoding="utf-8")
    from ..conftest import Cli

    other = Cli(tmp_path / "other.db")
    other.run("import", str(path), "--id", "h")
    assert other.json("validate", "h")["valid"] == 1


# -- the tiles' layout (part 2) ----------------------------------------------------------------------------


def tiles_changed(old: str, new: str, count: int = 1) -> dict[str, str]:
    texts = texts_of(comp.DATA_DIR / "house-2016b")
    assert old in texts["tiles"]
    texts["tiles"] = texts["tiles"].replace(old, new, count)
    return texts


@pytest.mark.parametrize(
    "old, new, reason",
    [
        ('"hub", "planet", "empty", "portal"', '"hub", "empty", "empty", "portal"',
         "holds 2 planet spaces marked unmarked, but planet_spaces.unmarked says 3"),
        ('"hub", "planet", "empty", "portal"', '"hub", "planet", "empty", "wormhole"', "is one of home, planet"),
        ('"hub", "planet", "empty", "portal", ', '"hub", "planet", "empty", ', "lists the 19 hexes of a tile"),
        ('"home", "empty"', '"empty", "home"', "the home planet is the centre's middle hex"),
        ('"hub", "planet", "empty", "portal"', '"hub", "planet", "empty", "empty"', "holds 1 portal hexes, but portals says 2"),
        ("planets_removed_per_colour = [0, 0, 4, 2, 1]", "planets_removed_per_colour = [0, 0, 4, 2, 2]",
         "with 4 players 32 planet spaces are in use but 28 planets are in play"),
        ("[setup]\nplanets_removed_per_colour = [0, 0, 4, 2, 1]\n", "[setup]\n", "tiles.setup.planets_removed_per_colour: missing"),
    ],
)
def test_a_tile_layout_that_contradicts_the_counts_is_refused(old, new, reason):
    with pytest.raises(comp.InvalidComponents, match=reason.replace("(", r"\(").replace(")", r"\)")):
        loading.from_texts("bad", tiles_changed(old, new))


def test_a_set_without_a_layout_has_no_map_and_its_games_are_played_without_flight():
    # house-2016 (recorded by part 1) lists the tiles' counts only
    assert not loading.builtin("house-2016").has_map
    assert all(t.hexes == () for t in loading.builtin("house-2016").tiles)


def test_every_hex_of_the_layout_has_its_provenance():
    data = {d.path: d for d in loading.builtin().data}
    assert data["tiles.tile[1].hexes"].kind == "house" and data["tiles.tile[1].portals"].kind == "house"
    assert data["tiles.tile[1].planet_spaces"].kind == "inferred"
    assert data["tiles.setup.planets_removed_per_colour"].kind == "stated"


def test_the_default_set_s_written_digest_is_its_digest():
    """The game's default option names the default set by a digest written in the code (so that
    importing the game reads no TOML): it is the digest that set has."""
    assert comp.BUILTIN_DIGEST == loading.builtin(comp.BUILTIN).digest == PINNED[comp.BUILTIN]


# -- the parsed built-in set, kept beside its texts as a module's bytecode is (start-up, issue 22) --


@pytest.fixture
def kept_folder(tmp_path, monkeypatch):
    """A copy of the built-in set's folder, in a process that writes bytecode caches."""
    folder = tmp_path / comp.BUILTIN
    shutil.copytree(HOUSE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    return folder


def kept_files(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "__pycache__").glob("*")) if (folder / "__pycache__").exists() else []


def test_a_parse_kept_is_read_back_as_the_same_set(kept_folder):
    texts = texts_of(kept_folder)
    first = loading._parsed(kept_folder, comp.BUILTIN, texts)
    assert len(kept_files(kept_folder)) == 1
    again = loading._parsed(kept_folder, comp.BUILTIN, texts)
    assert again == first == loading.parse_texts(comp.BUILTIN, texts) and again is not first
    assert loading._from_raw(again).digest == loading.builtin().digest == comp.BUILTIN_DIGEST


def test_a_parse_kept_for_other_texts_is_not_used(kept_folder):
    texts = texts_of(kept_folder)
    loading._parsed(kept_folder, comp.BUILTIN, texts)
    changed = {**texts, "mat": texts["mat"].replace("fuel_start = ", "fuel_start = 1", 1)}
    assert loading._parsed(kept_folder, comp.BUILTIN, changed) == loading.parse_texts(comp.BUILTIN, changed) != loading.parse_texts(comp.BUILTIN, texts)


def test_a_damaged_parse_kept_is_parsed_again(kept_folder):
    texts = texts_of(kept_folder)
    loading._parsed(kept_folder, comp.BUILTIN, texts)
    (kept,) = (kept_folder / "__pycache__").glob("*")
    kept.write_bytes(b"\x00 not marshal")
    assert loading._parsed(kept_folder, comp.BUILTIN, texts) == loading.parse_texts(comp.BUILTIN, texts)


def test_nothing_is_kept_where_bytecode_is_not_written(kept_folder, monkeypatch):
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    loading._parsed(kept_folder, comp.BUILTIN, texts_of(kept_folder))
    assert kept_files(kept_folder) == []


def test_the_schema_check_runs_on_a_kept_parse_too(kept_folder):
    texts = texts_of(kept_folder)
    loading._parsed(kept_folder, comp.BUILTIN, texts)
    (kept,) = (kept_folder / "__pycache__").glob("*")
    import marshal

    key, raw = marshal.loads(kept.read_bytes())
    raw["mat"]["track"]["fuel_start"] = "many"
    kept.write_bytes(marshal.dumps((key, raw)))
    with pytest.raises(comp.InvalidComponents, match="fuel_start"):
        loading._from_raw(loading._parsed(kept_folder, comp.BUILTIN, texts))
