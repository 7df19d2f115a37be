"""Issue 24's acceptance on real data: a corpus recorded by the commit before Solari's rules 2
(fixtures/impact/solari-rules-1.db.gz: the seven Solari fixtures as they were then, and greedy games;
fixtures/impact/make_solari_rules_1.py says how it was made), re-played by `impact` under the current
code, shows the changed games with the score changes the fixtures' re-pinning recorded (b12b1e8:
"the two greedy games score differently (Saturn 43 -> 38, Uranus+Neptune 37 -> 41)")."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from ..conftest import FIXTURES, Cli

CORPUS = FIXTURES / "impact" / "solari-rules-1.db.gz"


@pytest.fixture(scope="module")
def rules_1(tmp_path_factory) -> Cli:
    path: Path = tmp_path_factory.mktemp("rules-1") / "solari-rules-1.db"
    with gzip.open(CORPUS, "rb") as packed, open(path, "wb") as out:
        shutil.copyfileobj(packed, out)
    return Cli(path)


@pytest.fixture(scope="module")
def report(rules_1: Cli) -> dict:
    return rules_1.json("impact", "--all", expect=1)


def test_the_greedy_two_player_fixture_scores_saturn_38_not_43_now(report):
    game = {g["id"]: g for g in report["changed"]}["two-players-greedy-to-36-entered"]
    assert game["kind"] == "scores" and game["scores_recorded"]["Bob"] == 43 and game["scores_now"]["Bob"] == 38
    assert (game["position"], game["notation"]) == (42, "76-74")  # where validate stops: "INVALID at position 42" (the issue wrote "event 41", its seq)


def test_the_greedy_team_fixture_scores_uranus_and_neptune_41_not_37_now(report):
    game = {g["id"]: g for g in report["changed"]}["two-against-two-greedy-to-36-seeded"]
    assert game["kind"] == "scores"
    assert [game["scores_recorded"][p] for p in ("Ann", "Cid")] == [37, 37]  # Uranus and Neptune
    assert [game["scores_now"][p] for p in ("Ann", "Cid")] == [41, 41]


def test_every_recorded_game_is_re_played_and_the_other_fixtures_are_the_same(report):
    assert report["games"] == 11 and report["by_class"]["error"] == 0
    same = {"three-players-dominoes-free-entered", "two-against-two-dice-seeded", "two-players-dice-entered",
            "two-players-dominoes-open-seeded", "worked-example-1235-to-target"}
    assert not same & {g["id"] for g in report["changed"]}


def test_the_report_is_pinned(rules_1, snapshot):
    lines = rules_1.run("impact", "--all", expect=1).stdout.splitlines()
    assert lines[0] == "tested: the current code, the recorded options" and lines[2].startswith("by solrec ")
    assert lines[3:] == snapshot  # after what was tested (its corpus path and date vary)
