"""Ludii's game measures (docs/balance.md, "Ludii's measures") for a balance run: pure functions over
what a game went through, and the collector the balance game runner fills as it plays.

Ludii's evaluation (``Evaluation/src/metrics/single`` in the Ludii repository) computes its measures
from self-play trials: per trial a number, then the mean over the trials. Here a trial is a balance
game: while it is played ``Trace`` notes, at each player move, who moved and how many legal moves
they had, and at every position (the start and after each player move with the chance draws that
follow it) each seat's evaluation and whether the position was seen before in that game.
``game_measures`` turns that ``Trajectory`` into the game's numbers; ``analyse`` turns the games'
numbers into each set's value, the paired difference and their 95% intervals (the paired bootstrap of
``stats``, on the same resamples of the game numbers as the rest of the report).

A seat's evaluation is, with the default ``score`` evaluator, its **score lead**: its total on the
game's score sheet (``Game.score``) less the best other seat's total (in a solitaire, its score), in
the game's points. With ``--evaluator mcts`` it is the mcts bot's estimate (``bots.Decision.estimate``,
-1 to 1): a search from the position for the seat to act, the other seats valued by the return scale's
zero-sum share (docs/balance.md). Nothing here knows a game: everything comes through ``Game``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

SCORE = "score"
MCTS = "mcts"
EVALUATORS = (SCORE, MCTS)


@attrs.frozen
class Trajectory:
    """What one game went through, as the measures read it."""

    seats: int
    moves: int  # the record's lines (chance's included): the length the balance report counts
    movers: tuple[int, ...]  # the seat of each player move, in order
    choices: tuple[int | None, ...]  # legal moves of the mover at each player move (None: not enumerable)
    evaluations: tuple[tuple[float, ...], ...]  # per position (the start, then after each player move): per seat
    repeated: int  # positions that had been reached before in the game (the start counts as new)
    winners: tuple[int, ...] = ()  # seats that won (empty: drawn, stuck, or a solitaire's score)
    stuck: bool = False
    drawn: bool = False


# The measures: name, words, where they come from (Ludii's class), whether an evaluation is needed.
MEASURES: tuple[tuple[str, str, str], ...] = (
    ("completion", "games that reached an end", "outcome/Completion"),
    ("timeouts", "stuck games (not over after --max-moves, or no one could move)", "outcome/Timeouts"),
    ("drawishness", "games drawn (stuck games not counted as draws)", "outcome/Drawishness"),
    ("balance", "1 - the largest difference between two seats' win rates", "outcome/Balance"),
    ("duration-moves", "moves a game (the record's lines, chance's included)", "duration/DurationMoves"),
    ("duration-turns", "turns a game (a turn: a player's moves until another player moves)", "duration/DurationTurns"),
    ("decision-moves", "share of player moves with more than one legal move", "complexity/DecisionMoves"),
    ("branching-factor", "mean number of legal moves at a player move", "BranchingFactor (Ludii's concept)"),
    ("lead-changes", "changes of the leading seat(s) from one position to the next, per player move",
     "stateEvaluation/LeadChange"),
    ("decisiveness", "share of the game played before a winner's evaluation exceeds every evaluation a "
     "non-winner ever had", "stateEvaluation/decisiveness/DecisivenessMoves"),
    ("drama", "mean gap between the best evaluation and the eventual winners' (in evaluation units)",
     "multiple/metrics/Drama (its average)"),
    ("stability", "sum over the seats of the variance of the seat's evaluation over the game (units squared)",
     "stateEvaluation/Stability"),
    ("repetition", "share of positions that had been reached before in the same game",
     "stateRepetition/PositionalRepetition"),
)
NAMES = tuple(m[0] for m in MEASURES) + ("advantage",)
EVALUATED = ("lead-changes", "decisiveness", "drama", "stability")
SPREAD = ("duration-moves", "duration-turns")  # reported with their spread (standard deviation) too


def leaders(evaluation: Sequence[float]) -> frozenset[int]:
    best = max(evaluation)
    return frozenset(s for s, v in enumerate(evaluation) if v == best)


def game_measures(t: Trajectory) -> dict[str, float | None]:
    """One game's value of each per-game measure (None where the game gives it none: a measure of the
    lead in a solitaire, of the winner in a game nobody won, of choices no one could count)."""
    out: dict[str, float | None] = {
        "completion": 0.0 if t.stuck else 1.0,
        "timeouts": 1.0 if t.stuck else 0.0,
        "drawishness": 1.0 if t.drawn and not t.stuck else 0.0,
        "duration-moves": float(t.moves),
        "duration-turns": float(sum(1 for i, s in enumerate(t.movers) if i == 0 or t.movers[i - 1] != s)),
    }
    known = [c for c in t.choices if c is not None]
    out["decision-moves"] = sum(1 for c in known if c > 1) / len(known) if known else None
    out["branching-factor"] = sum(known) / len(known) if known else None
    evals = t.evaluations
    n = len(evals) - 1  # player moves between the first position and the last
    several = t.seats > 1
    if several and n > 0:
        out["lead-changes"] = sum(1 for i in range(1, len(evals)) if leaders(evals[i]) != leaders(evals[i - 1])) / n
    else:
        out["lead-changes"] = None
    won = several and 0 < len(t.winners) < t.seats and n > 0
    if won:
        losers = [s for s in range(t.seats) if s not in t.winners]
        threshold = max(e[s] for e in evals for s in losers)
        first = next((i for i, e in enumerate(evals) if any(e[w] > threshold for w in t.winners)), n)
        out["decisiveness"] = first / n
        out["drama"] = sum(max(e) - sum(e[w] for w in t.winners) / len(t.winners) for e in evals) / len(evals)
    else:
        out["decisiveness"] = out["drama"] = None
    if evals:
        total = 0.0
        for s in range(t.seats):
            values = [e[s] for e in evals]
            mean = sum(values) / len(values)
            total += sum((v - mean) ** 2 for v in values) / len(values)
        out["stability"] = total
    else:
        out["stability"] = None
    out["repetition"] = t.repeated / len(evals) if evals else 0.0
    return out


def lead_of(totals: Sequence[float]) -> tuple[float, ...]:
    """Each seat's score lead: its total less the best other seat's; a solitaire's seat, its score."""
    if len(totals) == 1:
        return (float(totals[0]),)
    out = []
    for s, v in enumerate(totals):
        others = max(w for o, w in enumerate(totals) if o != s)
        out.append(float(v - others))
    return tuple(out)


class Trace:
    """Filled by the balance game runner (``balance._play``) as a game is played; read once, at its end."""

    def __init__(self, game: Any, players: Sequence[str], evaluate: Callable[[Any, Any], Sequence[float]] | None = None):
        self.game = game
        self.players = tuple(players)
        self.evaluate = evaluate  # (state, position) -> per seat; None: the score lead
        self.movers: list[int] = []
        self.choices: list[int | None] = []
        self.evaluations: list[tuple[float, ...]] = []
        self.seen: set[Any] = set()
        self.repeated = 0

    def position(self, state: Any, position: Any = None) -> None:
        """A position reached: the start, or after a player move and the draws that follow it."""
        if state in self.seen:
            self.repeated += 1
        else:
            self.seen.add(state)
        if self.evaluate is not None:
            self.evaluations.append(tuple(float(v) for v in self.evaluate(state, position)))
        else:
            totals = dict(self.game.score(state).totals)
            self.evaluations.append(lead_of([totals.get(p, 0) for p in self.players]))

    def move(self, actor: str, choices: int | None) -> None:
        """A player move by ``actor``, who had ``choices`` legal moves (None: not enumerable)."""
        self.movers.append(self.players.index(actor))
        self.choices.append(choices)

    def trajectory(self, moves: int, winners: Sequence[str], stuck: bool, drawn: bool) -> Trajectory:
        return Trajectory(len(self.players), moves, tuple(self.movers), tuple(self.choices), tuple(self.evaluations),
                          self.repeated, tuple(self.players.index(w) for w in winners if w in self.players), stuck, drawn)


def packed(values: Mapping[str, float | None]) -> tuple[tuple[str, float | None], ...]:
    """A game's measures as ``Played.metrics`` holds them: sorted pairs (small, picklable, comparable)."""
    return tuple(sorted(values.items()))


# -- the statistics ------------------------------------------------------------------------------------------
def columns_of(played: Any) -> dict[str, float]:
    """A game's measures as named numbers for the bootstrap: ``m:NAME`` the value (0 where it has
    none) and ``n:NAME`` 1 where it has one, so a set's value is the mean over the games that have it
    (a ratio of two means, resampled together); ``win:S`` each seat's win share (advantage, balance)."""
    row: dict[str, float] = {}
    for name, value in played.metrics:
        row[f"m:{name}"] = 0.0 if value is None else float(value)
        row[f"n:{name}"] = 0.0 if value is None else 1.0
        if name in SPREAD and value is not None:
            row[f"sq:{name}"] = float(value) ** 2
    for seat, win in enumerate(played.wins, start=1):
        row[f"win:{seat}"] = float(win)
    if len(played.wins) == 1 and played.result in ("won", "lost"):
        row["win:1"] = float(played.result == "won")
    return row


def _ratio(num: Any, den: Any) -> Any:
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _balance(rates: Any) -> Any:
    """Ludii's balance from the seats' win rates (columns): 1 - the largest pairwise difference."""
    import numpy as np

    if rates.shape[-1] < 2:
        return np.full(rates.shape[:-1], np.nan)
    return 1.0 - (rates.max(axis=-1) - rates.min(axis=-1))


def analyse(samples: Sequence[Any], seed: int, players: Sequence[str], evaluator: str = SCORE) -> list[dict[str, Any]]:
    """Each measure per set (its value, 95% interval, and for the durations the spread) and, for two
    sets, the paired difference (second less first) with its 95% interval: the JSON ``metrics``."""
    import numpy as np

    from .stats import RESAMPLES, _r, interval, resampled_means

    seats = len(players)
    per_game = [m[0] for m in MEASURES if m[0] != "balance"]
    names = [f"{p}:{m}" for m in per_game for p in ("m", "n")] + [f"sq:{m}" for m in SPREAD] + [
        f"win:{s}" for s in range(1, seats + 1)]
    matrix = np.column_stack([s.column(name) for s in samples for name in names])
    boot = resampled_means(matrix, seed, RESAMPLES) if matrix.shape[0] else np.zeros((RESAMPLES, matrix.shape[1]))
    width = len(names)
    at = {name: i for i, name in enumerate(names)}

    def point(which: int, measure: str) -> tuple[float, Any]:
        """The set's value (mean over all its games) and its resampled values."""
        sample = samples[which]
        cols = boot[:, which * width:(which + 1) * width]
        if measure == "balance" or measure.startswith("advantage:"):
            rates = np.array([sample.column(f"win:{s}").mean() if sample.games else 0.0 for s in range(1, seats + 1)])
            brates = cols[:, [at[f"win:{s}"] for s in range(1, seats + 1)]]
            if measure == "balance":
                return float(_balance(rates)), _balance(brates)
            s = int(measure.partition(":")[2])
            return float(rates[s - 1]), brates[:, s - 1]
        m, n = sample.column(f"m:{measure}"), sample.column(f"n:{measure}")
        value = float(m.sum() / n.sum()) if n.sum() else float("nan")
        return value, _ratio(cols[:, at[f"m:{measure}"]], cols[:, at[f"n:{measure}"]])

    def spread(which: int, measure: str) -> float:
        sample = samples[which]
        values = sample.column(f"m:{measure}")[sample.column(f"n:{measure}") > 0]
        return _r(values.std(ddof=1)) if len(values) > 1 else 0.0

    def ci(values: Any) -> list[float] | None:
        finite = values[np.isfinite(values)]
        if len(finite) < len(values) / 2 or not len(finite):  # the measure is missing in most resamples
            return None
        low, high = interval(finite)
        return [_r(low), _r(high)]

    order = [m[0] for m in MEASURES]
    order[order.index("balance"):order.index("balance")] = [f"advantage:{s}" for s in range(1, seats + 1)]
    words = {m[0]: (m[1], m[2]) for m in MEASURES}
    out = []
    for measure in order:
        if measure.startswith("advantage:"):
            s = int(measure.partition(":")[2])
            what, source = f"seat {s} ({players[s - 1]}) win rate (draws and shared wins shared)", "outcome/AdvantageP1 (per seat)"
        else:
            what, source = words[measure]
        entry: dict[str, Any] = {"name": measure, "what": what, "ludii": source}
        if measure in EVALUATED:
            entry["evaluation"] = "the mcts bot's estimate" if evaluator == MCTS else "the score lead (points)"
        sets, boots, raw = [], [], []
        for which in range(len(samples)):
            value, resampled = point(which, measure)
            boots.append(resampled)
            raw.append(value)
            one: dict[str, Any] = {"value": None if not np.isfinite(value) else _r(value), "interval": ci(resampled)}
            if measure in SPREAD:
                one["sd"] = spread(which, measure)
            sets.append(one)
        entry["sets"] = sets
        if len(samples) == 2:
            a, b = sets[0]["value"], sets[1]["value"]
            if a is None or b is None:
                entry.update({"difference": None, "interval": None, "covers_zero": True})
            else:
                low_high = ci(boots[1] - boots[0])
                entry["difference"] = _r(raw[1] - raw[0])
                entry["interval"] = low_high
                entry["covers_zero"] = low_high is None or low_high[0] <= 0 <= low_high[1]
        out.append(entry)
    return out


def value_of(metrics: Sequence[Mapping[str, Any]], name: str, which: int = 0) -> tuple[float | None, list[float] | None]:
    """A set's value of a measure and its interval, from ``analyse``'s list."""
    for entry in metrics:
        if entry["name"] == name:
            one = entry["sets"][which]
            return one["value"], one["interval"]
    raise KeyError(name)


def report_lines(metrics: Sequence[Mapping[str, Any]]) -> list[str]:
    """The measures as text lines: per set, and the difference with its interval (``*`` excludes 0),
    each number to the digits its interval makes meaningful (ai/verdict.py)."""
    from .verdict import spread

    lines = ["== Ludii's measures (per set; second - first with its 95% interval; * the interval excludes 0)"]
    alike = [m["name"] for m in metrics if alike_in_every_game(m)]
    for m in metrics:
        if m["name"] in alike:
            continue
        values = " | ".join(measure_cells(s["value"], s.get("interval"))[0] + (f" (sd {spread(s['sd'])})" if "sd" in s else "")
                            for s in m["sets"])
        text = f"  {m['name']}: {values}"
        if "difference" in m:
            mark = " " if m["covers_zero"] else "*"
            change, between = measure_cells(m["difference"], m["interval"], signed=True)
            text = f" {mark}{text[1:]}; {change}" + (f" [{between}]" if between else "")
        if "evaluation" in m:
            text += f"  (evaluation: {m['evaluation']})"
        lines.append(text)
    if alike:
        lines.append(f"   not listed, the same in every game of both sets: {', '.join(alike)}")
    return lines


def alike_in_every_game(m: Mapping[str, Any]) -> bool:
    """A measure of two sets that is 0 in every game of both, or 1 in every game (the completion of
    games that all end, the draws of a game that has none): a row that shows nothing."""
    values = [s["value"] for s in m["sets"]]
    return (len(values) == 2 and values[0] == values[1] and values[0] in (0, 1)
            and list(m.get("interval") or [0.0, 0.0]) == [0.0, 0.0] and all(not s.get("sd") for s in m["sets"]))


def measure_cells(x: float | None, interval: Sequence[float] | None, signed: bool = False) -> tuple[str, str]:
    """A measure's value and its interval ("0.54", "0.17 to 0.55"), to the interval's digits; n/a
    where no game has it."""
    from .verdict import bounds, decimals, half_of, number

    if x is None:
        return "n/a", ""
    places = decimals(half_of(interval) if interval else None, x)
    if not interval:
        return number(x, places, signed), ""
    return number(x, places, signed), " to ".join(bounds(interval, places, signed=signed))


def mcts_evaluator(table: Any, spec: Any, seed: int) -> Callable[[Any, Any], list[float]]:
    """``--evaluator mcts``: each position valued by the mcts bot (``spec``) searching for the seat to
    act, with a seed of its own (``seed`` and the position's move number, never the players' draws):
    that seat gets the bot's estimate e (-1 to 1); each other seat of N gets (1 - e) / (N - 1) - 1,
    its return were the mover's chance of winning (e + 1) / 2 and the rest shared evenly (for two
    seats, -e). A finished game: its returns (docs/ai.md, "Returns")."""
    import hashlib

    from solrec.core.game import CHANCE

    from .search import search

    players = list(table.players)

    def evaluate(state: Any, position: Any) -> list[float]:
        if table.over(position):
            return list(table.returns(position))
        actor = table.to_act(position).actor
        if actor is None or actor == CHANCE:
            return [0.0] * len(players)
        move = int.from_bytes(hashlib.sha256(f"solrec-evaluator:{seed}:{position.moves}".encode()).digest()[:8], "big") >> 1
        e = float(search(spec, table, position, actor, move, table.legal(position)).estimate)
        if len(players) == 1:
            return [e]
        return [e if p == actor else (1 - e) / (len(players) - 1) - 1 for p in players]

    return evaluate
