"""The CI gate (issue 45): ``impact --fail-on KIND`` fails only for a change of at least that kind, and
the documented workflow (docs/ci/solrec-gate.yml) runs as written: its solrec commands, in order, on a
recorded corpus, pass on the code as it is and fail when the change alters a recorded outcome."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solrec.cli.main import app
from solrec.events.store import Store
from solrec.workflows.games import import_text

from .conftest import FIXTURES, ROOT

WORKFLOW = ROOT / "docs" / "ci" / "solrec-gate.yml"
RUNNER = CliRunner()
CORPUS = ("solari/two-against-two-greedy-to-36-seeded", "solari/two-players-greedy-to-36-entered",
          "solari/two-against-two-dice-seeded", "solari/two-players-dice-entered", "solo-dice/worked-example")


def recorded(db: Path, *names: str) -> Path:
    store = Store(db)
    for name in names:
        import_text(store, (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8"), name.split("/")[1])
    store.close()
    return db


def impact(db: Path, *args: str) -> int:
    return RUNNER.invoke(app, ["impact", "--all", "--db", str(db), *args]).exit_code


# -- impact --fail-on -------------------------------------------------------------------------------------
def test_fail_on_outcome_passes_a_change_of_scores_alone(tmp_path):
    # version=2 (no orientations) lowers Bob's and Dee's 5 to 4 in this team game; Ann and Cid still win
    db = recorded(tmp_path / "c.db", "solari/two-against-two-dice-seeded")
    assert impact(db, "-o", "version=2") == 1  # without --fail-on: any change fails, as before
    assert impact(db, "-o", "version=2", "--fail-on", "outcome") == 0
    assert impact(db, "-o", "version=2", "--fail-on", "scores") == 1
    assert impact(db, "-o", "version=2", "--fail-on", "events") == 1


def test_fail_on_outcome_fails_a_changed_winner_and_names_the_games(tmp_path):
    import json

    db = recorded(tmp_path / "c.db", *CORPUS[:4])
    result = RUNNER.invoke(app, ["impact", "--all", "--db", str(db), "-o", "version=2", "--fail-on", "outcome", "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["fail_on"] == "outcome"
    assert sorted(report["failed"]) == sorted(g["id"] for g in report["changed"] if g["kind"] == "outcome")
    assert len(report["failed"]) == 2


def test_fail_on_passes_a_corpus_the_code_replays_the_same(tmp_path):
    db = recorded(tmp_path / "c.db", *CORPUS)
    for kind in ("outcome", "scores", "events"):
        assert impact(db, "--fail-on", kind) == 0


def test_fail_on_any_kind_fails_a_game_that_no_longer_replays(tmp_path):
    db = recorded(tmp_path / "c.db", "solar-solitaire/won-seeded")
    assert impact(db, "-o", "waste_takes_free_moves=no", "--fail-on", "outcome") == 1  # unplayable


def test_fail_on_an_unknown_kind_is_refused_in_one_line(tmp_path):
    db = recorded(tmp_path / "c.db", "solo-dice/worked-example")
    result = RUNNER.invoke(app, ["impact", "--all", "--db", str(db), "--fail-on", "winners"])
    assert result.exit_code == 2 and "outcome, scores, events" in result.stderr.strip()


# -- the documented workflow ------------------------------------------------------------------------------
def workflow_commands() -> list[list[str]]:
    """The solrec commands of the workflow's steps, in order, as a shell would split them."""
    import yaml

    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    steps = [step for job in jobs.values() for step in job["steps"]]
    lines = [line.strip() for step in steps if "run" in step for line in step["run"].splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith("solrec ")]


def test_the_workflow_validates_checks_impact_and_runs_a_sequential_test():
    names = [args[0] for args in workflow_commands()]
    assert names == ["validate", "impact", "balance"]
    yaml = pytest.importorskip("yaml")
    env = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["gate"]["env"]
    assert env["SOLREC_DB"] == "corpus/solrec.db"


def test_the_workflow_passes_on_the_recorded_corpus_and_fails_when_a_change_alters_an_outcome(tmp_path, monkeypatch):
    pytest.importorskip("numpy", reason="the balance extra")
    pytest.importorskip("pyspiel", reason="the ai extra")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    recorded(tmp_path / "corpus" / "solrec.db", *CORPUS)
    env = {"SOLREC_DB": "corpus/solrec.db"}  # the workflow's own
    for args in workflow_commands():
        result = RUNNER.invoke(app, args, env=env)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
    (impact_args,) = [args for args in workflow_commands() if args[0] == "impact"]
    # the same step on a change of reading that turns two recorded team games' winners: the gate fails
    assert RUNNER.invoke(app, [*impact_args, "-o", "solari:version=2"], env=env).exit_code == 1
