"""The setup option waste_takes_free_moves (docs/rules/solar-solitaire.md): default no; headers
recorded before it existed are read under yes, so those games replay exactly as they were played."""

from __future__ import annotations

import json

from solrec.core.play import make_header
from solrec.events.record import decide_record

from ..conftest import FIXTURES
from .helpers import GAME

OPTION = "waste_takes_free_moves"


def test_the_waste_heap_takes_no_free_moves_by_default_and_the_header_says_so():
    assert make_header(GAME, None, {}, "seeded", 1).options_dict()[OPTION] == "no"


def test_an_old_record_without_the_option_is_read_under_yes():
    for path in sorted((FIXTURES / "solar-solitaire").glob("*.jsonl")):
        assert OPTION not in json.loads(path.read_text().splitlines()[0])["options"]
        header, _, state, _ = decide_record(path.read_text())
        assert header.options_dict()[OPTION] == "yes" and header.upcast == (OPTION,)
        assert state.waste_takes_free_moves
        assert OPTION not in header.recorded_options()  # the hash chain covers the header as recorded


def _game_moving_onto_the_waste_heap(cli) -> str:
    """A simulated game (under yes) with a free move onto the waste heap, exported as a record."""
    out = cli.json("simulate", "solar-solitaire", "--games", "30", "--seed", "4", "--option", f"{OPTION}=yes")
    for gid in out["ids"]:
        record = cli.run("export", gid, "--events").stdout
        if any(json.loads(line).get("command", "").endswith(" waste") for line in record.splitlines()[1:]):
            return record
    raise AssertionError("no simulated game moved a card onto the waste heap")


def _without_option(record: str) -> str:
    """The record as the old code wrote it: no option in the header. Its events stay (the import
    checks every command yields exactly them); its hashes go, as they were chained from the header."""
    lines = record.splitlines()
    head = json.loads(lines[0])
    del head["options"][OPTION]
    body = [json.dumps({k: v for k, v in json.loads(x).items() if k != "hashes"}) for x in lines[1:]]
    return "\n".join([json.dumps(head), *body]) + "\n"


def test_a_game_recorded_before_the_option_replays_identically_under_yes(cli, tmp_path):
    record = _game_moving_onto_the_waste_heap(cli)
    old = tmp_path / "old.jsonl"
    old.write_text(_without_option(record))
    # importing checks every command yields exactly the recorded events
    assert cli.json("import", str(old), "--id", "old")["id"] == "old"
    assert "old: valid" in cli.run("validate", "old").stdout
    assert cli.json("log", "old")["header"]["options"][OPTION] == "yes"
    assert cli.json("show", "old")["state"][OPTION] is True
    # exported again it still lacks the option, so its recorded hashes verify on a second import
    again = tmp_path / "again.jsonl"
    again.write_text(cli.run("export", "old", "--events").stdout)
    assert OPTION not in json.loads(again.read_text().splitlines()[0])["options"]
    assert cli.json("import", str(again), "--id", "again")["id"] == "again"


def test_the_same_moves_are_refused_under_no(cli, tmp_path):
    record = _game_moving_onto_the_waste_heap(cli)
    lines = record.splitlines()
    head = json.loads(lines[0])
    head["options"][OPTION] = "no"
    strict = tmp_path / "strict.jsonl"
    strict.write_text("\n".join([json.dumps(head), *(json.dumps({k: v for k, v in json.loads(x).items() if k in ("actor", "command")}) for x in lines[1:])]) + "\n")
    result = cli.run("import", str(strict), expect=2)
    assert "never onto it (waste_takes_free_moves=no)" in result.stderr
