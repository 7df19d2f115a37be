"""Properties over random complete games with flights for 2, 3 and 4 players: no figure lost or
duplicated, at most one figure per hex, a flight never ends on another player's figure or ship,
every score line explained, replay equals live play."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.play import initial_state, make_header
from solrec.core.solarius_mission import events as ev
from solrec.core.solarius_mission.state import State
from solrec.events.codec import EventCodec
from solrec.replay.simulate import player_rng, simulate

from .helpers import GAME

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.tuples(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))


def play_out(seed: int, players: int):
    header = make_header(GAME, [f"P{i}" for i in range(players)], {}, "seeded", seed)
    steps, final = simulate(GAME, header, player_rng(seed, 0))
    return header, steps, final


def check_figures(state: State) -> None:
    hexes = [f.hex for f in state.figures]
    assert len(hexes) == len(set(hexes)), "at most one figure per hex"
    dealt = len(state.board.planet_spaces(len(state.players))) if state.placement else 0
    on_mats = sum(len(m.planets_waiting) + len(m.planets_settled) for m in state.mats)
    assert len(state.planets_on_map) + on_mats == dealt, "every planet on the map or on a mat"
    for p, m in zip(state.players, state.mats):
        mine = [f for f in state.figures if f.player == p]
        assert sum(f.kind == "colony" for f in mine) == len(m.planets_waiting) + len(m.planets_settled) <= 12
        assert sum(f.kind == "station" for f in mine) == len(m.stations) <= 4
        assert sum(f.kind == "mission" for f in mine) == len(m.completed) <= 6
        assert sum(f.outpost for f in mine) == len(m.outposts) == len(set(m.outposts)) <= 6
        assert all(state.planet_at(f.hex) is None for f in mine), "a colony takes the planet off its hex"


@SETTINGS
@given(GAMES)
def test_random_games_with_flights_lose_no_figure_and_replay_as_played(game):
    seed, players = game
    header, steps, final = play_out(seed, players)
    codec = EventCodec.for_game(GAME)
    state = initial_state(GAME, header)
    flights = 0
    for step in steps:
        for event in step.events:
            tag, version, payload = codec.encode(event)
            again = codec.decode(tag, version, payload)
            assert again == event
            state = GAME.evolve(state, again)
            if isinstance(event, ev.ShipFlown):
                flights += 1
                end = event.path[-1]
                i = state.index(event.player)
                assert all(s != end for k, s in enumerate(state.ships) if k != i), "no two ships at a flight's end"
                other = state.figure_at(end)
                assert other is None or other.player == event.player
        check_figures(state)
        assert GAME.format(GAME.parse(step.notation, None if "@" not in step.notation else state)) == step.notation
    assert state == final and final.over
    assert flights > 0
    sheet = GAME.score(final)
    for p in final.players:
        lines = [ln for ln in sheet.lines if ln.player == p]
        assert all(ln.rule.startswith('003: "') and ln.what for ln in lines)
        assert sum(ln.points for ln in lines) == sheet.total(p)
