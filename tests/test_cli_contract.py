"""The CLI as people live in it (issue 12): one contract for output and errors, help, managing
stored games, nothing hidden leaks, a browsable database, start-up kept cheap."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from solrec.cli.main import app

from .conftest import FIXTURES
from .robustness.helpers import as_schema

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
BOX = "╭│╰"


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert not any(ch in result.stderr for ch in BOX)
    return lines[0]


# -- errors: one line, exit 2, a JSON object with --json -----------------------------------------


def test_an_error_with_json_is_a_json_object_on_stdout_and_one_line_on_stderr(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    result = cli.run("play", "g", "roll 6 1 5 5 5; 6+1 5+5 4", "--json", expect=2)
    error = json.loads(result.stdout)["error"]
    assert error["code"] == 2 and error["kind"] == "illegal"
    assert one_line(result) == f"solrec: {error['reason']}"


@pytest.mark.parametrize(
    "args, kind",
    [
        (("play", "g", "six and one"), "invalid"),
        (("show", "nope"), "unknown-id"),
        (("new", "chess"), "invalid-setup"),
    ],
)
def test_every_refusal_has_a_kind(cli, args, kind):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    assert cli.json(*args, expect=2)["error"]["kind"] == kind


@pytest.mark.parametrize(
    "args, reason",
    [
        (("show", "g", "--at", "two"), '"two" is not a whole number'),
        (("simulate", "solo-dice", "--games", "0"), "0 is below the minimum 1"),
        (("show", "g", "--colour"), "no such option: --colour"),
        (("shw", "g"), 'no such command "shw"'),
        (("play",), "missing argument"),
    ],
)
def test_what_typer_rejects_is_one_line_and_exit_2(cli, args, reason):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    result = cli.run(*args, expect=2)
    assert reason in one_line(result)
    error = json.loads(cli.run(*args, "--json", expect=2).stdout)["error"]
    assert error["kind"] == "usage" and reason in error["reason"]


def test_an_overlong_input_is_quoted_shortened(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    line = one_line(cli.run("play", "g", "x" * 5000, expect=2))
    assert len(line) < 300 and "..." in line and "x" * 100 not in line
    assert "x" * 100 not in one_line(cli.run("show", "y" * 5000, expect=2))


def test_ctrl_c_exits_130(cli, monkeypatch):
    from solrec.cli import session

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "play_commands", interrupted)
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    assert one_line(cli.run("play", "g", "5+5 1+1 3", expect=130)) == "solrec: interrupted"


def test_an_empty_id_is_refused_not_made_automatic(cli):
    assert "--id is empty" in one_line(cli.run("new", "solo-dice", "--id", "", expect=2))
    assert "--id is empty" in one_line(cli.run("import", str(WORKED), "--id", "", expect=2))
    assert not cli.db.exists() or cli.json("list") == []


@pytest.mark.parametrize("version", ["true", "1.0", '"1"', "2"])
def test_import_accepts_only_the_integer_1_as_format_version(cli, tmp_path, version):
    lines = WORKED.read_text().splitlines()
    lines[0] = lines[0].replace('"solrec": 1', f'"solrec": {version}')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    assert 'expected "solrec": 1' in one_line(cli.run("import", str(bad), expect=2))


# -- output: "id" everywhere, positions counted the same way -------------------------------------


def test_every_reading_command_names_the_game_id_as_id(cli, tmp_path):
    cli.run("import", str(WORKED), "--id", "we")
    for args in (("show", "we"), ("log", "we"), ("score", "we"), ("score", "we", "--explain"), ("replay", "we"),
                 ("legal", "we"), ("export", "we")):
        assert cli.json(*args)["id"] == "we", args
    assert cli.json("validate", "we")["games"][0]["id"] == "we"
    assert cli.json("list")[0]["id"] == "we"
    assert {g["id"] for g in cli.json("games")} >= {"solo-dice"}


def test_log_and_replay_count_moves_with_their_positions_beside_them(cli):
    cli.run("import", str(WORKED), "--id", "we")
    events = cli.json("log", "we")["events"]
    assert [e["position"] for e in events[:3]] == [1, 2, 3]
    steps = cli.json("replay", "we", "--to", "2")["steps"]
    assert [s["position"] for s in steps] == [1, 2]
    # the position a log line shows is the one show --at renders
    assert cli.json("show", "we", "--at", "2")["scores"] == steps[-1]["scores"]
    assert [e["move"] for e in events[:3]] == [1, 2, 3]  # a Solo Dice move is one event
    assert cli.run("log", "we").stdout.splitlines()[1].split()[:3] == ["MOVE", "ACTOR", "COMMAND"]
    assert cli.run("log", "we", "--wide").stdout.splitlines()[1].split()[:3] == ["MOVE", "POS", "ACTOR"]
    assert cli.run("replay", "we").stdout.splitlines()[0].split()[0] == "MOVE"


def test_export_with_json_gives_the_metadata(cli, tmp_path):
    cli.run("import", str(WORKED), "--id", "we")
    data = cli.json("export", "we", "--output", str(tmp_path / "we.jsonl"))
    assert data == {"id": "we", "game": "solo-dice", "commands": 26, "events": 26, "output": str(tmp_path / "we.jsonl")}
    assert cli.json("export", "we")["lines"][0]["solrec"] == 1


def test_plurals(cli, tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text("\n".join(WORKED.read_text().splitlines()[:2]))
    assert "1 command, 1 event" in cli.run("import", str(one), "--id", "one").stdout
    assert "(solo-dice, 1 event," in cli.run("validate", "one").stdout
    assert "3 commands, 3 events" in cli.run("import", "-", "--id", "three", input="\n".join(WORKED.read_text().splitlines()[:4])).stdout
    assert "recorded 1 simulated solo-dice game:" in cli.run("simulate", "solo-dice").stdout


# -- help ----------------------------------------------------------------------------------------


COMMANDS = ["games", "new", "play", "legal", "show", "log", "score", "replay", "diff", "validate", "export", "import",
            "simulate", "solve", "list", "delete", "rename", "undo"]


@pytest.mark.parametrize("name", COMMANDS)
def test_help_shows_flags_as_flags_and_describes_every_option(cli, name):
    result = cli.runner.invoke(app, [name, "-h"])
    assert result.exit_code == 0
    text = result.stdout
    assert "<bool>" not in text and "--json <" not in text
    options = text.split("Options:")[1].splitlines()
    for line in options:
        stripped = line.strip()
        if stripped.startswith("-"):
            opts, _, described = stripped.partition("  ")
            assert described.strip() or line.startswith(" " * 10), (name, line)


def test_version_and_short_help():
    from typer.testing import CliRunner

    runner = CliRunner()
    assert runner.invoke(app, ["--version"]).stdout.strip() == "solrec 0.1.0"
    top = runner.invoke(app, ["-h"]).stdout
    assert "--install-completion" in top and "--version" in top


def test_play_help_points_at_each_games_notation_with_two_examples():
    from typer.testing import CliRunner

    from solrec.core.registry import games

    text = CliRunner().invoke(app, ["play", "--help"]).stdout
    for game in games().values():
        assert f"{game.id}: " in text
        assert len(game.notation_examples) == 2
        for example in game.notation_examples:
            assert f"solrec play ID '{example}'" in text


def test_completion_offers_the_stored_game_ids(cli, monkeypatch):
    from solrec.cli.app import complete_game_id, complete_game_name

    cli.run("new", "solo-dice", "--id", "table-1")
    cli.run("new", "solo-dice", "--id", "table-2")
    cli.run("new", "solo-dice", "--id", "other")

    class Ctx:
        params = {"db": cli.db}

    assert complete_game_id(Ctx(), "tab") == ["table-1", "table-2"]
    monkeypatch.setenv("SOLREC_DB", str(cli.db))
    Ctx.params = {}
    assert complete_game_id(Ctx(), "o") == ["other"]
    assert complete_game_name("sola") == ["solar-solitaire", "solari", "solarius-mission"]


# -- diff ----------------------------------------------------------------------------------------


def test_diff_exits_1_when_the_logs_differ_and_speaks_the_games_words(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "a")
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "b")
    cli.run("play", "a", "roll 6 1 5 5 5; 6+1 5+5 5")
    cli.run("play", "b", "roll 6 1 5 5 5; 6+5 1+5 5")
    result = cli.run("diff", "a", "b", expect=1)
    text = result.stdout
    assert "the logs first differ at move 2; they agree up to move 1" in text
    assert "Ann: 6+1 5+5 5" in text and "Ann: 6+5 1+5 5" in text
    assert "paired 6+1 and 5+5" in text
    assert "marks" not in text.replace("marks  ", "") or "[" not in text
    assert ": False" not in text and ": True" not in text and "'" not in text
    assert cli.json("diff", "a", "b", expect=1)["position"] == 2
    cli.run("import", str(WORKED), "--id", "c")
    cli.run("import", str(WORKED), "--id", "d")
    assert cli.json("diff", "c", "d", expect=0)["identical"] is True


# -- managing stored games -----------------------------------------------------------------------


def test_list_filters_by_game_and_status(cli):
    cli.run("import", str(WORKED), "--id", "over")
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "1", "--id", "running")
    cli.run("new", "soli2", "--seed", "1", "--id", "duel")
    rows = cli.json("list")
    assert [r["id"] for r in rows] == ["over", "running", "duel"]
    assert rows[0] == {**rows[0], "game": "solo-dice", "players": ["Ann"], "events": 26, "status": "over",
                       "scores": {"Ann": -150}}
    assert [r["id"] for r in cli.json("list", "--over")] == ["over"]
    assert [r["id"] for r in cli.json("list", "--running", "--game", "solo-dice")] == ["running"]
    assert "3 games" in cli.run("list").stdout
    assert "not both" in one_line(cli.run("list", "--over", "--running", expect=2))


def test_delete_asks_unless_yes(cli):
    cli.run("new", "solo-dice", "--id", "g")
    assert "add --yes" in one_line(cli.run("delete", "g", expect=2))
    assert cli.json("list")[0]["id"] == "g"
    cli.run("delete", "g", "--yes")
    assert cli.json("list") == []
    assert 'no game "g"' in one_line(cli.run("delete", "g", "--yes", expect=2))


def test_rename_keeps_the_log_valid(cli):
    cli.run("import", str(WORKED), "--id", "g")
    hashes = [e["hash"] for e in cli.json("log", "g")["events"]]
    cli.run("rename", "g", "club-final")
    assert [e["hash"] for e in cli.json("log", "club-final")["events"]] == hashes
    assert cli.json("validate", "--all")["valid"] == 1
    cli.run("new", "solo-dice", "--id", "other")
    assert "already exists" in one_line(cli.run("rename", "other", "club-final", expect=2))
    assert "use letters" in one_line(cli.run("rename", "other", "bad id", expect=2))


def test_undo_takes_back_the_last_command_and_validate_stays_clean(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    cli.run("play", "g", "roll 6 1 5 5 5; 6+1 5+5 5; roll 5 5 6 4 3")
    data = cli.json("undo", "g")
    assert data["position"] == 2 and data["taken_back"] == [
        {"move": 3, "actor": "chance", "command": "roll 5 5 6 4 3", "said": "rolled 5 5 6 4 3", "events": 1}]
    cli.json("undo", "g", "--steps", "2")
    assert cli.json("show", "g")["position"] == 0
    assert cli.json("validate", "g")["valid"] == 1
    assert "nothing to take back" in one_line(cli.run("undo", "g", expect=2))
    cli.run("play", "g", "roll 6 1 5 5 5; 6+1 5+5 5")  # play on after a take-back
    assert cli.json("validate", "g")["valid"] == 1


def test_undo_in_a_seeded_game_takes_chance_back_only_with_its_command(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    first = cli.json("play", "g", "5+5 1+1 3")
    refused = one_line(cli.run("undo", "g", expect=2))
    assert 'comes from the seed because of Ann\'s "5+5 1+1 3"' in refused and "--steps 2" in refused
    assert cli.json("undo", "g", "--steps", "2")["position"] == 1
    assert "nothing to take back" in one_line(cli.run("undo", "g", expect=2))  # the set-up's roll stays
    assert cli.json("play", "g", "5+5 1+1 3")["steps"] == first["steps"]  # the seed draws the same again
    report = cli.json("validate", "--all")
    assert report["invalid"] == 0


def test_a_take_back_past_what_chance_showed_is_kept_as_a_ruled_comment(cli):
    # issue 29: the referee may take back anything; past a reveal, a comment marked ruled says what was shown
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    cli.run("play", "g", "5+5 1+1 3")
    data = cli.json("undo", "g", "--steps", "2")
    assert data["ruled"]["mark"] == "ruled" and "taken back past what had been shown" in data["ruled"]["text"]
    assert [c["mark"] for c in cli.json("comment", "g")["notes"]] == ["ruled"]
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "e")
    cli.run("play", "e", "roll 6 1 5 5 5; 6+1 5+5 5")
    assert "ruled" not in cli.json("undo", "e")  # nothing hidden was shown: the table typed the roll in


def test_undo_a_finished_game_reopens_it(cli):
    cli.run("import", str(WORKED), "--id", "we")
    cli.run("undo", "we", "--steps", "2", "--drop-comments")  # the worked example's last move carries a note
    assert cli.json("list")[0]["status"] == "running"
    assert cli.json("validate", "we")["valid"] == 1


# -- hidden information --------------------------------------------------------------------------


def _stock(cli, gid):
    return cli.json("show", gid, "--reveal")["state"]["stock"]


def test_solar_solitaire_log_and_replay_hide_the_deck_order_while_the_game_runs(cli):
    cli.run("new", "solar-solitaire", "--seed", "3", "--id", "g")
    cli.run("play", "g", "turn; turn")
    stock = _stock(cli, "g")
    hidden = " ".join(stock[:5])
    for args in (("log", "g"), ("replay", "g"), ("show", "g"), ("legal", "g")):
        assert hidden not in cli.run(*args).stdout, args
        assert hidden not in cli.run(*args, "--json").stdout.replace('",\n      "', " "), args
        assert not any(card in json.dumps(cli.json(*args)) for card in stock[:3]) or args[0] == "legal", args
    log = cli.json("log", "g")
    assert log["events"][0]["command"] == "shuffle (40 cards, order hidden)"
    assert log["events"][0]["data"] == {"cards": 40, "order": "hidden"}
    # --reveal shows it
    revealed = cli.json("log", "g", "--reveal")["events"][0]
    assert len(revealed["command"].split()) == 41 and len(revealed["data"]["order"]) == 40
    assert hidden in cli.run("replay", "g", "--reveal").stdout
    # a running record holds the order: export wants --reveal
    assert "--reveal" in one_line(cli.run("export", "g", expect=2))
    assert len(cli.run("export", "g", "--reveal").stdout.splitlines()[1].split()) > 40


def test_a_refused_batch_never_names_the_next_hidden_card(cli):
    cli.run("new", "solar-solitaire", "--seed", "3", "--id", "g")
    stock = _stock(cli, "g")
    for batch in ("turn; card 1-1-1", "turn; turn; nonsense", f"card {stock[0]}", "turn; resign; turn"):
        result = cli.run("play", "g", batch, expect=2)
        said = result.stderr
        for typed in batch.split(";"):
            said = said.replace(typed.strip(), "")
        assert not any(card in said for card in stock[1:]), (batch, result.stderr)
    assert cli.json("show", "g")["position"] == 2


def test_seeded_chance_refusals_never_name_the_seeds_draw():
    from solrec.core.errors import IllegalCommand
    from solrec.core.play import decide_as, initial_state, make_header
    from solrec.core.registry import get_game

    game = get_game("solo-dice")
    header = make_header(game, ["Ann"], {}, "seeded", 7)
    state = initial_state(game, header)
    with pytest.raises(IllegalCommand) as err:
        decide_as(game, header, state, 0, "chance", game.parse("roll 1 1 1 1 1"))
    assert "5 1 1 5 3" not in str(err.value)  # the seed's roll stays unnamed


@pytest.mark.parametrize("game_id, options", [
    ("solo-dice", {}), ("soli2", {}), ("solar-solitaire", {}),
    ("solari", {"source": "dominoes-hidden"}), ("solari", {"source": "dice"}), ("solari", {"source": "dominoes-open"}),
])
def test_no_game_names_the_seeds_next_draw_in_a_refusal(game_id, options):
    from solrec.core.chance import SeededDraw
    from solrec.core.errors import SolrecError
    from solrec.core.game import CHANCE
    from solrec.core.play import decide_as, initial_state, make_header, seeded_chance
    from solrec.core.registry import get_game

    game = get_game(game_id)
    header = make_header(game, None, options, "seeded", 11)
    state = initial_state(game, header)
    assert game.to_act(state) == CHANCE
    expected = seeded_chance(game, header, state, 0)
    other = next(c for s in range(1, 50) if (c := game.chance_command(state, SeededDraw(s, 0))) != expected)
    with pytest.raises(SolrecError) as err:
        decide_as(game, header, state, 0, CHANCE, other)
    assert game.format(expected) not in str(err.value)
    assert game.format(other) in str(err.value)


def test_solari_hidden_dominoes_are_not_named_before_they_are_turned(cli):
    cli.run("new", "solari", "--seed", "4", "--option", "source=dominoes-hidden", "--id", "h")
    log = cli.json("log", "h")["events"]
    turned = [e for e in log if e["command"].startswith("turn ")]
    assert len(turned) == 1  # only the mover's first domino, turned face up
    result = cli.run("play", "h", "--actor", "chance", "turn 1-1", expect=2)
    assert "turn" not in result.stderr.replace('"turn 1-1"', "")


def test_after_the_game_ends_the_log_shows_everything(cli):
    cli.run("simulate", "solar-solitaire", "--games", "1", "--seed", "2")
    events = cli.json("log", "solar-solitaire-1")["events"]
    assert len(events[0]["data"]["order"]) == 40
    assert len(json.loads(cli.run("export", "solar-solitaire-1").stdout.splitlines()[1])["command"].split()) == 41


# -- browsable database --------------------------------------------------------------------------


def test_sqlite_utils_queries_event_payloads_as_json(cli):
    import sqlite_utils

    cli.run("import", str(WORKED), "--id", "we")
    db = sqlite_utils.Database(cli.db)
    rolls = list(db.query(
        "select position, json_extract(data, '$.dice') as dice from event_log"
        " where game_id = 'we' and type = 'rolled' order by position limit 2"
    ))
    assert rolls == [{"position": 1, "dice": "[6,1,5,5,5]"}, {"position": 3, "dice": "[5,5,6,4,3]"}]
    (game,) = db.query("select status, json_extract(scores, '$.Ann') as ann from game_list where id = 'we'")
    assert game == {"status": "over", "ann": -150}
    assert "event_log" in db.view_names() and "game_list" in db.view_names()


def test_game_list_gives_seeds_as_strings_so_a_javascript_client_reads_them_exactly(cli):
    """A JSON number above 2**53 loses precision in JavaScript (Datasette's pages): the browsing view
    gives every seed as a string (docs/record-format.md, "Browsing the database")."""
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", str(2**63 - 1), "--id", "big")
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "none")
    conn = sqlite3.connect(cli.db)
    rows = dict(conn.execute("select id, seed from game_list").fetchall())
    assert rows == {"big": str(2**63 - 1), "none": None}
    row = conn.execute("select json_object('seed', seed) from game_list where id = 'big'").fetchone()
    assert json.loads(row[0]) == {"seed": "9223372036854775807"}


def test_a_game_list_view_of_an_older_solrec_is_made_again_by_the_next_write_not_by_a_read(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    conn = sqlite3.connect(cli.db)
    conn.execute("drop view game_list")
    conn.execute("create view game_list as select id, game, seed from games")  # seeds as numbers
    conn.commit()
    cli.run("show", "g")
    assert conn.execute("select typeof(seed) from game_list").fetchone() == ("integer",)
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "8", "--id", "h")
    assert conn.execute("select typeof(seed), status from game_list where id = 'g'").fetchone() == ("text", "running")


def test_a_schema_1_database_is_read_as_it_is_and_migrated_by_upgrade(cli):
    cli.run("import", str(WORKED), "--id", "we")
    as_schema(cli.db, 1)
    assert cli.json("show", "we")["position"] == 26
    conn = sqlite3.connect(cli.db)
    assert conn.execute("select value from solrec_meta where key = 'schema'").fetchone() == ("1",)
    assert "migrated from solrec schema 1 to schema 3" in cli.run("upgrade").stdout
    assert conn.execute("select value from solrec_meta where key = 'schema'").fetchone() == ("3",)
    assert conn.execute("select json_extract(data, '$.dice') from events where seq = 0").fetchone() == ("[6,1,5,5,5]",)
    assert cli.json("validate", "we")["valid"] == 1


def test_a_schema_2_database_is_migrated_by_its_first_write_and_its_hashes_and_exports_stay_the_same(cli):
    cli.run("import", str(WORKED), "--id", "we")
    exported = cli.run("export", "we").stdout
    hashes = sqlite3.connect(cli.db).execute("select hash from events where game_id = 'we' order by seq").fetchall()
    as_schema(cli.db, 2)
    assert cli.run("export", "we").stdout == exported  # read as it is
    made = cli.run("new", "solo-dice", "-p", "Ann", "--seed", "3", "--id", "other")  # the first write
    assert "migrated from solrec schema 2 to schema 3" in made.stderr
    assert cli.json("show", "we")["position"] == 26
    conn = sqlite3.connect(cli.db)
    assert conn.execute("select value from solrec_meta where key = 'schema'").fetchone() == ("3",)
    assert conn.execute("select hash from events where game_id = 'we' order by seq").fetchall() == hashes
    assert conn.execute("select count(*) from events where head is null").fetchone() == (0,)
    assert cli.run("export", "we").stdout == exported
    assert cli.json("validate", "we")["valid"] == 1


def test_a_row_edited_under_schema_2_still_breaks_its_chain_once_migrated(cli):
    cli.run("import", str(WORKED), "--id", "we")
    as_schema(cli.db, 2, "update events set command = 'roll 6 6 6 6 6' where seq = 0")
    result = cli.run("show", "we", expect=1)
    assert "at move 1: the event does not match its hash" in result.stderr
    assert "INVALID at move 1" in cli.run("validate", "we", expect=1).stdout


def test_a_row_not_of_its_types_under_schema_2_reads_back_as_damaged_once_migrated(cli):
    cli.run("import", str(WORKED), "--id", "we")
    as_schema(cli.db, 2, "update events set actor = x'4576' where seq = 1")  # bytes, not text
    result = cli.run("show", "we", expect=1)
    assert "at position 2: its head" in result.stderr
    assert 'we: INVALID at position 2: game "we" at position 2: its head' in cli.run("validate", "we", expect=1).stdout


# -- validate and simulate reports ---------------------------------------------------------------


def test_validate_all_summarizes_by_game(cli):
    cli.run("simulate", "solo-dice", "--games", "3", "--seed", "1")
    cli.run("simulate", "soli2", "--games", "2", "--seed", "1")
    data = cli.json("validate", "--all")
    assert data["by_game"] == {"solo-dice": {"valid": 3, "invalid": 0}, "soli2": {"valid": 2, "invalid": 0}}
    text = cli.run("validate", "--all").stdout
    assert "solo-dice: 3 valid, 0 invalid" in text and text.strip().endswith("5 valid, 0 invalid")


def test_validate_all_shows_a_progress_bar_on_a_terminal(cli):
    import pty

    cli.run("simulate", "solo-dice", "--games", "3", "--seed", "1")
    main, secondary = pty.openpty()
    env = {**os.environ, "SOLREC_DB": str(cli.db)}
    done = subprocess.run([sys.executable, "-m", "solrec.cli.main", "validate", "--all"], env=env,
                          stdout=subprocess.PIPE, stderr=secondary, text=True, timeout=60)
    os.close(secondary)
    bar = os.read(main, 65536).decode()
    os.close(main)
    assert done.returncode == 0 and "validating" in bar and "validating" not in done.stdout
    assert done.stdout.strip().endswith("3 valid, 0 invalid")


def test_simulate_prints_a_summary_of_the_games_it_recorded(cli):
    data = cli.json("simulate", "soli2", "--games", "4", "--seed", "2")
    summary = data["summary"]
    assert summary["games"] == 4 and sum(summary["winners"].values()) == 4
    assert set(summary["scores"]) == {"Player 1", "Player 2"}
    for s in summary["scores"].values():
        assert s["min"] <= s["mean"] <= s["max"]
    assert summary["mean_events"] > 0
    text = cli.run("simulate", "solo-dice", "--games", "2", "--seed", "2").stdout
    assert "solo-dice: 2 games" in text and "results: scored 2" in text and "mean score" in text


# -- start-up ------------------------------------------------------------------------------------


def test_the_common_path_imports_no_game_nor_heavy_library(cli):
    cli.run("new", "solo-dice", "--id", "g")
    probe = (
        'import sys; sys.argv = ["solrec", "show", "g", "--db", sys.argv[1]]\n'
        "from solrec.cli.main import app\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        'print(sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "sqlite_utils", "rich")'
        ' or m.startswith("solrec.core.") and m.count(".") >= 3))'
    )
    out = subprocess.run([sys.executable, "-c", probe, str(cli.db)], capture_output=True, text=True, check=True).stdout
    loaded = out.strip().splitlines()[-1]
    assert "pydantic" not in loaded and "sqlite_utils" not in loaded and "rich" not in loaded
    assert "solo_dice" in loaded and "solari" not in loaded and "soli2" not in loaded


def test_a_call_through_the_console_entry_closes_its_database(cli):
    """The entry point skips the collector's pass over the whole heap at exit (cli/main.py ``run``),
    so it closes the database itself: no write-ahead log is left beside the file."""
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "g")
    probe = 'import sys; sys.argv = ["solrec", *sys.argv[1:]]\nfrom solrec.cli.main import run\nrun()\n'
    for args in (["play", "g", "roll 6 1 5 5 5"], ["legal", "g"], ["show", "nope"]):
        subprocess.run([sys.executable, "-c", probe, *args, "--db", str(cli.db)], capture_output=True, text=True)
        assert sorted(p.name for p in cli.db.parent.iterdir()) == [cli.db.name], args
    assert cli.json("log", "g")["events"][0]["command"] == "roll 6 1 5 5 5"


def test_bare_solrec_prints_the_help():
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0 and result.stdout.startswith("Usage: solrec")
