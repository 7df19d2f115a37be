"""Solo Dice scoring: only the pairs tallied on the left score (004, "The point assignment")."""

from __future__ import annotations

import functools

from ..game import ScoreLine, ScoreSheet
from . import text
from .state import SUMS, State

# 004: "The basic values" table.
BASIC_VALUE = {2: 100, 3: 70, 4: 60, 5: 50, 6: 40, 7: 30, 8: 40, 9: 50, 10: 60, 11: 70, 12: 100}
OPENING_COST = 200
SCORING_MARKS = range(6, 11)  # "The sixth through tenth time"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@functools.lru_cache(maxsize=4096)  # a pure function of few values: a corpus scores the same ones over and over
def sum_lines(player: str, total: int, marks: int) -> tuple[ScoreLine, ...]:
    """The score sheet lines for one sum with ``marks`` marks."""
    if marks == 0:
        return ()
    lines = [ScoreLine(player, -OPENING_COST, f"sum {total} opened ({marks} mark{'' if marks == 1 else 's'})", text.OPEN_COST)]
    if marks >= 5:
        lines.append(ScoreLine(player, OPENING_COST, f"sum {total}: 5th mark returns the 200", text.FIFTH_BACK))
    scoring = [m for m in SCORING_MARKS if m <= marks]
    if scoring:
        value = BASIC_VALUE[total]
        joiner = " and " if len(scoring) == 2 else " to "
        span = _ordinal(scoring[0]) if len(scoring) == 1 else f"{_ordinal(scoring[0])}{joiner}{_ordinal(scoring[-1])}"
        lines.append(
            ScoreLine(
                player,
                value * len(scoring),
                f"sum {total}: {span} mark" + (f"s at {value} each" if len(scoring) > 1 else f" at {value}"),
                text.SIXTH_TO_TENTH,
            )
        )
    if marks > 10:
        lines.append(
            ScoreLine(player, 0, f"sum {total}: {marks - 10} mark(s) beyond the 10th score nothing", text.BEYOND_TEN)
        )
    return tuple(lines)


def score(state: State) -> ScoreSheet:
    lines: list[ScoreLine] = []
    for total in SUMS:
        lines.extend(sum_lines(state.player, total, state.marks_of(total)))
    return ScoreSheet.from_lines((state.player,), lines)
