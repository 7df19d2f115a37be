"""STARTING THE GAME, the variants' set-ups, and the options that choose between them."""

from __future__ import annotations

import pytest

from solrec.core.errors import InvalidSetup
from solrec.core.game import CHANCE
from solrec.core.play import make_header
from solrec.core.soli2 import board as B
from solrec.core.soli2.state import FILLING, JUMPING

from .conftest import GAME, new


def test_the_duel_is_the_default_mode_with_the_pouch_and_the_standard_objective():
    header = make_header(GAME, ["Ann", "Bob"], {}, "entered")
    assert header.options_dict() == {"mode": "duel", "fill": "pouch", "objective": "standard"}


def test_the_first_listed_player_chooses_black_and_the_second_white():
    state = new()
    assert state.player_of(B.BLACK) == "Ann"
    assert state.player_of(B.WHITE) == "Bob"


def test_the_pouch_holds_24_black_and_24_white_marbles():
    # 002: "Use 24 black and 24 white marbles to play."
    state = new()
    assert state.pouch == (24, 24)
    assert state.board == B.rows(B.EMPTY_BOARD)
    assert state.phase == FILLING


def test_the_game_starts_with_a_draw_from_the_pouch():
    assert GAME.to_act(new()) == CHANCE


def test_pure_skill_puts_12_black_and_12_white_marbles_in_each_players_channel():
    # 002: "placing half of the black marbles into each of two channels ... then ... half of the white"
    state = new(fill="pure-skill")
    assert state.channels == ((12, 12), (12, 12))
    assert state.pouch == (0, 0)
    assert GAME.to_act(state) == "Ann"


def test_classic_solitaire_starts_with_all_48_marbles_on_the_board_and_the_center_empty():
    # 002: "Place all of the marbles onto the board leaving the center pocket empty."
    state = new("classic-solitaire")
    flat = state.flat
    assert flat[B.CENTER] == B.EMPTY
    assert flat.count(B.EMPTY) == 1
    assert (flat.count("b"), flat.count("w")) == (24, 24)
    assert state.phase == JUMPING
    assert GAME.to_act(state) == "Sara"


def test_classic_solitaire_colors_are_a_checkerboard_with_a1_black():
    flat = new("classic-solitaire").flat
    assert flat[B.index("a1")] == "b" and flat[B.index("b1")] == "w" and flat[B.index("a2")] == "w"
    assert flat[B.index("g7")] == "b"


def test_soli2_solitaire_starts_with_the_full_pouch_and_chance_to_draw():
    # 002: "Place all of the marbles into the pouch and shake it up."
    state = new("soli2-solitaire")
    assert state.pouch == (24, 24)
    assert GAME.to_act(state) == CHANCE


def test_a_duel_needs_two_players():
    with pytest.raises(InvalidSetup, match="a SOLI2 duel is played by 2 players, black .listed first. and white, not 1"):
        make_header(GAME, ["Ann"], {}, "entered")


@pytest.mark.parametrize("mode", ["classic-solitaire", "soli2-solitaire"])
def test_a_solitaire_needs_one_player(mode):
    with pytest.raises(InvalidSetup, match=f"SOLI2 {mode} is played by 1 player, not 2"):
        make_header(GAME, ["Ann", "Bob"], {"mode": mode}, "entered")


@pytest.mark.parametrize("mode", ["classic-solitaire", "soli2-solitaire"])
def test_pure_skill_is_refused_in_a_solitaire(mode):
    with pytest.raises(InvalidSetup, match=f"fill=pure-skill is a duel variant: {mode} has no channels"):
        make_header(GAME, ["Sara"], {"mode": mode, "fill": "pure-skill"}, "entered")


@pytest.mark.parametrize("mode", ["classic-solitaire", "soli2-solitaire"])
def test_give_away_is_refused_in_a_solitaire(mode):
    with pytest.raises(InvalidSetup, match=f"objective=give-away is a duel variant: in {mode} you try to leave one"):
        make_header(GAME, ["Sara"], {"mode": mode, "objective": "give-away"}, "entered")


def test_an_unknown_mode_is_refused():
    with pytest.raises(InvalidSetup, match="option mode is one of duel, classic-solitaire, soli2-solitaire"):
        make_header(GAME, ["Ann", "Bob"], {"mode": "triple"}, "entered")


@pytest.mark.parametrize(
    "mode, players", [("duel", ("Player 1", "Player 2")), ("classic-solitaire", ("Player 1",)), ("soli2-solitaire", ("Player 1",))]
)
def test_default_players_fit_the_mode(mode, players):
    assert make_header(GAME, None, {"mode": mode}, "seeded", 1).players == players
