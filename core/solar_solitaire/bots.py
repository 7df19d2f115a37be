"""Solar Solitaire for the bots and the field's adapters (docs/ai.md): its action numbering, its
return, the resampler of its face-down stock and the deal solver its ``mcts`` bot plays by."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import attrs

from ..actions import Codec, listing
from ..bots import BotHooks, Solver
from ..game import Command, Game
from ..tensors import Tensor
from . import tensor


def codec(game: Game, options: Mapping[str, Any]) -> Codec:
    """``turn``, ``resign``, ``play pad0`` .. ``pad3``, ``move SOURCE TARGET`` for the places (source
    before target)."""
    from .cards import PLACES
    from .commands import Move, Play, Resign, Turn

    universe: list[Command] = [Turn(), Resign(), *(Play(p) for p in range(4))]
    universe += [Move(s, t) for s in PLACES for t in PLACES if s != t]
    return listing(game, universe)


def solitaire_return(result: str, score: int) -> float:
    """+1 won; else -1 + rockets standing / 4 (0 to 3 standing: -1 to -0.25)."""
    return 1.0 if result == "won" else -1.0 + score / 4


def resample(state: Any, seat: str, rng: random.Random) -> Any:
    """The face-down stock is the cards the player has not seen (the deck less every card in sight), in
    an order drawn at random."""
    if not state.stock:
        return state
    unseen = sorted(state.stock)  # the deck less the cards in sight: a set the player can count
    rng.shuffle(unseen)
    return attrs.evolve(state, stock=tuple(unseen))


def winning_line(state: Any, budget: int) -> tuple[str, ...]:
    """A winning line of a position whose stock order is known (a sampled world), or () where none is
    found: the deal solver's search within ``budget`` positions, then its line's detours taken out
    within a bounded work (``solver.Work``: positions and replays counted, never time), so a move's
    cost is bounded and the same for the same seed (``Game.solve`` shortens without a bound: a long
    line took seconds)."""
    from ..solve import WINNABLE
    from . import piles, solver

    if state.over or not state.dealt:
        return ()
    deck = bytes(piles.INDEX[c] for c in state.stock)
    found = solver.solve_position(solver.roots_of(state, deck), deck, budget, state.waste_takes_free_moves)
    if found.verdict != WINNABLE or not found.line:
        return ()
    return solver.shortest_line(solver.start_of(state), deck, found.line, state.waste_takes_free_moves, solver.Work())


def free_move(command: Command) -> bool:
    """A card moved between the places: no card turned or played."""
    from .commands import Move

    return isinstance(command, Move)


# OpenSpiel's bounds: the shuffle's first card is one of 40; a game is at most a few thousand moves.
HOOKS = BotHooks(codec=codec, max_chance_outcomes=40, max_game_length=5_000,
                 solitaire_return=solitaire_return, resample=resample, solver=Solver(winning_line, free_move),
                 tensor=Tensor(tensor.size, tensor.encode), solitaires={"": {}})
