"""Ludii's measures in `solrec balance` (issue 45, item 2; docs/balance.md "Ludii's measures"): each
measure's definition on a hand-made game, and an option that does not change play changing none."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra: pip install -e '.[ai]'")

from solrec.ai.metrics import Trajectory, game_measures, lead_of  # noqa: E402
from solrec.cli.main import app  # noqa: E402

RUNNER = CliRunner()

# Two seats, four player moves (seat 0, 0, 1, 0), nine record lines; the score lead at the start and
# after each player move; the last position is the third again; seat 1 won.
HAND_MADE = Trajectory(
    seats=2, moves=9, movers=(0, 0, 1, 0), choices=(3, 1, None, 2),
    evaluations=((0, 0), (2, -2), (-1, 1), (-3, 3), (-1, 1)), repeated=1, winners=(1,))


def test_completion_timeouts_and_drawishness_count_the_game_as_it_ended():
    m = game_measures(HAND_MADE)
    assert (m["completion"], m["timeouts"], m["drawishness"]) == (1.0, 0.0, 0.0)
    stuck = game_measures(Trajectory(2, 5, (0,), (1,), ((0, 0), (0, 0)), 0, stuck=True, drawn=True))
    assert (stuck["completion"], stuck["timeouts"], stuck["drawishness"]) == (0.0, 1.0, 0.0)  # a stuck game is no draw


def test_duration_counts_the_record_lines_and_the_turns_a_turn_ending_when_another_player_moves():
    m = game_measures(HAND_MADE)
    assert m["duration-moves"] == 9 and m["duration-turns"] == 3  # (0, 0) (1) (0)


def test_decision_moves_and_branching_factor_read_the_moves_whose_choices_were_counted():
    m = game_measures(HAND_MADE)
    assert m["decision-moves"] == pytest.approx(2 / 3)  # 3 and 2 choices, not 1; the uncounted move left out
    assert m["branching-factor"] == pytest.approx(2.0)  # (3 + 1 + 2) / 3


def test_lead_changes_count_each_change_of_the_leading_seats_per_player_move():
    # leaders: {0,1} -> {0} -> {1} -> {1} -> {1}: two changes in four moves
    assert game_measures(HAND_MADE)["lead-changes"] == pytest.approx(2 / 4)


def test_decisiveness_is_the_share_of_the_game_before_the_winner_passes_every_lead_a_loser_ever_had():
    # the loser's best lead is 2 (after move 1); the winner's lead first exceeds it after move 3 (3 > 2)
    assert game_measures(HAND_MADE)["decisiveness"] == pytest.approx(3 / 4)


def test_drama_is_the_mean_gap_between_the_best_evaluation_and_the_winners():
    # gaps: 0, 4, 0, 0, 0 over five positions
    assert game_measures(HAND_MADE)["drama"] == pytest.approx(4 / 5)


def test_stability_sums_each_seats_variance_over_the_game():
    seat = [0, 2, -1, -3, -1]
    mean = sum(seat) / 5
    variance = sum((v - mean) ** 2 for v in seat) / 5
    assert game_measures(HAND_MADE)["stability"] == pytest.approx(2 * variance)  # seat 1 mirrors seat 0


def test_positional_repetition_is_the_share_of_positions_reached_before():
    assert game_measures(HAND_MADE)["repetition"] == pytest.approx(1 / 5)


def test_a_game_nobody_won_and_a_solitaire_have_no_winner_or_lead_measures():
    drawn = game_measures(Trajectory(2, 3, (0, 1), (2, 2), ((0, 0), (1, -1), (0, 0)), 1, drawn=True))
    assert drawn["decisiveness"] is None and drawn["drama"] is None and drawn["drawishness"] == 1.0
    solo = game_measures(Trajectory(1, 3, (0, 0), (1, 1), ((0,), (5,), (10,)), 0))
    assert solo["lead-changes"] is None and solo["decision-moves"] == 0.0 and solo["stability"] == pytest.approx(50 / 3)


def test_the_score_lead_is_a_seats_total_less_the_best_other_seats():
    assert lead_of([10, 4, 7]) == (3.0, -6.0, -3.0)
    assert lead_of([12]) == (12.0,)


def balance(*args: str, expect: int = 0) -> Any:
    result = RUNNER.invoke(app, ["balance", *args, "--json"])
    assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout) if expect == 0 else result


@pytest.mark.parametrize("game, sets", [
    ("soli2", ["--against", "objective=standard"]),  # an option set to its default
    ("solari", ["-o", "target=12", "--against", "target=12"]),  # the same set twice
    ("solar-solitaire", ["--bot", "random", "--against", "waste_takes_free_moves=no"]),
], ids=["default", "same-set", "solitaire"])
def test_an_option_that_does_not_change_play_keeps_every_measures_difference_at_exactly_0(game, sets):
    report = balance(game, "--games", "4", "--seed", "2", *sets)
    names = [m["name"] for m in report["metrics"]]
    assert {"completion", "timeouts", "drawishness", "balance" if game != "solar-solitaire" else "completion",
            "duration-moves", "duration-turns", "decision-moves", "branching-factor", "lead-changes", "decisiveness",
            "drama", "stability", "repetition", "advantage:1"} <= set(names)
    for m in report["metrics"]:
        a, b = (s["value"] for s in m["sets"])
        assert a == b, m
        if a is not None:
            assert m["difference"] == 0 and m["interval"] in ([0.0, 0.0], None) and m["covers_zero"], m


def test_the_measures_are_reported_per_set_with_intervals_and_say_which_evaluation_they_use():
    report = balance("soli2", "--games", "6", "--seed", "1", "--against", "objective=give-away")
    by_name = {m["name"]: m for m in report["metrics"]}
    assert by_name["drama"]["evaluation"] == "the score lead (points)" and "evaluation" not in by_name["completion"]
    assert by_name["duration-moves"]["sets"][0]["value"] == report["sets"][0]["length"]["mean"]  # the balance length
    assert "sd" in by_name["duration-turns"]["sets"][1]
    for m in report["metrics"]:
        assert m["ludii"] and m["what"]
        for s in m["sets"]:
            if s["value"] is not None and s["interval"] is not None:
                assert s["interval"][0] <= s["value"] <= s["interval"][1]


def test_the_mcts_evaluator_values_positions_by_the_bots_estimate_and_leaves_play_alone():
    args = ["soli2", "--games", "2", "--seed", "3", "--bot", "random", "--max-moves", "40"]
    scored = balance(*args)
    searched = balance(*args, "--evaluator", "mcts:simulations=4")
    assert searched["sets"] == scored["sets"]  # the same games
    drama = next(m for m in searched["metrics"] if m["name"] == "drama")
    assert drama["evaluation"] == "the mcts bot's estimate"
    stability = next(m for m in searched["metrics"] if m["name"] == "stability")
    assert stability["sets"][0]["value"] is not None and stability["sets"][0]["value"] <= 2  # -1..1 per seat


@pytest.mark.parametrize("evaluator, reason", [("greedy", "--evaluator"), ("mcts:nonsense=1", "--evaluator")])
def test_an_unknown_evaluator_is_one_line_exit_2(evaluator, reason):
    result = balance("soli2", "--games", "1", "--evaluator", evaluator, expect=2)
    line = result.stderr.strip()
    assert "\n" not in line and reason in line
