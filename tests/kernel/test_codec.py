"""The codec: one converter, canonical msgpack, stable tags, versions and upcasters."""

from __future__ import annotations

from typing import ClassVar

import attrs
import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solrec.core import CorruptLog
from solrec.core.game import Event
from solrec.core.registry import get_game
from solrec.core.solo_dice.events import PairsChosen, Rolled
from solrec.events.codec import EventCodec, converter, pack

CODEC = EventCodec.for_game(get_game("solo-dice"))


@given(st.tuples(*[st.integers(1, 6)] * 5))
def test_events_round_trip(dice):
    for event in (Rolled(dice), PairsChosen(dice[:2], dice[2:4], dice[4], False)):
        assert CODEC.decode(*CODEC.encode(event)) == event


def test_every_event_has_a_stable_tag_and_version():
    assert CODEC.encode(Rolled((1, 2, 3, 4, 5)))[:2] == ("rolled", 1)
    assert CODEC.encode(PairsChosen((1, 2), (3, 4), 5, False))[:2] == ("pairs-chosen", 1)


def test_encoding_is_canonical_whatever_the_key_order():
    assert pack({"b": 1, "a": {"d": 2, "c": 3}}) == pack({"a": {"c": 3, "d": 2}, "b": 1})
    _, _, payload = CODEC.encode(PairsChosen((1, 2), (3, 4), 5, True))
    assert list(msgpack.unpackb(payload)) == ["first", "free_throw", "leftover", "second"]


# A game's event changed its shape: v1 had ``total``; v2 splits it into ``dice``.
@attrs.frozen
class ScoredV1(Event):
    TYPE: ClassVar[str] = "scored"
    VERSION: ClassVar[int] = 1
    total: int


@attrs.frozen
class ScoredV2(Event):
    TYPE: ClassVar[str] = "scored"
    VERSION: ClassVar[int] = 2
    dice: tuple[int, ...]
    total: int


def lift_scored_v1(data: dict) -> dict:
    return {"dice": (), "total": data["total"]}


def test_an_upcaster_lifts_a_stored_v1_event_to_v2():
    old = EventCodec({"scored": ScoredV1}, {})
    stored = old.encode(ScoredV1(total=9))
    assert stored[:2] == ("scored", 1)
    new = EventCodec({"scored": ScoredV2}, {("scored", 1): lift_scored_v1})
    assert new.decode(*stored) == ScoredV2(dice=(), total=9)


def test_a_missing_upcaster_is_a_corrupt_log_not_a_crash():
    stored = EventCodec({"scored": ScoredV1}, {}).encode(ScoredV1(total=9))
    with pytest.raises(CorruptLog, match='no upcaster lifts "scored" from version 1 to 2'):
        EventCodec({"scored": ScoredV2}, {}).decode(*stored)


def test_a_version_newer_than_the_code_is_refused():
    with pytest.raises(CorruptLog, match="newer than this solrec knows"):
        CODEC.decode("rolled", 2, pack({"dice": [1, 2, 3, 4, 5]}))


def test_an_unknown_type_is_refused():
    with pytest.raises(CorruptLog, match='unknown event type "exploded"'):
        CODEC.decode("exploded", 1, pack({}))


def test_a_truncated_payload_is_refused():
    _, _, payload = CODEC.encode(Rolled((1, 2, 3, 4, 5)))
    with pytest.raises(CorruptLog, match="do not decode"):
        CODEC.decode("rolled", 1, payload[:-3])


def test_a_payload_of_the_wrong_shape_is_refused():
    with pytest.raises(CorruptLog, match="does not fit its type"):
        CODEC.decode("rolled", 1, pack({"dice": "six"}))


def test_commands_are_plain_data_too():
    from solrec.core.solo_dice.commands import Choose

    command = Choose((6, 1), (5, 5), 5)
    assert converter.structure(converter.unstructure(command), Choose) == command


def test_encoding_without_cattrs_gives_the_same_bytes_as_cattrs_for_every_fixture_event():
    """``EventCodec.encode`` walks attrs classes directly (start-up); its bytes equal cattrs' own."""
    from solrec.core.registry import get_game
    from solrec.events.codec import unstructure
    from solrec.events.record import decide_record

    from ..conftest import FIXTURES

    checked = 0
    for path in sorted(FIXTURES.glob("*/*.jsonl")):
        header, steps, state, _ = decide_record(path.read_text(encoding="utf-8"))
        get_game(header.game)
        for step in steps:
            for event in step.events:
                assert pack(unstructure(event)) == pack(converter.unstructure(event)), (path.name, event)
                checked += 1
            assert pack(unstructure(step.command)) == pack(converter.unstructure(step.command)), path.name
    assert checked > 1000


def test_the_field_types_the_fast_path_reads_are_the_ones_get_type_hints_gives():
    import typing

    from solrec.core.registry import game_ids
    from solrec.events.codec import _field_types

    for gid in game_ids():
        game = get_game(gid)
        for cls in (*game.event_types, *game.command_types):
            hints = typing.get_type_hints(cls)
            assert _field_types(cls) == {f.name: hints[f.name] for f in attrs.fields(cls)}, cls
