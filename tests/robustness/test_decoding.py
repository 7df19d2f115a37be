"""Stored events are validated by type and by the game's domain, never coerced (issue 8, item 2).

Whatever well-formed msgpack a file holds in an event's payload, reading it back either gives an
event of that type inside the game's domain, which ``evolve`` then takes or refuses as a stored
data problem, or it is ``CorruptLog`` with a reason: never another exception.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.errors import CorruptLog
from solrec.core.play import initial_state, make_header
from solrec.core.registry import get_game
from solrec.core.soli2.events import Drawn, Placed
from solrec.core.solo_dice.events import Rolled
from solrec.events.codec import pack, to_plain
from solrec.replay.log import apply

from .helpers import TALLY, codec, every_game, sample_events

EVENT_TYPES = [(gid, t) for gid in every_game() for t in get_game(gid).event_types]
IDS = [f"{gid}:{t.TYPE}" for gid, t in EVENT_TYPES]
FAST = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


@functools.cache
def samples() -> dict:
    return sample_events()


def _start(gid: str, event_type: type) -> list[tuple[Any, Any, dict]]:
    """(header, state before, plain payload) of real events of this type, or a start state and a
    payload of the right field names when simulations never produce one."""
    found = samples().get((gid, event_type.TYPE))
    if found:
        return [(h, state, to_plain(e)) for h, e, state in found]
    game = get_game(gid)
    header = make_header(game, [], seed=1)
    plain = {f.name: None for f in attrs.fields(event_type)}
    return [(header, initial_state(game, header), plain)]


msgpackable = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.binary(max_size=12)
    | st.sampled_from(["", "None", "123", "black", "white", "d4", "z9", "1-2-3", "pad0", "Uranus", "comet"])
    | st.integers(-3, 80),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _outcome(gid: str, event_type: type, state: Any, payload: bytes) -> str:
    """Decode, then evolve the decoded event: 'event' if both hold, 'corrupt' for CorruptLog; any
    other exception fails the test."""
    game = get_game(gid)
    try:
        event = codec(gid).decode(event_type.TYPE, event_type.VERSION, payload)
        assert type(event) is event_type
        apply(game, state, event, "fuzz", 0)
        return "event"
    except CorruptLog as err:
        assert str(err) and "\n" not in str(err)
        return "corrupt"


def _hostile(gid: str, event_type: type, data: Any, settings_: Any) -> None:
    starts = _start(gid, event_type)
    header, state, plain = starts[data.draw(st.integers(0, len(starts) - 1))]
    field = data.draw(st.sampled_from(sorted(plain) + ["<whole>", "<extra>"]))
    value = data.draw(msgpackable)
    if field == "<whole>":
        hostile: Any = value
    elif field == "<extra>":
        hostile = {**plain, "unknown": value}
    else:
        hostile = {**plain, field: value}
    TALLY["hostile payloads"] += 1
    result = _outcome(gid, event_type, state, pack(hostile))
    if field in ("<whole>", "<extra>") and not isinstance(hostile, dict) or field == "<extra>":
        assert result == "corrupt"


@pytest.mark.parametrize(("gid", "event_type"), EVENT_TYPES, ids=IDS)
@FAST
@given(data=st.data())
def test_a_hostile_payload_of_every_event_type_is_an_event_or_corrupt_log(gid, event_type, data):
    _hostile(gid, event_type, data, FAST)


@pytest.mark.slow
@pytest.mark.parametrize(("gid", "event_type"), EVENT_TYPES, ids=IDS)
@LONG
@given(data=st.data())
def test_many_hostile_payloads_of_every_event_type(gid, event_type, data):
    _hostile(gid, event_type, data, LONG)


@pytest.mark.parametrize(("gid", "event_type"), EVENT_TYPES, ids=IDS)
def test_every_real_event_reads_back_as_itself(gid, event_type):
    for _, state, plain in _start(gid, event_type):
        if None in plain.values() and not samples().get((gid, event_type.TYPE)):
            continue  # no real sample of this type
        assert _outcome(gid, event_type, state, pack(plain)) == "event"


def decode(gid: str, tag: str, payload: Any):
    return codec(gid).decode(tag, 1, pack(payload))


def test_none_is_not_a_string():
    with pytest.raises(CorruptLog, match="color should be a string, not NoneType null"):
        decode("soli2", Drawn.TYPE, {"color": None})


def test_a_string_is_not_a_tuple():
    with pytest.raises(CorruptLog, match='dice should be a list, not str "12345"'):
        decode("solo-dice", Rolled.TYPE, {"dice": "12345"})


def test_true_is_not_a_die():
    with pytest.raises(CorruptLog, match=r"dice\[0\] should be a whole number, not bool true"):
        decode("solo-dice", Rolled.TYPE, {"dice": [True, 1, 2, 3, 4]})


def test_a_missing_field_and_an_unknown_field_are_refused():
    with pytest.raises(CorruptLog, match='lacks the field "color"'):
        decode("soli2", Drawn.TYPE, {})
    with pytest.raises(CorruptLog, match='unknown field "colour"'):
        decode("soli2", Drawn.TYPE, {"color": "black", "colour": "red"})


def test_a_colour_is_black_or_white():
    with pytest.raises(CorruptLog, match='"red" is not a marble colour'):
        decode("soli2", Drawn.TYPE, {"color": "red"})


def test_a_square_is_on_the_board():
    with pytest.raises(CorruptLog, match='"z9" is not a pocket of the board'):
        decode("soli2", Placed.TYPE, {"player": "Ann", "color": "black", "square": "z9"})


def test_a_die_shows_one_to_six():
    with pytest.raises(CorruptLog, match="not a die face"):
        decode("solo-dice", Rolled.TYPE, {"dice": [0, 1, 2, 3, 4]})


def test_a_card_is_a_space_domino():
    with pytest.raises(CorruptLog, match='"9-9-9" is not a Space Domino'):
        decode("solar-solitaire", "turned", {"card": "9-9-9"})


def test_a_solari_square_is_on_the_board():
    piece = {"side": "Uranus", "kind": "comet", "number": 3, "facing": "N"}
    with pytest.raises(CorruptLog, match="99 is not a square"):
        decode("solari", "stepped", {"side": "Uranus", "piece": piece, "frm": 99, "to": 12, "distance": 3})


def test_an_event_that_does_not_fit_the_position_is_a_stored_data_problem():
    game = get_game("soli2")
    header = make_header(game, [], {"mode": "classic-solitaire"}, seed=1)
    state = initial_state(game, header)
    event = decode("soli2", "ended", {"reason": "no-jump"})
    try:
        apply(game, state, event, "g", 0)
    except CorruptLog as err:
        assert "at move 1" in str(err)
