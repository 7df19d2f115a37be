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
        # 002: a marble jumps over a neighbour into the empty pocket beyond, and the jumped one is removed
        over = _between(command.start, command.end)
        at = getattr(state, "at", None)
        mover, removed = (at(command.start), at(over)) if at is not None and over else (None, None)
        marble = f"the {mover} marble" if mover else "the marble"
        taken = f"the {removed} marble on {over}" if removed else f"the marble on {over}" if over else "the marble between"
        return f"jump {marble} from {command.start} to {command.end}, removing {taken}"
    if isinstance(command, Pass):
        return "pass"
    return type(command).__name__


def _between(start: str, end: str) -> str:
    """The pocket a jump from ``start`` to ``end`` passes over ("" where they are not two apart in a line)."""
    from . import board as B

    if not (B.is_square(start) and B.is_square(end)):
        return ""
    (f1, r1), (f2, r2) = B.coords(B.index(start)), B.coords(B.index(end))
    if (abs(f1 - f2), abs(r1 - r2)) not in ((2, 0), (0, 2)):
        return ""
    return B.FILES[(f1 + f2) // 2] + str((r1 + r2) // 2)
