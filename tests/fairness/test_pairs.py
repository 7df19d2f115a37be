"""The pairs judge "differ publicly" by each game's declaration (``DECLARED``, core/declared.py), not by
a list of their own: two events differ publicly where they differ in a field the seat may see, or in
what stands for a hidden one; a field declared hidden tomorrow is covered with no word in pairs.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

import attrs

from solrec.core.declared import Declaration, count, declare, hidden, marked
from solrec.core.game import Event
from solrec.core.registry import get_game
from solrec.core.solarius_mission import events as ev

from .pairs import _same


def test_another_players_card_drawn_is_hidden_and_a_card_discarded_is_public():
    mission = get_game("solarius-mission")
    assert _same(mission, ev.CardDrawn("Bob", 3), ev.CardDrawn("Bob", 4), "Ann")
    assert not _same(mission, ev.CardDrawn("Bob", 3), ev.CardDrawn("Cid", 3), "Ann")
    assert not _same(mission, ev.CardDiscarded("Bob", 3), ev.CardDiscarded("Bob", 4), "Ann")


@attrs.frozen
class Peeked(Event):
    TYPE: ClassVar[str] = "peeked"
    player: str
    cards: tuple[int, ...]
    note: str


def test_a_field_newly_declared_hidden_is_judged_hidden_and_what_stands_for_it_public():
    declared = Declaration(object, [], [declare(Peeked, "player", cards=hidden(count("size"), marked("cards")), note=hidden())])
    game = SimpleNamespace(observation=SimpleNamespace(declared=declared))
    assert _same(game, Peeked("Bob", (1, 2), "x"), Peeked("Bob", (3, 4), "y"), "Ann")
    assert not _same(game, Peeked("Bob", (1, 2), "x"), Peeked("Bob", (1, 2, 3), "x"), "Ann")  # its size is shown
    assert not _same(game, Peeked("Bob", (1, 2), "x"), Peeked("Cid", (1, 2), "x"), "Ann")
