"""Solo Dice in words: each event said once, for the record (``record``) and in the past tense after
the player's name for "since your last move" (``since``), and each command said for a button (``command``)."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from .commands import Choose, Roll
from .events import PairsChosen, Rolled


def record(event: Event) -> str:  # noqa: C901 - one line per event type
    """One event in the record's words (``log``, the replay page, the move list)."""
    if isinstance(event, Rolled):
        return "rolled " + " ".join(map(str, event.dice))
    assert isinstance(event, PairsChosen)
    (a, b), (c, d) = event.first, event.second
    left = f"free throw {event.leftover} (F)" if event.free_throw else f"leftover {event.leftover}"
    return f"pairs {a}+{b}={a + b} and {c}+{d}={c + d}, {left}"


def since(e: Event) -> str:
    """One event in words after the player's name (past tense); "" for none."""
    if isinstance(e, Rolled):
        return "rolled " + " ".join(map(str, e.dice))
    if isinstance(e, PairsChosen):
        (a, b), (c, d) = e.first, e.second
        return f"paired {a}+{b} and {c}+{d}, leaving {e.leftover}" + (" (a free throw)" if e.free_throw else "")
    return ""


def command(command: Command, state: Any = None) -> str:
    """A command said for a button, beside its notation."""
    if isinstance(command, Roll):
        return "roll " + " ".join(map(str, command.dice))
    if isinstance(command, Choose):
        (a, b), (c, d) = command.first, command.second
        return f"pair {a}+{b} and {c}+{d}, leaving {command.leftover}"
    return type(command).__name__
