"""The README's quick start works for a newcomer, word for word, in a fresh shell. (Every command
example of the README and of docs/ runs in tests/test_docs_examples.py.)"""

from __future__ import annotations

import re
import shlex

from .conftest import ROOT
from .test_docs_examples import examples


def quick_start() -> list[str]:
    """The quick start's lines, as typed (comments dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```sh\n(.*?)```", text, flags=re.S)
    assert block, "the README has a quick start"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.split("#")[0].strip()]


def test_a_newcomer_following_the_quick_start_never_meets_command_not_found(tmp_path):
    """Issue 31: the quick start's lines, then the README's next command, in a fresh shell (no
    virtual environment active, nothing on PATH but the system's), word for word. ``make test`` is
    left out: it is this suite."""
    import os
    import subprocess

    lines = [line for line in quick_start() if line != "make test"]
    assert lines[0] == "make demo" and any("activate" in line for line in lines)
    assert any(line.startswith("solrec ") for line in lines), "the quick start shows solrec working"
    after = [words for words, _, _ in examples(ROOT / "README.md")][len([line for line in quick_start() if line.startswith("solrec ")])]
    script = "set -e\n" + "\n".join([*lines, shlex.join(["solrec", *after])]) + "\n"
    venv = str(ROOT / ".venv" / "bin")
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != venv and "/.venv" not in p)
    env = {"PATH": path or "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "LANG": "C.UTF-8"}
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "command not found" not in done.stderr
    assert "source .venv/bin/activate" in done.stdout  # make demo ends by saying how to reach solrec
    assert "solo-dice" in done.stdout
