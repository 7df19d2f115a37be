"""Solari in words: each event said once, in the past tense (``said``), from which come the record's
line (``record``) and the "since your last move" words (``since``), and each command said for a button
(``command``); the sides are the board's (Uranus, Saturn)."""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from ..words import Said
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


def said(event: Event) -> Said:  # noqa: C901 - one phrase per event type
    """One event in the past tense; a side is named in the words, or as the actor where the event
    befalls that side ("Saturn could not play the 5")."""
    e: Any = event
    if isinstance(event, Dealt):
        return Said(f"dealt {e.side}'s open dominoes " + " ".join(f"{a}-{b}" for a, b in e.order))
    if isinstance(event, NumbersSet):
        a, b = e.numbers
        how = {"rolled": f"rolled {a}-{b}", "turned": f"turned up the domino {a}-{b}", "chosen": f"chose {a}-{b}",
               "next": f"took the next open domino {a}-{b}"}.get(e.how, f"set {a}-{b}")
        # an open domino comes by itself: the sentence of the move leaves it to the move list
        return Said(f"{how} for {e.side}" + (" (a joker)" if e.joker else ""), told=e.how != "next")
    if isinstance(event, Stepped):
        shot = f", shooting {piece_name(e.shot)}" if e.shot else ""
        return Said(f"moved {piece_name(e.piece)} from {name(e.frm)} to {name(e.to)} with the {e.distance}{shot}")
    if isinstance(event, Entered):
        shot = f", shooting {piece_name(e.shot)} ({e.shot_kind} shot)" if e.shot else ""
        return Said(f"brought {piece_name(e.piece)} back on {name(e.square)}{shot}")
    if isinstance(event, ReentryPostponed):
        return Said(f"could not bring a piece back: {e.reason}", e.side)
    if isinstance(event, Judged):
        return Said("judged the shots: " + "; ".join(f"{k} ({r})" for k, r in zip(e.kinds, e.reasons)), told=False)
    if isinstance(event, Placed):
        facing = f" facing {e.piece.facing}" if e.piece.facing else ""
        return Said(f"placed {piece_name(e.piece)} on {name(e.square)}{facing} ({e.kind} shot)")
    if isinstance(event, SetAside):
        return Said(
            f"took {piece_name(e.piece)} ({e.kind} shot on {name(e.shot_on)}) off the board, no margin square "
            f"being free, for {e.piece.side} to reenter in his next move"
        )
    if isinstance(event, Forfeited):
        return Said(f"forfeited the move: {e.reason}", e.side)
    if isinstance(event, NumberLost):
        return Said(f"could not play the {e.number}", e.side)
    if isinstance(event, MoveScored):
        pts = sum(u.points for u in e.units)
        units = "; ".join(f"{u.kind} {' '.join(name(s) for s in u.squares)} {u.points}" for u in e.units)
        # a move that scores nothing is left to the move list
        return Said(f"scored {pts} for {e.side}'s move {e.move_no}" + (f": {units}" if units else ""), told=pts != 0)
    if isinstance(event, GameEnded):
        return Said(f"ended the game: {e.reason}")
    return Said(type(event).__name__)


def record(event: Event) -> str:
    """One event in the record's words (``log``, the replay page, the move list)."""
    return said(event).line()


def since(event: Event, actor: str) -> str:
    """One event in words after ``actor``'s name, for "since your last move"; "" for none."""
    return said(event).after(actor)


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
