"""Shared test helpers: a fresh store per test, and the CLI through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from solrec.cli.main import app
from solrec.events.store import Store

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# The rule texts as received live in shared/rules beside the repository (as in CI); a person who
# clones the project has no shared/, so every test that reads a text goes through rule_text().
RULES_DIR = ROOT.parent / "shared" / "rules"


def rule_text(name: str) -> str:
    """The rule text ``name`` as received, or a skip (with the reason) when shared/ is not beside the clone."""
    path = RULES_DIR / name
    if not path.is_file():
        pytest.skip(f"the rule text {name} is not beside the repository ({RULES_DIR} is absent in a plain clone)")
    return path.read_text(encoding="utf-8")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "solrec.db"


@pytest.fixture
def store(db_path: Path) -> Store:
    s = Store(db_path)
    yield s
    s.close()


class Cli:
    """Runs ``solrec`` against one database; ``run`` returns the result, ``json`` parses stdout."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def run(self, *args: str, input: str | None = None, expect: int | None = 0):
        result = self.runner.invoke(app, [*args, "--db", str(self.db)], input=input)
        if expect is not None:
            assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
        return result

    def json(self, *args: str, expect: int | None = 0) -> Any:
        return json.loads(self.run(*args, "--json", expect=expect).stdout)

    def simulate_and_validate(self, game: str, games: int, *options: str) -> dict[str, Any]:
        """Simulate ``games`` games into this database and check ``validate --all`` finds all valid."""
        out = self.json("simulate", game, "--games", str(games), "--seed", "1", *options)
        assert out["games"] == games
        report = self.json("validate", "--all")
        assert report["invalid"] == 0 and report["valid"] == games
        return report


@pytest.fixture
def cli(db_path: Path) -> Cli:
    return Cli(db_path)
