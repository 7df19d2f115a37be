"""The table: who may act, seeded chance, and refusals that append nothing."""

from __future__ import annotations

import pytest

from solrec.core import (
    CHANCE,
    IllegalCommand,
    WrongActor,
    advance_chance,
    decide_as,
    initial_state,
    make_header,
    play,
)
from solrec.core.chance import SeededDraw
from solrec.core.registry import game_ids, get_game
from solrec.core.solo_dice.commands import Roll
from solrec.core.solo_dice.notation import parse

GAME = get_game("solo-dice")


def entered():
    header = make_header(GAME, ["Ann"], chance="entered")
    return header, initial_state(GAME, header)


def test_a_player_cannot_act_for_chance():
    header, state = entered()
    with pytest.raises(WrongActor, match="chance acts now, not Ann"):
        decide_as(GAME, header, state, 0, "Ann", parse("roll 1 2 3 4 5"))


def test_chance_cannot_act_for_a_player():
    header, state = entered()
    steps, state, n = play(GAME, header, state, 0, CHANCE, parse("roll 1 2 3 4 5"))
    with pytest.raises(WrongActor, match="Ann is to act, not chance"):
        decide_as(GAME, header, state, n, CHANCE, parse("1+2 3+4 5"))


def test_a_player_command_from_chance_is_refused_even_when_chance_acts():
    header, state = entered()
    with pytest.raises(WrongActor, match="chance gives only chance commands"):
        decide_as(GAME, header, state, 0, CHANCE, parse("1+2 3+4 5"))


def test_seeded_chance_acts_by_itself_from_the_seed():
    header = make_header(GAME, ["Ann"], chance="seeded", seed=7)
    steps, state, n = advance_chance(GAME, header, initial_state(GAME, header), 0)
    assert [s.notation for s in steps] == ["roll " + " ".join(map(str, SeededDraw(7, 0).dice(5)))]
    assert GAME.to_act(state) == "Ann" and n == 1


def test_seeded_chance_refuses_a_typed_outcome_that_differs():
    header = make_header(GAME, ["Ann"], chance="seeded", seed=7)
    state = initial_state(GAME, header)
    with pytest.raises(IllegalCommand, match="this game's chance comes from its seed and acts by itself"):
        decide_as(GAME, header, state, 0, CHANCE, Roll((1, 1, 1, 1, 1)))


def test_entered_and_seeded_chance_produce_the_same_events():
    seeded = make_header(GAME, ["Ann"], chance="seeded", seed=7)
    typed = make_header(GAME, ["Ann"], chance="entered")
    a = decide_as(GAME, seeded, initial_state(GAME, seeded), 0, CHANCE, Roll((5, 1, 1, 5, 3)))
    b = decide_as(GAME, typed, initial_state(GAME, typed), 0, CHANCE, Roll((5, 1, 1, 5, 3)))
    assert a.events == b.events


def test_a_refusal_leaves_the_state_untouched():
    header, state = entered()
    _, state, n = play(GAME, header, state, 0, CHANCE, parse("roll 6 1 5 5 5"))
    before = state
    with pytest.raises(IllegalCommand):
        decide_as(GAME, header, state, n, "Ann", parse("6+1 5+5 4"))
    assert state == before


def test_states_commands_and_events_are_frozen():
    import attrs

    header, state = entered()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.rolls = 3
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        parse("roll 1 2 3 4 5").dice = (1,)


def test_reprs_paste_back():
    from solrec.core.solo_dice.commands import Choose  # noqa: F401 (eval needs the names)
    from solrec.core.solo_dice.events import PairsChosen, Rolled  # noqa: F401

    header, state = entered()
    step = decide_as(GAME, header, state, 0, CHANCE, parse("roll 6 1 5 5 5"))
    assert eval(repr(step.events[0])) == step.events[0]
    assert eval(repr(parse("6+1 5+5 5"))) == parse("6+1 5+5 5")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_event_type_has_exactly_one_mutator(game_id):
    """The eventsourcing aggregate's shape: the folds look an event's mutator up in ``mutators``."""
    game = get_game(game_id)
    assert set(game.mutators) == set(game.event_types)
    assert all(callable(mutate) for mutate in game.mutators.values())
