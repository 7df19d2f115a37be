"""The Space Dominoes deck and the match (001, notes.md)."""

from __future__ import annotations

import pytest

from solrec.core.errors import InvalidCommand
from solrec.core.solar_solitaire.cards import ALL_CARDS, ROCKETS, is_symmetric, matches, read_card


def matching(card):
    return {c for c in ALL_CARDS if matches(read_card(card), c)}


def cards(*names):
    return {read_card(n) for n in names}


def test_the_deck_has_forty_cards_sixteen_of_them_symmetric():
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 40
    assert sum(is_symmetric(c) for c in ALL_CARDS) == 16
    assert set(ROCKETS) <= {c for c in ALL_CARDS if is_symmetric(c)}


def test_a_card_and_its_turn_are_the_same_card_stored_smaller_end_first():
    assert read_card("3-2-1") == read_card("1-2-3") == "1-2-3"
    assert read_card("2-0-0") == "0-0-2"
    assert read_card("1-3-1") == "1-3-1"


def test_0_0_0_matches_exactly_the_six_cards_the_text_lists():
    # 001: "0-0-0 matches 0-1-0, 0-2-0, 0-3-0, 0-0-1, 0-0-2, and 0-0-3."
    assert matching("0-0-0") == cards("0-1-0", "0-2-0", "0-3-0", "0-0-1", "0-0-2", "0-0-3")


def test_3_2_1_matches_exactly_the_nine_cards_the_text_lists():
    # 001: "3-2-1 matches 3-3-1, 3-1-1, 3-0-1, 2-2-1, 1-2-1, 0-2-1, 3-2-3, 3-2-2, and 3-2-0."
    assert matching("3-2-1") == cards("3-3-1", "3-1-1", "3-0-1", "2-2-1", "1-2-1", "0-2-1", "3-2-3", "3-2-2", "3-2-0")


@pytest.mark.parametrize("card", ALL_CARDS)
def test_a_symmetric_card_matches_six_cards_and_any_other_nine(card):
    assert len(matching(card)) == (6 if is_symmetric(card) else 9)


def test_two_cards_match_with_either_card_turned():
    # 001: "With pairs like these, just rotate either card to make a match"
    assert matches(read_card("1-2-3"), read_card("3-2-0"))  # 3-2-1 against 3-2-0
    assert matches(read_card("3-2-0"), read_card("1-2-3"))


def test_two_cards_agreeing_in_one_section_do_not_match():
    # 001: "two of three sections must match in both dot-count and location"
    assert not matches(read_card("0-1-2"), read_card("0-2-1"))
    assert not matches(read_card("0-0-0"), read_card("1-1-1"))


def test_a_card_does_not_match_itself():
    assert not any(matches(c, c) for c in ALL_CARDS)


@pytest.mark.parametrize("text", ["1-2-4", "123", "1-2", "a-b-c", "1-2-3-0"])
def test_a_malformed_card_is_refused(text):
    with pytest.raises(InvalidCommand, match="not a Space Domino"):
        read_card(text)
