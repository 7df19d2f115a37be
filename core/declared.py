"""What a game declares of every field of its states and events: who sees it, and what the others
read in its place. Each game's observation module writes one ``Declaration``; a seat's JSON
(``Declaration.plain``) and the state its pictures draw (``Declaration.seen``) are built from it,
copying what the viewer may see (never deleting what is listed). ``Declaration.check`` refuses a
field nobody declared (``UndeclaredField``, naming the class and the field): ``core.observe.check``
runs it when the registry loads a game. The model: OpenSpiel's observers, built from the pieces a
game declares, where a piece not declared is never observed.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from . import frozen
from .errors import UndeclaredField


class Viewer(Protocol):
    """Who looks (``core.observe.Viewer``, which imports this module): all a declaration asks of him."""

    @property
    def sees_all(self) -> bool: ...

    def is_player(self, name: str | None) -> bool: ...

EVERYONE, OWNER, REFEREE_ONLY = "everyone", "owner", "referee"


@frozen.value
class Instead:
    """What a viewer who may not see a field reads in its place: ``key`` with ``of(value, record)``;
    ``size`` when that is the field's size (a picture may then count what it may not read)."""

    key: str
    of: Callable[[Any, Any], Any]
    size: bool = False


def count(key: str) -> Instead:
    """The field's size, under ``key`` ("deck_count")."""
    return Instead(key, lambda value, record: len(value), size=True)


def marked(key: str, mark: str = "hidden") -> Instead:
    """A mark under ``key`` (``"card": "hidden"``)."""
    return Instead(key, lambda value, record: mark)


def told(key: str, of: Callable[[Any, Any], Any]) -> Instead:
    """What ``of(value, record)`` tells everyone of the field (a start card's public part)."""
    return Instead(key, of)


@frozen.value
class Sight:
    """Who sees one field: everyone, its record's owner (and the referee), or the referee alone; the
    others read ``instead`` in its place: where the field stands (``inline``), else after the fields
    shown, in the order the fields are declared. The owner reads the stand-ins, then the field."""

    who: str
    instead: tuple[Instead, ...] = ()
    inline: bool = False

    @property
    def sized(self) -> bool:
        return any(i.size for i in self.instead)


PUBLIC = Sight(EVERYONE)
SECRET = Sight(REFEREE_ONLY)  # the referee's alone, nothing in its place


def hidden(*instead: Instead, inline: bool = False) -> Sight:
    """Seen by the referee alone; the others read ``instead``."""
    return Sight(REFEREE_ONLY, tuple(instead), inline)


def owners(*instead: Instead) -> Sight:
    """Seen by its record's owner (a mat's player) and the referee; the others read ``instead``."""
    return Sight(OWNER, tuple(instead))


@frozen.value
class Fields:
    """Every field of one class, declared (``declare``)."""

    cls: type
    sights: Mapping[str, Sight]
    # whose the record is (for ``owners`` fields): ``owner(record, root, index)``, ``index`` its place
    # in the root's tuple that holds it (a mat: the i-th player's)
    owner: Callable[[Any, Any, int | None], str | None] | None = None


def declare(cls: type, public: str = "", *, owner: Callable[[Any, Any, int | None], str | None] | None = None,
            **sights: Sight) -> Fields:
    """``cls``'s fields: those named in ``public`` (space-separated) seen by everyone, the others as
    given. A field named twice is refused."""
    names = public.split()
    twice = sorted({n for n in names if names.count(n) > 1} | (set(names) & set(sights)))
    if twice:
        raise UndeclaredField(f"{cls.__name__}.{twice[0]} is declared twice")
    declared: dict[str, Sight] = dict.fromkeys(names, PUBLIC)
    return Fields(cls, {**declared, **sights}, owner)


def _held(tp: Any) -> Iterable[type]:
    """The attrs classes a field's type holds (``tuple[Mat, ...]``, ``Taken | None``)."""
    if isinstance(tp, type) and attrs.has(tp):
        yield tp
        return
    for arg in typing.get_args(tp):
        if arg is not Ellipsis:
            yield from _held(arg)


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except NameError as err:  # a name imported for the type checker only: resolved in the class's module
        raise UndeclaredField(f"{cls.__name__}: its field types do not resolve ({err})") from None


class Withheld:
    """A field the viewer may not see, in an observed state (``Declaration.seen``): its size where
    the game declares its size shown, nothing else. Reading it (iterating, indexing, printing) fails
    loudly: a picture cannot draw what the viewer's observation does not hold."""

    __slots__ = ("size",)

    def __init__(self, size: int | None):
        self.size = size

    def __len__(self) -> int:
        if self.size is None:
            raise LookupError("a hidden field's size is not shown to this viewer")
        return self.size

    def __iter__(self) -> typing.Iterator[Any]:
        raise LookupError("a hidden field is not shown to this viewer")

    def __getitem__(self, index: Any) -> Any:
        raise LookupError("a hidden field is not shown to this viewer")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Withheld) and other.size == self.size

    def __hash__(self) -> int:
        return hash((Withheld, self.size))

    def __repr__(self) -> str:
        return f"Withheld({self.size})"


def held(value: Any) -> bool:
    """Whether a field of an observed state is held by the viewer's observation (not ``Withheld``)."""
    return not isinstance(value, Withheld)


class Declaration:
    """Every field of a game's state classes and event types, declared (the game's observation
    module): what each viewer's observation is built from. ``check`` refuses a class that holds a
    field not declared, and a declaration of a field the class does not hold."""

    def __init__(self, state: type, records: Sequence[Fields], events: Sequence[Fields]):
        self.state = state
        self.fields: dict[type, Fields] = {}
        for f in (*records, *events):
            if f.cls in self.fields:
                raise UndeclaredField(f"{f.cls.__name__} is declared twice")
            self.fields[f.cls] = f
        # each class's fields in the order declared: what stands for hidden ones follows it
        self._order = {cls: {name: i for i, name in enumerate(f.sights)} for cls, f in self.fields.items()}
        self._open: dict[type, bool] = {}
        self._deep: dict[tuple[type, str], bool] = {}

    # -- the check when the game is loaded ---------------------------------------------------------
    def check(self, state: type | None = None, events: Iterable[type] = ()) -> None:
        """Refuse (``UndeclaredField``, naming the class and the field) a field of ``state`` (the
        declared state class by default), of a class it holds, or of an event type in ``events`` that
        is not declared; and a declared field the class does not hold."""
        seen: set[type] = set()
        todo = [state or self.state, *events]
        while todo:
            cls = todo.pop(0)
            if cls in seen:
                continue
            seen.add(cls)
            declared = self.of(cls)
            names = [f.name for f in attrs.fields(cls)]
            for name in names:
                if name not in declared.sights:
                    raise UndeclaredField(
                        f"{cls.__name__}.{name} is not declared in the game's observation (public, the owner's or hidden)")
            stale = sorted(set(declared.sights) - set(names))
            if stale:
                raise UndeclaredField(f"{cls.__name__}.{stale[0]} is declared but {cls.__name__} has no such field")
            hints = _hints(cls)
            for name in names:
                todo.extend(_held(hints[name]))

    def of(self, cls: type) -> Fields:
        """The declaration of ``cls`` (or of the class it extends)."""
        for base in cls.__mro__:
            found = self.fields.get(base)
            if found is not None:
                return found
        raise UndeclaredField(f"{cls.__name__} is not declared in the game's observation")

    def is_open(self, cls: type) -> bool:
        """Whether every field of ``cls`` and of what it holds is public: seen whole by everyone."""
        known = self._open.get(cls)
        if known is None:
            self._open[cls] = True  # a class that holds itself is open as far as it goes
            declared = self.of(cls)
            known = all(
                declared.sights.get(f.name, SECRET).who == EVERYONE and not self._holds_hidden(cls, f.name)
                for f in attrs.fields(cls)
            )
            self._open[cls] = known
        return known

    def _holds_hidden(self, cls: type, name: str) -> bool:
        key = (cls, name)
        deep = self._deep.get(key)
        if deep is None:
            deep = self._deep[key] = any(not self.is_open(held) for held in _held(_hints(cls)[name]))
        return deep

    # -- what a viewer sees ------------------------------------------------------------------------
    def plain(self, record: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """``record`` (a state or an event) as ``viewer`` may see it, as plain data (``plain``: its
        full plain data): what is declared visible copied, what stands for the rest added."""
        if viewer.sees_all or self.is_open(type(record)):
            return plain
        return self._plain(record, plain, viewer, record, None)

    def _plain(self, record: Any, plain: dict[str, Any], viewer: Viewer, root: Any, index: int | None) -> dict[str, Any]:
        cls = type(record)
        if self.is_open(cls):
            return plain
        declared = self.of(cls)
        owner = declared.owner(record, root, index) if declared.owner is not None else None
        out: dict[str, Any] = {}
        after: list[tuple[int, list[tuple[str, Any]]]] = []
        for key, value in plain.items():
            sight = declared.sights.get(key)
            if sight is None:
                raise UndeclaredField(f"{cls.__name__}.{key} is not declared in the game's observation")
            if sight.who == EVERYONE:
                out[key] = self._inner(getattr(record, key), value, viewer, root) if self._holds_hidden(cls, key) else value
                continue
            field = getattr(record, key)
            pairs = [(i.key, i.of(field, record)) for i in sight.instead]
            if sight.who == OWNER and owner is not None and viewer.is_player(owner):
                pairs.append((key, value))
            if sight.inline:
                out.update(pairs)
            else:
                after.append((self._order[declared.cls][key], pairs))
        for _, pairs in sorted(after, key=lambda a: a[0]):
            out.update(pairs)
        return out

    def _inner(self, value: Any, plain: Any, viewer: Viewer, root: Any) -> Any:
        if isinstance(value, tuple):
            return [self._inner_item(v, p, viewer, root, i) for i, (v, p) in enumerate(zip(value, plain))]
        return self._inner_item(value, plain, viewer, root, None)

    def _inner_item(self, value: Any, plain: Any, viewer: Viewer, root: Any, index: int | None) -> Any:
        if attrs.has(type(value)):
            return self._plain(value, plain, viewer, root, index)
        if isinstance(value, tuple):
            return self._inner(value, plain, viewer, root)
        return plain

    def seen(self, record: Any, viewer: Viewer) -> Any:
        """``record`` (a state or an event) as ``viewer`` may see it, as the same class: each field
        the viewer may not see ``Withheld`` (its size kept where the game shows its size), so a
        picture drawn from it can draw only what the viewer's observation holds."""
        if viewer.sees_all or self.is_open(type(record)):
            return record
        return self._seen(record, viewer, record, None)

    def _seen(self, record: Any, viewer: Viewer, root: Any, index: int | None) -> Any:
        cls = type(record)
        if self.is_open(cls):
            return record
        declared = self.of(cls)
        owner = declared.owner(record, root, index) if declared.owner is not None else None
        changes: dict[str, Any] = {}
        for f in attrs.fields(cls):
            sight = declared.sights[f.name]
            value = getattr(record, f.name)
            if sight.who == EVERYONE:
                if self._holds_hidden(cls, f.name):
                    changes[f.alias] = self._seen_inner(value, viewer, root, None)
            elif not (sight.who == OWNER and owner is not None and viewer.is_player(owner)):
                changes[f.alias] = Withheld(len(value) if sight.sized else None)
        return frozen.evolve(record, **changes) if changes else record

    def _seen_inner(self, value: Any, viewer: Viewer, root: Any, index: int | None) -> Any:
        if attrs.has(type(value)):
            return self._seen(value, viewer, root, index)
        if isinstance(value, tuple):
            return tuple(self._seen_inner(v, viewer, root, i) for i, v in enumerate(value))
        return value
