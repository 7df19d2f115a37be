"""Solo Dice (004), one rule per test."""

from __future__ import annotations

import pytest

from solrec.core import CHANCE, IllegalCommand, InvalidCommand
from solrec.core.solo_dice.commands import Choose, Roll
from solrec.core.solo_dice.notation import format, parse

from .helpers import GAME, position

# Three leftover numbers (5, 3, 1) open, as in the worked example.
THREE_OPEN = ("roll 6 1 5 5 5", "6+1 5+5 5", "roll 5 5 6 4 3", "5+5 6+4 3", "roll 6 1 6 1 1", "6+1 6+1 1")


def test_each_turn_you_roll_five_dice():
    state = position()
    assert GAME.to_act(state) == CHANCE
    state = position("roll 6 1 5 5 5")
    assert state.roll == (6, 1, 5, 5, 5)
    assert GAME.to_act(state) == "Ann"


def test_a_roll_is_five_dice_from_one_to_six():
    with pytest.raises(IllegalCommand, match="a roll is five dice, not 4"):
        GAME.decide(position(), Roll((1, 2, 3, 4)))
    with pytest.raises(IllegalCommand, match="a die shows 1 to 6, not 7"):
        GAME.decide(position(), Roll((1, 2, 3, 4, 7)))


def test_form_sums_with_two_pairs_and_mark_them_on_the_left():
    state = position("roll 6 1 5 5 5", "6+1 5+5 5")
    assert state.marks_of(7) == 1 and state.marks_of(10) == 1
    assert sum(state.marks) == 2


def test_the_single_die_is_marked_on_the_right():
    state = position("roll 6 1 5 5 5", "6+1 5+5 5")
    assert state.leftover_marks_of(5) == 1
    assert state.opened == (5,)


def test_the_two_pairs_and_the_leftover_are_exactly_the_roll():
    state = position("roll 6 1 5 5 5")
    with pytest.raises(IllegalCommand, match=r"exactly the five dice rolled \(6 1 5 5 5\), not 6 1 5 5 4"):
        GAME.decide(state, parse("6+1 5+5 4"))


def test_a_selection_needs_a_roll_first():
    with pytest.raises(IllegalCommand, match="roll the dice first"):
        GAME.decide(position(), parse("6+1 5+5 5"))


def test_no_second_roll_before_the_selection():
    with pytest.raises(IllegalCommand, match="still waiting for two pairs and a leftover"):
        GAME.decide(position("roll 6 1 5 5 5"), parse("roll 1 1 1 1 1"))


def test_you_may_open_as_many_of_the_eleven_pairs_as_you_wish():
    state = position(
        "roll 1 1 1 2 6", "1+1 1+2 6",  # 2, 3
        "roll 2 2 2 3 6", "2+2 2+3 6",  # 4, 5
        "roll 3 3 3 4 6", "3+3 3+4 6",  # 6, 7
        "roll 4 4 4 5 6", "4+4 4+5 6",  # 8, 9
        "roll 5 5 5 6 6", "5+5 5+6 6",  # 10, 11
        "roll 6 6 1 1 6", "6+6 1+1 6",  # 12
    )
    assert all(m > 0 for m in state.marks)


def test_only_three_leftover_numbers_may_be_open():
    state = position(*THREE_OPEN, "roll 2 5 4 4 6")
    with pytest.raises(IllegalCommand, match="with 1, 3 and 5 open you must leave a 5, not a 2"):
        GAME.decide(state, parse("5+4 4+6 2"))


def test_with_three_open_you_must_leave_one_of_them():
    state = position(*THREE_OPEN, "roll 3 5 4 4 6")
    with pytest.raises(IllegalCommand, match="you must leave a 3 or 5, not a 6"):
        GAME.decide(state, parse("3+5 4+4 6"))
    assert {c.leftover for c in GAME.legal_commands(state)} == {3, 5}


def test_fewer_than_three_open_any_die_may_be_left():
    state = position("roll 6 1 5 5 5", "6+1 5+5 5", "roll 2 3 4 4 6")
    assert {c.leftover for c in GAME.legal_commands(state)} == {2, 3, 4, 6}


def test_a_free_throw_when_none_of_the_three_numbers_is_rolled():
    state = position(*THREE_OPEN, "roll 2 2 4 4 6", "2+2 4+4 6")
    assert state.free_throws == 1
    assert state.leftover_marks_of(6) == 0  # marked under F, not as a fourth number
    assert state.opened == (5, 3, 1)


def test_a_free_throw_may_leave_any_die():
    state = position(*THREE_OPEN, "roll 2 2 4 4 6")
    assert {c.leftover for c in GAME.legal_commands(state)} == {2, 4, 6}


def test_free_throws_never_end_the_game():
    commands = list(THREE_OPEN)
    for _ in range(9):
        commands += ["roll 2 2 4 4 6", "2+2 4+4 6"]
    state = position(*commands)
    assert state.free_throws == 9
    assert GAME.to_act(state) == CHANCE


def test_the_game_ends_when_a_leftover_number_is_used_eight_times():
    commands = []
    for _ in range(7):
        commands += ["roll 6 1 5 5 3", "6+1 5+5 3"]
    state = position(*commands)
    assert GAME.to_act(state) == CHANCE and GAME.outcome(state) is None
    state = position(*commands, "roll 6 1 5 5 3", "6+1 5+5 3")
    assert state.ended_by == 3
    assert GAME.to_act(state) is None
    assert "the 3 was set aside as leftover die for the 8th time" in GAME.outcome(state).reason


def test_the_last_rolls_pairs_still_count():
    commands = []
    for _ in range(8):
        commands += ["roll 6 1 5 5 3", "6+1 5+5 3"]
    state = position(*commands)
    assert state.marks_of(7) == 8 and state.marks_of(10) == 8


def test_nothing_may_be_played_after_the_end():
    commands = []
    for _ in range(8):
        commands += ["roll 6 1 5 5 3", "6+1 5+5 3"]
    with pytest.raises(IllegalCommand, match="the game is over"):
        GAME.decide(position(*commands), parse("roll 1 2 3 4 5"))


def test_each_roll_offers_at_most_five_times_three_selections():
    state = position("roll 1 2 3 4 6")
    legal = GAME.legal_commands(state)
    assert len(legal) == 15
    assert len({(c.leftover, frozenset({tuple(sorted(c.first)), tuple(sorted(c.second))})) for c in legal}) == 15


def test_equal_dice_give_no_duplicate_selections():
    assert len(GAME.legal_commands(position("roll 5 5 5 5 5"))) == 1


def test_notation_round_trips():
    for text in ("roll 6 1 5 5 5", "6+1 5+5 5"):
        assert format(parse(text)) == text
    assert parse(" 6 + 1  5+5   5 ") == Choose((6, 1), (5, 5), 5)


@pytest.mark.parametrize("text", ["roll 6 1 5 5", "roll 6 1 5 5 9", "6+1 5+5", "7+1 5+5 5", "six and one", ""])
def test_bad_notation_is_invalid_not_illegal(text):
    with pytest.raises(InvalidCommand):
        parse(text)
