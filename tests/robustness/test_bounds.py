"""A stored number far outside its game is damage, refused on reading back (issue 8): it never
reaches ``evolve``, where a count of 2**40 would build a tuple of 2**40 items."""

from __future__ import annotations

import pytest

from solrec.core.errors import CorruptLog
from solrec.core.registry import get_game
from solrec.events.codec import pack

from .helpers import codec


@pytest.mark.parametrize("count", [2**40, -(2**40)])
def test_a_solarius_mission_count_far_outside_the_game_is_a_stored_data_problem(count):
    with pytest.raises(CorruptLog, match="far outside the game"):
        codec("solarius-mission").decode("sm-drives-bought", 1, pack({"player": "Ann", "count": count}))


def test_every_solarius_mission_event_type_checks_its_bounds():
    for event_type in get_game("solarius-mission").event_types:
        assert "check" in vars(event_type), event_type.TYPE
