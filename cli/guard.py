"""What stands between the command line and solrec: every refusal is one line, every argument text.

Arguments that are not valid Unicode (lone surrogates from undecodable bytes), absurdly long, or
whole numbers beyond 64 bits are refused before any command sees them; a reason is printed with
its control characters (ESC, newline) escaped, so it stays one line and cannot drive the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solrec.core.errors import InvalidCommand

MAX_ARGUMENT = 10_000  # characters of one argument: a command, a name or an id is far shorter


def one_line(message: str) -> str:
    """The message on one line: newlines, ESC and other control characters shown escaped."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


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
            raise InvalidCommand(f"the argument {one_line(text[:40])!r} is not valid UTF-8 text") from None
        if len(text) > MAX_ARGUMENT:
            raise InvalidCommand(f"an argument of {len(text)} characters is too long (at most {MAX_ARGUMENT})")
