"""SOLI2 for the bots and the field's adapters (docs/ai.md): its action numbering, the return of its
solitaires and the greedy bot's scale of a lead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import Codec, listing
from ..bots import BotHooks
from ..game import Command, Game
from ..tensors import Tensor
from . import tensor

# A solitaire's return: +1 for one marble left, -1 for 48, linear between (docs/ai.md, "Returns").
MARBLES = 48


def codec(game: Game, options: Mapping[str, Any]) -> Codec:
    """``place SQ`` for the 49 squares in board order; ``place COLOUR SQ`` (each colour per square); the
    jumps, square by square, in the board's jump order; ``pass``."""
    from . import board as B
    from . import commands as s2

    universe: list[Command] = [s2.Place(sq) for sq in B.SQUARES]
    universe += [s2.Place(sq, colour) for sq in B.SQUARES for colour in B.COLORS]
    universe += [s2.Jump(B.SQUARES[i], B.SQUARES[to]) for i in range(B.POCKETS) for _, to in B.JUMPS[i]]
    universe.append(s2.Pass())
    return listing(game, universe)


def solitaire_return(result: str, score: int) -> float:
    return max(-1.0, min(1.0, 1 - 2 * (score - 1) / (MARBLES - 1)))


# OpenSpiel's bounds: the pouch holds 48 marbles; a game is at most a few dozen placements and jumps.
HOOKS = BotHooks(codec=codec, max_chance_outcomes=48, max_game_length=200,
                 solitaire_return=solitaire_return, lead_scale=4.0,
                 tensor=Tensor(tensor.size, tensor.encode),
                 solitaires={"classic": {"mode": "classic-solitaire"}, "solitaire": {"mode": "soli2-solitaire"}})
