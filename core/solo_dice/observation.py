"""What each viewer sees of Solo Dice: everything. The dice to come live only in the seed, which the
kernel shows the referee alone (``replay.seen``); a roll the seed foretold reveals it. Every field is
declared public below (``DECLARED``): a field nobody declared refuses the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..declared import Declaration, declare
from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from . import render, words
from .events import PairsChosen, Rolled
from .state import State

DECLARED = Declaration(State, [
    declare(State, "player marks leftover_marks opened free_throws roll rolls ended_by"),
], [
    declare(Rolled, "dice"),
    declare(PairsChosen, "first second leftover free_throw"),
])


class Observation(Open):
    declared = DECLARED
    foretold = (Rolled,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = [words.since(e, actor) for e in events]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def draw_text(self, seen: State, viewer: Viewer) -> str:
        return render.render(seen)

    def draw_svg(self, seen: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(seen, viewer, last=last, size=size)
