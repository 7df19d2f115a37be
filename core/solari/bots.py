"""Solari for the bots and the field's adapters (docs/ai.md): its action numbering and the greedy
bot's scale of a lead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import Codec, listing
from ..bots import BotHooks
from ..game import Command, Game
from ..tensors import Tensor
from . import tensor


def codec(game: Game, options: Mapping[str, Any]) -> Codec:
    """``domino A-B`` (the 21 dominoes); every step ``FROM-TO`` between two different squares (rows 0-7
    x columns 0-7, row-major); ``place SQ [FACING]``; ``enter PIECE SQ [FACING]`` for pieces 1-6, c, b,
    d."""
    from .board import FACINGS
    from .commands import Domino, Enter, Place, Step
    from .state import DOMINOES

    squares = [r * 10 + c for r in range(8) for c in range(8)]
    universe: list[Command] = [Domino(d) for d in DOMINOES]
    universe += [Step(f, t) for f in squares for t in squares if f != t]
    universe += [Place(sq, facing) for sq in squares for facing in (None, *FACINGS)]
    universe += [Enter(piece, sq, facing) for piece in "123456cbd" for sq in squares for facing in (None, *FACINGS)]
    return listing(game, universe)


# OpenSpiel's bounds: the deal draws from 21 dominoes; a dice game to its default target is thousands of
# partial moves.
HOOKS = BotHooks(codec=codec, max_chance_outcomes=21, max_game_length=50_000, lead_scale=12.0,
                 tensor=Tensor(tensor.size, tensor.encode))
