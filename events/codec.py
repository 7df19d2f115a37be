"""One cattrs converter and canonical msgpack for commands and events.

Every stored event is ``(type tag, schema version, payload)``. The payload is the event's plain data
with keys in sorted order, so equal events always encode to equal bytes and hashes stay stable.
Old versions are lifted on read by the game's upcasters, one version step at a time.
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import msgpack

from solrec.core import frozen
from solrec.core.errors import CorruptLog
from solrec.core.game import Event, Game
from solrec.core.words import quoted

_CONVERTER: Any = None


def _converter() -> Any:
    """The one cattrs converter, built on first use: reading a log never needs it (decoding is the
    strict structuring below), and the CLI's start-up is paid on every move."""
    global _CONVERTER
    if _CONVERTER is None:
        import cattrs

        _CONVERTER = cattrs.Converter()
    return _CONVERTER


def __getattr__(name: str) -> Any:
    if name == "converter":
        return _converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
MEMO_SIZE = 1 << 16  # decoded events a codec keeps (a few MiB at most)


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


class _NotPlain(Exception):
    """A value the fast unstructuring does not know: cattrs handles it."""


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    fields = getattr(kind, "__attrs_attrs__", None)
    if fields is None:
        raise _NotPlain
    return {f.name: _plain(getattr(value, f.name)) for f in fields}


def unstructure(obj: Any) -> Any:
    """``obj`` as plain data, as cattrs' default converter unstructures it (attrs classes as maps of
    their fields, tuples as lists after ``canonical``). Events and commands are attrs classes of
    scalars, tuples and other such classes, which a direct walk handles without importing cattrs
    (start-up counts: ``play`` encodes); anything else goes to cattrs. A test checks both agree
    on every fixture's events."""
    try:
        return _plain(obj)
    except _NotPlain:
        return _converter().unstructure(obj)


def to_plain(obj: Any) -> Any:
    """A command, event or state as plain data (JSON- and msgpack-ready)."""
    return canonical(_converter().unstructure(obj))


@frozen.value
class EventCodec:
    """Encodes and decodes one game's events."""

    types: Mapping[str, type[Event]]
    upcasters: Mapping[tuple[str, int], Callable[[dict], dict]]
    # Decoding is a pure function of (type, version, payload) and events are immutable values, so
    # one decoded event serves every stored copy of the same bytes (a game replays the same rolls
    # and moves many times over a corpus): each distinct payload is still checked in full once.
    # Keyed by the payload alone (a tuple key costs a tuple and its hash per event); the type and
    # version are checked on every hit.
    _decoded: dict[bytes, tuple[str, int, Event]] = attrs.field(factory=dict, eq=False, repr=False, alias="_decoded")

    @classmethod
    def for_game(cls, game: Game) -> EventCodec:
        types: dict[str, type[Event]] = {t.TYPE: t for t in game.event_types}
        if len(types) != len(game.event_types):
            raise ValueError(f"{game.id}: two event types share a tag")
        return cls(types, dict(game.upcasters))

    def encode(self, event: Event) -> tuple[str, int, bytes]:
        return type(event).TYPE, type(event).VERSION, pack(unstructure(event))

    def decode(self, tag: str, version: int, payload: bytes) -> Event:
        hit = self._decoded.get(payload)
        if hit is not None and hit[0] == tag and hit[1] == version:
            return hit[2]
        event = self._decode(tag, version, payload)
        if len(self._decoded) >= MEMO_SIZE:
            self._decoded.clear()
        self._decoded[payload] = (tag, version, event)
        return event

    def decode_rows(self, rows: Iterable[Sequence[Any]]) -> list[Event]:
        """``decode`` over stored rows (items 4, 5 and 6 of each: type, version, payload, as in an
        envelope ``Row``), the memo looked up inline: this runs for every event loaded."""
        decoded, decode = self._decoded, self.decode
        out: list[Event] = []
        append = out.append
        for row in rows:
            hit = decoded.get(row[6])
            if hit is not None and hit[0] == row[4] and hit[1] == row[5]:
                append(hit[2])
            else:
                append(decode(row[4], row[5], row[6]))
        return out

    def _decode(self, tag: str, version: int, payload: bytes) -> Event:
        cls = self.types.get(tag)
        if cls is None:
            raise CorruptLog(f"unknown event type {quoted(tag)}")
        data = unpack(payload)
        if not isinstance(data, dict):
            raise CorruptLog(f"event {quoted(tag)} payload is not a map")
        while version < cls.VERSION:
            lift = self.upcasters.get((tag, version))
            if lift is None:
                raise CorruptLog(f"no upcaster lifts {quoted(tag)} from version {version} to {version + 1}")
            try:
                data = lift(dict(data))
            except Exception as err:  # an upcaster meets whatever the file holds
                raise CorruptLog(f"event {quoted(tag)} version {version} does not lift: {_first_line(err)}") from None
            version += 1
        if version > cls.VERSION:
            raise CorruptLog(f"event {quoted(tag)} version {version} is newer than this solrec knows ({cls.VERSION})")
        try:
            event = strict_structure(data, cls)
        except (TypeError, ValueError) as err:
            raise CorruptLog(f"event {quoted(tag)} payload does not fit its type: {_first_line(err)}") from None
        try:
            event.check()
        except ValueError as err:
            raise CorruptLog(f"event {quoted(tag)} is outside the game: {_first_line(err)}") from None
        return event


def _first_line(err: Exception) -> str:
    import cattrs

    if isinstance(err, cattrs.BaseValidationError):
        msgs = cattrs.transform_error(err)
        return msgs[0] if msgs else str(err)
    return str(err).splitlines()[0] if str(err) else type(err).__name__


# -- strict structuring -----------------------------------------------------------------------------
# Stored data is checked by type, never coerced: cattrs' default hooks turn None into 'None' and
# '123' into (1, 2, 3). One plain function per type is built once and cached, so decoding stays a
# few dict look-ups per field (no detailed-validation machinery per event).


class DoesNotFit(ValueError):
    """Plain data that does not have the shape of the type it should structure into."""


_Structure = Callable[[Any, str], Any]
_BUILT: dict[Any, _Structure] = {}


def strict_structure(data: Any, cls: type) -> Any:
    """``data`` as an instance of ``cls`` (an attrs class), refusing any value of the wrong type.

    The fast structurer accepts exactly what the detailed one accepts and builds the same value; on
    anything it does not take (a wrong type, a missing or extra field, a defaulted field left out)
    the detailed structurer runs and gives the reason, or the value."""
    fast = _FAST.get(cls)
    if fast is None:
        fast = _FAST[cls] = _fast(cls)
    try:
        return fast(data)
    except Exception:  # noqa: BLE001 - the detailed path decides, and names what is wrong
        return _structurer(cls)(data, "")


def _structurer(tp: Any) -> _Structure:
    fn = _BUILT.get(tp)
    if fn is None:
        fn = _BUILT[tp] = _build(tp)
    return fn


def _show(value: Any) -> str:
    text = quoted(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refuse(where: str, wanted: str, value: Any) -> DoesNotFit:
    return DoesNotFit(f"{where or 'the payload'} should be {wanted}, not {type(value).__name__} {_show(value)}")


def _exactly(kind: type, wanted: str) -> _Structure:
    def structure(value: Any, where: str) -> Any:
        if type(value) is not kind:
            raise _refuse(where, wanted, value)
        return value

    return structure


_EXACT = {str: "a string", int: "a whole number", bool: "true or false", type(None): "nothing"}


def _build(tp: Any) -> _Structure:
    if tp in _EXACT:
        return _exactly(tp, _EXACT[tp])  # type() is exact: True is not a number here
    if tp is float:

        def structure_float(value: Any, where: str) -> float:
            if type(value) not in (float, int):
                raise _refuse(where, "a number", value)
            return float(value)

        return structure_float
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = [_structurer(a) for a in args if a is not type(None)]
        nullable = type(None) in args
        if len(options) != 1:
            raise TypeError(f"strict structuring does not support {tp!r}")
        inner = options[0]

        def structure_optional(value: Any, where: str) -> Any:
            return None if value is None and nullable else inner(value, where)

        return structure_optional
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _build_tuple(args[0])
        items = [_structurer(a) for a in args]

        def structure_fixed(value: Any, where: str) -> tuple:
            if type(value) not in (list, tuple) or len(value) != len(items):
                raise _refuse(where, f"a list of {len(items)}", value)
            return tuple(f(v, f"{where}[{i}]") for i, (f, v) in enumerate(zip(items, value)))

        return structure_fixed
    if isinstance(tp, type) and attrs.has(tp):
        return _build_attrs(tp)
    raise TypeError(f"strict structuring does not support {tp!r}")


def _build_tuple(item_type: Any) -> _Structure:
    if item_type in _EXACT:
        wanted = _EXACT[item_type]

        def structure_plain_items(value: Any, where: str) -> tuple:
            if type(value) not in (list, tuple):
                raise _refuse(where, "a list", value)
            for i, v in enumerate(value):  # the common case is one type() per item, no path strings
                if type(v) is not item_type:
                    raise _refuse(f"{where}[{i}]", wanted, v)
            return tuple(value)

        return structure_plain_items
    item = _structurer(item_type)

    def structure_tuple(value: Any, where: str) -> tuple:
        if type(value) not in (list, tuple):
            raise _refuse(where, "a list", value)
        return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(value))

    return structure_tuple


def _build_attrs(cls: type) -> _Structure:
    hints = typing.get_type_hints(cls)
    fields = [f for f in attrs.fields(cls) if f.init]
    names = frozenset(f.name for f in fields)
    required = tuple(f.name for f in fields if f.default is attrs.NOTHING)
    # built lazily: a field may name its own class (or one not yet defined when this runs).
    # A field of a plain type is checked inline (one type() call); others call their structurer.
    plan: list[tuple[str, Any, _Structure | None]] = []

    def structure_attrs(value: Any, where: str) -> Any:
        if type(value) is not dict:
            raise _refuse(where, f"a map of {cls.__name__}", value)
        if not plan:
            for f in fields:
                hint = hints[f.name]
                plan.append((f.name, hint, None) if hint in _EXACT else (f.name, None, _structurer(hint)))
        if len(value) > len(names) or not value.keys() <= names:
            extra = sorted(map(str, value.keys() - names))
            raise DoesNotFit(f"{where or cls.__name__} has an unknown field {_show(extra[0])}")
        kwargs = {}
        for name, exact, fn in plan:
            if name in value:
                v = value[name]
                if fn is None:
                    if type(v) is not exact:
                        raise _refuse(f"{where}.{name}" if where else name, _EXACT[exact], v)
                    kwargs[name] = v
                else:
                    kwargs[name] = fn(v, f"{where}.{name}" if where else name)
            elif name in required:
                raise DoesNotFit(f"{where or cls.__name__} lacks the field {quoted(name)}")
        return cls(**kwargs)

    return structure_attrs


# -- the fast path ----------------------------------------------------------------------------------
# One generated function per attrs class: a type check per field inlined, no path strings, no
# per-field closures for scalars. It only says "not mine" (any exception); the detailed path above
# then names the reason. Stored payloads always hold every field (``encode`` writes them all), so a
# payload without a defaulted field takes the detailed path, which handles it.

_FastStructure = Callable[[Any], Any]
_FAST: dict[Any, _FastStructure] = {}
_SCALAR_TYPES: dict[Any, type] = {str: str, int: int, bool: bool, type(None): type(None)}


class _NotMine(Exception):
    pass


_NOT_MINE = _NotMine()


def _not_mine(*_: Any) -> Any:
    raise _NOT_MINE


def _fast(tp: Any) -> _FastStructure:
    try:
        return _fast_build(tp)
    except TypeError:  # a type the strict path refuses to structure: let it say so on every call
        return _not_mine


def _fast_ref(tp: Any) -> _FastStructure:
    fn = _FAST.get(tp)
    if fn is not None:
        return fn
    if not (isinstance(tp, type) and attrs.has(tp)):
        fn = _FAST[tp] = _fast(tp)
        return fn

    def late(value: Any) -> Any:  # an attrs class met while building itself (or a cycle)
        fn = _FAST.get(tp)
        if fn is None:
            fn = _FAST[tp] = _fast(tp)
        return fn(value)

    return late


def _fast_build(tp: Any) -> _FastStructure:
    kind = _SCALAR_TYPES.get(tp)
    if kind is not None:

        def scalar(value: Any) -> Any:
            if type(value) is not kind:
                raise _NOT_MINE
            return value

        return scalar
    if tp is float:

        def number(value: Any) -> float:
            if type(value) is float:
                return value
            if type(value) is int:
                return float(value)
            raise _NOT_MINE

        return number
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if len(options) != 1 or type(None) not in args:
            raise TypeError(f"strict structuring does not support {tp!r}")
        inner = _fast_ref(options[0])
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item_kind = _SCALAR_TYPES.get(args[0])
            if item_kind is not None:

                def scalars(value: Any) -> tuple:
                    if type(value) is not list and type(value) is not tuple:
                        raise _NOT_MINE
                    for v in value:
                        if type(v) is not item_kind:
                            raise _NOT_MINE
                    return tuple(value)

                return scalars
            item = _fast_ref(args[0])

            def items(value: Any) -> tuple:
                if type(value) is not list and type(value) is not tuple:
                    raise _NOT_MINE
                return tuple([item(v) for v in value])

            return items
        kinds = [_SCALAR_TYPES.get(a) for a in args]
        if all(k is not None for k in kinds):

            def fixed_scalars(value: Any) -> tuple:
                if (type(value) is not list and type(value) is not tuple) or len(value) != len(kinds):
                    raise _NOT_MINE
                for v, k in zip(value, kinds):
                    if type(v) is not k:
                        raise _NOT_MINE
                return tuple(value)

            return fixed_scalars
        fns = [_fast_ref(a) for a in args]

        def fixed(value: Any) -> tuple:
            if (type(value) is not list and type(value) is not tuple) or len(value) != len(fns):
                raise _NOT_MINE
            return tuple([f(v) for f, v in zip(fns, value)])

        return fixed
    if isinstance(tp, type) and attrs.has(tp):
        return _fast_attrs(tp)
    raise TypeError(f"strict structuring does not support {tp!r}")


_HINTS: dict[tuple[str, str], Any] = {}  # (module, annotation text) -> the type it names


def _field_types(cls: type) -> dict[str, Any]:
    """The types of ``cls``'s fields, as ``typing.get_type_hints`` gives them. A game's events write
    the same few annotations ("str", "tuple[int, ...]") over and over, so each text is evaluated once
    per module rather than once per field (start-up: the CLI decodes a log per call); a field that is
    inherited, or a text that does not evaluate plainly, is left to ``get_type_hints``."""
    fields = attrs.fields(cls)
    module = sys.modules.get(cls.__module__)
    if module is None or any(f.inherited or not isinstance(f.type, str) for f in fields):
        return _hinted(cls)
    out = {}
    for f in fields:
        key = (cls.__module__, typing.cast(str, f.type))
        if key not in _HINTS:
            try:
                named = eval(key[1], vars(module))  # noqa: S307 - the module's own annotation, as get_type_hints does
            except Exception:  # noqa: BLE001 - get_type_hints resolves it, or says why not
                return _hinted(cls)
            _HINTS[key] = type(None) if named is None else named
        out[f.name] = _HINTS[key]
    return out


def _hinted(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in attrs.fields(cls)}


def _fast_attrs(cls: type) -> _FastStructure:
    hints = _field_types(cls)
    fields = [f for f in attrs.fields(cls) if f.init]
    names: dict[str, Any] = {"cls": cls, "NOT_MINE": _NOT_MINE, "dict": dict}
    body = ["def structure(v):", f"    if type(v) is not dict or len(v) != {len(fields)}:", "        raise NOT_MINE"]
    args = []
    for i, f in enumerate(fields):
        tp = hints[f.name]
        x = f"x{i}"
        body.append(f"    {x} = v[{f.name!r}]")  # KeyError: a field is missing (so another is extra)
        kind = _SCALAR_TYPES.get(tp)
        if kind is not None:
            names[f"K{i}"] = kind
            body += [f"    if type({x}) is not K{i}:", "        raise NOT_MINE"]
        else:
            names[f"F{i}"] = _fast_ref(tp)
            body.append(f"    {x} = F{i}({x})")
        args.append(f"{getattr(f, 'alias', None) or f.name}={x}")
    body.append(f"    return cls({', '.join(args)})")
    exec(compile("\n".join(body), f"<strict structure {cls.__qualname__}>", "exec"), names)  # noqa: S102
    fn: _FastStructure = names["structure"]
    _FAST[cls] = fn
    return fn
