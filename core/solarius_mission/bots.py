"""Solarius Mission for the bots and the field's adapters (docs/ai.md): its action numbering
(``numbering.py``, imported when a table of the game is set), the resampler of what a seat does not
see, and its own default settings of the ``mcts`` bot."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import attrs

from ..actions import Codec
from ..bots import BotHooks
from ..game import Game
from ..tensors import Tensor
from . import tensor
from .state import State


def codec(game: Game, options: Mapping[str, Any]) -> Codec:
    """Segments of mixed-radix field codes, cubes as storage vectors (``numbering.py``): fixed by the
    component set alone."""
    from .numbering import codec as numbering

    return numbering(options)


def resample(state: State, seat: str, rng: random.Random) -> State:
    """A state the seat cannot tell from ``state`` (observation.py hides the deck, the undealt start
    cards, the unbuilt hubs, the discard pile and the other players' hands): the progress cards the
    seat cannot place (every card less its own hand and the cards lying open on the mats) dealt at
    random into the other hands, the discard pile and the deck, each keeping its size; the hidden hubs
    drawn from the hubs not built; the undealt start cards from the start cards. The sizes are what the
    seat sees; the true cards are never read (two states the seat cannot tell apart give the same pool).
    The discard pile is pooled whole: a card the seat saw discarded in play may be dealt elsewhere."""
    cset = state.cset
    me = state.index(seat)
    open_cards: set[int] = set(state.mats[me].hand)
    for mat in state.mats:
        open_cards.update(mat.missions, mat.completed, mat.developments)
    pool = sorted(set(cset.progress_cards) - open_cards)
    rng.shuffle(pool)
    mats = list(state.mats)
    at = 0
    for i, mat in enumerate(state.mats):
        if i == me:
            continue
        k = len(mat.hand)
        mats[i] = attrs.evolve(mat, hand=tuple(sorted(pool[at:at + k])))
        at += k
    discard = tuple(sorted(pool[at:at + len(state.discard)]))
    at += len(state.discard)
    deck = tuple(sorted(pool[at:]))
    unbuilt = sorted(h for h in cset.number("dice.hubs.letters") if h not in state.hubs_built)
    hubs = tuple(sorted(rng.sample(unbuilt, len(state.hubs)))) if len(state.hubs) <= len(unbuilt) else state.hubs
    starts = sorted(cset.start_cards)
    start_cards = tuple(sorted(rng.sample(starts, len(state.start_cards)))) if state.start_cards else ()
    return attrs.evolve(state, mats=tuple(mats), discard=discard, deck=deck, hubs=hubs, start_cards=start_cards)


# Its own default settings (docs/ai.md, "Per-game settings"): random roll-outs are nonsense here (most of
# its ~40 actions are resource exchanges) and its positions dear to enumerate, so its search plays the
# game's own sampler in roll-outs, takes the sampler's choices as its prior and widens the tree in their
# order, on fewer simulations.
SETTINGS: dict[str, dict[str, int | float | str]] = {
    "mcts": {"simulations": 20, "rollout": 6, "uct": 1.0, "policy": "sampler", "widening": 1.0},
}

# OpenSpiel's bounds: a draw from the deck of progress cards; a game is some hundreds of commands.
HOOKS = BotHooks(codec=codec, max_chance_outcomes=256, max_game_length=20_000,
                 lead_scale=10.0, resample=resample, settings=SETTINGS,
                 tensor=Tensor(tensor.size, tensor.encode))
