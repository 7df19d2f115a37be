"""What each viewer sees of Solari: the whole board. With hidden dominoes a player's dominoes lie
face down, but which is turned next is not in any state (the seed foretells it, shown to the referee
alone by ``replay.seen``; an entered game's table turns it); the referee's picture lists the unplayed
ones (render.py), which anyone can count. A domino turned face up shows what was hidden; a roll and
an open set's deal were foretold by a seed."""

from __future__ import annotations

from ..game import Event
from ..observe import Open
from .events import Dealt, NumbersSet


class Observation(Open):
    foretold = (Dealt,)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        if isinstance(event, NumbersSet):  # a face-down domino turned up; a seeded roll
            return event.how == "turned" or (seeded and event.how == "rolled")
        return super().reveals(event, seeded)
