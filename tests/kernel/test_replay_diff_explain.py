"""Replay to any position, diff two logs, explain a score at any position."""

from __future__ import annotations

import pytest

from solrec.core import InvalidSetup
from solrec.replay.diff import diff, format_diff
from solrec.replay.explain import explain, format_explanation
from solrec.replay.log import load, state_at

from ..conftest import FIXTURES

WORKED = (FIXTURES / "solo-dice" / "worked-example.jsonl").read_text()


def store_record(store, text, game_id):
    from solrec.workflows.games import import_text

    import_text(store, text, game_id)
    return load(store, game_id)


def test_replay_to_any_position(store):
    log = store_record(store, WORKED, "a")
    assert state_at(log, 0).rolls == 0
    assert state_at(log, 1).roll == (6, 1, 5, 5, 5)
    assert state_at(log, 2).marks_of(7) == 1
    with pytest.raises(InvalidSetup, match="position 99 is outside the log"):
        state_at(log, 99)


def test_explain_at_a_position_cites_every_line(store):
    log = store_record(store, WORKED, "a")
    data = explain(log, 2)
    assert data["scores"] == {"Ann": -400}
    assert all(line["rule"].startswith("004:") for line in data["lines"])
    assert "total Ann: -400" in format_explanation(data)


def test_identical_logs_have_no_difference(store):
    a, b = store_record(store, WORKED, "a"), store_record(store, WORKED, "b")
    d = diff(a, b)
    assert d["identical"] and d["position"] is None


def test_diff_finds_the_first_differing_event_and_compares_states_and_scores(store):
    changed = WORKED.replace('"command": "6+1 6+1 1"', '"command": "6+6 1+1 1"')
    a, b = store_record(store, WORKED, "a"), store_record(store, changed, "b")
    d = diff(a, b)
    assert d["position"] == 6  # the event leading to position 6 differs
    assert d["commands"]["a"]["command"] == "6+1 6+1 1" and d["commands"]["b"]["command"] == "6+6 1+1 1"
    paths = {s["path"] for s in d["state"]}
    assert {"marks[5]", "marks[0]", "marks[10]"} <= paths  # sums 7, 2 and 12
    assert {"path": "scores.Ann", "a": -400, "b": -800} in d["score"]
    text = format_diff(d)
    assert "the logs first differ at move 6; they agree up to move 5" in text and "paired 6+1 and 6+1" in text


def test_diff_of_a_log_and_its_prefix(store):
    lines = WORKED.splitlines()
    a, b = store_record(store, WORKED, "a"), store_record(store, "\n".join(lines[:5]), "b")
    d = diff(a, b)
    assert d["position"] == 5 and d["events"]["b"] is None
