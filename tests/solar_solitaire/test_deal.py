"""Step 1 and 2: four launch pads, the stockpile, and the redeal when a rocket lies where it may not."""

from __future__ import annotations

from solrec.core.game import CHANCE
from solrec.core.solar_solitaire.cards import ALL_CARDS
from solrec.core.solar_solitaire.commands import Shuffle
from solrec.core.solar_solitaire.events import DealRefused, Dealt, Shuffled

from .helpers import GAME, Table, events_of

WRONG_PAD_SEED = 4  # its first shuffle deals 2-2-2 on pad0
OWN_PAD_SEED = 46  # its first shuffle deals 1-1-1 on pad1 and no rocket on a wrong pad


def test_chance_deals_first():
    table = Table()
    assert GAME.to_act(table.state) == CHANCE
    assert not table.state.dealt


def test_entered_deal_makes_four_launch_pads_and_a_stockpile_of_36():
    table = Table()
    events = table.cmd("deal 1-2-3 0-0-1 2-3-2 1-1-0")
    assert events == [Dealt(("1-2-3", "0-0-1", "2-3-2", "0-1-1"))]
    assert table.state.pads == (("1-2-3",), ("0-0-1",), ("2-3-2",), ("0-1-1",))
    assert len(table.state.stock) == 36 and not table.state.stock_known
    assert GAME.to_act(table.state) == "Player 1"


def test_seeded_deal_shuffles_the_whole_deck_and_records_the_order():
    table = Table("seeded", seed=7)
    shuffled = events_of(Shuffled, table.steps[0].events)[0]
    assert sorted(shuffled.order) == sorted(ALL_CARDS)
    assert table.state.pads == tuple((c,) for c in shuffled.order[:4])
    assert table.state.stock == shuffled.order[4:] and table.state.stock_known


def test_seeded_rocket_on_the_wrong_pad_is_shuffled_and_dealt_again_from_the_seed():
    table = Table("seeded", seed=WRONG_PAD_SEED)
    first = table.steps[0].events
    assert first[-1] == DealRefused("2-2-2", 0, False)
    assert len(table.steps) >= 2 and table.state.dealt
    assert table.state.deals == len(table.steps)
    second = events_of(Shuffled, table.steps[1].events)[0]
    assert second.order != events_of(Shuffled, first)[0].order


def test_entered_rocket_on_the_wrong_pad_is_typed_again():
    table = Table()
    events = table.cmd("deal 0-1-2 2-2-2 0-3-1 2-0-3")
    assert events[-1] == DealRefused("2-2-2", 1, False)
    assert GAME.to_act(table.state) == CHANCE and not table.state.dealt
    assert sorted(table.state.stock) == sorted(ALL_CARDS)
    table.cmd("deal 0-1-2 1-2-3 0-3-1 2-0-3")
    assert table.state.dealt and table.state.deals == 2


def test_a_rocket_on_its_own_pad_stands_launched_by_default():
    table = Table()
    table.cmd("deal 0-1-2 1-1-1 0-3-1 2-0-3")
    assert table.state.launched(1)
    assert table.header.options_dict() == {"own_pad_rocket": "launched", "waste_takes_free_moves": "no"}


def test_a_rocket_on_its_own_pad_is_dealt_again_with_own_pad_rocket_redeal_entered():
    table = Table(own_pad_rocket="redeal")
    events = table.cmd("deal 0-1-2 1-1-1 0-3-1 2-0-3")
    assert events[-1] == DealRefused("1-1-1", 1, True)
    assert not table.state.dealt


def test_a_rocket_on_its_own_pad_is_dealt_again_with_own_pad_rocket_redeal_seeded():
    launched = Table("seeded", seed=OWN_PAD_SEED)
    assert launched.state.launched(1) and launched.state.deals == 1
    redealt = Table("seeded", seed=OWN_PAD_SEED, own_pad_rocket="redeal")
    assert redealt.steps[0].events[-1] == DealRefused("1-1-1", 1, True)
    assert redealt.state.dealt and redealt.state.deals >= 2


def test_a_deal_names_four_different_cards():
    table = Table()
    assert table.refused("deal 1-2-3 3-2-1 0-0-1 0-1-1") == "the deck holds each card once: a deal names four different cards"


def test_the_pads_are_dealt_once():
    table = Table()
    table.cmd("deal 0-1-2 1-2-3 0-3-1 2-0-3")
    table.cmd("turn")
    assert table.refused("deal 0-1-2 1-2-3 0-3-1 2-0-3") == "the launch pads are dealt already"


def test_a_shuffle_lists_each_of_the_40_cards_once():
    table = Table()
    assert table.refused("shuffle " + " ".join(ALL_CARDS[:39])).startswith(
        "a shuffle lists each of the 40 cards once (39 given, missing 3-3-3"
    )


def test_an_entered_game_may_type_a_whole_shuffle():
    table = Table()
    order = ALL_CARDS[1:] + ALL_CARDS[:1]  # 0-0-1 0-0-2 0-0-3 0-1-0 ...: no rocket on a pad
    events = table.cmd("shuffle " + " ".join(order))
    assert events[:2] == [Shuffled(order), Dealt(order[:4])]
    assert table.state.stock == order[4:] and table.state.stock_known


def test_the_turned_card_before_the_deal_is_refused():
    table = Table()
    assert table.refused("card 1-2-3").startswith("deal the four launch pads first")


def test_shuffle_notation_round_trips():
    command = Shuffle(ALL_CARDS)
    assert GAME.parse(GAME.format(command)) == command
