"""What each viewer sees of Solar Solitaire: the one place this game hides anything.

Hidden from the player: the face-down stockpile's order (a seeded or typed shuffle's order "is
recorded, but show reveals only what a player at the table sees"): its size only. The pictures show
the player the top of each pile and the stock's back; the referee every pile whole and the stock in
turning order. A deal and a turned card show what was face down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Command, Event
from ..observe import Observation as Base
from ..observe import SeenEvent, Viewer, phrases
from . import render
from .cards import PADS, ROCKETS
from .commands import Shuffle
from .events import Dealt, Lost, Moved, Played, Resigned, Shuffled, TurnAsked, Turned, Wasted, Won
from .state import State


class Observation(Base):
    def state(self, state: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if viewer.sees_all:
            return plain
        out = {k: v for k, v in plain.items() if k != "stock"}
        out["stock_count"] = len(plain.get("stock", ()))
        return out

    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        if isinstance(command, Shuffle) and not viewer.sees_all:
            return f"shuffle ({len(command.order)} cards, order hidden)"
        return self.game.format(command) if state is None else self.game.format_at(command, state)

    def event(self, event: Event, plain: dict[str, Any], viewer: Viewer) -> SeenEvent:
        if isinstance(event, Shuffled) and not viewer.sees_all:
            # the seeded shuffle's order is the face-down stockpile: only its size is public
            return SeenEvent({"cards": len(event.order), "order": "hidden"}, True)
        return SeenEvent(plain, True)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        # a shuffle's order is the face-down stockpile: never named but to the referee (nor here)
        parts: list[str] = []
        turned = ""
        for e in events:
            if isinstance(e, Wasted) and e.card == turned and parts:  # the card just turned up goes to the waste heap
                parts[-1] += " onto the waste heap"
            elif p := _phrase(e):
                parts.append(p)
            turned = e.card if isinstance(e, Turned) else ""
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def text(self, state: State, viewer: Viewer) -> str:
        return render.render(state, viewer.sees_all)

    def svg(self, state: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(state, reveal=viewer.sees_all, last=last, size=size)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, (Dealt, Turned))


def _phrase(e: Event) -> str:  # noqa: C901 - one phrase per event type
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
