"""What a player clicks at the table (``Game.choices``, ``solrec serve``): the die to leave, then the
two pairs; the person reading the table picks the five faces."""

from __future__ import annotations

import itertools

from solrec.core import CHANCE

from .helpers import GAME, position, total


def test_a_selection_is_the_die_left_then_the_two_pairs():
    state = position("roll 6 1 5 5 5")
    choices = GAME.choices(state)
    assert choices.actor == "Ann"
    by_command = {c.command: c for c in choices.commands}
    assert by_command["6+1 5+5 5"].steps == ("leave 5", "6+1 5+5")
    assert {c.steps[0] for c in choices.commands} == {"leave 6", "leave 1", "leave 5"}
    assert {c.group for c in choices.commands} == {"choose"}


def test_beside_a_selection_the_sums_it_marks_and_what_it_does_to_the_score():
    state = position("roll 6 1 5 5 5")
    choice = next(c for c in GAME.choices(state).commands if c.command == "6+1 5+5 5")
    after = total(position("roll 6 1 5 5 5", "6+1 5+5 5"))
    assert choice.detail == f"sums 7 and 10: score {after - total(state):+d}"


def test_a_free_throw_says_so():
    state = position("roll 1 1 1 1 2", "1+1 1+1 2", "roll 3 3 3 3 4", "3+3 3+3 4", "roll 5 5 5 5 6", "5+5 5+5 6",
                     "roll 1 1 1 1 1")
    assert all("free throw" in c.detail for c in GAME.choices(state).commands)


def test_every_die_rolled_is_a_spot_named_by_the_step_that_leaves_it():
    state = position("roll 6 1 5 5 5")
    picture = GAME.svg(state)
    assert picture.count('data-spot="leave 5"') == 3 and picture.count('data-spot="leave 6"') == 1


def test_the_roll_at_an_entered_table_is_five_faces_written_as_the_roll_notation():
    state = position()
    (form,) = GAME.choices(state, entered=True).forms
    assert GAME.choices(state).actor == CHANCE and not GAME.choices(state).forms  # seeded: nothing to pick
    assert [f.values for f in form.fields] == [("1", "2", "3", "4", "5", "6")] * 5
    for faces in itertools.product("16", repeat=5):
        text = form.template.format(**{f.name: v for f, v in zip(form.fields, faces)})
        assert GAME.decide(state, GAME.parse(text))
    assert GAME.decide(state, GAME.parse(form.example))
