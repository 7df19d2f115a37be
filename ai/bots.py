"""Bots: one contract, three kinds (docs/ai.md, "Bots").

A bot is named ``KIND[:KEY=VALUE,...]`` (``random``, ``greedy``, ``mcts:simulations=400``), parsed
into a ``BotSpec`` (frozen, picklable: what ``simulate`` records in a header and a balance run ships
to its workers). ``make_bot(spec).decide(table, position, seat, seed)`` gives a ``Decision``: the
command the bot plays for ``seat``, its estimate of the position for that seat (the game's return
scale, -1 to 1) and its value of each legal action it weighed.

Fair: a bot reads a position only through what ``seat`` sees. The legal actions are the seat's own
(it is to act); where the game hides something (``Game.hidden_information``) every search starts from
positions ``resample`` drew from the seat's knowledge alone (the hidden part redrawn from what the
seat knows of it, never read), and draw-less chance (a turned card a shuffle fixed) is not applied
in a bot's look-ahead on the true position. A bot is deterministic given its seed: every random
number it uses comes from ``seed``. Tested: two positions a seat cannot tell apart, the same seed,
the same move (tests/ai/test_bots.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import attrs

from solrec.core.game import CHANCE, Command

from .table import Position, Table, solitaire_return

KINDS = ("random", "greedy", "mcts")


class BotError(ValueError):
    pass


@attrs.frozen
class BotSpec:
    """A bot's kind and settings, as ``KIND[:KEY=VALUE,...]`` spells it (settings sorted by name)."""

    kind: str
    settings: tuple[tuple[str, int | float | str], ...] = ()

    def __str__(self) -> str:
        if not self.settings:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.settings)

    def get(self, name: str, default: Any) -> Any:
        return dict(self.settings).get(name, default)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "settings": dict(self.settings)}


# The settings each kind takes, with their defaults (the default strength of docs/ai.md).
SETTINGS: dict[str, dict[str, int | float | str]] = {
    "random": {},
    "greedy": {},
    "mcts": {"simulations": 120, "rollout": 8, "uct": 1.4, "samples": 6, "budget": 3_000, "search": "solver",
             "policy": "random", "widening": 0.0},
}

# A game's own defaults where the common ones do not suit it (docs/ai.md, "Per-game settings"): Solarius
# Mission's random roll-outs are nonsense (most of its ~40 actions are resource exchanges) and its
# positions dear to enumerate, so its search plays the game's own sampler in roll-outs, takes the
# sampler's choices as its prior and widens the tree in their order, on fewer simulations.
GAME_SETTINGS: dict[str, dict[str, dict[str, int | float | str]]] = {
    "solarius-mission": {"mcts": {"simulations": 20, "rollout": 6, "uct": 1.0, "policy": "sampler", "widening": 1.0}},
}


CHOICES = {"policy": ("random", "sampler")}  # the roll-out policy: uniform legal actions, or the game's sampler


def defaults(kind: str, game_id: str) -> dict[str, int | float | str]:
    """The settings a bot of ``kind`` takes where its spec names none, for ``game_id``."""
    return {**SETTINGS[kind], **GAME_SETTINGS.get(game_id, {}).get(kind, {})}


def parse_bot(text: str) -> BotSpec:
    """``KIND[:KEY=VALUE,...]`` -> BotSpec (BotError, one line, for anything else)."""
    kind, _, rest = text.strip().partition(":")
    if kind not in KINDS:
        raise BotError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")
    known = SETTINGS[kind]
    settings: dict[str, int | float | str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in known:
            allowed = ", ".join(known) or "none"
            raise BotError(f"bot {kind}: {part!r} is not KEY=VALUE with a known key (keys: {allowed})")
        default = known[key]
        try:
            settings[key] = type(default)(value.strip())
        except ValueError:
            raise BotError(f"bot {kind}: {key} is a {type(default).__name__}, not {value.strip()!r}") from None
        if key in CHOICES and settings[key] not in CHOICES[key]:
            raise BotError(f"bot {kind}: {key} is one of {', '.join(CHOICES[key])}, not {value.strip()!r}")
        number = settings[key]
        if isinstance(number, (int, float)) and number < 0:
            raise BotError(f"bot {kind}: {key} may not be negative")
    return BotSpec(kind, tuple(sorted(settings.items())))


@attrs.frozen
class Decision:
    """What a bot plays for a seat: the action and its command, the estimate of the position for the
    seat (-1 to 1, the game's return scale), and the value of each legal action it weighed."""

    action: int
    command: Command
    estimate: float
    values: tuple[tuple[int, float], ...] = ()

    def value_of(self, action: int) -> float | None:
        return dict(self.values).get(action)


# -- what a seat may use ----------------------------------------------------------------------------------
def resample(table: Table, position: Position, seat: str, rng: random.Random) -> Position:
    """A position the seat cannot tell from ``position``, its hidden part drawn from what the seat
    knows (docs/ai.md, "Resampling"): the game's ``hidden_information`` redrawn, the history kept.
    Solar Solitaire: the face-down stock is the cards the player has not seen (the deck less every
    card in sight), in an order drawn at random."""
    game = table.game
    if not game.hidden_information:
        return position
    if game.id == "solar-solitaire":
        state = position.state
        if not state.stock:
            return position
        unseen = sorted(state.stock)  # the deck less the cards in sight: a set the player can count
        rng.shuffle(unseen)
        return attrs.evolve(position, state=attrs.evolve(state, stock=tuple(unseen)), cache={})
    if game.id == "solarius-mission":
        from .mission import resample as resample_mission

        return attrs.evolve(position, state=resample_mission(position.state, seat, rng), cache={})
    raise BotError(f"{game.id}: no resampler")


def heuristic(table: Table, position: Position, seat: str) -> float:
    """A position's value for ``seat`` on the return scale, from the score so far: the return at the
    end; for a solitaire its normalised score; else the seat's lead over the best other player,
    squashed (tanh of the lead over the game's ``LEAD_SCALE``)."""
    if table.over(position):
        return table.returns(position)[table.players.index(seat)]
    scores = table.scores(position)
    if len(table.players) == 1:
        return solitaire_return(table.game.id, "", scores[seat]) * 0.99
    lead = scores[seat] - max(v for p, v in scores.items() if p != seat)
    return math.tanh(lead / LEAD_SCALE.get(table.game.id, 10.0)) * 0.99


LEAD_SCALE = {"solari": 12.0, "soli2": 4.0, "solarius-mission": 10.0}


def heuristics(table: Table, position: Position) -> list[float]:
    return [heuristic(table, position, p) for p in table.players]


def _look(table: Table, position: Position, command: Command) -> Position:
    """The position after ``command``, chance left to act (a bot never sees a draw-less card early)."""
    return table.play(position, command, settle=False)


# -- the kinds ----------------------------------------------------------------------------------------------
class Bot:
    spec: BotSpec

    def __init__(self, spec: BotSpec):
        self.spec = spec

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        raise NotImplementedError

    @staticmethod
    def _legal(table: Table, position: Position, seat: str) -> dict[int, Command]:
        if table.to_act(position).actor != seat:
            raise BotError(f"{seat} is not to act")
        legal = table.legal(position)
        if not legal:
            raise BotError("no legal action to choose from")
        return legal


class RandomBot(Bot):
    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        rng = random.Random(f"solrec-bot:random:{seed}")
        action = rng.choice(list(legal))
        return Decision(action, legal[action], 0.0)


class GreedyBot(Bot):
    """The move with the best immediate change of the seat's value (``heuristic``: its score, or its
    lead), ties broken by a draw from the seed."""

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        rng = random.Random(f"solrec-bot:greedy:{seed}")
        here = resample(table, position, seat, rng)
        values = {a: heuristic(table, _look(table, here, c), seat) for a, c in legal.items()}
        best = max(values.values())
        action = rng.choice([a for a, v in values.items() if v == best])
        return Decision(action, legal[action], best, tuple(values.items()))


class MctsBot(Bot):
    """OpenSpiel's MCTS (perfect information) or information-set MCTS with ``resample`` (hidden
    information); the leaves valued by ``rollout`` random moves, then ``heuristic``. Solar Solitaire:
    the deal solver on ``samples`` stocks drawn from what the player sees (``SolverBot``), or with
    ``search=ismcts`` the information-set MCTS."""

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        if len(legal) == 1:
            (action, command), = legal.items()
            return Decision(action, command, heuristic(table, position, seat), ((action, heuristic(table, position, seat)),))
        if table.game.id == "solar-solitaire" and self.spec.get("search", "solver") != "ismcts":
            return SolverBot(self.spec).decide(table, position, seat, seed)
        from .search import search

        return search(self.spec, table, position, seat, seed, legal)


class SolverBot(Bot):
    """Solar Solitaire: perfect-information Monte Carlo with the deal solver. ``samples`` stocks are
    drawn from the cards the player has not seen (``resample``); the solver (``Game.solve``, at most
    ``budget`` positions) searches each; the first command of each winning line is a vote. The bot
    plays the most voted action (ties by the greedy value, then a draw from the seed); where no sample
    is found winnable, the greedy move. The estimate is the share of samples found winnable, on the
    return scale (2 x share - 1); an action's value the same share among the samples whose line starts
    with it."""

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        rng = random.Random(f"solrec-bot:mcts:{seed}")
        samples = max(1, int(self.spec.get("samples", SETTINGS["mcts"]["samples"])))
        budget = int(self.spec.get("budget", SETTINGS["mcts"]["budget"]))
        votes = dict.fromkeys(legal, 0)
        for _ in range(samples):
            world = resample(table, position, seat, rng)
            line = winning_line(world.state, budget)
            if line:
                try:
                    action = table.codec.action(table.game.parse(line[0], world.state))
                except (KeyError, ValueError):
                    continue
                if action in votes:
                    votes[action] += 1
        greedy = {a: heuristic(table, _look(table, position, c), seat) for a, c in legal.items()}
        # a free move back to a position the player saw since the last card turned or played is a
        # detour (whatever it leads to was reachable then): never played, so votes cannot cycle
        seen = _seen_since_progress(table, position, seat)
        back = {a for a, c in legal.items() if table.observation_string(_look(table, position, c), seat) in seen}
        if len(back) < len(legal):
            for a in back:
                votes.pop(a)
        most = max(votes.values())
        top = [a for a, v in votes.items() if v == most]
        best_greedy = max(greedy[a] for a in top)
        action = rng.choice([a for a in top if greedy[a] == best_greedy])
        won = sum(votes.values())
        values = tuple((a, 2 * v / samples - 1) for a, v in votes.items())
        return Decision(action, legal[action], 2 * won / samples - 1 if won else greedy[action], values)


def _seen_since_progress(table: Table, position: Position, seat: str) -> set[str]:
    """What the seat saw at each position since the last command that was not a free move (a card
    turned or played: progress), this one included."""
    from solrec.core.solar_solitaire.commands import Move

    seen: set[str] = set()
    p: Position | None = position
    while p is not None:
        seen.add(table.observation_string(p, seat))
        if p.command is None or not isinstance(p.command, Move):
            break
        p = p.parent
    return seen


def winning_line(state: Any, budget: int) -> tuple[str, ...]:
    """A winning line of a Solar Solitaire position whose stock order is known (a sampled world), or ()
    where none is found: the deal solver's search within ``budget`` positions, then its line's
    detours taken out within a bounded work (``solver.Work``: positions and replays counted, never
    time), so a move's cost is bounded and the same for the same seed (``Game.solve`` shortens without
    a bound: a long line took seconds)."""
    from solrec.core.solar_solitaire import piles, solver
    from solrec.core.solve import WINNABLE

    if state.over or not state.dealt:
        return ()
    deck = bytes(piles.INDEX[c] for c in state.stock)
    found = solver.solve_position(solver.roots_of(state, deck), deck, budget, state.waste_takes_free_moves)
    if found.verdict != WINNABLE or not found.line:
        return ()
    return solver.shortest_line(solver.start_of(state), deck, found.line, state.waste_takes_free_moves, solver.Work())


MAKERS: dict[str, Callable[[BotSpec], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot}


def make_bot(spec: BotSpec | str) -> Bot:
    if isinstance(spec, str):
        spec = parse_bot(spec)
    return MAKERS[spec.kind](spec)


def move_seed(seed: int, moves: int) -> int:
    """The seed of a bot's move: its game's bot seed and the player commands played before it (what
    every seat sees), so a replay of the same game asks the same."""
    import hashlib

    return int.from_bytes(hashlib.sha256(f"solrec-bot-move:{seed}:{moves}".encode()).digest()[:8], "big") >> 1


def play_out(table: Table, position: Position, bots: dict[str, Bot], seed: int, rng: random.Random,
             max_moves: int = 100_000) -> Position:
    """Play a position to its end: each seat by its bot, chance drawn from ``rng``."""
    while True:
        outlook = table.to_act(position)
        if outlook.actor is None:
            return position
        if outlook.actor == CHANCE:
            position = table.draw(position, rng.randrange(outlook.outcomes))
            continue
        if position.moves > max_moves:
            raise BotError("the game did not end")
        decision = bots[outlook.actor].decide(table, position, outlook.actor, move_seed(seed, position.moves))
        position = table.play(position, decision.command)
