"""Refusals not covered next to their rule: every one names what is wrong in a player's words."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.solari.commands import Deal, Domino, Enter, Roll, Step, Turn
from solrec.core.solari.state import DOMINOES

from .helpers import GAME, Table


def reason(state, command) -> str:
    with pytest.raises(IllegalCommand) as err:
        GAME.decide(state, command)
    return str(err.value)


def test_a_roll_while_the_mover_is_moving_is_refused():
    t = Table("24:U1N,07:S1S")("roll 2 3")
    assert reason(t.state, Roll((1, 1))) == "Uranus is moving (a partial move such as 25-55); a roll is not possible now"


def test_a_roll_must_show_two_dice_from_one_to_six():
    assert "a roll is two dice from 1 to 6" in reason(Table().state, Roll((7, 1)))


def test_a_domino_is_turned_only_with_hidden_dominoes():
    assert "only with hidden dominoes" in reason(Table().state, Turn((3, 5)))


def test_dominoes_are_dealt_only_with_open_dominoes():
    assert "only with open dominoes" in reason(Table().state, Deal("Uranus", DOMINOES))


def test_a_domino_is_chosen_only_with_free_dominoes():
    assert "only with free dominoes" in reason(Table().state, Domino((3, 5)))


def test_a_free_domino_is_chosen_before_moving_not_after():
    t = Table("24:U1N,07:S1S", source="dominoes-free")("domino 2-3")
    assert "choosing a domino is not possible now" in reason(t.state, Domino((1, 1)))


def test_a_partial_move_must_leave_its_square():
    t = Table("24:U1N,07:S1S")("roll 2 3")
    assert "must leave its square" in reason(t.state, Step(24, 24))


def test_reentry_may_not_land_on_an_adverse_blocker():
    t = Table("24:U1N,44:S1E,07:S2S,35:Ub")("roll 2 2", "24-44", "44-64", "roll 3 5")
    assert "Uranus's blocker on 35 cannot be shot" in reason(t.state, Enter("1", 35, "N"))
    assert all(" 35 " not in c for c in t.legal)


def test_a_reentering_chaser_takes_no_facing():
    t = Table("22:Uc,44:Sc,61:U2N,07:S2S")("roll 2 2", "22-44", "61-41", "roll 3 5")
    assert [p.label for p in t.state.off_board] == ["Sc"]
    assert "has no facing" in reason(t.state, Enter("c", 35, "N"))
    t("enter c 35")
    assert t.label(35) == "Sc"


def test_an_aimed_shot_chaser_takes_no_facing():
    t = Table("24:U1N,44:Sc,07:S2S")("roll 2 3", "24-44", "44-14")
    assert "keeps its facing" in reason(t.state, GAME.parse("place 70 N"))
    t("place 70")
    assert t.label(70) == "Sc"
