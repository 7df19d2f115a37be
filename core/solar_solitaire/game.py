"""Solar Solitaire bound to the kernel's game contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..chance import SeededDraw
from ..errors import IllegalCommand
from ..game import CHANCE, TABLE, Choices, Command, Event, Form, Game, Outcome, ScoreSheet
from ..observe import Observation, Viewer
from ..options import option
from ..solve import LOST, UNKNOWABLE, UNWINNABLE, WON, SolveReport
from . import notation, piles, proof, rules, scoring, solver, text, words
from .cards import ALL_CARDS, ROCKETS
from .commands import Card, Deal, Move, Play, Resign, Shuffle, Turn
from .events import (
    ChoiceWaiting,
    DealRefused,
    Dealt,
    EmergencyOff,
    EmergencyOn,
    Lost,
    Moved,
    Played,
    Resigned,
    Shuffled,
    TurnAsked,
    Turned,
    Wasted,
    Won,
)
from .state import MUTATORS, State

DEFAULT_BUDGET = 200_000
# each command type's rule, looked up once per command decided
_HANDLERS: dict[type, Callable[[State, Any], tuple[Event, ...]]] = {
    Shuffle: rules.decide_shuffle,
    Deal: rules.decide_deal,
    Card: rules.decide_card,
    Turn: rules.decide_turn,
    Play: rules.decide_play,
    Move: rules.decide_move,
    Resign: rules.decide_resign,
}


@attrs.frozen
class SetupOptions:
    own_pad_rocket: str = option(
        "launched",
        "a rocket dealt on its own launch pad: 'launched' (it stands there) or 'redeal' (pick up and deal again)",
        ("launched", "redeal"),
        rule=text.OPTION_OWN_PAD_ROCKET,
    )
    waste_takes_free_moves: str = option(
        "no",
        "may a free move put a card onto the waste heap: 'no' (the waste heap only gives cards) or 'yes'",
        ("no", "yes"),
        rule=text.OPTION_WASTE_FREE_MOVES,
    )


class SolarSolitaire(Game):
    id = "solar-solitaire"
    title = "Solar Solitaire"
    rules_version = "1"
    rule_text = "001_13be5f3641df9817.txt"
    notation_help = notation.HELP
    notation_examples = ("turn", "move waste pad1")
    Options = SetupOptions
    # games recorded before the option existed let free moves put cards onto the waste heap
    upcast_options = {"waste_takes_free_moves": "yes"}
    min_players = 1
    max_players = 1
    command_types = (Shuffle, Deal, Card, Turn, Play, Move, Resign)
    event_types = (
        Shuffled, Dealt, DealRefused, TurnAsked, Turned, Played, Wasted, ChoiceWaiting, Moved,
        EmergencyOn, EmergencyOff, Won, Lost, Resigned,
    )
    mutators = MUTATORS

    def setup(self, options: SetupOptions, players: tuple[str, ...]) -> State:
        return State(
            player=players[0],
            own_pad_rocket=options.own_pad_rocket,
            waste_takes_free_moves=options.waste_takes_free_moves == "yes",
        )

    def to_act(self, state: State) -> str | None:
        if state.over:
            return None
        if not state.dealt or state.asked:
            return CHANCE
        return state.player

    def decide(self, state: State, command: Command) -> tuple[Event, ...]:
        if state.over:
            raise IllegalCommand("the game is over")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise IllegalCommand(f"Solar Solitaire has no command {type(command).__name__}")
        return handler(state, command)

    def legal_commands(self, state: State) -> tuple[Command, ...] | None:
        if state.over:
            return ()
        if not state.dealt or state.asked:
            return None  # chance: a deal, a shuffle or a card
        return rules.legal_commands(state)

    def sample_command(self, state: State, rng: Any) -> Command:
        """A random player who turns often, moves at random, resigns rarely, and once the stock is used
        up follows a rescue the loss search finds half of the time (so simulated games end)."""
        if state.choice:
            return Play(state.choice[rng.randrange(len(state.choice))])
        moves = rules.legal_moves(state)
        if state.stock:
            if rng.random() < 0.0005:
                return Resign()
            if not moves or rng.random() < 0.5:
                return Turn()
            return moves[rng.randrange(len(moves))]
        roll = rng.random()
        if roll < 0.003 or not moves:
            return Resign()
        if roll < 0.9:
            move = proof.next_rescue_move(piles.piles_of(state), state.waste_takes_free_moves)
            return Resign() if move is None else notation.parse(move)
        return moves[rng.randrange(len(moves))]

    def chance_forms(self, state: State) -> tuple[str, ...]:
        if not state.dealt:
            return ("deal P0 P1 P2 P3: the four launch pad cards as dealt, pads 0 to 3; e.g. deal 1-2-3 0-0-1 2-3-2 0-1-1",
                    "shuffle C ...: the whole deck in a known order, top first (40 cards)")
        return ("card C: the stockpile card just turned, one not seen yet; e.g. card 1-2-3",)

    def player_choices(self, state: State, actor: str) -> Choices:
        return rules.choices(state, actor)

    def chance_choices(self, state: State) -> tuple[Form, ...]:
        return rules.chance_choices(state)

    def chance_command(self, state: State, draw: SeededDraw) -> Command:
        if not state.dealt:
            return Shuffle(draw.shuffled(ALL_CARDS))
        # the seeded deck's order is known from its shuffle: the next card is the top of the stock
        return Card(state.stock[0])

    def score(self, state: State) -> ScoreSheet:
        return scoring.score(state)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        standing = [ROCKETS[p] for p in state.rockets_launched]
        stand = f"rockets on their pads: {', '.join(standing) if standing else 'none'}"
        if state.result == "won":
            return Outcome(state.player, (state.player,), f"won: all four rockets stand on their launch pads ({text.WIN})")
        missing = [r for p, r in enumerate(ROCKETS) if p not in state.rockets_launched]
        lying = "; ".join(f"{r}: {rules.where(state, r)}" for r in missing)
        if state.result == "lost":
            how = f"{state.searched} positions searched" if state.searched else "proven without a search"
            why = (
                f"lost: the stockpile is used up and no sequence of moves frees another stranded rocket "
                f"({how}; {text.LOSE})"
            )
        else:
            why = "resigned"
        return Outcome(None, (state.player,), f"{why}. {stand}; stranded: {lying}", result="lost")  # resigning loses too

    def ending(self, state: State) -> str | None:
        if not state.over:
            return None
        if state.result == "won":
            return "won: all four rockets stand on their launch pads"
        if state.result == "lost":
            return "lost: the stockpile is used up and no stranded rocket can be freed"
        return "resigned"

    def parse(self, text_: str, state: Any = None) -> Command:
        return notation.parse(text_)

    def format(self, command: Command) -> str:
        return notation.format(command)

    hidden_information = True  # what each viewer sees: observation.py

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def describe_event(self, event: Event) -> str:
        return words.record(event)

    def command_words(self, command: Command, state: Any = None) -> str:
        return words.command(command, state)

    # -- the solver ---------------------------------------------------------------------------------
    def solve(self, state: State, budget: int = DEFAULT_BUDGET, viewer: Viewer = TABLE) -> SolveReport:
        if state.result == "won":
            return SolveReport(WON, 0, budget, (), "the game is won")
        if state.over:
            return SolveReport(LOST, state.searched, budget, (), f"the game is over ({state.result})")
        if not state.dealt:
            return SolveReport(UNKNOWABLE, 0, budget, (), "the launch pads are not dealt yet")
        if state.stock and not (state.stock_known and viewer.sees_all):  # the order: the referee's alone
            return self._solve_unseen_stock(self.observation.seen(state, viewer), budget)
        deck = bytes(piles.INDEX[c] for c in state.stock)
        result = solver.solve_position(
            solver.roots_of(state, deck), deck, budget, state.waste_takes_free_moves, solver.start_of(state)
        )
        note = (
            "open-information analysis: the solver knows the order of the face-down stockpile"
            if state.stock
            else "the stockpile is used up: nothing is hidden"
        )
        return SolveReport(result.verdict, result.positions, budget, result.line, note)

    def _solve_unseen_stock(self, state: State, budget: int) -> SolveReport:
        """What the player can know with the stock's order unseen (an entered deck's, or a seeded
        deck's not revealed): a loss the cheap proof shows whatever order the stock cards come in
        (the solver's own cut-off, which counts them as free to turn up anywhere), else nothing.
        ``state`` is the player's observation: the stock's size, its cards every card not face up."""
        n = len(state.stock)
        position = piles.piles_of(state)
        at_rest = not state.choice and not state.asked and state.hand is None
        up = {*state.waste, *(c for pile in (*state.pads, *state.stations) for c in pile), state.hand}
        floating = sum(1 << piles.INDEX[c] for c in ALL_CARDS if c not in up)
        if at_rest and piles.emergency(position) and proof.hopeless(
            position, state.waste_takes_free_moves, floating, every=True
        ):
            return SolveReport(
                UNWINNABLE, 0, budget, (),
                f"proven from what the player sees: whatever order the {n} stock cards come in, a stranded "
                "rocket can never reach its launch pad",
            )
        why = (f"the order of the {n} face-down stock cards is hidden from the player" if state.stock_known
               else f"entered deck: the order of the {n} stock cards is unknown")
        known = " (reveal the order for an open-information analysis)" if state.stock_known else ""
        return SolveReport(
            UNKNOWABLE, 0, budget, (),
            f"{why}, so whether the deal can be won cannot be known before the stockpile is used up{known}",
        )

    def survey(
        self, deals: int, seed: int, budget: int = DEFAULT_BUDGET, progress: Callable[[int], None] | None = None
    ) -> dict:
        return solver.survey(self, deals, seed, budget, progress)
