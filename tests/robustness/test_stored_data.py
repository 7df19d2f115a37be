"""Damaged stored data is a verdict (exit 1), never an internal error or a wrong answer (issue 8,
items 1, 3 and 8)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from solrec.events.store import MAX_HEAD, MAX_PAYLOAD

from .helpers import FIXTURES, Hostile, edit_command, rechain, sql, two_games

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
READERS = [
    ("show", "we"), ("score", "we"), ("replay", "we"), ("log", "we"), ("export", "we"),
    ("diff", "we", "ok"), ("diff", "ok", "we"), ("legal", "we"),
]


@pytest.fixture
def cli(tmp_path):
    return two_games(tmp_path / "solrec.db")


def refused(cli, *args) -> str:
    result = cli.run(*args)
    assert result.exit_code == 1, (args, result.stdout, result.stderr)
    assert result.stderr.startswith("solrec: stored data problem: ")
    return result.stderr


@pytest.mark.parametrize("args", READERS, ids=[" ".join(a) for a in READERS])
def test_every_reading_command_refuses_a_log_with_a_missing_event(cli, args):
    sql(cli.db, "delete from events where game_id = 'we' and seq = 2")
    assert "at position 3: its event is missing (the one for move 4 is in its place)" in refused(cli, *args)


@pytest.mark.parametrize("args", READERS, ids=[" ".join(a) for a in READERS])
def test_every_reading_command_refuses_an_edited_event(cli, args):
    edit_command(cli.db, "we", 0, "roll 6 6 6 6 6")
    assert "at move 1: the event does not match its hash" in refused(cli, *args)


def test_an_edited_browsing_column_is_not_what_solrec_shows_and_validate_reports_it(cli):
    """The browsing columns mirror the hashed head for people reading the file; solrec reads the head."""
    sql(cli.db, "update events set command = 'roll 6 6 6 6 6', actor = 'Eve' where game_id = 'we' and seq = 0")
    log = cli.run("log", "we")
    assert log.exit_code == 0 and "roll 6 6 6 6 6" not in log.stdout and "Eve" not in log.stdout
    result = cli.run("validate", "we")
    assert result.exit_code == 1
    assert "INVALID at move 1: its browsing columns" in result.stdout and "edited outside solrec" in result.stdout


@pytest.mark.parametrize("args", READERS, ids=[" ".join(a) for a in READERS])
def test_every_reading_command_refuses_a_dropped_last_command(cli, args):
    sql(cli.db, "delete from events where game_id = 'we' and seq = (select max(seq) from events where game_id = 'we')")
    assert "is missing: the game records" in refused(cli, *args)


def test_a_recorded_head_that_is_not_the_last_event_is_refused(cli):
    sql(cli.db, "update games set head = 'ab' where id = 'we'")
    assert "the last event is not the one the game records" in refused(cli, "show", "we")


def test_an_edited_header_of_a_game_without_events_is_refused(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--entered", "--id", "g", "-p", "Ann")
    sql(cli.db, """update games set players = '["Eve"]' where id = 'g'""")
    assert "the header is not the one the game was created with" in refused(cli, "show", "g")
    assert "INVALID at move 0" in cli.run("validate", "g").stdout  # the header: before any event


def test_play_refuses_to_append_to_a_damaged_log(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--entered", "--id", "g")
    cli.run("play", "g", "roll 6 1 5 5 5")
    edit_command(cli.db, "g", 0, "roll 6 6 6 6 6")
    assert "does not match its hash" in refused(cli, "play", "g", "6+1 5+5 5")  # Hostile checks nothing changed


# -- validate gives a verdict per game ---------------------------------------------------------------
PER_GAME_DAMAGE = {
    "payload not bytes": ("update events set payload = 'text' where game_id = 'we' and seq = 1", "not stored bytes"),
    "scores not JSON": ("update games set scores = '{' where id = 'we'", "scores is not JSON"),
    "players not JSON": ("update games set players = '[' where id = 'we'", "header does not decode"),
    "options not a map": ("update games set options = '[1]' where id = 'we'", "options are not a map"),
    # rechained below, as an attacker would, so that the check past the chain is what finds it
    "option out of range": ("""update games set options = '{"x": 1}' where id = 'we'""", 'unknown option "x"'),
    "seed not a number": ("update games set seed = 'abc', chance = 'seeded' where id = 'we'", "seed is not a whole number"),
    "seeded without a seed": ("update games set seed = null, chance = 'seeded' where id = 'we'", "without a seed"),
    "chance neither seeded nor entered": ("update games set chance = 'dice' where id = 'we'", 'neither "seeded"'),
    # rechained below too: the chain would catch these first
    "no players": ("update games set players = '[]' where id = 'we'", "names no players"),
    "a player with ESC": ("""update games set players = '["Ann\\u001b"]' where id = 'we'""", "control character"),
    "unknown game": ("update games set game = 'chess' where id = 'we'", 'unknown game "chess"'),
    "count not a number": ("update games set events = 'many' where id = 'we'", "count or head"),
    # found by the long tampering fuzz: a negative count once reached validate as a position before the header
    "count negative": ("update games set events = -48 where id = 'we'", "recorded event count is negative (-48)"),
    "seq not a number": ("update events set seq = 'x' where game_id = 'we' and seq = 1", "at position 2: its event is missing"),
    "huge payload": (f"update events set payload = zeroblob({MAX_PAYLOAD + 1}) where game_id = 'we' and seq = 1",
                     f"over the bound of {MAX_PAYLOAD}"),
    "huge options": ("update games set options = printf('%.*c', 70000, 'x') where id = 'we'", "over the bound"),
    "head not bytes": ("update events set head = 'hi' where game_id = 'we' and seq = 1", "head (position"),
    "head not a head": ("update events set head = x'93010203' where game_id = 'we' and seq = 1", "its head is not a"),
    "huge head": (f"update events set head = zeroblob({MAX_HEAD + 1}) where game_id = 'we' and seq = 1",
                  f"over the bound of {MAX_HEAD}"),
}


@pytest.mark.parametrize("damage", sorted(PER_GAME_DAMAGE))
def test_validate_all_gives_a_verdict_per_game_and_goes_on(cli, damage):
    statement, reason = PER_GAME_DAMAGE[damage]
    sql(cli.db, statement)
    if damage in ("option out of range", "no players", "a player with ESC"):
        rechain(cli.db, "we")
    result = cli.run("validate", "--all")
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.strip().splitlines()
    bad = [line for line in lines if line.startswith("we: INVALID")]
    assert len(bad) == 1 and reason in bad[0], lines
    assert any(line.startswith("ok: valid") for line in lines)
    assert cli.run("list").exit_code in (0, 1)  # list reads only the games rows: a verdict, never a crash
    assert lines[-1] == "1 valid, 1 invalid"
    refused(cli, "show", "we")


def test_a_payload_over_the_bound_is_refused_without_reading_it(cli, monkeypatch):
    sql(cli.db, "update events set payload = zeroblob(50000000) where game_id = 'we' and seq = 1")
    assert "over the bound" in refused(cli, "show", "we")


def test_orphan_events_are_reported(cli):
    sql(cli.db, "delete from games where id = 'we'")
    result = cli.run("validate", "--all")
    assert result.exit_code == 1
    assert "we: INVALID at move 0: 26 stored events have no games row (orphan events)" in result.stdout
    assert "orphan events" in cli.run("validate", "we").stdout


# -- a damaged file is one verdict for the database --------------------------------------------------
FILE_DAMAGE = {
    "missing table": ("drop table events", "the events table is missing"),
    "schema version not a number": ("update solrec_meta set value = 'one' where key = 'schema'", "is not a number"),
    "schema version missing": ("delete from solrec_meta", "schema version is missing"),
    "events a view": (
        "drop view event_log && alter table events rename to events_t && create view events as select * from events_t", "events is a view",
    ),
    "missing column": ("drop view game_list && alter table games drop column scores", 'lacks the column "scores"'),
    "a trigger": ("create trigger t after insert on events begin delete from games; end", "trigger"),
}


@pytest.mark.parametrize("damage", sorted(FILE_DAMAGE))
@pytest.mark.parametrize("command", [("validate", "--all"), ("show", "ok"), ("play", "ok", "roll 1 1 1 1 1")])
def test_a_damaged_file_is_one_clear_verdict(cli, damage, command):
    statements, reason = FILE_DAMAGE[damage]
    sql(cli.db, *statements.split(" && "))
    assert reason in refused(cli, *command)


@pytest.mark.parametrize("page", [2, 3, 4, -1])
def test_a_bad_page_is_one_clear_verdict(cli, page):
    cli.run("simulate", "solo-dice", "--games", "30")
    sql(cli.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    size = cli.db.stat().st_size
    pages = size // 4096
    with open(cli.db, "r+b") as f:
        f.seek(((page if page > 0 else pages + page + 1) - 1) * 4096)
        f.write(b"\xff" * 100)
    result = cli.run("validate", "--all")
    assert result.exit_code == 1, (result.stdout, result.stderr)
    for command in (("show", "ok"), ("log", "solo-dice-3")):
        assert cli.run(*command).exit_code in (0, 1)  # a command that reads no damaged page still works


def test_a_rechained_edit_is_decoded_strictly(cli):
    from solrec.events.codec import pack

    sql(cli.db, "update events set payload = ? where game_id = 'we' and seq = 0", params=(pack({"dice": "66666"}),))
    rechain(cli.db, "we")
    assert 'at move 1: event "rolled" payload does not fit its type: dice should be a list' in refused(cli, "show", "we")
    assert "we: INVALID at move 1" in cli.run("validate", "we").stdout


@pytest.mark.parametrize("args", [("validate", "we"), ("validate", "--all")], ids=["one game", "--all"])
def test_an_edited_data_column_is_reported_by_validate(cli, args):
    """``data`` is a browsing column like the others: Datasette must not show dice the log does not hold."""
    sql(cli.db, """update events set data = '{"dice":[6,6,6,6,6]}' where game_id = 'we' and seq = 0""")
    result = cli.run(*args)
    assert result.exit_code == 1
    assert "we: INVALID at move 1: its browsing columns" in result.stdout


def test_an_option_value_beyond_64_bits_is_a_verdict_for_its_game_and_the_others_still_read(cli):
    sql(cli.db, """update games set options = '{"x": 1000000000000000000000000000000}' where id = 'we'""")
    for args in READERS:
        assert 'option "x" is a whole number of 31 digits' in refused(cli, *args)
    listed = cli.run("list")
    assert listed.exit_code == 0 and "we " in listed.stdout and "ok " in listed.stdout
    result = cli.run("validate", "--all")
    assert result.exit_code == 1
    assert "we: INVALID at move 0" in result.stdout and "ok: valid" in result.stdout  # the header: the set-up


DIGITS = "9" * 5000  # over Python's limit of 4300 digits for reading a whole number from text
BIG_COMPONENTS = '{"a": ' + DIGITS + "}"


def test_a_component_number_over_the_digit_limit_is_bad_input_on_the_command_line(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    result = cli.run("new", "solarius-mission", "-o", "components=x", "-o", f"components_data={BIG_COMPONENTS}")
    assert result.exit_code == 2 and "a number of more than 4300 digits" in result.stderr  # nothing written


def test_a_component_number_over_the_digit_limit_is_bad_input_in_an_import_header(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    header = {"solrec": 1, "game": "solarius-mission", "players": ["Ann", "Bob"], "chance": "seeded", "seed": 1,
              "options": {"components": "x", "components_data": BIG_COMPONENTS}}
    record = tmp_path / "big.jsonl"
    record.write_text(json.dumps(header) + "\n", encoding="utf-8")
    result = cli.run("import", str(record))
    assert result.exit_code == 2 and "line 1: " in result.stderr and "4300 digits" in result.stderr


def test_a_stored_component_number_over_the_digit_limit_is_a_verdict(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solarius-mission", "--id", "g", "--seed", "1")
    conn = sqlite3.connect(cli.db)
    options = json.loads(conn.execute("select options from games where id = 'g'").fetchone()[0])
    conn.close()
    options.update(components="x", components_data=BIG_COMPONENTS)
    sql(cli.db, "update games set options = ? where id = 'g'", params=(json.dumps(options),))
    rechain(cli.db, "g")  # the attacker recomputes the chain: only the header's content is wrong
    assert "4300 digits" in refused(cli, "show", "g")
    result = cli.run("validate", "g")
    assert result.exit_code == 1 and "g: INVALID at move 0" in result.stdout and "4300 digits" in result.stdout


HOSTILE = "w\u202ee\x1b[2J"  # a right-to-left override and a clear-screen: refused at input (ids, names)
SHOWN = [("list",), ("list", "--json"), ("show", HOSTILE), ("show", HOSTILE, "--json"), ("log", HOSTILE),
         ("log", HOSTILE, "--json"), ("validate", HOSTILE), ("validate", "--all", "--json")]


def printable(text: str) -> bool:
    return all(c.isprintable() or c == "\n" for c in text)


@pytest.mark.parametrize("args", SHOWN, ids=[" ".join(a).replace(HOSTILE, "ID") for a in SHOWN])
def test_a_control_or_bidi_character_from_a_stored_file_is_shown_escaped(cli, args):
    """A game id input refuses, stored behind solrec's back (ids are not hashed): every reading
    command shows it escaped, as a refusal does, and --json gives the id itself, as JSON escapes."""
    sql(cli.db, "update events set game_id = ? where game_id = 'we'", params=(HOSTILE,))
    sql(cli.db, "update games set id = ? where id = 'we'", params=(HOSTILE,))
    result = cli.run(*args)
    assert result.exit_code == 0 or args[0] == "validate" and result.exit_code == 1, result.stderr
    assert printable(result.stdout + result.stderr) and "\\u202e" in result.stdout
    if "--json" in args:
        assert HOSTILE in strings(json.loads(result.stdout))


def strings(value) -> set[str]:
    """Every text value in a JSON document."""
    if isinstance(value, str):
        return {value}
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return set().union(*(strings(v) for v in items)) if items else set()


def test_a_stored_player_name_with_a_bidi_override_is_listed_escaped(cli):
    name = "A\u202en\x1b[2Jn"
    sql(cli.db, "update games set players = ? where id = 'we'", params=(json.dumps([name]),))
    result = cli.run("list")
    assert printable(result.stdout) and "A\\u202en\\x1b[2Jn" in result.stdout


def test_a_time_that_is_not_text_is_no_time_for_every_reader(cli):
    """The time is not hashed, and ``validate --all`` does not read it: ``show`` refused a game over
    it that ``validate --all`` found valid (found by the tampering fuzz)."""
    sql(cli.db, "update events set time = x'' where game_id = 'we' and seq = 0")
    assert cli.run("show", "we").exit_code == 0
    assert cli.run("validate", "--all").exit_code == 0
    assert cli.run("validate", "we").exit_code == 0


@pytest.mark.parametrize("stored", ["0", "[1]", '"won"'])
def test_a_recorded_outcome_that_is_not_a_map_is_a_verdict(cli, stored):
    """Found by the tampering fuzz: an outcome column holding JSON 0 made validate --all exit 3."""
    sql(cli.db, "update games set outcome = ? where id = 'we'", params=(stored,))
    result = cli.run("validate", "--all")
    assert result.exit_code == 1, result.stderr
    assert "we: INVALID" in result.stdout and "its recorded outcome is not a map" in result.stdout
    assert "ok: valid" in result.stdout
