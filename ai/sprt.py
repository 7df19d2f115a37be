"""A sequential test for a balance run (``solrec balance --sprt METRIC:H0:H1``; docs/balance.md).

Wald's sequential probability ratio test (SPRT) in the generalised form fishtest uses for paired
games (the "normalized" GSPRT): each pair ``k`` (game ``k`` of both sets, the same seeds) gives one
number, the metric's **influence** ``psi_k`` (for a difference of means the pair's difference; for
the relative change of the mean length its linearisation, the delta method); the estimate ``theta``
is their mean (for the ratio: the ratio of the means, less 1) and its variance ``V = var(psi) / n``.
With the estimate taken as normal, the log-likelihood ratio of H1 (``theta = h1``) against H0
(``theta = h0``) is

    LLR = (h1 - h0) * (2 * theta - h0 - h1) / (2 * V)

and the test stops when it leaves Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``:
below, H0 is accepted; above, H1. It looks only at the end of each batch of ``BATCH`` pairs, over
the pairs in the order of ``k``, so where it stops is a function of the games alone, never of who
played them or how fast. Pure functions: numpy only; no library of the field fitted (see the docs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from solrec.core.words import quoted

BATCH = 8  # pairs between two looks; also the first look: 8 pairs give the variance its first estimate
DEFAULT_ALPHA = DEFAULT_BETA = 0.05
DEFAULT_MAX_GAMES = 1000  # pairs, when --max-games is not given
RATE_KINDS = ("win", "bot", "drawn", "stuck", "ending")  # in points (percentage points), as the report says them


class SprtError(ValueError):
    """A ``--sprt`` text that names no metric or no pair of hypotheses (bad input)."""


@attrs.frozen
class Test:
    """What ``--sprt METRIC:H0:H1`` asks, at the error rates ``alpha`` (accepting H1 when H0 holds)
    and ``beta`` (accepting H0 when H1 holds)."""

    metric: str
    h0: float
    h1: float
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    @property
    def bounds(self) -> tuple[float, float]:
        return wald_bounds(self.alpha, self.beta)

    @property
    def unit(self) -> str:
        return unit_of(self.metric)


def _g(x: float) -> str:
    return f"{x:g}"


def parse(text: str, alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> Test:
    """``METRIC:H0:H1`` (the metric may hold colons: ``score:LINE``): the two hypotheses, distinct numbers."""
    metric, sep, rest = text.rpartition(":")
    metric, sep2, h0_text = metric.rpartition(":")
    if not (sep and sep2) or not metric.strip():
        raise SprtError(f"--sprt {quoted(text)}: give METRIC:H0:H1, e.g. length-ratio:0:0.2")
    try:
        h0, h1 = float(h0_text), float(rest)
    except ValueError:
        raise SprtError(f"--sprt {quoted(text)}: H0 and H1 are numbers, not {quoted(h0_text)} and {quoted(rest)}") from None
    if not (math.isfinite(h0) and math.isfinite(h1)) or h0 == h1:
        raise SprtError(f"--sprt {quoted(text)}: H0 and H1 are two different finite numbers")
    for name, rate in (("--alpha", alpha), ("--beta", beta)):
        if not 0 < rate < 0.5:
            raise SprtError(f"{name} {rate:g}: an error rate is between 0 and 0.5")
    metric = metric.strip()
    kind, _, key = metric.partition(":")
    if metric not in ("length-ratio", "first-seat", "length", "drawn", "stuck") and not (
            kind in ("win", "score", "bot", "ending", "line") and key):
        raise SprtError(f"--sprt {quoted(text)}: no metric {quoted(metric)}; give length-ratio, first-seat, length, "
                        "score:SEAT, score:LINE (words of a score line's rule), win:SEAT, bot:KIND, drawn, stuck, "
                        "ending:WORDS or line:RULE")
    return Test(metric, h0, h1, alpha, beta)


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: H0 accepted at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(estimate: float, variance: float, h0: float, h1: float) -> float:
    """The normal approximation's log-likelihood ratio of H1 against H0 for an estimate of the given
    variance (the variance of the estimate, not of one pair)."""
    return (h1 - h0) * (2 * estimate - h0 - h1) / (2 * variance)


def unit_of(metric: str) -> str:
    kind = metric.partition(":")[0]
    if metric == "length-ratio":
        return "relative"
    if metric == "first-seat" or kind in RATE_KINDS:
        return "points"
    if kind == "length":
        return "moves"
    return "points"


def columns_of(metric: str, names: Sequence[str]) -> list[str]:
    """The report's numbers a metric reads (its columns of ``stats.Sample``); ``score:LINE`` with LINE
    not a seat number: every kind of score line whose rule holds LINE (case aside), summed."""
    kind, _, key = metric.partition(":")
    if metric in ("length-ratio", "length"):
        return ["length"]
    if metric == "first-seat":
        return ["win:1"]
    if kind == "score" and not key.isdigit():
        return sorted(n for n in names if n.startswith("line:") and key.casefold() in n[5:].casefold())
    return [metric] if metric in names else []


def influence(metric: str, a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
    """The estimate and each pair's influence, from the metric's number in each game of the first set
    (``a``) and the second (``b``), in the metric's unit."""
    if metric == "length-ratio":
        mean_a = float(a.mean())
        if mean_a <= 0:
            return 0.0, np.zeros_like(a)
        ratio = float(b.mean()) / mean_a
        # the delta method: mean(b)/mean(a) - ratio is, to first order, mean(b - ratio * a) / mean(a)
        return ratio - 1, (b - ratio * a) / mean_a
    d = (b - a) * _scale(metric)
    return float(d.mean()), d


@attrs.frozen
class Look:
    """The test at one look: after ``pairs`` pairs, the estimate, the LLR, and what it accepted
    (``"H0"``, ``"H1"``, or None: play on); ``reason``: why it decided or played on without an LLR."""

    pairs: int
    estimate: float
    llr: float
    accepted: str | None
    reason: str = ""


def look(test: Test, a: np.ndarray, b: np.ndarray, identical: bool) -> Look:
    """The test over the pairs so far (``a[k]``, ``b[k]``: the metric in game ``k`` of each set).
    ``identical``: every pair so far is the same game under both sets (the change touched none)."""
    n = len(a)
    low, high = test.bounds
    if n == 0:
        return Look(0, 0.0, 0.0, None, "no pair played")
    estimate, psi = influence(test.metric, a, b)
    if identical:
        # nothing the change could move has moved: the estimate is exactly 0 with no spread, an
        # unbounded LLR for whichever hypothesis lies nearer 0 (shown at its bound)
        side = "H0" if abs(0 - test.h0) <= abs(0 - test.h1) else "H1"
        return Look(n, 0.0, low if side == "H0" else high, side,
                    f"every pair identical: the change altered none of the {n} games played under both sets")
    variance = float(psi.var(ddof=1)) / n if n > 1 else 0.0
    if variance <= 0:
        return Look(n, estimate, 0.0, None, f"no spread yet in {test.metric} over {n} pairs: play on")
    value = llr(estimate, variance, test.h0, test.h1)
    accepted = "H1" if value >= high else "H0" if value <= low else None
    return Look(n, estimate, value, accepted)


def simulate(test: Test, draw: Any, max_pairs: int, batch: int = BATCH) -> Look:
    """The test run on synthetic pairs: ``draw(n)`` gives the next ``n`` pairs as two arrays ``(a, b)``;
    the look at which it stopped (or the last, with ``accepted`` None). For testing the model."""
    a_all: list[np.ndarray] = []
    b_all: list[np.ndarray] = []
    last = Look(0, 0.0, 0.0, None)
    played = 0
    while played < max_pairs:
        n = min(batch, max_pairs - played)
        a, b = draw(n)
        a_all.append(a)
        b_all.append(b)
        played += n
        a_cat, b_cat = np.concatenate(a_all), np.concatenate(b_all)
        last = look(test, a_cat, b_cat, bool((a_cat == b_cat).all()))
        if last.accepted is not None:
            return last
    return last


def interval(test: Test, a: np.ndarray, b: np.ndarray, seed: int) -> tuple[float, float]:
    """The 95% interval of the estimate at the point the test stopped: the report's paired bootstrap
    (``stats.resampled_means``, seeded by the run's seed) of the metric, in its unit."""
    from .stats import interval as percentile
    from .stats import resampled_means

    if not len(a):
        return 0.0, 0.0
    boot = resampled_means(np.column_stack([a, b]), seed)
    if test.metric == "length-ratio":
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(boot[:, 0] > 0, boot[:, 1] / boot[:, 0] - 1, 0.0)
    else:
        values = (boot[:, 1] - boot[:, 0]) * _scale(test.metric)
    return percentile(values)


def _scale(metric: str) -> float:
    """Rates are tested in points (percentage points): a win share of 0.05 is 5 points."""
    return 100.0 if metric == "first-seat" or metric.partition(":")[0] in RATE_KINDS else 1.0


def summary(test: Test, last: Look, max_pairs: int, interval: Sequence[float] | None, batch: int = BATCH) -> dict[str, Any]:
    """The JSON ``sprt`` of a report."""
    low, high = test.bounds
    return {
        "metric": test.metric, "unit": test.unit, "h0": test.h0, "h1": test.h1, "alpha": test.alpha, "beta": test.beta,
        "accepted": last.accepted, "pairs": last.pairs, "llr": _r(last.llr), "bounds": [_r(low), _r(high)],
        "estimate": _r(last.estimate), "interval": [_r(x) for x in interval] if interval is not None else None,
        "max_games": max_pairs, "batch": batch, "reason": last.reason,
        "model": "GSPRT, paired normal approximation (docs/balance.md)",
    }


def _r(x: float, digits: int = 4) -> float:
    value = round(float(x), digits)
    return 0.0 if value == 0 else value


def words(sprt: dict[str, Any]) -> str:
    """The test's answer in one line."""
    unit = {"relative": "", "moves": " moves", "points": " points"}[sprt["unit"]]
    asked = (f"{sprt['metric']}: H0 {_g(sprt['h0'])}{unit} against H1 {_g(sprt['h1'])}{unit} "
             f"(alpha {sprt['alpha']:g}, beta {sprt['beta']:g})")
    from .verdict import bounds, decimals, half_of, number

    low, high = sprt["bounds"]
    where = f"LLR {sprt['llr']:.2f}, bounds {low:.2f} and {high:.2f}"  # the LLR against its bounds: two decimals tell
    interval = sprt.get("interval")
    places = decimals(half_of(interval) if interval else None, sprt["estimate"])  # the digits its interval leaves
    est = f"estimate {number(sprt['estimate'], places, True)}{unit}" + (
        f" [{', '.join(bounds(interval, places))}]" if interval else "")
    if sprt["accepted"] is None:
        return (f"{asked}: neither accepted after {sprt['pairs']} pairs (--max-games {sprt['max_games']}); {where}; {est}"
                + (f"; {sprt['reason']}" if sprt["reason"] else ""))
    said = f"{asked}: {sprt['accepted']} accepted after {sprt['pairs']} pairs ({where}); {est}"
    return said + (f"; {sprt['reason']}" if sprt["reason"] else "")
