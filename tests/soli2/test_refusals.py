"""Refusals of commands that the notation cannot produce but a program can, and of the wrong actor."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand, WrongActor
from solrec.core.game import Command
from solrec.core.play import decide_as, make_header
from solrec.core.soli2.commands import Draw, Jump, Place

from .conftest import GAME, new, play, position


def test_a_marble_drawn_is_black_or_white():
    with pytest.raises(IllegalCommand, match='^a marble is black or white, not "red"$'):
        GAME.decide(new(), Draw("red"))


def test_a_marble_placed_is_black_or_white():
    with pytest.raises(IllegalCommand, match='^a marble is black or white, not "red"$'):
        GAME.decide(new(fill="pure-skill"), Place("d4", "red"))


def test_a_placement_names_a_pocket_of_the_board():
    with pytest.raises(IllegalCommand, match='^"h9" is not a pocket: files a-g, ranks 1-7$'):
        GAME.decide(play(new(), "draw black"), Place("h9"))


def test_a_jump_names_pockets_of_the_board():
    with pytest.raises(IllegalCommand, match='^"d0" is not a pocket: files a-g, ranks 1-7$'):
        GAME.decide(new("classic-solitaire"), Jump("d2", "d0"))


def test_a_command_of_another_game_is_refused():
    class Roll(Command):
        pass

    with pytest.raises(IllegalCommand, match="SOLI2 has no command Roll"):
        GAME.decide(new(), Roll())


def test_only_the_player_to_act_may_jump():
    header = make_header(GAME, ["Ann", "Bob"], {}, "entered")
    state = position(
        """
        . . . . . . .
        . . . . . . .
        . . . . w b .
        . . . . . . .
        . . . w . . .
        . . . b . . .
        . . . . . . .
        """
    )
    with pytest.raises(WrongActor, match="Ann is to act, not Bob"):
        decide_as(GAME, header, state, 0, "Bob", Jump("e5", "g5"))


def test_only_chance_draws_from_the_pouch():
    header = make_header(GAME, ["Ann", "Bob"], {}, "entered")
    with pytest.raises(WrongActor, match="chance acts now, not Ann"):
        decide_as(GAME, header, new(), 0, "Ann", Place("d4"))


def test_a_seeded_game_takes_its_draws_from_the_seed():
    header = make_header(GAME, ["Ann", "Bob"], {}, "seeded", 5)
    from solrec.core.chance import SeededDraw

    expected = GAME.chance_command(new(), SeededDraw(5, 0))
    other = Draw("white" if expected.color == "black" else "black")
    with pytest.raises(IllegalCommand, match="this game's chance comes from its seed"):
        decide_as(GAME, header, new(), 0, "chance", other)
