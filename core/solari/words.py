"""Solari in words: each event said once, for the record (``record``) and in the past tense after the
actor's name for "since your last move" (``since``), and each command said for a button (``command``);
the sides are the board's (Uranus, Saturn)."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from .board import name
from .commands import Deal, Domino, Enter, Place, Roll, Step, Turn
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .rules import piece_name

_KINDS = {"c": "chaser", "b": "blocker", "d": "doubler"}


def record(event: Event) -> str:  # noqa: C901 - one line per event type
    """One event in the record's words (``log``, the replay page, the move list)."""
    if isinstance(event, Dealt):
        return f"{event.side}'s open dominoes: " + " ".join(f"{a}-{b}" for a, b in event.order)
    if isinstance(event, NumbersSet):
        a, b = event.numbers
        return f"{event.side} {event.how} {a}-{b}" + (" (joker)" if event.joker else "")
    if isinstance(event, Stepped):
        shot = f", shooting {piece_name(event.shot)}" if event.shot else ""
        return f"{piece_name(event.piece)} {name(event.frm)}-{name(event.to)} ({event.distance}){shot}"
    if isinstance(event, Entered):
        shot = f", {event.shot_kind} shot of {piece_name(event.shot)}" if event.shot else ""
        return f"{piece_name(event.piece)} reenters on {name(event.square)}{shot}"
    if isinstance(event, ReentryPostponed):
        return f"{event.side} cannot reenter: {event.reason}"
    if isinstance(event, Judged):
        return "shots: " + "; ".join(f"{k} ({r})" for k, r in zip(event.kinds, event.reasons))
    if isinstance(event, Placed):
        facing = f" facing {event.piece.facing}" if event.piece.facing else ""
        return f"{piece_name(event.piece)} placed on {name(event.square)}{facing} ({event.kind} shot)"
    if isinstance(event, SetAside):
        return (
            f"{piece_name(event.piece)} ({event.kind} shot on {name(event.shot_on)}) leaves the board: "
            f"no margin square is free; {event.piece.side} reenters it in his next move"
        )
    if isinstance(event, Forfeited):
        return f"{event.side} forfeits the move: {event.reason}"
    if isinstance(event, NumberLost):
        return f"{event.side} cannot play the {event.number}"
    if isinstance(event, MoveScored):
        pts = sum(u.points for u in event.units)
        return f"{event.side}'s move {event.move_no} scores {pts}" + (
            ": " + "; ".join(f"{u.kind} {' '.join(name(s) for s in u.squares)} {u.points}" for u in event.units)
            if event.units else ""
        )
    if isinstance(event, GameEnded):
        return f"game over: {event.reason}"
    return type(event).__name__


def since(e: Event) -> str:  # noqa: C901 - one phrase per event type
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


def command(command: Command, state: Any = None) -> str:
    """A command said for a button, beside its notation (``state``: the position it is played in)."""
    turned = getattr(command, "facing", None)
    facing = f" facing {turned}" if turned else ""
    if isinstance(command, Roll):
        return f"roll {command.dice[0]} and {command.dice[1]}"
    if isinstance(command, Turn):
        return f"turn up the domino {command.domino[0]}-{command.domino[1]}"
    if isinstance(command, Deal):
        return f"deal {command.side}'s open dominoes " + " ".join(f"{a}-{b}" for a, b in command.order)
    if isinstance(command, Domino):
        return f"play the domino {command.domino[0]}-{command.domino[1]}"
    if isinstance(command, Step):
        piece = dict(state.board).get(command.frm) if state is not None else None
        return f"move {piece_name(piece) if piece is not None else 'the piece'} from {name(command.frm)} to {name(command.to)}"
    if isinstance(command, Place):
        return f"place the piece on {name(command.square)}{facing}"
    if isinstance(command, Enter):
        what = _KINDS.get(command.piece, f"comet {command.piece}")
        return f"bring the {what} back on {name(command.square)}{facing}"
    return type(command).__name__
