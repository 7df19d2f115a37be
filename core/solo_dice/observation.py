"""What each viewer sees of Solo Dice: everything. The dice to come live only in the seed, which the
kernel shows the referee alone (``replay.seen``); a roll the seed foretold reveals it."""

from __future__ import annotations

from ..observe import Open
from .events import Rolled


class Observation(Open):
    foretold = (Rolled,)
