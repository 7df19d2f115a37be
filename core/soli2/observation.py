"""What each viewer sees of SOLI2: everything on the board and in the channels; the pouch's counts
follow from what was placed (render.py). Which stone the pouch gives next is not in any state: an
entered game's table draws it, a seeded game's seed foretells it (shown to the referee alone,
``replay.seen``). A draw from the pouch shows what was hidden before it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from .events import BLACK_OUT, WHITE_OUT, Drawn, Ended, Jumped, Passed, Placed


class Observation(Open):
    revealing = (Drawn,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = []
        for e in events:
            if isinstance(e, Drawn):
                parts.append(f"drew a {e.color} marble from the pouch")
            elif isinstance(e, Placed):
                parts.append(f"placed a {e.color} marble on {e.square}")
            elif isinstance(e, Jumped):
                parts.append(f"jumped {e.color} {e.start} over {e.over} to {e.end}, removing the {e.removed} marble")
            elif isinstance(e, Passed):
                parts.append("passed: no jump")
            elif isinstance(e, Ended):
                parts.append("ended the game: " + {BLACK_OUT: "black has no marbles left", WHITE_OUT: "white has no marbles left"}
                             .get(e.reason, "no legal jump remains"))
        return phrases(parts) or super().said(actor, command, events, before, viewer)
