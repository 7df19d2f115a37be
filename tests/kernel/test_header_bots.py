"""A header's bot seats (``Header.bots``, issue 33): recorded and hash-chained, stored in the optional
``header_bots`` table, exported on a record's line 1, checked by ``validate``; absent (not empty) from
everything a game without bots records, so such a game is byte for byte what it was."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from solrec.core.errors import InvalidSetup
from solrec.core.play import SEEDED, make_header
from solrec.core.registry import get_game
from solrec.events import codec_for, genesis_hash
from solrec.events.record import InvalidRecord, decide_record, export_lines, read_header
from solrec.events.store import Store
from solrec.replay.log import load
from solrec.replay.simulate import simulate
from solrec.replay.validate import validate_stored
from solrec.workflows.games import simulate_games

from .test_simulate_batches import recorded

BOTS = {"Bob": "mcts:simulations=200", "Ann": "greedy"}


def _bot_game(store: Store, seed: int = 3) -> str:
    game = get_game("soli2")
    header = make_header(game, ["Ann", "Bob"], {}, SEEDED, seed, bots=BOTS)
    steps, state = simulate(game, header, random.Random(seed))
    outcome = game.outcome(state)
    store.create_game(None, header, codec_for(game), steps, dict(game.score(state).totals),
                      outcome.as_dict() if outcome else None)
    assert store.last_created is not None
    return store.last_created


def test_the_bots_are_recorded_in_the_players_order_and_hashed(store):
    game = get_game("soli2")
    header = make_header(game, ["Ann", "Bob"], {}, SEEDED, 3, bots=BOTS)
    assert header.bots == (("Ann", "greedy"), ("Bob", "mcts:simulations=200"))
    assert header.recorded_dict()["bots"] == {"Ann": "greedy", "Bob": "mcts:simulations=200"}
    plain = make_header(game, ["Ann", "Bob"], {}, SEEDED, 3)
    assert "bots" not in plain.recorded_dict() and genesis_hash(header) != genesis_hash(plain)
    assert make_header(game, ["Ann", "Bob"], {}, SEEDED, 3, bots={}) == plain
    for bad in ({"Eve": "greedy"}, {"Ann": ""}, {"Ann": "greedy\n"}, {"Ann": "x" * 201}):
        with pytest.raises(InvalidSetup):
            make_header(game, ["Ann", "Bob"], {}, SEEDED, 3, bots=bad)
    gid = _bot_game(store)
    assert load(store, gid).header.bots == header.bots and validate_stored(store, gid).ok


def test_a_bot_game_round_trips_through_export_and_import(tmp_path):
    a, b = Store(tmp_path / "a.db"), Store(tmp_path / "b.db")
    gid = _bot_game(a)
    log = load(a, gid)
    text = "\n".join(export_lines(gid, log.header, log.rows, with_events=True))
    first = json.loads(text.splitlines()[0])
    assert first["bots"] == {"Ann": "greedy", "Bob": "mcts:simulations=200"}
    header, steps, _, _ = decide_record(text)
    assert header == log.header
    b.create_game(gid, header, codec_for(get_game("soli2")), steps)
    again = load(b, gid)
    assert again.header.bots == log.header.bots and again.rows[-1].hash == log.rows[-1].hash
    assert "\n".join(export_lines(gid, again.header, again.rows, with_events=True)) == text
    for bad in ({"Ann": 1}, [], {}, {"Eve": "greedy"}):
        with pytest.raises(InvalidRecord):
            read_header({**first, "bots": bad})
    a.close(), b.close()


def test_validate_finds_a_bot_seat_edited_or_dropped(tmp_path):
    for edit in ("update header_bots set bot = 'random' where player = 'Bob'",
                 "delete from header_bots where player = 'Bob'",
                 "update header_bots set player = 'Eve' where player = 'Bob'"):
        path = tmp_path / f"{len(edit)}.db"
        store = Store(path)
        gid = _bot_game(store)
        assert validate_stored(store, gid).ok
        store.close()
        conn = sqlite3.connect(path)
        conn.execute(edit)
        conn.commit()
        conn.close()
        store = Store(path)
        verdict = validate_stored(store, gid)
        assert not verdict.ok, edit
        store.close()


def test_a_game_without_bots_is_recorded_byte_for_byte_as_before(tmp_path):
    """The pinned digest of ``test_simulate_batches`` (issue 32's), and no ``header_bots`` table."""
    path = tmp_path / "soli2.db"
    store = Store(path)
    simulate_games(store, "soli2", 10, 7, ["Black", "White"], {}, batch_games=64)
    store.close()
    assert recorded(path) == "482484193b88937693f117d8d74aeeb75ba242f1dbfa2eacd47e49b07afb0f6b"
    conn = sqlite3.connect(path)
    assert not conn.execute("select 1 from sqlite_master where name = 'header_bots'").fetchall()
    conn.close()


def test_deleting_or_renaming_a_game_takes_its_bot_seats_along(store):
    gid = _bot_game(store)
    store.rename_game(gid, "duel")
    assert load(store, "duel").header.bots == (("Ann", "greedy"), ("Bob", "mcts:simulations=200"))
    store.delete_game("duel")
    assert not store.query("select * from header_bots")
