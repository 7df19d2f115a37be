"""What each viewer sees of SOLI2: everything on the board and in the channels; the pouch's counts
follow from what was placed (render.py). Which stone the pouch gives next is not in any state: an
entered game's table draws it, a seeded game's seed foretells it (shown to the referee alone,
``replay.seen``). A draw from the pouch shows what was hidden before it."""

from __future__ import annotations

from ..observe import Open
from .events import Drawn


class Observation(Open):
    revealing = (Drawn,)
