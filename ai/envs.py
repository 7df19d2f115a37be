"""The five games as PettingZoo AEC environments, the two solitaires also as Gymnasium environments
(docs/ai.md).

An agent is a seat (its player's name). An observation is a dict: ``observation``, the seat's
observation (``Table.observation_string``: the game's per-seat observation as JSON, ASCII) as UTF-8
bytes, zero-padded to the game's ``observation_bytes`` (its ``BotHooks``); and ``action_mask``, 1 for
each legal action of the seat when it is to act (all 0 otherwise). Actions are the game's fixed
numbering (``core/actions.py``, each game's in its ``bots.py``).
Chance is drawn from the environment's generator (``np_random``, seeded by ``reset(seed=...)``), one
uniform draw per chance outcome (``table.py``): the same seed plays the same game. Rewards: the
returns of ``Table.returns`` at the end, 0 before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from solrec.core.game import CHANCE

from .table import Position, Table


def observation_bytes(table: Table, position: Position, seat: str) -> np.ndarray:
    data = table.observation_string(position, seat).encode("ascii", "backslashreplace")
    size = table.hooks.observation_bytes
    if len(data) > size:
        raise ValueError(f"{table.game.id}: an observation of {len(data):,} bytes is over its {size:,}")
    out = np.zeros(size, np.uint8)
    out[: len(data)] = np.frombuffer(data, np.uint8)
    return out


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    n = table.codec.size
    observation = spaces.Dict({
        "observation": spaces.Box(0, 255, (table.hooks.observation_bytes,), np.uint8),
        "action_mask": spaces.Box(0, 1, (n,), np.int8),
    })
    return observation, spaces.Discrete(n)


def _draw_chance(table: Table, position: Position, rng: np.random.Generator) -> Position:
    while (outlook := table.to_act(position)).actor == CHANCE:
        position = table.draw(position, int(rng.integers(outlook.outcomes)))
    return position


class SolrecAEC(AECEnv):
    """A solrec game as a PettingZoo AEC environment (``make_env``)."""

    metadata = {"render_modes": ["ansi"], "name": "solrec_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, options: dict[str, Any] | None = None, players: Sequence[str] | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.table = Table(game_id, options, players)
        self.metadata = {**self.metadata, "name": f"solrec_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = list(self.table.players)
        observation, action = _spaces(self.table)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.render_mode = render_mode
        self._rng, _ = seeding.np_random(None)
        self.position = self.table.initial()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
        self.position = _draw_chance(self.table, self.table.initial(), self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._actor()

    def _actor(self) -> str:
        actor = self.table.to_act(self.position).actor
        return actor if actor is not None else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.table.codec.size, np.int8)
        if self.table.to_act(self.position).actor == agent:
            mask[list(self.table.legal(self.position))] = 1
        return {"observation": observation_bytes(self.table, self.position, agent), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.table.legal(self.position)
        if action is None or int(action) not in legal:
            raise ValueError(f"{action} is not a legal action of {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.position = _draw_chance(self.table, self.table.play(self.position, legal[int(action)]), self._rng)
        if self.table.over(self.position):
            self.rewards = dict(zip(self.agents, self.table.returns(self.position)))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self.agent_selection = self._actor()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render mode")
            return None
        return self.table.game.render(self.position.state)

    def close(self) -> None:
        pass


def make_env(game_id: str, options: dict[str, Any] | None = None, players: Sequence[str] | None = None,
             render_mode: str | None = None) -> SolrecAEC:
    return SolrecAEC(game_id, options, players, render_mode)


class SolrecSolitaire(gymnasium.Env):
    """A one-player solrec game (Solo Dice, Solar Solitaire, SOLI2's solitaires) as a Gymnasium
    environment. An illegal action leaves the position as it is, with reward 0 and ``info["illegal"]``
    (the legal ones are ``observation["action_mask"]``)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, options: dict[str, Any] | None = None, render_mode: str | None = None):
        self.table = Table(game_id, options)
        if len(self.table.players) != 1:
            raise ValueError(f"{game_id} with these options is not a one-player game")
        self.seat = self.table.players[0]
        self.observation_space, self.action_space = _spaces(self.table)
        self.render_mode = render_mode
        self.position = self.table.initial()

    def _observe(self) -> dict[str, np.ndarray]:
        mask = np.zeros(self.table.codec.size, np.int8)
        if not self.table.over(self.position):
            mask[list(self.table.legal(self.position))] = 1
        return {"observation": observation_bytes(self.table, self.position, self.seat), "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        self.position = _draw_chance(self.table, self.table.initial(), self.np_random)
        return self._observe(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        legal = self.table.legal(self.position)
        if self.table.over(self.position) or int(action) not in legal:
            return self._observe(), 0.0, self.table.over(self.position), False, {"illegal": True}
        self.position = _draw_chance(self.table, self.table.play(self.position, legal[int(action)]), self.np_random)
        over = self.table.over(self.position)
        reward = self.table.returns(self.position)[0] if over else 0.0
        return self._observe(), float(reward), over, False, {}

    def render(self) -> str | None:
        return self.table.game.render(self.position.state) if self.render_mode == "ansi" else None
