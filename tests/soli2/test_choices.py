"""What a player clicks at the table (``Game.choices``, ``solrec serve``): a marble, then the empty
pocket it jumps into; a pocket to place in (in pure skill, the colour from the channel first); the
marble drawn from the pouch, picked by whoever reads the table."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from solrec.core import CHANCE

from .conftest import GAME, new, play, position

TWO_JUMPS = """
    . . . . . . .
    . . . . . . .
    . . . . w b .
    . . . . . . .
    . . . w . . .
    . . . b . . .
    . . . . . . .
"""


def spots(picture: str) -> set[str]:
    return {e.get("data-spot") for e in ET.fromstring(picture).iter() if e.get("data-spot")}


def test_a_jump_is_the_marble_picked_up_then_the_pocket_it_lands_in_and_says_where_it_lands_and_what_it_removes():
    choices = GAME.choices(position(TWO_JUMPS))
    assert choices.actor == "Ann"
    assert [(c.command, c.steps, c.group, c.detail) for c in choices.commands] == [
        ("d2-d4", ("d2", "d4"), "jump", "from d2 over d3 to d4, removing the white marble on d3"),
        ("f5-d5", ("f5", "d5"), "jump", "from f5 over e5 to d5, removing the white marble on e5")]


def test_every_pocket_is_a_spot_named_as_the_notation_names_it():
    assert spots(GAME.svg(position(TWO_JUMPS))) == {f"{f}{r}" for f in "abcdefg" for r in range(1, 8)}


def test_the_marble_drawn_is_placed_by_clicking_a_pocket():
    state = play(new(), "draw black")
    choices = GAME.choices(state)
    assert {c.group for c in choices.commands} == {"place"}
    assert ("place d4", ("d4",)) in [(c.command, c.steps) for c in choices.commands]
    assert len(choices.commands) == 49


def test_in_pure_skill_the_colour_is_picked_from_the_channel_then_the_pocket():
    state = new(fill="pure-skill")
    steps = {c.command: c.steps for c in GAME.choices(state).commands}
    assert steps["place white d4"] == ("white", "d4") and steps["place black a1"] == ("black", "a1")


def test_the_pouch_form_offers_the_colours_still_in_it():
    state = new()
    assert GAME.choices(state).actor == CHANCE and not GAME.choices(state).forms  # seeded: chance acts itself
    (form,) = GAME.choices(state, entered=True).forms
    assert (form.template, form.fields[0].values, form.example) == ("draw {colour}", ("black", "white"), "draw black")
    squares = [f"{f}{r}" for r in range(1, 8) for f in "abcdefg" if f"{f}{r}" != "d4"]
    for square in squares[:24]:  # every black marble drawn and placed: only white ones are left
        state = play(state, "draw black", f"place {square}")
    (form,) = GAME.choices(state, entered=True).forms
    assert form.fields[0].values == ("white",) and form.example == "draw white"


def test_a_jump_said_in_words_names_the_marble_where_it_lands_and_the_marble_it_removes():
    state = position(TWO_JUMPS)
    jump = GAME.parse("d2-d4", state)
    assert GAME.command_words(jump, state) == "jump the black marble from d2 over d3 to d4, removing the white marble on d3"
    (jumped,) = [e for e in GAME.decide(state, jump) if type(e).__name__ == "Jumped"]
    assert GAME.describe_event(jumped) == "Ann jumped the black marble from d2 over d3 to d4, removing the white marble on d3"
