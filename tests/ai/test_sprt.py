"""The sequential test of a balance run (ai/sprt.py, issue 45): Wald's bounds, the paired normal
LLR, and planted answers: synthetic pairs whose true difference is known, drawn by numpy."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy", reason="the balance extra")

from solrec.ai import sprt  # noqa: E402

RUNS = 1000


def paired(rng: np.random.Generator, difference: float, spread: float):
    """Pairs of games that share most of their variation (the same seeds), the second set's number
    ``difference`` higher on average: what pairing makes of a balance run."""

    def draw(n: int):
        a = rng.normal(100.0, 30.0, n)
        return a, a + rng.normal(difference, spread, n)

    return draw


def rates(test: sprt.Test, difference: float, spread: float, seed: int) -> tuple[dict, float]:
    rng = np.random.default_rng(seed)
    accepted = {"H0": 0, "H1": 0, None: 0}
    pairs = []
    for _ in range(RUNS):
        look = sprt.simulate(test, paired(rng, difference, spread), 10_000)
        accepted[look.accepted] += 1
        pairs.append(look.pairs)
    return {k: v / RUNS for k, v in accepted.items()}, float(np.mean(pairs))


def test_wald_bounds_are_the_logs_of_the_error_rates_ratios():
    low, high = sprt.wald_bounds(0.05, 0.05)
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.wald_bounds(0.01, 0.1) == pytest.approx((math.log(0.1 / 0.99), math.log(0.9 / 0.01)))


def test_the_llr_is_zero_halfway_between_the_hypotheses_and_grows_with_the_evidence():
    assert sprt.llr(0.5, 0.01, 0.0, 1.0) == 0
    assert sprt.llr(1.0, 0.01, 0.0, 1.0) == pytest.approx(50) and sprt.llr(0.0, 0.01, 0.0, 1.0) == pytest.approx(-50)
    assert sprt.llr(1.0, 0.02, 0.0, 1.0) == pytest.approx(25)  # twice the variance: half the evidence


def test_when_the_true_difference_is_h1_it_accepts_h1_at_about_the_stated_rate():
    test = sprt.Test("length", 0.0, 5.0)
    accepted, pairs = rates(test, 5.0, 10.0, seed=1)
    assert accepted["H1"] >= 0.92 and accepted[None] == 0  # beta = 0.05: H0 wrongly accepted about 5% of runs
    assert pairs < 60  # Wald's expected sample size here is about 2 * 2.94 / (5^2 / (2 * 10^2)) = 47


def test_when_the_true_difference_is_h0_it_accepts_h0_at_about_the_stated_rate():
    test = sprt.Test("length", 0.0, 5.0)
    accepted, _ = rates(test, 0.0, 10.0, seed=2)
    assert accepted["H0"] >= 0.92 and accepted[None] == 0  # alpha = 0.05


def test_smaller_error_rates_are_met_with_more_pairs():
    loose = rates(sprt.Test("length", 0.0, 5.0, 0.05, 0.05), 0.0, 10.0, seed=3)
    strict = rates(sprt.Test("length", 0.0, 5.0, 0.01, 0.01), 0.0, 10.0, seed=3)
    assert strict[0]["H1"] <= 0.03 and strict[1] > loose[1]


def test_a_clear_change_is_settled_at_the_first_look():
    look = sprt.simulate(sprt.Test("length-ratio", 0.0, 0.2), paired(np.random.default_rng(4), 100.0, 20.0), 1000)
    assert look.accepted == "H1" and look.pairs == sprt.BATCH


def test_the_length_ratio_is_the_relative_change_of_the_mean_length():
    a, b = np.array([100.0, 200.0, 300.0, 400.0]), np.array([130.0, 230.0, 330.0, 430.0])
    estimate, psi = sprt.influence("length-ratio", a, b)
    assert estimate == pytest.approx(0.12) and psi.mean() == pytest.approx(0.0)  # 1.12 * 250 = 280


def test_a_rate_is_tested_in_points():
    estimate, _ = sprt.influence("first-seat", np.array([1.0, 0.0, 0.0, 1.0]), np.array([1.0, 1.0, 0.0, 1.0]))
    assert estimate == pytest.approx(25.0)


def test_pairs_all_identical_accept_h0_at_once_and_say_so():
    a = np.array([10.0, 20.0, 30.0])
    look = sprt.look(sprt.Test("length-ratio", 0.0, 0.2), a, a.copy(), identical=True)
    assert look.accepted == "H0" and look.pairs == 3 and "every pair identical" in look.reason
    assert look.llr == sprt.wald_bounds(0.05, 0.05)[0]


def test_games_that_differ_but_leave_the_metric_without_spread_play_on():
    wins = np.array([1.0, 0.0, 1.0])
    look = sprt.look(sprt.Test("first-seat", 0.0, 5.0), wins, wins.copy(), identical=False)
    assert look.accepted is None and "no spread" in look.reason


@pytest.mark.parametrize("text, reason", [
    ("length-ratio", "METRIC:H0:H1"), ("length-ratio:0", "METRIC:H0:H1"), ("length-ratio:a:0.2", "numbers"),
    ("length-ratio:0.2:0.2", "different"), ("colour:0:1", "no metric"), ("score::0:1", "no metric"),
])
def test_a_test_that_names_no_metric_or_no_two_hypotheses_is_refused(text, reason):
    with pytest.raises(sprt.SprtError, match=reason):
        sprt.parse(text)


def test_a_metric_may_hold_colons_and_error_rates_lie_between_0_and_one_half():
    assert sprt.parse('score:Rows can be: vertical:0:2.5') == sprt.Test("score:Rows can be: vertical", 0.0, 2.5)
    with pytest.raises(sprt.SprtError, match="--alpha"):
        sprt.parse("first-seat:0:5", alpha=0.7)


def test_a_test_of_a_decrease_accepts_h1_when_the_metric_falls():
    test = sprt.Test("length", 0.0, -5.0)
    falls, _ = rates(test, -5.0, 10.0, seed=5)
    rises, _ = rates(test, 5.0, 10.0, seed=6)
    assert falls["H1"] >= 0.92 and rises["H0"] >= 0.99  # one-sided: a rise is no fall (a rare early look aside)
