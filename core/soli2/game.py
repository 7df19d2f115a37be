"""SOLI2 bound to the kernel's game contract."""

from __future__ import annotations

from typing import Any

import attrs

from ..chance import SeededDraw
from ..errors import IllegalCommand, InvalidSetup
from ..game import CHANCE, Choices, Command, Event, Form, Game, Outcome, ScoreSheet
from ..observe import Observation
from ..options import option
from . import board as B
from . import notation, rules, scoring, text, words
from .commands import Draw, Jump, Pass, Place
from .events import Drawn, Ended, Jumped, Passed, Placed
from .state import (
    DUEL,
    FILLING,
    FILLS,
    MODES,
    MUTATORS,
    OBJECTIVES,
    POUCH,
    STANDARD,
    State,
    setup,
)


@attrs.frozen
class Options:
    mode: str = option(
        DUEL,
        "duel: two players, black (first listed) and white; classic-solitaire: one player, all marbles "
        "on the board, colors ignored; soli2-solitaire: one player, the pouch fills the pockets in order, "
        "jumps only over the opposite color",
        MODES,
        rule=text.OPTION_MODE,
    )
    fill: str = option(
        POUCH,
        "duel only: pouch (draw each marble from the pouch) or pure-skill (each player places 12 black and "
        "12 white marbles of their choice from their channel)",
        FILLS,
        rule=text.OPTION_FILL,
    )
    objective: str = option(
        STANDARD, "duel only: standard (most marbles wins) or give-away (fewest marbles wins)", OBJECTIVES,
        rule=text.OPTION_OBJECTIVE,
    )


class Soli2(Game):
    id = "soli2"
    title = "SOLI2"
    rules_version = "1"
    rule_text = "002_572cc3089f8254a7.txt"
    notation_help = notation.HELP
    notation_examples = ("place d4", "d2-d4")
    Options = Options
    min_players = 1
    max_players = 2
    command_types = (Draw, Place, Jump, Pass)
    event_types = (Drawn, Placed, Jumped, Passed, Ended)
    mutators = MUTATORS

    # -- set-up -----------------------------------------------------------------------------
    def default_players_for(self, options: Any) -> tuple[str, ...]:
        # Black and White are the seats' colours, not names: the first player listed plays black.
        return self.default_players() if options.mode == DUEL else ("Player 1",)

    def check_options(self, options: Any, players: tuple[str, ...]) -> None:
        if options.mode == DUEL:
            if len(players) != 2:
                raise InvalidSetup(
                    f"a SOLI2 duel is played by 2 players, black (listed first) and white, not {len(players)}"
                )
            return
        if len(players) != 1:
            raise InvalidSetup(f"SOLI2 {options.mode} is played by 1 player, not {len(players)}")
        if options.fill != POUCH:
            raise InvalidSetup(
                f"fill={options.fill} is a duel variant: {options.mode} has no channels to choose from"
            )
        if options.objective != STANDARD:
            raise InvalidSetup(
                f"objective={options.objective} is a duel variant: in {options.mode} you try to leave one marble"
            )

    def setup(self, options: Any, players: tuple[str, ...]) -> State:
        return setup(options.mode, options.fill, options.objective, tuple(players))

    # -- play -------------------------------------------------------------------------------
    def to_act(self, state: State) -> str | None:
        if state.over:
            return None
        if state.phase == FILLING and (state.mode != DUEL or (state.fill == POUCH and state.hand is None)):
            return CHANCE
        return state.players[state.turn]

    def decide(self, state: State, command: Command) -> tuple[Event, ...]:
        if state.over:
            raise IllegalCommand("the game is over")
        if isinstance(command, Draw):
            return rules.decide_draw(state, command)
        if isinstance(command, Place):
            return rules.decide_place(state, command)
        if isinstance(command, Jump):
            return rules.decide_jump(state, command)
        if isinstance(command, Pass):
            return rules.decide_pass(state, command)
        raise IllegalCommand(f"SOLI2 has no command {type(command).__name__}")

    def legal_commands(self, state: State) -> tuple[Command, ...] | None:
        if state.over:
            return ()
        if self.to_act(state) == CHANCE:
            return rules.legal_draws(state)
        if state.phase == FILLING:
            return rules.legal_placements(state)
        return rules.legal_jumps(state)

    def chance_forms(self, state: State) -> tuple[str, ...]:
        black, white = state.pouch
        colour = B.BLACK if black else B.WHITE
        return (f"draw COLOUR: the marble drawn from the pouch (black {black}, white {white} in it); e.g. draw {colour}",)

    def player_choices(self, state: State, actor: str) -> Choices:
        return rules.choices(state, actor)

    def chance_choices(self, state: State) -> tuple[Form, ...]:
        return rules.chance_choices(state)

    def chance_command(self, state: State, draw: SeededDraw) -> Draw:
        # Shaking the pouch: every marble in it is equally likely, so a color by its count.
        black, white = state.pouch
        return Draw(B.BLACK if draw.below(black + white) < black else B.WHITE)

    # -- reading ----------------------------------------------------------------------------
    def score(self, state: State) -> ScoreSheet:
        return scoring.score(state)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def ending(self, state: State) -> str | None:
        return scoring.ending(state)

    def parse(self, text_: str, state: Any = None) -> Command:
        return notation.parse(text_)

    def format(self, command: Command) -> str:
        return notation.format(command)  # type: ignore[arg-type]  # only its own commands reach it

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def describe_event(self, event: Event) -> str:
        return words.record(event)

    def command_words(self, command: Command, state: Any = None) -> str:
        return words.command(command, state)

