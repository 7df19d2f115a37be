"""Every sentence the engine cites appears in rule text 003 (whitespace aside)."""

from __future__ import annotations

import pytest

from solrec.core.solarius_mission import text

from ..conftest import rule_text


def _flat(s: str) -> str:
    return " ".join(s.split())


@pytest.mark.parametrize("sentence", text.ALL)
def test_every_cited_sentence_is_quoted_from_the_rule_text(sentence):
    body = _flat(rule_text("003_6517f20bed1abdb1.txt"))
    quoted = sentence[len('003: "'):-1]
    assert _flat(quoted) in body
