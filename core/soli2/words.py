"""SOLI2 in words: each event said once, in the past tense (``said``), from which come the record's
line (``record``) and the "since your last move" words (``since``), and each command said for a
button (``command``). A jump says where the marble lands and which marble it removes."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from ..words import Said
from .commands import Draw, Jump, Pass, Place
from .events import BLACK_OUT, WHITE_OUT, Drawn, Ended, Jumped, Passed, Placed

_ENDED = {BLACK_OUT: "black has no marbles left", WHITE_OUT: "white has no marbles left"}


def landing(start: str, over: str, end: str, removed: str | None) -> str:
    """Where a jump goes and what it takes: "from e1 over d1 to c1, removing the white marble on d1"."""
    return f"from {start} over {over} to {end}, removing the {f'{removed} ' if removed else ''}marble on {over}"


def said(event: Event) -> Said:
    """One event in the past tense, after the player's name where it names one."""
    if isinstance(event, Drawn):
        return Said(f"drew a {event.color} marble from the pouch")
    if isinstance(event, Placed):
        return Said(f"placed a {event.color} marble on {event.square}", event.player)
    if isinstance(event, Jumped):
        return Said(f"jumped the {event.color} marble {landing(event.start, event.over, event.end, event.removed)}",
                    event.player)
    if isinstance(event, Passed):  # 002: "pass your turn"
        return Said(f"had no legal jump with {event.color} and passed", event.player)
    if isinstance(event, Ended):
        return Said("ended the game: " + _ENDED.get(event.reason, "no legal jump remains"))
    return Said(type(event).__name__)


def record(event: Event) -> str:
    """One event in the record's words (``log``, the replay page, the move list)."""
    return said(event).line()


def since(event: Event, actor: str) -> str:
    """One event in words after ``actor``'s name, for "since your last move"; "" for none."""
    return said(event).after(actor)


def command(command: Command, state: Any = None) -> str:
    """A command said for a button, beside its notation (``state``: the position it is played in)."""
    if isinstance(command, Draw):
        return f"draw a {command.color} marble from the pouch"
    if isinstance(command, Place):
        color = command.color or getattr(state, "hand", None)
        return f"place {f'a {color} marble' if color else 'the marble'} on {command.square}"
    if isinstance(command, Jump):
        middle = _between(command.start, command.end)
        if not middle:  # not a jump the board allows: said as written
            return f"jump from {command.start} to {command.end}"
        at = getattr(state, "at", None)
        mover, removed = (at(command.start), at(middle)) if at is not None else (None, None)
        return f"jump {f'the {mover} marble' if mover else 'the marble'} {landing(command.start, middle, command.end, removed)}"
    if isinstance(command, Pass):
        return "pass"
    return type(command).__name__


def _between(start: str, end: str) -> str:
    """The pocket a jump from ``start`` to ``end`` passes over, from the board's straight jumps ("" where
    no jump goes from one to the other)."""
    from . import board as B

    if not (B.is_square(start) and B.is_square(end)):
        return ""
    return next((B.name(over) for over, to in B.JUMPS[B.index(start)] if to == B.index(end)), "")
