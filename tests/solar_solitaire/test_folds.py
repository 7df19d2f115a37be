"""How events are folded and commands read: the cheap paths give the answers of the plain ones."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.errors import InvalidCommand
from solrec.core.solar_solitaire import notation
from solrec.core.solar_solitaire.cards import PLACES, place_index, read_card
from solrec.core.solar_solitaire.events import Moved, Played, Turned
from solrec.core.solar_solitaire.state import MUTATORS

from .helpers import GAME, make_state

PADS = (("0-0-1",), ("1-2-3",), ("0-3-1",), ("2-0-3",))


def fold(state, events):
    for event in events:
        state = MUTATORS[type(event)](state, event)
    return state


def test_folding_the_events_decide_returned_gives_the_state_decide_reached():
    state = attrs.evolve(make_state(PADS, waste=("2-3-2", "0-1-2", "0-1-0")), asked=True)
    events = GAME.decide(state, GAME.parse("card 0-3-0"))  # the turned card, then the cascade
    remembered = fold(state, events)
    assert fold(state, events) is remembered  # decide's own states, not made again
    again = fold(state, [attrs.evolve(e) for e in events])  # equal events, other objects: folded anew
    assert again == remembered and again is not remembered
    assert remembered.pads[2] == ("0-3-1", "0-3-0", "0-1-0", "0-1-2") and remembered.waste == ("2-3-2",)


def test_a_remembered_fold_is_used_only_for_the_state_it_was_made_on():
    state = attrs.evolve(make_state(PADS), asked=True)
    events = GAME.decide(state, GAME.parse("card 0-2-3"))
    other = attrs.evolve(make_state(PADS, waste=("0-1-0",)), asked=True)
    assert fold(other, events).waste == ("0-1-0",)  # not the remembered state, whose waste is empty
    assert fold(state, events).waste == ()


def test_a_move_takes_the_top_card_of_its_pile_and_puts_it_on_the_other():
    state = make_state(PADS, waste=("0-1-0", "0-3-3"))
    after = fold(state, [Moved("0-3-3", "waste", "pad2")])
    assert after.waste == ("0-1-0",) and after.pads[2] == ("0-3-1", "0-3-3")
    assert after.pads[:2] == state.pads[:2] and after.stations == state.stations


def test_a_forced_play_from_the_waste_heap_takes_its_top_card():
    state = make_state(PADS, waste=("0-1-0", "0-3-0"))
    after = fold(state, [Played("0-3-0", 2, "waste")])
    assert after.waste == ("0-1-0",) and after.pads[2] == ("0-3-1", "0-3-0") and after.choice == ()


def test_a_turned_card_leaves_the_stock_and_the_rest_keeps_its_order():
    state = make_state(PADS)
    card = state.stock[3]
    after = fold(state, [Turned(card)])
    assert after.hand == card and after.stock == tuple(c for c in state.stock if c != card)


def test_every_written_form_of_a_card_reads_as_its_canonical_form():
    assert read_card(" 3-2-1 ") == "1-2-3"
    for text in ("1-2", "1-2-4", "1-2-3-0", "a-b-c", "1_2_3", ""):
        with pytest.raises(InvalidCommand, match="is not a Space Domino"):
            read_card(text)


def test_every_place_has_its_kind_and_number():
    assert [place_index(p) for p in PLACES] == [("waste", 0)] + [("pad", n) for n in range(4)] + [
        ("station", n) for n in range(4)
    ]
    with pytest.raises(ValueError):
        place_index("pad4")


def test_a_text_read_twice_gives_the_same_command_and_a_bad_one_is_refused_each_time():
    assert notation.parse("move waste pad1") == notation.parse("MOVE  waste, pad1")
    for _ in range(2):
        with pytest.raises(InvalidCommand):
            notation.parse("card 1-2-4")
