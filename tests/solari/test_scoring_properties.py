"""Properties of Solari scoring over random boards and random changes (hypothesis)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solrec.core.solari.board import COMET, DOUBLER, FACINGS, LINES, MARGIN, SIDES, Piece, board_from
from solrec.core.solari.scoring import (
    FULL_BOTH_CHOICES,
    PARTIALS_CHOICES,
    PARTNER_DOUBLER_CHOICES,
    UNCHANGED_ROW_CHOICES,
    ScoringRules,
    score_move,
)

ALL_SQUARES = tuple(r * 10 + c for r in range(8) for c in range(8))

rules_strategy = st.builds(
    ScoringRules,
    version=st.sampled_from([1, 2, 3]),
    doublers=st.booleans(),
    teams=st.booleans(),
    full_sequence_and_orientation=st.sampled_from(FULL_BOTH_CHOICES),
    partials_per_row=st.sampled_from(PARTIALS_CHOICES),
    unchanged_row_full_unit=st.sampled_from(UNCHANGED_ROW_CHOICES),
    partner_doubler=st.sampled_from(PARTNER_DOUBLER_CHOICES),
)


@st.composite
def positions(draw):
    """A board (dict) where comets crowd a random window, so that units are frequent."""
    sides = SIDES[: draw(st.integers(2, 4))]
    r0, c0 = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    size = draw(st.sampled_from([3, 3, 4]))
    window = [q for q in ALL_SQUARES if r0 <= q // 10 < r0 + size and c0 <= q % 10 < c0 + size]
    window += [33, 34, 43, 44]
    pieces: dict[int, Piece] = {}
    for i, side in enumerate(sides):
        # the first side crowds the window; the others mostly stand anywhere
        numbers = draw(st.lists(st.integers(1, 6), unique=True, min_size=5 if i == 0 else 0, max_size=6))
        for n in numbers:
            area = window if i == 0 or draw(st.integers(0, 3)) == 0 else ALL_SQUARES
            free = [q for q in area if q not in pieces] or [q for q in ALL_SQUARES if q not in pieces]
            pieces[draw(st.sampled_from(free))] = Piece(side, COMET, n, draw(st.sampled_from(FACINGS)))
        for kind in ("chaser", "blocker"):
            if draw(st.booleans()):
                free = [q for q in ALL_SQUARES if q not in pieces]
                pieces[draw(st.sampled_from(free))] = Piece(side, kind)
        if draw(st.integers(0, 3)) > 0:
            free = [q for q in MARGIN if q not in pieces]
            pieces[draw(st.sampled_from(free))] = Piece(side, DOUBLER)
    return pieces, sides, window


@st.composite
def moves(draw):
    """(before, after, mover, moved): the mover's pieces change squares (and facings) up to twice;
    a piece landing on another sends that one to a free margin square, as a shot would."""
    pieces, sides, window = draw(positions())
    mover = sides[0] if draw(st.integers(0, 3)) else draw(st.sampled_from(sides))
    after = dict(pieces)
    moved: list[int] = []
    for _ in range(draw(st.integers(1, 2))):
        own = [q for q, p in after.items() if p.side == mover]
        if not own:
            break
        src = draw(st.sampled_from(own))
        piece = after.pop(src)
        area = MARGIN if piece.kind == DOUBLER else (window if draw(st.booleans()) else ALL_SQUARES)
        targets = [q for q in area if q != src]
        dst = draw(st.sampled_from(targets))
        if dst in after:
            shot = after.pop(dst)
            if shot.kind == DOUBLER or shot.kind == "blocker":
                after[dst] = shot  # those cannot be shot here: stay put, land elsewhere
                elsewhere = [q for q in targets if q not in after]
                assume(elsewhere)
                dst = draw(st.sampled_from(elsewhere))
            else:
                margin = [q for q in MARGIN if q not in after and q != dst]
                if margin:
                    after[draw(st.sampled_from(margin))] = shot
                # else: no free margin square, the shot piece leaves the board (docs/rules/solari.md)
        if piece.kind == COMET:
            piece = Piece(piece.side, COMET, piece.number, draw(st.sampled_from(FACINGS)))
        after[dst] = piece
        moved = [q for q in moved if q != src] + [dst]
    return board_from(pieces), board_from(after), mover, tuple(moved)


@st.composite
def building_moves(draw):
    """A move that completes a stretch of 3-6 of the mover's comets on a line (or the sun): one or two
    of its comets arrive from elsewhere; numbers and facings are often consecutive / alike, so that
    sequences and orientations are frequent."""
    pieces, sides, _ = draw(positions())
    mover = sides[0]
    pieces = {q: p for q, p in pieces.items() if p.side != mover or p.kind != COMET}
    if draw(st.integers(0, 4)) == 0:
        stretch = tuple(draw(st.permutations([33, 34, 44, 43]))[: draw(st.integers(3, 4))])
    else:
        line = draw(st.sampled_from([line for line in LINES if len(line) >= 3]))
        k = draw(st.integers(3, min(6, len(line))))
        start = draw(st.integers(0, len(line) - k))
        stretch = line[start : start + k]
    k = len(stretch)
    if draw(st.booleans()):
        first = draw(st.integers(1, 7 - k))
        numbers = list(range(first, first + k))
        if draw(st.booleans()):
            numbers.reverse()
        if draw(st.booleans()) and k >= 4:  # spoil one to leave a partial sequence
            i = draw(st.integers(0, k - 1))
            spare = [n for n in range(1, 7) if n not in numbers]
            if spare:
                numbers[i] = draw(st.sampled_from(spare))
    else:
        numbers = draw(st.permutations(range(1, 7)))[:k]
    facing = draw(st.sampled_from(FACINGS))
    facings = [facing if draw(st.integers(0, 3)) else draw(st.sampled_from(FACINGS)) for _ in range(k)]
    for q in stretch:
        pieces.pop(q, None)
    after = dict(pieces)
    for q, n, f in zip(stretch, numbers, facings):
        after[q] = Piece(mover, COMET, n, f)
    before = dict(pieces)
    arriving = draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=2, unique=True))
    for i, (q, n, f) in enumerate(zip(stretch, numbers, facings)):
        if i in arriving:
            free = [x for x in ALL_SQUARES if x not in before and x not in after]
            before[draw(st.sampled_from(free))] = Piece(mover, COMET, n, draw(st.sampled_from(FACINGS)))
        else:
            before[q] = Piece(mover, COMET, n, f)
    moved = tuple(stretch[i] for i in arriving)
    return board_from(before), board_from(after), mover, moved


any_moves = st.one_of(moves(), building_moves())


def rotate(sq: int) -> int:
    """A quarter turn clockwise: (r, c) -> (c, 7 - r)."""
    r, c = divmod(sq, 10)
    return c * 10 + (7 - r)


TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}


def rotate_board(board):
    return board_from(
        {rotate(q): (Piece(p.side, p.kind, p.number, TURN[p.facing]) if p.facing else p) for q, p in board}
    )


def mirror_board(board):
    flip = {"N": "N", "S": "S", "E": "W", "W": "E"}
    return board_from(
        {(q // 10) * 10 + 7 - q % 10: (Piece(p.side, p.kind, p.number, flip[p.facing]) if p.facing else p) for q, p in board}
    )


def signature(units):
    return sorted((u.kind, len(u.squares), u.full, u.value, u.doubled, u.points) for u in units)


@settings(max_examples=150, deadline=None)
@given(positions(), rules_strategy)
def test_an_unchanged_board_scores_nothing(position, rules):
    pieces, sides, _ = position
    b = board_from(pieces)
    for side in sides:
        assert score_move(b, b, side, (), rules) == ()


@settings(max_examples=150, deadline=None)
@given(any_moves, rules_strategy)
def test_rotating_the_board_gives_the_same_points(move, rules):
    before, after, mover, moved = move
    units = score_move(before, after, mover, moved, rules)
    rb, ra, rm = before, after, moved
    for _ in range(3):
        rb, ra, rm = rotate_board(rb), rotate_board(ra), tuple(rotate(q) for q in rm)
        assert signature(score_move(rb, ra, mover, rm, rules)) == signature(units)


@settings(max_examples=100, deadline=None)
@given(any_moves, rules_strategy)
def test_mirroring_the_board_gives_the_same_points(move, rules):
    before, after, mover, moved = move
    units = score_move(before, after, mover, moved, rules)
    mirrored = score_move(mirror_board(before), mirror_board(after), mover, (), rules)
    assert signature(mirrored) == signature(units)


@settings(max_examples=150, deadline=None)
@given(any_moves, rules_strategy)
def test_points_are_never_negative_and_doubling_is_at_most_once(move, rules):
    before, after, mover, moved = move
    for unit in score_move(before, after, mover, moved, rules):
        assert unit.value > 0
        assert unit.points == unit.value * (2 if unit.doubled else 1)
        assert unit.why and unit.rule.startswith('000: "')


@settings(max_examples=150, deadline=None)
@given(any_moves, rules_strategy)
def test_every_units_squares_hold_the_movers_comets(move, rules):
    before, after, mover, moved = move
    pieces = dict(after)
    for unit in score_move(before, after, mover, moved, rules):
        assert unit.side == mover and len(unit.squares) >= 3
        assert all(pieces[q].side == mover and pieces[q].kind == COMET for q in unit.squares)


@settings(max_examples=100, deadline=None)
@given(any_moves, rules_strategy)
def test_only_the_movers_own_comets_make_units(move, rules):
    # if the mover's comets did not change, nothing scores, whatever else moved
    before, after, mover, moved = move
    own = lambda b: {(q, p) for q, p in b if p.side == mover and p.kind == COMET}  # noqa: E731
    if own(before) == own(after):
        assert score_move(before, after, mover, moved, rules) == ()


@settings(max_examples=100, deadline=None)
@given(any_moves, rules_strategy)
def test_version_gates_the_kinds_of_unit(move, rules):
    before, after, mover, moved = move
    allowed = {1: {"row", "sun"}, 2: {"row", "sun", "sequence"}, 3: {"row", "sun", "sequence", "orientation"}}
    for unit in score_move(before, after, mover, moved, rules):
        assert unit.kind in allowed[rules.version]
        assert not (unit.doubled and not rules.doublers)
