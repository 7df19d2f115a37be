"""What a page offers to click (``Game.choices``, ``solrec serve``) is exactly what ``legal`` lists.

In positions reached by seeded random play, every game's listed choices are its legal commands, each
written as ``format_at`` and read back by ``parse`` to the same command, none missing, none twice.
"""

from __future__ import annotations

import random

import pytest

from solrec.core.game import CHANCE
from solrec.core.play import advance_chance, initial_state, make_header, play
from solrec.core.registry import games


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_choices_are_the_legal_commands(game_id: str) -> None:
    game = games()[game_id]
    header = make_header(game, game.default_players(), {}, seed=7)
    _, state, position = advance_chance(game, header, initial_state(game, header), 0)
    rng = random.Random(7)
    for _ in range(40):
        actor = game.to_act(state)
        if actor is None:
            break
        legal = game.legal_commands(state)
        choices = game.choices(state)
        assert choices.actor == actor
        if legal is None:
            assert all(game.parse(c.command, state) for c in choices.commands)
        else:
            assert sorted(game.format_at(c, state) for c in legal) == sorted(c.command for c in choices.commands)
            assert {game.parse(c.command, state) for c in choices.commands} == set(legal)
            for choice in choices.commands:
                assert choice.steps and choice.group
        assert actor != CHANCE  # seeded chance has acted
        _, state, position = play(game, header, state, position, actor, game.sample_command(state, rng))
