"""`solrec tune` (issue 45, item 4; docs/tune.md): Optuna's search over option ranges, each trial a
paired batch of bot games. Known answers: the best option set's own balance run measures what the
tune reported and lands near the target (small here; Solari at 500 moves under ``slow``); the same
JSON on one core, --jobs 2 and a LocalCluster, and after a resume."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra: pip install -e '.[ai]'")
pytest.importorskip("optuna", reason="the tune extra: pip install -e '.[tune]'")

from solrec.cli.main import app  # noqa: E402

RUNNER = CliRunner()
# Solari to a short target: a handful of small games a trial, every target of the range tried (a grid)
SMALL = ["solari", "--vary", "target=6..12", "--target", "length=100", "--trials", "7", "--games-per-trial", "2",
         "--seed", "4"]


def tune(db: Path, *args: str, expect: int = 0) -> Any:
    result = RUNNER.invoke(app, ["tune", *args, "--db", str(db), "--json"])
    assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout) if expect == 0 else result


def balance_length(options: dict, games: int, seed: int) -> float:
    args = ["balance", "solari", "--games", str(games), "--seed", str(seed), "--json"]
    for key, value in options.items():
        args += ["-o", f"{key}={value}"]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["sets"][0]["length"]["mean"]


def test_tune_finds_the_target_whose_own_balance_run_measures_what_it_reported(tmp_path):
    report = tune(tmp_path / "solrec.db", *SMALL)
    assert report["sampler"] == "grid" and [h["options"]["target"] for h in report["history"]] != []
    assert sorted(h["options"]["target"] for h in report["history"]) == list(range(6, 13))  # each value once
    best = report["best"]
    assert best["objective"] == min(h["objective"] for h in report["history"])
    assert best["objective"] == pytest.approx(abs(best["value"] - 100), abs=1e-3)
    # the best set's own balance run, the same games: the same mean length, within 15% of the target
    assert balance_length(best["options"], 2, 4) == best["value"]
    assert abs(best["value"] - 100) <= 15
    assert best["interval"][0] <= best["value"] <= best["interval"][1]


def test_the_study_is_kept_beside_the_database_and_a_re_run_resumes_it(tmp_path):
    db = tmp_path / "solrec.db"
    args = ["solari", "--vary", "target=4..16", "--minimize", "first-seat", "--games-per-trial", "2", "--seed", "1"]
    first = tune(db, *args, "--trials", "2")
    assert Path(first["study"]["storage"]) == tmp_path / "solrec.db.tune.sqlite" and not db.exists()
    resumed = tune(db, *args, "--trials", "3")
    assert resumed["study"]["resumed_from"] == 2 and resumed["history"][:2] == first["history"]
    (tmp_path / "solrec.db.tune.sqlite").unlink()
    fresh = tune(db, *args, "--trials", "3")
    assert fresh["study"]["resumed_from"] == 0
    assert {**fresh, "study": None} == {**resumed, "study": None}  # stopped and resumed: the same trials
    assert fresh["sampler"] == "tpe"


def test_jobs_and_a_local_cluster_give_the_json_of_one_core(tmp_path):
    db = tmp_path / "solrec.db"
    args = ["tune", "solari", "--vary", "target=4..10", "--vary", "moves=0..1", "--minimize", "drama", "--trials", "3",
            "--games-per-trial", "4", "--seed", "2", "--db", str(db), "--json"]
    runs = []
    for extra in (["--jobs", "1"], ["--jobs", "2"]):
        result = RUNNER.invoke(app, [*args, *extra])
        assert result.exit_code == 0, result.stderr
        runs.append(result.stdout)
        (tmp_path / "solrec.db.tune.sqlite").unlink()
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        there = RUNNER.invoke(app, [*args, "--cluster", cluster.scheduler_address])
    assert there.exit_code == 0, there.stderr
    assert runs[0] == runs[1] == there.stdout


def test_progress_goes_to_stderr_one_line_a_trial(tmp_path):
    result = RUNNER.invoke(app, ["tune", *SMALL[:5], "--trials", "2", "--games-per-trial", "1",
                                 "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 0, result.stderr
    assert re.findall(r"^trial \d/2: target=\d+ -> length ", result.stderr, flags=re.M).__len__() == 2
    assert "best: target=" in result.stdout


def test_the_page_plots_the_trials_with_readable_axis_labels_and_asks_for_nothing(tmp_path):
    pytest.importorskip("matplotlib", reason="the balance extra")
    pages = []
    for name in ("a", "b"):
        report = tune(tmp_path / f"{name}.db", *SMALL[:5], "--trials", "3", "--games-per-trial", "1",
                      "--html", str(tmp_path / f"{name}.html"))
        assert report["wrote"].endswith(f"{name}.html")
        pages.append((tmp_path / f"{name}.html").read_text(encoding="utf-8"))
    assert pages[0] == pages[1]
    text = pages[0]
    assert text.count("<svg") == 2 and "<script" not in text and "http" not in text.replace("http://www.w3.org/", "")
    sizes = [float(s) for s in re.findall(r"font-size: ([\d.]+)px", text)]
    assert sizes and min(sizes) >= 12
    assert "length (moves a game)" in text and "trial (in the order tried)" in text and "target (the option" in text


def test_a_range_is_of_whole_numbers_where_both_bounds_are_and_a_grid_is_walked_in_order():
    from solrec.ai.tune import Vary, grid_of, grid_point, parse_vary

    assert parse_vary("target=24..96") == Vary("target", 24, 96, True)
    assert parse_vary(" scale = 0.5..2 ") == Vary("scale", 0.5, 2.0, False)
    assert grid_of([Vary("a", 1, 2, True), Vary("b", 0, 2, True)], 6) == {"a": [1, 2], "b": [0, 1, 2]}
    assert grid_of([Vary("a", 1, 2, True), Vary("b", 0, 2, True)], 5) is None  # more sets than trials: TPE
    assert grid_of([Vary("a", 1, 2, True), Vary("s", 0.5, 2.0, False)], 100) is None
    grid = {"a": [1, 2], "b": [0, 1, 2]}
    assert [grid_point(grid, n) for n in range(6)] == [
        {"a": 1, "b": 0}, {"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 0}, {"a": 2, "b": 1}, {"a": 2, "b": 2}]


def test_a_goal_is_the_distance_to_its_target_or_the_measure_itself():
    from solrec.ai.tune import parse_goal

    assert parse_goal("length=500", None, 2).objective(450.0) == 50.0
    assert parse_goal(None, "first-seat", 2).objective(0.25) == 0.25
    assert parse_goal("advantage:2=0.5", None, 2).measure == "advantage:2"
    assert parse_goal(None, "length", 2).measure == "duration-moves" and parse_goal(None, "length", 2).objective(None) == float("inf")


@pytest.mark.parametrize("args, reason", [
    (["solari", "--vary", "colour=1..3", "--target", "length=100"], 'no option "colour"'),
    (["solari", "--vary", "target=40..20", "--target", "length=100"], "above"),
    (["solari", "--vary", "target=4to9", "--target", "length=100"], "KEY=LO..HI"),
    (["solari", "--vary", "target=4..9", "--target", "fun=3"], "unknown metric"),
    (["solari", "--vary", "target=4..9", "--minimize", "fun"], "unknown metric"),
    (["solari", "--vary", "target=4..9"], "--target METRIC=VALUE or --minimize"),
    (["solari", "--vary", "target=4..9", "--target", "length=1", "--minimize", "length"], "one of them"),
    (["solari", "--vary", "target=-5..9", "--target", "length=100"], "target"),
    (["solari", "--vary", "target=4..9", "--target", "length=100", "--jobs", "2", "--cluster", "tcp://127.0.0.1:1"], "not both"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, reason):
    result = RUNNER.invoke(app, ["tune", *args, "--trials", "2", "--games-per-trial", "1", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert "\n" not in line and reason in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_tune_solari_to_500_moves_with_greedy_bots_returns_a_target_whose_balance_run_measures_500_within_15_percent(tmp_path):
    report = tune(tmp_path / "solrec.db", "solari", "--vary", "target=24..96", "--target", "length=500", "--trials", "16",
                  "--games-per-trial", "12", "--bot", "greedy", "--seed", "1", "--jobs", "2")
    target = report["best"]["options"]["target"]
    measured = balance_length({"target": target}, 40, 7)  # other games than the tune played
    assert abs(measured - 500) <= 0.15 * 500, (target, measured)
