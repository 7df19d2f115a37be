"""``evolve``: a frozen attrs instance with some fields changed, for the games' mutators.

The same result as ``attrs.evolve`` (the class's ``__init__`` runs, with its validators), at a
fraction of its cost: one function per class is generated once, where ``attrs.evolve`` looks every
field up again on every call. Replay calls it once per event; fields not changed are shared.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

T = TypeVar("T")
_REPLACERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def evolve(inst: T, **changes: Any) -> T:
    cls = type(inst)
    replace = _REPLACERS.get(cls)
    if replace is None:
        replace = _REPLACERS[cls] = _build(cls)
    return replace(inst, changes)


def _build(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    fields = [f for f in attrs.fields(cls) if f.init]
    names = frozenset(f.alias for f in fields)
    args = ", ".join(f"{f.alias}=c[{f.alias!r}] if {f.alias!r} in c else s.{f.name}" for f in fields)
    source = (
        "def replace(s, c):\n"
        "    if not c.keys() <= NAMES:\n"
        "        raise TypeError(f'{CLS.__name__} has no field {sorted(c.keys() - NAMES)[0]!r}')\n"
        f"    return CLS({args})\n"
    )
    scope: dict[str, Any] = {"CLS": cls, "NAMES": names, "sorted": sorted}
    exec(compile(source, f"<evolve {cls.__qualname__}>", "exec"), scope)  # noqa: S102
    return scope["replace"]


# -- value classes, made cheaply --------------------------------------------------------------------
# ``attrs.frozen`` compiles a ``__repr__``, ``__eq__`` and ``__hash__`` for every class it makes; a
# game's events, commands and states are a hundred classes, made on every start of the CLI (typed
# once per move), and those three are most of what making one costs. ``value`` is ``attrs.frozen``
# with the same three built from one shared closure each instead: the same results (attrs' repr
# format, equality by class and fields in order, a hash of the class and the fields), no compiling.


def _value_methods(cls: type) -> None:
    fields = attrs.fields(cls)
    if any(f.eq_key is not None or (f.repr is not True and f.repr is not False) for f in fields):
        raise TypeError(f"value: {cls.__qualname__} needs attrs' own methods (a field with a key or a repr)")
    compared = tuple(f.name for f in fields if f.eq)
    hashed = tuple(f.name for f in fields if f.hash is True or (f.hash is None and f.eq))
    shown = tuple(f.name for f in fields if f.repr)
    same = attrgetter(*compared) if compared else (lambda _: ())
    key = attrgetter(*hashed) if hashed else (lambda _: ())
    salt = hash(f"<value {cls.__module__}.{cls.__qualname__}>")  # unequal classes hash apart

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return same(self) == same(other)

    def __hash__(self: Any) -> int:
        return hash((salt, key(self)))

    def __repr__(self: Any) -> str:
        name = self.__class__.__qualname__.rsplit(">.", 1)[-1]
        return f"{name}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    for method in (__eq__, __hash__, __repr__):
        if method.__name__ not in cls.__dict__:  # one the class writes itself is kept, as attrs keeps it
            method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
            setattr(cls, method.__name__, method)


def _value(cls: type[T]) -> type[T]:
    made = attrs.frozen(cls, repr=False, eq=False)
    _value_methods(made)
    return made


if TYPE_CHECKING:  # the type checker's attrs plugin reads ``value`` as what it is: ``attrs.frozen``
    from attrs import frozen as value
else:
    value = _value
