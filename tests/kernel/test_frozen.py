"""``frozen.value``: ``attrs.frozen`` with its ``__repr__``, ``__eq__`` and ``__hash__`` shared rather
than compiled per class (start-up, issue 22): every result the same as ``attrs.frozen``'s."""

from __future__ import annotations

import attrs
import pytest

from solrec.core import frozen
from solrec.core.solarius_mission import commands, events


@attrs.frozen
class Plain:
    who: str
    dice: tuple[int, ...]
    note: str = attrs.field(default="", repr=False, eq=False)


@frozen.value
class Made:
    who: str
    dice: tuple[int, ...]
    note: str = attrs.field(default="", repr=False, eq=False)


@frozen.value
class Twin(Made):
    """The same fields as ``Made``, another class."""


@frozen.value
class Empty:
    pass


SAMPLES = [("Ann", (1, 2)), ("Ann", (1, 3)), ("Bob", ()), ("O'Neil", (6,))]


def test_a_value_shows_as_attrs_frozen_shows_it():
    for who, dice in SAMPLES:
        assert repr(Made(who, dice, "x")) == repr(Plain(who, dice, "x")).replace("Plain", "Made")
    assert repr(Empty()) == "Empty()"


def test_values_are_equal_exactly_when_attrs_frozen_ones_are():
    for a in SAMPLES:
        for b in SAMPLES:
            assert (Made(*a) == Made(*b)) == (Plain(*a) == Plain(*b))
            assert (Made(*a) != Made(*b)) == (Plain(*a) != Plain(*b))
    assert Made("Ann", (1,), "one note") == Made("Ann", (1,), "another")  # a field left out of eq


def test_equal_values_hash_alike_and_serve_as_set_members():
    assert hash(Made("Ann", (1, 2))) == hash(Made("Ann", (1, 2)))
    assert len({Made(*s) for s in SAMPLES + SAMPLES}) == len(SAMPLES)
    assert Empty() == Empty() and hash(Empty()) == hash(Empty())


def test_values_of_two_classes_are_never_equal():
    assert Made("Ann", (1,)) != Twin("Ann", (1,))
    assert Made("Ann", (1,)) != Plain("Ann", (1,))
    assert Made("Ann", (1,)) != ("Ann", (1,))


def test_a_value_is_a_frozen_attrs_class():
    made = Made("Ann", (1,))
    assert attrs.has(Made) and [f.name for f in attrs.fields(Made)] == ["who", "dice", "note"]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.who = "Bob"  # type: ignore[misc]
    assert attrs.evolve(made, who="Bob") == Made("Bob", (1,)) and frozen.evolve(made, dice=()) == Made("Ann", ())


def test_a_field_with_its_own_key_or_repr_needs_attrs_own_methods():
    with pytest.raises(TypeError, match="attrs' own methods"):
        @frozen.value
        class Keyed:
            name: str = attrs.field(eq=str.lower)


def test_solarius_events_and_commands_show_as_they_always_did():
    assert repr(events.HubRevealed(3, "B")) == "HubRevealed(turn=3, hub='B')"
    assert repr(commands.DealStartCard(2)) == "DealStartCard(card=2)"
    assert events.HubRevealed(3, "B") == events.HubRevealed(3, "B") != events.HubRevealed(4, "B")


def test_a_method_the_class_writes_itself_is_kept():
    @frozen.value
    class Shown:
        x: int

        def __repr__(self) -> str:
            return f"<{self.x}>"

    assert repr(Shown(3)) == "<3>" and Shown(3) == Shown(3)


def test_a_hex_orders_by_its_coordinates_as_attrs_order_did():
    from solrec.core.solarius_mission.board import Hex

    @attrs.frozen(order=True)
    class Ordered:
        q: int
        r: int

    pairs = [(q, r) for q in (-1, 0, 1) for r in (-1, 0, 2)]
    for a in pairs:
        for b in pairs:
            for op in ("__lt__", "__le__", "__gt__", "__ge__"):
                assert getattr(Hex(*a), op)(Hex(*b)) == getattr(Ordered(*a), op)(Ordered(*b))
    assert sorted(Hex(*p) for p in reversed(pairs)) == [Hex(*p) for p in sorted(pairs)]
