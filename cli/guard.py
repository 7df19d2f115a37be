"""What stands between the command line and solrec: every refusal is one line, every argument text.

Arguments that are not valid Unicode (lone surrogates from undecodable bytes), absurdly long, or
whole numbers beyond 64 bits are refused before any command sees them; a reason is printed with
its control characters (ESC, newline) escaped, so it stays one line and cannot drive the terminal.
Output is escaped the same way (``shown``, ``shown_json``): a stored file may hold what input
refuses (a player name with ESC or U+202E), and a reading command shows it escaped, never as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solrec.core.errors import InvalidCommand
from solrec.core.words import one_line, quoted, shown  # noqa: F401 - the CLI's escapes, kept here for its modules

MAX_ARGUMENT = 10_000  # characters of one argument: a command, a name or an id is far shorter


def shown_json(text: str) -> str:
    """JSON text (``ensure_ascii=False``) with every character that is not printable written as a
    ``\\uXXXX`` escape: such a character can only stand inside a JSON string, where the escape is
    the same value, so a program reads the same data and a terminal is never driven by it."""
    if text.replace("\n", "").isprintable():
        return text
    return "".join(c if c == "\n" or c.isprintable() else _json_escape(c) for c in text)


def _json_escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _texts(values: Iterable[Any]) -> Iterable[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))


def check_arguments(values: Iterable[Any]) -> None:
    """Refuse argument text that is not valid Unicode or absurdly long, and numbers beyond 64 bits."""
    values = list(values)
    for value in values:
        if type(value) is int and not -(2**63) <= value < 2**63:
            raise InvalidCommand(f"{str(value)[:30]}... is not a whole number of at most 64 bits")
    for text in _texts(values):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidCommand(f"the argument {quoted(one_line(text[:40]))} is not valid UTF-8 text") from None
        if len(text) > MAX_ARGUMENT:
            raise InvalidCommand(f"an argument of {len(text)} characters is too long (at most {MAX_ARGUMENT})")
