"""The ``mcts`` bot's search: OpenSpiel's MCTS (``open_spiel/python/algorithms/mcts.py``) on a game whose
states hide nothing, its information-set MCTS (``ismcts.py``) with ``seat.resample`` as the resampler
on one that hides something. Leaves are valued by ``ScoreEvaluator``: a few random moves, then the
score (``seat.heuristic``), as a random roll-out to the end of a Solari game (thousands of partial
moves) is far too long. Where a game's settings say ``policy=sampler`` (Solarius Mission, docs/ai.md
"Per-game settings") the roll-outs are the game's own random player (``Game.sample_command``), the
prior is that player's choices, and the information-set tree widens progressively in the prior's
order (``WideningISMCTSBot``) instead of trying every action once before any twice."""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from solrec.core.errors import SolrecError
from solrec.core.game import CHANCE, Command
from solrec.core.words import quoted

from .contract import BotError, BotSpec, Decision, defaults
from .seat import heuristics, resample
from .spiel import SolrecState, game_for
from .table import Position, Table


class ScoreEvaluator(mcts.Evaluator):
    """``rollout`` random moves from a leaf (chance drawn as it falls), then every seat's
    ``heuristic``: the returns at the end, the score so far before it. The prior is uniform."""

    def __init__(self, table: Table, rollout: int, rng: np.random.RandomState):
        self.table = table
        self.rollout = rollout
        self.rng = rng

    def _draw(self, n: int) -> int:
        return int(self.rng.randint(n))

    def _next(self, position: Position) -> Position:
        """One roll-out move: a legal action drawn uniformly."""
        legal = list(self.table.legal(position).values())
        return self.table.play(position, legal[self._draw(len(legal))])

    def evaluate(self, state: SolrecState) -> np.ndarray:
        table, position = self.table, state.position
        moves = 0
        while moves < self.rollout:
            outlook = table.to_act(position)
            if outlook.actor is None:
                break
            if outlook.actor == CHANCE:
                position = table.draw(position, self._draw(outlook.outcomes))
                continue
            position = self._next(position)
            moves += 1
        return np.array(heuristics(table, position))

    def prior(self, state: SolrecState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class SamplerEvaluator(ScoreEvaluator):
    """``rollout`` commands of the game's own random player (``Game.sample_command``: purposeful
    where a uniform legal action is not), chance drawn as it falls, then every seat's ``heuristic``.
    The prior: the share of ``PRIOR_DRAWS`` draws of that player that give each legal action (its
    commands by the action numbering; one that is not numbered, e.g. an exchange of many cubes, gives
    none), every legal action kept above zero."""

    PRIOR_DRAWS = 6
    FLOOR = 0.1  # the draws an action none of the draws gave counts as

    def __init__(self, table: Table, rollout: int, rng: random.Random):
        self.table = table
        self.rollout = rollout
        self.draws = rng

    def _command(self, position: Position) -> Command:
        return self.table.game.sample_command(position.state, self.draws)

    def _draw(self, n: int) -> int:
        return self.draws.randrange(n)

    def _next(self, position: Position) -> Position:
        try:
            return self.table.play(position, self._command(position))
        except (SolrecError, IndexError, NotImplementedError):
            # the sampler is the game's simulated player, legal by its tests; should it ever fail, a
            # legal action keeps the roll-out (and a long benchmark) going
            return super()._next(position)

    def prior(self, state: SolrecState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = self.table.legal(state.position)
        counts = dict.fromkeys(legal, self.FLOOR)
        for _ in range(self.PRIOR_DRAWS):
            try:
                action = self.table.codec.action(self._command(state.position))
            except KeyError:
                continue
            if action in counts:
                counts[action] += 1.0
        total = sum(counts.values())
        return [(a, k / total) for a, k in counts.items()]


class WideningISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's information-set MCTS, widened progressively: a node visited ``n`` times has at most
    ``ceil(widening * sqrt(n + 1))`` children, added in the order of the prior (the most likely
    first, ties by action id), where OpenSpiel's adds every legal action, in a random order, before
    it chooses by UCT among them (``check_expand``)."""

    def __init__(self, *args: Any, widening: float, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._widening = widening

    def check_expand(self, node: Any, legal_actions: list[int]) -> int:
        if len(node.child_info) >= len(legal_actions):
            return pyspiel.INVALID_ACTION
        if node.child_info and len(node.child_info) >= math.ceil(self._widening * math.sqrt(node.total_visits + 1)):
            return pyspiel.INVALID_ACTION
        fresh = [a for a in legal_actions if a not in node.child_info]
        return max(fresh, key=lambda a: (node.prior_map.get(a, 0.0), -a))


def _seed32(seed: int, what: str) -> int:
    return int.from_bytes(hashlib.sha256(f"solrec-bot:mcts:{what}:{seed}".encode()).digest()[:4], "big")


def search(spec: BotSpec, table: Table, position: Position, seat: str, seed: int, legal: dict[int, Command]) -> Decision:
    settings = defaults("mcts", table.game.id)
    simulations = max(1, int(spec.get("simulations", settings["simulations"])))
    rollout = int(spec.get("rollout", settings["rollout"]))
    uct = float(spec.get("uct", settings["uct"]))
    policy = str(spec.get("policy", settings["policy"]))
    widening = float(spec.get("widening", settings["widening"]))
    game = game_for(table)
    evaluator: ScoreEvaluator
    if policy == "sampler":
        evaluator = SamplerEvaluator(table, rollout, random.Random(f"solrec-bot:mcts:rollout:{seed}"))
    elif policy == "random":
        evaluator = ScoreEvaluator(table, rollout, np.random.RandomState(_seed32(seed, "rollout")))
    else:
        raise BotError(f"bot mcts: policy is random or sampler, not {quoted(policy)}")
    picker = random.Random(f"solrec-bot:mcts:pick:{seed}")
    values: dict[int, float]
    if not table.game.hidden_information:
        bot = mcts.MCTSBot(game, uct, simulations, evaluator, solve=False,
                           random_state=np.random.RandomState(_seed32(seed, "tree")))
        root = bot.mcts_search(SolrecState(game, position))
        visits = {c.action: c.explore_count for c in root.children}
        values = {c.action: c.total_reward / c.explore_count for c in root.children if c.explore_count}
    else:
        rng = random.Random(f"solrec-bot:mcts:resample:{seed}")
        player = table.players.index(seat)

        def resampler(state: Any, current: int) -> SolrecState:
            return SolrecState(game, resample(table, state.position, table.players[current], rng))

        tree = np.random.RandomState(_seed32(seed, "tree"))
        if widening > 0:
            bot = WideningISMCTSBot(game, evaluator, uct, simulations, random_state=tree, widening=widening)
        else:
            bot = ismcts.ISMCTSBot(game, evaluator, uct, simulations, random_state=tree)
        bot.set_resampler(resampler)
        root_state = SolrecState(game, resample(table, position, seat, rng))
        assert root_state.current_player() == player
        bot.run_search(root_state)
        children = bot._root_node.child_info
        visits = {a: c.visits for a, c in children.items()}
        values = {a: c.return_sum / c.visits for a, c in children.items() if c.visits}
    most = max(visits.values())
    top = sorted(a for a, v in visits.items() if v == most)
    best = max(values.get(a, -2.0) for a in top)
    action = picker.choice([a for a in top if values.get(a, -2.0) == best])
    return Decision(action, legal[action], values.get(action, 0.0), tuple(sorted(values.items())))
