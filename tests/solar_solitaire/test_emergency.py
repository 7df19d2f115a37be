"""The emergency rules (space stations, free movement) and the restrictions that hold throughout."""

from __future__ import annotations

import pytest

from solrec.core.solar_solitaire.commands import Move
from solrec.core.solar_solitaire.events import EmergencyOff, EmergencyOn, Moved, Wasted

from .helpers import GAME, Table, make_state

# pad0 holds the launched rocket 0-0-0; 3-3-3 lies in the waste heap under 0-3-0
PADS = (("0-0-1", "0-0-0"), ("1-2-3", "0-2-3"), ("0-3-1",), ("2-0-3",))
WASTE = ("3-3-3", "0-3-0")


def table(pads=PADS, waste=WASTE, **kw) -> Table:
    return Table(state=make_state(pads, waste=waste, **kw))


def test_free_movement_only_while_a_rocket_lies_in_the_waste_heap():
    t = table(waste=("0-3-0",))
    assert not t.state.emergency
    assert t.refused("move waste pad2") == "free movement only while a rocket lies in the waste heap"


def test_the_emergency_rules_apply_as_soon_as_a_rocket_is_in_the_waste_heap():
    t = table(pads=(("0-0-1",), ("1-2-3",), ("0-3-1",), ("2-0-3",)), waste=())
    t.cmd("turn")
    assert t.cmd("card 1-1-1")[-2:] == [Wasted("1-1-1"), EmergencyOn(("1-1-1",))]


def test_the_emergency_rules_end_when_the_last_rocket_leaves_the_waste_heap():
    t = table(pads=(("0-0-1", "0-0-0"), ("1-2-3",), ("0-3-1",), ("2-0-3", "3-0-3")), waste=("3-3-3",))
    assert t.cmd("move waste pad3") == [Moved("3-3-3", "waste", "pad3"), EmergencyOff()]
    assert not t.state.emergency and t.state.launched(3)
    assert t.refused("move pad1 pad2") == "free movement only while a rocket lies in the waste heap"


def test_a_free_move_takes_the_top_card_of_one_pile_to_a_matching_top_card():
    t = table()
    assert t.cmd("move waste pad2") == [Moved("0-3-0", "waste", "pad2")]
    assert t.state.pads[2] == ("0-3-1", "0-3-0") and t.state.waste == ("3-3-3",)


def test_a_free_move_needs_a_match():
    t = table()
    assert t.refused("move waste pad1") == "0-3-0 does not match 0-2-3 on pad1"


def test_a_launched_rocket_and_the_cards_under_it_never_move():
    t = table()
    assert t.refused("move pad0 pad2") == "pad0's rocket is launched: it and the cards under it never move"


def test_no_card_may_be_played_on_a_launched_rocket():
    t = table(waste=("3-3-3", "0-1-0"))  # 0-1-0 matches the rocket 0-0-0
    assert t.refused("move waste pad0") == "pad0's rocket is launched: nothing may be played on it"


def test_the_original_launch_pad_cards_never_move():
    t = table()
    assert t.refused("move pad2 pad1") == "pad2 holds only its original launch pad card, and that never moves"


def test_a_space_station_is_started_only_above_a_launched_rocket():
    t = table()
    assert t.refused("move pad1 station1") == (
        "station1 may be started only above a rocket already on its launch pad: 1-1-1 is not on pad1"
    )


def test_a_space_station_begins_with_a_card_that_matches_its_rocket():
    t = table()
    assert t.refused("move pad1 station0") == "a space station's first card must match its rocket: 0-2-3 does not match 0-0-0"
    assert t.cmd("move waste station0") == [Moved("0-3-0", "waste", "station0")]  # 0-3-0 matches 0-0-0


def test_a_space_stations_first_card_may_come_from_a_launch_pad_pile():
    t = table(pads=(("0-0-1", "0-0-0"), ("1-2-3", "0-2-3", "0-2-0"), ("0-3-1",), ("2-0-3",)))
    assert t.cmd("move pad1 station0") == [Moved("0-2-0", "pad1", "station0")]


def test_a_space_stations_first_card_does_not_come_from_another_station():
    pads = (("0-0-1", "0-0-0"), ("1-2-3",), ("0-3-1",), ("2-0-3", "3-0-3", "3-3-3"))
    t = table(pads=pads, waste=("1-1-1",), stations=(("0-3-0", "0-3-3"), (), (), ()))
    assert t.refused("move station0 station3") == (
        "a space station's first card comes from the top of the waste heap or of a launch pad pile, not from station0"
    )


def test_the_card_starting_a_space_station_may_move_again():
    t = table(stations=(("0-2-0",), (), (), ()), waste=("3-3-3", "0-1-0"))
    # 0-2-0 and 0-2-3 on pad1 agree in two sections
    assert t.cmd("move station0 pad1") == [Moved("0-2-0", "station0", "pad1")]
    assert t.state.stations[0] == ()


def test_a_station_pile_takes_any_matching_card_once_started():
    t = table(stations=(("0-2-0",), (), (), ()), waste=("3-3-3", "0-1-0"))
    assert t.cmd("move waste station0") == [Moved("0-1-0", "waste", "station0")]


def test_a_rocket_moves_only_to_its_own_launch_pad():
    t = table(waste=("0-3-0", "3-3-3"), pads=(("0-0-1", "0-0-0"), ("1-2-3", "1-3-3"), ("0-3-1",), ("2-0-3",)))
    assert t.refused("move waste pad1") == "a rocket goes only to its own launch pad: 3-3-3 only to pad3"


def test_the_top_of_the_waste_heap_is_playable_during_free_movement():
    t = table(pads=(("0-0-1", "0-0-0"), ("1-2-3",), ("0-3-1",), ("2-0-3", "3-0-3")), waste=("0-3-0", "3-3-3"))
    assert t.cmd("move waste pad3")[0] == Moved("3-3-3", "waste", "pad3")


def test_a_free_move_is_not_followed_by_forced_plays():
    # reading: the cascade follows forced plays; after a free move the waste top is merely playable
    t = table(waste=("3-3-3", "0-1-0", "0-3-0"))
    assert t.cmd("move waste pad2") == [Moved("0-3-0", "waste", "pad2")]
    assert t.state.waste[-1] == "0-1-0"  # matches 0-3-0 now on pad2, and stays


def test_a_move_goes_to_another_pile():
    assert table().refused("move waste waste") == "a card moves from one pile to another pile"


def test_a_move_needs_a_card_to_move():
    assert table().refused("move station2 pad1") == "station2 is empty"


ONTO_WASTE_PADS = (("0-0-1", "0-0-0"), ("1-2-3", "1-3-3", "0-3-3"), ("0-3-1",), ("2-0-3",))


def test_the_waste_heap_only_gives_cards_in_free_movement_by_default():
    # 001: "During these plays, the top waste heap card is playable if a match appears!"
    t = table(pads=ONTO_WASTE_PADS, waste=("3-3-3", "0-3-0"))
    assert t.refused("move pad1 waste") == (
        "free movement takes cards off the waste heap, never onto it (waste_takes_free_moves=no)"
    )
    assert Move("pad1", "waste") not in GAME.legal_commands(t.state)


def test_with_waste_takes_free_moves_a_card_may_go_onto_the_waste_heap_when_it_matches_its_top():
    t = table(pads=ONTO_WASTE_PADS, waste=("3-3-3", "0-3-0"), waste_takes_free_moves=True)
    assert Move("pad1", "waste") in GAME.legal_commands(t.state)
    assert t.cmd("move pad1 waste") == [Moved("0-3-3", "pad1", "waste")]  # 0-3-3 matches 0-3-0


def test_no_free_move_while_a_forced_choice_waits():
    t = table(hand="0-0-2", choice=(2, 3), pads=(("0-0-1", "0-0-0"), ("1-2-3", "0-2-3"), ("0-0-3",), ("2-0-3",)))
    assert t.refused("move waste pad2").startswith("first play 0-0-2")


@pytest.mark.parametrize("text", ["move waste pad4", "move deck pad1", "play pad9", "turn 2", "jump"])
def test_notation_errors_say_how_to_write_a_command(text):
    from solrec.core.errors import InvalidCommand

    with pytest.raises(InvalidCommand):
        GAME.parse(text)


def test_the_legal_free_moves_are_exactly_the_moves_the_rules_allow():
    from solrec.core.errors import IllegalCommand
    from solrec.core.solar_solitaire.cards import PLACES
    from solrec.core.solar_solitaire.commands import Move
    from solrec.core.solar_solitaire.rules import check_move, legal_moves

    state = make_state(PADS, waste=WASTE, stations=(("0-2-0",), (), (), ()))
    allowed = set()
    for a in PLACES:
        for b in PLACES:
            try:
                check_move(state, a, b)
                allowed.add(Move(a, b))
            except IllegalCommand:
                pass
    assert set(legal_moves(state)) == allowed and allowed
