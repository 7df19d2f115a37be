"""Solari scoring, one rule per test (rule text 000; readings in docs/rules/solari-scoring.md)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from solrec.core.solari import scoring
from solrec.core.solari.scoring import ScoringRules

from ..conftest import rule_text
from .scoring_helpers import J, N, S, U, blocker, board, chaser, comet, doubler, kinds, row_of, score, total

ROW1 = (10, 11, 12, 13, 14, 15)
PARK = 66  # a square far from row 1 where a comet waits before moving in


PARKS = (66, 64, 62)


def built(squares, numbers, facings=None, extra=None, arrive=(0,)):
    """(before, after): the comets at positions ``arrive`` of the unit come in from parking squares far
    away (so the units they make are new); everything else already stands."""
    after = row_of(squares, numbers, facings)
    before = dict(after)
    for park, i in zip(PARKS, arrive):
        before[park] = before.pop(squares[i])
    return board(before, extra or {}), board(after, extra or {})


# --- the tables -------------------------------------------------------------------------------------


@pytest.mark.parametrize("k,value", [(3, 1), (4, 3), (5, 9), (6, 27)])
def test_row_table(k, value):
    before, after = built(ROW1[:k], [1, 3, 5, 2, 4, 6][:k])
    assert kinds(score(before, after)) == [("row", k, True, value)]


@pytest.mark.parametrize("k,value", [(3, 3), (4, 9), (5, 27), (6, 81)])
def test_full_sequence_table(k, value):
    before, after = built(ROW1[:k], list(range(1, k + 1)))
    assert kinds(score(before, after)) == [("sequence", k, True, value)]


@pytest.mark.parametrize("k,value", [(3, 2), (4, 6), (5, 18)])
def test_partial_sequence_table_counts_double_a_row_of_same_length(k, value):
    numbers = list(range(1, k + 1)) + [6]  # 6 follows neither 3 nor 4
    if k == 5:
        numbers = [6, 1, 2, 3, 4, 5]  # 6 then 1 is no step
        before, after = built(ROW1, numbers, arrive=(1,))
        assert kinds(score(before, after)) == [("row", 6, True, 27), ("sequence", 5, False, 18)]
        return
    before, after = built(ROW1[: k + 1], numbers)
    assert kinds(score(before, after)) == [("row", k + 1, True, scoring.ROW_VALUE[k + 1]), ("sequence", k, False, value)]


@pytest.mark.parametrize("k,value", [(3, 2), (4, 6), (5, 18), (6, 54)])
def test_full_orientation_table_counts_double_a_row(k, value):
    before, after = built(ROW1[:k], [1, 3, 5, 2, 4, 6][:k], ["E"] * k)
    assert kinds(score(before, after)) == [("orientation", k, True, value)]


@pytest.mark.parametrize("k,value", [(3, 1), (4, 3), (5, 9)])
def test_partial_orientation_table_counts_once_a_row(k, value):
    before, after = built(ROW1[: k + 1], [1, 3, 5, 2, 4, 6][: k + 1], ["E"] * k + ["S"])
    assert kinds(score(before, after)) == [
        ("row", k + 1, True, scoring.ROW_VALUE[k + 1]),
        ("orientation", k, False, value),
    ]


# --- the worked examples ----------------------------------------------------------------------------


def test_worked_example_1235_scores_5():
    # 000: "Example: You have 1235, that's a row of four = 3 points plus a sequence of three = 2 points"
    before = board({10: comet(1, "N"), 12: comet(3, "S"), 13: comet(5, "N"), 41: comet(2, "W")})
    after = board({10: comet(1, "N"), 11: comet(2, "N"), 12: comet(3, "S"), 13: comet(5, "N")})
    units = score(before, after, moved=(11,))
    assert kinds(units) == [("row", 4, True, 3), ("sequence", 3, False, 2)]
    assert total(units) == 5


def test_worked_example_12364_becomes_12346_scores_6():
    # 000: "You had 12364 and change it to 12346. You didn't change the row, but extended the sequence to four"
    facings = ["N", "E", "S", "W", "N"]
    before = board(row_of(ROW1[:5], [1, 2, 3, 6, 4], facings))
    after = board(row_of(ROW1[:5], [1, 2, 3, 4, 6], facings))
    units = score(before, after, moved=(13, 14))
    assert kinds(units) == [("sequence", 4, False, 6)]
    assert "extended from 3" in units[0].why
    assert total(units) == 6


def test_worked_example_23451_scores_16():
    # 000: "The row of 5 counts 9, the sequence of four counts 6 and the orientation of three counts 1"
    before = board(row_of((10, 11, 12, 14), [2, 3, 4, 1], ["N", "E", "S", "S"]), {41: comet(5, "W")})
    after = board(row_of(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"]))
    units = score(before, after, moved=(13,))
    assert kinds(units) == [("row", 5, True, 9), ("sequence", 4, False, 6), ("orientation", 3, False, 1)]
    assert total(units) == 16


# --- what counts: built new, extended, displaced; not unchanged, not diminished ----------------------


def test_newly_built_row_scores():
    before, after = built((10, 11, 12), [1, 3, 5])
    (unit,) = score(before, after)
    assert "built new" in unit.why and unit.points == 1


def test_extended_row_scores_the_longer_row():
    before = board(row_of((10, 11, 12), [1, 3, 5]), {PARK: comet(2)})
    after = board(row_of((10, 11, 12, 13), [1, 3, 5, 2]))
    (unit,) = score(before, after)
    assert unit.value == 3 and "extended from 3 (10-11-12)" in unit.why


def test_displaced_row_scores():
    before = board(row_of((10, 11, 12), [1, 3, 5]))
    after = board({11: comet(3, "E"), 12: comet(5, "S"), 13: comet(1, "E")})
    (unit,) = score(before, after, moved=(13,))
    assert unit.kind == "row" and unit.squares == (11, 12, 13) and "displaced from 10-11-12" in unit.why


def test_unchanged_row_scores_nothing():
    rows = row_of((10, 11, 12), [1, 3, 5])
    before = board(rows, {PARK: comet(2)})
    after = board(rows, {PARK - 1: comet(2, "W")})
    assert score(before, after, moved=(PARK - 1,)) == ()


def test_diminished_row_scores_nothing():
    before = board(row_of((10, 11, 12, 13), [1, 3, 5, 2]))
    after = board(row_of((10, 11, 12), [1, 3, 5]), {PARK: comet(2)})
    assert score(before, after) == ()


def test_diminished_row_whose_sequence_becomes_full_scores_nothing():
    before = board(row_of((10, 11, 12, 13), [6, 1, 2, 3]))
    after = board(row_of((11, 12, 13), [1, 2, 3], ["E", "S", "W"]), {PARK: comet(6)})
    assert score(before, after) == ()


def test_same_row_with_other_comets_is_unchanged():
    # the row is its squares: 12364 -> 12346 "You didn't change the row"
    before = board(row_of((10, 11, 12), [1, 3, 5]))
    after = board(row_of((10, 11, 12), [1, 5, 3]))
    assert score(before, after) == ()


def test_an_extended_row_scores_whole_with_the_sequence_that_stood_in_it():
    # 000: "You have 1235, that's a row of four = 3 points plus a sequence of three = 2 points"
    before = board(row_of((10, 11, 12, 13), [6, 1, 2, 3]), {PARK: comet(5)})
    after = board(row_of((10, 11, 12, 13, 14), [6, 1, 2, 3, 5]))
    units = score(before, after)
    assert kinds(units) == [("row", 5, True, 9), ("sequence", 3, False, 2)]
    assert "unchanged in the row that is extended from 4" in units[1].why
    assert "changed-row-scores-whole" in units[1].rule


# --- what a row is ---------------------------------------------------------------------------------


def test_rows_count_in_columns():
    before, after = built((10, 20, 30), [1, 3, 5])
    assert kinds(score(before, after)) == [("row", 3, True, 1)]


@pytest.mark.parametrize("squares", [(11, 22, 33), (16, 25, 34), (50, 61, 72)])
def test_rows_count_in_diagonals(squares):
    before, after = built(squares, [1, 3, 5])
    assert kinds(score(before, after)) == [("row", 3, True, 1)]


def test_a_row_of_two_is_no_row():
    before, after = built((10, 11), [1, 3])
    assert score(before, after) == ()


def test_partner_comets_break_a_row():
    before = board(row_of((10, 11), [1, 3]), {13: comet(2, side=N), PARK: comet(5)})
    after = board(row_of((10, 11, 12), [1, 3, 5]), {13: comet(2, side=N)})
    assert kinds(score(before, after, teams=True)) == [("row", 3, True, 1)]
    before2 = board(row_of((10, 11), [1, 3]), {12: comet(2, side=N), PARK: comet(5)})
    after2 = board(row_of((10, 11, 13), [1, 3, 5]), {12: comet(2, side=N)})
    assert score(before2, after2, teams=True) == ()


def test_opponent_comets_break_a_row():
    before = board(row_of((10, 11), [1, 3]), {12: comet(2, side=S), PARK: comet(5)})
    after = board(row_of((10, 11, 13), [1, 3, 5]), {12: comet(2, side=S)})
    assert score(before, after) == ()


@pytest.mark.parametrize("piece", [chaser(U), blocker(U), doubler(U), chaser(S)])
def test_quadrangular_pieces_dont_count_in_rows(piece):
    before = board(row_of((10, 11), [1, 3]), {12: piece, PARK: comet(5)})
    after = board(row_of((10, 11, 13), [1, 3, 5]), {12: piece})
    assert score(before, after) == ()


def test_rows_built_by_the_partner_are_not_scored():
    before = board(row_of((10, 11), [1, 3], side=N), {PARK: comet(5, side=N)})
    after = board(row_of((10, 11, 12), [1, 3, 5], side=N))
    assert score(before, after, mover=U, teams=True) == ()
    assert total(score(before, after, mover=N, teams=True)) == 1


def test_only_the_mover_scores_when_a_shot_builds_an_opponents_row():
    # Uranus shoots a Saturn comet onto the margin square 02, completing Saturn's row 00-01-02
    before = board(row_of((0, 1), [1, 3], side=S), {44: comet(5, side=S), 43: comet(2, "E")})
    after = board(row_of((0, 1, 2), [1, 3, 5], side=S), {44: comet(2, "E")})
    assert score(before, after, mover=U, moved=(44,)) == ()


def test_each_unit_is_a_maximal_run():
    before, after = built(ROW1[:4], [1, 3, 5, 2])
    units = score(before, after)
    assert [u.squares for u in units] == [(10, 11, 12, 13)]


# --- sequences -------------------------------------------------------------------------------------


def test_sequence_numbers_must_follow_without_a_gap():
    before, after = built(ROW1[:4], [1, 2, 3, 5])
    assert kinds(score(before, after)) == [("row", 4, True, 3), ("sequence", 3, False, 2)]


def test_descending_sequence_counts():
    before, after = built(ROW1[:3], [5, 4, 3])
    (unit,) = score(before, after)
    assert unit.kind == "sequence" and unit.full and "descending" in unit.why and unit.value == 3


def test_612_is_no_sequence():
    before, after = built(ROW1[:3], [6, 1, 2])
    assert kinds(score(before, after)) == [("row", 3, True, 1)]


def test_full_sequence_replaces_the_rows_value():
    before, after = built(ROW1[:3], [1, 2, 3])
    units = score(before, after)
    assert [u.kind for u in units] == ["sequence"] and total(units) == 3


def test_altered_sequence_without_altering_the_row_scores():
    # "The same is valid for altering or extending sequences without altering the row."
    facings = ["N", "E", "S", "W", "N"]
    before = board(row_of(ROW1[:5], [6, 1, 2, 3, 5], facings), {PARK: comet(4)})
    after = board(row_of(ROW1[:5], [6, 2, 3, 4, 5], facings), {PARK: comet(1)})
    (unit,) = score(before, after)
    assert unit.kind == "sequence" and unit.squares == (11, 12, 13, 14) and unit.value == 6
    assert "altered from 1-2-3 ascending at 11-12-13" in unit.why


def test_two_partial_sequences_in_one_row_both_score_by_default():
    before, after = built(ROW1, [1, 2, 3, 6, 5, 4], arrive=(0, 5))
    assert kinds(score(before, after)) == [("row", 6, True, 27), ("sequence", 3, False, 2), ("sequence", 3, False, 2)]


# --- the sun ---------------------------------------------------------------------------------------


def test_sun_with_three_comets_counts_as_row_of_three():
    before = board({33: comet(1), 34: comet(5), PARK: comet(3)})
    after = board({33: comet(1), 34: comet(5), 43: comet(3, "W")})
    assert kinds(score(before, after)) == [("sun", 3, True, 1)]


def test_sun_with_four_comets_counts_as_row_of_four():
    before = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), PARK: comet(6)})
    after = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), 44: comet(6, "W")})
    assert kinds(score(before, after)) == [("sun", 4, True, 3)]


def test_sun_sequence_clockwise():
    # clockwise ring 33 -> 34 -> 44 -> 43
    before = board({33: comet(2, "N"), 34: comet(3, "E"), PARK: comet(4)})
    after = board({33: comet(2, "N"), 34: comet(3, "E"), 44: comet(4, "S")})
    (unit,) = score(before, after)
    assert unit.kind == "sequence" and unit.full and unit.value == 3 and unit.squares == (33, 34, 44)


def test_sun_sequence_anticlockwise():
    before = board({33: comet(2, "N"), 43: comet(3, "E"), PARK: comet(4)})
    after = board({33: comet(2, "N"), 43: comet(3, "E"), 44: comet(4, "S")})
    (unit,) = score(before, after)
    assert unit.kind == "sequence" and unit.full and unit.value == 3


def test_sun_sequence_of_four_may_start_on_any_sun_square():
    before = board({43: comet(1, "N"), 33: comet(2, "E"), 34: comet(3, "S"), PARK: comet(4)})
    after = board({43: comet(1, "N"), 33: comet(2, "E"), 34: comet(3, "S"), 44: comet(4, "W")})
    (unit,) = score(before, after)
    assert unit.kind == "sequence" and unit.full and unit.value == 9 and unit.squares == (43, 33, 34, 44)


def test_sun_612_is_no_sequence():
    before = board({33: comet(6, "N"), 34: comet(1, "E"), PARK: comet(2)})
    after = board({33: comet(6, "N"), 34: comet(1, "E"), 44: comet(2, "S")})
    assert kinds(score(before, after)) == [("sun", 3, True, 1)]


def test_sun_numbers_out_of_ring_order_are_no_sequence():
    # 1 and 2 face each other across the sun: not neighbours on the ring
    before = board({33: comet(1, "N"), 34: comet(3, "E"), PARK: comet(2)})
    after = board({33: comet(1, "N"), 34: comet(3, "E"), 44: comet(2, "S")})
    assert kinds(score(before, after)) == [("sun", 3, True, 1)]


def test_sun_partial_sequence_adds_to_the_sun_of_four():
    before = board({33: comet(1, "N"), 34: comet(2, "E"), 44: comet(3, "S"), PARK: comet(6)})
    after = board({33: comet(1, "N"), 34: comet(2, "E"), 44: comet(3, "S"), 43: comet(6, "W")})
    # the sequence 1-2-3 stood already: it scores with the sun that changed
    assert kinds(score(before, after)) == [("sun", 4, True, 3), ("sequence", 3, False, 2)]
    before2 = board({33: comet(1, "N"), 34: comet(2, "E"), 43: comet(6, "W"), PARK: comet(3)})
    after2 = board({33: comet(1, "N"), 34: comet(2, "E"), 43: comet(6, "W"), 44: comet(3, "S")})
    assert kinds(score(before2, after2)) == [("sun", 4, True, 3), ("sequence", 3, False, 2)]


def test_sun_orientation():
    before = board({33: comet(1, "E"), 34: comet(5, "E"), PARK: comet(3)})
    after = board({33: comet(1, "E"), 34: comet(5, "E"), 43: comet(3, "E")})
    assert kinds(score(before, after)) == [("orientation", 3, True, 2)]


def test_sun_partial_orientation():
    before = board({33: comet(1, "E"), 34: comet(5, "E"), 43: comet(6, "N"), PARK: comet(3)})
    after = board({33: comet(1, "E"), 34: comet(5, "E"), 43: comet(6, "N"), 44: comet(3, "E")})
    assert kinds(score(before, after)) == [("sun", 4, True, 3), ("orientation", 3, False, 1)]


def test_sun_and_a_line_through_it_score_separately():
    before = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), PARK: comet(6)})
    after = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), 35: comet(6, "W")})
    assert kinds(score(before, after)) == [("row", 3, True, 1)]  # 33-34-35; the sun of three is unchanged
    after2 = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), 32: comet(6, "W"), 44: comet(2, "N")})
    before2 = board({33: comet(1, "N"), 34: comet(5, "E"), 43: comet(3, "S"), PARK: comet(6), 55: comet(2, "N")})
    assert sorted(kinds(score(before2, after2))) == sorted([("row", 3, True, 1), ("sun", 4, True, 3)])


# --- orientations ----------------------------------------------------------------------------------


def test_partial_orientation_adds_to_the_row():
    before, after = built(ROW1[:4], [1, 3, 5, 2], ["E", "E", "E", "N"])
    assert kinds(score(before, after)) == [("row", 4, True, 3), ("orientation", 3, False, 1)]


def test_full_orientation_replaces_the_rows_value():
    before, after = built(ROW1[:4], [1, 3, 5, 2], ["W"] * 4)
    assert kinds(score(before, after)) == [("orientation", 4, True, 6)]


def test_turning_a_comet_in_place_alters_an_orientation():
    # a comet that moves away and back changes only its facing: the row is unchanged
    before = board(row_of(ROW1[:4], [1, 3, 5, 2], ["E", "E", "N", "S"]))
    after = board(row_of(ROW1[:4], [1, 3, 5, 2], ["E", "E", "E", "S"]))
    assert kinds(score(before, after, moved=(12,))) == [("orientation", 3, False, 1)]


# --- versions --------------------------------------------------------------------------------------


def test_version_1_scores_rows_only():
    before, after = built(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], arrive=(3,))
    assert kinds(score(before, after, version=1)) == [("row", 5, True, 9)]


def test_version_1_full_sequence_is_a_plain_row():
    before, after = built(ROW1[:3], [1, 2, 3])
    assert kinds(score(before, after, version=1)) == [("row", 3, True, 1)]


def test_version_2_adds_sequences_but_not_orientations():
    before, after = built(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], arrive=(3,))
    assert total(score(before, after, version=2)) == 15


def test_version_3_adds_orientations():
    before, after = built(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], arrive=(3,))
    assert total(score(before, after, version=3)) == 16


# --- readings that are options ----------------------------------------------------------------------


def test_full_sequence_and_orientation_both_scores_each_table_value():
    before, after = built(ROW1[:3], [1, 2, 3], ["E"] * 3)
    units = score(before, after, full_sequence_and_orientation="both")
    assert kinds(units) == [("sequence", 3, True, 3), ("orientation", 3, True, 2)] and total(units) == 5


def test_full_sequence_and_orientation_higher_scores_the_sequence_only():
    before, after = built(ROW1[:3], [1, 2, 3], ["E"] * 3)
    assert kinds(score(before, after, full_sequence_and_orientation="higher")) == [("sequence", 3, True, 3)]


def test_full_sequence_and_orientation_additive_adds_the_orientations_excess():
    before, after = built(ROW1[:4], [1, 2, 3, 4], ["E"] * 4)
    units = score(before, after, full_sequence_and_orientation="additive")
    assert kinds(units) == [("sequence", 4, True, 9), ("orientation", 4, True, 3)] and total(units) == 12


def test_partials_per_row_best_scores_one_partial_sequence():
    before, after = built(ROW1, [1, 2, 3, 6, 5, 4], arrive=(0, 5))
    units = score(before, after, partials_per_row="best")
    assert kinds(units) == [("row", 6, True, 27), ("sequence", 3, False, 2)]


def test_partials_per_row_best_scores_one_partial_orientation():
    before, after = built(ROW1, [1, 3, 5, 2, 4, 6], ["E", "E", "E", "N", "N", "N"], arrive=(0, 5))
    assert total(score(before, after, partials_per_row="all")) == 29
    assert total(score(before, after, partials_per_row="best")) == 28


def test_unchanged_row_full_unit_bonus_scores_only_the_excess():
    before = board(row_of(ROW1[:3], [1, 3, 5], ["E", "E", "N"]))
    after = board(row_of(ROW1[:3], [1, 3, 5], ["E", "E", "E"]))
    (unit,) = score(before, after, moved=(12,))
    assert unit.kind == "orientation" and unit.full and unit.value == 1
    assert "unchanged-row-full-unit" in unit.rule


def test_unchanged_row_full_unit_full_scores_the_table_value():
    before = board(row_of(ROW1[:3], [1, 3, 5], ["E", "E", "N"]))
    after = board(row_of(ROW1[:3], [1, 3, 5], ["E", "E", "E"]))
    (unit,) = score(before, after, moved=(12,), unchanged_row_full_unit="full")
    assert unit.value == 2


def test_unchanged_row_full_unit_bonus_in_a_diminished_row():
    # 1-2-3-6-5: the 5 leaves and the 4 lands on the 6 (a self shot sends the 6 away): 1-2-3-4
    before = board(row_of(ROW1[:5], [1, 2, 3, 6, 5]), {PARK: comet(4, "W")})
    after = board(row_of(ROW1[:4], [1, 2, 3, 4]), {PARK: comet(6), 7: comet(5)})
    (unit,) = score(before, after, moved=(13,))
    assert unit.kind == "sequence" and unit.full and unit.value == 9 - 3
    assert "row itself is diminished" in unit.why
    (unit,) = score(before, after, moved=(13,), unchanged_row_full_unit="full")
    assert unit.value == 9


def test_full_sequence_and_orientation_higher_says_the_orientation_counts_nothing():
    before, after = built(ROW1[:3], [1, 2, 3], ["E"] * 3)
    (unit,) = score(before, after, full_sequence_and_orientation="higher")
    assert "the full orientation, facing E, is the lower and counts nothing" in unit.why


def test_unknown_reading_is_refused():
    with pytest.raises(ValueError):
        ScoringRules(full_sequence_and_orientation="sum")
    with pytest.raises(ValueError):
        ScoringRules(partner_doubler="maybe")


# --- the doubler -----------------------------------------------------------------------------------


def test_doubler_alone_on_the_line_doubles():
    before, after = built(ROW1[:3], [1, 3, 5], extra={17: doubler(U)})
    (unit,) = score(before, after)
    assert unit.doubled and unit.points == 2 and "Uranus doubler at 17 alone on row 1" in unit.why


def test_doubler_doubles_every_unit_of_the_line():
    before = board(row_of((10, 11, 12, 14), [2, 3, 4, 1], ["N", "E", "S", "S"]), {41: comet(5, "W"), 17: doubler(U)})
    after = board(row_of(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"]), {17: doubler(U)})
    units = score(before, after)
    assert all(u.doubled for u in units) and total(units) == 32


def test_doubler_on_a_diagonal_doubles():
    before, after = built((11, 22, 33), [1, 3, 5], extra={0: doubler(U)})
    (unit,) = score(before, after)
    assert unit.doubled and "diagonal 00-77" in unit.why


def test_doubler_on_another_line_does_not_double():
    before, after = built(ROW1[:3], [1, 3, 5], extra={27: doubler(U)})
    (unit,) = score(before, after)
    assert not unit.doubled and unit.points == 1


def test_adverse_doubler_on_the_line_neutralizes():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 10: doubler(S)})
    (unit,) = score(before, after)
    assert not unit.doubled and unit.points == 1 and "neutralized by Saturn doubler at 10" in unit.why


def test_adverse_doubler_elsewhere_does_not_neutralize():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 20: doubler(S)})
    (unit,) = score(before, after)
    assert unit.doubled


def test_adverse_doubler_alone_does_not_double_the_movers_row():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(S)})
    (unit,) = score(before, after)
    assert not unit.doubled and unit.why.endswith("built new")


def test_doubler_influencing_two_sun_squares_doubles_the_sun():
    before = board({33: comet(1), 34: comet(5), PARK: comet(3), 30: doubler(U)})
    after = board({33: comet(1), 34: comet(5), 43: comet(3, "W"), 30: doubler(U)})
    (unit,) = score(before, after)
    assert unit.kind == "sun" and unit.doubled and "sees sun squares 33, 34" in unit.why


def test_doubler_influencing_one_sun_square_does_not_double_the_sun():
    before = board({33: comet(1), 34: comet(5), PARK: comet(3), 1: doubler(U)})
    after = board({33: comet(1), 34: comet(5), 43: comet(3, "W"), 1: doubler(U)})
    (unit,) = score(before, after)
    assert not unit.doubled


def test_adverse_doubler_influencing_the_sun_neutralizes():
    before = board({33: comet(1), 34: comet(5), PARK: comet(3), 30: doubler(U), 77: doubler(J)})
    after = board({33: comet(1), 34: comet(5), 43: comet(3, "W"), 30: doubler(U), 77: doubler(J)})
    (unit,) = score(before, after)
    assert not unit.doubled and "neutralized by Jupiter doubler at 77" in unit.why


def test_moving_only_the_doubler_onto_a_doubling_square_scores_nothing():
    # 000: "It doesn't count when you move a doubler on a doubling square, but the row ... has not changed."
    rows = row_of((11, 12, 13), [1, 3, 5])
    before = board(rows, {0: doubler(U)})
    after = board(rows, {10: doubler(U)})
    assert score(before, after, moved=(10,)) == ()


def test_doubler_moved_in_the_same_move_as_the_row_changed_doubles():
    before = board(row_of((11, 12), [1, 3]), {PARK: comet(5), 0: doubler(U)})
    after = board(row_of((11, 12, 13), [1, 3, 5]), {10: doubler(U)})
    (unit,) = score(before, after, moved=(10, 13))
    assert unit.doubled and "moved this move" in unit.why


def test_doublers_option_off_never_doubles():
    before, after = built(ROW1[:3], [1, 3, 5], extra={17: doubler(U)})
    (unit,) = score(before, after, doublers=False)
    assert not unit.doubled and unit.points == 1


def test_partner_doubler_ignored_by_default():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(N)})
    assert not score(before, after, teams=True)[0].doubled
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 10: doubler(N)})
    assert score(before, after, teams=True)[0].doubled


def test_partner_doubler_doubles_option():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(N)})
    (unit,) = score(before, after, teams=True, partner_doubler="doubles")
    assert unit.doubled and "Neptune (partner) doubler at 17" in unit.why and "partner-doubler" in unit.rule


def test_own_and_partner_doubler_double_only_once():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 10: doubler(N)})
    (unit,) = score(before, after, teams=True, partner_doubler="doubles")
    assert unit.doubled and unit.points == 2


def test_partner_doubler_neutralizes_option():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 10: doubler(N)})
    (unit,) = score(before, after, teams=True, partner_doubler="neutralizes")
    assert not unit.doubled and "neutralized by Neptune (partner) doubler at 10" in unit.why


def test_without_teams_every_other_doubler_is_adverse():
    before, after = built((11, 12, 13), [1, 3, 5], extra={17: doubler(U), 10: doubler(N)})
    (unit,) = score(before, after, teams=False)
    assert not unit.doubled


# --- the audit trail --------------------------------------------------------------------------------


def test_every_quoted_sentence_is_in_the_rule_text():
    text = " ".join(rule_text("000_704bd94e3262071f.txt").split())
    for sentence in scoring.QUOTED:
        assert sentence in text, sentence
    for k in (3, 4, 5, 6):
        assert scoring._table_row(k) in text
        assert scoring._table_seq(k, True) in text
        assert scoring._table_ori(k, True) in text
    for k in (3, 4, 5):
        assert scoring._table_seq(k, False) in text
        assert scoring._table_ori(k, False) in text


def test_every_unit_cites_the_text_and_explains_itself():
    before, after = built(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], extra={17: doubler(U)}, arrive=(3,))
    for unit in score(before, after):
        assert unit.rule.startswith('000: "') and unit.why
        assert unit.points == unit.value * (2 if unit.doubled else 1)


def test_readings_cited_exist_in_the_scoring_doc():
    doc = Path(__file__).resolve().parents[2] / "docs" / "rules" / "solari-scoring.md"
    headings = doc.read_text()
    anchors = (
        "full-replaces-row", "full-sequence-and-orientation", "partials-per-row", "unchanged-row-full-unit", "partner-doubler",
        "changed-row-scores-whole", "diminished",
    )
    for anchor in anchors:
        assert f'<a id="{anchor}"></a>' in headings


def test_units_round_trip_through_the_codec():
    from solrec.events.codec import converter, pack, unpack

    before, after = built(ROW1[:5], [2, 3, 4, 5, 1], ["N", "E", "S", "S", "S"], extra={17: doubler(U)}, arrive=(3,))
    units = score(before, after)
    for unit in units:
        plain = unpack(pack(converter.unstructure(unit)))
        assert converter.structure(plain, scoring.Unit) == unit


def test_unit_is_frozen():
    before, after = built(ROW1[:3], [1, 3, 5])
    (unit,) = score(before, after)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        unit.points = 3  # type: ignore[misc]
