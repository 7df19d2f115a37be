"""The JSON Lines record format: export, import, and import refusing bad lines with nothing left behind."""

from __future__ import annotations

import json

import pytest

from solrec.events.record import InvalidRecord, decide_record, export_lines
from solrec.replay.log import load
from solrec.workflows.games import import_text

from ..conftest import FIXTURES

WORKED = (FIXTURES / "solo-dice" / "worked-example.jsonl").read_text()
HEADER = '{"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "entered"}'


def test_the_header_line_of_the_issue_is_accepted_as_written():
    header, steps, _, _ = decide_record(HEADER + '\n{"actor": "chance", "command": "roll 6 1 5 5 5"}\n')
    assert header.chance == "entered" and header.players == ("Ann",) and len(steps) == 1


def test_export_then_import_reproduces_events_and_hashes(store):
    import_text(store, WORKED, "a")
    exported = "\n".join(export_lines("a", store.header("a"), store.rows("a"), with_events=True))
    import_text(store, exported, "b")
    strip = lambda rows: [(r.seq, r.step, r.actor, r.command, r.type, r.version, r.payload, r.hash) for r in rows]  # noqa: E731
    assert strip(store.rows("a")) == strip(store.rows("b"))


def test_export_lines_carry_actor_and_command(store):
    import_text(store, WORKED, "a")
    lines = [json.loads(x) for x in export_lines("a", store.header("a"), store.rows("a"))]
    assert lines[0] == {"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "entered",
                        "options": {}, "rules": "1", "id": "a"}
    assert lines[1] == {"actor": "chance", "command": "roll 6 1 5 5 5"}
    assert lines[2] == {"actor": "Ann", "command": "6+1 5+5 5"}


def test_a_seeded_record_may_leave_out_chance_lines(store):
    text = '{"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "seeded", "seed": 7}\n'
    text += '{"actor": "Ann", "command": "5+5 1+1 3"}\n'
    header, steps, state, _ = decide_record(text)
    assert [s.actor for s in steps] == ["chance", "Ann", "chance"]
    assert steps[0].notation == "roll 5 1 1 5 3"


@pytest.mark.parametrize(
    "body,reason",
    [
        ('{"actor": "chance", "command": "roll 6 1 5 5 5"}\n{"actor": "Ann", "command": "6+1 5+5 4"}',
         'line 3: Ann "6+1 5+5 4": the two pairs and the leftover must be exactly the five dice rolled'),
        ('{"actor": "Ann", "command": "roll 6 1 5 5 5"}', 'line 2: Ann "roll 6 1 5 5 5": chance acts now, not Ann'),
        ('{"actor": "chance", "command": "roll 6 1 5"}', 'line 2: chance "roll 6 1 5": "roll 6 1 5": a roll is five dice'),
        ('not json', "line 2: not JSON"),
        ('{"actor": "chance"}', 'line 2: a command line needs "actor" and "command" strings'),
        ('{"actor": "chance", "command": "roll 1 2 3 4 5", "colour": 1}', 'line 2: unknown field "colour"'),
    ],
)
def test_a_bad_line_stops_the_import_with_its_number_and_reason(store, body, reason):
    with pytest.raises(InvalidRecord) as err:
        import_text(store, HEADER + "\n" + body + "\n", "x")
    assert str(err.value).startswith(reason)
    assert not store.has_game("x")


@pytest.mark.parametrize(
    "header,reason",
    [
        ('{"game": "solo-dice", "players": ["Ann"], "chance": "entered"}', 'line 1: not a solrec record'),
        ('{"solrec": 1, "game": "chess", "players": ["Ann"], "chance": "entered"}', 'line 1: unknown game "chess"'),
        ('{"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "entered", "options": {"x": 1}}',
         'line 1: unknown option "x"'),
        ('{"solrec": 1, "game": "solo-dice", "players": "Ann", "chance": "entered"}', 'line 1: "players" is a list'),
    ],
)
def test_a_bad_header_is_refused(header, reason):
    with pytest.raises(InvalidRecord) as err:
        decide_record(header + "\n")
    assert str(err.value).startswith(reason)


def test_recorded_events_that_the_rules_no_longer_produce_are_refused(store):
    import_text(store, WORKED, "a")
    lines = list(export_lines("a", store.header("a"), store.rows("a"), with_events=True))
    second = json.loads(lines[2])
    second["events"][0]["data"]["leftover"] = 6
    lines[2] = json.dumps(second)
    with pytest.raises(InvalidRecord, match='line 3: "6\\+1 5\\+5 5" yields'):
        import_text(store, "\n".join(lines), "b")
    assert not store.has_game("b")


def test_recorded_hashes_are_verified(store):
    import_text(store, WORKED, "a")
    lines = list(export_lines("a", store.header("a"), store.rows("a"), with_events=True))
    third = json.loads(lines[3])
    third["hashes"] = ["00" * 32]
    lines[3] = json.dumps(third)
    with pytest.raises(InvalidRecord, match="line 4: the hashes do not match"):
        import_text(store, "\n".join(lines), "b")


def test_import_keeps_the_recorded_rules_version(store):
    text = HEADER[:-1] + ', "rules": "0"}\n{"actor": "chance", "command": "roll 6 1 5 5 5"}\n'
    import_text(store, text, "old")
    assert load(store, "old").header.rules == "0"
