"""Validate: the hash chain, the re-decided commands, the recomputed score. Tampering is caught."""

from __future__ import annotations

import random

import pytest

from solrec.core import make_header
from solrec.core.registry import get_game
from solrec.events import codec_for, pack
from solrec.replay.simulate import simulate
from solrec.replay.validate import validate_stored

GAME = get_game("solo-dice")


@pytest.fixture
def recorded(store):
    header = make_header(GAME, ["Ann"], chance="seeded", seed=11)
    steps, state = simulate(GAME, header, random.Random(1))
    sheet, outcome = GAME.score(state), GAME.outcome(state)
    store.create_game("g", header, codec_for(GAME), steps, dict(sheet.totals), outcome.as_dict())
    return store


def verdict(store):
    return validate_stored(store, "g")


def test_an_untouched_game_is_valid(recorded):
    v = verdict(recorded)
    assert v.ok and v.reason is None and v.events == len(recorded.rows("g"))


def test_an_edited_event_is_caught(recorded):
    recorded.db.conn.execute("update events set payload = ? where game_id = 'g' and seq = 5",
                             [pack({"dice": [6, 6, 6, 6, 6]})])
    v = verdict(recorded)
    assert not v.ok and v.position == 6 and "does not match its hash" in v.reason  # the event leading to position 6


def test_an_edited_command_is_caught(recorded):
    recorded.db.conn.execute("update events set command = 'roll 6 6 6 6 6' where game_id = 'g' and seq = 2")
    v = verdict(recorded)
    assert not v.ok and v.position == 3


def test_a_dropped_event_is_caught(recorded):
    recorded.db.conn.execute("delete from events where game_id = 'g' and seq = 3")
    v = verdict(recorded)
    assert not v.ok and v.position == 4 and "its event is missing" in v.reason


def test_a_dropped_last_event_is_caught(recorded):
    last = len(recorded.rows("g")) - 1
    recorded.db.conn.execute("delete from events where game_id = 'g' and seq = ?", [last])
    v = verdict(recorded)
    assert not v.ok and "records" in v.reason


def test_reordered_events_are_caught(recorded):
    conn = recorded.db.conn
    conn.execute("update events set seq = -1 where game_id = 'g' and seq = 2")
    conn.execute("update events set seq = 2 where game_id = 'g' and seq = 4")
    conn.execute("update events set seq = 4 where game_id = 'g' and seq = -1")
    v = verdict(recorded)
    assert not v.ok and v.position == 3


def test_an_edited_header_is_caught(recorded):
    recorded.db.conn.execute("update games set seed = 12 where id = 'g'")
    assert not verdict(recorded).ok


def test_a_tampered_recorded_score_is_caught(recorded):
    recorded.db.conn.execute("""update games set scores = '{"Ann": 999}' where id = 'g'""")
    v = verdict(recorded)
    assert not v.ok and "recorded score" in v.reason


def test_a_truncated_payload_is_caught(recorded):
    recorded.db.conn.execute("update events set payload = substr(payload, 1, 3) where game_id = 'g' and seq = 1")
    v = verdict(recorded)
    assert not v.ok and v.position == 2


def test_a_rule_change_shows_which_games_it_affects(recorded, monkeypatch):
    # Suppose a new rules version let the game end at the 7th leftover mark instead of the 8th.
    from solrec.core.solo_dice import state as state_module

    monkeypatch.setattr(state_module, "ENDING_MARK", 7)
    monkeypatch.setattr(type(GAME), "rules_version", "2")
    v = verdict(recorded)
    assert not v.ok
    assert (v.rules_recorded, v.rules_current) == ("1", "2")
    assert "validated under current 2" in v.line()
