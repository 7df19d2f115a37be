"""Solo Dice point assignment (004, "The point assignment" and "The basic values")."""

from __future__ import annotations

import pytest

from solrec.core.solo_dice.scoring import BASIC_VALUE, sum_lines

from .helpers import position, total


def points(total_: int, marks: int) -> int:
    return sum(line.points for line in sum_lines("Ann", total_, marks))


def test_an_unopened_sum_scores_nothing():
    assert points(7, 0) == 0


@pytest.mark.parametrize("marks", [1, 2, 3, 4])
def test_opening_a_number_costs_200_once_not_per_mark(marks):
    assert points(7, marks) == -200


def test_the_fifth_mark_gives_the_200_back():
    assert points(7, 5) == 0


@pytest.mark.parametrize("marks,expected", [(6, 30), (7, 60), (8, 90), (9, 120), (10, 150)])
def test_sixth_to_tenth_marks_score_the_basic_value(marks, expected):
    assert points(7, marks) == expected


@pytest.mark.parametrize("marks", [11, 12, 20])
def test_marks_beyond_the_tenth_add_nothing(marks):
    assert points(12, marks) == 5 * 100


def test_the_basic_values_table():
    assert BASIC_VALUE == {2: 100, 3: 70, 4: 60, 5: 50, 6: 40, 7: 30, 8: 40, 9: 50, 10: 60, 11: 70, 12: 100}


def test_only_the_pairs_score_not_the_leftover_die():
    state = position("roll 6 1 5 5 5", "6+1 5+5 5")
    assert total(state) == -400  # 7 and 10 opened; the leftover 5 costs nothing


def test_every_score_line_cites_a_sentence_of_004():
    state = position("roll 6 1 5 5 5", "6+1 5+5 5")
    from .helpers import GAME

    for line in GAME.score(state).lines:
        assert line.rule.startswith('004: "') and line.rule.endswith('"')
