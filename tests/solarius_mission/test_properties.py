"""Properties over random complete games for 2, 3 and 4 players: nothing created or lost, caps hold,
replay equals live play, every end-score line explained."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.play import initial_state, make_header
from solrec.core.solarius_mission.state import State, contamination_spaces, open_cells
from solrec.events.codec import EventCodec
from solrec.replay.simulate import simulate

from .helpers import GAME

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.tuples(st.integers(0, 10**9), st.sampled_from([2, 3, 4]), st.sampled_from(["cards", "choose"]))


def play_out(seed: int, players: int, start: str):
    header = make_header(GAME, [f"P{i}" for i in range(players)], {"start": start}, "seeded", seed)
    steps, final = simulate(GAME, header, random.Random(seed))
    return header, steps, final


def states(header, steps):
    state = initial_state(GAME, header)
    yield state
    for step in steps:
        for event in step.events:
            state = GAME.evolve(state, event)
        yield state


def check_conservation(state: State, players: int) -> None:
    cset = state.cset
    n = cset.number
    # resource cubes, contamination cubes and common drives: on mats or in the pool
    assert state.resource_pool + sum(m.resources for m in state.mats) == n("mat.storage.resource_pool")
    assert state.contamination_pool + sum(m.contamination + m.beside for m in state.mats) == n("mat.contamination.cube_pool")
    assert state.drive_pool + sum(len(m.drives) for m in state.mats) == n("mat.drives.pool")
    # action dice: bag, bridge, set-up roll or a mat
    dice = sum(state.bag) + sum(len(s) for s in state.bridge) + len(state.setup_dice) + sum(len(m.dice) for m in state.mats)
    assert dice == 4 * (n("dice.action_dice.per_colour") - n("dice.bag.removed_per_colour")[players])
    # progress cards: deck, discard pile, hands, played
    cards = [*state.deck, *state.discard]
    for m in state.mats:
        cards += [*m.hand, *m.missions, *m.completed, *m.developments]
    assert sorted(cards) == sorted(cset.progress_cards)


def check_caps(state: State) -> None:
    for m in state.mats:
        assert 0 <= m.fuel <= 10 and 0 <= m.bucks <= 10
        assert 0 <= m.contamination <= contamination_spaces(state, m) and m.beside >= 0
        assert all(1 <= k <= 5 for k in m.columns) and all(0 <= t <= 5 for t in m.tech)
        assert len(m.drives) <= 3 and len(m.missions) + len(m.completed) <= 6
        for colour, row in zip(("black", "yellow", "turquoise", "brown"), m.storage):
            cells = open_cells(state, m, colour)
            assert all(0 <= k <= cap for k, cap in zip(row, cells))
            # the pyramid binds placing only: 003 7.0 "he may remove a resource from column I in a completely filled row"


@SETTINGS
@given(GAMES)
def test_no_resource_die_card_or_cube_is_created_or_lost_and_the_caps_hold(game):
    seed, players, start = game
    header, steps, _ = play_out(seed, players, start)
    for state in states(header, steps):
        check_conservation(state, players)
        check_caps(state)


@SETTINGS
@given(GAMES)
def test_replaying_the_events_gives_the_live_state_and_every_event_survives_the_codec(game):
    header, steps, final = play_out(*game)
    codec = EventCodec.for_game(GAME)
    state = initial_state(GAME, header)
    for step in steps:
        for event in step.events:
            tag, version, payload = codec.encode(event)
            again = codec.decode(tag, version, payload)
            assert again == event
            state = GAME.evolve(state, again)
        assert GAME.format(GAME.parse(step.notation, None if "@" not in step.notation else state)) == step.notation
    assert state == final


@SETTINGS
@given(GAMES)
def test_a_complete_game_lasts_four_game_turns_and_every_score_line_cites_its_sentence(game):
    seed, players, _ = game
    _, steps, final = play_out(*game)
    assert final.over and final.turn == 4 and len(final.hubs_built) == 4
    sheet = GAME.score(final)
    for p in final.players:
        lines = [ln for ln in sheet.lines if ln.player == p]
        assert len(lines) >= 13 and all(ln.rule.startswith('003: "') and ln.what for ln in lines)
        assert sum(ln.points for ln in lines) == sheet.total(p)
    takes = sum(1 for s in steps if s.notation.startswith("take "))
    assert takes == 4 * 4 * players
    assert GAME.outcome(final) is not None
