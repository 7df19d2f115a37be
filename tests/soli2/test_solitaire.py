"""SOLITAIRE: CLASSIC SOLITAIRE and "SOLI2" SOLITAIRE."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.chance import SeededDraw
from solrec.core.errors import IllegalCommand
from solrec.core.game import CHANCE
from solrec.core.soli2 import board as B
from solrec.core.soli2 import text
from solrec.core.soli2.commands import Draw, Jump
from solrec.core.soli2.events import NO_JUMP, Drawn, Ended, Jumped, Placed
from solrec.core.soli2.state import JUMPING, OVER

from .conftest import GAME, decide, events_of, new, play, position

LAST_JUMP = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . w . . .
    . . . b . . .
    . . . . . . .
"""


# -- classic solitaire --------------------------------------------------------------------------
def test_classic_solitaire_opens_with_the_four_jumps_into_the_center():
    assert GAME.legal_commands(new("classic-solitaire")) == (
        Jump("b4", "d4"), Jump("d2", "d4"), Jump("d6", "d4"), Jump("f4", "d4")
    )


def test_classic_solitaire_ignores_colors():
    # 002: "Ignoring colors, make a series of legal jumps trying to remove as many pieces as possible."
    state = position(LAST_JUMP.replace(". . . w . . .", ". . . b . . ."), mode="classic-solitaire")
    assert events_of(state, "d2-d4")[0] == Jumped("Sara", "black", "d2", "d3", "d4", "black")
    state = position(LAST_JUMP, mode="classic-solitaire")
    assert GAME.legal_commands(state) == (Jump("d2", "d4"), Jump("d3", "d1"))


def test_classic_solitaire_has_no_pouch():
    with pytest.raises(IllegalCommand, match="classic solitaire uses no pouch"):
        decide(new("classic-solitaire"), "draw black")


def test_classic_solitaire_places_nothing():
    with pytest.raises(IllegalCommand, match=r"^in classic solitaire all 48 marbles are on the board from the start: you must jump: b4-d4, d2-d4, d6-d4 and f4-d4 are available$"):
        decide(new("classic-solitaire"), "place d4")


def test_classic_solitaire_jumps_keep_the_jump_rules():
    with pytest.raises(IllegalCommand, match=r"^d2-f4 is not straight: you cannot jump diagonally$"):
        decide(new("classic-solitaire"), "d2-f4")


def test_a_solitaire_ends_when_no_jump_remains():
    state = position(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . w . . .
        . . . b . . .
        b . . . . . .
        """,
        mode="classic-solitaire",
    )
    assert events_of(state, "d2-d4")[1:] == [Ended(NO_JUMP)]
    after = play(state, "d2-d4")
    assert after.phase == OVER
    outcome = GAME.outcome(after)
    assert outcome.winner is None and outcome.ranking == ("Sara",)
    assert outcome.reason == "2 marbles left: no jump remains"
    assert dict(GAME.score(after).totals) == {"Sara": 2}
    assert GAME.score(after).lines[0].rule == text.CLASSIC_JUMPS


def test_you_win_if_you_leave_only_one_marble():
    # 002: "You win if you leave only one marble."
    state = play(position(LAST_JUMP, mode="classic-solitaire"), "d3-d1")
    outcome = GAME.outcome(state)
    assert outcome.winner == "Sara"
    assert outcome.reason == "a win: one marble left (on d1)"
    assert [line.what for line in GAME.score(state).lines] == ["1 marble on the board", "one marble left: a win"]
    assert GAME.score(state).lines[1].rule == text.SOLO_WIN


def test_a_perfect_game_is_one_marble_in_the_center():
    # 002: "A perfect game is one marble in the center."
    state = play(position(LAST_JUMP, mode="classic-solitaire"), "d2-d4")
    outcome = GAME.outcome(state)
    assert outcome.winner == "Sara"
    assert outcome.reason == "perfect game: one marble left, on d4 (the center)"
    lines = GAME.score(state).lines
    assert lines[-1].what == "the last marble is on d4, the center: a perfect game"
    assert lines[-1].rule == text.PERFECT


def _position_class(flat: str) -> tuple[int, ...]:
    """The classic peg-solitaire invariant: parities of the marble counts on the three diagonal
    classes (file + rank mod 3, file - rank mod 3); a jump flips all three, so differences persist."""
    a, b = [0, 0, 0], [0, 0, 0]
    for i, mark in enumerate(flat):
        if mark != B.EMPTY:
            f, r = B.coords(i)
            a[(f + r) % 3] += 1
            b[(f - r) % 3] += 1
    return ((a[0] + a[1]) % 2, (a[1] + a[2]) % 2, (b[0] + b[1]) % 2, (b[1] + b[2]) % 2)


def test_on_the_7x7_board_classic_solitaire_cannot_end_with_one_marble():
    # A consequence of the board reading (docs/rules/soli2.md, "Board"): the start is in a position class
    # no single marble is in, so the best classic result is two marbles.
    start = _position_class(B.CLASSIC_BOARD)
    for i in range(B.POCKETS):
        single = "".join("b" if k == i else B.EMPTY for k in range(B.POCKETS))
        assert _position_class(single) != start
    state = position(LAST_JUMP, mode="classic-solitaire")
    assert _position_class(play(state, "d2-d4").flat) == _position_class(state.flat)


@pytest.mark.parametrize("seed", range(5))
def test_on_the_7x7_board_soli2_solitaire_cannot_end_with_one_marble_either(seed):
    # docs/rules/soli2.md, "Board": the filled board is the classic start (the colors play no part in
    # the invariant) and every SOLI2 solitaire jump is a classic jump, so the class never changes
    import random

    rng = random.Random(seed)
    state = new("soli2-solitaire")
    while GAME.to_act(state) == CHANCE:
        state = play(state, f"draw {rng.choice([c for c in ('black', 'white') if f'draw {c}' in _legal(state)])}")
    assert _position_class(state.flat) == _position_class(B.CLASSIC_BOARD)
    while GAME.to_act(state) is not None:
        state = play(state, rng.choice(_legal(state)))
        assert _position_class(state.flat) == _position_class(B.CLASSIC_BOARD)
    assert sum(mark != B.EMPTY for mark in state.flat) != 1


def _legal(state) -> list[str]:
    return [GAME.format(c) for c in GAME.legal_commands(state) or ()]


# -- SOLI2 solitaire ----------------------------------------------------------------------------
def test_soli2_solitaire_every_pocket_is_filled_by_a_chance_draw():
    # 002: "Draw marbles from the pouch one at a time placing them into the pockets in order ..."
    state = new("soli2-solitaire")
    assert GAME.to_act(state) == CHANCE
    assert events_of(state, "draw white") == [Drawn("white"), Placed("Sara", "white", "a7")]


def test_soli2_solitaire_fills_left_to_right_top_to_bottom_skipping_the_center():
    # 002: "... in order: left-to-right, top-to-bottom, skipping the center pocket."
    state = new("soli2-solitaire")
    squares = []
    for k in range(48):
        assert GAME.to_act(state) == CHANCE
        events = events_of(state, "draw black" if k % 2 else "draw white")
        squares.append(events[1].square)
        state = play(state, "draw black" if k % 2 else "draw white")
    assert squares[:8] == ["a7", "b7", "c7", "d7", "e7", "f7", "g7", "a6"]
    assert squares[22:26] == ["b4", "c4", "e4", "f4"]
    assert squares[-1] == "g1" and "d4" not in squares
    assert state.at("d4") is None and state.phase in (JUMPING, OVER)


def test_soli2_solitaire_chooses_no_pocket():
    state = play(new("soli2-solitaire"), "draw black")
    with pytest.raises(IllegalCommand, match="in SOLI2 solitaire the marbles drawn from the pouch fill the pockets in order"):
        GAME.decide(state, GAME.parse("place d4"))


def test_soli2_solitaire_draws_only_colors_left_in_the_pouch():
    state = new("soli2-solitaire")
    for _ in range(24):
        state = play(state, "draw black")
    with pytest.raises(IllegalCommand, match=r"^the pouch holds no black marble any more \(only 24 white marbles\)$"):
        decide(state, "draw black")
    assert GAME.legal_commands(state) == (Draw("white"),)


SOLI2_POSITION = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . w b . . .
    . . w b w . .
"""


def test_soli2_solitaire_jumps_only_over_the_opposite_color():
    # 002: "**You may pick up any marble but you must jump over a marble of the opposite color.**"
    state = position(SOLI2_POSITION, mode="soli2-solitaire")
    with pytest.raises(
        IllegalCommand,
        match=r"^c1-c3 jumps a white marble, but in SOLI2 solitaire the white marble on c1 must jump a black marble$",
    ):
        decide(state, "c1-c3")


def test_soli2_solitaire_picks_up_any_marble():
    # 002: "**You may pick up any marble ...**": white c2 and black d1, d2 all have jumps.
    state = position(SOLI2_POSITION, mode="soli2-solitaire")
    assert GAME.legal_commands(state) == (Jump("c2", "e2"), Jump("d1", "b1"), Jump("d1", "f1"), Jump("d2", "b2"))
    assert events_of(state, "c2-e2")[0] == Jumped("Sara", "white", "c2", "d2", "e2", "black")
    assert events_of(state, "d1-f1")[0] == Jumped("Sara", "black", "d1", "e1", "f1", "white")


def test_soli2_solitaire_ends_when_no_jump_over_the_opposite_color_remains():
    state = position(SOLI2_POSITION.replace(". . w b w . .", ". . . b w . ."), mode="soli2-solitaire")
    # after d2-b2 (over white c2) only b2, d1 and e1 are left: d1-f1 over e1 is still possible
    state = play(state, "d2-b2")
    assert state.phase == JUMPING
    events = events_of(state, "d1-f1")
    assert events[1:] == [Ended(NO_JUMP)]
    assert GAME.outcome(play(state, "d1-f1")).reason == "2 marbles left: no jump remains"


def test_seeded_chance_draws_a_marble_still_in_the_pouch():
    # 002: "Place all of the marbles into the pouch and shake it up."
    state = new("soli2-solitaire")
    only_white = attrs.evolve(state, pouch=(0, 5))
    only_black = attrs.evolve(state, pouch=(3, 0))
    for position_ in range(50):
        assert GAME.chance_command(only_white, SeededDraw(7, position_)) == Draw("white")
        assert GAME.chance_command(only_black, SeededDraw(7, position_)) == Draw("black")


def test_seeded_chance_draws_each_color_by_its_count_in_the_pouch():
    state = attrs.evolve(new(), pouch=(1, 3))
    draws = [GAME.chance_command(state, SeededDraw(11, k)).color for k in range(4000)]
    assert 0.2 < draws.count("black") / len(draws) < 0.3
