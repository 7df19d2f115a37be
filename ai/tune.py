"""``solrec tune`` (docs/tune.md): a search over option ranges for the set whose games come closest to a
target measure, or make it smallest, with Optuna's samplers.

A trial is one option set: the base options (``-o``) with each ``--vary`` key given a value of its
range. Its games are a balance run of that one set (``balance.Plan``, ``balance.run``): game ``k`` of
every trial is played with the same chance seed, bot seed and seating (``game_seed(seed, k)``,
``bot_seed(seed, k)``), so two trials are a paired comparison: what differs between them is the
options', not the dice's. Its value is the set's measure (``measure_of``: the mean length, the first
seat's win share, or any of Ludii's measures of ``metrics``) with the 95% interval of the paired
bootstrap (``stats``); the objective is the distance to the target, or the value itself to minimise.

Optuna chooses each trial's values: a ``TPESampler``, or, where every range is of whole numbers and
all of them fit in the trials, each set of the grid once, in order (``grid_point``, given to Optuna
as the trial's values: ``Study.enqueue_trial``). Each trial's sampler is seeded from
the run's seed and the trial's place in the study (``sampler_seed``), so a trial's values depend only
on the trials before it: the study gives the same trials run at once, resumed after a stop, on one
core, ``--jobs N`` or a cluster. The study's storage (a file) is the CLI's (cli/tune.py).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from solrec.core.words import quoted

from .metrics import NAMES

LENGTH = "length"  # the mean moves a game: the balance report's length (Ludii's duration-moves)
FIRST_SEAT = "first-seat"  # the first seat's win share (Ludii's advantage:1)
ALIASES = {LENGTH: "duration-moves", FIRST_SEAT: "advantage:1"}
GRID_MOST = 10_000  # a whole-number grid larger than this is searched by TPE, never listed


class TuneError(ValueError):
    """Bad input to ``tune``: said in one line."""


@attrs.frozen
class Vary:
    """One ``--vary KEY=LO..HI``: whole numbers where both bounds are, else a real range."""

    key: str
    low: float
    high: float
    integer: bool

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "low": _plain(self.low, self.integer), "high": _plain(self.high, self.integer),
                "integer": self.integer}


@attrs.frozen
class Goal:
    """``--target METRIC=VALUE`` (the distance to VALUE made small) or ``--minimize METRIC`` (target None)."""

    metric: str
    target: float | None = None

    @property
    def measure(self) -> str:
        return ALIASES.get(self.metric, self.metric)

    def objective(self, value: float | None) -> float:
        if value is None or not math.isfinite(value):
            return math.inf  # the measure is missing in this trial's games: the worst there is
        return abs(value - self.target) if self.target is not None else value

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, **({"target": self.target} if self.target is not None else {"minimize": True})}


_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"


def parse_vary(text: str) -> Vary:
    m = re.fullmatch(rf"\s*([A-Za-z_][\w-]*)\s*=\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*", text)
    if m is None:
        raise TuneError(f"--vary is KEY=LO..HI (e.g. target=24..96), not {quoted(text)}")
    key, lo, hi = m.group(1), m.group(2), m.group(3)
    integer = all(re.fullmatch(r"[+-]?\d+", v) for v in (lo, hi))
    low, high = (int(lo), int(hi)) if integer else (float(lo), float(hi))
    if low > high:
        raise TuneError(f"--vary {key}: LO {lo} is above HI {hi}")
    return Vary(key, low, high, integer)


def metric_names(seats: int) -> tuple[str, ...]:
    """The measures a goal may name for ``seats`` players."""
    names = [LENGTH, FIRST_SEAT] + [n for n in NAMES if n != "advantage"]
    return tuple(names + [f"advantage:{s}" for s in range(1, seats + 1)])


def parse_goal(target: str | None, minimize: str | None, seats: int) -> Goal:
    if (target is None) == (minimize is None):
        raise TuneError("give --target METRIC=VALUE or --minimize METRIC (one of them)")
    if target is not None:
        metric, sep, value = target.partition("=")
        metric = metric.strip()
        if not sep or not re.fullmatch(_NUMBER, value.strip()):
            raise TuneError(f"--target is METRIC=VALUE (e.g. length=500), not {quoted(target)}")
        goal = Goal(metric, float(value))
    else:
        goal = Goal((minimize or "").strip())
    if goal.metric not in metric_names(seats):
        raise TuneError(f"unknown metric {quoted(goal.metric)}: one of {', '.join(metric_names(seats))}")
    return goal


def _plain(x: float, integer: bool) -> int | float:
    return int(x) if integer else float(x)


def option_text(value: int | float) -> str:
    """A suggested value as a command line writes it (``-o target=48``)."""
    return str(value) if isinstance(value, int) else repr(round(float(value), 6))


def study_name(inputs: Mapping[str, Any]) -> str:
    """The study's name from what decides its trials (never how many trials or where they run), so a
    re-run of the same question finds it and resumes it."""
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return f"solrec-tune:{inputs['game']}:{inputs['goal']['metric']}:{digest}"


def sampler_seed(seed: int, number: int) -> int:
    """The seed of the sampler that chooses the study's trial ``number`` (0-based, among the finished)."""
    return int.from_bytes(hashlib.sha256(f"solrec-tune:{seed}:{number}".encode()).digest()[:4], "big")


def grid_of(varies: Sequence[Vary], trials: int) -> dict[str, list[int]] | None:
    """Every value of each range where all are whole numbers and every combination fits in ``trials``."""
    if not all(v.integer for v in varies):
        return None
    size = 1
    for v in varies:
        size *= int(v.high - v.low + 1)
    if size > min(trials, GRID_MOST):
        return None
    return {v.key: list(range(int(v.low), int(v.high) + 1)) for v in varies}


def sampler(varies: Sequence[Vary], trials: int, seed: int, number: int) -> Any:
    """Trial ``number``'s sampler: Optuna's TPE, seeded from the run's seed and the number."""
    import optuna

    return optuna.samplers.TPESampler(seed=sampler_seed(seed, number))


def grid_point(grid: Mapping[str, Sequence[int]], number: int) -> dict[str, int]:
    """The grid's ``number``-th set, in the order of ``itertools.product`` (the last key fastest): a
    grid is walked in order, so a resumed study goes on where it stopped."""
    out: dict[str, int] = {}
    for key in reversed(list(grid)):
        values = grid[key]
        number, at = divmod(number, len(values))
        out[key] = values[at]
    return dict(reversed(list(out.items())))


def suggest(trial: Any, varies: Sequence[Vary]) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for v in varies:
        if v.integer:
            out[v.key] = int(trial.suggest_int(v.key, int(v.low), int(v.high)))
        else:
            out[v.key] = float(trial.suggest_float(v.key, float(v.low), float(v.high)))
    return out


def measure_of(plan: Any, games: int, goal: Goal, run: Callable[..., Any]) -> dict[str, Any]:
    """Play the plan's one set (``run``: ``balance.run`` with the run's jobs or cluster) and measure it:
    the goal's value and 95% interval, the mean length and the first seat's win share."""
    from . import metrics, stats

    sample = stats.Sample(games)
    for (played,) in run(plan, games):
        sample.put(played.k, metrics.columns_of(played))
    measured = metrics.analyse([sample], plan.seed, plan.players, plan.evaluator.partition(":")[0])
    value, interval = metrics.value_of(measured, goal.measure)
    length, _ = metrics.value_of(measured, "duration-moves")
    first, _ = metrics.value_of(measured, "advantage:1")
    return {"value": value, "interval": interval, "length": length, "first_seat": first}
