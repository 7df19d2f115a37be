"""The five games as PettingZoo AEC environments, the one-player games also as Gymnasium environments,
registered on import as ``solrec/GAME[-NAME]-v0`` (docs/ai.md).

An agent is a seat (its player's name). PettingZoo's observation is a dict: ``observation``, the
seat's observation tensor (``tensors.py``: a ``Box`` of float32 of the game's shape), and
``action_mask``, 1 for each legal action of the seat when it is to act (all 0 otherwise). Gymnasium's
observation is the tensor alone (a ``Box``); its action mask is ``info["action_mask"]`` and
``action_masks()`` (sb3-contrib's convention). With ``text=True`` an environment also gives the seat's
observation as JSON text (``Table.observation_string``) as ``info["observation_text"]``. Actions are
the game's fixed numbering (``core/actions.py``, each game's in its ``bots.py``).
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
from solrec.core.registry import bot_hooks, game_ids

from .table import Position, Table
from .tensors import observation_shape, observation_tensor


def _tensor_space(table: Table) -> spaces.Box:
    return spaces.Box(0.0, 1.0, observation_shape(table), np.float32)  # every feature is scaled to 0..1


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    n = table.codec.size
    observation = spaces.Dict({
        "observation": _tensor_space(table),
        "action_mask": spaces.Box(0, 1, (n,), np.int8),
    })
    return observation, spaces.Discrete(n)


def _mask(table: Table, position: Position, seat: str) -> np.ndarray:
    mask = np.zeros(table.codec.size, np.int8)
    if table.to_act(position).actor == seat:
        mask[list(table.legal(position))] = 1
    return mask


def _draw_chance(table: Table, position: Position, rng: np.random.Generator) -> Position:
    while (outlook := table.to_act(position)).actor == CHANCE:
        position = table.draw(position, int(rng.integers(outlook.outcomes)))
    return position


class SolrecAEC(AECEnv):
    """A solrec game as a PettingZoo AEC environment (``make_env``)."""

    metadata = {"render_modes": ["ansi"], "name": "solrec_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, options: dict[str, Any] | None = None, players: Sequence[str] | None = None,
                 render_mode: str | None = None, text: bool = False):
        super().__init__()
        self.text = text
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
        self._tell()

    def _tell(self) -> None:
        if self.text:
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "observation_text": self.table.observation_string(self.position, a)}

    def _actor(self) -> str:
        actor = self.table.to_act(self.position).actor
        return actor if actor is not None else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": observation_tensor(self.table, self.position, agent),
                "action_mask": _mask(self.table, self.position, agent)}

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
        self._tell()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render mode")
            return None
        return self.table.game.render(self.position.state)

    def close(self) -> None:
        pass


def make_env(game_id: str, options: dict[str, Any] | None = None, players: Sequence[str] | None = None,
             render_mode: str | None = None, text: bool = False) -> SolrecAEC:
    return SolrecAEC(game_id, options, players, render_mode, text)


class SolrecSolitaire(gymnasium.Env):
    """A one-player solrec game (Solo Dice, Solar Solitaire, SOLI2's solitaires) as a Gymnasium
    environment: the observation is the player's tensor, the legal actions ``info["action_mask"]`` and
    ``action_masks()``. An illegal action leaves the position as it is, with reward 0 and
    ``info["illegal"]``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, options: dict[str, Any] | None = None, render_mode: str | None = None,
                 text: bool = False):
        self.table = Table(game_id, options)
        if len(self.table.players) != 1:
            raise ValueError(f"{game_id} with these options is not a one-player game")
        self.seat = self.table.players[0]
        self.observation_space = _tensor_space(self.table)
        self.action_space = spaces.Discrete(self.table.codec.size)
        self.render_mode = render_mode
        self.text = text
        self.position = self.table.initial()

    def action_masks(self) -> np.ndarray:
        """1 for each legal action (none once the game is over)."""
        return _mask(self.table, self.position, self.seat).astype(bool)

    def _observe(self, **info: Any) -> tuple[np.ndarray, dict[str, Any]]:
        info["action_mask"] = _mask(self.table, self.position, self.seat)
        if self.text:
            info["observation_text"] = self.table.observation_string(self.position, self.seat)
        return observation_tensor(self.table, self.position, self.seat), info

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.position = _draw_chance(self.table, self.table.initial(), self.np_random)
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        legal = self.table.legal(self.position)
        if self.table.over(self.position) or int(action) not in legal:
            observation, info = self._observe(illegal=True)
            return observation, 0.0, self.table.over(self.position), False, info
        self.position = _draw_chance(self.table, self.table.play(self.position, legal[int(action)]), self.np_random)
        over = self.table.over(self.position)
        reward = self.table.returns(self.position)[0] if over else 0.0
        observation, info = self._observe()
        return observation, float(reward), over, False, info

    def render(self) -> str | None:
        return self.table.game.render(self.position.state) if self.render_mode == "ansi" else None


def gymnasium_ids() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every one-player game's Gymnasium id (``solrec/GAME[-NAME]-v0``), with its game and options
    (the game's hooks name its one-player option sets: ``BotHooks.solitaires``)."""
    ids: dict[str, tuple[str, dict[str, Any]]] = {}
    for gid in game_ids():
        for name, options in bot_hooks(gid).solitaires.items():
            ids[f"solrec/{gid}{'-' + name if name else ''}-v0"] = (gid, dict(options))
    return ids


def register_gymnasium() -> None:
    """Register the one-player games with Gymnasium (done once, on import): ``gymnasium.make(id)``,
    with ``options=``, ``render_mode=``, ``text=`` passed on; options given add to the id's."""
    for env_id, (gid, options) in gymnasium_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:_solitaire", kwargs={"game_id": gid, "preset": options})


def _solitaire(game_id: str, preset: dict[str, Any], options: dict[str, Any] | None = None,
               render_mode: str | None = None, text: bool = False) -> SolrecSolitaire:
    return SolrecSolitaire(game_id, {**preset, **(options or {})}, render_mode, text)


register_gymnasium()
