"""Hypothesis over random legal Solo Dice games, seeded and entered."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core import CHANCE, fold, initial_state, make_header, play
from solrec.core.solo_dice.commands import Roll
from solrec.events import Store, codec_for
from solrec.events.record import export_lines
from solrec.replay.log import load, state_at
from solrec.replay.simulate import simulate
from solrec.replay.validate import validate
from solrec.workflows.games import import_text

from .helpers import GAME

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def entered_game(data):
    """A whole entered game: hypothesis types the dice, a random player chooses."""
    header = make_header(GAME, ["Ann"], chance="entered")
    state, position, steps = initial_state(GAME, header), 0, []
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    while (actor := GAME.to_act(state)) is not None:
        if actor == CHANCE:
            command = Roll(tuple(data.draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))))
        else:
            command = GAME.sample_command(state, rng)
        new, state, position = play(GAME, header, state, position, actor, command)
        steps.extend(new)
    return header, steps, state


def seeded_game(seed, choices):
    header = make_header(GAME, ["Ann"], chance="seeded", seed=seed)
    steps, state = simulate(GAME, header, random.Random(choices))
    return header, steps, state


def record(store, game_id, header, steps, state):
    outcome = GAME.outcome(state)
    store.create_game(game_id, header, codec_for(GAME), steps, dict(GAME.score(state).totals),
                      outcome.as_dict() if outcome else None)


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
def test_seeded_games_round_trip_through_store_export_and_import(tmp_path_factory, seed, choices):
    store = Store(tmp_path_factory.mktemp("db") / "s.db")
    header, steps, state = seeded_game(seed, choices)
    record(store, "a", header, steps, state)
    assert validate(load(store, "a")).ok
    text = "\n".join(export_lines("a", store.header("a"), store.rows("a"), with_events=True))
    import_text(store, text, "b")
    assert [r.hash for r in store.rows("a")] == [r.hash for r in store.rows("b")]
    assert state_at(load(store, "b")) == state


@SETTINGS
@given(data=st.data())
def test_entered_games_round_trip_through_store_export_and_import(tmp_path_factory, data):
    store = Store(tmp_path_factory.mktemp("db") / "e.db")
    header, steps, state = entered_game(data)
    record(store, "a", header, steps, state)
    assert validate(load(store, "a")).ok
    import_text(store, "\n".join(export_lines("a", store.header("a"), store.rows("a"))), "b")
    assert [r.hash for r in store.rows("a")] == [r.hash for r in store.rows("b")]


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
def test_the_state_built_move_by_move_equals_the_full_replay(seed, choices):
    header, steps, live = seeded_game(seed, choices)
    replayed = fold(GAME, initial_state(GAME, header), [e for s in steps for e in s.events])
    assert replayed == live
    codec = codec_for(GAME)
    decoded = [codec.decode(*codec.encode(e)) for s in steps for e in s.events]
    assert fold(GAME, initial_state(GAME, header), decoded) == live


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
def test_same_seed_and_choices_give_identical_logs(seed, choices):
    assert seeded_game(seed, choices)[1] == seeded_game(seed, choices)[1]


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
def test_every_finished_game_ends_on_an_eighth_leftover_mark(seed, choices):
    _, _, state = seeded_game(seed, choices)
    assert state.leftover_marks_of(state.ended_by) == 8
    assert len(state.opened) <= 3
    assert sum(state.marks) == 2 * state.rolls


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
def test_legal_commands_are_exactly_the_selections_decide_accepts(seed, choices):
    from itertools import permutations

    from solrec.core import IllegalCommand
    from solrec.core.solo_dice.commands import Choose

    header, steps, _ = seeded_game(seed, choices)
    state = initial_state(GAME, header)
    for step in steps[:12]:
        if GAME.to_act(state) == "Ann":
            legal = set(GAME.legal_commands(state))
            for dice in set(permutations(state.roll)):
                command = Choose(dice[:2], dice[2:4], dice[4])
                try:
                    GAME.decide(state, command)
                    accepted = True
                except IllegalCommand:
                    accepted = False
                canonical = any(
                    c.leftover == command.leftover
                    and sorted([tuple(sorted(c.first)), tuple(sorted(c.second))])
                    == sorted([tuple(sorted(command.first)), tuple(sorted(command.second))])
                    for c in legal
                )
                assert accepted == canonical
        state = fold(GAME, state, step.events)
