"""The component set as data: one loader, one schema check, provenance for every datum."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from solrec.core.solarius_mission import components as comp

HOUSE = comp.DATA_DIR / comp.BUILTIN


def texts_of(folder: Path) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.toml"))}


def test_the_built_in_set_has_every_family_and_the_counts_of_the_text():
    s = comp.builtin()
    assert s.name == "house-2016"
    assert len(s.progress_cards) == 32 and len(s.station_cards) == 6 and len(s.outposts) == 6
    assert len(s.planets) == 36 and len(s.start_cards) == 4 and len(s.tiles) == 7
    assert sorted({p.colour for p in s.planets.values()}) == sorted(comp.COLOURS)


def test_every_datum_carries_its_source_stated_inferred_or_house():
    s = comp.builtin()
    kinds = {d.kind for d in s.data}
    assert kinds == {"stated", "inferred", "house"}
    counts = s.counts()
    assert sum(counts.values()) == len(s.data) and min(counts.values()) > 0


def test_no_house_card_pretends_to_be_official():
    s = comp.builtin()
    assert all(c.source.startswith("house:") for c in s.progress_cards.values())
    assert all(c.source.startswith("house:") for c in s.start_cards.values())


def test_the_house_cards_use_both_cost_notations_and_every_effect_kind():
    s = comp.builtin()
    costs = [t for c in s.progress_cards.values() for t in c.cost]
    assert any(t.total for t in costs) and any(len(t.cubes) > 1 for t in costs) and any(len(t.cubes) == 1 for t in costs)
    kinds = {e.kind for c in s.progress_cards.values() for e in (*c.immediate, *c.permanent)}
    kinds |= {e.kind for c in s.progress_cards.values() if c.die_space for e in c.die_space.effects}
    assert kinds == set(comp.EFFECT_FIELDS)
    assert any(c.die_space for c in s.progress_cards.values()) and any(not c.die_space for c in s.progress_cards.values())


def test_the_digest_is_of_the_content_not_of_the_name():
    renamed = comp.from_texts("another-name", texts_of(HOUSE))
    assert renamed.digest == comp.builtin().digest
    assert comp.options_for(comp.builtin())["components_data"] == ""


def refused(texts: dict[str, str]) -> str:
    with pytest.raises(comp.InvalidComponents) as err:
        comp.from_texts("bad", texts)
    return str(err.value)


def test_an_unknown_key_is_refused_with_its_path():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("[hand]\nlimit = 3", "[hand]\nlimit = 3\nlimt = 4")
    assert "mat.hand.limt: unknown key" in refused(texts)


def test_a_wrong_type_is_refused():
    texts = texts_of(HOUSE)
    texts["mat"] = texts["mat"].replace("limit = 3", 'limit = "three"')
    assert "mat.hand.limit: is a whole number, not 'three'" in refused(texts)


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
    as_json = comp.check_set("one-file", whole)
    assert as_json.digest == comp.builtin().digest


# -- the CLI ----------------------------------------------------------------------------------------------


def test_components_lists_data_with_provenance_and_counts(cli):
    out = cli.json("components", "solarius-mission")
    assert out["set"] == "house-2016" and set(out["counts"]) == {"stated", "inferred", "house"}
    text = cli.run("components", "solarius-mission").stdout
    assert "mat.tech.shift_costs = [1, 2, 3, 4]  [house:" in text
    assert text.strip().splitlines()[-1].endswith(f"({len(out['data'])} data)")


def changed_copy(tmp_path: Path, card: int = 5) -> Path:
    real = tmp_path / "real-glossary"
    shutil.copytree(HOUSE, real)
    path = real / "progress_cards.toml"
    body = path.read_text(encoding="utf-8")
    head, sep, tail = body.partition(f"[[card]]\nid = {card}\n")
    tail = tail.replace("vp = ", "vp = 1", 1)  # the mission's VP changes: 5 -> 15 for card 5
    path.write_text(head + sep + tail, encoding="utf-8")
    return real


def test_a_game_records_another_set_and_replays_with_it(cli, tmp_path):
    real = changed_copy(tmp_path)
    out = cli.json("new", "solarius-mission", "--components", str(real), "--seed", "5", "--id", "g")
    options = out["header"]["options"]
    assert options["components"] == "real-glossary" and options["components_data"]
    assert options["components_digest"] != comp.builtin().digest
    assert cli.json("validate", "g")["valid"] == 1
    listing = cli.json("components", "solarius-mission", "--set", str(real))
    assert listing["digest"] == options["components_digest"]


def test_a_bad_set_is_refused_with_exit_two_and_nothing_written(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("mat = 3\n", encoding="utf-8")
    result = cli.run("new", "solarius-mission", "--components", str(bad), expect=2)
    assert "mat: is a table" in result.stderr
    assert not cli.db.exists() or cli.json("validate", "--all", expect=2)


def test_validate_components_names_exactly_the_games_that_used_the_changed_card(cli, tmp_path):
    cli.json("simulate", "solarius-mission", "--games", "12", "--seed", "4", "-p", "A", "-p", "B")
    real = changed_copy(tmp_path)
    used = set()
    for gid in (f"solarius-mission-{i}" for i in range(1, 13)):
        if any(e["command"] == "play 5 mission" for e in cli.json("log", gid)["events"]):
            used.add(gid)
    assert used, "the seed should play card 5 as a mission in some game"
    result = cli.run("validate", "--all", "--components", str(real), "--json", expect=1 if used else 0)
    report = json.loads(result.stdout)
    changed = {g["id"]: g for g in report["games"] if g["changed"]}
    assert set(changed) == used
    for g in changed.values():
        assert "'play 5 mission' now yields" in g["reason"] and "15 VP" in g["reason"]


def test_a_game_of_a_changed_built_in_set_refuses_to_set_up_with_a_reason():
    with pytest.raises(comp.InvalidComponents, match="recorded with component set 'house-2016' digest 0000"):
        comp.resolve(comp.BUILTIN, "0000000000000000", "")


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
