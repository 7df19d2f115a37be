"""Solo Dice for the bots and the field's adapters (docs/ai.md): its action numbering and its return."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from ..actions import Codec
from ..bots import BotHooks
from ..game import Command, Game
from ..tensors import Tensor
from . import tensor

# The return: the total mapped linearly from -2000 (-1) to +1000 (+1), clipped (docs/ai.md, "Returns").
SCORE_RANGE = (-2000.0, 1000.0)


def codec(game: Game, options: Mapping[str, Any]) -> Codec:
    """A selection is its leftover die and its two pairs, each pair's dice in rising order, the pairs
    in rising order: 6 x 231 = 1,386 actions (the order the dice are written in does not change what
    is set aside)."""
    from .commands import Choose

    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    universe = [(left, p, q) for left in range(1, 7) for i, p in enumerate(pairs) for q in pairs[i:]]

    def key(command: Command) -> Hashable:
        assert isinstance(command, Choose)
        p, q = sorted((tuple(sorted(command.first)), tuple(sorted(command.second))))
        return (command.leftover, p, q)

    def text(k: Hashable) -> str:
        left: int
        p: tuple[int, int]
        q: tuple[int, int]
        left, p, q = k  # type: ignore[misc]
        return f"{p[0]}+{p[1]} {q[0]}+{q[1]} {left}"

    return Codec(universe, key, game.legal_commands, text)


def solitaire_return(result: str, score: int) -> float:
    lo, hi = SCORE_RANGE
    return max(-1.0, min(1.0, 2 * (score - lo) / (hi - lo) - 1))


# OpenSpiel's bounds: a die has 6 outcomes; a game is a few dozen selections.
HOOKS = BotHooks(codec=codec, max_chance_outcomes=6, max_game_length=100,
                 solitaire_return=solitaire_return, tensor=Tensor(tensor.size, tensor.encode),
                 solitaires={"": {}})
