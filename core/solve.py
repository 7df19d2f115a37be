"""What a game's solver answers, in plain values the CLI can print without knowing the game.

A game offers a solver by overriding ``Game.solve`` (one position) and ``Game.survey`` (many seeded
deals); the defaults return None, meaning "this game has no solver".
"""

from __future__ import annotations

from typing import Any

import attrs

from .words import quoted

# verdicts of SolveReport
WON = "won"  # the game is already won
LOST = "lost"  # the game is already over without a win
WINNABLE = "winnable"  # a winning line exists (given in ``line``)
UNWINNABLE = "unwinnable"  # the search proved that no line wins
UNDECIDED = "undecided"  # the node budget ran out before an answer
UNKNOWABLE = "unknowable"  # the position hides information the answer depends on
VERDICTS = (WON, LOST, WINNABLE, UNWINNABLE, UNDECIDED, UNKNOWABLE)


@attrs.frozen
class SolveReport:
    """The answer for one position: a verdict, how many positions were searched under which budget,
    a winning line of commands in the game's notation when there is one, and a note on what the
    solver knew (e.g. an open-information analysis)."""

    verdict: str
    positions: int
    budget: int
    line: tuple[str, ...] = ()
    note: str = ""

    def __attrs_post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown solver verdict {quoted(self.verdict)}")

    @property
    def decided(self) -> bool:
        return self.verdict in (WON, LOST, WINNABLE, UNWINNABLE)

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "decided": self.decided,
            "positions": self.positions,
            "budget": self.budget,
            "line": list(self.line),
            "note": self.note,
        }
