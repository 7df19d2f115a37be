"""Solari rules: numbers, partial moves, shots, reentry, forfeits, scoring calls and the end."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any

import attrs

from ..errors import IllegalCommand
from ..frozen import evolve as copy_with
from ..game import Choice, Choices, Field, Form
from ..words import quoted
from . import text
from .board import BLOCKER, CHASER, COMET, DOUBLER, FACINGS, MARGIN, Piece, as_dict, name
from .commands import Deal, Domino, Enter, Place, Roll, Step, Turn
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .layout import CODE_KIND, KIND_CODE
from .scoring import ScoringRules, score_move
from .state import DOMINOES, Held, Options, State, decided, evolve

DOMINO_MOVES = 21
TEAMS = (("Uranus", "Neptune"), ("Saturn", "Jupiter"))
DIRS = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _ring() -> tuple[int, ...]:
    top = [c for c in range(8)]
    right = [r * 10 + 7 for r in range(1, 8)]
    bottom = [70 + c for c in range(6, -1, -1)]
    left = [r * 10 for r in range(6, 0, -1)]
    return tuple(top + right + bottom + left)


RING = _ring()  # the 28 margin squares clockwise from 00
RING_INDEX = {sq: i for i, sq in enumerate(RING)}


# -- who is who ---------------------------------------------------------------------------------
def team_of(state: State, side: str) -> tuple[str, ...]:
    if state.opts.teams:
        for team in TEAMS:
            if side in team:
                return team
    return (side,)


# Each side's own points up to and including a scored move, keyed by the move's identity (the entry
# holds the move, so its id is not reused): ``settle`` checks the target after every move, and summing
# every move of the game each time made re-deciding a long game quadratic. A ScoredMove is created
# only by ``_move_scored``, appended to one ``scored`` tuple, so the object and its index name its
# prefix: its points are its predecessor's plus its own.
_OWN: dict[int, tuple[Any, int, dict[str, int]]] = {}


def _own_points(state: State) -> dict[str, int]:
    scored = state.scored
    n = len(scored)
    own = {side: 0 for side in state.sides}
    start = n  # walk back to the last move whose points are known (the validator's states and the
    while start > 0:  # ones ``decide`` builds share their earlier moves, not their latest)
        hit = _OWN.get(id(scored[start - 1]))
        if hit is not None and hit[0] is scored[start - 1] and hit[1] == start:
            own = dict(hit[2])
            break
        start -= 1
    if len(_OWN) >= 16384:
        _OWN.clear()
    for i in range(start, n):
        move = scored[i]
        own[move.side] += sum(u.points for u in move.units)
        _OWN[id(move)] = (move, i + 1, dict(own))
    return own


def totals(state: State) -> dict[str, int]:
    """Each side's total; partners show their team's shared total."""
    own = _own_points(state)
    return {side: sum(own[s] for s in team_of(state, side) if s in own) for side in state.sides}


def scoring_rules(state: State) -> ScoringRules:
    return _scoring_rules(state.opts)


@functools.lru_cache(maxsize=64)  # read at every move's scoring; a game's options never change
def _scoring_rules(opts: Options) -> ScoringRules:
    fields = {f.name: getattr(opts, f.name) for f in attrs.fields(ScoringRules) if hasattr(opts, f.name)}
    return ScoringRules(**fields)


def piece_name(p: Piece) -> str:
    if p.kind == COMET:
        return f"{p.side}'s comet {p.number}"
    return f"{p.side}'s {p.kind}"


def piece_code(p: Piece) -> str:
    return str(p.number) if p.kind == COMET else KIND_CODE[p.kind]


# -- phases -------------------------------------------------------------------------------------
def pending_place(state: State):
    for h in state.held:
        if h.kind is not None:
            return h
    return None


def needs_entry(state: State) -> bool:
    return not state.entry_done and any(p.side == state.mover for p in state.off_board)


def phase(state: State) -> str:
    # asked before and after every event decided: the empty ``held`` and ``off_board`` of most
    # states answer without a call
    if state.ended is not None:
        return "over"
    if state.held and pending_place(state) is not None:
        return "place"
    if state.opts.source == "dominoes-open" and any(not d for d in state.dealt):
        return "deal"
    if state.numbers is None:
        return "numbers"
    if state.off_board and needs_entry(state):
        return "enter"
    return "move"


# -- landing and geometry -----------------------------------------------------------------------
def landing_refusal(board: dict, side: str, to: int) -> str | None:
    """Why ``side`` may not land on ``to`` (an opposing blocker or doubler there), else None."""
    occupant = board.get(to)
    if occupant is None or occupant.side == side:
        return None
    if occupant.kind == BLOCKER:
        return f"{piece_name(occupant)} on {name(to)} cannot be shot ({text.BLOCKER})"
    if occupant.kind == DOUBLER:
        return f"{piece_name(occupant)} on {name(to)} cannot be shot ({text.DOUBLER_SHOT})"
    return None


def stranded_doubler(board: dict, side: str, frm: int, to: int) -> str | None:
    """Why landing on ``to`` is refused because it would shoot the mover's own doubler while no margin
    square is left for it, else None (docs/rules/solari.md#no-free-margin-square)."""
    occupant = board.get(to)
    if occupant is None or occupant.side != side or occupant.kind != DOUBLER:
        return None
    if frm in RING_INDEX or any(m not in board for m in MARGIN):
        return None
    return f"{piece_name(occupant)} on {name(to)} cannot be shot: no margin square would be free for it ({text.DOUBLER_MARGIN})"


def distances(state: State) -> tuple[int, ...]:
    if not state.left:
        return ()
    if state.joker:
        return (1, 2, 3, 4, 5, 6)
    return tuple(sorted(set(state.left)))


def geometry(piece: Piece, frm: int, to: int) -> tuple[int, str | None] | str:
    """(distance, facing) of a step from ``frm`` to ``to`` for this piece, or the reason it cannot go."""
    if frm == to:
        return "a partial move must leave its square"
    if piece.kind == DOUBLER:
        if to not in RING_INDEX:
            return f"a doubler stays on the margin squares ({text.DOUBLER_MARGIN})"
        cw = (RING_INDEX[to] - RING_INDEX[frm]) % 28
        return (min(cw, 28 - cw), None)
    (r1, c1), (r2, c2) = divmod(frm, 10), divmod(to, 10)
    dr, dc = r2 - r1, c2 - c1
    if dr == 0 or dc == 0:
        dist = abs(dr) + abs(dc)
        facing = "N" if dr < 0 else "S" if dr > 0 else "W" if dc < 0 else "E"
        return (dist, facing if piece.kind == COMET else None)
    if abs(dr) == abs(dc):
        if piece.kind == CHASER:
            return (abs(dr), None)
        return f"only chasers move diagonally ({text.CHASER_DIAG})"
    return f"{name(frm)}-{name(to)} is not a straight line ({text.ORTHOGONAL})"


def targets(piece: Piece, frm: int, d: int) -> list[int]:
    if piece.kind == DOUBLER:
        if frm not in RING_INDEX:
            return []
        i = RING_INDEX[frm]
        return sorted({RING[(i + d) % 28], RING[(i - d) % 28]})
    r, c = divmod(frm, 10)
    steps = list(DIRS.values()) + (list(DIAGONALS) if piece.kind == CHASER else [])
    out = []
    for dr, dc in steps:
        rr, cc = r + dr * d, c + dc * d
        if 0 <= rr < 8 and 0 <= cc < 8:
            out.append(rr * 10 + cc)
    return out


@attrs.frozen
class StepOption:
    frm: int
    to: int
    distance: int
    piece: Piece  # after the step
    shot: Piece | None


def step_options(state: State) -> list[StepOption]:
    """Every partial move the mover could make now, before the must-play-both filter."""
    ds = distances(state)
    if not ds or state.move_done:
        return []
    board = as_dict(state.board)
    side = state.mover
    out = []
    for frm, piece in state.board:
        if piece.side != side:
            continue
        for d in ds:
            for to in targets(piece, frm, d):
                if landing_refusal(board, side, to) or stranded_doubler(board, side, frm, to):
                    continue
                geo = geometry(piece, frm, to)
                assert not isinstance(geo, str)
                moved = copy_with(piece, facing=geo[1]) if piece.kind == COMET else piece
                out.append(StepOption(frm, to, d, moved, board.get(to)))
    return out


# The last state ``has_step`` answered, with its answer: deciding a first partial move asks it of the
# state the move leads to (must the other number be playable?), then ``settle`` asks it again of the
# same state (must the mover go on?). States are frozen, and the one held here keeps its id its own.
_LAST_HAS_STEP: tuple[State | None, bool] = (None, False)


def has_step(state: State) -> bool:
    """Whether any partial move is possible (``step_options`` without building them)."""
    global _LAST_HAS_STEP
    last = _LAST_HAS_STEP
    if last[0] is state:
        return last[1]
    answer = _has_step(state)
    _LAST_HAS_STEP = (state, answer)
    return answer


def _has_step(state: State) -> bool:
    ds = distances(state)
    if not ds or state.move_done:
        return False
    board = as_dict(state.board)
    side = state.mover
    for frm, piece in state.board:
        if piece.side != side:
            continue
        for d in ds:
            for to in targets(piece, frm, d):
                if not landing_refusal(board, side, to) and not stranded_doubler(board, side, frm, to):
                    return True
    return False


def _event(state: State, o: StepOption) -> Stepped:
    return Stepped(state.mover, o.piece, o.frm, o.to, o.distance, o.shot)


def _continues(state: State, o: StepOption) -> bool:
    """After this first partial move (and the placement of a self-shot piece), can the other number
    still be played?"""
    return _continues_from(evolve(state, _event(state, o)))


def _continues_from(s1: State) -> bool:
    """``_continues``, given the state the first partial move leads to."""
    h = pending_place(s1)
    if h is None:
        return has_step(s1)
    places = raw_places(s1)
    if not places:
        return has_step(evolve(s1, SetAside(h.piece, h.square, h.kind)))
    return any(has_step(evolve(s1, Placed(_placed_piece(h, p), p.square, h.kind))) for p in places)


@functools.lru_cache(maxsize=32)
def legal_step_options(state: State) -> list[StepOption]:
    opts = step_options(state)
    if not state.partials and len(state.left) == 2:
        good = [o for o in opts if _continues(state, o)]
        if good:  # 000: "But you must move that way in the first, that the second move is possible."
            return good
    return opts


# -- placements ---------------------------------------------------------------------------------
def free_margin(state: State) -> list[int]:
    board = as_dict(state.board)
    return [m for m in MARGIN if m not in board]


def raw_places(state: State) -> list[Place]:
    h = pending_place(state)
    return [] if h is None else list(_places(state, h))


def _places(state: State, h: Held) -> Iterator[Place]:
    """Where the held piece ``h`` may go, before 000's must-play-both (``raw_places``, one at a time)."""
    free = free_margin(state)
    if h.kind == "simple":
        r, c = divmod(h.square, 10)
        line = [m for m in free if m // 10 == r or m % 10 == c]
        return (Place(m, None) for m in (line or free))
    facings = FACINGS if h.piece.kind == COMET else (None,)
    return (Place(m, f) for m in free for f in facings)


def _may_place(state: State, h: Held, c: Place) -> bool:
    """Whether ``c`` is among ``raw_places`` (deciding a placement checks it, not lists them all): a
    free margin square; after a simple shot one in the shot square's row or column while one is free
    (``text.SIMPLE``, ``text.SIMPLE_FULL``), with no facing (``text.KEEP``); after an aimed shot any
    free one (``text.AIMED``), a comet with its facing."""
    board = as_dict(state.board)
    if c.square not in MARGIN or c.square in board:
        return False
    if h.kind == "simple":
        if c.facing is not None:
            return False
        r, col = divmod(h.square, 10)
        on_line = c.square // 10 == r or c.square % 10 == col
        return on_line or not any(m not in board and (m // 10 == r or m % 10 == col) for m in MARGIN)
    return c.facing in (FACINGS if h.piece.kind == COMET else (None,))


def _placed_piece(h, place: Place) -> Piece:
    if h.kind == "aimed" and h.piece.kind == COMET:
        return copy_with(h.piece, facing=place.facing)
    return h.piece


def _places_filtered(state: State) -> bool:
    """Whether 000's must-play-both narrows the placements: after the first of two partial moves."""
    return len(state.partials) == 1 and not state.move_done and not state.entered


def legal_places(state: State, limit: int | None = None) -> list[Place]:
    """The legal placements; with ``limit``, the first ``limit`` of them (whether there are none,
    one or more is all ``settle`` asks, and the list need not be built whole for that)."""
    h = pending_place(state)
    if h is None:
        return []
    if not _places_filtered(state):
        return list(itertools.islice(_places(state, h), limit))
    places = raw_places(state)
    good = []
    for p in places:
        if has_step(evolve(state, Placed(_placed_piece(h, p), p.square, h.kind))):
            good.append(p)
            if limit is not None and len(good) >= limit:
                break
    if good:
        return good
    return places if limit is None else places[:limit]


# -- reentry ------------------------------------------------------------------------------------
def numbers_of(state: State) -> tuple[int, int]:
    """The mover's two numbers (set before any partial move or reentry is decided)."""
    assert state.numbers is not None
    return state.numbers


def entry_squares(state: State) -> list[int]:
    a, b = numbers_of(state)
    if state.joker:
        return [x * 10 + y for x in range(1, 7) for y in range(1, 7)]
    return sorted({a * 10 + b, b * 10 + a})


def entry_is_double(state: State, square: int) -> bool:
    if state.joker:
        return square // 10 == square % 10
    a, b = numbers_of(state)
    return a == b


def legal_entries(state: State) -> list[Enter]:
    board = as_dict(state.board)
    out = []
    for p in state.off_board:
        if p.side != state.mover:
            continue
        for sq in entry_squares(state):
            if landing_refusal(board, state.mover, sq):
                continue
            for f in FACINGS if p.kind == COMET else (None,):
                out.append(Enter(piece_code(p), sq, f))
    return out


# -- deciding commands --------------------------------------------------------------------------
class _Out:
    """Events being decided, with the state they lead to."""

    def __init__(self, state: State):
        self.state = state
        self.events: list = []
        self.folds: list[tuple[State, Any, State]] = []  # (before, event, after), for ``decided``

    def emit(self, event, after: State | None = None) -> None:
        """Add ``event``; ``after``, when given, is the state it leads to (folded already to check it)."""
        before = self.state
        self.events.append(event)
        self.state = evolve(before, event) if after is None else after
        self.folds.append((before, event, self.state))


def _dom(d) -> str:
    return f"{d[0]}-{d[1]}"


def decide(state: State, command) -> tuple:
    ph = phase(state)
    out = _Out(state)
    if isinstance(command, Roll):
        _decide_roll(state, ph, command, out)
    elif isinstance(command, Turn):
        _decide_turn(state, ph, command, out)
    elif isinstance(command, Deal):
        _decide_deal(state, ph, command, out)
    elif isinstance(command, Domino):
        _decide_domino(state, ph, command, out)
    elif isinstance(command, Step):
        _decide_step(state, ph, command, out)
    elif isinstance(command, Place):
        _decide_place(state, ph, command, out)
    elif isinstance(command, Enter):
        _decide_enter(state, ph, command, out)
    else:
        raise IllegalCommand(f"Solari has no command {type(command).__name__}")
    settle(out)
    decided(out.folds)
    return tuple(out.events)


def _not_now(state: State, ph: str, wanted: str) -> IllegalCommand:
    what = {
        "place": "first place the shot piece (place SQUARE [FACING])",
        "deal": "the open dominoes are still being dealt",
        "numbers": {
            "dice": "the dice are not rolled yet",
            "dominoes-hidden": "the next domino is not turned yet",
            "dominoes-free": f"{state.mover} first chooses a domino (domino A-B)",
            "dominoes-open": "the next domino is not laid yet",
        }[state.opts.source],
        "enter": f"{state.mover} must first reenter a totally shot piece (enter PIECE SQUARE [FACING]; {text.REENTER})",
        "move": f"{state.mover} is moving (a partial move such as 25-55)",
        "over": "the game is over",
    }[ph]
    return IllegalCommand(f"{what}; {wanted} is not possible now")


def _joker(state: State, numbers) -> bool:
    return state.opts.joker and tuple(numbers) == (6, 6)


def _decide_roll(state, ph, c: Roll, out) -> None:
    if state.opts.source != "dice":
        raise IllegalCommand(f"this game's numbers come from {state.opts.source}, not from dice")
    if ph != "numbers":
        raise _not_now(state, ph, "a roll")
    if len(c.dice) != 2 or any(d not in range(1, 7) for d in c.dice):
        raise IllegalCommand(f"a roll is two dice from 1 to 6, not {c.dice}")
    out.emit(NumbersSet(state.mover, (c.dice[0], c.dice[1]), "rolled", _joker(state, c.dice)))


def _unplayed(state: State) -> list[tuple[int, int]]:
    played = state.played[state.turn]
    return [d for d in DOMINOES if d not in played]


def _decide_turn(state, ph, c: Turn, out) -> None:
    if state.opts.source != "dominoes-hidden":
        raise IllegalCommand(f"a domino is turned only with hidden dominoes (this game: {state.opts.source})")
    if ph != "numbers":
        raise _not_now(state, ph, "turning a domino")
    d = tuple(sorted(c.domino))
    if d not in _unplayed(state):
        raise IllegalCommand(f"{state.mover} has already played the domino {_dom(d)} ({text.REMOVED})")
    out.emit(NumbersSet(state.mover, d, "turned", _joker(state, d)))


def _decide_deal(state, ph, c: Deal, out) -> None:
    if state.opts.source != "dominoes-open":
        raise IllegalCommand(f"dominoes are dealt face up only with open dominoes (this game: {state.opts.source})")
    if ph != "deal":
        raise _not_now(state, ph, "dealing")
    side = next(s for s, d in zip(state.sides, state.dealt) if not d)
    if c.side != side:
        raise IllegalCommand(f"{side}'s dominoes are dealt next, not {c.side}'s")
    order = tuple((min(d), max(d)) for d in c.order)
    if sorted(order) != list(DOMINOES):
        raise IllegalCommand(f"a set is the 21 dominoes 1-1 .. 6-6, each once ({text.DOMINOES})")
    out.emit(Dealt(side, order))


def _decide_domino(state, ph, c: Domino, out) -> None:
    if state.opts.source != "dominoes-free":
        raise IllegalCommand(f"a domino is chosen only with free dominoes (this game: {state.opts.source})")
    if ph != "numbers":
        raise _not_now(state, ph, "choosing a domino")
    d = tuple(sorted(c.domino))
    if d not in _unplayed(state):
        raise IllegalCommand(f"the domino {_dom(d)} is already played ({text.REMOVED}); {text.FREE}")
    out.emit(NumbersSet(state.mover, d, "chosen", _joker(state, d)))


def _decide_step(state: State, ph, c: Step, out) -> None:
    if ph != "move":
        raise _not_now(state, ph, f"the partial move {name(c.frm)}-{name(c.to)}")
    board = as_dict(state.board)
    piece = board.get(c.frm)
    if piece is None:
        raise IllegalCommand(f"there is no piece on {name(c.frm)}")
    if piece.side != state.mover:
        raise IllegalCommand(f"the piece on {name(c.frm)} is {piece_name(piece)}; {state.mover} moves only his own pieces")
    geo = geometry(piece, c.frm, c.to)
    if isinstance(geo, str):
        raise IllegalCommand(geo)
    dist, _ = geo
    ds = distances(state)
    if dist not in ds:
        nums = " or ".join(map(str, ds))
        raise IllegalCommand(f"{name(c.frm)}-{name(c.to)} moves {dist}, but the number to play is {nums} ({text.DICE})")
    refusal = landing_refusal(board, state.mover, c.to) or stranded_doubler(board, state.mover, c.frm, c.to)
    if refusal:
        raise IllegalCommand(refusal)
    # The command is checked by deciding it, not by listing every partial move (validation re-decides
    # every recorded one): the option this step is, as ``step_options`` builds it, and whether the
    # other number can follow it. Only where it cannot does 000's "you must move that way in the first,
    # that the second move is possible" need the other first moves (``legal_step_options``).
    d = dist if c.to in targets(piece, c.frm, dist) else None  # no other distance reaches c.to
    if d is not None and not state.move_done:
        moved = copy_with(piece, facing=geo[1]) if piece.kind == COMET else piece
        option = StepOption(c.frm, c.to, d, moved, board.get(c.to))
        event = _event(state, option)
        after = evolve(state, event)
        if state.partials or len(state.left) != 2 or _continues_from(after):
            out.emit(event, after)
            return
    legal = legal_step_options(state)
    match = [o for o in legal if (o.frm, o.to) == (c.frm, c.to)]
    if not match:
        raise IllegalCommand(
            f"after {name(c.frm)}-{name(c.to)} the other number could not be played, but another first move "
            f"allows both ({text.MUST_BOTH})"
        )
    out.emit(_event(state, match[0]))


def _decide_place(state: State, ph, c: Place, out) -> None:
    if ph != "place":
        raise _not_now(state, ph, f"placing on {name(c.square)}")
    h = pending_place(state)
    if not _may_place(state, h, c):
        places = raw_places(state)
        squares = sorted({p.square for p in places})
        if c.square not in squares:
            if h.kind == "simple":
                rule = text.SIMPLE if len(squares) < len(free_margin(state)) else text.SIMPLE_FULL
            else:
                rule = text.AIMED
            raise IllegalCommand(
                f"{piece_name(h.piece)} ({h.kind} shot on {name(h.square)}) may go to "
                f"{' '.join(map(name, squares))}, not {name(c.square)} ({rule})"
            )
        if h.kind == "simple" or h.piece.kind != COMET:
            why = text.KEEP if h.kind == "simple" else "only comets have a facing"
            raise IllegalCommand(f"{piece_name(h.piece)} keeps its facing; give no facing ({why})")
        raise IllegalCommand(f"an aimed shot's comet needs a facing N, E, S or W ({text.AIM_DIR})")
    # checked by deciding it: the placement allows the other number, or (else) no placement does
    event = Placed(_placed_piece(h, c), c.square, h.kind)
    after = evolve(state, event)
    if _places_filtered(state) and not has_step(after):
        if c not in legal_places(state):
            raise IllegalCommand(f"placed on {name(c.square)} the other number could not be played ({text.MUST_BOTH})")
    out.emit(event, after)


def _decide_enter(state: State, ph, c: Enter, out) -> None:
    if ph != "enter":
        raise _not_now(state, ph, "a reentry")
    mine = [p for p in state.off_board if p.side == state.mover]
    piece = next((p for p in mine if piece_code(p) == c.piece), None)
    if piece is None:
        codes = ", ".join(piece_code(p) for p in mine)
        raise IllegalCommand(f"{state.mover} has no piece {quoted(c.piece)} off the board (off the board: {codes})")
    squares = entry_squares(state)
    if c.square not in squares:
        raise IllegalCommand(
            f"the numbers {_dom(state.numbers)} name the entering square {' or '.join(map(name, squares))}, "
            f"not {name(c.square)} ({text.ENTRY_SQUARE})"
        )
    board = as_dict(state.board)
    refusal = landing_refusal(board, state.mover, c.square)
    if refusal:
        raise IllegalCommand(refusal)
    if piece.kind == COMET and c.facing not in FACINGS:
        raise IllegalCommand(f"a reentering comet needs a facing N, E, S or W ({text.ENTRY_DIR})")
    if piece.kind != COMET and c.facing is not None:
        raise IllegalCommand(f"a {piece.kind} has no facing")
    occupant = board.get(c.square)
    kind = None
    if occupant is not None:
        if occupant.side == state.mover:
            kind = "simple"
        else:
            kind = "total" if entry_is_double(state, c.square) else "aimed"
    out.emit(Entered(state.mover, copy_with(piece, facing=c.facing), c.square, occupant, kind))


# -- automatic consequences ---------------------------------------------------------------------
def judge(state: State) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of the opposing shots of this move, once both partial moves are over."""
    parts = state.partials
    one_piece_twice = len(parts) == 2 and (parts[0].kind, parts[0].number) == (parts[1].kind, parts[1].number)
    shots = sum(1 for p in parts if p.shot)
    if state.joker:
        double = len(parts) == 2 and parts[0].distance == parts[1].distance
    else:
        a, b = numbers_of(state)
        double = a == b
    kinds, reasons = [], []
    for h in state.held:
        if h.kind is not None:
            continue
        if h.by == CHASER:
            kinds.append("total" if double else "aimed")
            reasons.append(
                f"a chaser shoots always aimed ({text.CHASER})" + (f"; with a double: total ({text.TOTAL})" if double else "")
            )
        elif one_piece_twice and shots == 1:
            kinds.append("total" if double else "aimed")
            reasons.append(f"one piece moved twice, one piece shot ({text.AIMED})" + (f"; with a double: total ({text.TOTAL})" if double else ""))
        elif shots > 1:
            kinds.append("simple")
            reasons.append(f"two pieces shot in one move ({text.TWO_SHOTS})")
        elif len(parts) < 2:
            kinds.append("simple")
            reasons.append(f"only one partial move was played, so no piece moved twice ({text.AIMED})")
        else:
            kinds.append("simple")
            reasons.append(f"two pieces moved ({text.SIMPLE_TWO})")
    return tuple(kinds), tuple(reasons)


def moved_squares(state: State) -> tuple[int, ...]:
    ids = {(p.kind, p.number) for p in state.partials} | {(p.kind, p.number) for p in state.entered}
    return tuple(sq for sq, p in state.board if p.side == state.mover and (p.kind, p.number) in ids)


def end_reason(state: State) -> str | None:
    opts = state.opts
    if opts.target > 0:
        tot = totals(state)
        best = max(tot.values())
        if best >= opts.target:
            who = [s for s in state.sides if tot[s] == best]
            return f"{' and '.join(who)} reached {best} points (target {opts.target}; {text.WIN})"
    if opts.moves > 0 and all(m >= opts.moves for m in state.moves_made):
        return f"every player made {opts.moves} moves ({text.OTHER_TARGET})"
    if opts.source.startswith("dominoes") and all(m >= DOMINO_MOVES for m in state.moves_made):
        return f"the dominoes ran out after {DOMINO_MOVES} moves per player ({text.REMOVED})"
    return None


def settle(out: _Out) -> None:
    """Play every automatic consequence until someone must decide."""
    while True:
        s = out.state
        ph = phase(s)
        if ph in ("over", "deal"):
            return
        if ph == "place":
            places = legal_places(s, limit=2)
            if len(places) == 1:
                h = pending_place(s)
                out.emit(Placed(_placed_piece(h, places[0]), places[0].square, h.kind))
                continue
            if not places:  # 28 pieces on the margin: the piece leaves the board (solari.md)
                h = pending_place(s)
                out.emit(SetAside(h.piece, h.square, h.kind))
                continue
            return
        if ph == "numbers":
            if s.opts.source == "dominoes-open":
                i = s.turn
                d = s.dealt[i][len(s.played[i])]
                out.emit(NumbersSet(s.mover, d, "next", _joker(s, d)))
                continue
            return
        if ph == "enter":
            if not legal_entries(s):
                out.emit(ReentryPostponed(s.mover, "every entering square is held by an opposing blocker or doubler"))
                continue
            return
        # move
        if not s.move_done:
            if has_step(s):
                return
            if s.partials:
                out.emit(NumberLost(s.mover, s.left[0]))
            else:
                out.emit(Forfeited(s.mover, f"no piece can move ({text.FORFEIT})"))
            continue
        if any(h.kind is None for h in s.held):
            kinds, reasons = judge(s)
            out.emit(Judged(kinds, reasons))
            continue
        units = score_move(s.before, s.board, s.mover, moved_squares(s), scoring_rules(s))
        out.emit(MoveScored(s.mover, s.moves_made[s.turn] + 1, tuple(units)))
        reason = end_reason(out.state)
        if reason:
            out.emit(GameEnded(reason))
            return


# -- enumeration --------------------------------------------------------------------------------
def legal_commands(state: State):
    ph = phase(state)
    if ph == "over":
        return ()
    if ph == "place":
        return tuple(legal_places(state))
    if ph == "deal":
        return None
    if ph == "numbers":
        if state.opts.source == "dominoes-free":
            return tuple(Domino(d) for d in _unplayed(state))
        return None
    if ph == "enter":
        return tuple(legal_entries(state))
    return tuple(Step(o.frm, o.to) for o in legal_step_options(state))


# -- at the table: what to click (``solrec serve``) ----------------------------------------------
FACE_WORD = "facing {}"  # a comet's facing as a step


def chance_choices(state: State) -> tuple[Form, ...]:
    return (chance_form(state),)


def choices(state: State, actor: str) -> Choices:
    """A partial move is the piece's square then where it goes; a shot piece's placement its margin
    square (a comet of an aimed shot then its facing); a reentry the piece, its square, a comet's
    facing; a free domino itself. Squares are named as the notation writes them (``25``), the
    ``data-spot`` of the picture's squares. At an entered table, chance is a form: the two dice, the
    mover's next domino among those not played yet (played ones lie face up), a side's dealt order."""
    from .notation import format as write

    listed = []
    for command in legal_commands(state) or ():
        if isinstance(command, Step):
            steps: tuple[str, ...] = (f"{command.frm:02d}", f"{command.to:02d}")
            group = "move"
        elif isinstance(command, Place):
            steps, group = (f"{command.square:02d}",), "place"
        elif isinstance(command, Enter):
            piece = f"comet {command.piece}" if command.piece.isdigit() else CODE_KIND[command.piece]
            steps, group = (piece, f"{command.square:02d}"), "enter"
        else:
            steps, group = (write(command).split()[-1],), "domino"
        facing = getattr(command, "facing", None)
        listed.append(Choice(write(command), (*steps, FACE_WORD.format(facing)) if facing else steps, group))
    return Choices(actor, tuple(listed))


def chance_form(state: State) -> Form:
    dominoes = tuple(f"{a}-{b}" for a, b in DOMINOES)
    if phase(state) == "deal":
        side = next(s for s, d in zip(state.sides, state.dealt) if not d)
        names = [f"d{k}" for k in range(1, len(DOMINOES) + 1)]
        return Form("deal", f"deal {side} " + " ".join(f"{{{n}}}" for n in names),
                    tuple(Field(n, dominoes, once=True) for n in names), f"deal {side} " + " ".join(dominoes),
                    f"{side}'s 21 dominoes in their shuffled order, each once")
    if state.opts.source == "dominoes-hidden":
        unplayed = tuple(f"{a}-{b}" for a, b in _unplayed(state))
        return Form("turn", "turn {domino}", (Field("domino", unplayed),), f"turn {unplayed[0]}",
                    "the mover's next domino turned face up")
    faces = tuple("123456")
    return Form("roll", "roll {a} {b}", (Field("a", faces), Field("b", faces)), "roll 3 5", "the two dice as rolled")
