"""A changed row scores whole; a row that shrinks is diminished (issue 9; docs/rules/solari-scoring.md).

000: "Rows to count must be newly built, extented or deplaced on the board. Diminished rows don't
count." and the worked examples, which score a row with every sequence and orientation in it:
"You have 1235, that's a row of four = 3 points plus a sequence of three = 2 points, together 5
points"; "you have 23451, 451 has the same orientation. ... that's 16 altogether."
"""

from __future__ import annotations

import itertools

import pytest

from .helpers import Table
from .scoring_helpers import board, comet, kinds, row_of, score, total

PARKS = (66, 64, 62, 46, 26)  # squares off row 1 where arriving comets wait
ROW1 = (10, 11, 12, 13, 14, 15)


# --- a changed row scores whole ----------------------------------------------------------------------


def test_1235_scores_5_when_the_5_arrives_last():
    # the position: 1-2-3 stood (a full sequence of three), the 5 makes it 1235
    t = Table("51:U1E,52:U2W,53:U3E,74:U5W,17:U6S,07:S1S")("roll 2 3", "74-54", "17-47")
    assert kinds(t.state.scored[0].units) == [("row", 4, True, 3), ("sequence", 3, False, 2)]
    assert t.total("Ann") == 5


def test_23451_scores_16_when_the_1_arrives_last():
    # the position: 2-3-4-5 stood (a full sequence of four), the 1 makes it 23451 with 451 alike
    t = Table("51:U2N,52:U3E,53:U4S,54:U5S,35:U1W,10:U6N,07:S1S")("roll 2 4", "35-55", "10-14")
    assert kinds(t.state.scored[0].units) == [("row", 5, True, 9), ("sequence", 4, False, 6), ("orientation", 3, False, 1)]
    assert t.total("Ann") == 16


# Each worked example as its final row: (squares, numbers, facings, the text's figure).
EXAMPLES = {
    "1235": (ROW1[:4], [1, 2, 3, 5], ["N", "E", "S", "N"], 5),
    "23451": (ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], 16),
}


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("last", [1, 2], ids=["one-comet-last", "two-comets-last"])
def test_worked_example_scores_the_texts_figure_in_every_order_of_arrival(name, last):
    # The comets arrive one move after another in every order; the move that completes the row
    # brings the last comet (or the last two, two pieces moved once each). Only that move's board
    # before and after matters, and it must score the text's figure.
    squares, numbers, facings, figure = EXAMPLES[name]
    final = row_of(squares, numbers, facings)
    orders = list(itertools.permutations(range(len(squares))))
    for order in orders:
        standing, arriving = order[:-last], order[-last:]
        before = {squares[j]: final[squares[j]] for j in standing}
        after = dict(before)
        for park, j in zip(PARKS, arriving):
            before[park] = comet(numbers[j], "W")
            after[squares[j]] = final[squares[j]]
        units = score(board(before), board(after), moved=tuple(squares[j] for j in arriving))
        assert total(units) == figure, (name, order, kinds(units))
    assert len(orders) == {4: 24, 5: 120}[len(squares)]


@pytest.mark.parametrize("first", ["comet", "blocker"])
def test_12364_to_12346_scores_6_whichever_partial_move_comes_first(first):
    # 000: "You had 12364 and change it to 12346. You didn't change the row, but extended the sequence
    # to four, that's 6 points." The 4 lands on the 6 (a self shot, set on 57), the blocker plays the 2.
    comet_first = ["57-56", "place 57", "11-13"]
    blocker_first = ["11-13", "57-56", "place 57"]
    t = Table("53:U1N,54:U2E,55:U3N,56:U6E,57:U4S,11:Ub,07:S1S")("roll 1 2", *(comet_first if first == "comet" else blocker_first))
    assert kinds(t.state.scored[0].units) == [("sequence", 4, False, 6)]
    assert t.total("Ann") == 6


def test_an_unchanged_row_scores_only_its_altered_sequence():
    # 000: "The same is valid for altering or extending sequences without altering the row."
    before = board(row_of(ROW1[:5], [1, 2, 3, 6, 4]))
    after = board(row_of(ROW1[:5], [1, 2, 3, 4, 6]))
    assert kinds(score(before, after)) == [("sequence", 4, False, 6)]


# --- diminished: shorter than a row that stood on the line, mostly of its comets ------------------------


def test_a_row_of_four_that_loses_a_comet_while_it_shifts_is_diminished():
    # the position: 32-42-52-62, the 42 goes to 72: 52-62-72 is what is left of the row of four
    t = Table("32:U1N,42:U3E,52:U5S,62:U2W,11:U6S,07:S1S", version=1)("roll 3 1", "42-72", "11-12")
    assert t.state.scored[0].units == ()
    assert t.total("Ann") == 0


def test_a_row_of_five_cut_to_four_by_its_end_comet_going_to_the_other_end_is_diminished():
    before = board(row_of((52, 53, 54, 55, 56), [1, 3, 5, 2, 4]))
    after = board(row_of((52, 53, 54, 55), [1, 3, 5, 2]), {50: comet(4, "W")})
    assert score(before, after, moved=(50,)) == ()


def test_a_full_orientation_of_six_cut_to_five_is_diminished():
    # 11-16 all facing east; the 12 moves east to 17: 13-17 is five of the six
    before = board(row_of((11, 12, 13, 14, 15, 16), [1, 3, 5, 2, 4, 6], ["E"] * 6))
    after = board(row_of((13, 14, 15, 16, 17), [5, 2, 4, 6, 3], ["E"] * 5), {11: comet(1, "E")})
    assert score(before, after, moved=(17,)) == ()


def test_a_comet_moving_along_its_own_line_to_the_other_end_displaces_the_row():
    # same length: not diminished; the row is displaced and counts
    before = board(row_of((51, 52, 53), [1, 3, 5]))
    after = board(row_of((52, 53, 54), [3, 5, 1], ["E", "S", "E"]))
    units = score(before, after, moved=(54,))
    assert kinds(units) == [("row", 3, True, 1)] and "displaced from 51-52-53" in units[0].why


def test_a_comet_moving_along_its_own_line_leaving_a_gap_diminishes_the_row():
    before = board(row_of((51, 52, 53, 54), [1, 3, 5, 2]))
    after = board(row_of((52, 53, 54), [3, 5, 2]), {56: comet(1, "E")})
    assert score(before, after, moved=(56,)) == ()


def test_a_row_that_loses_one_comet_and_gains_another_keeps_counting_at_the_same_length():
    before = board(row_of((51, 52, 53, 54), [1, 3, 5, 2]), {PARKS[0]: comet(6)})
    after = board(row_of((52, 53, 54, 55), [3, 5, 2, 6]), {41: comet(1, "N")})
    units = score(before, after, moved=(41, 55))
    assert kinds(units) == [("row", 4, True, 3)] and "displaced from 51-52-53-54" in units[0].why


def test_a_row_that_loses_one_comet_and_gains_another_but_comes_out_shorter_is_diminished():
    # the 52 leaves, the 6 comes to 55: 53-54-55 holds two of the old row's comets out of three
    before = board(row_of((51, 52, 53, 54), [1, 3, 5, 2]), {PARKS[0]: comet(6)})
    after = board(row_of((51,), [1]), row_of((53, 54, 55), [5, 2, 6]), {42: comet(3, "N")})
    assert score(before, after, moved=(42, 55)) == ()


def test_a_shorter_row_mostly_of_new_comets_counts_even_where_it_overlaps_the_old_row():
    # the row 10-13 is gone but for its 4 on 13; 13-14-15 is mostly new comets: displaced, it counts
    before = board(row_of((10, 11, 12, 13), [1, 2, 3, 4]), {PARKS[0]: comet(5), PARKS[1]: comet(6)})
    after = board(row_of((13, 14, 15), [4, 5, 6], ["N", "N", "E"]), {20: comet(1), 42: comet(2), 75: comet(3)})
    units = score(before, after, version=1)
    assert kinds(units) == [("row", 3, True, 1)] and "displaced from 10-11-12-13" in units[0].why


def test_a_shorter_row_mostly_of_the_old_rows_comets_is_diminished_even_on_new_squares():
    # the comets make the row, not the squares: 14-15-16 is three of the four comets of 10-13
    before = board(row_of((10, 11, 12, 13), [1, 2, 3, 4]))
    after = board(row_of((14, 15, 16), [1, 2, 3], ["E"] * 3), {30: comet(4)})
    assert score(before, after, version=1) == ()


def test_a_sequence_that_comes_out_shorter_mostly_of_its_comets_is_diminished():
    # 000: "For partial orientations in a row the same is valid as for partial sequences." The row
    # 10-14 keeps its squares (unchanged); its sequence 1-2-3-4 becomes 1-2-3 elsewhere in it
    before = board(row_of(ROW1[:5], [6, 1, 2, 3, 4]))
    after = board(row_of(ROW1[:5], [1, 2, 3, 6, 4]))
    assert score(before, after) == ()


def test_an_orientation_that_comes_out_shorter_mostly_of_its_comets_is_diminished():
    before = board(row_of(ROW1[:5], [1, 3, 5, 2, 4], ["E", "E", "E", "E", "N"]))
    after = board(row_of(ROW1[:5], [1, 3, 5, 2, 4], ["S", "N", "E", "E", "E"]))
    assert score(before, after) == ()


# --- the other reading of "diminished": the squares, not the comets (option diminished=squares) -------


def test_under_the_squares_reading_a_shorter_row_on_new_squares_counts_though_its_comets_are_the_old_rows():
    # the comets reading calls 14-15-16 diminished (three of 10-13's comets); none of its squares were
    # 10-13's, so under the squares reading it is a row of three built new
    before = board(row_of((10, 11, 12, 13), [1, 2, 3, 4]))
    after = board(row_of((14, 15, 16), [1, 2, 3], ["E"] * 3), {30: comet(4)})
    assert score(before, after, version=1) == ()
    units = score(before, after, version=1, diminished="squares")
    assert kinds(units) == [("row", 3, True, 1)]


def test_under_the_squares_reading_a_shorter_row_on_the_old_rows_squares_is_diminished_whatever_its_comets():
    # 10-13 loses its 1, 2 and 3; the 5 and 6 come to 11 and 12: 11-12-13 stands on three of its
    # squares with one of its comets. Displaced under the comets reading, diminished under the squares.
    before = board(row_of((10, 11, 12, 13), [1, 2, 3, 4]), {PARKS[0]: comet(5), PARKS[1]: comet(6)})
    after = board(row_of((11, 12, 13), [5, 6, 4], ["N", "N", "E"]), {20: comet(1), 42: comet(2), 75: comet(3)})
    assert kinds(score(before, after, version=1)) == [("row", 3, True, 1)]
    assert score(before, after, version=1, diminished="squares") == ()
