"""The statistics of a balance run (docs/balance.md): pure functions over the games' numbers.

Every game of a set is a row of numbers (``row_of``): its length in moves, each seat's score and win
share, each bot's win share, one indicator per way of ending, the points of each kind of score line.
``Sample`` holds a set's rows in the order of the game's number ``k``. For two sets the rows are
**paired** (game ``k`` of both used the same seeds), so the differences are estimated by a paired
bootstrap: ``RESAMPLES`` resamples of the game numbers, drawn from a generator seeded by the run's
seed, each resample taking game ``k`` of both sets together; a 95% interval is the 2.5th and 97.5th
percentile of the resampled statistic. A difference whose interval holds 0 is "unchanged within" its
interval. The same rows and seed give the same numbers, byte for byte (numpy's PCG64; the order of
the rows never depends on who played them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

RESAMPLES = 1000
LEVEL = 0.95
QUANTILES = (5, 25, 50, 75, 95)
BATCH = 25  # resamples drawn at once (memory: BATCH x games counts)


class Sample:
    """One option set's games as columns of numbers, by the game's number ``k``."""

    def __init__(self, games: int):
        self.games = games
        self.columns: dict[str, np.ndarray] = {}

    def put(self, k: int, row: Mapping[str, float]) -> None:
        for name, value in row.items():
            column = self.columns.get(name)
            if column is None:
                column = self.columns[name] = np.zeros(self.games)
            column[k] = value

    def column(self, name: str) -> np.ndarray:
        found = self.columns.get(name)
        return found if found is not None else np.zeros(self.games)


def row_of(played: Any) -> dict[str, float]:
    """A game (``balance.Played``) as named numbers: ``length``; per seat ``score:S``, ``win:S``
    (S from 1); ``bot:SPEC`` the mean win share of the seats the bot held; ``drawn``, ``stuck``;
    ``ending:WORDS`` 1 for the way it ended; ``line:RULE`` the points of the lines citing RULE."""
    row: dict[str, float] = {"length": float(played.moves), "drawn": float(played.result == "drawn"),
                             "stuck": float(played.result == "stuck"), f"ending:{played.ending}": 1.0}
    for seat, (score, win) in enumerate(zip(played.scores, played.wins), start=1):
        row[f"score:{seat}"] = float(score)
        row[f"win:{seat}"] = float(win)
    held: dict[str, list[float]] = {}
    for bot, win in zip(played.bots, played.wins):
        held.setdefault(bot, []).append(win)
    for bot, wins in held.items():
        row[f"bot:{bot}"] = sum(wins) / len(wins)
    if played.result in ("won", "lost") and len(played.scores) == 1:
        row["win:1"] = float(played.result == "won")
    for rule, points in played.lines:
        row[f"line:{rule}"] = float(points)
    return row


def bootstrap_seed(seed: int) -> np.random.Generator:
    digest = hashlib.sha256(f"solrec-balance-bootstrap:{seed}".encode()).digest()
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big")))


def resampled_means(matrix: np.ndarray, seed: int, resamples: int = RESAMPLES) -> np.ndarray:
    """The column means of ``resamples`` bootstrap resamples of the rows (resamples x columns): each
    resample draws as many rows as there are, with replacement; a row is a game of both sets."""
    n = matrix.shape[0]
    rng = bootstrap_seed(seed)
    out = np.empty((resamples, matrix.shape[1]))
    for start in range(0, resamples, BATCH):
        b = min(BATCH, resamples - start)
        drawn = rng.integers(0, n, size=(b, n))
        counts = np.zeros((b, n))
        for i in range(b):
            counts[i] = np.bincount(drawn[i], minlength=n)
        out[start:start + b] = counts @ matrix / n
    return out


def interval(values: np.ndarray) -> tuple[float, float]:
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def describe(values: np.ndarray) -> dict[str, Any]:
    """Mean, spread (standard deviation), extremes and quantiles of one set's numbers."""
    if not len(values):
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "max": 0.0, "quantiles": {}}
    quantiles = np.percentile(values, QUANTILES)
    return {"mean": _r(values.mean()), "sd": _r(values.std(ddof=1) if len(values) > 1 else 0.0),
            "min": _r(values.min()), "max": _r(values.max()),
            "quantiles": {str(q): _r(v) for q, v in zip(QUANTILES, quantiles)}}


def _r(x: Any, digits: int = 4) -> float:
    """A number as the report prints it: rounded (the same bytes wherever it was computed), no -0.0."""
    value = round(float(x), digits)
    return 0.0 if value == 0 else value


def analyse(samples: Sequence[Sample], seed: int, players: Sequence[str], labels: Mapping[str, str] | None = None,
            resamples: int = RESAMPLES) -> dict[str, Any]:
    """Each set's statistics and, for two sets, their paired differences, with 95% intervals."""
    labels = dict(labels or {})
    names = sorted(set().union(*(s.columns for s in samples)) | {"length"})
    matrix = np.column_stack([s.column(name) for s in samples for name in names])
    boot = resampled_means(matrix, seed, resamples) if matrix.shape[0] else np.zeros((resamples, matrix.shape[1]))
    width = len(names)
    sets = []
    for at, sample in enumerate(samples):
        sets.append(_set_stats(sample, names, boot[:, at * width:(at + 1) * width], players, labels))
    out: dict[str, Any] = {"sets": sets}
    if len(samples) == 2:
        out["differences"] = _differences(samples, names, boot[:, :width], boot[:, width:], players, labels)
    return out


def _kind(name: str) -> tuple[str, str]:
    kind, _, key = name.partition(":")
    return kind, key


def _set_stats(sample: Sample, names: list[str], boot: np.ndarray, players: Sequence[str],
               labels: Mapping[str, str]) -> dict[str, Any]:
    def mean_ci(name: str) -> dict[str, Any]:
        if name not in names:  # a number no game of any set has: 0
            return {"mean": 0.0, "interval": [0.0, 0.0]}
        i = names.index(name)
        low, high = interval(boot[:, i])
        return {"mean": _r(sample.column(name).mean() if sample.games else 0), "interval": [_r(low), _r(high)]}

    seats = []
    for s, player in enumerate(players, start=1):
        seats.append({"seat": s, "player": player, "win_rate": mean_ci(f"win:{s}"),
                      "score": describe(sample.column(f"score:{s}"))})
    out: dict[str, Any] = {
        "games": sample.games,
        "length": describe(sample.column("length")),
        "seats": seats,
        "bots": [{"bot": key, "win_rate": mean_ci(n)} for n in names if (key := _kind(n)[1]) and _kind(n)[0] == "bot"],
        "drawn": mean_ci("drawn") if "drawn" in names else {"mean": 0.0, "interval": [0.0, 0.0]},
        "stuck": int(sample.column("stuck").sum()),
        "endings": [{"ending": key, "games": int(sample.column(n).sum()), "share": mean_ci(n)}
                    for n in names if _kind(n)[0] == "ending" and (key := _kind(n)[1]) and sample.column(n).any()],
        "lines": [{"rule": key, "label": labels.get(key, key), "points": mean_ci(n)}
                  for n in names if _kind(n)[0] == "line" and (key := _kind(n)[1]) and sample.column(n).any()],
    }
    return out


def _differences(samples: Sequence[Sample], names: list[str], boot_a: np.ndarray, boot_b: np.ndarray,
                 players: Sequence[str], labels: Mapping[str, str]) -> list[dict[str, Any]]:
    a, b = samples
    out = []
    for i, name in sorted(enumerate(names), key=lambda item: (ORDER.index(_kind(item[1])[0]) if _kind(item[1])[0] in ORDER else len(ORDER), item[1])):
        kind, key = _kind(name)
        if kind == "drawn" and not (a.column(name).any() or b.column(name).any()):
            continue
        if kind in ("ending", "line") and not (a.column(name).any() or b.column(name).any()):
            continue
        if kind == "stuck" and not (a.column(name).any() or b.column(name).any()):
            continue
        mean_a, mean_b = float(a.column(name).mean()), float(b.column(name).mean())
        low, high = interval(boot_b[:, i] - boot_a[:, i])
        entry: dict[str, Any] = {"what": name, "label": label_of(name, players, labels), "a": _r(mean_a),
                                 "b": _r(mean_b), "difference": _r(mean_b - mean_a), "interval": [_r(low), _r(high)],
                                 "covers_zero": bool(low <= 0 <= high)}
        if kind == "length" and mean_a:
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(boot_a[:, i] > 0, boot_b[:, i] / boot_a[:, i] - 1, 0.0)
            rlow, rhigh = interval(ratio)
            entry["relative"] = _r(mean_b / mean_a - 1)
            entry["relative_interval"] = [_r(rlow), _r(rhigh)]
        out.append(entry)
    return out


ORDER = ("length", "win", "score", "bot", "drawn", "stuck", "ending", "line")
RATES = ("win", "bot", "drawn", "stuck", "ending")


def label_of(name: str, players: Sequence[str], labels: Mapping[str, str]) -> str:
    """What a number is, in words."""
    kind, key = _kind(name)
    if kind == "length":
        return "game length (moves)"
    if kind in ("score", "win"):
        seat = int(key)
        who = players[seat - 1] if seat <= len(players) else f"seat {seat}"
        return f"seat {seat} ({who}) {'mean score' if kind == 'score' else 'win rate'}"
    if kind == "bot":
        return f"bot {key} win rate"
    if kind == "drawn":
        return "draws"
    if kind == "stuck":
        return "stuck games"
    if kind == "ending":
        return f"ended: {key}"
    if kind == "line":
        return f"score lines: {labels.get(key, key)}"
    return name


# The verdict in words: ai/verdict.py.


def line_kind(rule: str) -> str:
    """A score line's kind: the first rule sentence it cites (``003: "..."``), so that lines citing one
    rule with particulars of their own (a table value, a second sentence) count together."""
    import re

    found = re.search(r'(?:[\w.]+: )?"[^"]*"', rule)
    return found.group(0) if found else rule


def rule_label(rule: str, limit: int = 90) -> str:
    """A score line's kind named by the rule it cites: its quoted sentence (the game's words), cut."""
    import re

    quoted = re.findall(r'"([^"]*)"', rule) or [rule]
    text = " / ".join(q.strip() for q in quoted)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def labels_of(samples: Iterable[Sample]) -> dict[str, str]:
    """Each score-line kind's label; two kinds whose labels read alike once cut are numbered."""
    rules = sorted({key for s in samples for n in s.columns if (key := _kind(n)[1]) and _kind(n)[0] == "line"})
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for rule in rules:
        label = rule_label(rule)
        seen[label] = seen.get(label, 0) + 1
        out[rule] = label if seen[label] == 1 else f"{label} ({seen[label]})"
    return out
