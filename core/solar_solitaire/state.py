"""Solar Solitaire state and how each event changes it (one mutator per event type).

Every one of the 40 cards is always in exactly one place: a launch pad pile, a space station pile,
the waste heap, the turned card in hand (``hand``), or the stockpile. Before the deal the whole deck
is the stockpile. ``stock`` is in turning order when the order is known (``stock_known``: a shuffle
was recorded), otherwise it lists the unseen cards in canonical order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..folds import RememberedFolds
from ..frozen import evolve as copy_with
from .cards import ALL_CARDS, PADS, ROCKETS, STATIONS, WASTE, is_rocket, place_index
from .events import (
    ChoiceWaiting,
    DealRefused,
    Dealt,
    EmergencyOff,
    EmergencyOn,
    Lost,
    Moved,
    Played,
    Resigned,
    Shuffled,
    TurnAsked,
    Turned,
    Wasted,
    Won,
)

EMPTY4: tuple[tuple[str, ...], ...] = ((), (), (), ())


@attrs.frozen
class State:
    player: str
    own_pad_rocket: str = "launched"
    waste_takes_free_moves: bool = False  # the option: may a free move put a card onto the waste heap?
    deals: int = 0  # deals made so far, refused ones included
    pads: tuple[tuple[str, ...], ...] = EMPTY4  # bottom to top; [0] is the original launch pad card
    stations: tuple[tuple[str, ...], ...] = EMPTY4  # bottom to top
    waste: tuple[str, ...] = ()  # bottom to top
    stock: tuple[str, ...] = ALL_CARDS
    stock_known: bool = False
    asked: bool = False  # the player turned: chance names the card
    hand: str | None = None  # the turned card while the player chooses its pad
    choice: tuple[int, ...] = ()  # pads the waiting forced play may go to
    emergency: bool = False
    result: str | None = None  # "won", "lost", "resigned"
    searched: int = 0  # positions the loss proof searched

    @property
    def dealt(self) -> bool:
        return bool(self.pads[0])

    @property
    def over(self) -> bool:
        return self.result is not None

    def launched(self, pad: int) -> bool:
        pile = self.pads[pad]
        return bool(pile) and pile[-1] == ROCKETS[pad]

    @property
    def rockets_launched(self) -> tuple[int, ...]:
        return tuple(p for p in range(4) if self.launched(p))

    @property
    def stranded(self) -> tuple[str, ...]:
        """Rockets lying in the waste heap, bottom to top."""
        return tuple(c for c in self.waste if is_rocket(c))

    @property
    def waiting_card(self) -> str | None:
        """The card of a waiting forced play: the turned card, else the waste top."""
        if not self.choice:
            return None
        return self.hand if self.hand is not None else self.waste[-1]

    def pile(self, place: str) -> tuple[str, ...]:
        kind, n = place_index(place)
        if kind == WASTE:
            return self.waste
        return self.pads[n] if kind == "pad" else self.stations[n]

    def top(self, place: str) -> str | None:
        pile = self.pile(place)
        return pile[-1] if pile else None

    def all_cards(self) -> list[str]:
        cards = [c for pile in self.pads for c in pile] + [c for pile in self.stations for c in pile]
        cards += list(self.waste) + list(self.stock)
        if self.hand is not None:
            cards.append(self.hand)
        return cards


def _remove(stock: tuple[str, ...], cards) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in stock if c not in gone)


def _without(stock: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``_remove`` of one card, by its place: the stock never holds a card twice (a shuffle's order
    is checked to be distinct when it is decided and when it is read)."""
    if card not in stock:
        return stock
    i = stock.index(card)
    return stock[:i] + stock[i + 1 :]


# Each mutator makes one new state (replay and ``decide``'s working copy fold every event): the
# piles a move changes are computed first, then written at once.


def _put(piles: tuple[tuple[str, ...], ...], n: int, card: str) -> tuple[tuple[str, ...], ...]:
    return (*piles[:n], (*piles[n], card), *piles[n + 1 :])


def _pop(piles: tuple[tuple[str, ...], ...], n: int) -> tuple[tuple[str, ...], ...]:
    return (*piles[:n], piles[n][:-1], *piles[n + 1 :])


def _shuffled(state: State, event: Shuffled) -> State:
    return copy_with(state, stock=tuple(event.order), stock_known=True)


def _dealt(state: State, event: Dealt) -> State:
    return copy_with(
        state,
        deals=state.deals + 1,
        pads=tuple((c,) for c in event.pads),
        stock=_remove(state.stock, event.pads),
    )


def _deal_refused(state: State, event: DealRefused) -> State:
    return copy_with(state, pads=EMPTY4, stock=ALL_CARDS, stock_known=False)


def _turn_asked(state: State, event: TurnAsked) -> State:
    return copy_with(state, asked=True)


def _turned(state: State, event: Turned) -> State:
    return copy_with(state, asked=False, hand=event.card, stock=_without(state.stock, event.card))


def _played(state: State, event: Played) -> State:
    pads = _put(state.pads, event.pad, event.card)
    if event.source == "stock":
        return copy_with(state, hand=None, pads=pads, choice=())
    return copy_with(state, waste=state.waste[:-1], pads=pads, choice=())


def _wasted(state: State, event: Wasted) -> State:
    return copy_with(state, hand=None, waste=(*state.waste, event.card))


def _choice_waiting(state: State, event: ChoiceWaiting) -> State:
    return copy_with(state, choice=tuple(event.pads))


def _moved(state: State, event: Moved) -> State:
    """The source pile's top card leaves, then the card goes onto the target pile."""
    waste, pads, stations = state.waste, state.pads, state.stations
    kind, n = place_index(event.source)
    if kind == WASTE:
        waste = waste[:-1]
    elif kind == "pad":
        pads = _pop(pads, n)
    else:
        stations = _pop(stations, n)
    kind, n = place_index(event.target)
    if kind == WASTE:
        waste = (*waste, event.card)
    elif kind == "pad":
        pads = _put(pads, n, event.card)
    else:
        stations = _put(stations, n, event.card)
    return copy_with(state, waste=waste, pads=pads, stations=stations)


def _emergency_on(state: State, event: EmergencyOn) -> State:
    return copy_with(state, emergency=True)


def _emergency_off(state: State, event: EmergencyOff) -> State:
    return copy_with(state, emergency=False)


def _won(state: State, event: Won) -> State:
    return copy_with(state, result="won")


def _lost(state: State, event: Lost) -> State:
    return copy_with(state, result="lost", searched=event.positions)


def _resigned(state: State, event: Resigned) -> State:
    return copy_with(state, result="resigned")


_MUTATE: dict[type, Callable[[State, Any], State]] = {
    Shuffled: _shuffled,
    Dealt: _dealt,
    DealRefused: _deal_refused,
    TurnAsked: _turn_asked,
    Turned: _turned,
    Played: _played,
    Wasted: _wasted,
    ChoiceWaiting: _choice_waiting,
    Moved: _moved,
    EmergencyOn: _emergency_on,
    EmergencyOff: _emergency_off,
    Won: _won,
    Lost: _lost,
    Resigned: _resigned,
}

# ``decide`` folds each event as it makes it (rules.py); the game's mutators hand back those folds
# when the very same events are folded again (core/folds.py).
_FOLDS = RememberedFolds()


def start_folding() -> None:
    """A new command is being decided: forget the last one's folds."""
    _FOLDS.forget()


def fold_remembered(state: State, event: object) -> State:
    """``evolve``, remembered for a fold of the same state and event that follows (``decide``'s)."""
    after = _MUTATE[type(event)](state, event)
    _FOLDS.remember(state, event, after)
    return after


MUTATORS: dict[type, Callable[[State, Any], State]] = _FOLDS.recalling(_MUTATE)


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)


__all__ = ["State", "evolve", "PADS", "STATIONS", "WASTE"]
