"""The ``mcts`` bot's search: OpenSpiel's MCTS (``open_spiel/python/algorithms/mcts.py``) on a game whose
states hide nothing, its information-set MCTS (``ismcts.py``) with ``bots.resample`` as the resampler
on one that hides something. Leaves are valued by ``ScoreEvaluator``: a few random moves, then the
score (``bots.heuristic``), as a random roll-out to the end of a Solari game (thousands of partial
moves) is far too long."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from solrec.core.game import CHANCE, Command

from .bots import SETTINGS, BotSpec, Decision, heuristics, resample
from .spiel import SolrecState, game_for
from .table import Position, Table


class ScoreEvaluator(mcts.Evaluator):
    """``rollout`` random moves from a leaf (chance drawn as it falls), then every seat's
    ``heuristic``: the returns at the end, the score so far before it. The prior is uniform."""

    def __init__(self, table: Table, rollout: int, rng: np.random.RandomState):
        self.table = table
        self.rollout = rollout
        self.rng = rng

    def evaluate(self, state: SolrecState) -> np.ndarray:
        table, position = self.table, state.position
        moves = 0
        while moves < self.rollout:
            outlook = table.to_act(position)
            if outlook.actor is None:
                break
            if outlook.actor == CHANCE:
                position = table.draw(position, int(self.rng.randint(outlook.outcomes)))
                continue
            legal = list(table.legal(position).values())
            position = table.play(position, legal[int(self.rng.randint(len(legal)))])
            moves += 1
        return np.array(heuristics(table, position))

    def prior(self, state: SolrecState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _seed32(seed: int, what: str) -> int:
    return int.from_bytes(hashlib.sha256(f"solrec-bot:mcts:{what}:{seed}".encode()).digest()[:4], "big")


def search(spec: BotSpec, table: Table, position: Position, seat: str, seed: int, legal: dict[int, Command]) -> Decision:
    defaults = SETTINGS["mcts"]
    simulations = max(1, int(spec.get("simulations", defaults["simulations"])))
    rollout = int(spec.get("rollout", defaults["rollout"]))
    uct = float(spec.get("uct", defaults["uct"]))
    game = game_for(table)
    evaluator = ScoreEvaluator(table, rollout, np.random.RandomState(_seed32(seed, "rollout")))
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

        bot = ismcts.ISMCTSBot(game, evaluator, uct, simulations, random_state=np.random.RandomState(_seed32(seed, "tree")))
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
