"""The balance verdict in words (issue 43, item 5; ai/verdict.py): one plain sentence per question,
each giving its 95% interval as an interval, in the digits the interval makes meaningful, "too few
games to tell" where it is wider than the threshold docs/balance.md states, the rules as footnotes.
Planted reports: the numbers are set by hand (or planted in games' rows), the sentences read back."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the balance extra")

from solrec.ai import stats, verdict  # noqa: E402

PLAYERS = ["Ann", "Bob"]
BETWEEN = re.compile(r"between ([−+]?[\d.]+)%? and ([−+]?[\d.]+)%?")


def planted(games: int = 40, **diffs: dict[str, Any]) -> dict[str, Any]:
    """A two-set report with these differences (what -> a, b, interval, ...), the rest held still."""
    def one(what: str, a: float, b: float, interval: tuple[float, float], **more: Any) -> dict[str, Any]:
        return {"what": what, "label": stats.label_of(what, PLAYERS, {}), "a": a, "b": b, "difference": b - a,
                "interval": list(interval), "covers_zero": interval[0] <= 0 <= interval[1], **more}

    base = {"length": one("length", 100.0, 100.0, (-2.0, 2.0), relative=0.0, relative_interval=[-0.02, 0.02]),
            "win:1": one("win:1", 0.5, 0.5, (-0.03, 0.03)), "win:2": one("win:2", 0.5, 0.5, (-0.03, 0.03))}
    for what, numbers in diffs.items():
        base[what.replace("_", ":")] = one(what.replace("_", ":"), **numbers)
    sets = [{"games": games, "seats": [{"seat": s, "player": p, "win_rate": {"mean": 0.5, "interval": [0.45, 0.55]}}
                                       for s, p in enumerate(PLAYERS, start=1)], "stuck": 0} for _ in range(2)]
    for which, key in enumerate(("a", "b")):
        first = base["win:1"]
        half = (first["interval"][1] - first["interval"][0]) / 2
        sets[which]["seats"][0]["win_rate"] = {"mean": first[key], "interval": [first[key] - half, first[key] + half]}
    return {"sets": sets, "differences": list(base.values())}


def said(report: dict[str, Any], question: str, bots: tuple[str, ...] = ("greedy",)) -> dict[str, Any]:
    (found,) = [f for f in verdict.findings(report, PLAYERS, bots) if f["question"] == question]
    return found


def read_interval(sentence: str) -> tuple[float, float]:
    low, high = BETWEEN.search(sentence).groups()
    return float(low.replace("−", "-")), float(high.replace("−", "-"))


def assert_says_its_interval(finding: dict[str, Any]) -> None:
    """The interval in the sentence holds the one computed and is at most one shown digit wider."""
    low, high = read_interval(finding["sentence"])
    digits = [10 ** -len(t.partition(".")[2]) for t in BETWEEN.search(finding["sentence"]).groups()]
    (a, b) = finding["interval"]
    assert low <= a + 1e-9 and a - low < digits[0] + 1e-9, (finding["sentence"], finding["interval"])
    assert high >= b - 1e-9 and high - b < digits[1] + 1e-9, (finding["sentence"], finding["interval"])


# -- the sentences against their intervals ----------------------------------------------------------------
def test_the_first_seat_sentence_gives_both_rates_and_the_change_as_an_interval():
    report = planted(win_1={"a": 0.48, "b": 0.49, "interval": (-0.10, 0.11)})
    found = said(report, "first-seat")
    assert found["sentence"].startswith("The first seat (Ann) wins 48% → 49% of games")
    assert "a change between −10 and +11 points" in found["sentence"]
    assert_says_its_interval(found)


def test_an_interval_wider_than_five_points_is_too_few_games_to_tell_and_says_how_many_would():
    # issue 43: a 200-game SOLI2 run whose interval was −16.5 to +2.5 points
    report = planted(games=200, win_1={"a": 0.62, "b": 0.55, "interval": (-0.165, 0.025)})
    found = said(report, "first-seat")
    assert "a change between −17 and +3 points" in found["sentence"]  # rounded outward: it holds the interval
    # the half-width 9.5 points narrows to 5 at 200 * (9.5 / 5)^2 = 722 games, said to two digits, up
    assert found["sentence"].endswith("; too few games to tell: about 730 games would settle it within ±5 points.")
    assert (found["settled"], found["games_needed"], found["within"]) == (False, 730, 5.0)


def test_an_interval_within_five_points_settles_the_question_and_asks_for_no_more_games():
    report = planted(games=2000, win_1={"a": 0.51, "b": 0.52, "interval": (-0.02, 0.04)})
    found = said(report, "first-seat")
    assert found["settled"] and "too few" not in found["sentence"] and "games_needed" not in found
    assert_says_its_interval(found)


def test_a_wide_interval_that_excludes_0_says_the_change_is_there_but_not_how_large():
    report = planted(games=12, bot_greedy={"a": 0.88, "b": 0.25, "interval": (-1.0, -0.125)},
                     bot_random={"a": 0.12, "b": 0.75, "interval": (0.125, 1.0)})
    found = said(report, "bot:greedy", bots=("greedy", "random"))
    assert found["sentence"].startswith("The bot greedy wins 88% → 25% of its games, a change between −100 and −12 points")
    assert "too few games to tell how much" in found["sentence"]
    assert_says_its_interval(found)


def test_the_first_seat_is_said_to_have_an_advantage_where_its_interval_lies_above_an_even_share():
    report = planted(games=400, win_1={"a": 0.62, "b": 0.61, "interval": (-0.04, 0.02)})
    found = said(report, "first-seat")
    assert "(an advantage in both sets; an even share is 50%)" in found["sentence"]
    even = planted(games=40, win_1={"a": 0.52, "b": 0.5, "interval": (-0.2, 0.16)})
    assert "(no sign of an advantage in either set; an even share is 50%)" in said(even, "first-seat")["sentence"]


def test_the_length_sentence_says_longer_with_its_relative_interval():
    report = planted(length={"a": 367.3, "b": 806.1, "interval": (380.2, 500.9), "relative": 1.19,
                             "relative_interval": [1.03, 1.37]})
    found = said(report, "length")
    assert found["sentence"].startswith("Games last 119% longer: 367 → 806 moves, a change between +103% and +137%")
    assert "about 470 games would settle it within ±5%" in found["sentence"]  # 40 * (17 / 5)^2 = 462.4, up
    assert_says_its_interval(found)


def test_a_length_within_five_per_cent_shows_no_change():
    found = said(planted(), "length")
    assert found["sentence"] == "Game length shows no change: 100 → 100 moves, a change between −2% and +2%."


def test_numbers_are_said_to_the_digits_their_interval_makes_meaningful():
    # issue 43: "+31.0494 to +35.9263" is two digits of meaning and four of noise
    report = planted(line_R={"a": 32.6, "b": 66.07, "interval": (31.0494, 35.9263)})
    found = said(report, "line:R")
    assert "32.6" not in found["sentence"] and "31.0494" not in found["sentence"]
    assert "scores 33 → 66 points a game, a change between +31 and +36 points" in found["sentence"]
    assert verdict.decimals(2.44) == 0 and verdict.decimals(0.3) == 1 and verdict.decimals(0.15) == 2
    assert verdict.decimals(15) == 0 and verdict.decimals(0.04) == 2


@pytest.mark.parametrize("interval", [(0.0994, 0.3008), (0.0001, 0.0004), (-12.5, -0.05), (3.0, 3.0), (250.0, 1210.0), (-0.333, -0.111)])
def test_every_interval_said_holds_the_interval_computed_and_is_at_most_a_shown_digit_wider(interval):
    report = planted(line_R={"a": 10.0, "b": 10.0 + sum(interval) / 2, "interval": interval})
    assert_says_its_interval(said(report, "line:R"))


def test_a_score_line_is_named_by_its_rule_in_a_footnote_not_by_the_rule_sentence():
    rule = '000: "You have an orientation, when within a row a certain number of comets have the same orientation."'
    report = planted(**{f"line_{rule}": {"a": 3.3, "b": 5.5, "interval": (0.17, 4.67)}})
    (note,) = verdict.footnotes(report["differences"])
    found = said(report, f"line:{rule}")
    assert note == {"mark": 1, "rule": rule}
    assert found["sentence"].startswith("Rule [1] scores ") and "orientation" not in found["sentence"]
    assert "between +0.1 and +5 points" in found["sentence"]  # a bound just off 0 is not said to be 0


def test_no_sentence_or_row_for_a_bot_that_plays_every_seat():
    report = planted(bot_greedy={"a": 0.5, "b": 0.5, "interval": (0.0, 0.0)})
    assert not [f for f in verdict.findings(report, PLAYERS, ("greedy",)) if f["question"].startswith("bot:")]
    shown = verdict.shown_differences({**report, "bots": ["greedy"]})
    assert "bot:greedy" not in {d["what"] for d in shown} and "win:1" in {d["what"] for d in shown}


def test_a_change_that_changes_nothing_says_every_sentence_with_the_interval_0_and_no_difference_found():
    a = stats.Sample(4)
    for k, (length, win) in enumerate([(10, 1), (20, 0), (30, 1), (40, 0)]):
        a.put(k, {"length": length, "win:1": win, "win:2": 1 - win})
    found = verdict.findings(stats.analyse([a, a], 0, PLAYERS, resamples=200), PLAYERS)
    assert found[0]["sentence"] == "Games last 25 moves under both sets, every game as long as its pair."
    assert "a change between 0 and 0 points" in found[1]["sentence"]
    assert found[-1]["sentence"] == "No difference found: every interval holds 0."


def test_planted_games_read_back_as_their_sentences():
    # the change adds 10 moves to each game and gives Ann every game, 40 games
    a, b = stats.Sample(40), stats.Sample(40)
    for k in range(40):
        a.put(k, {"length": 20 + k % 11, "win:1": k % 2, "win:2": 1 - k % 2})
        b.put(k, {"length": 30 + k % 11, "win:1": 1, "win:2": 0})
    found = {f["question"]: f for f in verdict.findings(stats.analyse([a, b], 0, PLAYERS), PLAYERS)}
    assert found["first-seat"]["sentence"].startswith("The first seat (Ann) wins 50% → 100% of games")
    assert found["first-seat"]["changed"] and "too few" in found["first-seat"]["sentence"]  # ±16 points at 40 games
    # the games' mean length 24.7 (20 + k mod 11 over 40 games) gains 10 moves: 40.6%
    assert found["length"]["sentence"].startswith("Games last 40.6% longer: 24.7 → 34.7 moves")
    for f in found.values():
        if "interval" in f:
            assert_says_its_interval(f)


def test_one_set_says_how_it_plays_with_the_first_seats_interval():
    report = planted(games=40)
    one = {"sets": [{**report["sets"][0], "length": {"mean": 71.2, "sd": 42.0, "quantiles": {"5": 24, "95": 122}}}]}
    found = verdict.findings(one, PLAYERS)
    assert found[0]["sentence"] == "Games last 71 moves (most between 24 and 122)."  # sd 42 over 40 games: ±13
    assert found[1]["sentence"].startswith("The first seat (Ann) wins 50% of games, between 47% and 53%: no sign of an advantage")


def test_games_to_settle_grow_as_the_square_of_the_interval():
    assert verdict.games_to_settle(40, 0.10, 0.05) == 160
    assert verdict.games_to_settle(200, 0.095, 0.05) == 730  # 722, up to two digits


def test_the_rules_are_numbered_as_the_verdict_first_mentions_them():
    report = planted(line_A={"a": 1.0, "b": 1.2, "interval": (0.1, 0.3)}, line_B={"a": 10.0, "b": 20.0, "interval": (8.0, 12.0)},
                     line_C={"a": 5.0, "b": 5.0, "interval": (-0.5, 0.5)})
    notes = verdict.footnotes(report["differences"])
    assert [n["rule"] for n in notes] == ["B", "A", "C"]  # the largest change said first; the unchanged last
    sentences = verdict.verdict(report, PLAYERS)
    assert [s[:len("Rule [1]")] for s in sentences if s.startswith("Rule")] == ["Rule [1]", "Rule [2]"]
