"""A balance run's verdict in words a person reads in ten seconds (``solrec balance``, docs/balance.md).

One plain sentence per question the run asks: how long the games last, whether the first seat has
an advantage and whether the change moves it, and each kind of score line (and way of ending, draws,
stuck games, a bot's win rate) that changed. Each sentence gives its 95% interval as an interval
("a change between −10 and +11 points"), with its numbers to the digits the interval makes
meaningful; where the interval is wider than a threshold (±5 points of a rate, ±5% of a length,
±10% of a score: ``RATE_THRESHOLD`` and the others), it says that the games are
too few to tell and about how many would settle it. The score lines are named by the rule they cite
through a footnote mark (``rule [1]``), the rule's sentence in the footnotes. Pure: from the report's
numbers (``ai/stats.py: analyse``) to words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

MINUS = "\u2212"  # a minus sign, not a hyphen, in the sentences (as in print)
ARROW = "\u2192"
RATE_THRESHOLD = 0.05  # a rate's interval wider than ±5 points is too wide to tell
RELATIVE_THRESHOLD = 0.05  # a length's wider than ±5% (of the first set's length)
SCORE_THRESHOLD = 0.10  # points of score: wider than ±10% of the first set's points
MAX_LINE_SENTENCES = 4  # kinds of score line said, the largest changes first; the rest counted
RATES = ("win", "bot", "drawn", "stuck", "ending")


# -- numbers to meaningful digits ---------------------------------------------------------------------------
def decimals(half: float | None, value: float = 0.0) -> int:
    """The decimals a number is worth given the half-width of its interval: the half-width to one
    significant digit (two when it starts with a 1); without a spread (``half`` 0), three significant
    digits of the value itself (none after the point of a whole number)."""
    if half is not None and half > 0:
        exponent = math.floor(math.log10(half))
        significant = 2 if half / 10 ** exponent < 2 else 1
        return min(4, max(0, significant - 1 - exponent))
    if value == 0 or float(value).is_integer():
        return 0
    return min(4, max(0, 2 - math.floor(math.log10(abs(value)))))


def number(x: float, places: int, signed: bool = False, outward: int = 0) -> str:
    """``x`` with ``places`` decimals (more where those would show a number that is not 0 as 0: an
    interval's bound just off 0 is not said to touch it); a minus sign for negatives, ``+`` where
    ``signed``; never ``-0``. ``outward``: -1 rounds down, 1 up (an interval's low and high bound,
    so that the interval said holds the one computed)."""
    while True:
        scaled = round(x * 10 ** places, 6)  # 0.11 * 100 is 11.000000000000002: not rounded up to 12
        whole = (math.floor(scaled) if outward < 0 else math.ceil(scaled) if outward > 0
                 else int(math.copysign(math.floor(abs(scaled) + 0.5), scaled)))  # half away from 0, as in print
        if whole != 0 or x == 0 or places >= 4:
            break
        places += 1
    text = f"{abs(whole) / 10 ** places:.{places}f}"
    if whole == 0:
        return "0"
    if whole < 0:
        return MINUS + text
    return ("+" if signed else "") + text


def points(x: float, places: int, signed: bool = False, outward: int = 0) -> str:
    """A rate (0 to 1) in percentage points."""
    return number(x * 100, places, signed, outward)


def bounds(interval: Sequence[float], places: int, rate: bool = False, suffix: str = "", signed: bool = True) -> tuple[str, str]:
    """An interval's two bounds, rounded outward (``suffix`` after each: "%")."""
    show = points if rate else number
    low, high = interval
    return f"{show(low, places, signed, -1)}{suffix}", f"{show(high, places, signed, 1)}{suffix}"


def span(interval: Sequence[float], places: int, rate: bool = False, suffix: str = "") -> str:
    """An interval in words: "between −10 and +11" (``suffix`` after each number: "+5% and +9%")."""
    low, high = bounds(interval, places, rate, suffix)
    return f"between {low} and {high}"


def half_of(interval: Sequence[float]) -> float:
    return max(0.0, (interval[1] - interval[0]) / 2)


def games_to_settle(games: int, half: float, within: float) -> int:
    """About how many games per set would narrow an interval of half-width ``half`` (from ``games``
    games) to ``±within``: an interval narrows as 1/√N, the observed spread of the paired differences
    staying; rounded up to two significant digits."""
    needed = games * (half / within) ** 2
    if needed <= 0:
        return games
    scale = 10 ** max(0, math.floor(math.log10(needed)) - 1)
    return int(math.ceil(needed / scale) * scale)


# -- footnotes --------------------------------------------------------------------------------------------
def footnotes(differences: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each kind of score line of the report numbered, those the verdict says first (in its order),
    then the others in the order of the differences: the rule it cites (its first rule sentence,
    quoted), said in full once, under the verdict."""
    said = [d["what"] for d in changed_lines(differences)[:MAX_LINE_SENTENCES]]
    kinds = said + [d["what"] for d in differences if d["what"].startswith("line:") and d["what"] not in said]
    return [{"mark": n, "rule": what.partition(":")[2]} for n, what in enumerate(kinds, start=1)]


def changed_lines(differences: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The kinds of score line whose interval excludes 0 and that both sets score (a rule only one set
    cites is a change of wording, not of play), the largest changes first."""
    return sorted((d for d in differences if d["what"].startswith("line:") and not d["covers_zero"] and d["a"] and d["b"]),
                  key=lambda d: (-abs(d["difference"]), d["what"]))


def marks_of(notes: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {f"line:{n['rule']}": int(n["mark"]) for n in notes}


def named(what: str, label: str, marks: Mapping[str, int]) -> str:
    """A row's name: a score line by its footnote (``points by rule [1]``), else its label."""
    if what in marks:
        return f"points by rule [{marks[what]}]"
    return label


# -- what cannot differ ----------------------------------------------------------------------------------
def cannot_differ(d: Mapping[str, Any], bots: Sequence[str]) -> bool:
    """A row that is the same in every game of both sets by the run's making: a bot's win rate when
    one bot plays every seat (its games are every game: it wins 1/N of each), a rate that is 0 or
    100% of the games in both sets (every game alike in it)."""
    kind = d["what"].partition(":")[0]
    if kind == "bot" and len(set(bots)) == 1:
        return True
    return kind in RATES and d["a"] == d["b"] and d["a"] in (0.0, 1.0) and list(d["interval"]) == [0.0, 0.0]


# -- the sentences ----------------------------------------------------------------------------------------
def findings(analysis: Mapping[str, Any], players: Sequence[str], bots: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One plain sentence per question, each a dict: ``question``, ``sentence``, and for two sets the
    ``interval`` it gives (in its ``unit``: "points" of a rate, "%" of a length, "points of score"),
    ``changed`` (the interval excludes 0), ``settled`` (it is no wider than the threshold) and, where
    not, ``games_needed`` to settle it ``within`` ±that (in the unit)."""
    sets = analysis["sets"]
    if "differences" not in analysis:
        return _one_set(sets[0], players)
    diffs = {d["what"]: d for d in analysis["differences"]}
    games = int(sets[0]["games"])
    marks = marks_of(footnotes(analysis["differences"]))
    out = [_length(diffs["length"], games)]
    if len(players) > 1 and "win:1" in diffs:
        out.append(_first_seat(diffs["win:1"], sets, players, games))
        for s, player in enumerate(players[2:], start=3):  # with two seats the second mirrors the first
            d = diffs.get(f"win:{s}")
            if d is not None and not d["covers_zero"]:
                out.append(_rate(d, games, f"seat {s} ({player}) wins", "of games", f"win:{s}"))
    elif "win:1" in diffs and (diffs["win:1"]["a"] or diffs["win:1"]["b"]):
        out.append(_rate(diffs["win:1"], games, "Games won:", "", "won"))
    if len(players) == 1 and "score:1" in diffs:
        out.append(_amount(diffs["score:1"], games, "The mean score is", "", "score:1"))
    for name, d in diffs.items():
        kind, _, key = name.partition(":")
        if d["covers_zero"] or cannot_differ(d, bots):
            continue
        if kind == "ending":
            out.append(_rate(d, games, f"\u201c{key}\u201d ends", "of games", name))
        elif kind == "drawn":
            out.append(_rate(d, games, "draws are", "of games", name))
        elif kind == "stuck":
            out.append(_rate(d, games, "stuck games are", "of games", name))
        elif kind == "bot":
            out.append(_rate(d, games, f"the bot {key} wins", "of its games", name))
    lines = changed_lines(analysis["differences"])
    for d in lines[:MAX_LINE_SENTENCES]:
        out.append(_amount(d, games, f"rule [{marks[d['what']]}] scores", " points a game", d["what"]))
    if len(lines) > MAX_LINE_SENTENCES:
        rest = len(lines) - MAX_LINE_SENTENCES
        out.append({"question": "lines", "sentence": f"{rest} other kind{'s' if rest > 1 else ''} of score line "
                                                      f"changed too (the table of differences lists {'them' if rest > 1 else 'it'})."})
    if all(d["covers_zero"] for d in diffs.values()):
        out.append({"question": "any", "sentence": "No difference found: every interval holds 0."})
    return out


def verdict(analysis: Mapping[str, Any], players: Sequence[str], bots: Sequence[str] = ()) -> list[str]:
    """The sentences alone (JSON ``verdict``)."""
    return [f["sentence"] for f in findings(analysis, players, bots)]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unsettled(changed: bool, needed: int, within: str) -> str:
    how = "too few games to tell how much" if changed else "too few games to tell"
    return f"; {how}: about {needed:,} games would settle it within ±{within}"


def _length(d: Mapping[str, Any], games: int) -> dict[str, Any]:
    a, b = d["a"], d["b"]
    if "relative" not in d:  # no first-set length: nothing to compare against
        return {"question": "length", "sentence": f"Games last {number(b, decimals(None, b))} moves."}
    interval = d["relative_interval"]
    half = half_of(interval)
    places = decimals(half * 100)
    moves = decimals(half_of(d["interval"]), a)
    entry: dict[str, Any] = {"question": "length", "a": a, "b": b, "interval": [interval[0] * 100, interval[1] * 100],
                             "unit": "%", "changed": not d["covers_zero"], "settled": half <= RELATIVE_THRESHOLD}
    if list(d["interval"]) == [0.0, 0.0] and a == b:
        entry["sentence"] = f"Games last {number(a, decimals(None, a))} moves under both sets, every game as long as its pair."
        return entry
    rel = number(abs(d["relative"]) * 100, decimals(half * 100, abs(d["relative"]) * 100))
    said = (f"Games last {rel}% longer" if d["difference"] > 0 else f"Games get {rel}% shorter") if not d["covers_zero"] \
        else "Game length shows no change"
    text = (f"{said}: {number(a, moves)} {ARROW} {number(b, moves)} moves, a change "
            f"{span([interval[0] * 100, interval[1] * 100], places, suffix='%')}")
    if not entry["settled"]:
        entry["games_needed"] = games_to_settle(games, half, RELATIVE_THRESHOLD)
        entry["within"] = RELATIVE_THRESHOLD * 100
        text += _unsettled(entry["changed"], entry["games_needed"], f"{RELATIVE_THRESHOLD * 100:g}%")
    entry["sentence"] = text + "."
    return entry


def _first_seat(d: Mapping[str, Any], sets: Sequence[Mapping[str, Any]], players: Sequence[str], games: int) -> dict[str, Any]:
    """The first seat: its win rate under each set, whether it has an advantage (its interval above an
    even share, 1/N) in each, and the change with its interval."""
    even = 1 / len(players)
    standing = [_standing(s["seats"][0]["win_rate"]["interval"], even) for s in sets]
    if standing[0] == standing[1]:
        side = f"{standing[0]} in {'either set' if standing[0].startswith('no ') else 'both sets'}"
    else:
        side = f"{standing[0]} in the first set, {standing[1]} in the second"
    entry = _rate(d, games, f"the first seat ({players[0]}) wins", "of games", "first-seat",
                  aside=f" ({side}; an even share is {points(even, 0)}%)")
    entry["advantage"] = standing
    return entry


def _standing(interval: Sequence[float], even: float) -> str:
    if interval[0] > even:
        return "an advantage"
    if interval[1] < even:
        return "a disadvantage"
    return "no sign of an advantage"


def _rate(d: Mapping[str, Any], games: int, subject: str, of: str, question: str, aside: str = "") -> dict[str, Any]:
    """A rate's sentence, in percentage points: "the first seat wins 48% → 49% of games, a change
    between −10 and +11 points"."""
    half = half_of(d["interval"])
    places = decimals(half * 100, max(abs(d["a"]), abs(d["b"])) * 100)
    entry: dict[str, Any] = {"question": question, "a": d["a"], "b": d["b"],
                             "interval": [d["interval"][0] * 100, d["interval"][1] * 100], "unit": "points",
                             "changed": not d["covers_zero"], "settled": half <= RATE_THRESHOLD}
    of = f" {of}" if of else ""
    text = (f"{_capital(subject)} {points(d['a'], places)}% {ARROW} {points(d['b'], places)}%{of}{aside}, a change "
            f"{span(d['interval'], places, rate=True)} points")
    if not entry["settled"]:
        entry["games_needed"] = games_to_settle(games, half, RATE_THRESHOLD)
        entry["within"] = RATE_THRESHOLD * 100
        text += _unsettled(entry["changed"], entry["games_needed"], f"{RATE_THRESHOLD * 100:g} points")
    entry["sentence"] = text + "."
    return entry


def _amount(d: Mapping[str, Any], games: int, subject: str, per: str, question: str) -> dict[str, Any]:
    """A number of points of score: "rule [1] scores 13 → 24 points a game, a change between +7 and +15"."""
    half = half_of(d["interval"])
    base = abs(d["a"]) or abs(d["b"])
    within = SCORE_THRESHOLD * base
    places = decimals(half, max(abs(d["a"]), abs(d["b"])))
    entry: dict[str, Any] = {"question": question, "a": d["a"], "b": d["b"], "interval": list(d["interval"]),
                             "unit": "points of score", "changed": not d["covers_zero"],
                             "settled": within == 0 or half <= within}
    text = (f"{_capital(subject)} {number(d['a'], places)} {ARROW} {number(d['b'], places)}{per}, a change "
            f"{span(d['interval'], places)} points")
    if not entry["settled"]:
        shown = float(f"{within:.2g}")  # ±10% of the first set's points, to two digits
        entry["games_needed"] = games_to_settle(games, half, shown)
        entry["within"] = shown
        text += _unsettled(entry["changed"], entry["games_needed"], f"{shown:g} points")
    entry["sentence"] = text + "."
    return entry


def _one_set(stats: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, Any]]:
    """One set: how it plays. The length; the first seat's win rate with its interval and whether
    that is an advantage; a solitaire's mean score and how often it is won."""
    length = stats["length"]
    q = length["quantiles"]
    most = f" (most between {number(q['5'], 0)} and {number(q['95'], 0)})" if q else ""
    out = [{"question": "length", "sentence": f"Games last {number(length['mean'], mean_places(length, int(stats['games'])))} "
                                              f"moves{most}."}]
    if len(players) > 1 and stats["seats"]:
        seat = stats["seats"][0]
        rate = seat["win_rate"]
        even = 1 / len(players)
        half = half_of(rate["interval"])
        places = decimals(half * 100, rate["mean"] * 100)
        low, high = bounds(rate["interval"], places, True, "%", signed=False)
        text = (f"The first seat ({seat['player']}) wins {points(rate['mean'], places)}% of games, between "
                f"{low} and {high}: "
                f"{_standing(rate['interval'], even)} (an even share is {points(even, 0)}%)")
        entry: dict[str, Any] = {"question": "first-seat", "a": rate["mean"],
                                 "interval": [rate["interval"][0] * 100, rate["interval"][1] * 100], "unit": "%",
                                 "settled": half <= RATE_THRESHOLD}
        if not entry["settled"]:
            entry["games_needed"] = games_to_settle(int(stats["games"]), half, RATE_THRESHOLD)
            entry["within"] = RATE_THRESHOLD * 100
            text += _unsettled(False, entry["games_needed"], f"{RATE_THRESHOLD * 100:g} points")
        entry["sentence"] = text + "."
        out.append(entry)
    elif stats["seats"]:
        seat = stats["seats"][0]
        score = seat["score"]
        out.append({"question": "score:1", "sentence": f"The mean score is {number(score['mean'], mean_places(score, int(stats['games'])))}"
                                                        f" (spread {spread(score['sd'])})."})
        if seat["win_rate"]["mean"]:
            out.append({"question": "won", "sentence": f"Games won: {points(seat['win_rate']['mean'], 0)}%."})
    if stats["stuck"]:
        out.append({"question": "stuck", "sentence": f"{stats['stuck']} game{'s' if stats['stuck'] > 1 else ''} stuck."})
    return out


# -- the report's rows in the same digits (the text and the page) ----------------------------------------------
def mean_places(described: Mapping[str, Any], games: int) -> int:
    """Decimals of a set's mean (of moves, of points): those its standard error leaves meaningful
    (the half-width of a 95% interval, 1.96 sd / √N)."""
    sd, mean = float(described.get("sd", 0.0)), float(described.get("mean", 0.0))
    return decimals(1.96 * sd / math.sqrt(games) if games > 1 and sd else None, mean)


def spread(sd: float) -> str:
    """A standard deviation to two significant digits."""
    return number(float(f"{sd:.2g}"), max(0, 1 - math.floor(math.log10(sd)))) if sd > 0 else "0"


def is_rate(what: str) -> bool:
    return what.partition(":")[0] in RATES


def difference_cells(d: Mapping[str, Any]) -> tuple[str, str, str, tuple[str, str] | None]:
    """A difference in short texts: the two sets' values ("62% → 60%"), the change ("−2 points"), its
    interval ("−20 to +15"), in its unit, to the digits its interval makes meaningful; for the length
    also the relative change and its interval ("+163%", "+86% to +212%")."""
    rate = is_rate(d["what"])
    half = half_of(d["interval"])
    if rate:
        places = decimals(half * 100, max(abs(d["a"]), abs(d["b"])) * 100)
        values = f"{points(d['a'], places)}% {ARROW} {points(d['b'], places)}%"
        change = f"{points(d['difference'], places, True)} points"
    else:
        places = decimals(half, max(abs(d["a"]), abs(d["b"])))
        values = f"{number(d['a'], places)} {ARROW} {number(d['b'], places)}"
        change = number(d["difference"], places, True)
    between = " to ".join(bounds(d["interval"], places, rate))
    relative = None
    if "relative" in d:
        rel = d["relative_interval"]
        rp = decimals(half_of(rel) * 100, abs(d["relative"]) * 100)
        relative = (f"{number(d['relative'] * 100, rp, True)}%", " to ".join(bounds([rel[0] * 100, rel[1] * 100], rp, suffix="%")))
    return values, change, between, relative


def rate_with_interval(rate: Mapping[str, Any]) -> tuple[str, str]:
    """A win rate and its interval ("62%", "48% to 78%"), to the interval's digits."""
    places = decimals(half_of(rate["interval"]) * 100, rate["mean"] * 100)
    return f"{points(rate['mean'], places)}%", " to ".join(bounds(rate["interval"], places, True, "%", signed=False))


def shown_differences(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The differences a reader is shown: those that can differ (``cannot_differ``)."""
    return [d for d in data.get("differences", []) if not cannot_differ(d, data.get("bots", ()))]
