"""`solrec balance --sprt` and the strength ladder (issue 45): known answers (a null change accepts H0
at once; Solari's target doubled accepts "games last 20% longer" in few pairs), the same stopping
point on one core, two processes and a Dask cluster, and bad input refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra: pip install -e '.[ai]'")

from solrec.ai.sprt import BATCH  # noqa: E402
from solrec.cli.main import app  # noqa: E402

RUNNER = CliRunner()
# SOLI2 by random bots, the give-away objective against the standard one: the random bots play the same
# games under both, the winner flips; the first seat's share moves about -12 points, so a test of "+10
# points" takes many batches to accept H0: a run that stops far from its start.
MANY_BATCHES = ["soli2", "--bot", "random", "--against", "objective=give-away", "--sprt", "first-seat:0:10",
                "--seed", "5", "--max-games", "400", "--json"]


def balance(*args: str, expect: int = 0) -> Any:
    result = RUNNER.invoke(app, ["balance", *args, "--json"])
    assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout)


def test_a_null_change_accepts_h0_at_the_first_look_and_says_every_pair_was_identical():
    report = balance("soli2", "--against", "objective=standard", "--sprt", "first-seat:0:5")
    test = report["sprt"]
    assert (test["accepted"], test["pairs"], report["games"]) == ("H0", BATCH, BATCH)
    assert test["llr"] == test["bounds"][0] and test["interval"] == [0.0, 0.0]
    assert "every pair identical" in test["reason"]
    text = RUNNER.invoke(app, ["balance", "soli2", "--against", "objective=standard", "--sprt", "first-seat:0:5"])
    assert text.exit_code == 0 and "H0 accepted after 8 pairs" in text.stdout and "every pair identical" in text.stdout


def test_solari_to_twice_its_target_accepts_games_twenty_percent_longer_in_few_pairs_and_exits_1():
    # the small version of 36 -> 72 (below, slow): 12 -> 24 by greedy bots, a few seconds
    report = balance("solari", "-o", "target=12", "--against", "target=24", "--sprt", "length-ratio:0:0.2", expect=1)
    test = report["sprt"]
    assert test["accepted"] == "H1" and test["pairs"] < 100 and test["llr"] >= test["bounds"][1]
    assert test["interval"][0] > 0.2 and test["estimate"] == pytest.approx(diff(report, "length")["relative"])
    assert report["games"] == test["pairs"] and report["sets"][0]["games"] == test["pairs"]


def diff(report: dict, what: str) -> dict:
    return next(d for d in report["differences"] if d["what"] == what)


@pytest.mark.slow
def test_solari_36_to_72_accepts_games_twenty_percent_longer_in_fewer_than_100_pairs():
    report = balance("solari", "--against", "target=72", "--sprt", "length-ratio:0:0.2", "--jobs", "2", expect=1)
    assert report["sprt"]["accepted"] == "H1" and report["sprt"]["pairs"] < 100


def test_a_score_line_is_named_by_words_of_its_rule():
    report = balance("solari", "-o", "target=12", "--against", "target=24", "--sprt", "score:rows can be vertical:0:2",
                     expect=1)
    assert report["sprt"]["accepted"] == "H1" and report["sprt"]["unit"] == "points"


def test_when_max_games_runs_out_neither_is_accepted_and_it_exits_0():
    args = MANY_BATCHES[:MANY_BATCHES.index("--max-games")]
    report = balance(*args, "--max-games", "16")
    assert report["sprt"]["accepted"] is None and report["sprt"]["pairs"] == report["games"] == 16
    assert report["sprt"]["bounds"][0] < report["sprt"]["llr"] < report["sprt"]["bounds"][1]


def test_two_processes_stop_where_one_core_stops_byte_for_byte():
    one = RUNNER.invoke(app, ["balance", *MANY_BATCHES, "--jobs", "1"])
    two = RUNNER.invoke(app, ["balance", *MANY_BATCHES, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, (one.stderr, two.stderr)
    assert json.loads(one.stdout)["sprt"]["pairs"] > 4 * BATCH  # decided many batches in
    assert one.stdout == two.stdout


def test_a_local_cluster_stops_where_one_core_stops_byte_for_byte():
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    one = RUNNER.invoke(app, ["balance", *MANY_BATCHES, "--jobs", "1"])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        there = RUNNER.invoke(app, ["balance", *MANY_BATCHES, "--cluster", cluster.scheduler_address])
    assert one.exit_code == there.exit_code == 0, there.stderr
    assert there.stdout == one.stdout


def test_the_page_says_what_the_sequential_test_accepted(tmp_path):
    pytest.importorskip("matplotlib", reason="the balance extra")
    page = tmp_path / "sprt.html"
    balance("soli2", "--against", "objective=standard", "--sprt", "first-seat:0:5", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert "Sequential test" in text and "H0 accepted after 8 pairs" in text


# -- the strength ladder ---------------------------------------------------------------------------------
def test_a_ladder_plays_the_same_test_at_each_strength_and_says_the_verdict_holds():
    report = balance("soli2", "--bots", "random,greedy", "--against", "objective=standard", "--sprt", "first-seat:0:5")
    assert report["ladder"]["bots"] == ["random", "greedy"] and report["ladder"]["holds"] is True
    assert [r["sprt"]["accepted"] for r in report["rungs"]] == ["H0", "H0"]
    assert [r["bots"] for r in report["rungs"]] == [["random"], ["greedy"]]
    assert report["verdict"][0].startswith("the verdict holds at every strength")


def test_a_ladder_of_fixed_runs_compares_the_direction_of_the_length_and_the_win_rates(tmp_path):
    pytest.importorskip("matplotlib", reason="the balance extra")
    page = tmp_path / "ladder.html"
    report = balance("soli2", "--bots", "random,greedy", "--against", "objective=give-away", "--games", "12",
                     "--seed", "1", "--html", str(page))
    answers = [r["answer"] for r in report["ladder"]["rungs"]]
    assert report["ladder"]["holds"] == (answers[0] == answers[1]) and set(answers[0]) == {"length", "win:1", "win:2"}
    text = page.read_text(encoding="utf-8")
    assert "Bot random at every seat" in text and "Bot greedy at every seat" in text
    said = RUNNER.invoke(app, ["balance", "soli2", "--bots", "random,greedy", "--against", "objective=give-away",
                               "--games", "12", "--seed", "1"]).stdout
    assert "=== bot random at every seat" in said and "=== bot greedy at every seat" in said


def test_a_ladder_setting_after_a_comma_belongs_to_the_bot_before_it():
    from solrec.cli.balance import ladder_bots

    assert ladder_bots("greedy,mcts:simulations=20,rollout=4") == ["greedy", "mcts:simulations=20,rollout=4"]


# -- bad input -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, reason", [
    (["soli2", "--games", "8", "--against", "objective=give-away", "--sprt", "first-seat:0:5"], "--max-games"),
    (["soli2", "--sprt", "first-seat:0:5"], "--against"),
    (["soli2", "--against", "objective=give-away", "--sprt", "first-seat:5"], "METRIC:H0:H1"),
    (["soli2", "--against", "objective=give-away", "--sprt", "height:0:5"], "no metric"),
    (["soli2", "--against", "objective=give-away", "--sprt", "win:3:0:5"], "seats are numbered 1 to 2"),
    (["soli2", "--against", "objective=give-away", "--sprt", "first-seat:0:5", "--alpha", "0.6"], "--alpha"),
    (["soli2", "--against", "objective=give-away", "--sprt", "bot:mcts:0:5"], 'no bot "mcts" plays'),
    (["soli2", "--against", "objective=give-away", "--games", "4", "--max-games", "9"], "belong to --sprt"),
    (["soli2", "--against", "objective=give-away"], "--games N"),
    (["soli2", "--games", "4", "--bots", "random,greedy", "--bot", "random"], "not both"),
    (["soli2", "--games", "4", "--bots", "random,clever"], "unknown bot kind"),
    (["soli2", "--games", "4", "--bots", "greedy", "--bot-ladder"], "one of them"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, reason):
    page = tmp_path / "page.html"
    result = RUNNER.invoke(app, ["balance", *args, "--html", str(page)])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert "\n" not in line and reason in line
    assert list(tmp_path.iterdir()) == []
