"""FIRST PART OF THE GAME - FILLING THE BOARD (the pouch, and the pure-skill channels)."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.game import CHANCE
from solrec.core.soli2 import board as B
from solrec.core.soli2.commands import Draw, Jump, Place
from solrec.core.soli2.events import Drawn, Passed, Placed
from solrec.core.soli2.state import FILLING, JUMPING

from .conftest import GAME, decide, diagram, events_of, fill_board, new, play


def test_black_places_first():
    # 002: "Starting with the player who chose "black", players take turns placing marbles onto the board."
    state = play(new(), "draw white")
    assert GAME.to_act(state) == "Ann"


def test_players_take_turns_placing_with_a_draw_before_each_placement():
    state = play(new(), "draw black", "place a1")
    assert GAME.to_act(state) == CHANCE
    state = play(state, "draw black")
    assert GAME.to_act(state) == "Bob"
    state = play(state, "place a2", "draw white")
    assert GAME.to_act(state) == "Ann"


def test_a_draw_takes_the_marble_out_of_the_pouch():
    # 002: "At your turn, draw a marble from the pouch and place it into any empty pocket on the board."
    state = play(new(), "draw white")
    assert state.pouch == (24, 23)
    assert state.hand == B.WHITE
    assert events_of(new(), "draw white") == [Drawn("white")]


def test_the_drawn_marble_goes_into_any_empty_pocket_the_center_included():
    state = play(new(), "draw black", "place d4")
    assert state.at("d4") == B.BLACK
    assert state.hand is None


def test_a_player_may_have_to_place_the_opponents_color():
    # 002: "Of course, sometimes you will draw and play your opponent's color."
    state = play(new(), "draw white")
    assert events_of(state, "place c3") == [Placed("Ann", "white", "c3")]


def test_a_drawn_color_must_still_be_in_the_pouch():
    state = new()
    for i in range(24):
        state = play(state, "draw white", f"place {B.SQUARES[i]}")
    with pytest.raises(IllegalCommand, match=r"^the pouch holds no white marble any more \(only 24 black marbles\)$"):
        decide(state, "draw white")


def test_no_second_draw_before_the_drawn_marble_is_placed():
    state = play(new(), "draw black")
    with pytest.raises(IllegalCommand, match="the black marble drawn last must be placed before the next draw"):
        decide(state, "draw white")


def test_a_marble_goes_only_into_an_empty_pocket():
    state = play(new(), "draw black", "place b3", "draw white")
    with pytest.raises(IllegalCommand, match=r"^b3 is not empty$"):
        decide(state, "place b3")


def test_the_pouch_marble_is_placed_without_naming_a_color():
    state = play(new(), "draw black")
    with pytest.raises(IllegalCommand, match=r"you place the marble you drew from the pouch \(black\): write 'place d4'"):
        decide(state, "place white d4")


def test_no_placement_before_the_draw():
    with pytest.raises(IllegalCommand, match="draw a marble from the pouch first"):
        GAME.decide(new(), Place("d4"))


def test_no_jump_while_the_board_is_being_filled():
    state = play(new(), "draw black", "place d2", "draw black", "place d3", "draw black")
    with pytest.raises(IllegalCommand, match=r"the board is still being filled \(2 of 48 marbles placed\)"):
        decide(state, "d2-d4")


def test_nobody_passes_while_the_board_is_being_filled():
    with pytest.raises(IllegalCommand, match="nobody passes while the board is being filled"):
        decide(play(new(), "draw black"), "pass")


def test_after_48_marbles_one_pocket_is_empty_and_black_jumps_first():
    # 002: "When all 48 stones have been played, there will be one empty pocket somewhere on the board."
    # 002: "Starting with the player who chose "black", players take turns jumping ..."
    flat = list(B.CLASSIC_BOARD)
    flat[B.CENTER], flat[B.index("a1")] = "b", B.EMPTY  # the empty pocket is a1, not the center
    state = fill_board(new(), "".join(flat))
    assert state.phase == JUMPING
    assert state.flat.count(B.EMPTY) == 1 and state.at("a1") is None
    assert state.pouch == (0, 0)
    assert GAME.to_act(state) == "Ann"


FULL_BLACK_BLOCKED = diagram(
    """
    w b w b w b w
    b w b w b w b
    w b w b w b w
    b w b b b w b
    w b w b w b w
    b w b w b w b
    . w w w b w b
    """
)


def test_the_48th_placement_shows_the_automatic_pass_when_black_has_no_jump():
    # 002: "If you have no legal jump available, pass your turn."  Only a3 and c1 can jump into a1,
    # and both are white.
    flat = FULL_BLACK_BLOCKED
    assert flat.count("b") == 24 and flat.count("w") == 24
    marks = [i for i, m in enumerate(flat) if m != B.EMPTY]
    last = marks.pop()
    before = new()
    for i in marks:
        before = play(before, f"draw {B.COLOR_OF_MARK[flat[i]]}", f"place {B.name(i)}")
    before = play(before, f"draw {B.COLOR_OF_MARK[flat[last]]}")
    events = events_of(before, f"place {B.name(last)}")
    assert events[1:] == [Passed("Ann", "black")]
    after = play(before, f"place {B.name(last)}")
    assert GAME.to_act(after) == "Bob"
    assert GAME.legal_commands(after) == (Jump("a3", "a1"), Jump("c1", "a1"))


def test_legal_placements_are_every_empty_pocket():
    state = play(new(), "draw black", "place d4", "draw white")
    legal = GAME.legal_commands(state)
    assert len(legal) == 48
    assert Place("d4") not in legal and Place("a1") in legal


def test_chance_may_draw_either_color_still_in_the_pouch():
    assert GAME.legal_commands(new()) == (Draw("black"), Draw("white"))


# -- pure skill ---------------------------------------------------------------------------------
def test_pure_skill_does_not_use_the_pouch():
    # 002: "To play a game of pure skill, the pouch is not used."
    with pytest.raises(IllegalCommand, match="in the pure-skill game the pouch is not used"):
        decide(new(fill="pure-skill"), "draw black")


def test_pure_skill_player_chooses_the_color_from_their_channel():
    # 002: "players take turns drawing a marble of their choice from their own channel ..."
    state = new(fill="pure-skill")
    assert events_of(state, "place white d4") == [Placed("Ann", "white", "d4")]
    state = play(state, "place white d4")
    assert state.channels == ((12, 11), (12, 12))
    assert GAME.to_act(state) == "Bob"
    state = play(state, "place white c4")
    assert state.channels == ((12, 11), (12, 11))


def test_pure_skill_placement_names_the_color():
    with pytest.raises(IllegalCommand, match="write 'place black d4' or 'place white d4'"):
        decide(new(fill="pure-skill"), "place d4")


def test_pure_skill_refuses_a_color_gone_from_the_channel():
    state = new(fill="pure-skill")
    squares = iter(B.SQUARES)
    for _ in range(12):
        state = play(state, f"place white {next(squares)}", f"place black {next(squares)}")
    with pytest.raises(IllegalCommand, match=r"^Ann's channel holds no white marble any more \(only 12 black marbles\)$"):
        decide(state, f"place white {next(squares)}")


def test_pure_skill_each_player_places_half_of_each_color():
    # 002: "Each player will place half of the white marbles and half of the black marbles."
    state = new(fill="pure-skill")
    squares = iter(sq for sq in B.SQUARES if sq != "g1")
    placed = {"Ann": [], "Bob": []}
    while state.phase == FILLING:
        player = GAME.to_act(state)
        color = "black" if state.channels[state.turn][0] else "white"
        placed[player].append(color)
        state = play(state, f"place {color} {next(squares)}")
    for colors in placed.values():
        assert colors.count("black") == 12 and colors.count("white") == 12
    assert state.channels == ((0, 0), (0, 0))
    assert state.at("g1") is None


def test_pure_skill_legal_placements_offer_both_colors_still_in_the_channel():
    state = new(fill="pure-skill")
    legal = GAME.legal_commands(state)
    assert len(legal) == 2 * 49
    assert Place("d4", "black") in legal and Place("d4", "white") in legal


def test_pure_skill_legal_placements_drop_a_color_once_gone():
    state = new(fill="pure-skill")
    squares = iter(B.SQUARES)
    for _ in range(12):
        state = play(state, f"place white {next(squares)}", f"place black {next(squares)}")
    legal = GAME.legal_commands(state)
    assert {c.color for c in legal} == {"black"}
    assert len(legal) == 49 - 24
