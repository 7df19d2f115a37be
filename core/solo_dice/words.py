"""Solo Dice in words: each event said once, in the past tense (``said``), from which come the
record's line (``record``) and the "since your last move" words (``since``), and each command said
for a button (``command``). The game has one player: no event names him."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from ..words import Said
from .commands import Choose, Roll
from .events import PairsChosen, Rolled


def said(event: Event) -> Said:
    """One event in the past tense."""
    if isinstance(event, Rolled):
        return Said("rolled " + " ".join(map(str, event.dice)))
    if isinstance(event, PairsChosen):
        (a, b), (c, d) = event.first, event.second
        free = " as a free throw (F)" if event.free_throw else ""
        return Said(f"paired {a}+{b} and {c}+{d}, leaving {event.leftover}{free}")
    return Said(type(event).__name__)


def record(event: Event) -> str:
    """One event in the record's words (``log``, the replay page, the move list)."""
    return said(event).line()


def since(event: Event, actor: str) -> str:
    """One event in words after ``actor``'s name, for "since your last move"; "" for none."""
    return said(event).after(actor)


def command(command: Command, state: Any = None) -> str:
    """A command said for a button, beside its notation."""
    if isinstance(command, Roll):
        return "roll " + " ".join(map(str, command.dice))
    if isinstance(command, Choose):
        (a, b), (c, d) = command.first, command.second
        return f"pair {a}+{b} and {c}+{d}, leaving {command.leftover}"
    return type(command).__name__
