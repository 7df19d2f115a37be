"""Each game's hooks for the bots and the field's adapters live beside the game (``core/<game>/bots.py``)
and are found through the registry (docs/ai.md, "Per-game hooks"): every registered game has them,
whole for what the game is, and they are imported only when asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solrec.core.bots import BotHooks
from solrec.core.errors import InvalidSetup
from solrec.core.registry import bot_hooks, game_ids, get_game


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_its_hooks_beside_it(game_id):
    hooks = bot_hooks(game_id)
    assert isinstance(hooks, BotHooks)
    assert bot_hooks(game_id) is hooks
    assert hooks.max_chance_outcomes > 0 and hooks.max_game_length > 0 and hooks.tensor is not None


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_played_alone_has_a_return_and_a_game_that_hides_has_a_resampler(game_id):
    game, hooks = get_game(game_id), bot_hooks(game_id)
    assert (hooks.solitaire_return is not None) == (game.min_players == 1)
    assert bool(hooks.solitaires) == (game.min_players == 1)  # its Gymnasium ids (docs/ai.md, "Gymnasium")
    assert (hooks.resample is not None) == game.hidden_information


@pytest.mark.parametrize("game_id", game_ids())
def test_a_games_numbering_names_each_legal_command_of_its_first_player_position(game_id):
    from solrec.core.play import advance_chance, initial_state, make_header

    game = get_game(game_id)
    header = make_header(game, None, {}, seed=1)
    codec = bot_hooks(game_id).codec(game, header.options_dict())
    _, state, _ = advance_chance(game, header, initial_state(game, header), 0)
    assert codec.size > 0 and codec.legal(state)
    for action, command in codec.legal(state).items():
        assert codec.action(command) == action and 0 <= action < codec.size


def test_an_unknown_game_has_no_hooks():
    with pytest.raises(InvalidSetup, match="unknown game"):
        bot_hooks("chess")


def test_a_game_without_hooks_is_refused_as_one_the_bots_do_not_play(monkeypatch):
    """What ``solrec.ai`` says of a game it does not adapt (``balance`` then offers the game's own
    random player; ``simulate --player`` and the server's bot seats refuse in one line)."""
    import importlib.util

    from solrec.core import registry

    monkeypatch.setitem(registry.GAMES, "unplayed", registry.GAMES["solo-dice"])
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name.endswith(".bots") else found(name, *a))
    with pytest.raises(InvalidSetup, match="unplayed: no action numbering"):
        bot_hooks("unplayed")
    registry._LOADED.pop("unplayed", None)


def test_the_hooks_are_imported_only_when_asked_for():
    script = ("import sys\nfrom solrec.core.registry import bot_hooks, game_ids, get_game\n"
              "[get_game(g) for g in game_ids()]\n"
              "print(sorted(m for m in sys.modules if m.endswith('.bots') or m.endswith('.numbering')))\n"
              "bot_hooks('solarius-mission')\n"
              "print(sorted(m for m in sys.modules if m.endswith('.bots') or m.endswith('.numbering')))\n")
    before, after = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.splitlines()
    assert before == "[]"
    # the numbering (thousands of storage vectors) only when a table of the game is set
    assert after == "['solrec.core.bots', 'solrec.core.solarius_mission.bots']"
