"""Typed setup options: each game declares a frozen attrs class; this module reads ``KEY=VALUE``.

A field's type says how its text is read (bool, int, str); ``choices`` in its metadata lists the
allowed values; ``help`` says what it means. The full, typed options (defaults included) are stored
in the log header, so a later change of a default never changes a recorded game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from . import words
from .errors import InvalidSetup
from .words import quoted

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def _given(value: object) -> str:
    """A refused option value as it was written: quoted text, or a record's JSON value (never Python's None)."""
    return words.quoted(value) if isinstance(value, str) else words.value(value)


def option(default: Any, help: str, choices: tuple[Any, ...] | None = None, rule: str = "") -> Any:
    """Declare one option field; ``rule``: the rulebook's sentence the option reads or varies, cited
    from the game's ``text.py`` (the new-game form shows it beside the help)."""
    meta: dict[str, Any] = {"help": help}
    if choices is not None:
        meta["choices"] = tuple(choices)
    if rule:
        meta["rule"] = rule
    return attrs.field(default=default, metadata=meta, kw_only=True)


def _field_type(field: attrs.Attribute) -> type:
    t = field.type
    if isinstance(t, str):  # postponed annotations
        t = {"bool": bool, "int": int, "str": str}.get(t.split("|")[0].strip(), str)
    return t if t in (bool, int, str) else str


def _read(field: attrs.Attribute, value: Any) -> Any:
    kind = _field_type(field)
    name = field.name
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise InvalidSetup(f"option {name} is on or off, not {_given(value)}")
    if kind is int:
        if isinstance(value, bool):
            raise InvalidSetup(f"option {name} takes a whole number, not {_given(value)}")
        try:
            number = int(str(value).strip())
        except ValueError:
            raise InvalidSetup(f"option {name} takes a whole number, not {quoted(str(value)[:30])}") from None
        if not -(2**63) <= number < 2**63:
            raise InvalidSetup(f"option {name} takes a whole number of at most 64 bits, not {str(number)[:30]}")
        choices = field.metadata.get("choices")
        if choices is not None and number not in choices:
            raise InvalidSetup(f"option {name} is one of {', '.join(map(str, choices))}, not {number}")
        return number
    text = str(value).strip()
    choices = field.metadata.get("choices")
    if choices is not None and text not in choices:
        raise InvalidSetup(f"option {name} is one of {', '.join(map(str, choices))}, not {quoted(text[:40])}")
    return text


def parse_options(cls: type, raw: Mapping[str, Any]) -> Any:
    """Build the options instance from text or typed values; unknown keys are refused."""
    fields = {f.name: f for f in attrs.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        known = ", ".join(sorted(fields)) or "none"
        raise InvalidSetup(f"unknown option {quoted(unknown[0])} (this game's options: {known})")
    values = {name: _read(fields[name], value) for name, value in raw.items()}
    try:
        return cls(**values)
    except (TypeError, ValueError) as err:
        raise InvalidSetup(str(err)) from None


def options_dict(options: Any) -> dict[str, Any]:
    return attrs.asdict(options)


def describe_options(cls: type) -> list[dict[str, Any]]:
    """The options schema as plain data: name, type, default, choices, help, and the rule sentence where declared."""
    out = []
    for f in attrs.fields(cls):
        out.append(
            {
                "name": f.name,
                "type": _field_type(f).__name__,
                "default": f.default,
                "choices": list(f.metadata["choices"]) if "choices" in f.metadata else None,
                "help": f.metadata.get("help", ""),
                **({"rule": f.metadata["rule"]} if "rule" in f.metadata else {}),
            }
        )
    return out


def split_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Read ``KEY=VALUE`` words as given on a command line."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidSetup(f"an option is written KEY=VALUE, not {quoted(item)}")
        out[key.strip()] = value.strip()
    return out
