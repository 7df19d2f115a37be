"""``solrec train`` (docs/ai.md, "Training the learned bot"): sb3-contrib's MaskablePPO (the ``learn``
extra: torch on the CPU) learns a policy for one seat from its observation tensor (``policy.features``)
and its legal actions (the action mask), in a Gymnasium environment of our own (``SeatEnv``) where the
other seats are played by a fixed bot (``--opponent``, default greedy) and chance is drawn from the
environment's generator. The learner's seat is drawn per game, so one model plays every seat.
``--method afterstate`` (``train_afterstate``, below) learns instead a value of the position each move
leaves, by TD(lambda) on a torch network, a game of several players by self-play.

Deterministic for a seed and resumable: one thread (``torch.set_num_threads(1)``); training goes in
chunks of ``CHUNK`` steps, each started from fresh games with every generator (Python's, numpy's,
torch's, the environments') seeded from the run's seed and the steps done, and ends by writing the
model file (parameters, optimiser state, steps). So a run stopped after any chunk and run again with
the same command goes on from the file to the very model an unbroken run makes.

Imports torch and sb3 only when called (``solrec --help`` does not).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import gymnasium
import numpy as np
from gymnasium import spaces

from solrec.core.game import CHANCE
from solrec.core.words import quoted

from .contract import Bot, BotError
from .policy import FORMAT, META, WEIGHTS, Net, after_features, feature_size, features, potential, read_meta
from .table import Position, Table

# PPO's shape of a rollout: 8 games side by side, 128 moves each (1,024 steps a rollout), minibatches
# of 256, 4 epochs; a checkpoint every 8 rollouts. Returns undiscounted (gamma 1: a game ends, and its
# result is what counts), GAE lambda 0.95, a little entropy (0.01) against an early collapse.
ENVS = 8
ROLLOUT_STEPS = 128
ROLLOUT = ENVS * ROLLOUT_STEPS
CHUNK = 8 * ROLLOUT
HYPER: dict[str, Any] = {"n_steps": ROLLOUT_STEPS, "batch_size": 256, "n_epochs": 4, "gamma": 1.0, "gae_lambda": 0.95,
         "ent_coef": 0.01, "learning_rate": 3e-4, "clip_range": 0.2}


STEPS = "@STEPS@"  # in ``train``'s command: the steps done where a model file is written (what reproduces it)


class TrainError(ValueError):
    """Bad input to ``train`` (one line: the CLI's exit 2)."""


@attrs.frozen
class Run:
    """What a training run is: the game and its set-up, the bots at the other seats, the network, the
    shaping and the seed. ``steps`` is how far to train; a model file carries the rest, and a run
    resumes only a file of the same run."""

    game: str
    options: tuple[tuple[str, Any], ...]
    players: tuple[str, ...]
    seed: int
    opponent: str = ""  # the bot at the other seats ("" for a solitaire)
    hidden: tuple[int, ...] = (128, 128)
    shaping: bool = True
    method: str = "ppo"  # or "afterstate" (``train_afterstate``)

    def same_as(self, meta: dict[str, Any]) -> str | None:
        """Why a model file is not of this run (None: it is)."""
        mine = {"game": self.game, "options": dict(self.options), "players": list(self.players), "seed": self.seed,
                "opponent": self.opponent, "hidden": list(self.hidden), "shaping": self.shaping, "method": self.method}
        for key, value in mine.items():
            if meta.get(key, "ppo" if key == "method" else None) != value:
                return f"it was trained with {key} {quoted(meta.get(key))}, this run has {quoted(value)}"
        return None


class SeatEnv(gymnasium.Env):
    """One seat of a game as a Gymnasium environment for MaskablePPO: the observation is the seat's
    features, ``action_masks()`` its legal actions; the other seats are played by ``opponent`` and
    chance drawn from ``np_random`` until the seat is to act again. The reward is the return at the end
    (``Table.returns``), with ``shaping`` the change of ``policy.potential`` at every move (the end's
    return less the last potential). A game longer than the game's ``max_game_length`` is cut off
    (truncated)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, table: Table, opponent: Bot | None, shaping: bool):
        self.table = table
        self.opponent = opponent
        self.shaping = shaping
        self.observation_space = spaces.Box(-np.inf, np.inf, (feature_size(table),), np.float32)
        self.action_space = spaces.Discrete(table.codec.size)
        self.position = table.initial()
        self.seat = table.players[0]
        self.last = 0.0
        self.finished: list[tuple[float, int]] = []  # (return, score) of each game ended, for the progress lines

    def _advance(self, position: Position) -> Position:
        table = self.table
        while True:
            outlook = table.to_act(position)
            if outlook.actor is None or outlook.actor == self.seat:
                return position
            if outlook.actor == CHANCE:
                position = table.draw(position, int(self.np_random.integers(outlook.outcomes)))
                continue
            if self.opponent is None:
                raise BotError(f"{outlook.actor} has no bot")
            seed = int(self.np_random.integers(2**62))
            position = table.play(position, self.opponent.decide(table, position, outlook.actor, seed).command)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        players = self.table.players
        self.seat = players[int(self.np_random.integers(len(players)))]
        self.position = self._advance(self.table.initial())
        while self.table.over(self.position):  # a game with no move for the seat (SOLI2: a pouch that leaves no jump) teaches nothing
            self.position = self._advance(self.table.initial())
        self.last = potential(self.table, self.position, self.seat) if self.shaping else 0.0
        return features(self.table, self.position, self.seat), {}

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.table.codec.size, bool)
        if not self.table.over(self.position):
            mask[list(self.table.legal(self.position))] = True
        return mask

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        table = self.table
        legal = table.legal(self.position)
        if int(action) not in legal:
            raise ValueError(f"{action} is not a legal action of {self.seat}")
        self.position = self._advance(table.play(self.position, legal[int(action)]))
        x = features(table, self.position, self.seat)
        if table.over(self.position):
            result = table.returns(self.position)[table.players.index(self.seat)]
            self.finished.append((result, table.scores(self.position)[self.seat]))
            return x, float(result - self.last), True, False, {}
        now = potential(table, self.position, self.seat) if self.shaping else 0.0
        reward, self.last = now - self.last, now
        truncated = self.position.moves > table.hooks.max_game_length
        return x, float(reward), False, truncated, {}


def _seed_at(seed: int, steps: int) -> int:
    """The seed of the chunk that starts after ``steps`` steps of a run seeded ``seed``."""
    return int.from_bytes(hashlib.sha256(f"solrec-train:{seed}:{steps}".encode()).digest()[:4], "big")


def check(run: Run, out: Path) -> dict[str, Any] | None:
    """Refuse what cannot be trained before anything is written (TrainError); the model file's
    metadata where ``out`` holds one of this run (to resume), else None."""
    if out.is_dir():
        raise TrainError(f"--out {out} is a folder, not a model file")
    if not out.parent.is_dir():
        raise TrainError(f"no folder {out.parent} to write the model in")
    if out.suffix != ".zip":
        raise TrainError(f"--out {out}: a model file is a .zip (the learning library's format)")
    if any(h < 1 or h > 4096 for h in run.hidden) or not run.hidden or len(run.hidden) > 4:
        raise TrainError("--hidden is one to four layer widths, each 1 to 4096 (e.g. 128,128)")
    if not out.exists():
        return None
    try:
        meta = read_meta(out)
    except BotError as err:
        raise TrainError(f"--out {out} exists and is not a model file to resume: {err}") from None
    why = run.same_as(meta)
    if why is not None:
        raise TrainError(f"--out {out} holds another run's model ({why}): give another --out to start afresh")
    return meta


def train(run: Run, steps: int, out: Path, command: str, progress: Callable[[str], None],
          chunk: int = CHUNK) -> dict[str, Any]:
    """Train ``run`` to ``steps`` steps (rounded up to whole rollouts of ``ROLLOUT``), writing ``out``
    after every ``chunk`` steps (whole rollouts); from ``out`` where it holds this run's model
    (``check``). Chunks end at the multiples of ``chunk`` (and at ``steps``): a run stopped after a
    checkpoint, or trained to a multiple of ``chunk`` and then further, goes on as the unbroken run."""
    if run.method == "afterstate":
        return train_afterstate(run, steps, out, command, progress, chunk)
    assert chunk % ROLLOUT == 0
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import DummyVecEnv

    from .bots import make_bot

    meta = check(run, out)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    opponent = make_bot(run.opponent) if run.opponent else None
    options = dict(run.options)

    def env() -> SeatEnv:
        return SeatEnv(Table(run.game, options, run.players), opponent, run.shaping)

    venv = DummyVecEnv([env for _ in range(ENVS)])
    if meta is not None:
        model = MaskablePPO.load(out, env=venv, device="cpu")
        done = int(meta["steps"])
    else:
        set_random_seed(run.seed)
        model = MaskablePPO("MlpPolicy", venv, seed=run.seed, device="cpu", verbose=0,
                            policy_kwargs={"net_arch": {"pi": list(run.hidden), "vf": list(run.hidden)}}, **HYPER)
        done = 0
    target = math.ceil(steps / ROLLOUT) * ROLLOUT
    started = time.process_time()
    if done >= target:
        progress(f"{out} is trained to {done:,} steps already")
    while done < target:
        seed = _seed_at(run.seed, done)
        model.set_random_seed(seed)  # Python's, numpy's and torch's generators, the action space, the environments
        model._last_obs = None  # fresh games: a resumed run plays what an unbroken one plays
        model.learn(min((done // chunk + 1) * chunk, target) - done, reset_num_timesteps=False)
        done = int(model.num_timesteps)
        ended = [r for e in venv.envs for r in e.finished]  # type: ignore[attr-defined]
        for e in venv.envs:
            e.finished.clear()  # type: ignore[attr-defined]
        save(model, out, run, done, command)
        if ended:
            mean_return = sum(r for r, _ in ended) / len(ended)
            mean_score = sum(s for _, s in ended) / len(ended)
            said = f"{len(ended)} games ended, mean return {mean_return:+.3f}, mean score {mean_score:,.1f}"
        else:
            said = "no game ended"
        progress(f"{done:,}/{target:,} steps: {said} ({time.process_time() - started:,.0f} s of CPU; saved {out})")
    return {**read_meta(out), "out": str(out)}


def save(model: Any, out: Path, run: Run, steps: int, command: str) -> None:
    """The library's zip and our two entries, written beside ``out`` and moved over it (a run stopped
    while writing leaves the last checkpoint whole)."""
    whole = io.BytesIO()
    model.save(whole)
    meta = {**_meta(run, steps, command), "library": "sb3-contrib MaskablePPO", "hyper": HYPER, "envs": ENVS}
    _write(out, whole, meta, weights(model), append=True)


def _meta(run: Run, steps: int, command: str) -> dict[str, Any]:
    """What a model file says of its run (``solrec.json``), whichever the method."""
    table = Table(run.game, dict(run.options), run.players)
    return {"format": FORMAT, "game": run.game, "options": dict(run.options), "players": list(run.players),
            "seed": run.seed, "opponent": run.opponent, "hidden": list(run.hidden), "shaping": run.shaping,
            "steps": steps, "features": feature_size(table), "actions": table.codec.size, "method": run.method,
            "command": command.replace(STEPS, str(steps))}


def _write(out: Path, whole: io.BytesIO, meta: dict[str, Any], arrays: dict[str, Any], append: bool,
           more: dict[str, bytes] | None = None) -> None:
    """Our entries (``solrec.json``, the layers, and ``more``) into the zip ``whole`` (``append``: to the
    library's own zip, else a new one), written beside ``out`` and moved over it."""
    tmp = out.with_name(f".{out.name}.tmp")  # not a *.zip: never taken for a model meanwhile
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    z = zipfile.ZipFile(whole, "a", zipfile.ZIP_DEFLATED) if append else zipfile.ZipFile(whole, "w", zipfile.ZIP_DEFLATED)
    with z:
        z.writestr(META, json.dumps(meta, indent=1, sort_keys=True))
        z.writestr(WEIGHTS, buffer.getvalue())
        for name, data in (more or {}).items():
            z.writestr(name, data)
    tmp.write_bytes(whole.getvalue())
    os.replace(tmp, out)


def weights(model: Any) -> dict[str, np.ndarray]:
    """The policy's and value's layers as arrays, as ``policy.Net`` reads them: ``pi.0.w``, ``pi.0.b``,
    ... the action layer last; ``vf.*`` alike, the value layer last (sb3's MlpPolicy: tanh between)."""
    import torch

    policy = model.policy
    if policy.activation_fn is not torch.nn.Tanh:
        raise TypeError("the bot's forward pass is tanh's")

    def linear(modules: Sequence[Any]) -> list[Any]:
        return [m for m in modules if isinstance(m, torch.nn.Linear)]

    return {**_arrays("pi.", linear(policy.mlp_extractor.policy_net) + [policy.action_net]),
            **_arrays("vf.", linear(policy.mlp_extractor.value_net) + [policy.value_net])}


def _arrays(prefix: str, layers: Sequence[Any]) -> dict[str, np.ndarray]:
    """Torch linear layers as ``policy.Net`` reads them: ``{prefix}0.w``, ``{prefix}0.b``, ..."""
    out: dict[str, np.ndarray] = {}
    for i, layer in enumerate(layers):
        out[f"{prefix}{i}.w"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        out[f"{prefix}{i}.b"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    return out


# -- afterstate learning (``--method afterstate``) ---------------------------------------------------------
# A value network over afterstates (the position a move leaves, as the seat sees it) learnt from the
# games of the bot that plays the move of the highest value: TD(lambda) (Sutton 1988) on afterstates
# (Sutton and Barto, section 6.8), as TD-Gammon learnt (Tesauro 1995); in a game of several players by
# self-play (each seat rates from its own features) unless --opponent names a bot. Each move with a
# choice is a step; after every BATCH_GAMES games the network is fitted to the lambda-returns of the
# last BUFFER_GAMES games (EPOCHS passes, minibatches of MINIBATCH, Adam). Exploration: a random legal
# move with probability ``exploration(steps)``, EPSILON at first, halved every HALF_LIFE steps (the
# returns learnt become those of the greedy bot the model is played as).
AFTER_STATE = "solrec-afterstate.pt"  # the network's and the optimiser's state: what a resumed run reads
BATCH_GAMES = 16
BUFFER_GAMES = 64
EPOCHS = 2
MINIBATCH = 256
LAMBDA = 0.7
EPSILON = 0.05
HALF_LIFE = 200_000
AFTER_LEARNING_RATE = 1e-3
SELF = "self"  # --opponent self: self-play


def exploration(steps: int) -> float:
    """The chance of a random move after ``steps`` steps of a run."""
    return EPSILON * 0.5 ** (steps / HALF_LIFE)


@attrs.define
class _Chain:
    """One seat's afterstates in a game: features and their values when chosen (the last may be the end)."""

    rows: list[np.ndarray] = attrs.Factory(list)
    values: list[float] = attrs.Factory(list)
    final: list[bool] = attrs.Factory(list)
    steps: int = 0  # moves with a choice (a forced move's afterstate still links the chain)

    def targets(self, result: float) -> list[tuple[np.ndarray, float]]:
        """The lambda-returns of the afterstates not at the end: G = (1 - lambda) v' + lambda G', the
        last G the result."""
        out: list[tuple[np.ndarray, float]] = []
        g = result
        following = result
        for row, value, final in zip(reversed(self.rows), reversed(self.values), reversed(self.final), strict=True):
            g = (1 - LAMBDA) * following + LAMBDA * g
            if not final:
                out.append((row, g))
            following = result if final else value
        return out


def _after_net(size: int, hidden: tuple[int, ...]) -> Any:
    import torch

    layers: list[Any] = []
    width = size
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.Tanh()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    return torch.nn.Sequential(*layers)


def _after_arrays(net: Any) -> dict[str, np.ndarray]:
    """The network as ``policy.Net`` reads a value network: ``vf.0.w``, ``vf.0.b``, ... (tanh between)."""
    import torch

    return _arrays("vf.", [m for m in net if isinstance(m, torch.nn.Linear)])


def _value_of(net: Any) -> Callable[[np.ndarray], np.ndarray]:
    """The network's ratings as the bot computes them (``policy.Net.values``, numpy)."""
    arrays = _after_arrays(net)
    layers = tuple((arrays[f"vf.{i}.w"], arrays[f"vf.{i}.b"]) for i in range(len(arrays) // 2))
    return Net({"method": "afterstate"}, (), layers).values


def _after_game(table: Table, value: Callable[[np.ndarray], np.ndarray], learner: str | None, opponent: Bot | None,
                rng: np.random.Generator, epsilon: float) -> tuple[dict[str, _Chain], Position]:
    """One game: every seat that learns (all in self-play, else ``learner``) plays the afterstate of the
    highest value (a random legal move with probability ``epsilon``); the others ``opponent``; chance drawn
    from ``rng``. Each learning seat's chain of chosen afterstates, and the last position."""
    from .policy import afterstate_values
    from .seat import look

    chains: dict[str, _Chain] = {}
    position = table.initial()
    while True:
        outlook = table.to_act(position)
        actor = outlook.actor
        if actor is None or position.moves > table.hooks.max_game_length:
            return chains, position
        if actor == CHANCE:
            position = table.draw(position, int(rng.integers(outlook.outcomes)))
            continue
        legal = table.legal(position)
        if learner is not None and actor != learner:
            if opponent is None:
                raise BotError(f"{actor} has no bot")
            position = table.play(position, opponent.decide(table, position, actor, int(rng.integers(2**62))).command)
            continue
        actions = list(legal)
        if len(actions) > 1 and rng.random() < epsilon:
            action = actions[int(rng.integers(len(actions)))]
        else:
            rated = afterstate_values(table, position, actor, legal, value)
            action = min(actions, key=lambda a: (-rated[a], a))
        after = look(table, position, legal[action])
        chain = chains.setdefault(actor, _Chain())
        over = table.over(after)
        mine = table.players.index(actor)
        chain.rows.append(after_features(table, after, actor))
        chain.values.append(float(table.returns(after)[mine]) if over else float(value(chain.rows[-1][None, :])[0]))
        chain.final.append(over)
        chain.steps += len(actions) > 1
        position = table.play(position, legal[action])


def train_afterstate(run: Run, steps: int, out: Path, command: str, progress: Callable[[str], None],
                     chunk: int = CHUNK) -> dict[str, Any]:
    """``train`` for ``--method afterstate``: chunks of ``chunk`` steps (moves with a choice of the
    learning seats), each from fresh games with its generators seeded from the run's seed and the steps
    done, the model file written after each; a run stopped after a checkpoint and run again goes on to
    the model the unbroken run makes."""
    import torch

    from .bots import make_bot
    from .seat import heuristics

    meta = check(run, out)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    table = Table(run.game, dict(run.options), run.players)
    opponent = make_bot(run.opponent) if run.opponent and run.opponent != SELF else None
    torch.manual_seed(run.seed)  # the first weights (a resumed run reads its own over them)
    net = _after_net(feature_size(table) + table.codec.size, run.hidden)  # the features, then the action mask
    optimiser = torch.optim.Adam(net.parameters(), lr=AFTER_LEARNING_RATE)
    done = 0
    if meta is not None:
        with zipfile.ZipFile(out) as z:
            saved = torch.load(io.BytesIO(z.read(AFTER_STATE)), weights_only=True)
        net.load_state_dict(saved["net"])
        optimiser.load_state_dict(saved["optimiser"])
        done = int(meta["steps"])
    target = steps
    started = time.process_time()
    if done >= target:
        progress(f"{out} is trained to {done:,} steps already")
    while done < target:
        seed = _seed_at(run.seed, done)
        rng = np.random.default_rng(seed)
        torch.manual_seed(seed)
        end = min((done // chunk + 1) * chunk, target)
        buffer: list[list[tuple[np.ndarray, float]]] = []
        ended: list[tuple[float, int]] = []
        while done < end:
            value = _value_of(net)
            for _ in range(BATCH_GAMES):
                learner = None if opponent is None else run.players[int(rng.integers(len(run.players)))]
                chains, last = _after_game(table, value, learner, opponent, rng, exploration(done))
                # a game cut off at the game's max_game_length: the greedy value of where it stopped
                results = table.returns(last) if table.over(last) else heuristics(table, last)
                game: list[tuple[np.ndarray, float]] = []
                for seat, chain in chains.items():
                    mine = run.players.index(seat)
                    game += chain.targets(results[mine])
                    done += chain.steps
                    if seat == (learner or run.players[0]):
                        ended.append((results[mine], table.scores(last)[seat]))
                buffer.append(game)
            del buffer[:-BUFFER_GAMES]
            _fit(net, optimiser, [pair for game in buffer for pair in game], rng)
        _save_afterstate(net, optimiser, out, run, done, command)
        if ended:
            said = (f"{len(ended)} games ended, mean return {sum(r for r, _ in ended) / len(ended):+.3f}, "
                    f"mean score {sum(s for _, s in ended) / len(ended):,.1f}")
        else:
            said = "no game ended"
        progress(f"{done:,}/{target:,} steps: {said} ({time.process_time() - started:,.0f} s of CPU; saved {out})")
    return {**read_meta(out), "out": str(out)}


def _fit(net: Any, optimiser: Any, pairs: list[tuple[np.ndarray, float]], rng: np.random.Generator) -> None:
    import torch

    if not pairs:
        return
    x = torch.from_numpy(np.stack([row for row, _ in pairs]))
    y = torch.tensor([g for _, g in pairs], dtype=torch.float32)
    for _ in range(EPOCHS):
        order = torch.from_numpy(rng.permutation(len(pairs)))
        for start in range(0, len(pairs), MINIBATCH):
            pick = order[start:start + MINIBATCH]
            loss = torch.nn.functional.mse_loss(net(x[pick])[:, 0], y[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()


def _save_afterstate(net: Any, optimiser: Any, out: Path, run: Run, steps: int, command: str) -> None:
    import torch

    state = io.BytesIO()
    torch.save({"net": net.state_dict(), "optimiser": optimiser.state_dict()}, state)
    meta = {**_meta(run, steps, command), "library": "torch (afterstate TD(lambda))",
            "hyper": {"batch_games": BATCH_GAMES, "buffer_games": BUFFER_GAMES, "epochs": EPOCHS, "minibatch": MINIBATCH,
                      "lambda": LAMBDA, "epsilon": EPSILON, "half_life": HALF_LIFE,
                      "learning_rate": AFTER_LEARNING_RATE}}
    _write(out, io.BytesIO(), meta, _after_arrays(net), append=False, more={AFTER_STATE: state.getvalue()})
