"""Solar Solitaire in words: each event said once, in the past tense (``said``), from which come the
record's line (``record``) and the "since your last move" words (``since``), and each command said for
a button (``command``). A shuffle's order is the face-down stockpile: no words here name it.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..game import Command, Event
from ..words import Said
from . import commands as c
from .cards import PADS, ROCKETS
from .events import (
    ChoiceWaiting,
    DealRefused,
    Dealt,
    EmergencyOff,
    EmergencyOn,
    Lost,
    Moved,
    Played,
    Resigned,
    Shuffled,
    TurnAsked,
    Turned,
    Wasted,
    Won,
)


def said(event: Event) -> Said:  # noqa: C901 - one phrase per event type
    """One event in the past tense (the game has one player: no event names him)."""
    e: Any = event
    if isinstance(event, Shuffled):
        return Said(f"shuffled the deck ({len(e.order)} cards, face down)")
    if isinstance(event, Dealt):
        return Said("dealt the launch pads " + " ".join(f"{PADS[p]}={c}" for p, c in enumerate(e.pads)))
    if isinstance(event, DealRefused):
        why = f"its own pad{e.pad} (own_pad_rocket=redeal)" if e.own else f"the wrong launch pad pad{e.pad}"
        return Said(f"dealt rocket {e.rocket} onto {why}: to be picked up, shuffled and dealt again", told=False)
    if isinstance(event, TurnAsked):
        return Said("turned the next stock card")
    if isinstance(event, Turned):
        return Said(f"turned up {e.card}")
    if isinstance(event, Played):
        frm = "the turned card" if e.source == "stock" else "from the waste heap"
        launched = ", launching a rocket" if e.card == ROCKETS[e.pad] else ""
        return Said(f"had to play {e.card} ({frm}) on pad{e.pad}{launched}")
    if isinstance(event, Wasted):
        return Said(f"put {e.card} on the waste heap")
    if isinstance(event, ChoiceWaiting):
        pads = " and ".join(f"pad{p}" for p in e.pads)
        return Said(f"found {e.card} matching {pads}: the player chooses", told=False)
    if isinstance(event, Moved):
        return Said(f"moved {e.card} from {e.source} to {e.target}" + _launching(e.card, e.target))
    if isinstance(event, EmergencyOn):
        return Said(f"put {' '.join(e.rockets)} in the waste heap: the emergency rules apply", told=False)
    if isinstance(event, EmergencyOff):
        return Said("left no rocket in the waste heap: the emergency rules no longer apply", told=False)
    if isinstance(event, Won):
        return Said("won: all four rockets stand on their launch pads")
    if isinstance(event, Lost):
        how = f"{e.positions} positions searched" if e.positions else "proven without a search"
        return Said(f"lost: no way to free {' '.join(e.stranded)} ({how})")
    if isinstance(event, Resigned):
        return Said("resigned")
    return Said(_fields(event))


def _launching(card: str, target: str) -> str:
    return ", launching a rocket" if card in ROCKETS and target.startswith("pad") else ""


def _fields(event: Event) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in attrs.asdict(event, recurse=False).items())  # type: ignore[arg-type]
    return f"{event.TYPE}({fields})"


def record(event: Event) -> str:
    """One event in the record's words (``log``, the replay page, the move list)."""
    return said(event).line()


def since(event: Event, actor: str) -> str:
    """One event in words after ``actor``'s name, for "since your last move"; "" for one the sentence
    leaves out. A shuffle's order is the face-down stockpile: never named."""
    return said(event).after(actor)


def command(command: Command, state: Any = None) -> str:  # noqa: C901 - one phrase per command type
    """A command said for a button, beside its notation (``state``: the position it is played in)."""
    top = getattr(state, "pile", None)
    if isinstance(command, c.Shuffle):
        return f"shuffle the deck ({len(command.order)} cards, face down)"
    if isinstance(command, c.Deal):
        return "deal the launch pads " + " ".join(f"{PADS[p]}={card}" for p, card in enumerate(command.pads))
    if isinstance(command, c.Card):
        return f"turn up {command.card} from the stockpile"
    if isinstance(command, c.Turn):
        return "turn the next stock card"
    if isinstance(command, c.Play):
        card = getattr(state, "hand", None) or "the turned card"
        return f"play {card} on pad{command.pad}" + (", launching a rocket" if card == ROCKETS[command.pad] else "")
    if isinstance(command, c.Move):
        pile = top(command.source) if top is not None else ()
        card = pile[-1] if pile else f"the top card of {command.source}"
        return f"move {card} from {command.source} to {command.target}" + _launching(card, command.target)
    if isinstance(command, c.Resign):
        return "resign the game"
    return type(command).__name__
