"""Playthrough regression, after OpenSpiel: every recorded game in fixtures/ is both the input and,
through its pinned snapshot, the expected output. A registered game without a fixture fails."""

from __future__ import annotations

import pytest

from solrec.core.observe import Viewer
from solrec.core.registry import games
from solrec.events.codec import to_plain
from solrec.events.record import decide_record

from .conftest import FIXTURES

FIXTURE_FILES = sorted(FIXTURES.glob("*/*.jsonl"))


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_registered_game_has_a_recorded_fixture(game_id):
    assert list((FIXTURES / game_id).glob("*.jsonl")), f"fixtures/{game_id}/ holds no recorded game"


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FIXTURE_FILES])
def test_fixture_replays_to_its_pinned_final_state_and_score_sheet(path, snapshot):
    header, steps, state, _ = decide_record(path.read_text(encoding="utf-8"))
    game = games()[header.game]
    sheet = game.score(state)
    outcome = game.outcome(state)
    assert snapshot == {
        "commands": len(steps),
        "events": sum(len(s.events) for s in steps),
        "board": game.render(state, Viewer.referee()).splitlines(),
        "state": to_plain(state),
        "score_sheet": sheet.as_dict(),
        "outcome": outcome.as_dict() if outcome else None,
    }
