"""The statistics of a balance run (ai/stats.py): pure functions, one rule a test."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the balance extra")

from solrec.ai import stats  # noqa: E402


def sample(values: dict[str, list[float]]) -> stats.Sample:
    n = len(next(iter(values.values())))
    s = stats.Sample(n)
    for k in range(n):
        s.put(k, {name: column[k] for name, column in values.items()})
    return s


def test_the_same_seed_draws_the_same_resamples_and_another_seed_others():
    matrix = np.arange(40.0).reshape(20, 2)
    assert (stats.resampled_means(matrix, 1, 50) == stats.resampled_means(matrix, 1, 50)).all()
    assert not (stats.resampled_means(matrix, 1, 50) == stats.resampled_means(matrix, 2, 50)).all()


def test_two_identical_sets_give_every_difference_the_interval_0_to_0():
    a = sample({"length": [10, 12, 30, 8], "win:1": [1, 0, 1, 0]})
    b = sample({"length": [10, 12, 30, 8], "win:1": [1, 0, 1, 0]})
    out = stats.analyse([a, b], 0, ["Ann"], resamples=200)
    assert all(d["interval"] == [0.0, 0.0] and d["covers_zero"] for d in out["differences"])


def test_pairing_cancels_what_the_games_share():
    # the games vary a lot, the change adds exactly 5 moves to each: the paired interval is exactly 5
    base = [10, 200, 35, 900, 55, 70]
    out = stats.analyse([sample({"length": base}), sample({"length": [x + 5 for x in base]})], 0, ["Ann"], resamples=200)
    (length,) = [d for d in out["differences"] if d["what"] == "length"]
    assert length["interval"] == [5.0, 5.0] and not length["covers_zero"]


def test_a_score_line_kind_is_the_first_rule_sentence_it_cites():
    rule = '000: "Rows can be vertical, horizontal or diagonal on the board."; 000: "row of three = 1 points"'
    assert stats.line_kind(rule) == '000: "Rows can be vertical, horizontal or diagonal on the board."'
    assert stats.rule_label(stats.line_kind(rule)) == "Rows can be vertical, horizontal or diagonal on the board."
