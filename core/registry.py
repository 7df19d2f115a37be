"""The games solrec knows. A game registers by being listed here; nothing else names games.

The table names each game's module and class; a game's code is imported only when that game is
used (``get_game``), so a command on one game never pays for the others. Beside its ``game.py``, a
game's package holds its hooks for the bots and the field's adapters (``bots.py``: ``HOOKS``, a
``core.bots.BotHooks``), imported only when asked for (``bot_hooks``). A game is refused when it
is loaded if its state or events hold a field its observation does not declare
(``core.observe.check``: ``UndeclaredField``, naming the class and the field).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from .errors import InvalidSetup
from .game import Game
from .observe import check
from .words import quoted

if TYPE_CHECKING:
    from .bots import BotHooks

# game id -> (module under solrec.core, class name)
GAMES: dict[str, tuple[str, str]] = {
    "solo-dice": ("solo_dice.game", "SoloDice"),
    "soli2": ("soli2.game", "Soli2"),
    "solar-solitaire": ("solar_solitaire.game", "SolarSolitaire"),
    "solari": ("solari.game", "Solari"),
    "solarius-mission": ("solarius_mission.game", "SolariusMission"),
}

_LOADED: dict[str, Game] = {}
_HOOKS: dict[str, BotHooks] = {}


def game_ids() -> list[str]:
    """Every registered game id, without importing any game."""
    return list(GAMES)


def get_game(game_id: str) -> Game:
    game = _LOADED.get(game_id)
    if game is not None:
        return game
    entry = GAMES.get(game_id) if isinstance(game_id, str) else None
    if entry is None:
        known = ", ".join(sorted(GAMES))
        raise InvalidSetup(f"unknown game {quoted(game_id)} (known: {known})")
    module, name = entry
    game = getattr(importlib.import_module(f"{__package__}.{module}"), name)()
    check(game)  # fail closed: a field nobody declared would be shown to everyone
    _LOADED[game_id] = game
    return game


def games() -> dict[str, Game]:
    """Every registered game, loaded (for commands that list or audit all of them)."""
    return {gid: get_game(gid) for gid in GAMES}


def bot_hooks(game_id: str) -> BotHooks:
    """A registered game's hooks for the bots and the field's adapters (``solrec.ai``): its package's
    ``bots.HOOKS``, imported when first asked for. A game without them is refused (InvalidSetup, "no
    action numbering": what ``solrec.ai`` says of a game it does not adapt)."""
    hooks = _HOOKS.get(game_id)
    if hooks is not None:
        return hooks
    get_game(game_id)  # an unknown id refused as get_game refuses it
    package = GAMES[game_id][0].rpartition(".")[0]
    module = f"{__package__}.{package}.bots"
    if importlib.util.find_spec(module) is None:  # a game the bots and adapters do not play (yet)
        raise InvalidSetup(f"{game_id}: no action numbering (no {package}/bots.py; docs/ai.md)")
    hooks = importlib.import_module(module).HOOKS
    _HOOKS[game_id] = hooks
    return hooks
