"""The README's command examples run, in order, against a fresh database (as a new user would
type them): each exits 0."""

from __future__ import annotations

import re
import shlex

from .conftest import ROOT


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] == "solrec":
                commands.append(words[1:])
    return commands


def test_the_readme_has_the_command_examples():
    names = {c[0] for c in readme_commands()}
    assert {"new", "play", "show", "log", "replay", "undo", "list", "diff", "validate", "export", "import"} <= names


def test_every_readme_command_runs(cli, tmp_path, monkeypatch):
    # a fresh folder, as a new user's, from which the repository's fixtures are reachable as in a checkout
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    for words in readme_commands():
        cli.run(*words)
