"""A path that is not a database is an error (issue 42, item 5).

Every command that reads, given a ``--db`` or ``SOLREC_DB`` that does not exist, exits 2 with "no
such database: PATH" and creates nothing (a mistyped path is not an empty corpus); only a command
that records something creates a file, and says "created PATH" the first time. The database no one
named (the default) is still made by the first recording command, and reads as holding no game
until then. A change tested on a kind of game the corpus does not hold is refused, not reported as
"0 same".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from solrec.cli.main import app

from .conftest import Cli

KEY = "k" * 32

# Every command that reads a database, as a person would type it (ids that need not exist: the
# missing file is refused before any game is looked for)
READING = [
    ("list",), ("list", "--tree"), ("list", "--marked"), ("show", "g"), ("legal", "g"), ("log", "g"), ("score", "g"),
    ("replay", "g"), ("diff", "g", "h"), ("validate", "g"), ("validate", "--all"), ("impact", "--all"), ("impact", "g"),
    ("export", "g"), ("svg", "g"), ("html", "g"), ("comment", "g"), ("upgrade",), ("solve", "g"),
    ("shard", "--into", "parts", "--games-per-shard", "1"), ("hint", "g", "--as", "Ann"), ("review", "g"),
    ("seal", "--all"), ("seal", "g"), ("undo", "g"), ("rename", "g", "h"), ("delete", "g", "--yes"),
    ("fork", "g", "--at", "1"), ("play", "g", "roll"),
]


def everything_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("args", READING, ids=" ".join)
def test_a_read_of_a_database_that_does_not_exist_is_refused_and_creates_nothing(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)  # ``shard --into parts`` and ``html``'s page would be made here
    monkeypatch.setenv("SOLREC_KEY", KEY)
    missing = tmp_path / "typo" / "x.db"
    result = Cli(missing).run(*args, expect=2)
    assert result.stderr.strip().splitlines() == [
        f"solrec: no such database: {missing} (it is created by new, import or simulate)"]
    assert everything_in(tmp_path) == []


@pytest.mark.parametrize("args", [("list",), ("validate", "--all"), ("impact", "--all"), ("show", "g")], ids=" ".join)
def test_a_solrec_db_that_does_not_exist_is_refused_as_a_db_is(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "typo.db"
    result = CliRunner().invoke(app, list(args), env={"SOLREC_DB": str(missing)})
    assert result.exit_code == 2, result.stdout
    assert f"no such database: {missing}" in result.stderr
    assert everything_in(tmp_path) == []


def test_the_default_database_reads_as_empty_until_the_first_game_creates_it(tmp_path, monkeypatch):
    monkeypatch.delenv("SOLREC_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runner = CliRunner()
    listed = runner.invoke(app, ["list"])
    assert listed.exit_code == 0 and listed.stdout.strip().endswith("0 games")
    assert runner.invoke(app, ["validate", "--all"]).stdout.strip() == "0 valid, 0 invalid"
    assert everything_in(tmp_path) == []
    made = runner.invoke(app, ["new", "solo-dice", "-p", "Ann", "--seed", "7"])
    default = tmp_path / "data" / "solrec" / "solrec.db"
    assert made.exit_code == 0 and f"solrec: created {default}" in made.stderr.splitlines()
    assert default.is_file()


def test_a_recording_command_says_it_created_the_file_the_first_time_only(tmp_path):
    cli = Cli(tmp_path / "new" / "games.db")
    first = cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7")
    assert first.stderr.splitlines() == [f"solrec: created {cli.db}"]
    again = cli.run("new", "solo-dice", "-p", "Ann", "--seed", "8")
    assert "created" not in again.stderr
    simulated = Cli(tmp_path / "sim.db").run("simulate", "solo-dice", "--games", "2")
    assert f"solrec: created {tmp_path / 'sim.db'}" in simulated.stderr


@pytest.mark.parametrize("change", [
    ("-o", "solari:target=30"),
    ("--from", "solari:target=36", "--to", "solari:target=30"),
], ids=" ".join)
def test_a_change_for_a_kind_of_game_the_corpus_does_not_hold_is_refused(cli, change):
    cli.run("simulate", "solo-dice", "--games", "2", "--seed", "1")
    result = cli.run("impact", "--all", *change, expect=2)
    assert result.stderr.strip() == "solrec: no solari games in this corpus"
    assert "same" not in result.stdout


def test_a_change_for_a_kind_the_corpus_holds_is_tested_as_before(cli):
    cli.run("simulate", "soli2", "--games", "2", "--seed", "1")
    assert "(2 games)" in cli.run("impact", "--all", "-o", "soli2:objective=give-away", expect=None).stdout
