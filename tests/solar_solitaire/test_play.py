"""Step 3, the play: turning the stock, the forced plays, the player's choice, the cascade."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.game import CHANCE
from solrec.core.solar_solitaire import rules
from solrec.core.solar_solitaire.commands import Card
from solrec.core.solar_solitaire.events import (
    ChoiceWaiting,
    EmergencyOn,
    Played,
    TurnAsked,
    Turned,
    Wasted,
)

from .helpers import GAME, Table, make_state

# pad0 0-0-1, pad1 1-2-3, pad2 0-3-1, pad3 2-0-3; which pads each card matches is noted where used
PADS = (("0-0-1",), ("1-2-3",), ("0-3-1",), ("2-0-3",))


def table(**kw) -> Table:
    return Table(state=make_state(kw.pop("pads", PADS), **kw))


def turn(t: Table, card: str) -> list:
    assert t.cmd("turn") == [TurnAsked()]
    assert GAME.to_act(t.state) == CHANCE
    return t.cmd(f"card {card}")


def test_turning_asks_chance_for_the_next_stock_card():
    t = table()
    assert t.cmd("turn") == [TurnAsked()]
    assert GAME.to_act(t.state) == CHANCE


def test_a_turned_card_already_seen_is_refused():
    t = table()
    t.cmd("turn")
    assert t.refused("card 1-2-3") == "1-2-3 was already seen: it lies on pad1"
    assert t.refused("card 3-2-1") == "1-2-3 was already seen: it lies on pad1"


def test_a_card_is_named_only_after_the_player_turns():
    with pytest.raises(IllegalCommand, match="no card is being turned: the player turns the next one with 'turn'"):
        rules.decide_card(make_state(PADS), Card("0-1-0"))


def test_a_known_stock_turns_in_its_order():
    stock = ("0-1-0", "0-2-3")
    rest = make_state(PADS)
    # put every other card in the waste heap's bottom so that the stock is exactly these two
    others = tuple(c for c in rest.stock if c not in stock and c not in ("0-0-0", "1-1-1", "2-2-2", "3-3-3"))
    t = Table(state=make_state(PADS, waste=others, stock=stock, stock_known=True,
                               stations=((), (), (), ())))
    t.cmd("turn")
    assert t.refused("card 0-2-3") == "the shuffled stockpile turns 0-1-0 next, not 0-2-3"


def test_a_turned_rocket_matching_its_pad_is_played_there():
    t = table()
    events = turn(t, "0-0-0")  # 0-0-0 matches 0-0-1 on pad0
    assert events[:2] == [Turned("0-0-0"), Played("0-0-0", 0, "stock")]
    assert t.state.launched(0)


def test_a_turned_rocket_not_matching_its_pad_goes_to_the_waste_heap_and_the_emergency_rules_apply():
    t = table()
    events = turn(t, "3-3-3")  # 3-3-3 does not match 2-0-3 on pad3
    assert events == [Turned("3-3-3"), Wasted("3-3-3"), EmergencyOn(("3-3-3",))]
    assert t.state.emergency


def test_a_rocket_goes_only_to_its_own_launch_pad():
    t = table(pads=(("0-0-1",), ("1-3-3",), ("0-3-1",), ("2-0-3",)))
    events = turn(t, "3-3-3")  # 3-3-3 matches 1-3-3 on pad1, but it is not pad1's rocket
    assert Wasted("3-3-3") in events


def test_a_turned_card_matching_no_launch_pad_goes_to_the_waste_heap():
    t = table()
    assert turn(t, "0-1-0") == [Turned("0-1-0"), Wasted("0-1-0")]
    assert t.state.waste == ("0-1-0",)


def test_a_turned_card_matching_one_launch_pad_must_be_played_and_the_engine_plays_it():
    t = table()
    events = turn(t, "0-2-3")  # matches 1-2-3 on pad1 only
    assert events == [Turned("0-2-3"), Played("0-2-3", 1, "stock")]
    assert t.state.pads[1] == ("1-2-3", "0-2-3")


def test_a_turned_card_matching_several_pads_waits_for_the_players_choice():
    t = table()
    events = turn(t, "0-0-2")  # matches 0-0-1 on pad0 and 2-0-3 on pad3
    assert events == [Turned("0-0-2"), ChoiceWaiting("0-0-2", (0, 3), "stock")]
    assert GAME.legal_commands(t.state) == (GAME.parse("play pad0"), GAME.parse("play pad3"), GAME.parse("resign"))
    assert t.cmd("play pad3") == [Played("0-0-2", 3, "stock")]
    assert t.state.pads[3] == ("2-0-3", "0-0-2") and t.state.hand is None


def test_the_chosen_pad_must_match():
    t = table()
    turn(t, "0-0-2")
    assert t.refused("play pad1") == "0-0-2 does not match 1-2-3 on pad1: it must go on pad0 or pad3"


def test_play_needs_a_waiting_choice():
    t = table()
    assert t.refused("play pad0").startswith("no forced play is waiting for a choice")


def test_no_turn_while_a_choice_waits():
    t = table()
    turn(t, "0-0-2")
    assert t.refused("turn") == (
        "first play 0-0-2: it matches pad0 or pad3 and must go on one of them (play pad0 or play pad3)"
    )


def test_no_card_is_played_on_a_launched_rocket():
    t = table(pads=(("0-0-1", "0-0-0"), ("1-2-3",), ("0-3-1",), ("2-0-3",)))
    events = turn(t, "0-1-0")  # 0-1-0 matches the rocket 0-0-0, which takes no card
    assert Wasted("0-1-0") in events


def test_a_choice_never_offers_a_launched_pad():
    t = table(pads=(("0-0-1", "0-0-0"), ("1-2-3",), ("0-3-1",), ("2-0-3",)))
    events = turn(t, "0-0-3")  # matches 0-0-0 (launched) and 2-0-3: one pad left, so no choice
    assert events[:2] == [Turned("0-0-3"), Played("0-0-3", 3, "stock")]


def test_after_a_play_the_top_of_the_waste_heap_is_played_when_it_matches_a_pad():
    # the cascade: 0-3-0 goes on pad2 (0-3-1); then 0-1-0 from the waste matches 0-3-0, then 0-1-2
    # matches 0-1-0; then 2-3-2 matches no launch pad top and stays
    t = table(waste=("2-3-2", "0-1-2", "0-1-0"))
    events = turn(t, "0-3-0")
    assert events == [
        Turned("0-3-0"),
        Played("0-3-0", 2, "stock"),
        Played("0-1-0", 2, "waste"),
        Played("0-1-2", 2, "waste"),
    ]
    assert t.state.waste == ("2-3-2",)


def test_the_cascade_waits_for_a_choice_when_the_waste_top_matches_several_pads():
    t = table(waste=("0-0-2", "0-1-0"))  # after 0-1-0, 0-0-2 matches 0-0-1 on pad0 and 2-0-3 on pad3
    events = turn(t, "0-3-0")
    assert events[-1] == ChoiceWaiting("0-0-2", (0, 3), "waste")
    events = t.cmd("play pad0")
    assert events[0] == Played("0-0-2", 0, "waste")


def test_the_cascade_launches_a_rocket_from_the_waste_heap():
    t = table(waste=("3-3-3",))
    events = turn(t, "3-0-3")  # 3-0-3 matches 2-0-3 on pad3; then 3-3-3 matches 3-0-3
    assert events[1:3] == [Played("3-0-3", 3, "stock"), Played("3-3-3", 3, "waste")]
    assert t.state.launched(3)
