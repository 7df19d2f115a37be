"""Random games in many option combinations: pieces are never lost or duplicated, every score line is
explained, replay equals live play, and every event survives the codec."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.errors import IllegalCommand
from solrec.core.observe import Viewer
from solrec.core.play import decide_as, fold, initial_state, make_header
from solrec.core.solari.board import FACINGS, MARGIN
from solrec.core.solari.commands import Place, Step
from solrec.core.solari.state import MUTATORS
from solrec.events.codec import EventCodec, to_plain
from solrec.replay.simulate import simulate

from .helpers import GAME, PLAYERS


@st.composite
def setups(draw):
    players = draw(st.sampled_from([2, 3, 4]))
    options = {
        "source": draw(st.sampled_from(["dice", "dominoes-hidden", "dominoes-open", "dominoes-free"])),
        "version": str(draw(st.sampled_from([1, 2, 3]))),
        "chasers": draw(st.sampled_from(["on", "off"])),
        "blockers": draw(st.sampled_from(["on", "off"])),
        "doublers": draw(st.sampled_from(["on", "off"])),
        "joker": draw(st.sampled_from(["on", "off"])),
        "reentry": draw(st.sampled_from(["move", "extra"])),
        "moves": str(draw(st.sampled_from([4, 8, 12]))),
        "target": str(draw(st.sampled_from([0, 10, 36]))),
    }
    if players == 4:
        options["teams"] = draw(st.sampled_from(["on", "off"]))
    seed = draw(st.integers(0, 2**32))
    return PLAYERS[players], options, seed


def pieces(state) -> Counter:
    found = [(p.side, p.kind, p.number) for _, p in state.board]
    found += [(p.side, p.kind, p.number) for p in state.off_board]
    found += [(h.piece.side, h.piece.kind, h.piece.number) for h in state.held]
    return Counter(found)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_random_games_keep_every_piece_explain_every_point_and_replay(setup):
    players, options, seed = setup
    header = make_header(GAME, players, options, "seeded", seed)
    steps, final = simulate(GAME, header, random.Random(seed))
    assert final.over

    state = initial_state(GAME, header)
    start = pieces(state)
    assert all(n == 1 for n in start.values())
    codec = EventCodec.for_game(GAME)
    position = 0
    for step in steps:
        again = decide_as(GAME, header, state, position, step.actor, GAME.parse(step.notation, state))
        assert again.events == step.events  # the notation alone re-decides the same events
        for event in step.events:
            assert codec.decode(*codec.encode(event)) == event
            state = GAME.evolve(state, event)
            assert pieces(state) == start  # never lost, never duplicated
        position += len(step.events)
    assert state == final == fold(GAME, initial_state(GAME, header), [e for s in steps for e in s.events])

    sheet = GAME.score(final)
    for line in sheet.lines:
        assert line.points > 0 and line.what and line.rule
        assert line.rule.startswith("000:") or "docs/rules/" in line.rule
        assert line.player in players
    moves_points = sum(u.points for m in final.scored for u in m.units)
    assert sum(line.points for line in sheet.lines) == moves_points
    outcome = GAME.outcome(final)
    assert set(outcome.ranking) == set(players)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_every_listed_legal_command_is_accepted_and_no_unlisted_placement_or_partial_move(setup):
    # deciding checks the command itself (validation re-decides every recorded one): a placement or a
    # partial move it accepts must be one ``legal_commands`` lists, no more and no less
    players, options, seed = setup
    header = make_header(GAME, players, {**options, "moves": "3"}, "seeded", seed)
    steps, _ = simulate(GAME, header, random.Random(seed))
    state = initial_state(GAME, header)
    for step in steps:
        legal = GAME.legal_commands(state)
        if legal is not None:
            assert legal, "a player to act always has something to do"
            for command in legal:
                assert GAME.decide(state, command)
            assert step.command in legal
        tried: list = []
        if isinstance(step.command, Place):
            tried = [Place(m, f) for m in MARGIN for f in (None, *FACINGS)]
        elif isinstance(step.command, Step):
            mine = [sq for sq, p in state.board if p.side == state.mover]
            tried = [Step(frm, r * 10 + c) for frm in mine for r in range(8) for c in range(8)]
        for command in tried:
            assert accepted(state, command) == (command in legal), command
        state = fold(GAME, state, step.events)


def accepted(state, command) -> bool:
    try:
        GAME.decide(state, command)
    except IllegalCommand:
        return False
    return True


def test_folding_the_events_decided_gives_the_state_decide_reached():
    header = make_header(GAME, PLAYERS[2], {"moves": "3"}, "seeded", 5)
    steps, final = simulate(GAME, header, random.Random(5))
    state = initial_state(GAME, header)
    for step in steps:
        events = GAME.decide(state, step.command)
        folded = fold(GAME, state, events)
        assert fold(GAME, state, events) is folded  # decide's own fold, handed back
        again = state
        for event in events:  # the same events folded afresh, one mutator per event type
            again = MUTATORS[type(event)](again, event)
        assert again == folded
        state = folded
    assert state == final


def test_hidden_dominoes_leave_no_hidden_order_in_the_state():
    header = make_header(GAME, PLAYERS[2], {"source": "dominoes-hidden"}, "seeded", 9)
    steps, final = simulate(GAME, header, random.Random(9))
    state = initial_state(GAME, header)
    for step in steps[:12]:
        state = fold(GAME, state, step.events)
        assert all(d == () for d in state.dealt)  # nothing of the future is stored, so show reveals nothing
    plain = to_plain(state)
    assert GAME.observation.state(state, plain, Viewer.table()) == plain  # every field public: the whole state
