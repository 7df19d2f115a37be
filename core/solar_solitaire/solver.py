"""Search over Solar Solitaire positions (pure and deterministic: no clock, no randomness).

A position is the piles (``piles.py``) and how many stock cards have been turned. The search builds
on the loss proof at the end of the stockpile (``proof.py``); here:

- ``solve_position``: can the game still be won, and how? With the stock order known this is an
  open-information analysis (the solver sees the order of the face-down stock). Every search runs
  under a node budget and says "undecided" when the budget runs out: never a silent guess.

The moves mirror ``rules.py`` exactly (tests cross-check them): forced plays from the turned card and
the cascade from the waste heap; free moves and station starts while a rocket lies in the waste.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import attrs

from . import proof
from .cards import PLACES
from .piles import (
    INDEX,
    MASK,
    ROCKET_CARD,
    ROCKET_PAD,
    Piles,
    all_launched,
    emergency,
    forced_targets,
    free_moves,
    launched,
    move_text,
    move_top,
    piles_of,
    put_on,
    stranded_count,
)


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
        moved = move_top(piles, 0, 1 + t)
        out.extend(cascade(moved, prefix + ((f"play pad{t}",) if len(targets) > 1 else ())))
    return out


def place_turned(piles: Piles, card: int, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Piles]]:
    """The turned card's forced play (or the waste heap), then the cascade."""
    targets = forced_targets(piles, card)
    if not targets:
        return [(prefix, put_on(piles, 0, card))]
    out = []
    for t in targets:
        played = put_on(piles, 1 + t, card)
        out.extend(cascade(played, prefix + ((f"play pad{t}",) if len(targets) > 1 else ())))
    return out


# -- the full solver -------------------------------------------------------------------------------


@attrs.frozen
class Result:
    verdict: str  # "winnable", "unwinnable", "undecided"
    positions: int
    line: tuple[str, ...] = ()


Root = tuple  # (commands that reach it, piles, stock cards turned)


def out_of_play(piles: Piles) -> Piles:
    """The position with the cards under each launched rocket left out: they never move again
    (001: "all cards under it are out of play"), so positions differing only there are one."""
    if not any(len(piles[1 + p]) > 1 and launched(piles, p) for p in range(4)):
        return piles
    return (piles[0], *(pile[-1:] if launched(piles, p) else pile for p, pile in enumerate(piles[1:5])), *piles[5:])


def _children(piles: Piles, k: int, deck: bytes, onto_waste: bool) -> list[tuple[tuple[str, ...], Piles, int]]:
    """Successors of a resting position, most promising first (the order only affects speed): a
    rocket to its pad; a card off the waste heap; a card its topmost stranded rocket may land on
    onto that rocket's pad; a move uncovering a card the waste top may go on; turning the next
    card; any other free move."""
    ranked: list = []
    if emergency(piles):
        waste = piles[0]
        top = waste[-1]
        pad = next(ROCKET_PAD[c] for c in reversed(waste) if ROCKET_PAD[c] >= 0)
        carriers = MASK[ROCKET_CARD[pad]]
        for src, dst in free_moves(piles, onto_waste):
            card = piles[src][-1]
            if ROCKET_PAD[card] >= 0:
                rank = 0
            elif src == 0:
                rank = 1
            elif dst == 1 + pad and carriers >> card & 1:
                rank = 2
            elif len(piles[src]) > 1 and MASK[top] >> piles[src][-2] & 1:
                rank = 3
            else:
                rank = 5
            ranked.append((rank, len(ranked), (move_text(src, dst),), move_top(piles, src, dst), k))
    if k < len(deck):
        for cmds, child in place_turned(piles, deck[k], ("turn",)):
            ranked.append((4, len(ranked), cmds, child, k + 1))
    ranked.sort()
    return [(cmds, out_of_play(child), c_k) for _, _, cmds, child, c_k in ranked]


class _Search:
    """Depth-first search with a transposition table; positions that cannot be won are cut off by the
    loss proof's reductions: mid-game the cheap proof (stock cards counted as free to turn up
    anywhere), once the stockpile is used up the complete proof."""

    def __init__(self, deck: bytes, onto_waste: bool, budget: int):
        self.deck = deck
        self.onto_waste = onto_waste
        self.budget = budget
        self.count = 0
        # the stock cards still to turn after k turns, as a bitmask
        self.floating = [sum(1 << c for c in deck[k:]) for k in range(len(deck) + 1)]

    def dead(self, piles: Piles, k: int, full: bool) -> bool:
        """Proven lost: by the cheap proof, and (``full``) once the stock is used up by the complete
        proof. Skipping the question is always sound, only slower: it is asked on entering a
        position by a turn or a launch (``full``) or by a card off the waste heap, where the answer
        is most likely to change; the moves between piles mostly shuffle and can be undone."""
        if not emergency(piles):
            return False
        if proof.hopeless(piles, self.onto_waste, self.floating[k], every=True):
            return True
        if full and k == len(self.deck):
            found, positions, _ = proof.rescue(piles, self.onto_waste)
            self.count += positions
            return found is False  # undecided (past the proof's budget) is not dead
        return False

    def run(self, roots: list[Root]) -> Result:
        parent: dict = {}
        stack: list = []
        for cmds, piles, k in reversed(roots):
            stack.append((cmds, out_of_play(piles), k, None, 2))
        while stack:
            cmds, piles, k, from_key, entered = stack.pop()
            key = (piles, k)
            if key in parent:
                continue
            parent[key] = (from_key, cmds)
            self.count += 1
            if all_launched(piles):
                return Result("winnable", self.count, _line(parent, key))
            if self.count >= self.budget:
                return Result("undecided", self.budget)
            if entered and self.dead(piles, k, entered > 1):
                continue
            stranded = stranded_count(piles)
            for c_cmds, c_piles, c_k in reversed(_children(piles, k, self.deck, self.onto_waste)):
                if (c_piles, c_k) not in parent:
                    if c_k > k or stranded_count(c_piles) < stranded:
                        entering = 2
                    else:
                        entering = 1 if len(c_piles[0]) < len(piles[0]) else 0
                    stack.append((c_cmds, c_piles, c_k, key, entering))
        return Result("unwinnable", min(self.count, self.budget))


def _line(parent: dict, key) -> tuple[str, ...]:
    out: list[str] = []
    cur = key
    while cur is not None:
        prev, commands = parent[cur]
        out[:0] = commands
        cur = prev
    return tuple(out)


def solve_position(roots: list[Root], deck: bytes, budget: int, onto_waste: bool, start=None) -> Result:
    """Can a won position be reached? Depth-first with a transposition table and the loss proof's
    cut-offs; exhausting the positions proves the deal unwinnable. A winning line found is then
    shortened (``shortest_line``) when the start position ``start`` (see ``Start``) is given."""
    result = _Search(deck, onto_waste, budget).run(roots)
    if result.verdict == "winnable" and start is not None:
        return Result(result.verdict, result.positions, shortest_line(start, deck, result.line, onto_waste))
    return result


# -- replaying and shortening a line ---------------------------------------------------------------


@attrs.frozen
class Start:
    """Where a line starts: the piles, and a forced play waiting for the player's choice (its card,
    whether it is the turned card, and the pads it may go on), or a card being turned."""

    piles: Piles
    waiting: tuple[int, bool, tuple[int, ...]] | None = None
    asked: bool = False


def _turned(piles: Piles, card: int) -> tuple[Piles, tuple[int, bool, tuple[int, ...]] | None]:
    """A turned stock card: onto the waste heap, played where it is forced, or waiting for a choice."""
    targets = forced_targets(piles, card)
    if not targets:
        return put_on(piles, 0, card), None
    if len(targets) == 1:
        return _cascade_until_choice(put_on(piles, 1 + targets[0], card))
    return piles, (card, True, targets)


def _cascade_until_choice(piles: Piles) -> tuple[Piles, tuple[int, bool, tuple[int, ...]] | None]:
    while piles[0] and not all_launched(piles):
        card = piles[0][-1]
        targets = forced_targets(piles, card)
        if not targets:
            break
        if len(targets) > 1:
            return piles, (card, False, targets)
        piles = move_top(piles, 0, 1 + targets[0])
    return piles, None


Waiting = tuple[int, bool, tuple[int, ...]] | None


def _move_of(cmd: str) -> tuple[int, int]:
    """The (source, target) piles of a ``move`` command."""
    _, src, dst = cmd.split()
    return PLACES.index(src), PLACES.index(dst)


def _step(piles: Piles, waiting: Waiting, k: int, cmd: str, deck: bytes) -> tuple[Piles, Waiting, int]:
    """One command of a line known to be legal there: the piles, the choice waiting and the count of
    stock cards turned after it."""
    if cmd == "turn":
        piles, waiting = _turned(piles, deck[k])
        return piles, waiting, k + 1
    if cmd.startswith("play pad"):
        assert waiting is not None
        card, turned, _ = waiting
        pad = int(cmd[-1])
        played = put_on(piles, 1 + pad, card) if turned else move_top(piles, 0, 1 + pad)
        piles, waiting = _cascade_until_choice(played)
        return piles, waiting, k
    return move_top(piles, *_move_of(cmd)), waiting, k


def replay_line(start: Start, deck: bytes, line, onto_waste: bool) -> bool | None:
    """Play a line from ``start`` as the engine would: True if it ends won, False if it is legal but
    not won, None if a command is refused or follows the win."""
    piles, waiting, k = start.piles, start.waiting, 0
    commands = list(line)
    if start.asked:
        commands.insert(0, "turn")
    for cmd in commands:
        if all_launched(piles):
            return None
        if cmd == "turn":
            if waiting is not None or k >= len(deck):
                return None
        elif cmd.startswith("play pad"):
            if waiting is None or int(cmd[-1]) not in waiting[2]:
                return None
        elif waiting is not None or not emergency(piles) or _move_of(cmd) not in free_moves(piles, onto_waste):
            return None
        piles, waiting, k = _step(piles, waiting, k, cmd, deck)
    return all_launched(piles)


def moved_cards(start: Start, deck: bytes, line) -> list[int | None]:
    """For each command of a legal line, the card its free move moves (None for a turn or a play)."""
    piles, waiting, k = start.piles, start.waiting, 0
    commands = (["turn"] if start.asked else []) + list(line)
    out: list[int | None] = []
    for cmd in commands:
        out.append(piles[_move_of(cmd)[0]][-1] if cmd.startswith("move") else None)
        piles, waiting, k = _step(piles, waiting, k, cmd, deck)
    return out[1:] if start.asked else out


SEGMENT_SEARCH_LIMIT = 20_000
ENDGAME_SEARCH_LIMIT = 100_000


def _shortest_moves(a: Piles, b: Piles, onto_waste: bool, limit: int = SEGMENT_SEARCH_LIMIT) -> list[str] | None:
    """The fewest free moves from ``a`` to ``b`` (breadth-first, at most ``limit`` positions; None if
    not found within it)."""
    if a == b:
        return []
    parent: dict = {a: None}
    frontier = [a]
    while frontier and len(parent) < limit:
        nxt = []
        for node in frontier:
            if not emergency(node):
                continue
            for src, dst in free_moves(node, onto_waste):
                child = move_top(node, src, dst)
                if child in parent:
                    continue
                parent[child] = (node, move_text(src, dst))
                if child == b:
                    out = []
                    cur = child
                    while parent[cur] is not None:
                        cur, text = parent[cur]
                        out.append(text)
                    return out[::-1]
                nxt.append(child)
        frontier = nxt
    return None


def _endgame_moves(piles: Piles, onto_waste: bool, limit: int = ENDGAME_SEARCH_LIMIT) -> list[str] | None:
    """Free moves that win from a position (the stock left alone), found by an A*
    (at most ENDGAME_SEARCH_LIMIT positions): each card from the deepest stranded rocket up must
    move at least once, so that count guides it, doubled (lines short, not proven shortest)."""
    import heapq

    def estimate(p: Piles) -> int:
        waste = p[0]
        deepest = next((i for i, c in enumerate(waste) if ROCKET_PAD[c] >= 0), len(waste))
        return 2 * (len(waste) - deepest)

    parent: dict = {piles: None}
    depth = {piles: 0}
    heap = [(estimate(piles), 0, piles)]
    order = 0
    while heap and len(parent) < limit:
        _, _, node = heapq.heappop(heap)
        if all_launched(node):
            out = []
            cur = node
            while parent[cur] is not None:
                cur, text = parent[cur]
                out.append(text)
            return out[::-1]
        if not emergency(node):
            continue
        for src, dst in free_moves(node, onto_waste):
            child = move_top(node, src, dst)
            g = depth[node] + 1
            if child in depth and depth[child] <= g:
                continue
            depth[child] = g
            parent[child] = (node, move_text(src, dst))
            order += 1
            heapq.heappush(heap, (g + estimate(child), order, child))
    return None


def _shortcut_runs(start: Start, deck: bytes, line: list[str], onto_waste: bool, work: Work | None = None) -> list[str]:
    """Each run of free moves replaced by the fewest free moves between the same two positions."""
    piles, waiting, k = start.piles, start.waiting, 0
    commands = (["turn"] if start.asked else []) + line
    out: list[str] = []
    endgame = max((n + 1 for n, c in enumerate(commands) if not c.startswith("move")), default=0)
    i = 0
    while i < len(commands):
        if not commands[i].startswith("move"):
            piles, waiting, k = _step(piles, waiting, k, commands[i], deck)
            out.append(commands[i])
            i += 1
            continue
        if i == endgame:
            # the free moves after the last turn or play: any win by free moves will do
            shorter = _endgame_moves(piles, onto_waste) if work is None else _endgame_moves(piles, onto_waste, work.endgame)
            if shorter is not None and len(shorter) < len(commands) - i:
                out.extend(shorter)
                break
        # a run ends before a card leaves the waste heap (that move cannot be undone; it is kept)
        j, end = i, piles
        while j < len(commands) and commands[j].startswith("move") and not commands[j].startswith("move waste"):
            end = move_top(end, *_move_of(commands[j]))
            j += 1
        if j == i:
            piles, waiting, k = _step(piles, waiting, k, commands[i], deck)
            out.append(commands[i])
            i += 1
            continue
        if j - i <= 1:
            shorter = None
        elif work is None:
            shorter = _shortest_moves(piles, end, onto_waste)
        else:
            shorter = _shortest_moves(piles, end, onto_waste, work.segment) if work.spend(1) else None
        out.extend(shorter if shorter is not None and len(shorter) < j - i else commands[i:j])
        piles, i = end, j
    return out[1:] if start.asked else out


@attrs.define
class Work:
    """A bound on the shortening's work, counted, never timed (a bot's move stays the same for its seed):
    ``segment`` and ``endgame`` positions per search of a run or of the endgame, ``steps`` searches
    and line replays in all; once spent, the line shortened so far (it still wins) is kept."""

    segment: int = 1_000
    endgame: int = 5_000
    steps: int = 60

    def spend(self, n: int) -> bool:
        if self.steps < n:
            return False
        self.steps -= n
        return True


def shortest_line(start: Start, deck: bytes, line: tuple[str, ...], onto_waste: bool,
                  work: Work | None = None) -> tuple[str, ...]:
    """A winning line with its detours taken out: each run of free moves replaced by the fewest free
    moves between the same two positions (when found within SEGMENT_SEARCH_LIMIT), then repeatedly
    drop a free move, or a free move together with the next free move of the same card (a shuttle
    there and back, maybe with other moves between), while the line still wins. What is left has no
    removable detour: no free move, nor such a pair, can be left out."""
    best = _shortcut_runs(start, deck, list(line), onto_waste, work)
    if not replay_line(start, deck, best, onto_waste):
        best = list(line)  # never: the runs end where they ended
    changed = True
    while changed and (work is None or work.steps > 0):
        changed = False
        cards = moved_cards(start, deck, best)
        i = len(best) - 1
        while i >= 0:
            if cards[i] is not None:
                if work is not None and not work.spend(2):
                    break  # the work is spent: keep the line as shortened so far
                trial = best[:i] + best[i + 1 :]
                wins = replay_line(start, deck, trial, onto_waste)
                j = next((j for j in range(i + 1, len(best)) if cards[j] == cards[i]), None)
                if not wins and j is not None:
                    trial = best[:i] + best[i + 1 : j] + best[j + 1 :]
                    wins = replay_line(start, deck, trial, onto_waste)
                if wins:
                    best, changed = trial, True
                    cards = moved_cards(start, deck, best)
                    i = min(i, len(best))
            i -= 1
    return tuple(best)


def start_of(state) -> Start:
    """The line's start position from an engine state."""
    waiting = None
    if state.choice:
        waiting = (INDEX[state.waiting_card], state.hand is not None, tuple(state.choice))
    return Start(piles_of(state), waiting, bool(state.asked))


def roots_of(state, deck: bytes) -> list[Root]:
    """The positions the player can reach by the command now due (resolving a waiting choice or turn)."""
    piles = piles_of(state)
    if state.choice:
        out = []
        card = INDEX[state.waiting_card]
        for t in state.choice:
            if state.hand is not None:
                out.extend(cascade(put_on(piles, 1 + t, card), (f"play pad{t}",)))
            else:
                out.extend(cascade(move_top(piles, 0, 1 + t), (f"play pad{t}",)))
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


def _greedy_moves(piles: Piles, onto_waste: bool) -> Piles:
    """Free moves that only ever shrink the waste heap: a rocket to its pad first, else the waste top
    to the lowest launch pad, else to the lowest space station."""
    while emergency(piles) and piles[0]:
        moves = [m for m in free_moves(piles, onto_waste) if m[0] == 0]
        if not moves:
            break
        rocket = [m for m in moves if ROCKET_PAD[piles[0][-1]] >= 0]
        src, dst = (rocket or moves)[0]
        piles = move_top(piles, src, dst)
        # the text's cascade applies to forced plays only; the greedy player keeps taking the waste top
    return piles


def play_greedy(piles: Piles, deck: bytes, onto_waste: bool) -> bool:
    piles = _greedy_moves(piles, onto_waste)
    for card in deck:
        if all_launched(piles):
            return True
        piles = place_turned(piles, card)[0][1]
        piles = _greedy_moves(piles, onto_waste)
    return all_launched(piles)


def deal_seed(seed: int, index: int) -> int:
    """The chance seed of the index-th deal of a survey (``solrec new solar-solitaire --seed`` it)."""
    return int.from_bytes(hashlib.sha256(f"solrec-survey:{seed}:{index}".encode()).digest()[:8], "big") >> 1


def deal_position(game, seed: int, options: dict | None = None):
    """The state after a seeded deal, through the kernel exactly as ``solrec new --seed`` makes it."""
    from ..play import advance_chance, initial_state, make_header

    header = make_header(game, None, options or {}, "seeded", seed)
    _, state, _ = advance_chance(game, header, initial_state(game, header), 0)
    return state


def survey(
    game, deals: int, seed: int, budget: int, progress: Callable[[int], None] | None = None,
    options: dict | None = None,
) -> dict:
    rows = []
    totals = {"winnable": 0, "unwinnable": 0, "undecided": 0, "forced_won": 0, "greedy_won": 0, "positions": 0}
    for i in range(deals):
        s = deal_seed(seed, i)
        state = deal_position(game, s, options)
        onto_waste = state.waste_takes_free_moves
        deck = bytes(INDEX[c] for c in state.stock)
        piles = piles_of(state)
        if state.result == "won":
            result = Result("winnable", 1)
        else:
            result = solve_position(roots_of(state, deck), deck, budget, onto_waste)
        forced = state.result == "won" or play_forced_only(piles, deck)
        greedy = state.result == "won" or play_greedy(piles, deck, onto_waste)
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
        "options": dict(options or {}),
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
