"""The learned bot, ``policy`` (docs/ai.md, "The learned bot"): a policy network trained by ``solrec
train`` (``learn.py``: sb3-contrib's MaskablePPO, the ``learn`` extra) plays the legal action it rates
highest from its seat's observation tensor alone (``tensors.py``), deterministically (no draw: the
seed is not used). Its value head gives the estimate.

A model trained with ``--method afterstate`` has a value network only: the bot rates each legal
move's afterstate (the position the move leaves, before any draw, as the seat sees it) with it
(``afterstate_values``) and looks further after its best few: in a two-player game that hides nothing
it searches them a few moves of both players deep (``Search``: alpha-beta, the rating mixed with the
greedy value where the search stops, as AlphaGo mixed its value network with roll-outs; settings
``width``, ``depth``, ``mix``), elsewhere it looks a move further (``PolicyBot._ahead``, setting
``ahead``, as TD-Gammon looked); and it plays the highest.

A model file is the library's own zip (what ``MaskablePPO.load`` reads, so ``solrec train`` resumes
from it) with two entries of ours: ``solrec.json`` (what it was trained on: the game, its options and
players, the steps, the seed, the command that reproduces it) and ``solrec-policy.npz`` (the policy's
and value's layers as arrays). The bot reads only those two, with numpy: playing needs the ``ai``
extra, not torch (the ``learn`` extra is for training). The shipped models are in ``ai/models/``.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from .contract import SETTINGS, Bot, BotError, Decision
from .seat import heuristic, look
from .table import Position, Table

FORMAT = "solrec-policy/1"
META = "solrec.json"
WEIGHTS = "solrec-policy.npz"
MODELS = Path(__file__).parent / "models"  # package data (pyproject.toml)


def features(table: Table, position: Position, seat: str) -> np.ndarray:
    """What the network reads: the seat's observation tensor (``tensors.observation_tensor``),
    flattened, and where the game has several seats which one it is (a seat knows its own name)."""
    from .tensors import observation_tensor

    x = np.asarray(observation_tensor(table, position, seat), np.float32).ravel()
    if len(table.players) == 1:
        return x
    mine = np.zeros(len(table.players), np.float32)
    mine[table.players.index(seat)] = 1.0
    return np.concatenate([x, mine])


def after_features(table: Table, position: Position, seat: str) -> np.ndarray:
    """What an afterstate model reads of a position: ``features``, then the legal actions of the seat
    to act there where the seat may know them: its own, or anyone's in a game that hides nothing
    (``Game.hidden_information``: there a position's legal moves follow from what every seat sees).
    Zeros where chance is to act, or another seat in a game with hidden information."""
    x = features(table, position, seat)
    row = np.zeros(x.size + table.codec.size, np.float32)  # one array, filled: a look ahead makes many
    row[: x.size] = x
    actor = table.game.to_act(position.state)  # not settled (``look``): chance may be to act with no draw
    if actor == seat or (actor in table.players and not table.game.hidden_information):
        row[x.size + np.fromiter(table.legal(position), np.intp)] = 1.0
    return row


def feature_size(table: Table) -> int:
    from .tensors import observation_shape

    return int(np.prod(observation_shape(table))) + (len(table.players) if len(table.players) > 1 else 0)


def potential(table: Table, position: Position, seat: str) -> float:
    """The shaping potential of ``solrec train --shaping`` (the default): the greedy bot's value of the
    position for the seat (its score so far, or its lead, on the return scale). Rewards are its changes
    and, at the end, the return less it, so an episode's rewards add up to its return less the first
    position's potential: the same best play, a signal at every move (Ng, Harada, Russell 1999)."""
    return heuristic(table, position, seat)


@attrs.frozen
class Net:
    """A model file's policy and value networks as arrays (tanh hidden layers, as sb3's MlpPolicy)."""

    meta: Mapping[str, Any]
    policy: tuple[tuple[np.ndarray, np.ndarray], ...]  # hidden layers, then the action layer
    value: tuple[tuple[np.ndarray, np.ndarray], ...]  # hidden layers, then the value layer
    # the value layers' weights transposed into rows: the bot's products of one row or a few are faster so
    columns: tuple[tuple[np.ndarray, np.ndarray], ...] = attrs.field(init=False, eq=False, repr=False)

    @columns.default
    def _columns(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        return tuple((np.ascontiguousarray(w.T), b) for w, b in self.value)

    @property
    def size(self) -> int:
        """The tensor's size it reads (an afterstate model reads the action mask after it)."""
        return int(self.value[0][0].shape[1]) - (self.actions if self.afterstate else 0)

    @property
    def actions(self) -> int:
        return int(self.policy[-1][0].shape[0]) if self.policy else int(self.meta["actions"])

    @property
    def afterstate(self) -> bool:
        """A value network over afterstates (``--method afterstate``), not a policy."""
        return self.meta.get("method") == "afterstate"

    def values(self, xs: np.ndarray) -> np.ndarray:
        """The value network on a batch of feature rows (as training rates them: ``learn.py``)."""
        for w, b in self.value[:-1]:
            xs = np.tanh(xs @ w.T + b)
        w, b = self.value[-1]
        return (xs @ w.T + b)[:, 0]

    def rate(self, xs: np.ndarray) -> np.ndarray:
        """``values``, as the bot computes them: faster, and the same but for the last bits. Training
        keeps ``values``, so that a shipped model's command still makes it bit for bit."""
        for w, b in self.columns[:-1]:
            xs = np.tanh(xs @ w + b)
        w, b = self.columns[-1]
        return (xs @ w + b)[:, 0]

    def logits(self, x: np.ndarray) -> np.ndarray:
        return _forward(self.policy, x)

    def state_value(self, x: np.ndarray) -> float:
        return float(_forward(self.value, x)[0])


def _forward(layers: tuple[tuple[np.ndarray, np.ndarray], ...], x: np.ndarray) -> np.ndarray:
    for w, b in layers[:-1]:
        x = np.tanh(w @ x + b)
    w, b = layers[-1]
    return w @ x + b


def read_meta(path: Path) -> dict[str, Any]:
    """A model file's ``solrec.json`` (BotError, one line, for a file that is not one)."""
    try:
        with zipfile.ZipFile(path) as z:
            meta = json.loads(z.read(META))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as err:
        raise BotError(f"{path}: not a solrec model file ({type(err).__name__}: {err})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise BotError(f"{path}: not a solrec model file of format {FORMAT}")
    return meta


@lru_cache(maxsize=16)
def _load(path: str, stamp: float) -> Net:
    meta = read_meta(Path(path))
    try:
        with zipfile.ZipFile(path) as z:
            arrays = np.load(io.BytesIO(z.read(WEIGHTS)))
            def layers(prefix: str) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
                count = sum(1 for k in arrays.files if k.startswith(prefix) and k.endswith(".w"))
                return tuple((arrays[f"{prefix}{i}.w"].astype(np.float32), arrays[f"{prefix}{i}.b"].astype(np.float32))
                             for i in range(count))
            net = Net(meta, layers("pi."), layers("vf."))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as err:
        raise BotError(f"{path}: its weights cannot be read ({type(err).__name__}: {err})") from None
    if not net.value or not (net.policy or net.afterstate):
        raise BotError(f"{path}: no weights in it")
    return net


def load(path: Path) -> Net:
    """The network of a model file (kept once read: a balance worker reads it once)."""
    try:
        stamp = path.stat().st_mtime
    except OSError as err:
        raise BotError(f"policy: no model file {path} ({err.strerror})") from None
    return _load(str(path.resolve()), stamp)


def shipped() -> list[Path]:
    """The models shipped with solrec (``ai/models/*.zip``, package data)."""
    return sorted(MODELS.glob("*.zip"))


def default_model(table: Table) -> Path:
    """The shipped model for the table: of its game, for as many players and an observation of the same
    size, the one trained on the most of its options' values (a balance run plays other option sets
    with the same model)."""
    size = feature_size(table)
    best: tuple[int, str] | None = None
    found: Path | None = None
    for path in shipped():
        try:
            meta = read_meta(path)
        except BotError:
            continue  # not a model (a file being written)
        if meta["game"] != table.game.id or len(meta["players"]) != len(table.players) or meta["features"] != size:
            continue
        same = sum(1 for k, v in meta["options"].items() if str(table.options.get(k)) == str(v))
        key = (same, path.name)
        if best is None or key > best:
            best, found = key, path
    if found is None:
        raise BotError(f"policy: no model shipped for {table.game.id} with {len(table.players)} player(s) and these "
                       "options; train one (solrec train) and give policy:model=PATH")
    return found


# How far back the bot looks for a position it saw (``_fresh``): the cycles of free moves are short.
WINDOW = 64


def _fresh(table: Table, position: Position, seat: str, legal: Mapping[int, Any], order: list[int]) -> int:
    """The first action of ``order`` after which the seat sees something it did not see in the last
    ``WINDOW`` positions; the first of all where every one leads back. A deterministic bot that goes
    back to a position it saw goes round the same loop for ever (Solar Solitaire's free moves between
    pads, at no cost): so it never does while it has another move, and where a game always offers a
    move that ends it (resigning) it ends the game rather than loop."""
    seen: set[str] = set()
    p: Position | None = position
    for _ in range(WINDOW):
        if p is None:
            break
        seen.add(table.observation_string(p, seat))
        p = p.parent
    for action in order:
        if table.observation_string(look(table, position, legal[action]), seat) not in seen:
            return action
    return order[0]


def afterstate_values(table: Table, position: Position, seat: str, legal: Mapping[int, Any],
                      value: Any, afters: dict[int, Position] | None = None) -> dict[int, float]:
    """Each legal action's afterstate rated for ``seat`` on the return scale: the game's return where the
    move ends it, else ``value`` (a batch of feature rows to their values) of the seat's features of the
    position the move leaves (chance not yet drawn: the seat rates what it knows). ``afters``, where
    given, gets each action's afterstate (a look further needs them again)."""
    rated: dict[int, float] = {}
    rows: list[np.ndarray] = []
    pending: list[int] = []
    mine = table.players.index(seat)
    for action, command in legal.items():
        after = look(table, position, command)
        if afters is not None:
            afters[action] = after
        if table.over(after):
            rated[action] = float(table.returns(after)[mine])
        else:
            pending.append(action)
            rows.append(after_features(table, after, seat))
    if rows:
        for action, v in zip(pending, value(np.stack(rows)), strict=True):
            rated[action] = float(v)
    return rated


class Search:
    """One decision's search (``PolicyBot._deeper``): alpha-beta over the moves of both players of a
    two-player game that hides nothing, every position rated for ``seat`` by ``rate`` (a batch of
    feature rows to their values). A line either player would avoid is cut as soon as it shows, so
    moves are tried best first: where the search goes on below them, by their ratings (all rated in one
    batch); at its last move, where rating the moves is the whole cost, one at a time, in the order of
    what the same move of the same player was rated earlier in this search (the history heuristic,
    Schaeffer 1989), so that a cut spares the rest. The order changes what is rated, not the value
    found. Only where the game hides nothing: there the positions it plays through are what the seat
    sees; and it stops where chance is to act, so it never sees a draw."""

    def __init__(self, table: Table, seat: str, rate: Any, mix: float = 0.0):
        self.table, self.seat, self.rate, self.mix = table, seat, rate, mix
        self.history: dict[tuple[str, int], float] = {}

    def frontier(self, position: Position, rating: float) -> float:
        """Where the search stops: the rating, mixed with the greedy bot's value of the position (the
        score so far: ``seat.heuristic``) in the share ``mix``."""
        if not self.mix:
            return rating
        return (1.0 - self.mix) * rating + self.mix * heuristic(self.table, position, self.seat)

    def saw(self, actor: str, rated: Mapping[int, float]) -> None:
        for action, v in rated.items():
            self.history[(actor, action)] = v

    def value(self, position: Position, rating: float, depth: int, alpha: float, beta: float) -> float:
        """The value for the seat of ``position``, an afterstate it rates ``rating``, searched ``depth``
        moves further: the best for the seat where it moves, the worst for it where the other player
        does; where the search stops (at its depth, or where chance is to act) ``frontier``'s value."""
        table = self.table
        actor = table.game.to_act(position.state)
        if depth <= 0 or actor not in table.players:
            return self.frontier(position, rating)
        mine = actor == self.seat
        sign = -1.0 if mine else 1.0  # the mover's best first: the seat's highest, the other's lowest
        legal = table.legal(position)
        batches = [list(legal)]
        if depth == 1:
            seen = self.history
            batches = [[a] for a in sorted(legal, key=lambda a: (0, sign * seen[(actor, a)], a)
                                           if (actor, a) in seen else (1, 0.0, a))]
        best = -math.inf if mine else math.inf
        for batch in batches:
            afters: dict[int, Position] = {}
            rated = afterstate_values(table, position, self.seat, {a: legal[a] for a in batch}, self.rate, afters)
            self.saw(actor, rated)
            for action in sorted(rated, key=lambda a: (sign * rated[a], a)):
                after = afters[action]
                v = rated[action] if table.over(after) else self.value(after, rated[action], depth - 1, alpha, beta)
                if mine:
                    best = max(best, v)
                    alpha = max(alpha, best)
                else:
                    best = min(best, v)
                    beta = min(beta, best)
                if alpha >= beta:
                    return best
        return best


class PolicyBot(Bot):
    """The legal action of the highest logit (ties: the lowest id) from the seat's features (with an
    afterstate model: of the highest afterstate value), unless it
    leads back to a position the seat saw (``_fresh``); the estimate is the value head's (plus the
    shaping potential it was trained with), clipped to -1..1."""

    def __init__(self, spec: Any):
        super().__init__(spec)
        self.nets: dict[tuple[str, str, tuple[str, ...]], Net] = {}  # per table: the model is looked up once

    def ready(self, table: Table) -> None:
        self.net_for(table)

    def net_for(self, table: Table) -> Net:
        key = (table.game.id, json.dumps(table.options, sort_keys=True, default=str), table.players)
        net = self.nets.get(key)
        if net is None:
            net = self.nets[key] = self._net_for(table)
        return net

    def _net_for(self, table: Table) -> Net:
        given = str(self.spec.get("model", ""))
        net = load(Path(given).expanduser()) if given else load(default_model(table))
        meta = net.meta
        if meta["game"] != table.game.id:
            raise BotError(f"policy: the model was trained on {meta['game']}, not {table.game.id}")
        if len(meta["players"]) != len(table.players):
            raise BotError(f"policy: the model was trained for {len(meta['players'])} player(s), not {len(table.players)}")
        if net.size != feature_size(table) or net.actions != table.codec.size:
            raise BotError(f"policy: the model reads {net.size} features and {net.actions} actions; "
                           f"this table has {feature_size(table)} and {table.codec.size}")
        return net

    def _ahead(self, table: Table, seat: str, afters: Mapping[int, Position], order: list[int],
               rated: dict[int, float], net: Net) -> list[int]:
        """The ``ahead`` best-rated moves (setting ``ahead``, 2 unless given) rated again by the move
        that follows them (a selective look a move further, as TD-Gammon looked two plies ahead when
        playing): where the seat moves next, by the best afterstate of its own next move. Where another
        seat or chance moves next the rating stands (a game of two players that hides nothing is
        searched instead: ``_deeper``). The first of them by the new rating leads the order; ``rated``
        gets their new ratings."""
        width = int(self.spec.get("ahead", SETTINGS["policy"]["ahead"]))
        if width < 2 or len(order) < 2:
            return order
        top = order[:width]
        for action in top:
            after = afters[action]
            if table.game.to_act(after.state) == seat:
                rated[action] = max(afterstate_values(table, after, seat, table.legal(after), net.rate).values())
        return sorted(top, key=lambda a: (-rated[a], a)) + order[width:]

    def _deeper(self, table: Table, seat: str, afters: Mapping[int, Position], order: list[int],
                rated: dict[int, float], net: Net) -> list[int]:
        """In a two-player game that hides nothing, the ``width`` best-rated moves (setting ``width``, 3
        unless given) searched ``depth`` moves deep (setting ``depth``, 3; 1 or less: not searched): the
        first of them with the highest searched value leads the order, the others follow as they were;
        ``rated`` gets their searched values (a move the search cut gets a bound: no more than the
        best's). Elsewhere the look of ``_ahead``."""
        if not (len(table.players) == 2 and not table.game.hidden_information):
            return self._ahead(table, seat, afters, order, rated, net)
        width = int(self.spec.get("width", SETTINGS["policy"]["width"]))
        depth = int(self.spec.get("depth", SETTINGS["policy"]["depth"]))
        if width < 2 or depth < 2 or len(order) < 2:
            return order
        search = Search(table, seat, net.rate, float(self.spec.get("mix", SETTINGS["policy"]["mix"])))
        search.saw(seat, rated)
        alpha = -math.inf
        best = order[0]
        for action in order[:width]:
            after = afters[action]
            if not table.over(after):
                rated[action] = search.value(after, rated[action], depth - 1, alpha, math.inf)
            if rated[action] > alpha:
                alpha, best = rated[action], action
        return [best] + [a for a in order if a != best]

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        legal = self._legal(table, position, seat)
        net = self.net_for(table)
        if net.afterstate:
            afters: dict[int, Position] = {}
            rated = afterstate_values(table, position, seat, legal, net.rate, afters)
            order = sorted(legal, key=lambda a: (-rated[a], a))  # the highest value first, ties by id
            deeper = dict(rated)
            order = self._deeper(table, seat, afters, order, deeper, net)
            action = _fresh(table, position, seat, legal, order)
            # the values: every move's afterstate rating (one footing); the estimate: the choice's, looked further
            return Decision(action, legal[action], max(-1.0, min(1.0, deeper[action])),
                            tuple(sorted((a, max(-1.0, min(1.0, v))) for a, v in rated.items())))
        x = features(table, position, seat)
        logits = net.logits(x)
        order = sorted(legal, key=lambda a: (-float(logits[a]), a))  # the highest logit first, ties by id
        action = _fresh(table, position, seat, legal, order)
        estimate = net.state_value(x)
        if net.meta.get("shaping", False):
            estimate += potential(table, position, seat)
        estimate = max(-1.0, min(1.0, estimate))
        return Decision(action, legal[action], estimate)
