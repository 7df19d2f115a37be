"""What the bots and the field's adapters (``solrec.ai``, docs/ai.md) need of a game beyond ``Game``:
its hooks. Each game keeps its own in its package's ``bots.py`` (``HOOKS``), found through
``registry.bot_hooks`` and imported only when a table of that game is set, so ``solrec.ai`` names no
game. Pure Python: nothing here needs the ``ai`` extra.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from .actions import Codec
from .game import Command, Game
from .tensors import Tensor

Settings = Mapping[str, Mapping[str, int | float | str]]


def _frozen_settings(settings: Settings) -> Settings:
    return MappingProxyType({kind: MappingProxyType(dict(values)) for kind, values in settings.items()})


@attrs.frozen
class Solver:
    """A game's deal solver as a bot plays it (docs/ai.md, "Bots": Solar Solitaire's ``mcts``):
    ``line(state, budget)`` a winning line of a position whose hidden part is drawn (the commands in
    the game's notation; () where none is found within ``budget`` positions, the work bounded by
    counts, never by time); ``free(command)``: a move that turns and plays no card (no progress), which
    the bot never plays back to a position the player saw since the last progress."""

    line: Callable[[Any, int], tuple[str, ...]]
    free: Callable[[Command], bool]


@attrs.frozen
class BotHooks:
    """One game's hooks (docs/ai.md): ``codec(game, options)`` its fixed action numbering for a game
    with those options; ``max_chance_outcomes`` (the most outcomes one chance draw has) and
    ``max_game_length`` (the most player decisions, well above any game played): OpenSpiel's bounds;
    ``solitaire_return(result, score)``: a one-player game's return on the scale -1 .. 1 (a game of
    several players: +1 each winner, -1 the others, in the adapters); ``lead_scale``: the greedy value's
    lead that counts as much as tanh(1); ``resample(state, seat, rng)``: where the game hides something,
    a state the seat cannot tell from ``state``, its hidden part redrawn from what the seat knows (the
    same state where nothing is left to draw); ``settings``: the game's own default settings per bot
    kind (docs/ai.md, "Per-game settings"); ``solver``: the deal solver the ``mcts`` bot plays by;
    ``tensor``: the observation tensor of a seat (``core.tensors.Tensor``, its package's ``tensor.py``);
    ``solitaires``: the option sets that make it a game of one player, by a name (the Gymnasium id
    ``solrec/GAME[-NAME]-v0``; "" for the game's own options)."""

    codec: Callable[[Game, Mapping[str, Any]], Codec]
    max_chance_outcomes: int
    max_game_length: int
    solitaire_return: Callable[[str, int], float] | None = None
    lead_scale: float = 10.0
    resample: Callable[[Any, str, random.Random], Any] | None = None
    settings: Settings = attrs.field(factory=dict, converter=_frozen_settings)
    solver: Solver | None = None
    tensor: Tensor | None = None
    solitaires: Settings = attrs.field(factory=dict, converter=_frozen_settings)
