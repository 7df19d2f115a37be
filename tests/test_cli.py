"""The solrec CLI through Typer's CliRunner: every command, --json, and every exit code."""

from __future__ import annotations

import json
import sqlite3

from solrec.cli.main import app

from .conftest import FIXTURES

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"


def test_games_lists_solo_dice(cli):
    data = cli.json("games")
    assert "solo-dice" in {g["id"] for g in data}
    assert "solo-dice" in cli.run("games").stdout


def test_new_seeded_game_rolls_by_itself(cli):
    data = cli.json("new", "solo-dice", "--player", "Ann", "--seed", "7", "--id", "g")
    assert data["id"] == "g" and data["to_act"] == "Ann"
    assert data["steps"] == [{"actor": "chance", "command": "roll 5 1 1 5 3", "events": ["rolled 5 1 1 5 3"]}]
    assert data["header"]["seed"] == 7


def test_new_without_seed_records_a_random_seed(cli):
    data = cli.json("new", "solo-dice")
    assert isinstance(data["header"]["seed"], int) and data["id"] == "solo-dice-1"


def test_play_an_entered_game_chance_included(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    data = cli.json("play", "g", "roll", "6", "1", "5", "5", "5")
    assert data["to_act"] == "Ann"
    data = cli.json("play", "g", "6+1 5+5 5")
    assert data["scores"] == {"Ann": -400} and data["to_act"] == "chance"


def test_play_several_commands_separated_by_semicolons(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    data = cli.json("play", "g", "roll 6 1 5 5 5; 6+1 5+5 5; roll 5 5 6 4 3")
    assert data["position"] == 3


def test_play_refuses_an_illegal_command_with_exit_2_and_appends_nothing(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    result = cli.run("play", "g", "roll 6 1 5 5 5; 6+1 5+5 4", expect=2)
    assert result.stderr.startswith("solrec: the two pairs and the leftover must be exactly")
    assert "Traceback" not in result.output
    assert cli.json("show", "g")["position"] == 0


def test_play_refuses_bad_notation_with_exit_2(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    result = cli.run("play", "g", "six and one", expect=2)
    assert "is not Solo Dice notation" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_play_with_actor_refuses_the_wrong_actor(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    result = cli.run("play", "g", "5+5 1+1 3", "--actor", "Bob", expect=2)
    assert "Ann is to act, not Bob" in result.stderr


def test_play_after_the_end_is_refused(cli):
    cli.run("import", str(WORKED), "--id", "we")
    assert "the game is over" in cli.run("play", "we", "roll 1 2 3 4 5", expect=2).stderr


def test_legal_lists_every_selection(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    data = cli.json("legal", "g")
    assert data["to_act"] == "Ann" and "5+5 1+1 3" in data["commands"]
    assert "6 legal" in cli.run("legal", "g").stdout


def test_legal_for_chance_says_it_is_not_enumerable(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    data = cli.json("legal", "g")
    assert data == {"id": "g", "position": 0, "to_act": "chance", "enumerable": False, "commands": None,
                    "chance_forms": ["roll A B C D E: the five dice as rolled, each 1-6; e.g. roll 3 1 6 2 5"]}


def test_show_at_a_position(cli):
    cli.run("import", str(WORKED), "--id", "we")
    data = cli.json("show", "we", "--at", "2")
    assert data["position"] == 2 and data["scores"] == {"Ann": -400}
    assert data["state"]["marks"][5] == 1
    assert "score -400" in cli.run("show", "we", "--at", "2").stdout
    assert "move 500 is outside the game" in cli.run("show", "we", "--at", "500", expect=2).stderr


def test_log_lists_events_with_hashes(cli):
    cli.run("import", str(WORKED), "--id", "we")
    data = cli.json("log", "we")
    assert len(data["events"]) == 26 and len(data["events"][0]["hash"]) == 64
    assert data["events"][1]["command"] == "6+1 5+5 5"


def test_score_json_contract(cli):
    cli.run("import", str(WORKED), "--id", "we")
    data = cli.json("score", "we")
    assert data["scores"] == {"Ann": -150}
    assert data["outcome"]["winners"] == [] and data["outcome"]["ranking"] == ["Ann"]
    assert isinstance(data["outcome"]["reason"], str)
    assert cli.json("score", "we", "--at", "4")["outcome"] is None


def test_score_explain_cites_rules(cli):
    cli.run("import", str(WORKED), "--id", "we")
    out = cli.run("score", "we", "--explain", "--at", "18").stdout
    assert "total Ann: -420" in out and '004: "The sixth through tenth time' in out
    assert len(cli.json("score", "we", "--explain")["lines"]) == 9


def test_replay_step_by_step(cli):
    cli.run("import", str(WORKED), "--id", "we")
    data = cli.json("replay", "we", "--to", "4")
    assert [s["scores"]["Ann"] for s in data["steps"]] == [0, -400, -400, -400]
    assert "Solo Dice: Ann" in cli.run("replay", "we").stdout


def test_diff_two_games(cli):
    cli.run("import", str(WORKED), "--id", "a")
    cli.run("import", str(WORKED), "--id", "b")
    assert cli.json("diff", "a", "b")["identical"] is True
    assert "the logs hold the same events" in cli.run("diff", "a", "b").stdout


def test_validate_exit_0_when_valid_and_1_when_not(cli):
    cli.run("import", str(WORKED), "--id", "we")
    cli.run("import", str(WORKED), "--id", "we2")
    assert cli.json("validate", "--all")["valid"] == 2
    conn = sqlite3.connect(cli.db)
    conn.execute("update events set command = '6+1 5+5 5 ' where game_id = 'we2' and seq = 1")
    conn.commit()
    result = cli.run("validate", "--all", expect=1)
    assert "we2: INVALID at move 2" in result.stdout and "1 valid, 1 invalid" in result.stdout


def test_validate_needs_targets(cli):
    assert "name the games to validate" in cli.run("validate", expect=2).stderr


def test_export_and_import_round_trip(cli, tmp_path):
    cli.run("import", str(WORKED), "--id", "we")
    out = tmp_path / "we.jsonl"
    cli.run("export", "we", "--events", "--output", str(out))
    data = cli.json("import", str(out), "--id", "copy")
    assert data == {"id": "copy", "commands": 26, "events": 26, "notes": 6}
    assert [e["hash"] for e in cli.json("log", "we")["events"]] == [e["hash"] for e in cli.json("log", "copy")["events"]]
    assert cli.run("export", "we").stdout.splitlines()[1] == '{"actor": "chance", "command": "roll 6 1 5 5 5"}'


def test_import_from_stdin(cli):
    result = cli.run("import", "-", "--id", "s", input=WORKED.read_text())
    assert "imported s: 26 commands" in result.stdout


def test_import_of_an_illegal_record_exits_2_and_leaves_nothing(cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    lines = WORKED.read_text().splitlines()
    lines[4] = json.dumps({"actor": "Ann", "command": "5+5 6+4 5"})
    bad.write_text("\n".join(lines))
    result = cli.run("import", str(bad), "--id", "bad", expect=2)
    assert result.stderr.startswith('solrec: line 5: Ann "5+5 6+4 5":')
    assert "bad" not in cli.run("validate", "--all", expect=None).stdout


def test_import_of_a_missing_file_exits_2(cli, tmp_path):
    result = cli.run("import", str(tmp_path / "nope.jsonl"), expect=2)
    assert "No such file" in result.stderr


def test_simulate_records_games_that_validate(cli):
    data = cli.json("simulate", "solo-dice", "--games", "5", "--seed", "7")
    assert data["games"] == 5 and data["ids"][0] == "solo-dice-1"
    assert cli.json("validate", "--all")["invalid"] == 0
    for gid in data["ids"]:
        assert cli.json("score", gid)["outcome"] is not None


def test_simulate_is_reproducible(cli, tmp_path):
    cli.json("simulate", "solo-dice", "--games", "2", "--seed", "3")
    first = [cli.json("log", f"solo-dice-{i}")["events"] for i in (1, 2)]
    other = type(cli)(tmp_path / "other.db")
    other.json("simulate", "solo-dice", "--games", "2", "--seed", "3")
    second = [other.json("log", f"solo-dice-{i}")["events"] for i in (1, 2)]
    assert [[e["hash"] for e in g] for g in first] == [[e["hash"] for e in g] for g in second]


def test_unknown_game_exits_2(cli):
    assert 'unknown game "chess"' in cli.run("new", "chess", expect=2).stderr


def test_bad_option_exits_2(cli):
    assert 'unknown option "x"' in cli.run("new", "solo-dice", "--option", "x=1", expect=2).stderr
    assert "KEY=VALUE" in cli.run("new", "solo-dice", "--option", "x", expect=2).stderr


def test_seed_and_entered_together_exit_2(cli):
    assert "not both" in cli.run("new", "solo-dice", "--seed", "1", "--entered", expect=2).stderr


def test_unknown_game_id_exits_2(cli):
    cli.run("new", "solo-dice", "--id", "g")
    assert 'no game "nope"' in cli.run("show", "nope", expect=2).stderr


def test_a_file_that_is_not_a_solrec_database_exits_2_and_is_untouched(cli, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n" * 200)
    result = cli.runner.invoke(app, ["show", "x", "--db", str(notes)])
    assert result.exit_code == 2 and "is not a solrec database" in result.stderr
    assert notes.read_text() == "my notes\n" * 200


def test_a_corrupt_payload_exits_1_with_a_reason(cli):
    cli.run("import", str(WORKED), "--id", "we")
    conn = sqlite3.connect(cli.db)
    conn.execute("update events set payload = substr(payload, 1, 2) where game_id = 'we' and seq = 3")
    conn.commit()
    result = cli.run("show", "we", expect=1)
    assert "stored data problem" in result.stderr and "move 4" in result.stderr
    assert "INVALID at move 4" in cli.run("validate", "we", expect=1).stdout


def test_usage_errors_exit_2(cli):
    assert cli.runner.invoke(app, ["play"]).exit_code == 2


def test_an_internal_error_is_one_line_and_exit_3(cli, monkeypatch):
    from solrec.cli import session

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(session, "new_game", broken)
    result = cli.run("new", "solo-dice", expect=3)
    assert result.stderr.strip() == "solrec: internal error (RuntimeError: boom); please report it"


def test_db_from_environment(cli, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    monkeypatch.setenv("SOLREC_DB", str(tmp_path / "env.db"))
    result = CliRunner().invoke(app, ["new", "solo-dice", "--id", "e", "--json"])
    assert result.exit_code == 0
    assert (tmp_path / "env.db").exists()


def test_done_means_200_simulated_games_validate_and_an_edited_row_is_caught(cli):
    cli.run("simulate", "solo-dice", "--games", "200", "--seed", "7")
    assert cli.run("validate", "--all").stdout.strip().endswith("200 valid, 0 invalid")
    conn = sqlite3.connect(cli.db)
    conn.execute("update events set command = 'roll 1 1 1 1 1' where game_id = 'solo-dice-77' and seq = 4")
    conn.commit()
    result = cli.run("validate", "--all", expect=1)
    assert "solo-dice-77: INVALID at move 5" in result.stdout
    assert result.stdout.strip().endswith("199 valid, 1 invalid")


def test_reading_commands_do_not_create_a_database(cli):
    result = cli.run("show", "x", expect=2)
    assert "no such database" in result.stderr
    assert not cli.db.exists()
