"""solrec.core: the kernel (game contract, chance, options, the table) and the games."""

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
    play,
)
from .registry import games, get_game

__all__ = [
    "AmbiguousCommand", "CHANCE", "Command", "CorruptLog", "ENTERED", "Event", "Game", "Header",
    "IllegalCommand", "InvalidCommand", "InvalidSetup", "Outcome", "SEEDED", "ScoreLine", "ScoreSheet",
    "SeededDraw", "SolrecError", "Step", "WrongActor", "advance_chance", "decide_as", "fold", "games",
    "get_game", "initial_state", "make_header", "play",
]
