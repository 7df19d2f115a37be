"""Every command's --help in plain words: a whole summary, a plain usage line, every argument and
option described (issue 20: no `{ID}`, `[[ID]...]...`, `<list[str]>`, `<int range>`, no "...")."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from solrec.cli.main import app

GROUP = typer.main.get_command(app)
NAMES = sorted(GROUP.commands)  # type: ignore[attr-defined]
PYTHON_TYPES = re.compile(r"<[a-z][a-z ]*(\[[a-z]+\])?>|\{[A-Z_]+\}|\[\[|list\[|x[<>]=")


def _help(*words: str) -> str:
    result = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_command_list_shows_every_summary_whole():
    listing = _help()
    for name in [n for n in NAMES if not GROUP.commands[n].hidden]:  # type: ignore[attr-defined]
        command = GROUP.commands[name]  # type: ignore[attr-defined]
        summary = command.get_short_help_str()
        assert summary and not summary.endswith("..."), name
        first = " ".join((command.help or "").split("\n\n")[0].split())
        assert summary == first, name
        shown = " ".join(listing.split(f"\n  {name} ", 1)[1].split("\n  ")[0].split())
        assert shown.startswith(summary[:40]) and not shown.endswith("..."), (name, shown)


@pytest.mark.parametrize("name", NAMES)
def test_every_usage_line_and_option_is_in_plain_words(name):
    text = _help(name)
    usage = text.splitlines()[0]
    assert usage.startswith(f"Usage: solrec {name} ")
    table = text.split("Arguments:", 1)[-1]
    assert not PYTHON_TYPES.search(usage), usage
    assert not PYTHON_TYPES.search(table.replace('{"error": ...}', "")), table


@pytest.mark.parametrize("name", NAMES)
def test_every_argument_and_option_is_described(name):
    command = GROUP.commands[name]  # type: ignore[attr-defined]
    for param in command.params:
        assert (param.help or "").strip(), (name, param.name)
