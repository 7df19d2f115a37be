"""Solo Dice bound to the kernel's game contract."""

from __future__ import annotations

from typing import Any

import attrs

from ..chance import SeededDraw
from ..errors import IllegalCommand
from ..game import CHANCE, Choices, Command, Event, Form, Game, Outcome, ScoreSheet
from ..observe import Observation
from . import notation, rules, scoring, text, words
from .commands import Choose, Roll
from .events import PairsChosen, Rolled
from .state import ENDING_MARK, MUTATORS, State


@attrs.frozen
class Options:
    """Solo Dice has no setup choices."""


class SoloDice(Game):
    id = "solo-dice"
    title = "Solo Dice"
    rules_version = "1"
    rule_text = "004_917d94bb7d3af918.txt"
    notation_help = notation.HELP
    notation_examples = ("6+1 5+5 5", "roll 6 1 5 5 5")
    Options = Options
    min_players = 1
    max_players = 1
    command_types = (Roll, Choose)
    event_types = (Rolled, PairsChosen)
    mutators = MUTATORS

    def setup(self, options: Any, players: tuple[str, ...]) -> State:
        return State(player=players[0])

    def to_act(self, state: State) -> str | None:
        if state.over:
            return None
        return CHANCE if state.roll is None else state.player

    def decide(self, state: State, command: Command) -> tuple[Event, ...]:
        if state.over:
            raise IllegalCommand("the game is over")
        if isinstance(command, Roll):
            return rules.decide_roll(state, command)
        if isinstance(command, Choose):
            return rules.decide_choose(state, command)
        raise IllegalCommand(f"Solo Dice has no command {type(command).__name__}")

    def legal_commands(self, state: State) -> tuple[Command, ...] | None:
        if state.over:
            return ()
        if state.roll is None:
            return None  # chance: any of the 6**5 rolls
        return rules.legal_choices(state)

    def chance_forms(self, state: State) -> tuple[str, ...]:
        return ("roll A B C D E: the five dice as rolled, each 1-6; e.g. roll 3 1 6 2 5",)

    def player_choices(self, state: State, actor: str) -> Choices:
        return rules.choices(state, actor)

    def chance_choices(self, state: State) -> tuple[Form, ...]:
        return rules.chance_choices(state)

    def chance_command(self, state: State, draw: SeededDraw) -> Roll:
        return Roll(draw.dice(5))

    def score(self, state: State) -> ScoreSheet:
        return scoring.score(state)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        total = self.score(state).total(state.player)
        return Outcome(
            winner=None,
            ranking=(state.player,),
            reason=(
                f"the {state.ended_by} was set aside as leftover die for the {ENDING_MARK}th time "
                f"({text.END}); final score {total}"
            ),
            result="scored",  # a score solitaire: "You have scored ... The total is ..." (004, the worked example)
        )

    def ending(self, state: State) -> str | None:
        return None if not state.over else f"a leftover die was set aside for the {ENDING_MARK}th time"

    def parse(self, text_: str, state: Any = None) -> Command:
        return notation.parse(text_)

    def format(self, command: Command) -> str:
        return notation.format(command)  # only its own commands reach it

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def describe_event(self, event: Event) -> str:
        return words.record(event)

    def command_words(self, command: Command, state: Any = None) -> str:
        return words.command(command, state)

