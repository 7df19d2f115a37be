"""What each viewer sees of SOLI2: everything on the board and in the channels; the pouch's counts
follow from what was placed (render.py). Which stone the pouch gives next is not in any state: an
entered game's table draws it, a seeded game's seed foretells it (shown to the referee alone,
``replay.seen``). A draw from the pouch shows what was hidden before it. Every field is declared
public below (``DECLARED``): a field nobody declared refuses the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..declared import Declaration, declare
from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from . import render, words
from .events import Drawn, Ended, Jumped, Passed, Placed
from .state import State

DECLARED = Declaration(State, [
    declare(State, (
        "mode fill objective players board phase turn pouch hand channels removed placements jumps passes "
        "last end"
    )),
], [
    declare(Drawn, "color"),
    declare(Placed, "player color square"),
    declare(Jumped, "player color start over end removed"),
    declare(Passed, "player color"),
    declare(Ended, "reason"),
])


class Observation(Open):
    declared = DECLARED
    revealing = (Drawn,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = [words.since(e, actor) for e in events]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def draw_text(self, seen: State, viewer: Viewer) -> str:
        return render.render(seen)

    def draw_svg(self, seen: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(seen, viewer, last=last, size=size)
