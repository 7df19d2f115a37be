"""One cattrs converter and canonical msgpack for commands and events.

Every stored event is ``(type tag, schema version, payload)``. The payload is the event's plain data
with keys in sorted order, so equal events always encode to equal bytes and hashes stay stable.
Old versions are lifted on read by the game's upcasters, one version step at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
import msgpack

from solrec.core.errors import CorruptLog
from solrec.core.game import Event, Game

converter = cattrs.Converter()


def canonical(value: Any) -> Any:
    """Plain data with dict keys sorted and tuples as lists (msgpack keeps map order as given)."""
    kind = type(value)
    if kind is dict or (kind not in _SCALARS and isinstance(value, Mapping)):
        return {k: canonical(value[k]) for k in sorted(value, key=str)}
    if kind is list or kind is tuple:
        return [canonical(v) for v in value]
    return value


_SCALARS = frozenset({int, str, bool, float, bytes, type(None)})


def pack(value: Any) -> bytes:
    return msgpack.packb(canonical(value), use_bin_type=True)


def unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception as err:  # msgpack raises several unrelated types for damaged bytes
        raise CorruptLog(f"stored bytes do not decode as msgpack ({type(err).__name__})") from None


def to_plain(obj: Any) -> Any:
    """A command, event or state as plain data (JSON- and msgpack-ready)."""
    return canonical(converter.unstructure(obj))


@attrs.frozen
class EventCodec:
    """Encodes and decodes one game's events."""

    types: Mapping[str, type[Event]]
    upcasters: Mapping[tuple[str, int], Callable[[dict], dict]]

    @classmethod
    def for_game(cls, game: Game) -> EventCodec:
        types: dict[str, type[Event]] = {t.TYPE: t for t in game.event_types}
        if len(types) != len(game.event_types):
            raise ValueError(f"{game.id}: two event types share a tag")
        return cls(types, dict(game.upcasters))

    def encode(self, event: Event) -> tuple[str, int, bytes]:
        return type(event).TYPE, type(event).VERSION, pack(converter.unstructure(event))

    def decode(self, tag: str, version: int, payload: bytes) -> Event:
        cls = self.types.get(tag)
        if cls is None:
            raise CorruptLog(f"unknown event type {tag!r}")
        data = unpack(payload)
        if not isinstance(data, dict):
            raise CorruptLog(f"event {tag!r} payload is not a map")
        while version < cls.VERSION:
            lift = self.upcasters.get((tag, version))
            if lift is None:
                raise CorruptLog(f"no upcaster lifts {tag!r} from version {version} to {version + 1}")
            data = lift(dict(data))
            version += 1
        if version > cls.VERSION:
            raise CorruptLog(f"event {tag!r} version {version} is newer than this solrec knows ({cls.VERSION})")
        try:
            return converter.structure(data, cls)
        except Exception as err:
            raise CorruptLog(f"event {tag!r} payload does not fit its type: {_first_line(err)}") from None


def _first_line(err: Exception) -> str:
    if isinstance(err, cattrs.BaseValidationError):
        msgs = cattrs.transform_error(err)
        return msgs[0] if msgs else str(err)
    return str(err).splitlines()[0] if str(err) else type(err).__name__
