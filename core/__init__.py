"""solrec.core: the kernel (game contract, chance, options, the table) and the games.

The names below are loaded on first use (PEP 562), so importing one kernel module (say
``solrec.core.errors``, as every CLI call does) does not import the whole kernel: the CLI is
typed once per move and its start-up counts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# ``play`` names both a submodule and its main function: bound here, after the submodule is imported,
# so that ``solrec.core.play`` is the function, as it always was.
from .play import play

_WHERE = {
    "SeededDraw": "chance",
    **dict.fromkeys(
        ("AmbiguousCommand", "CorruptLog", "IllegalCommand", "InvalidCommand", "InvalidSetup", "SolrecError",
         "WrongActor"),
        "errors",
    ),
    **dict.fromkeys(("CHANCE", "Command", "Event", "Game", "Outcome", "ScoreLine", "ScoreSheet"), "game"),
    **dict.fromkeys(
        ("ENTERED", "SEEDED", "Header", "Step", "advance_chance", "decide_as", "fold", "initial_state",
         "make_header"),
        "play",
    ),
    **dict.fromkeys(("games", "get_game"), "registry"),
}

__all__ = [
    "AmbiguousCommand", "CHANCE", "Command", "CorruptLog", "ENTERED", "Event", "Game", "Header",
    "IllegalCommand", "InvalidCommand", "InvalidSetup", "Outcome", "SEEDED", "ScoreLine", "ScoreSheet",
    "SeededDraw", "SolrecError", "Step", "WrongActor", "advance_chance", "decide_as", "fold", "games",
    "get_game", "initial_state", "make_header", "play",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


if TYPE_CHECKING:
    from .chance import SeededDraw
    from .errors import (
        AmbiguousCommand,
        CorruptLog,
        IllegalCommand,
        InvalidCommand,
        InvalidSetup,
        SolrecError,
        WrongActor,
    )
    from .game import CHANCE, Command, Event, Game, Outcome, ScoreLine, ScoreSheet
    from .play import (
        ENTERED,
        SEEDED,
        Header,
        Step,
        advance_chance,
        decide_as,
        fold,
        initial_state,
        make_header,
    )
    from .registry import games, get_game
