"""The loss proof at the end of the stockpile: can free movement still free a stranded rocket?

001: "You lose when the final stockpile card is turned and there's no way to free any rockets
stranded in the waste heap." The proof is complete up to a budget of positions (``BUDGET``): False
is a proof, True comes with the moves that free the rocket, and None - the search ran past its
budget without settling it - is no verdict at all, so no loss is declared and the game goes on:

1. Only the topmost stranded rocket can be freed first: a rocket under it never becomes the waste
   top while it lies there, and it leaves the waste heap only for its own pad. So the question is
   whether that one rocket ``r`` can reach its pad ``p``.
2. Cheap sufficient proofs (``hopeless``): an over-approximation of what free movement can ever do,
   computed as a fixpoint over cards - which cards can ever be a pile's top, which can ever move,
   which can ever lie on top of pad ``p``. If no card that matches ``r`` can ever top pad ``p``, or a
   card above ``r`` can never leave the waste heap, the game is lost. It settles most losses
   without searching a single position (for instance: every card that could carry ``r`` buried
   under a launched rocket).
3. Otherwise an exhaustive depth-first search over a reduced position with a transposition table:
   cards out of play are dropped (everything under a launched rocket, everything under ``r`` in the
   waste heap), and every position the cheap proof already shows hopeless is cut off unexpanded.

Pure and deterministic; the count of positions searched is what a loss records.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import PLACES
from .piles import (
    MASK,
    ROCKET_CARD,
    ROCKET_PAD,
    STARTS,
    Piles,
    free_moves,
    move_text,
    move_top,
)

CARRIERS: tuple[int, ...] = tuple(MASK[r] for r in ROCKET_CARD)  # the cards each rocket may land on
ROCKETS = sum(1 << r for r in ROCKET_CARD)


def top_stranded(piles: Piles) -> int:
    """The index in the waste heap of the topmost stranded rocket (-1 if none)."""
    waste = piles[0]
    return max(waste.rfind(r) for r in ROCKET_CARD)


def reduced(piles: Piles) -> Piles:
    """The position without the cards that can no longer matter: the waste heap from the topmost
    stranded rocket up, and of a launched pad only its rocket."""
    i = top_stranded(piles)
    pads = (pile[-1:] if pile and pile[-1] == r else pile for pile, r in zip(piles[1:5], ROCKET_CARD))
    return (piles[0][i:] if i >= 0 else piles[0], *pads, *piles[5:])


def hopeless(piles: Piles, onto_waste: bool, floating: int = 0, every: bool = False) -> bool:
    """A sufficient proof that the topmost stranded rocket (``every``: some stranded rocket) can
    never reach its pad. False: maybe it can."""
    waste = piles[0]
    rising = 0  # the pads of the rockets above the one examined: they launch first
    for i in range(len(waste) - 1, -1, -1):
        pad = ROCKET_PAD[waste[i]]
        if pad < 0:
            continue
        if _stuck(piles, i, rising, onto_waste, floating):
            return True
        if not every:
            return False
        rising |= 1 << pad
    return False


def _stuck(piles: Piles, i: int, rising: int, onto_waste: bool, floating: int) -> bool:
    """Can the stranded rocket at ``i`` in the waste heap never reach its pad? The rockets above it
    (their pads ``rising``) must launch first: they count as free to leave, their stations as open.

    Over-approximates free movement card by card: a card can *surface* when it is a top or the card
    above it can move; a card can *move* when it surfaces, is not fixed (an original pad card, a
    rocket, a launched pile) and matches some card that can surface or move on a pile that takes
    free moves, or can start a station. A rocket freed needs every card above it to move and a card
    matching it that can top its pad: one already in the pad's pile that can surface, or a movable
    card matching a card that can top the pad."""
    waste = piles[0]
    rocket = waste[i]
    pad = ROCKET_PAD[rocket]
    up = [bool(pile) and pile[-1] == r for pile, r in zip(piles[1:5], ROCKET_CARD)]  # launched pads
    # the cards of each pile that can ever move are a suffix; track surfaced cards as bitmasks
    fixed = 1 << rocket  # cards that never move (original pad cards, launched piles, rockets)
    columns = [(waste[i:], onto_waste, False)]  # (pile, takes free moves, a pad or a station)
    for p in range(4):
        if not up[p]:
            fixed |= 1 << piles[1 + p][0]
            columns.append((piles[1 + p], True, True))
    stations = [s for s in range(4) if up[s]]
    columns.extend((piles[5 + s], True, True) for s in stations)
    startable = 0  # rockets whose station could take a first card
    surfaced = floating
    movable = floating & ~ROCKETS
    targets = floating & ~ROCKETS  # cards that can be a target on a pile taking free moves
    grounded = floating  # cards that can surface on a launch pad or a space station
    if floating or rising:
        movable |= sum(1 << ROCKET_CARD[q] for q in range(4) if rising >> q & 1)  # leaving the waste heap
        for s in range(4):
            if floating >> ROCKET_CARD[s] & 1 or rising >> s & 1:
                startable |= 1 << s  # a rocket yet to launch opens its station
    # a least fixpoint of monotone rules: cards are reached (surface) once, from each pile's top down
    # while the card above can move; a reached card waits (``pending``) until it can move itself
    reach = [len(col) for col, _, _ in columns]  # per pile, the lowest card reached so far
    pending = 0
    changed = True
    while changed:
        changed = False
        for s in stations:
            if not startable >> s & 1:
                pile = piles[5 + s]
                if not pile or movable >> pile[0] & 1:
                    startable |= 1 << s
                    changed = True
        rest = pending
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            if MASK[c] & (targets | movable) or startable & STARTS[c]:
                movable |= low
                pending ^= low
                changed = True
        for k, (col, takes, ground) in enumerate(columns):
            j = reach[k]
            while j and (j == len(col) or movable >> col[j] & 1):
                j -= 1
                c = col[j]
                bit = 1 << c
                surfaced |= bit
                if ground:
                    grounded |= bit
                if takes:
                    targets |= bit
                if not (movable | fixed) & bit:
                    if MASK[c] & (targets | movable) or startable & STARTS[c]:
                        movable |= bit
                    else:
                        pending |= bit
                changed = True
            reach[k] = j
    if not surfaced >> rocket & 1:
        return True  # a card above the rocket can never leave the waste heap
    # the cards that can ever top the pad: its own surfacing cards, then movable cards matching them
    on_pad = 0
    for c in piles[1 + pad]:
        if surfaced >> c & 1:
            on_pad |= 1 << c
    if not _carried(on_pad, movable) & CARRIERS[pad]:
        return True
    # a card above the rocket whose only resting place off the waste heap is the pad's own original
    # card will lie there when the rocket surfaces: the pad then shows a card the rocket may land on
    # only if a chain of movable cards, each matching the one under it, leads from it to one
    base = 1 << piles[1 + pad][0]
    for w in waste[i + 1 :]:
        if MASK[w] & (grounded | movable) != base or startable & STARTS[w]:
            continue
        if not _carried(1 << w, movable) & CARRIERS[pad]:
            return True
    return False


def _carried(cards: int, movable: int) -> int:
    """``cards`` and every movable card that can come to lie on one of them: a movable card matching
    one, again and again."""
    grow = True
    while grow:
        grow = False
        rest = movable & ~cards
        while rest:
            low = rest & -rest
            rest ^= low
            if MASK[low.bit_length() - 1] & cards:
                cards |= low
                grow = True
    return cards


# Positions (reduced, with the option) known not to be lost: those on a rescue line ``rescue`` found
# (it records them), and those one free move from such a position (``known_not_lost``). From each, a
# sequence of free moves frees the topmost stranded rocket, so ``rescue`` there cannot answer False:
# the cheap proof is sound (``hopeless`` is True only where no rescue exists), so it calls no position
# of that sequence hopeless, and the search expands every position it reaches but those the cheap
# proof calls hopeless; it walks the sequence to its end unless it frees a rocket sooner (True) or
# passes its budget first (None). Either way no loss is declared, so ``decide`` asks here first and
# searches only off every line found before: a player who follows a rescue costs one search, not one
# per move. A bounded cache of derived facts: no answer depends on what it holds.
_NOT_LOST: set = set()
_NOT_LOST_MAX = 20_000  # a few games' worth of lines; emptied when full (the answers never depend on it)


def known_not_lost(piles: Piles, onto_waste: bool) -> bool:
    """A rescue line found before runs through this position, or a free move leads from it to such a
    position (which makes it one too: a player who steps off a line, or follows another one, often
    can step back): ``rescue`` here would not say False."""
    key = (reduced(piles), onto_waste)
    if key in _NOT_LOST:
        return True
    node = key[0]
    if top_stranded(node) < 0:
        return False
    if any((move_top(node, src, dst), onto_waste) in _NOT_LOST for src, dst in free_moves(node, onto_waste)):
        if len(_NOT_LOST) >= _NOT_LOST_MAX:
            _NOT_LOST.clear()
        _NOT_LOST.add(key)
        return True
    return False


# Almost every search is tiny (the largest of 200 forced-play endings: 1,373 positions), but a rare
# ending reaches millions of positions and gigabytes; a rule engine must answer every command, so
# the search stops here (about 10 s and 200 MB) and says it does not know.
BUDGET = 250_000


@lru_cache(maxsize=4096)
def rescue(piles: Piles, onto_waste: bool, budget: int = BUDGET) -> tuple[bool | None, int, tuple[str, ...]]:
    """Can free movement bring the topmost stranded rocket onto its pad? (found, positions searched,
    the moves that do it). False is a proof; None: the search passed ``budget`` positions without
    settling it. ``positions`` is 0 when the cheap proof settles it without a search."""
    if top_stranded(piles) < 0 or hopeless(piles, onto_waste):
        return False, 0, ()
    root = reduced(piles)
    parent: dict = {root: None}
    stack = [root]
    while stack:
        if len(parent) > budget:
            return None, len(parent), ()
        node = stack.pop()
        moves = free_moves(node, onto_waste)
        # depth-first, tried first (pushed last): a rocket to its pad, then a card off the waste heap
        moves.sort(key=lambda m: (ROCKET_PAD[node[m[0]][-1]] >= 0, m[0] == 0))
        for src, dst in moves:
            child = move_top(node, src, dst)
            if child in parent:
                continue
            parent[child] = (node, (src, dst))
            if 1 <= dst <= 4 and ROCKET_PAD[node[src][-1]] >= 0:  # a rocket onto its pad: freed
                line = []
                cur = child
                if len(_NOT_LOST) >= _NOT_LOST_MAX:
                    _NOT_LOST.clear()
                while parent[cur] is not None:
                    prev, mv = parent[cur]
                    line.append(move_text(*mv))
                    cur = prev
                    _NOT_LOST.add((cur, onto_waste))  # every position on the line but the freed one
                return True, len(parent), tuple(reversed(line))
            # the cheap proof again where it is most likely to change its answer: a card has left
            # the waste heap (skipping it elsewhere is sound, a hopeless position just gets searched)
            if src == 0 and hopeless(child, onto_waste):
                continue
            stack.append(child)
    return False, len(parent), ()


_NEXT: dict = {}  # a position on a rescue line found before -> the line's next move


def next_rescue_move(piles: Piles, onto_waste: bool) -> str | None:
    """The next move of a rescue, staying on the line found before when the position lies on it (so
    a player who follows a rescue move by move follows one line to its end); None: no rescue found
    (none exists, or the search ran past its budget)."""
    key = (piles, onto_waste)
    if key in _NEXT:
        return _NEXT[key]
    found, _, line = rescue(piles, onto_waste)
    if not found:
        return None
    if len(_NEXT) > 100_000:
        _NEXT.clear()
    cur = piles
    for text in line:
        _NEXT[(cur, onto_waste)] = text
        _, src, dst = text.split()
        cur = move_top(cur, PLACES.index(src), PLACES.index(dst))
    return line[0]
