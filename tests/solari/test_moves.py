"""Moves (000): two partial moves, orthogonal lines, chasers diagonal, jumping, the board's edge,
doublers on the margin ring, blockers and doublers that cannot be shot, must-play-both, forfeits."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand, WrongActor
from solrec.core.solari import text

from .helpers import GAME, Table


def refused(table: Table, command: str) -> str:
    with pytest.raises(IllegalCommand) as err:
        table(command)
    return str(err.value)


def test_one_piece_may_move_twice_and_turn_after_the_first_partial_move():
    t = Table("24:U1N,07:S1S")("roll 2 3", "24-44", "44-47")
    assert t.label(47) == "U1>"
    assert t.at(24) is None and t.at(44) is None
    assert GAME.to_act(t.state) == "chance" and t.state.mover == "Saturn"


def test_two_pieces_may_move_once_each():
    t = Table("24:U1N,61:U2N,07:S1S")("roll 2 3", "24-26", "61-31")
    assert (t.label(26), t.label(31)) == ("U1>", "U2^")


def test_the_player_chooses_which_number_he_moves_first():
    t = Table("24:U1N,61:U2N,07:S1S")("roll 2 3", "24-27", "61-41")
    assert (t.label(27), t.label(41)) == ("U1>", "U2^")


def test_a_moved_comet_takes_the_facing_of_its_last_partial_move():
    t = Table("24:U1N,07:S1S")("roll 2 3", "24-44")
    assert t.label(44) == "U1v"
    t("44-41")
    assert t.label(41) == "U1<"


def test_comets_move_only_horizontally_or_vertically():
    reason = refused(Table("24:U1N,07:S1S")("roll 2 3"), "24-46")
    assert "only chasers move diagonally" in reason and text.CHASER_DIAG in reason


def test_a_partial_move_goes_in_a_straight_line():
    assert "is not a straight line" in refused(Table("24:U1N,07:S1S")("roll 2 3"), "24-45")


def test_chasers_may_also_move_diagonally():
    t = Table("22:Uc,07:S1S")("roll 2 3", "22-44", "44-14")
    assert t.label(14) == "Uc"


def test_pieces_on_the_way_are_jumped_over():
    t = Table("24:U1N,34:S1S,07:S2S")("roll 2 3", "24-44")
    assert t.label(44) == "U1v" and t.label(34) == "S1v"


def test_no_piece_may_leave_the_board():
    t = Table("27:U1N,70:S1S")("roll 3 3")
    assert t.legal == ["27-24", "27-57"]


def test_a_partial_move_must_go_as_far_as_one_of_the_numbers():
    reason = refused(Table("24:U1N,07:S1S")("roll 2 3"), "24-25")
    assert "moves 1, but the number to play is 2 or 3" in reason


def test_only_own_pieces_move():
    reason = refused(Table("24:U1N,47:S1S")("roll 2 3"), "47-44")
    assert "is Saturn's comet 1" in reason


def test_there_must_be_a_piece_on_the_starting_square():
    assert "there is no piece on 55" in refused(Table("24:U1N,07:S1S")("roll 2 3"), "55-53")


def test_the_doubler_moves_only_along_the_margin_squares():
    reason = refused(Table("02:Ud,77:S1S")("roll 3 4"), "02-32")
    assert "a doubler stays on the margin squares" in reason and text.DOUBLER_MARGIN in reason


def test_the_doubler_goes_round_the_corner_in_both_directions():
    t = Table("02:Ud,77:S1S")("roll 3 4")
    assert {"02-10", "02-05", "02-06", "02-20"} <= set(t.legal)
    t("02-10", "10-50")
    assert t.label(50) == "Ud"


def test_no_piece_lands_on_an_opposing_blocker():
    reason = refused(Table("24:U1N,44:Sb,07:S1S")("roll 2 3"), "24-44")
    assert "Saturn's blocker on 44 cannot be shot" in reason and text.BLOCKER in reason


def test_no_piece_lands_on_an_opposing_doubler():
    reason = refused(Table("04:U1N,07:Sd")("roll 3 4"), "04-07")
    assert "Saturn's doubler on 07 cannot be shot" in reason and text.DOUBLER_SHOT in reason


def test_a_player_may_shoot_his_own_blocker():
    t = Table("24:U1N,44:Ub,07:S1S")("roll 2 3", "24-44")
    assert t.legal == ["place 04", "place 40", "place 47", "place 74"]
    t("place 47")
    assert t.label(47) == "Ub" and t.label(44) == "U1v"


def test_a_player_may_shoot_his_own_doubler():
    t = Table("03:U1N,00:Ud,77:S1S")("roll 3 4", "03-00")
    assert "place 03" in t.legal
    t("place 03")
    assert t.label(3) == "Ud" and t.label(0) == "U1<"


def test_the_first_partial_move_must_leave_the_second_number_playable():
    t = Table("30:U1N,07:S1S")("roll 2 6")
    assert "30-32" not in t.legal and "30-10" in t.legal
    reason = refused(t, "30-32")
    assert text.MUST_BOTH in reason


def test_a_player_who_cannot_move_forfeits_the_move():
    t = Table("00:U1S,01:Sd,10:Sb")("roll 1 1")
    assert t.kinds() == ["NumbersSet", "Forfeited", "MoveScored"]
    assert t.state.mover == "Saturn" and t.state.moves_made == (1, 0)


def test_a_number_that_cannot_be_played_after_the_first_is_lost():
    t = Table("54:U1N,04:Sd")("roll 6 1")
    assert t.legal == ["54-44", "54-53", "54-55", "54-64"]
    t("54-64")
    assert t.kinds()[-2:] == ["NumberLost", "MoveScored"]
    assert t.events[-2].number == 6


def test_joker_six_six_plays_any_combination_up_to_six():
    t = Table("24:U1N,07:S1S", joker="on")("roll 6 6", "24-25", "25-65")
    assert t.label(65) == "U1v"


def test_without_the_joker_six_six_is_two_sixes():
    reason = refused(Table("04:U1N,07:S1S")("roll 6 6"), "04-05")
    assert "the number to play is 6" in reason


def test_nothing_happens_before_the_numbers_are_known():
    t = Table("24:U1N,07:S1S")
    with pytest.raises(WrongActor, match="chance gives only chance commands"):
        t("24-25")


def test_a_partial_move_while_a_shot_piece_waits_is_refused():
    t = Table("24:U1N,44:U2E,07:S1S")("roll 2 3", "24-44")
    assert "first place the shot piece" in refused(t, "44-14")
