"""What a seat may use (docs/ai.md, "Bots"): the positions it cannot tell apart, its hidden part
redrawn by the game's resampler (``BotHooks.resample``), and its value of a position (``heuristic``),
from the score so far. Both the kinds (``bots.py``) and the search (``search.py``) read them.
"""

from __future__ import annotations

import math
import random

import attrs

from solrec.core.game import Command

from .contract import BotError
from .table import Position, Table


def resample(table: Table, position: Position, seat: str, rng: random.Random) -> Position:
    """A position the seat cannot tell from ``position``, its hidden part drawn from what the seat
    knows (docs/ai.md, "Resampling"): the game's ``hidden_information`` redrawn by its resampler
    (``BotHooks.resample``), the history kept."""
    game = table.game
    if not game.hidden_information:
        return position
    redraw = table.hooks.resample
    if redraw is None:
        raise BotError(f"{game.id}: no resampler")
    state = redraw(position.state, seat, rng)
    if state is position.state:  # nothing hidden is left to draw
        return position
    return attrs.evolve(position, state=state, cache={})


def heuristic(table: Table, position: Position, seat: str) -> float:
    """A position's value for ``seat`` on the return scale, from the score so far: the return at the
    end; for a solitaire its normalised score; else the seat's lead over the best other player,
    squashed (tanh of the lead over the game's ``BotHooks.lead_scale``)."""
    if table.over(position):
        return table.returns(position)[table.players.index(seat)]
    scores = table.scores(position)
    if len(table.players) == 1:
        return table.solitaire_return("", scores[seat]) * 0.99
    lead = scores[seat] - max(v for p, v in scores.items() if p != seat)
    return math.tanh(lead / table.hooks.lead_scale) * 0.99


def heuristics(table: Table, position: Position) -> list[float]:
    return [heuristic(table, position, p) for p in table.players]


def look(table: Table, position: Position, command: Command) -> Position:
    """The position after ``command``, chance left to act (a bot never sees a draw-less card early)."""
    return table.play(position, command, settle=False)


