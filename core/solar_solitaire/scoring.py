"""Solar Solitaire has no points in its text; the sheet counts the rockets on their pads (one line
each, 4 = won), which is what the text's object and end rule are about."""

from __future__ import annotations

from ..game import ScoreLine, ScoreSheet
from . import text
from .cards import PADS, ROCKETS
from .state import State


def score(state: State) -> ScoreSheet:
    lines = [
        ScoreLine(state.player, 1, f"rocket {ROCKETS[p]} stands on {PADS[p]}", text.WIN)
        for p in state.rockets_launched
    ]
    return ScoreSheet.from_lines((state.player,), lines)
