"""Search over Solar Solitaire positions (pure and deterministic: no clock, no randomness).

Positions are compact: the nine piles as ``bytes`` of card numbers (index 0 the waste heap, 1-4 the
launch pads 0-3, 5-8 the space stations 0-3, each bottom to top) and how many stock cards have been
turned. Two searches:

- ``free_search``: from a position whose stockpile is used up, can free movement bring another
  stranded rocket onto its pad? Depth-first over free moves with a visited set (free moves can
  cycle); it stops at the first success, so "no" is an exhaustive proof and the number of distinct
  positions visited is part of the recorded loss.
- ``solve_position``: can the game still be won, and how? With the stock order known this is an
  open-information analysis (the solver sees the order of the face-down stock). Every search runs
  under a node budget and says "undecided" when the budget runs out: never a silent guess.

The moves mirror ``rules.py`` exactly (tests cross-check them): forced plays from the turned card and
the cascade from the waste heap; free moves and station starts while a rocket lies in the waste.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator

import attrs

from .cards import ALL_CARDS, PLACES, ROCKETS, matches

N = len(ALL_CARDS)
INDEX = {c: i for i, c in enumerate(ALL_CARDS)}
MASK: tuple[int, ...] = tuple(sum(1 << j for j, d in enumerate(ALL_CARDS) if matches(c, d)) for c in ALL_CARDS)
ROCKET_CARD: tuple[int, ...] = tuple(INDEX[r] for r in ROCKETS)
ROCKET_PAD: tuple[int, ...] = tuple(ROCKETS.index(c) if c in ROCKETS else -1 for c in ALL_CARDS)
WASTE_I = 0
PAD_I = (1, 2, 3, 4)
STATION_I = (5, 6, 7, 8)

Piles = tuple  # tuple[bytes, ...] of length 9


def match(a: int, b: int) -> bool:
    return (MASK[a] >> b) & 1 == 1


def piles_of(state) -> Piles:
    """The nine piles of an engine state, as card numbers."""
    return (
        bytes(INDEX[c] for c in state.waste),
        *(bytes(INDEX[c] for c in p) for p in state.pads),
        *(bytes(INDEX[c] for c in p) for p in state.stations),
    )


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


def _put(piles: Piles, i: int, card: int) -> Piles:
    return piles[:i] + (piles[i] + bytes((card,)),) + piles[i + 1 :]


def _move(piles: Piles, src: int, dst: int) -> Piles:
    card = piles[src][-1]
    out = list(piles)
    out[src] = piles[src][:-1]
    out[dst] = piles[dst] + bytes((card,))
    return tuple(out)


def free_moves(piles: Piles) -> list[tuple[int, int]]:
    """Every legal free move (source, target), in a fixed order. Only call while emergency holds."""
    launched_ = [launched(piles, p) for p in range(4)]
    targets = []  # (pile, its top card) for the piles a matching card may go on
    if piles[0]:
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


def move_text(src: int, dst: int) -> str:
    return f"move {PLACES[src]} {PLACES[dst]}"


def cascade(piles: Piles, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Piles]]:
    """Play the waste top while it matches a launch pad; every way the player's choices can go."""
    if not piles[0] or all_launched(piles):
        return [(prefix, piles)]
    card = piles[0][-1]
    targets = forced_targets(piles, card)
    if not targets:
        return [(prefix, piles)]
    out = []
    for t in targets:
        moved = _move(piles, 0, 1 + t)
        out.extend(cascade(moved, prefix + ((f"play pad{t}",) if len(targets) > 1 else ())))
    return out


def place_turned(piles: Piles, card: int, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Piles]]:
    """The turned card's forced play (or the waste heap), then the cascade."""
    targets = forced_targets(piles, card)
    if not targets:
        return [(prefix, _put(piles, 0, card))]
    out = []
    for t in targets:
        played = _put(piles, 1 + t, card)
        out.extend(cascade(played, prefix + ((f"play pad{t}",) if len(targets) > 1 else ())))
    return out


# -- the loss proof --------------------------------------------------------------------------------


def free_search(piles: Piles, limit: int | None = None) -> tuple[bool | None, int, tuple[str, ...]]:
    """Can free movement alone bring another stranded rocket onto its pad?

    Breadth-first over free moves with a visited set, so a rescue found is a shortest one. Returns
    (found, positions visited, the moves that do it). ``found`` is None when ``limit`` positions were
    visited without an answer; False is an exhaustive proof."""
    if not emergency(piles):
        return False, 1, ()
    parent: dict = {piles: None}
    frontier = [piles]
    while frontier:
        nxt = []
        for node in frontier:
            for src, dst in free_moves(node):
                child = _move(node, src, dst)
                if child in parent:
                    continue
                parent[child] = (node, (src, dst))
                if 1 <= dst <= 4 and ROCKET_PAD[node[src][-1]] >= 0:  # a rocket reached its pad
                    line = []
                    cur = child
                    while parent[cur] is not None:
                        prev, mv = parent[cur]
                        line.append(move_text(*mv))
                        cur = prev
                    return True, len(parent), tuple(reversed(line))
                if limit is not None and len(parent) >= limit:
                    return None, len(parent), ()
                nxt.append(child)
        frontier = nxt
    return False, len(parent), ()


def rescue_dfs(piles: Piles, limit: int) -> tuple[bool | None, int, tuple[str, ...]]:
    """A quick, depth-first hunt for a rescue (rocket moves first, then moves off the waste heap).
    Finding one proves the game goes on; not finding one within ``limit`` proves nothing."""
    if not emergency(piles):
        return False, 1, ()
    parent: dict = {piles: None}
    stack = [piles]
    while stack:
        node = stack.pop()
        moves = free_moves(node)
        # order: pushed last = tried first
        moves.sort(key=lambda m: (ROCKET_PAD[node[m[0]][-1]] >= 0, m[0] == 0), reverse=False)
        for src, dst in moves:
            child = _move(node, src, dst)
            if child in parent:
                continue
            parent[child] = (node, (src, dst))
            if 1 <= dst <= 4 and ROCKET_PAD[node[src][-1]] >= 0:
                line = []
                cur = child
                while parent[cur] is not None:
                    prev, mv = parent[cur]
                    line.append(move_text(*mv))
                    cur = prev
                return True, len(parent), tuple(reversed(line))
            if len(parent) >= limit:
                return None, len(parent), ()
            stack.append(child)
    return False, len(parent), ()


# -- the full solver -------------------------------------------------------------------------------


@attrs.frozen
class Result:
    verdict: str  # "winnable", "unwinnable", "undecided"
    positions: int
    line: tuple[str, ...] = ()


def _children(piles: Piles, k: int, deck: bytes) -> Iterator[tuple[tuple[str, ...], Piles, int]]:
    """Successors of a resting position, best-looking first (the order only affects speed)."""
    moves = free_moves(piles) if emergency(piles) else []
    later = []
    for src, dst in moves:
        card = piles[src][-1]
        if ROCKET_PAD[card] >= 0:
            yield (move_text(src, dst),), _move(piles, src, dst), k
        elif src == 0:
            yield (move_text(src, dst),), _move(piles, src, dst), k
        else:
            later.append((src, dst))
    if k < len(deck):
        for cmds, child in place_turned(piles, deck[k], ("turn",)):
            yield cmds, child, k + 1
    for src, dst in later:
        yield (move_text(src, dst),), _move(piles, src, dst), k


def solve_position(
    roots: list[tuple[tuple[str, ...], Piles, int]], deck: bytes, budget: int
) -> Result:
    """Search for a won position: depth-first with half the budget, then, if undecided, best-first
    with the rest (the two find different wins quickly). Either one exhausting the positions proves
    the deal unwinnable; ``positions`` counts both phases, so it never exceeds ``budget``."""
    first = depth_first(roots, deck, max(1, budget // 2))
    if first.verdict != "undecided" or budget - first.positions <= 0:
        return first
    second = best_first(roots, deck, budget - first.positions)
    return Result(second.verdict, first.positions + second.positions, second.line)


def _launched_count(piles: Piles) -> int:
    return sum(1 for p in range(4) if launched(piles, p))


def _priority(piles: Piles, k: int) -> int:
    """Best-first order: most rockets launched, then furthest through the stock, then smallest waste heap."""
    return _launched_count(piles) * 1000 + k * 10 - len(piles[0]) * 3


def _winning_line(parent: dict, key, deck: bytes) -> tuple[str, ...]:
    """Follow the parent links back from the won position ``key`` and shorten the line."""
    path: list = []
    cur = key
    while cur is not None:
        prev, commands = parent[cur]
        path.append((cur, commands))
        cur = prev
    path.reverse()
    return _shortened(path, deck)


def best_first(roots: list[tuple[tuple[str, ...], Piles, int]], deck: bytes, budget: int) -> Result:
    """Best-first search (most rockets launched, then furthest through the stock, then smallest
    waste heap first; ties by order of discovery, so it is deterministic), with a visited set."""
    import heapq

    heap: list = []
    counter = 0
    parent: dict = {}
    seen: set = set()
    for cmds, piles, k in roots:
        key = (piles, k)
        if key not in parent:
            parent[key] = (None, cmds)
            heapq.heappush(heap, (-_priority(piles, k), counter, key))
            counter += 1
    count = 0
    while heap:
        _, _, key = heapq.heappop(heap)
        if key in seen:
            continue
        seen.add(key)
        count += 1
        piles, k = key
        if all_launched(piles):
            return Result("winnable", count, _winning_line(parent, key, deck))
        if count >= budget:
            return Result("undecided", count)
        for c_cmds, c_piles, c_k in _children(piles, k, deck):
            c_key = (c_piles, c_k)
            if c_key not in parent:
                parent[c_key] = (key, c_cmds)
                heapq.heappush(heap, (-_priority(c_piles, c_k), counter, c_key))
                counter += 1
    return Result("unwinnable", count)


def depth_first(
    roots: list[tuple[tuple[str, ...], Piles, int]], deck: bytes, budget: int
) -> Result:
    """Depth-first search for a won position from the given root successors, with a visited set."""
    seen: dict = {}
    count = 0
    stack: list = []
    for cmds, piles, k in reversed(roots):
        stack.append((cmds, piles, k, None))
    # parent links: key -> (parent key, commands)
    parent: dict = {}
    while stack:
        cmds, piles, k, from_key = stack.pop()
        key = (piles, k)
        if key in seen:
            continue
        seen[key] = None
        parent[key] = (from_key, cmds)
        count += 1
        if all_launched(piles):
            return Result("winnable", count, _winning_line(parent, key, deck))
        if count >= budget:
            return Result("undecided", count)
        children = list(_children(piles, k, deck))
        for c_cmds, c_piles, c_k in reversed(children):
            if (c_piles, c_k) not in seen:
                stack.append((c_cmds, c_piles, c_k, key))
    return Result("unwinnable", count)


def _shortened(path: list, deck: bytes) -> tuple[str, ...]:
    """The depth-first path with its detours cut out: from each position on it, jump to the furthest
    later position on it that one command reaches. The line stays legal and still wins."""
    index = {key: i for i, (key, _) in enumerate(path)}
    line: list[str] = list(path[0][1])
    i = 0
    while i < len(path) - 1:
        piles, k = path[i][0]
        best, best_cmds = i + 1, path[i + 1][1]
        for cmds, c_piles, c_k in _children(piles, k, deck):
            j = index.get((c_piles, c_k), -1)
            if j > best:
                best, best_cmds = j, cmds
        line.extend(best_cmds)
        i = best
    return tuple(line)


def roots_of(state, deck: bytes) -> list[tuple[tuple[str, ...], Piles, int]]:
    """The positions the player can reach by the command now due (resolving a waiting choice or turn)."""
    piles = piles_of(state)
    if state.choice:
        out = []
        card = INDEX[state.waiting_card]
        for t in state.choice:
            if state.hand is not None:
                out.extend(cascade(_put(piles, 1 + t, card), (f"play pad{t}",)))
            else:
                out.extend(cascade(_move(piles, 0, 1 + t), (f"play pad{t}",)))
        return [(c, p, 0) for c, p in out]
    if state.asked:
        return [(c, p, 1) for c, p in place_turned(piles, deck[0])]
    return [((), piles, 0)]


# -- simple players ----------------------------------------------------------------------------------


def play_forced_only(piles: Piles, deck: bytes) -> bool:
    """Turn every card, make only the forced plays (lowest pad when there is a choice), no emergency rules."""
    for card in deck:
        if all_launched(piles):
            return True
        piles = place_turned(piles, card)[0][1]
    return all_launched(piles)


def _greedy_moves(piles: Piles) -> Piles:
    """Free moves that only ever shrink the waste heap: a rocket to its pad first, else the waste top
    to the lowest launch pad, else to the lowest space station."""
    while emergency(piles) and piles[0]:
        moves = [m for m in free_moves(piles) if m[0] == 0]
        if not moves:
            break
        rocket = [m for m in moves if ROCKET_PAD[piles[0][-1]] >= 0]
        src, dst = (rocket or moves)[0]
        piles = _move(piles, src, dst)
        # the text's cascade applies to forced plays only; the greedy player keeps taking the waste top
    return piles


def play_greedy(piles: Piles, deck: bytes) -> bool:
    piles = _greedy_moves(piles)
    for card in deck:
        if all_launched(piles):
            return True
        piles = place_turned(piles, card)[0][1]
        piles = _greedy_moves(piles)
    return all_launched(piles)


def deal_seed(seed: int, index: int) -> int:
    """The chance seed of the index-th deal of a survey (``solrec new solar-solitaire --seed`` it)."""
    return int.from_bytes(hashlib.sha256(f"solrec-survey:{seed}:{index}".encode()).digest()[:8], "big") >> 1


def deal_position(game, seed: int):
    """The state after a seeded deal, through the kernel exactly as ``solrec new --seed`` makes it."""
    from ..play import advance_chance, initial_state, make_header

    header = make_header(game, None, {}, "seeded", seed)
    _, state, _ = advance_chance(game, header, initial_state(game, header), 0)
    return state


def survey(game, deals: int, seed: int, budget: int, progress: Callable[[int], None] | None = None) -> dict:
    rows = []
    totals = {"winnable": 0, "unwinnable": 0, "undecided": 0, "forced_won": 0, "greedy_won": 0, "positions": 0}
    for i in range(deals):
        s = deal_seed(seed, i)
        state = deal_position(game, s)
        deck = bytes(INDEX[c] for c in state.stock)
        piles = piles_of(state)
        if state.result == "won":
            result = Result("winnable", 1)
        else:
            result = solve_position(roots_of(state, deck), deck, budget)
        forced = state.result == "won" or play_forced_only(piles, deck)
        greedy = state.result == "won" or play_greedy(piles, deck)
        totals[result.verdict] += 1
        totals["forced_won"] += forced
        totals["greedy_won"] += greedy
        totals["positions"] += result.positions
        rows.append({"index": i, "seed": s, "verdict": result.verdict, "positions": result.positions,
                     "forced_won": forced, "greedy_won": greedy})
        if progress is not None:
            progress(1)
    decided = totals["winnable"] + totals["unwinnable"]

    def share(n: int, of: int) -> float | None:
        return round(n / of, 4) if of else None

    return {
        "game": game.id,
        "deals": deals,
        "seed": seed,
        "budget": budget,
        **totals,
        "decided": decided,
        "share_winnable": share(totals["winnable"], deals),
        "share_winnable_of_decided": share(totals["winnable"], decided),
        "share_forced_won": share(totals["forced_won"], deals),
        "share_greedy_won": share(totals["greedy_won"], deals),
        "share_decided": share(decided, deals),
        "note": (
            "open-information analysis: the solver knows the order of each seeded stockpile; "
            "'undecided' deals ran out of the node budget and are counted as neither won nor lost"
        ),
        "rows": rows,
    }
