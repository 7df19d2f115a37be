"""What each viewer sees of Solari: the whole board. With hidden dominoes a player's dominoes lie
face down, but which is turned next is not in any state (the seed foretells it, shown to the referee
alone by ``replay.seen``; an entered game's table turns it); the referee's picture lists the unplayed
ones (render.py), which anyone can count. A domino turned face up shows what was hidden; a roll and
an open set's deal were foretold by a seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from .board import name
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .rules import piece_name


class Observation(Open):
    foretold = (Dealt,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = [p for e in events if (p := _phrase(e))]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        if isinstance(event, NumbersSet):  # a face-down domino turned up; a seeded roll
            return event.how == "turned" or (seeded and event.how == "rolled")
        return super().reveals(event, seeded)


def _phrase(e: Event) -> str:  # noqa: C901 - one phrase per event type
    """One event in words after the actor's name (past tense); the sides are the board's (Uranus, Saturn)."""
    if isinstance(e, Dealt):
        return f"dealt {e.side}'s open dominoes"
    if isinstance(e, NumbersSet):
        a, b = e.numbers
        joker = " (a joker)" if e.joker else ""
        return {"rolled": f"rolled {a}-{b} for {e.side}", "turned": f"turned up the domino {a}-{b} for {e.side}",
                "chosen": f"chose {a}-{b}", "next": ""}.get(e.how, f"set {a}-{b}") + joker
    if isinstance(e, Stepped):
        shot = f", shooting {piece_name(e.shot)}" if e.shot else ""
        return f"moved {piece_name(e.piece)} from {name(e.frm)} to {name(e.to)}{shot}"
    if isinstance(e, Entered):
        shot = f", shooting {piece_name(e.shot)}" if e.shot else ""
        return f"brought {piece_name(e.piece)} back on {name(e.square)}{shot}"
    if isinstance(e, Placed):
        return f"placed {piece_name(e.piece)} on {name(e.square)}"
    if isinstance(e, SetAside):
        return f"set {piece_name(e.piece)} aside (no margin square free)"
    if isinstance(e, ReentryPostponed):
        return f"could not bring {e.side}'s piece back"
    if isinstance(e, Forfeited):
        return "forfeited the move"
    if isinstance(e, NumberLost):
        return f"could not play the {e.number}"
    if isinstance(e, MoveScored):
        points = sum(u.points for u in e.units)
        return f"scored {points} for {e.side}" if points else ""
    if isinstance(e, GameEnded):
        return "ended the game"
    return ""
