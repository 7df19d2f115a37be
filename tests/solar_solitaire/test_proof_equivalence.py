"""The faster loss proof (issue 24) answers exactly as the proof before it (``reference_proof.py``, the
code of commit 24bcaad kept verbatim): on every position seeded random play reaches once the stock is
used up, and on the recorded fixtures. What must not change (001: "You lose when the final stockpile
card is turned and there's no way to free any rockets stranded in the waste heap"):

- ``rescue``: found, the positions searched and the line, at the full budget and at small ones (the
  answer at budget exhaustion included); ``hopeless`` (as the proof and the solver call it) and
  ``free_moves``;
- ``decide``: a command ends in ``lost``, with the positions the old proof searched, exactly when the
  old proof answers False. ``decide`` skips the search on a position a rescue line found before runs
  through (``proof.known_not_lost``); every such position is checked here not to be False for the old
  proof.
"""

from __future__ import annotations

import random

import pytest

from solrec.core.play import advance_chance, initial_state, make_header, play
from solrec.core.solar_solitaire import notation, proof, rules
from solrec.core.solar_solitaire.commands import Resign
from solrec.core.solar_solitaire.events import Lost
from solrec.core.solar_solitaire.piles import emergency, free_moves, piles_of
from solrec.core.solar_solitaire.state import evolve
from solrec.events.record import decide_record
from solrec.replay.simulate import game_seed

from ..conftest import FIXTURES
from . import reference_proof as old
from .helpers import GAME

OPTIONS = (
    {"waste_takes_free_moves": "no"},
    {"waste_takes_free_moves": "yes"},
    {"waste_takes_free_moves": "no", "own_pad_rocket": "redeal"},
)


def _command(state, rng: random.Random, follow: float):
    """The simulation's random player until the stock is used up; then a player who follows the
    rescue the proof finds ``follow`` of the time and otherwise makes any free move."""
    if state.stock or state.choice:
        return GAME.sample_command(state, rng)
    moves = rules.legal_moves(state)
    if not moves or rng.random() < 0.003:
        return Resign()
    if rng.random() < follow:
        move = proof.next_rescue_move(piles_of(state), state.waste_takes_free_moves)
        if move is not None:
            return notation.parse(move)
    return moves[rng.randrange(len(moves))]


def _played(seed: int, options: dict, follow: float):
    """(state after, events) of every step of one seeded game."""
    header = make_header(GAME, None, options, "seeded", game_seed(24, seed))
    state = initial_state(GAME, header)
    steps, state, position = advance_chance(GAME, header, state, 0)
    rng = random.Random(f"issue-24:{seed}")
    while (actor := GAME.to_act(state)) is not None:
        before = state
        new, state, position = play(GAME, header, state, position, actor, _command(state, rng, follow))
        for step in new:
            for event in step.events:
                before = evolve(before, event)
            yield before, step.events


def _fixture_steps():
    for path in sorted((FIXTURES / "solar-solitaire").glob("*.jsonl")):
        header, steps, _, _ = decide_record(path.read_text(encoding="utf-8"))
        state = initial_state(GAME, header)
        for step in steps:
            for event in step.events:
                state = evolve(state, event)
            yield state, step.events


def _check_decision(state, events) -> None:
    """The command's ``lost`` (or its absence) is what the old proof says of the position."""
    lost = [e for e in events if isinstance(e, Lost)]
    piles, onto = piles_of(state), state.waste_takes_free_moves
    if lost:
        assert old.rescue(piles, onto)[:2] == (False, lost[0].positions), piles
    elif state.result is None and state.dealt and not (state.stock or state.choice or state.asked or state.hand):
        assert old.rescue(piles, onto)[0] is not False, piles


def _check_position(piles, onto: bool, rng: random.Random) -> None:
    assert free_moves(piles, onto) == old.free_moves(piles, onto), piles
    for every in (False, True):
        floating = rng.getrandbits(40) & rng.getrandbits(40) if every else 0  # as the solver passes it
        assert proof.hopeless(piles, onto, floating, every) == old.hopeless(piles, onto, floating, every), piles
    assert proof.rescue(piles, onto) == old.rescue(piles, onto), piles
    for budget in (1, 3, 10, 40):
        assert proof.rescue(piles, onto, budget) == old.rescue(piles, onto, budget), (piles, budget)


def _check_games(seeds, follow: float, lines_checked: int | None) -> int:
    """Every step of the games decided as before; every position checked; returns positions checked."""
    proof._NOT_LOST.clear()
    proof.rescue.cache_clear()
    rng = random.Random(0)
    seen = set()
    for options in OPTIONS:
        for seed in seeds:
            for state, events in _played(seed, options, follow):
                _check_decision(state, events)
                piles = piles_of(state)
                if not state.stock and state.dealt and emergency(piles) and piles not in seen:
                    seen.add(piles)
                    _check_position(piles, state.waste_takes_free_moves, rng)
    remembered = sorted(proof._NOT_LOST)
    assert remembered, "no rescue line was remembered: the check above checked no skipped search"
    if lines_checked is not None:
        remembered = rng.sample(remembered, min(lines_checked, len(remembered)))
    for node, onto in remembered:
        assert old.rescue(node, onto)[0] is not False, node
    return len(seen)


def test_the_fixtures_are_decided_as_before():
    rng = random.Random(1)
    for state, events in _fixture_steps():
        _check_decision(state, events)
        piles = piles_of(state)
        if not state.stock and state.dealt and emergency(piles):
            _check_position(piles, state.waste_takes_free_moves, rng)


@pytest.mark.parametrize("follow", [0.9, 0.3])
def test_random_play_is_decided_as_before(follow):
    assert _check_games(range(6), follow, 150) > 50


@pytest.mark.slow
@pytest.mark.parametrize("follow", [0.9, 0.5, 0.0])
def test_random_play_is_decided_as_before_at_length(follow):
    assert _check_games(range(100, 160), follow, None) > 1000
