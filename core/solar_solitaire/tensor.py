"""Solar Solitaire's observation tensor (docs/ai.md, "Observation tensors"): where each of the 40
cards lies as the player sees it, the piles' tops, and the turn's state.

The face-down stockpile's order is hidden (observation.py: its size only), so a card in it is only
"not in sight": the cards the player can count, never their order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..tensors import Features
from .cards import ALL_CARDS, ROCKETS
from .state import State

UNSEEN, HAND, WASTE = 0, 1, 2  # then the four pads (3..6) and the four stations (7..10)
PLACES = 3 + 4 + 4
RESULTS = (None, "won", "lost", "resigned")
DEALS = 4  # deals made: 0, 1, 2, 3 and more (a refused deal is dealt again)
# per card: its place, on top of its pile, its depth under the top; then the stock's size, the deals,
# the options, a card turned asked for, the pads a waiting play may go to, the emergency, the rockets
# launched and the result
SIZE = len(ALL_CARDS) * (PLACES + 2) + 1 + DEALS + 2 + 1 + 4 + 1 + len(ROCKETS) + len(RESULTS)
_CARD = {card: i for i, card in enumerate(ALL_CARDS)}


def size(options: Mapping[str, Any], players: Sequence[str]) -> int:
    return SIZE


def encode(seen: State, seat: str) -> tuple[float, ...]:
    place = [UNSEEN] * len(ALL_CARDS)
    top = [False] * len(ALL_CARDS)
    depth = [0] * len(ALL_CARDS)
    piles = [(WASTE, seen.waste), *((3 + n, pile) for n, pile in enumerate(seen.pads)),
             *((7 + n, pile) for n, pile in enumerate(seen.stations))]
    for where, pile in piles:
        for k, card in enumerate(pile):
            i = _CARD[card]
            place[i], depth[i], top[i] = where, len(pile) - 1 - k, k == len(pile) - 1
    if seen.hand is not None:
        place[_CARD[seen.hand]], top[_CARD[seen.hand]] = HAND, True
    f = Features()
    for i in range(len(ALL_CARDS)):
        f.one_hot(place[i], PLACES)
        f.flag(top[i])
        f.scaled(depth[i], len(ALL_CARDS))
    f.scaled(len(seen.stock), len(ALL_CARDS))  # "stock_count": the stockpile's size, all the player sees of it
    f.one_hot(seen.deals, DEALS)
    f.flag(seen.own_pad_rocket == "redeal")
    f.flag(seen.waste_takes_free_moves)
    f.flag(seen.asked)
    f.flags(pad in seen.choice for pad in range(4))
    f.flag(seen.emergency)
    f.flags(seen.launched(pad) for pad in range(4))
    f.one_hot(RESULTS.index(seen.result), len(RESULTS))
    return f.done()
