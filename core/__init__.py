"""solrec.core: the kernel (game contract, chance, options, the table) and the games.

The names below are loaded on first use (PEP 562) but for ``play``, so importing one kernel module
(say ``solrec.core.errors``, as every CLI call does) imports the table and the game contract, not
the registry or any game: the CLI is typed once per move and its start-up counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import loader

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


__getattr__ = loader(__name__, _WHERE)


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
