"""Properties over random simulated games: every card exactly once, the emergency flag, replay, codec."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.errors import IllegalCommand
from solrec.core.observe import Viewer
from solrec.core.play import initial_state, make_header
from solrec.core.solar_solitaire.cards import ALL_CARDS, PLACES
from solrec.core.solar_solitaire.commands import Move
from solrec.core.solar_solitaire.piles import free_moves, piles_of
from solrec.core.solar_solitaire.rules import check_move
from solrec.events.codec import EventCodec, converter
from solrec.replay.simulate import simulate

from .helpers import GAME

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game(seed: int, own: str, waste: str = "no"):
    header = make_header(GAME, None, {"own_pad_rocket": own, "waste_takes_free_moves": waste}, "seeded", seed)
    steps, final = simulate(GAME, header, random.Random(seed))
    return header, steps, final


def _states(header, steps):
    state = initial_state(GAME, header)
    yield state
    for step in steps:
        for event in step.events:
            state = GAME.evolve(state, event)
            yield state


@SETTINGS
@given(st.integers(0, 10**9), st.sampled_from(["launched", "redeal"]))
def test_every_one_of_the_40_cards_is_always_somewhere_exactly_once(seed, own):
    header, steps, _ = _game(seed, own)
    for state in _states(header, steps):
        assert sorted(state.all_cards()) == sorted(ALL_CARDS)


@SETTINGS
@given(st.integers(0, 10**9))
def test_the_emergency_rules_hold_exactly_while_a_rocket_lies_in_the_waste_heap(seed):
    header, steps, _ = _game(seed, "launched")
    state = initial_state(GAME, header)
    for step in steps:
        for event in step.events:
            state = GAME.evolve(state, event)
        assert state.emergency == bool(state.stranded)  # after every command


@SETTINGS
@given(st.integers(0, 10**9))
def test_replaying_the_events_gives_the_live_state_and_every_event_survives_the_codec(seed):
    header, steps, final = _game(seed, "launched")
    codec = EventCodec.for_game(GAME)
    events = [e for s in steps for e in s.events]
    for event in events:
        assert codec.decode(*codec.encode(event)) == event
        assert converter.structure(converter.unstructure(event), type(event)) == event
    state = initial_state(GAME, header)
    for event in events:
        state = GAME.evolve(state, event)
    assert state == final and final.over


@SETTINGS
@given(st.integers(0, 10**9))
def test_every_command_reads_back_from_its_notation(seed):
    header, steps, _ = _game(seed, "launched")
    for step in steps:
        assert GAME.parse(GAME.format(step.command)) == step.command
        assert GAME.format(step.command) == step.notation


@SETTINGS
@given(st.integers(0, 10**9), st.integers(0, 10**6), st.sampled_from(["no", "yes"]))
def test_the_solvers_free_moves_are_exactly_the_moves_the_rules_allow(seed, pick, waste):
    header, steps, _ = _game(seed, "launched", waste)
    states = [s for s in _states(header, steps) if s.dealt and s.emergency and not s.choice and not s.over]
    if not states:
        return
    state = states[pick % len(states)]
    allowed = set()
    for a in PLACES:
        for b in PLACES:
            try:
                check_move(state, a, b)
                allowed.add(Move(a, b))
            except IllegalCommand:
                pass
    moves = {Move(PLACES[s], PLACES[d]) for s, d in free_moves(piles_of(state), waste == "yes")}
    assert moves == allowed


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_show_hides_the_stock_order_and_reveal_shows_it(seed):
    from solrec.core.play import advance_chance
    from solrec.events.codec import to_plain

    header = make_header(GAME, None, {}, "seeded", seed)
    _, state, _ = advance_chance(GAME, header, initial_state(GAME, header), 0)
    public = GAME.observation.state(state, to_plain(state), Viewer.table())
    assert "stock" not in public and public["stock_count"] == 36
    order = " ".join(state.stock)
    assert order not in GAME.render(state) and "36 card(s) face down" in GAME.render(state)
    assert order in GAME.render(state, Viewer.referee())
