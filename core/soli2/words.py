"""SOLI2 in words: each event said once, for the record (``record``) and in the past tense after the
player's name for "since your last move" (``since``), and each command said for a button (``command``)."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from .commands import Draw, Jump, Pass, Place
from .events import BLACK_OUT, WHITE_OUT, Drawn, Ended, Jumped, Passed, Placed


def record(event: Event) -> str:  # noqa: C901 - one line per event type
    """One event in the record's words (``log``, the replay page, the move list)."""
    if isinstance(event, Drawn):
        return f"drew a {event.color} marble from the pouch"
    if isinstance(event, Placed):
        return f"{event.player} placed a {event.color} marble on {event.square}"
    if isinstance(event, Jumped):
        return (
            f"{event.player} jumped {event.color} {event.start}-{event.end}, removing the {event.removed} "
            f"marble on {event.over}"
        )
    if isinstance(event, Passed):
        return f"{event.player} ({event.color}) has no legal jump and passes"
    assert isinstance(event, Ended)
    return "game over: " + {
        BLACK_OUT: "black has no marbles left",
        WHITE_OUT: "white has no marbles left",
    }.get(event.reason, "no legal jump remains")


def since(e: Event) -> str:
    """One event in words after the player's name (past tense); "" for none."""
    if isinstance(e, Drawn):
        return f"drew a {e.color} marble from the pouch"
    if isinstance(e, Placed):
        return f"placed a {e.color} marble on {e.square}"
    if isinstance(e, Jumped):
        return f"jumped {e.color} {e.start} over {e.over} to {e.end}, removing the {e.removed} marble"
    if isinstance(e, Passed):
        return "passed: no jump"
    if isinstance(e, Ended):
        return "ended the game: " + {BLACK_OUT: "black has no marbles left", WHITE_OUT: "white has no marbles left"}.get(
            e.reason, "no legal jump remains")
    return ""


def command(command: Command, state: Any = None) -> str:
    """A command said for a button, beside its notation (``state``: the position it is played in)."""
    if isinstance(command, Draw):
        return f"draw a {command.color} marble from the pouch"
    if isinstance(command, Place):
        color = command.color or getattr(state, "hand", None)
        return f"place {f'a {color} marble' if color else 'the marble'} on {command.square}"
    if isinstance(command, Jump):
        return f"jump from {command.start} to {command.end}"
    if isinstance(command, Pass):
        return "pass"
    return type(command).__name__
