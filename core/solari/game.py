"""Solari bound to the kernel's game contract."""

from __future__ import annotations

from typing import Any

from ..chance import SeededDraw
from ..errors import IllegalCommand, InvalidSetup
from ..game import CHANCE, Choices, Command, Event, Form, Game, Outcome, ScoreLine, ScoreSheet
from ..observe import Observation
from ..words import quoted
from . import notation, rules, text, words
from .board import SIDES, name
from .commands import Deal, Domino, Enter, Place, Roll, Step, Turn
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .layout import house_layout, parse_layout
from .state import DOMINOES, FOLDS, Options, State
from .state import Options as SolariOptions

DEFAULT_SIDES = {2: ("Uranus", "Saturn"), 3: ("Uranus", "Neptune", "Saturn"), 4: ("Uranus", "Saturn", "Neptune", "Jupiter")}


def sides_of(options: Options, players: tuple[str, ...]) -> tuple[str, ...]:
    if not options.sides.strip():
        return DEFAULT_SIDES[len(players)]
    out = []
    for word in options.sides.split(","):
        word = word.strip()
        match = [s for s in SIDES if word.lower() in (s.lower(), s[0].lower())]
        if not match:
            raise InvalidSetup(f"option sides: {quoted(word)} is not Uranus, Neptune, Saturn or Jupiter")
        out.append(match[0])
    if len(set(out)) != len(out):
        raise InvalidSetup("option sides names a side twice")
    if len(out) != len(players):
        raise InvalidSetup(f"option sides names {len(out)} sides for {len(players)} players")
    return tuple(out)


def start_board(options: Options, sides: tuple[str, ...]):
    if options.layout.strip():
        return parse_layout(options.layout)
    return house_layout(sides, options.chasers, options.blockers, options.doublers)


class Solari(Game):
    id = "solari"
    title = "Solari"
    rules_version = "2"  # 2: a changed row scores whole; a shrinking row is diminished (issue 9)
    rule_text = "000_704bd94e3262071f.txt"
    notation_help = notation.HELP
    notation_examples = ("25-55", "domino 3-5")
    Options = Options
    min_players = 2
    max_players = 4
    command_types = (Roll, Turn, Deal, Domino, Step, Place, Enter)
    event_types = (
        Dealt, NumbersSet, Stepped, Entered, ReentryPostponed, Judged, Placed, Forfeited, NumberLost, MoveScored, GameEnded,
        SetAside,
    )
    mutators = FOLDS

    def check_options(self, options: SolariOptions, players: tuple[str, ...]) -> None:
        sides = sides_of(options, players)
        if options.teams and len(players) != 4:
            raise InvalidSetup(f"teams are two against two: 4 players, not {len(players)} ({text.TEAMS})")
        if options.target < 0 or options.moves < 0:
            raise InvalidSetup("target and moves are 0 (none) or more")
        if options.target == 0 and options.moves == 0 and options.source == "dice":
            raise InvalidSetup("with dice the game needs a target or a number of moves to end")
        if options.layout.strip():
            board = parse_layout(options.layout)
            off = {"chaser": not options.chasers, "blocker": not options.blockers, "doubler": not options.doublers}
            for sq, p in board:
                if p.side not in sides:
                    raise InvalidSetup(f"layout: {p.side} does not play (sides: {', '.join(sides)}), but stands on {name(sq)}")
                if off.get(p.kind):
                    raise InvalidSetup(f"layout: {p.kind}s are off in this game, but one stands on {name(sq)}")

    def setup(self, options: SolariOptions, players: tuple[str, ...]) -> State:
        sides = sides_of(options, players)
        n = len(players)
        return State(
            opts=options, players=tuple(players), sides=sides, board=start_board(options, sides),
            moves_made=(0,) * n, dealt=((),) * n, played=((),) * n,
        )

    def to_act(self, state: State) -> str | None:
        ph = rules.phase(state)
        if ph == "over":
            return None
        if ph == "deal":
            return CHANCE
        if ph == "numbers" and state.opts.source in ("dice", "dominoes-hidden"):
            return CHANCE
        return state.player

    def decide(self, state: State, command: Command) -> tuple[Event, ...]:
        if state.over:
            raise IllegalCommand("the game is over")
        return rules.decide(state, command)

    def legal_commands(self, state: State):
        return rules.legal_commands(state)

    def sample_command(self, state: State, rng: Any) -> Command:
        legal = self.legal_commands(state)
        if not legal:
            raise NotImplementedError(f"solari: nothing to sample in phase {rules.phase(state)}")
        return legal[rng.randrange(len(legal))]

    def chance_forms(self, state: State) -> tuple[str, ...]:
        if rules.phase(state) == "deal":
            side = next(s for s, d in zip(state.sides, state.dealt) if not d)
            return (f"deal {side} A-B ...: {side}'s 21 dominoes in their order, each once; "
                    f"e.g. deal {side} " + " ".join(f"{a}-{b}" for a, b in DOMINOES),)
        if state.opts.source == "dominoes-hidden":
            played = state.played[state.turn]
            a, b = next(d for d in DOMINOES if d not in played)
            return (f"turn A-B: the mover's next domino turned face up, one not played yet; e.g. turn {a}-{b}",)
        return ("roll A B: the two dice as rolled, each 1-6; e.g. roll 3 5",)

    def player_choices(self, state: State, actor: str) -> Choices:
        return rules.choices(state, actor)

    def chance_choices(self, state: State) -> tuple[Form, ...]:
        return rules.chance_choices(state)

    def chance_command(self, state: State, draw: SeededDraw) -> Command:
        ph = rules.phase(state)
        if ph == "deal":
            side = next(s for s, d in zip(state.sides, state.dealt) if not d)
            return Deal(side, draw.shuffled(DOMINOES))
        if state.opts.source == "dominoes-hidden":
            played = state.played[state.turn]
            return Turn(draw.choice([d for d in DOMINOES if d not in played]))
        return Roll((draw.die(), draw.die()))

    # -- reading ---------------------------------------------------------------------------
    def score(self, state: State) -> ScoreSheet:
        lines = []
        for move in state.scored:
            if not move.units:
                continue  # a move that scored nothing has no line (and its player need not be looked up)
            player = state.player_of(move.side)
            for u in move.units:
                squares = " ".join(name(s) for s in u.squares)
                doubled = f", doubled to {u.points}" if u.doubled else ""
                what = (
                    f"move {move.side} #{move.move_no}: {'full' if u.full else 'partial'} {u.kind} on {squares}, "
                    f"table value {u.value}{doubled}: {u.why}"
                )
                lines.append(ScoreLine(player, u.points, what, u.rule))
        sheet = ScoreSheet.from_lines(state.players, lines)
        if state.opts.teams:
            tot = rules.totals(state)
            sheet = ScoreSheet(sheet.lines, tuple((p, tot[s]) for p, s in zip(state.players, state.sides)))
        return sheet

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        tot = rules.totals(state)
        ranking = tuple(sorted(state.players, key=lambda p: (-tot[state.sides[state.players.index(p)]], state.players.index(p))))
        best = tot[state.sides[state.players.index(ranking[0])]]
        leaders = [p for p in state.players if tot[state.sides[state.players.index(p)]] == best]
        team_won = state.opts.teams and len(leaders) == 2 and rules.team_of(state, state.sides[state.players.index(leaders[0])]) == rules.team_of(state, state.sides[state.players.index(leaders[1])])
        if len(leaders) == 1 or team_won:
            winners = tuple(leaders)  # partners share one score and win together
        else:
            winners = ()
        scores = ", ".join(f"{p} {tot[s]}" for p, s in zip(state.players, state.sides))
        result = f"{' and '.join(winners)} win{'' if len(winners) > 1 else 's'}" if winners else "a draw"
        return Outcome(
            winner=winners[0] if winners else None,
            ranking=ranking,
            reason=f"{state.ended}; {scores}: {result}",
            winners=winners,
        )

    def ending(self, state: State) -> str | None:
        # the ways rules.end_reason ends a game, without the side and the points
        if not state.over:
            return None
        ended = state.ended or ""
        if " reached " in ended:
            return "a side reached the target"
        if ended.startswith("every player made"):
            return "every player made the agreed number of moves"
        if ended.startswith("the dominoes ran out"):
            return "the dominoes ran out"
        return ended.split(" (")[0]

    def parse(self, text_: str, state: Any = None) -> Command:
        return notation.parse(text_, state)

    def format(self, command: Command) -> str:
        return notation.format(command)

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def describe_event(self, event: Event) -> str:
        return words.record(event)

    def command_words(self, command: Command, state: Any = None) -> str:
        return words.command(command, state)
