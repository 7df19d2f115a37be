"""The notation a person types at the table, the text picture, and the event codec."""

from __future__ import annotations

import pytest

from solrec.core.errors import InvalidCommand
from solrec.core.solari.board import Piece
from solrec.core.solari.commands import Deal, Domino, Enter, Place, Roll, Step, Turn
from solrec.core.solari.events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    Stepped,
)
from solrec.core.solari.scoring import Unit
from solrec.core.solari.state import DOMINOES
from solrec.events.codec import EventCodec, converter

from .helpers import GAME, Table

COMMANDS = [
    Roll((3, 5)), Turn((3, 5)), Deal("Uranus", DOMINOES), Domino((1, 6)), Step(25, 55), Step(0, 7),
    Place(70, "N"), Place(4, None), Enter("3", 25, "W"), Enter("c", 52, None),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: type(c).__name__)
def test_every_command_reads_back_as_written(command):
    assert GAME.parse(GAME.format(command)) == command


@pytest.mark.parametrize(
    "text, command",
    [("ROLL 3-5", Roll((3, 5))), ("  25 - 55 ", Step(25, 55)), ("place 70 n", Place(70, "N")),
     ("enter C 25", Enter("c", 25, None)), ("turn 5/3", Turn((5, 3))), ("deal s 1-1", Deal("Saturn", ((1, 1),)))],
)
def test_the_notation_forgives_case_and_spacing(text, command):
    assert GAME.parse(text) == command


@pytest.mark.parametrize("text", ["25-85", "move 25 55", "place 70 X", "domino 0-5", "deal Pluto", "enter 7 25 N", ""])
def test_text_that_is_not_solari_notation_is_refused(text):
    with pytest.raises(InvalidCommand):
        GAME.parse(text)


def test_a_partial_move_may_name_its_piece_which_must_stand_there():
    t = Table("24:U1N,22:Uc,07:S1S")("roll 2 3")
    assert GAME.parse("U1 24-44", t.state) == Step(24, 44)
    assert GAME.parse("Uc 22-44", t.state) == Step(22, 44)
    with pytest.raises(InvalidCommand, match="U2 is not on 24"):
        GAME.parse("U2 24-44", t.state)


def test_a_named_piece_is_looked_for_on_each_board_the_move_is_read_on():
    # the same text read twice (validation reads a game's commands again): each board is asked
    before = Table("24:U1N,07:S1S")("roll 2 3")
    assert GAME.parse("U1 24-44", before.state) == Step(24, 44)
    after = Table("24:U2N,07:S1S")("roll 2 3")
    with pytest.raises(InvalidCommand, match="U1 is not on 24"):
        GAME.parse("U1 24-44", after.state)
    assert GAME.parse("U1 24-44") == Step(24, 44)  # without a board the piece is not checked


def test_the_board_is_drawn_with_every_piece_and_the_counters():
    t = Table("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S")("roll 1 1", "72-62", "62-52")
    picture = GAME.render(t.state)
    assert "  5  o    U1>  U2^  U3>  U5>  .    .    o" in picture
    assert "  3  o    .    .    *    *    .    .    o" in picture
    assert "Uranus (Ann) 5 points: counter on counting square 5" in picture
    assert "Saturn (Bob) to get the numbers" in picture


def test_a_counter_past_one_round_shows_the_rounds():
    import attrs

    from solrec.core.solari import render
    from solrec.core.solari.state import ScoredMove

    t = Table("24:U1N,07:S1S")
    unit = Unit("Uranus", "row", (1, 2, 3, 4, 5, 6), True, 27, True, 54, "test", "test")
    state = attrs.evolve(t.state, scored=(ScoredMove("Uranus", 1, (unit,)),))
    assert "54 points: counter on counting square 18 after 1 round(s)" in render.render(state)


U1 = Piece("Uranus", "comet", 1, "N")
EVENTS = [
    Dealt("Saturn", DOMINOES), NumbersSet("Uranus", (6, 6), "rolled", True), Stepped("Uranus", U1, 24, 44, 2, Piece("Saturn", "chaser")),
    Stepped("Uranus", U1, 24, 44, 2), Entered("Saturn", Piece("Saturn", "comet", 2, "E"), 35, U1, "aimed"),
    ReentryPostponed("Saturn", "why"), Judged(("simple", "total"), ("a", "b")), Placed(U1, 70, "aimed"),
    Forfeited("Uranus", "why"), NumberLost("Uranus", 6),
    MoveScored("Uranus", 3, (Unit("Uranus", "row", (51, 52, 53), True, 1, False, 1, "why", "rule"),)), GameEnded("why"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.TYPE)
def test_every_event_survives_the_codec(event):
    assert converter.structure(converter.unstructure(event), type(event)) == event
    codec = EventCodec.for_game(GAME)
    assert codec.decode(*codec.encode(event)) == event
    assert GAME.describe_event(event)
