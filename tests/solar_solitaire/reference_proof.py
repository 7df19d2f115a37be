"""The loss proof and free moves as they were before issue 24 made them faster (commit 24bcaad),
kept verbatim as the reference the faster code must agree with, answer for answer
(``test_proof_equivalence.py``). Not used by the engine."""

from __future__ import annotations

from solrec.core.solar_solitaire.piles import (
    MASK,
    ROCKET_CARD,
    ROCKET_PAD,
    Piles,
    launched,
    match,
    move_text,
    move_top,
)


def free_moves(piles: Piles, onto_waste: bool) -> list[tuple[int, int]]:
    """Every legal free move (source, target), in a fixed order. Only call while emergency holds.
    ``onto_waste``: the waste heap takes free moves (waste_takes_free_moves=yes)."""
    launched_ = [launched(piles, p) for p in range(4)]
    targets = []  # (pile, its top card) for the piles a matching card may go on
    if piles[0] and onto_waste:
        targets.append((0, piles[0][-1]))
    for p in range(4):
        if not launched_[p]:
            targets.append((1 + p, piles[1 + p][-1]))
    empty_stations = []
    for s in range(4):
        if launched_[s]:  # a station only above a rocket already on its pad
            pile = piles[5 + s]
            if pile:
                targets.append((5 + s, pile[-1]))
            else:
                empty_stations.append(s)
    out = []
    for src in range(9):
        pile = piles[src]
        if not pile:
            continue
        if 1 <= src <= 4 and (launched_[src - 1] or len(pile) < 2):
            continue  # a launched rocket and the original pad cards never move
        card = pile[-1]
        pad = ROCKET_PAD[card]
        if pad >= 0:  # a rocket goes only to its own launch pad
            if match(piles[1 + pad][-1], card):
                out.append((src, 1 + pad))
            continue
        mask = MASK[card]
        for dst, top in targets:
            if dst != src and (mask >> top) & 1:
                out.append((src, dst))
        if src <= 4:  # a station's first card: from the waste or a pad, matching its rocket
            for s in empty_stations:
                if (mask >> ROCKET_CARD[s]) & 1:
                    out.append((src, 5 + s))
    return out


CARRIERS: tuple[int, ...] = tuple(MASK[r] for r in ROCKET_CARD)  # the cards each rocket may land on


def top_stranded(piles: Piles) -> int:
    """The index in the waste heap of the topmost stranded rocket (-1 if none)."""
    waste = piles[0]
    for i in range(len(waste) - 1, -1, -1):
        if ROCKET_PAD[waste[i]] >= 0:
            return i
    return -1


def reduced(piles: Piles) -> Piles:
    """The position without the cards that can no longer matter: the waste heap from the topmost
    stranded rocket up, and of a launched pad only its rocket."""
    i = top_stranded(piles)
    out = [piles[0][i:] if i >= 0 else piles[0]]
    for p in range(4):
        out.append(piles[1 + p][-1:] if launched(piles, p) else piles[1 + p])
    out.extend(piles[5:])
    return tuple(out)


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
    rocket = piles[0][i]
    pad = ROCKET_PAD[rocket]
    # the cards of each pile that can ever move are a suffix; track surfaced cards as bitmasks
    fixed = 0  # cards that never move (original pad cards, launched piles, rockets)
    columns: list[bytes] = []
    target_pile: list[bool] = []
    for idx, pile in enumerate(piles):
        if idx == 0:
            pile = pile[i:]
            columns.append(pile)
            target_pile.append(onto_waste)
            fixed |= 1 << rocket
            continue
        if 1 <= idx <= 4:
            if launched(piles, idx - 1):
                continue
            fixed |= 1 << pile[0]
            columns.append(pile)
            target_pile.append(True)
            continue
        if launched(piles, idx - 5):
            columns.append(pile)
            target_pile.append(True)
    startable = 0  # rockets whose station could take a first card
    rockets = sum(1 << r for r in ROCKET_CARD)
    leaving = sum(1 << ROCKET_CARD[q] for q in range(4) if rising >> q & 1)
    surfaced = floating
    movable = (floating & ~rockets) | leaving
    targets = floating & ~rockets  # cards that can be a target on a pile taking free moves
    grounded = floating  # cards that can surface on a launch pad or a space station
    for s in range(4):
        if floating >> ROCKET_CARD[s] & 1 or rising >> s & 1:
            startable |= 1 << s  # a rocket yet to launch opens its station
    changed = True
    while changed:
        changed = False
        for s in range(4):
            if launched(piles, s) and not startable >> s & 1:
                pile = piles[5 + s]
                if not pile or movable >> pile[0] & 1:
                    startable |= 1 << s
                    changed = True
        for ci, (col, takes) in enumerate(zip(columns, target_pile)):
            n = len(col)
            for j in range(n - 1, -1, -1):
                c = col[j]
                bit = 1 << c
                if not (j == n - 1 or movable >> col[j + 1] & 1):
                    break
                if not surfaced & bit:
                    surfaced |= bit
                    changed = True
                if ci:
                    grounded |= bit
                if takes and not targets & bit:
                    targets |= bit
                    changed = True
                if movable & bit or fixed & bit:
                    continue
                starts = any(startable >> s & 1 and MASK[c] >> ROCKET_CARD[s] & 1 for s in range(4))
                if MASK[c] & (targets | movable) or starts:
                    movable |= bit
                    changed = True
    if not surfaced >> rocket & 1:
        return True  # a card above the rocket can never leave the waste heap
    # the cards that can ever top the pad: its own surfacing cards, then movable cards matching them
    on_pad = 0
    for c in piles[1 + pad]:
        if surfaced >> c & 1:
            on_pad |= 1 << c
    grow = True
    while grow:
        grow = False
        for c in range(len(MASK)):
            if movable >> c & 1 and not on_pad >> c & 1 and MASK[c] & on_pad:
                on_pad |= 1 << c
                grow = True
    if not on_pad & CARRIERS[pad]:
        return True
    # a card above the rocket whose only resting place off the waste heap is the pad's own original
    # card will lie there when the rocket surfaces: the pad then shows a card the rocket may land on
    # only if a chain of movable cards, each matching the one under it, leads from it to one
    base = piles[1 + pad][0]
    for w in piles[0][i + 1 :]:
        rests = MASK[w] & (grounded | movable)
        if rests != 1 << base or any(startable >> s & 1 and MASK[w] >> ROCKET_CARD[s] & 1 for s in range(4)):
            continue
        chain = 1 << w
        grow = True
        while grow:
            grow = False
            for c in range(len(MASK)):
                if movable >> c & 1 and not chain >> c & 1 and MASK[c] & chain:
                    chain |= 1 << c
                    grow = True
        if not chain & CARRIERS[pad]:
            return True
    return False


def _freed(node: Piles, src: int, dst: int) -> bool:
    return 1 <= dst <= 4 and ROCKET_PAD[node[src][-1]] >= 0


# Almost every search is tiny (the largest of 200 forced-play endings: 1,373 positions), but a rare
# ending reaches millions of positions and gigabytes; a rule engine must answer every command, so
# the search stops here (about 10 s and 200 MB) and says it does not know.
BUDGET = 250_000


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
            if _freed(node, src, dst):
                line = []
                cur = child
                while parent[cur] is not None:
                    prev, mv = parent[cur]
                    line.append(move_text(*mv))
                    cur = prev
                return True, len(parent), tuple(reversed(line))
            # the cheap proof again where it is most likely to change its answer: a card has left
            # the waste heap (skipping it elsewhere is sound, a hopeless position just gets searched)
            if src == 0 and hopeless(child, onto_waste):
                continue
            stack.append(child)
    return False, len(parent), ()
