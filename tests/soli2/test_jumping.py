"""SECOND PART OF THE GAME - REMOVING MARBLES, and WINNING THE GAME (when it ends)."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.soli2.commands import Jump
from solrec.core.soli2.events import BLACK_OUT, NO_JUMP, WHITE_OUT, Ended, Jumped, Passed
from solrec.core.soli2.state import OVER

from .conftest import GAME, decide, events_of, play, position

TWO_JUMPS = """
    . . . . . . .
    . . . . . . .
    . . . . w b .
    . . . . . . .
    . . . w . . .
    . . . b . . .
    . . . . . . .
"""

PASS_THEN_END = """
    . . . . . . .
    . . . . . b .
    . . . . . b .
    . . . . . . .
    . . . w . . .
    . . . b . . .
    w . . . . . .
"""


def test_black_picks_up_a_black_marble_and_jumps_over_an_adjacent_marble_into_the_empty_pocket():
    # 002: "At your turn, pick up one of **your** marbles and jump over an adjacent marble into the
    # empty pocket on the other side of it."
    state = position(TWO_JUMPS)
    assert events_of(state, "d2-d4") == [Jumped("Ann", "black", "d2", "d3", "d4", "white")]
    after = play(state, "d2-d4")
    assert (after.at("d2"), after.at("d3"), after.at("d4")) == (None, None, "black")


def test_the_jumped_marble_is_removed_from_play_into_the_channel():
    # 002: "The marble you jump over is removed from play and placed into the channel."
    state = position(TWO_JUMPS)
    after = play(state, "d2-d4")
    assert after.removed == (state.removed[0], state.removed[1] + 1)
    assert after.on_board("white") == state.on_board("white") - 1


def test_players_take_turns_jumping():
    state = play(position(TWO_JUMPS), "f5-d5")
    assert GAME.to_act(state) == "Bob"


def test_a_player_may_only_pick_up_their_own_marbles():
    with pytest.raises(IllegalCommand, match=r"^e5 holds a white marble: Ann plays black and may only pick up black marbles$"):
        decide(position(TWO_JUMPS), "e5-g5")


def test_a_player_may_jump_over_either_color():
    # 002: "You are always free to choose any legal jump, regardless of which color marble you are
    # jumping over."
    state = position(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . b . . .
        . . . b . . .
        w w . . . . .
        """
    )
    assert events_of(state, "d2-d4")[0] == Jumped("Ann", "black", "d2", "d3", "d4", "black")


def test_a_player_must_jump_even_when_the_only_jump_removes_their_own_marble():
    # 002: "You must jump if you can, even if the only choice is jumping over and removing your own a marble."
    state = position(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . b . . .
        . . . b . . .
        w w . . . . .
        """
    )
    assert GAME.legal_commands(state) == (Jump("d2", "d4"), Jump("d3", "d1"))
    with pytest.raises(IllegalCommand, match=r"^you must jump: d2-d4 and d3-d1 are available$"):
        decide(state, "pass")


def test_a_player_with_a_jump_cannot_pass():
    # 002: "You must jump if you can ..."
    with pytest.raises(IllegalCommand, match=r"^you must jump: d2-d4 and f5-d5 are available$"):
        decide(position(TWO_JUMPS), "pass")


def test_the_refusal_names_a_single_available_jump():
    state = play(position(PASS_THEN_END), "d2-d4")
    with pytest.raises(IllegalCommand, match=r"^you must jump: f5-f7 and f6-f4 are available$"):
        decide(state, "pass")
    state = position(PASS_THEN_END.replace(". . . . . b .\n    . . . . . b .", ". . . . . . .\n    . . . . . . ."))
    with pytest.raises(IllegalCommand, match=r"^you must jump: d2-d4 is available$"):
        decide(state, "pass")


def test_no_placement_once_the_jumping_has_begun():
    with pytest.raises(IllegalCommand, match=r"and the jumping has begun: you must jump: d2-d4 and f5-d5 are available$"):
        decide(position(TWO_JUMPS), "place a1")


def test_no_draw_once_the_jumping_has_begun():
    with pytest.raises(IllegalCommand, match="all 48 marbles are on the board: nothing more is drawn"):
        decide(position(TWO_JUMPS), "draw black")


def test_a_jump_lands_only_in_an_empty_pocket():
    state = position(TWO_JUMPS.replace(". . . . . . .\n    . . . w", ". . . w . . .\n    . . . w", 1))
    with pytest.raises(IllegalCommand, match=r"^d4 is not empty$"):
        decide(state, "d2-d4")


def test_a_jump_starts_from_a_marble():
    with pytest.raises(IllegalCommand, match=r"^c1 is empty: there is no marble to jump with$"):
        decide(position(TWO_JUMPS), "c1-c3")


def test_a_jump_goes_over_a_marble():
    state = position(TWO_JUMPS.replace(". . . w . . .", ". . . . . . ."))
    with pytest.raises(IllegalCommand, match=r"^d2-d4 jumps over d3, which is empty$"):
        decide(state, "d2-d4")


def test_a_jump_is_not_diagonal():
    # 002: "You may only jump over a single marble and you cannot jump diagonally."
    with pytest.raises(IllegalCommand, match=r"^d2-f4 is not straight: you cannot jump diagonally$"):
        decide(position(TWO_JUMPS), "d2-f4")


def test_a_jump_goes_over_a_single_marble():
    # 002: "You may only jump over a single marble and you cannot jump diagonally."
    state = position(TWO_JUMPS.replace(". . . . . . .\n    . . . w", ". . . w . . .\n    . . . w", 1))
    with pytest.raises(IllegalCommand, match=r"^d2-d5 passes more than one pocket: you may only jump over a single marble$"):
        decide(state, "d2-d5")


def test_a_move_to_the_next_pocket_is_not_a_jump():
    state = position(TWO_JUMPS.replace(". . . w . . .", ". . . . . . ."))
    with pytest.raises(IllegalCommand, match=r"^d2-d3 is not a jump: a marble jumps over one adjacent marble"):
        decide(state, "d2-d3")


def test_legal_jumps_are_every_jump_of_the_player_to_act():
    assert GAME.legal_commands(position(TWO_JUMPS)) == (Jump("d2", "d4"), Jump("f5", "d5"))
    assert GAME.legal_commands(position(TWO_JUMPS, turn=1)) == (Jump("d3", "d1"), Jump("e5", "g5"))


def test_a_player_without_a_legal_jump_passes_automatically():
    # 002: "If you have no legal jump available, pass your turn."
    state = position(PASS_THEN_END)
    events = events_of(state, "d2-d4")
    assert events == [Jumped("Ann", "black", "d2", "d3", "d4", "white"), Passed("Bob", "white")]
    after = play(state, "d2-d4")
    assert GAME.to_act(after) == "Ann"
    assert after.passes == 1


def test_the_game_ends_when_neither_player_has_a_legal_jump():
    # 002: "The game ends neither player has a legal jump **or** when either player runs out of marbles."
    state = play(position(PASS_THEN_END), "d2-d4")
    events = events_of(state, "f6-f4")
    assert events[1:] == [Ended(NO_JUMP)]
    after = play(state, "f6-f4")
    assert after.phase == OVER and GAME.to_act(after) is None
    assert GAME.legal_commands(after) == ()


def test_the_game_ends_at_once_when_a_player_runs_out_of_marbles():
    # 002: "... **or** when either player runs out of marbles."  Black could still jump f6-f4.
    state = position(PASS_THEN_END.replace("w . . . . . .", ". . . . . . ."))
    assert events_of(state, "d2-d4")[1:] == [Ended(WHITE_OUT)]


def test_the_game_ends_when_black_runs_out_of_marbles():
    state = position(
        """
        . . . . . . .
        . . . . . w .
        . . . . . w .
        . . . . . . .
        . . . b . . .
        . . . w . . .
        . . . . . . .
        """,
        turn=1,
    )
    assert events_of(state, "d2-d4")[1:] == [Ended(BLACK_OUT)]


def test_no_command_once_the_game_is_over():
    state = play(position(PASS_THEN_END), "d2-d4", "f6-f4")
    with pytest.raises(IllegalCommand, match="the game is over"):
        decide(state, "d4-f4")
