"""Bots: one contract (``contract.py``), four kinds (docs/ai.md, "Bots"): ``random``, ``greedy``,
``mcts`` here, the learned ``policy`` in ``policy.py``.

``make_bot("KIND[:KEY=VALUE,...]").decide(table, position, seat, seed)`` gives a ``Decision``: the
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

import random
from collections.abc import Callable

from solrec.core.game import CHANCE, Command

from .contract import SETTINGS, Bot, BotError, BotSpec, Decision, parse_bot
from .seat import heuristic, look, resample
from .table import Position, Table


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
        values = {a: heuristic(table, look(table, here, c), seat) for a, c in legal.items()}
        best = max(values.values())
        action = rng.choice([a for a, v in values.items() if v == best])
        return Decision(action, legal[action], best, tuple(values.items()))


class MctsBot(Bot):
    """OpenSpiel's MCTS (perfect information) or information-set MCTS with ``resample`` (hidden
    information); the leaves valued by ``rollout`` random moves, then ``heuristic``. A game with a deal
    solver (``BotHooks.solver``: Solar Solitaire): the solver on ``samples`` worlds drawn from what the
    player sees (``SolverBot``), or with ``search=ismcts`` the information-set MCTS."""

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        if len(legal) == 1:
            (action, command), = legal.items()
            return Decision(action, command, heuristic(table, position, seat), ((action, heuristic(table, position, seat)),))
        if table.hooks.solver is not None and self.spec.get("search", "solver") != "ismcts":
            return SolverBot(self.spec).decide(table, position, seat, seed)
        from .search import search

        return search(self.spec, table, position, seat, seed, legal)


class SolverBot(Bot):
    """Perfect-information Monte Carlo with the game's deal solver (``BotHooks.solver``: Solar
    Solitaire's). ``samples`` worlds are drawn from what the player has not seen (``resample``: Solar
    Solitaire's stock); the solver (at most ``budget`` positions) searches each; the first command of
    each winning line is a vote. The bot plays the most voted action (ties by the greedy value, then a
    draw from the seed); where no sample is found winnable, the greedy move. The estimate is the share of samples found winnable, on the
    return scale (2 x share - 1); an action's value the same share among the samples whose line starts
    with it."""

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        rng = random.Random(f"solrec-bot:mcts:{seed}")
        samples = max(1, int(self.spec.get("samples", SETTINGS["mcts"]["samples"])))
        budget = int(self.spec.get("budget", SETTINGS["mcts"]["budget"]))
        solver = table.hooks.solver
        assert solver is not None
        votes = dict.fromkeys(legal, 0)
        for _ in range(samples):
            world = resample(table, position, seat, rng)
            line = solver.line(world.state, budget)
            if line:
                try:
                    action = table.codec.action(table.game.parse(line[0], world.state))
                except (KeyError, ValueError):
                    continue
                if action in votes:
                    votes[action] += 1
        greedy = {a: heuristic(table, look(table, position, c), seat) for a, c in legal.items()}
        # a free move back to a position the player saw since the last card turned or played is a
        # detour (whatever it leads to was reachable then): never played, so votes cannot cycle
        seen = _seen_since_progress(table, position, seat, solver.free)
        back = {a for a, c in legal.items() if table.observation_string(look(table, position, c), seat) in seen}
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


def _seen_since_progress(table: Table, position: Position, seat: str, free: Callable[[Command], bool]) -> set[str]:
    """What the seat saw at each position since the last command that was not a free move (a card
    turned or played: progress), this one included."""
    seen: set[str] = set()
    p: Position | None = position
    while p is not None:
        seen.add(table.observation_string(p, seat))
        if p.command is None or not free(p.command):
            break
        p = p.parent
    return seen


def _policy(spec: BotSpec) -> Bot:
    from .policy import PolicyBot  # numpy and the model file only when a learned bot plays

    return PolicyBot(spec)


MAKERS: dict[str, Callable[[BotSpec], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot,
                                               "policy": _policy}


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
