"""A person who clones the project has no shared/ beside it: the suite passes without the rule texts.

`make test-plain-clone` (run by CI after `make test`) runs the whole suite from such a clone; this
test keeps the one way in: every test that reads a rule text goes through ``conftest.rule_text``,
which skips with the reason when the text is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import ROOT, rule_text

TESTS = ROOT / "tests"
READS_SHARED = re.compile(r"RULES_DIR|[\"']shared[\"'/]")


def test_only_conftest_reads_the_rule_texts_folder():
    readers = [
        p.relative_to(ROOT).as_posix()
        for p in TESTS.rglob("*.py")
        if p.name != "conftest.py" or p.parent != TESTS
        if READS_SHARED.search(p.read_text(encoding="utf-8"))
        and p != Path(__file__)
    ]
    assert readers == []


def test_a_missing_rule_text_is_a_skip_with_its_reason(monkeypatch, tmp_path):
    from . import conftest

    monkeypatch.setattr(conftest, "RULES_DIR", tmp_path / "shared" / "rules")
    with pytest.raises(pytest.skip.Exception, match="is not beside the repository"):
        rule_text("003_6517f20bed1abdb1.txt")
