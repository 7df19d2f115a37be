"""Properties over random games in every mode: the marble count is conserved, counts never go
negative, a jump removes exactly one marble, the phases come in order, replay equals live play, and
everything survives the codec."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solrec.core.errors import IllegalCommand
from solrec.core.game import CHANCE
from solrec.core.play import initial_state, make_header
from solrec.core.soli2 import board as B
from solrec.core.soli2.commands import Jump, Place
from solrec.core.soli2.events import Ended, Jumped, Passed, Placed
from solrec.core.soli2.rules import has_jump
from solrec.core.soli2.state import DUEL, PHASES, State
from solrec.events.codec import EventCodec, converter
from solrec.events.record import decide_record
from solrec.replay.simulate import simulate

from .conftest import GAME

MODES = [
    {"mode": "duel"},
    {"mode": "duel", "objective": "give-away"},
    {"mode": "duel", "fill": "pure-skill"},
    {"mode": "duel", "fill": "pure-skill", "objective": "give-away"},
    {"mode": "classic-solitaire"},
    {"mode": "soli2-solitaire"},
]
mode_ids = ["duel", "give-away", "pure-skill", "pure-skill-give-away", "classic", "soli2-solitaire"]


def random_game(options: dict, seed: int):
    header = make_header(GAME, None, options, "seeded", seed)
    steps, state = simulate(GAME, header, random.Random(seed))
    return header, steps, state


def marbles_accounted(state: State) -> int:
    flat = state.flat
    on_board = len(flat) - flat.count(B.EMPTY)
    in_hand = 1 if state.hand is not None else 0
    channels = sum(sum(c) for c in state.channels)
    return on_board + sum(state.removed) + sum(state.pouch) + in_hand + channels


game_seeds = st.integers(min_value=0, max_value=2**40)


@pytest.mark.parametrize("options", MODES, ids=mode_ids)
@settings(max_examples=25, deadline=None)
@given(seed=game_seeds)
def test_invariants_hold_after_every_event(options, seed):
    header, steps, final = random_game(options, seed)
    state = initial_state(GAME, header)
    phases = [state.phase]
    for step in steps:
        for event in step.events:
            before = state
            state = GAME.evolve(state, event)
            # 48 marbles, wherever they are; none of the counts ever below zero
            assert marbles_accounted(state) == 48
            assert min(state.pouch) >= 0 and min(state.removed) >= 0
            assert all(min(c) >= 0 for c in state.channels)
            if state.phase != "filling":
                flat = state.flat
                assert len(flat) - flat.count(B.EMPTY) + sum(state.removed) == 48
            if isinstance(event, Jumped):
                # a jump always removes exactly one marble, the one jumped over
                assert sum(state.removed) == sum(before.removed) + 1
                assert state.flat.count(B.EMPTY) == before.flat.count(B.EMPTY) + 1
                assert before.at(event.over) == event.removed
                if before.mode == DUEL:
                    assert event.color == before.color_of(before.turn)
                elif before.mode == "soli2-solitaire":
                    assert event.removed != event.color
            if isinstance(event, Passed):
                assert not has_jump(before.flat, DUEL, event.color)
            if isinstance(event, Placed):
                assert before.phase == "filling"
            if state.phase != phases[-1]:
                phases.append(state.phase)
    # the phase order: filling, jumping, over (classic solitaire starts with the jumping)
    expected = ["jumping", "over"] if options["mode"] == "classic-solitaire" else ["filling", "jumping", "over"]
    assert phases == expected
    assert [PHASES.index(p) for p in phases] == sorted(PHASES.index(p) for p in phases)
    assert state == final
    assert GAME.to_act(final) is None and GAME.legal_commands(final) == ()
    assert isinstance(steps[-1].events[-1], Ended)
    if options["mode"] != "classic-solitaire":
        assert sum(isinstance(e, Placed) for s in steps for e in s.events) == 48


@pytest.mark.parametrize("options", MODES, ids=mode_ids)
@settings(max_examples=10, deadline=None)
@given(seed=game_seeds)
def test_a_recorded_game_replays_to_the_live_state(options, seed):
    header, steps, final = random_game(options, seed)
    lines = [json.dumps({"solrec": 1, **header.as_dict()})]
    lines += [json.dumps({"actor": s.actor, "command": s.notation}) for s in steps]
    _, replayed, state, _ = decide_record("\n".join(lines))
    assert state == final
    assert [s.events for s in replayed] == [s.events for s in steps]


@pytest.mark.parametrize("options", MODES, ids=mode_ids)
@settings(max_examples=10, deadline=None)
@given(seed=game_seeds)
def test_events_commands_and_states_survive_the_codec(options, seed):
    _, steps, final = random_game(options, seed)
    codec = EventCodec.for_game(GAME)
    for step in steps:
        assert GAME.parse(GAME.format(step.command)) == step.command
        for event in step.events:
            assert codec.decode(*codec.encode(event)) == event
            assert converter.structure(converter.unstructure(event), type(event)) == event
    assert converter.structure(converter.unstructure(final), State) == final


@pytest.mark.parametrize("options", MODES, ids=mode_ids)
@settings(max_examples=8, deadline=None)
@given(seed=game_seeds, probe_seed=st.integers(min_value=0, max_value=2**32))
def test_the_legal_commands_are_exactly_those_decide_accepts(options, seed, probe_seed):
    probe = random.Random(probe_seed)
    header, steps, _ = random_game(options, seed)
    state = initial_state(GAME, header)
    for step in steps:
        legal = GAME.legal_commands(state)
        if GAME.to_act(state) != CHANCE:
            assert step.command in legal
            for command in legal:
                GAME.decide(state, command)  # never refused
            for _ in range(6):
                start, end = probe.choice(B.SQUARES), probe.choice(B.SQUARES)
                candidate = probe.choice([Jump(start, end), Place(end), Place(end, probe.choice(B.COLORS))])
                try:
                    GAME.decide(state, candidate)
                except IllegalCommand:
                    assert candidate not in legal
                else:
                    assert candidate in legal
        for event in step.events:
            state = GAME.evolve(state, event)
