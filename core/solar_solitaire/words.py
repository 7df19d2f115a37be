"""Solar Solitaire in words: each event said once, for the record (``record``) and in the past tense
after the player's name for "since your last move" (``since``), and each command said for a button
(``command``). A shuffle's order is the face-down stockpile: no words here name it.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..game import Command, Event
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


def record(event: Event) -> str:  # noqa: C901 - one line per event type
    """One event in the record's words (``log``, the replay page, the move list)."""
    if isinstance(event, Shuffled):
        return f"shuffled the deck ({len(event.order)} cards)"
    if isinstance(event, Dealt):
        return "dealt launch pads " + " ".join(f"{PADS[p]}={c}" for p, c in enumerate(event.pads))
    if isinstance(event, DealRefused):
        if event.own:
            return f"rocket {event.rocket} on its own pad{event.pad} (own_pad_rocket=redeal): pick up, shuffle, deal again"
        return f"rocket {event.rocket} on the wrong launch pad pad{event.pad}: pick up, shuffle, deal again"
    if isinstance(event, TurnAsked):
        return "turns the next stock card"
    if isinstance(event, Turned):
        return f"turned {event.card}"
    if isinstance(event, Played):
        frm = "the turned card" if event.source == "stock" else "from the waste heap"
        launched = " - rocket launched" if event.card == ROCKETS[event.pad] else ""
        return f"forced play: {event.card} ({frm}) on pad{event.pad}{launched}"
    if isinstance(event, Wasted):
        return f"{event.card} to the waste heap"
    if isinstance(event, ChoiceWaiting):
        return f"{event.card} matches " + " and ".join(f"pad{p}" for p in event.pads) + ": the player chooses"
    if isinstance(event, Moved):
        launched = " - rocket launched" if event.card in ROCKETS and event.target.startswith("pad") else ""
        return f"moved {event.card} from {event.source} to {event.target}{launched}"
    if isinstance(event, EmergencyOn):
        return f"emergency rules apply: {' '.join(event.rockets)} in the waste heap"
    if isinstance(event, EmergencyOff):
        return "no rocket in the waste heap: the emergency rules no longer apply"
    if isinstance(event, Won):
        return "won: all four rockets stand on their launch pads"
    if isinstance(event, Lost):
        how = f"{event.positions} positions searched" if event.positions else "proven without a search"
        return f"lost: no way to free {' '.join(event.stranded)} ({how})"
    if isinstance(event, Resigned):
        return "resigned"
    return _fields(event)



def _fields(event: Event) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in attrs.asdict(event, recurse=False).items())  # type: ignore[arg-type]
    return f"{event.TYPE}({fields})"


def since(e: Event) -> str:  # noqa: C901 - one phrase per event type
    """One event in words after the actor's name (past tense), for "since your last move"; "" for
    one the sentence leaves out. A shuffle's order is the face-down stockpile: never named."""
    if isinstance(e, Shuffled):
        return f"shuffled the deck ({len(e.order)} cards, face down)"
    if isinstance(e, Dealt):
        return "dealt the launch pads " + " ".join(f"{PADS[p]}={c}" for p, c in enumerate(e.pads))
    if isinstance(e, TurnAsked):
        return "turned the next stock card"
    if isinstance(e, Turned):
        return f"turned up {e.card}"
    if isinstance(e, Played):
        return f"played {e.card} on pad{e.pad}" + (", launching a rocket" if e.card == ROCKETS[e.pad] else "")
    if isinstance(e, Wasted):
        return f"put {e.card} on the waste heap"
    if isinstance(e, Moved):
        launched = ", launching a rocket" if e.card in ROCKETS and e.target.startswith("pad") else ""
        return f"moved {e.card} from {e.source} to {e.target}{launched}"
    if isinstance(e, Won):
        return "won: all four rockets launched"
    if isinstance(e, Lost):
        return "lost"
    if isinstance(e, Resigned):
        return "resigned"
    return ""


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
        launched = ", launching a rocket" if card in ROCKETS and command.target.startswith("pad") else ""
        return f"move {card} from {command.source} to {command.target}{launched}"
    if isinstance(command, c.Resign):
        return "resign the game"
    return type(command).__name__
