"""What the player clicks at the table (``Game.choices``, ``solrec serve``): a pile, then the pile its
top card goes to; the launch pad of a forced play; the stockpile to turn its next card. The person
reading the table picks the cards dealt and turned, from what the table may know: never an order."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from solrec.core.game import CHANCE
from solrec.core.solar_solitaire.cards import ALL_CARDS

from .helpers import GAME, Table, make_state

PADS = (("0-0-1",), ("1-2-3",), ("0-3-1",), ("2-0-3",))  # as in test_play
EMERGENCY = (("0-0-1", "0-0-0"), ("1-2-3", "0-2-3"), ("0-3-1",), ("2-0-3",))  # as in test_emergency


def clicks(state) -> dict[str, tuple[tuple[str, ...], str, str]]:
    return {c.command: (c.steps, c.group, c.detail) for c in GAME.choices(state).commands}


def spots(picture: str) -> set[str]:
    return {e.get("data-spot") for e in ET.fromstring(picture).iter() if e.get("data-spot")}


def test_turning_is_a_click_on_the_stockpile_and_resigning_is_offered_in_words():
    state = make_state(PADS)
    assert clicks(state) == {"turn": (("stock",), "turn", "the next stockpile card"),
                             "resign": (("resign",), "resign", "")}


def test_a_free_move_is_the_pile_then_the_pile_its_top_card_goes_to():
    state = make_state(EMERGENCY, waste=("3-3-3", "0-3-0"))
    moves = {text: (steps, detail) for text, (steps, group, detail) in clicks(state).items() if group == "move"}
    assert moves and all(steps == tuple(text.split()[1:]) for text, (steps, _) in moves.items())
    assert moves["move waste pad2"] == (("waste", "pad2"), "0-3-0 onto pad2")  # the waste top, as the table sees it


def test_a_forced_play_matching_several_pads_is_a_click_on_the_pad():
    t = Table(state=make_state(PADS))
    t.cmd("turn")
    t.cmd("card 0-0-2")  # matches pad0 and pad3
    assert clicks(t.state) == {"play pad0": (("pad0",), "play", "0-0-2 onto pad0"),
                               "play pad3": (("pad3",), "play", "0-0-2 onto pad3"),
                               "resign": (("resign",), "resign", "")}


def test_every_pile_and_the_stockpile_are_spots_named_as_the_notation_names_them():
    assert spots(GAME.svg(make_state(PADS))) == {"waste", "stock", *(f"pad{k}" for k in range(4)),
                                                  *(f"station{k}" for k in range(4))}


def test_the_deal_at_an_entered_table_is_any_card_on_each_pad():
    t = Table()
    deal, shuffle = GAME.choices(t.state, entered=True).forms
    assert deal.template == "deal {pad0} {pad1} {pad2} {pad3}" and all(f.values == ALL_CARDS for f in deal.fields)
    assert len(shuffle.fields) == 40 and all(f.values == ALL_CARDS for f in shuffle.fields)
    t.cmd(deal.example)
    assert t.state.dealt
    known = Table()
    known.cmd(shuffle.example)
    assert known.state.stock_known


def test_the_card_turned_is_any_card_not_seen_yet_unordered():
    t = Table()
    t.cmd("deal 1-2-3 0-0-1 2-3-2 1-1-0")
    t.cmd("turn")
    (form,) = GAME.choices(t.state, entered=True).forms
    seen = {"1-2-3", "0-0-1", "2-3-2", "0-1-1"}
    assert form.fields[0].values == tuple(sorted(set(ALL_CARDS) - seen))
    t.cmd(form.example)


def test_a_seeded_deck_order_is_never_offered_or_named():
    t = Table(chance="seeded", seed=5)
    for _ in range(30):
        if GAME.to_act(t.state) is None:
            break
        choices = GAME.choices(t.state)
        shown = " ".join(f"{c.command} {' '.join(c.steps)} {c.detail}" for c in choices.commands)
        assert not choices.forms and not any(card in shown for card in t.state.stock)
        t.cmd(next((c.command for c in choices.commands if c.group != "resign"), "resign"))


def test_after_a_shuffle_typed_in_the_cards_turned_are_not_offered():
    """The shuffle fixes every card to come, and its order stays hidden: nothing to pick, nothing named."""
    t = Table()
    t.cmd("shuffle " + " ".join(ALL_CARDS))
    t.cmd("turn")
    choices = GAME.choices(t.state, entered=True)
    assert choices.actor == CHANCE and not choices.forms and not choices.commands
