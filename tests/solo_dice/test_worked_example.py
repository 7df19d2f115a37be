"""The worked example of 004, replayed step by step from fixtures/solo-dice/worked-example.jsonl,
with the explained score sheet pinned at figures 4, 5, 6 and 8 (the signed values: -400, -400,
-420, -150; the text lost its minus signs, see shared/rules/README.md)."""

from __future__ import annotations

import json

import pytest

from solrec.core import fold, initial_state
from solrec.core.registry import get_game
from solrec.events.record import decide_record

from ..conftest import FIXTURES

PATH = FIXTURES / "solo-dice" / "worked-example.jsonl"
GAME = get_game("solo-dice")


def states_by_figure():
    """The state after each command that carries a figure note."""
    header, steps, _, _ = decide_record(PATH.read_text())
    notes = [json.loads(line).get("note") for line in PATH.read_text().splitlines()[1:]]
    state = initial_state(GAME, header)
    out = {}
    for step, note in zip(steps, notes):
        state = fold(GAME, state, step.events)
        if note:
            out[note.split(":")[0]] = state
    return out


FIGURES = states_by_figure()


@pytest.mark.parametrize("figure,expected", [("fig. 4", -400), ("fig. 5", -400), ("fig. 6", -420), ("fig. 8", -150)])
def test_worked_example_totals(figure, expected):
    assert GAME.score(FIGURES[figure]).total("Ann") == expected


@pytest.mark.parametrize("figure", ["fig. 4", "fig. 5", "fig. 6", "fig. 8"])
def test_worked_example_explained_score_sheet(figure, snapshot):
    sheet = GAME.score(FIGURES[figure])
    assert snapshot == [f"{line.points:+d}  {line.what}  [{line.rule}]" for line in sheet.lines] + [
        f"total {sheet.total('Ann')}"
    ]


def test_fig_6_five_sums_and_three_leftover_numbers_open():
    state = FIGURES["fig. 6"]
    assert [t for t in range(2, 13) if state.marks_of(t)] == [7, 8, 9, 10, 12]
    assert state.marks_of(7) == 7 and state.marks_of(10) == 7
    assert sorted(state.opened) == [1, 3, 5]


def test_fig_7_only_the_3_can_be_left_out_so_8_and_10_must_be_played():
    state = FIGURES["fig. 7"]
    legal = GAME.legal_commands(state)
    assert {c.leftover for c in legal} == {3}
    assert {tuple(sorted(c.sums)) for c in legal} == {(8, 10)}


def test_fig_8_the_eighth_3_ends_the_game():
    state = FIGURES["fig. 8"]
    assert state.ended_by == 3 and GAME.to_act(state) is None
    assert state.marks_of(7) == 10 and state.marks_of(10) == 10
