"""What each viewer sees of Solo Dice: everything. The dice to come live only in the seed, which the
kernel shows the referee alone (``replay.seen``); a roll the seed foretold reveals it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from .events import PairsChosen, Rolled


class Observation(Open):
    foretold = (Rolled,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = []
        for e in events:
            if isinstance(e, Rolled):
                parts.append("rolled " + " ".join(map(str, e.dice)))
            elif isinstance(e, PairsChosen):
                (a, b), (c, d) = e.first, e.second
                parts.append(f"paired {a}+{b} and {c}+{d}, leaving {e.leftover}" + (" (a free throw)" if e.free_throw else ""))
        return phrases(parts) or super().said(actor, command, events, before, viewer)
