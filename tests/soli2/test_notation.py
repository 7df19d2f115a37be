"""SOLI2 notation, the rendering, and the quoted rule sentences."""

from __future__ import annotations

import re

import pytest

from solrec.core.errors import InvalidCommand
from solrec.core.soli2 import text
from solrec.core.soli2.commands import Draw, Jump, Pass, Place

from ..conftest import rule_text
from .conftest import GAME, new, play, position


@pytest.mark.parametrize(
    "notation, command",
    [
        ("draw black", Draw("black")),
        ("draw white", Draw("white")),
        ("place d4", Place("d4")),
        ("place white d4", Place("d4", "white")),
        ("place black a7", Place("a7", "black")),
        ("d2-d4", Jump("d2", "d4")),
        ("pass", Pass()),
    ],
)
def test_notation_round_trips(notation, command):
    assert GAME.parse(notation) == command
    assert GAME.format(command) == notation


def test_notation_ignores_case_and_spacing():
    assert GAME.parse("  Place  WHITE   D4 ") == Place("d4", "white")
    assert GAME.parse("D2 - d4") == Jump("d2", "d4")
    assert GAME.parse("jump d2-d4") == Jump("d2", "d4")


def test_a_pocket_is_a_file_a_to_g_and_a_rank_1_to_7():
    with pytest.raises(InvalidCommand, match="h4 is not a pocket"):
        GAME.parse("place h4")
    with pytest.raises(InvalidCommand, match="d8 is not a pocket"):
        GAME.parse("d6-d8")


def test_unknown_notation_is_refused_with_the_forms_to_use():
    with pytest.raises(InvalidCommand, match="is not SOLI2 notation: write 'draw black' or 'draw white'"):
        GAME.parse("take d4")
    with pytest.raises(InvalidCommand, match="is not SOLI2 notation"):
        GAME.parse("draw red")


def test_every_quoted_sentence_is_in_the_rule_text():
    source = rule_text(GAME.rule_text)
    assert len(text.ALL) >= 30
    for citation in text.ALL:
        sentence = re.match(r'^002: "(.*)"$', citation, re.S).group(1)
        assert sentence in source, sentence


def test_the_board_renders_with_coordinates_and_what_is_off_the_board():
    state = play(new(), "draw white", "place a7", "draw black", "place d4", "draw black")
    picture = GAME.render(state)
    lines = picture.splitlines()
    assert lines[0] == "SOLI2 duel (pouch, standard): black Ann, white Bob"
    assert lines[2] == "    a b c d e f g"
    assert lines[3] == " 7  w . . . . . .  7"
    assert lines[6] == " 4  . . . b . . .  4"
    assert "on the board: black 1, white 1" in lines
    assert "removed (in the channel): black 0, white 0" in lines
    assert "pouch: black 22, white 23" in lines
    assert "drawn, to place: black" in lines
    assert lines[-1] == "Ann (black) to place the black marble (2 of 48 placed)"


def test_the_pure_skill_render_shows_each_channel():
    picture = GAME.render(play(new(fill="pure-skill"), "place white d4"))
    assert "Ann's channel: black 12, white 11" in picture
    assert "Bob's channel: black 12, white 12" in picture
    assert picture.endswith("Bob (white) to place a marble from their channel (1 of 48 placed)")


def test_the_jumping_render_counts_the_legal_jumps():
    picture = GAME.render(
        position(
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
    )
    assert picture.endswith("Ann (black) to jump: 2 legal jumps")
    assert "removed (in the channel): black 22, white 22" in picture


def test_events_describe_themselves():
    state = play(new(), "draw white")
    (placed,) = GAME.decide(state, Place("c3"))
    assert GAME.describe_event(placed) == "Ann placed a white marble on c3"
