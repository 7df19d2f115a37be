"""Solar Solitaire positions as compact piles, and the moves on them: what the loss proof
(``proof.py``) and the solver (``solver.py``) search over. Pure and deterministic.

A position is the nine piles as ``bytes`` of card numbers (index 0 the waste heap, 1-4 the launch
pads 0-3, 5-8 the space stations 0-3, each bottom to top). The moves mirror ``rules.py`` exactly
(tests cross-check them).
"""

from __future__ import annotations

from functools import lru_cache

from .cards import ALL_CARDS, PLACES, ROCKETS, matches

INDEX = {c: i for i, c in enumerate(ALL_CARDS)}
MASK: tuple[int, ...] = tuple(sum(1 << j for j, d in enumerate(ALL_CARDS) if matches(c, d)) for c in ALL_CARDS)
ROCKET_CARD: tuple[int, ...] = tuple(INDEX[r] for r in ROCKETS)
ROCKET_PAD: tuple[int, ...] = tuple(ROCKETS.index(c) if c in ROCKETS else -1 for c in ALL_CARDS)
# for each card, the space stations (as bits) it may start: those whose rocket it matches
STARTS: tuple[int, ...] = tuple(sum(1 << s for s in range(4) if m >> ROCKET_CARD[s] & 1) for m in MASK)

Piles = tuple  # tuple[bytes, ...] of length 9


def match(a: int, b: int) -> bool:
    return (MASK[a] >> b) & 1 == 1


def piles_of(state) -> Piles:
    """The nine piles of an engine state, as card numbers."""
    return (_pile(state.waste), *map(_pile, state.pads), *map(_pile, state.stations))


@lru_cache(maxsize=8192)
def _pile(cards: tuple[str, ...]) -> bytes:
    return bytes(INDEX[c] for c in cards)


def launched(piles: Piles, pad: int) -> bool:
    pile = piles[1 + pad]
    return bool(pile) and pile[-1] == ROCKET_CARD[pad]


def all_launched(piles: Piles) -> bool:
    return all(launched(piles, p) for p in range(4))


def stranded_count(piles: Piles) -> int:
    waste = piles[0]
    return sum(1 for r in ROCKET_CARD if r in waste)


def emergency(piles: Piles) -> bool:
    waste = piles[0]
    return any(r in waste for r in ROCKET_CARD)


def forced_targets(piles: Piles, card: int) -> tuple[int, ...]:
    """The launch pads a turned (or waste-top) card must be played on."""
    pad = ROCKET_PAD[card]
    if pad >= 0:
        return (pad,) if match(piles[1 + pad][-1], card) else ()
    return tuple(p for p in range(4) if not launched(piles, p) and match(piles[1 + p][-1], card))


def put_on(piles: Piles, i: int, card: int) -> Piles:
    return piles[:i] + (piles[i] + bytes((card,)),) + piles[i + 1 :]


def move_top(piles: Piles, src: int, dst: int) -> Piles:
    pile = piles[src]
    out = list(piles)
    out[src] = pile[:-1]
    out[dst] = piles[dst] + pile[-1:]
    return tuple(out)


def free_moves(piles: Piles, onto_waste: bool) -> list[tuple[int, int]]:
    """Every legal free move (source, target), in a fixed order: by source pile, then by target pile,
    then the stations a card may start. Only call while emergency holds.
    ``onto_waste``: the waste heap takes free moves (waste_takes_free_moves=yes)."""
    pile_of = {}  # the top card of each pile a matching card may go on -> that pile
    tops = 0  # those top cards, as bits
    if piles[0] and onto_waste:
        pile_of[piles[0][-1]] = 0
        tops |= 1 << piles[0][-1]
    up = []  # the launched pads
    empty = 0  # stations (as bits) that may take a first card: above a rocket already on its pad
    for p in range(4):
        pile = piles[1 + p]
        if pile and pile[-1] == ROCKET_CARD[p]:
            up.append(True)
            station = piles[5 + p]  # a station only above a rocket already on its pad
            if station:
                pile_of[station[-1]] = 5 + p
                tops |= 1 << station[-1]
            else:
                empty |= 1 << p
        else:
            up.append(False)
            pile_of[pile[-1]] = 1 + p
            tops |= 1 << pile[-1]
    out = []
    for src, pile in enumerate(piles):
        if not pile:
            continue
        if src and src <= 4 and (up[src - 1] or len(pile) < 2):
            continue  # a launched rocket and the original pad cards never move
        card = pile[-1]
        pad = ROCKET_PAD[card]
        if pad >= 0:  # a rocket goes only to its own launch pad
            if match(piles[1 + pad][-1], card):
                out.append((src, 1 + pad))
            continue
        hits = MASK[card] & tops  # never its own pile: no card matches itself
        if hits & (hits - 1):
            targets = []
            while hits:
                low = hits & -hits
                hits ^= low
                targets.append(pile_of[low.bit_length() - 1])
            targets.sort()
            out.extend((src, dst) for dst in targets)
        elif hits:
            out.append((src, pile_of[hits.bit_length() - 1]))
        if src <= 4 and empty:  # a station's first card: from the waste or a pad, matching its rocket
            starts = STARTS[card] & empty
            while starts:
                low = starts & -starts
                starts ^= low
                out.append((src, 4 + low.bit_length()))
    return out


def move_text(src: int, dst: int) -> str:
    return f"move {PLACES[src]} {PLACES[dst]}"
