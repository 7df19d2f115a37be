"""`solrec impact`: each recorded game's commands re-played under the current code and changed options,
past the first change, and classed by what changed (issue 24)."""

from __future__ import annotations

import json

import pytest

from solrec.events import pack
from solrec.events.store import Store
from solrec.replay.corpus import map_corpus
from solrec.replay.impact import ImpactTask, classify
from solrec.workflows.games import import_text, simulate_games

from ..conftest import FIXTURES


def imported(store: Store, *names: str) -> None:
    """Fixtures stored under their file names (``solari/two-players-dice-entered``)."""
    for name in names:
        import_text(store, (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8"), name.split("/")[1])


def by_id(report: dict) -> dict[str, dict]:
    return {g["id"]: g for g in report["changed"]}


SOLARI = ("solari/two-against-two-greedy-to-36-seeded", "solari/two-players-greedy-to-36-entered",
          "solari/two-against-two-dice-seeded", "solari/two-players-dice-entered")


def test_games_replayed_under_their_own_rules_are_all_the_same_and_exit_0(store, cli):
    imported(store, *SOLARI, "solo-dice/worked-example", "solar-solitaire/won-seeded")
    report = cli.json("impact", "--all")
    assert report["by_class"]["same"] == report["games"] == 6 and report["changed"] == []
    assert cli.run("impact", "--all").stdout.splitlines()[-1].startswith("6 same, 0 events, 0 scores")


def test_a_changed_reading_names_each_changed_game_with_its_class_and_first_changed_command(store, cli):
    imported(store, *SOLARI)
    report = cli.json("impact", "--all", "-o", "version=2", expect=1)
    changed = by_id(report)
    # The team game's 41-41 to 14-14 falls to 28-12 without orientations: the target is never reached.
    team = changed["two-against-two-greedy-to-36-seeded"]
    assert team["kind"] == "outcome" and team["winners_recorded"] == ["Ann", "Cid"] and not team["ended_now"]
    assert (team["position"], team["move"], team["actor"], team["notation"]) == (14, 12, "Cid", "place 06")  # move 12, as log shows it; its first event leads to position 14
    assert "move 12 (Cid: place 06) now yields" in team["reason"] and "'place" not in team["reason"]
    assert changed["two-against-two-dice-seeded"]["kind"] == "scores"
    assert report["by_class"] == {"same": 1, "events": 0, "scores": 1, "outcome": 2, "unplayable": 0, "error": 0}


def test_a_changed_score_gives_each_players_recorded_and_new_score(store, cli):
    imported(store, "solari/two-against-two-dice-seeded")
    game = by_id(cli.json("impact", "--all", "-o", "version=2", expect=1))["two-against-two-dice-seeded"]
    assert game["scores_recorded"] == {"Ann": 8, "Bob": 5, "Cid": 8, "Dee": 5}
    assert game["scores_now"] == {"Ann": 8, "Bob": 4, "Cid": 8, "Dee": 4} and game["score_change"] == 1
    line = cli.run("impact", "--all", "-o", "version=2", expect=1).stdout.splitlines()[3]
    assert line.endswith("scores Ann 8, Bob 5 -> 4, Cid 8, Dee 5 -> 4")


def test_the_largest_score_changes_come_first(store, cli):
    imported(store, *SOLARI)
    lines = cli.run("impact", "--all", "-o", "version=1", expect=1).stdout.splitlines()
    changes = [g["score_change"] for g in cli.json("impact", "--all", "-o", "version=1", expect=1)["changed"]]
    assert changes == sorted(changes, reverse=True) and changes[0] == 25
    assert lines[3].startswith("two-against-two-greedy-to-36-seeded: outcome")


def test_events_that_differ_under_the_same_scores_and_outcome_are_classed_events():
    won = {"winners": ["Ann"], "ranking": ["Ann", "Bob"], "reason": "Ann wins 5 to 3"}
    assert classify(True, {"Ann": 5, "Bob": 3}, won, {"Ann": 5, "Bob": 3}, won) == "events"
    assert classify(False, {"Ann": 5, "Bob": 3}, won, {"Ann": 5, "Bob": 3}, won) == "same"
    assert classify(True, {"Ann": 5, "Bob": 3}, won, {"Ann": 6, "Bob": 3}, {**won, "reason": "Ann wins 6 to 3"}) == "scores"
    assert classify(True, {"Ann": 5, "Bob": 3}, won, {"Ann": 2, "Bob": 3}, None) == "outcome"


def test_a_command_refused_now_makes_the_game_unplayable_with_the_refusal(store, cli):
    imported(store, "solar-solitaire/won-seeded")
    game = by_id(cli.json("impact", "won-seeded", "-o", "waste_takes_free_moves=no", expect=1))["won-seeded"]
    assert game["kind"] == "unplayable" and game["notation"] == "move pad2 waste"
    assert "move 83 (Solo: move pad2 waste) is refused now: free movement takes cards off the waste heap" in game["reason"]


def test_seeded_chance_drawing_elsewhere_makes_the_game_unplayable_and_says_so(store, cli):
    simulate_games(store, "solarius-mission", 2, 3, [], {})
    game = by_id(cli.json("impact", "solarius-mission-2", "-o", "station_effect=including-new", expect=1))
    reason = game["solarius-mission-2"]["reason"]
    assert game["solarius-mission-2"]["kind"] == "unplayable"
    assert "chance's recorded draw" in reason and "seeded chance now draws differently here" in reason


def test_an_option_a_game_kind_does_not_declare_is_refused_per_kind_and_nothing_is_written(store, cli, tmp_path):
    imported(store, "solari/two-players-dice-entered", "solo-dice/worked-example")
    page = tmp_path / "report.html"
    result = cli.run("impact", "--all", "-o", "reentry=extra", "--html", str(page), expect=2)
    assert "solo-dice does not declare option reentry (its options: none)" in result.stderr
    assert not page.exists()
    assert "option reentry is one of move, extra" in cli.run("impact", "--all", "-o", "solari:reentry=x", expect=2).stderr


def test_an_option_for_one_game_kind_leaves_the_others_under_their_own_options(store, cli):
    imported(store, "solari/two-players-dice-entered", "solo-dice/worked-example")
    report = cli.json("impact", "--all", "-o", "solari:version=1", expect=1)
    assert report["by_game"]["solo-dice"]["same"] == 1 and report["by_game"]["solari"]["same"] == 0


@pytest.fixture
def damaged(store: Store) -> Store:
    simulate_games(store, "solo-dice", 6, 3, [], {})
    conn = store.db.conn
    conn.execute("update events set payload = ? where game_id = 'solo-dice-2' and seq = 5", [pack({"dice": [6] * 5})])
    conn.execute("update events set payload = x'c1' where game_id = 'solo-dice-3' and seq = 1")  # not msgpack
    conn.execute("update games set scores = '{\"Player 1\": 1}' where id = 'solo-dice-4'")
    conn.execute("update events set command = 'roll 1 1 1 1 1' where game_id = 'solo-dice-5' and seq = 0")
    return store


def test_a_damaged_game_is_an_error_with_its_validate_verdict(damaged, cli):
    report = cli.json("impact", "--all", expect=1)
    changed = by_id(report)
    assert changed["solo-dice-2"]["kind"] == "error" and "does not match its hash" in changed["solo-dice-2"]["reason"]
    assert changed["solo-dice-3"]["kind"] == "error" and changed["solo-dice-5"]["kind"] == "error"
    # the events are the ones recorded; only the recorded score is not what they score
    assert changed["solo-dice-4"]["kind"] == "scores" and changed["solo-dice-4"]["actor"] is None
    assert report["by_class"]["same"] == 2


def test_impact_on_two_jobs_gives_the_results_of_one_job(damaged):
    one = map_corpus(damaged, ImpactTask(), None, jobs=1)
    assert map_corpus(damaged, ImpactTask(), None, jobs=2) == one and len(one) == 6


def test_the_html_report_links_each_changed_game_to_its_side_by_side_replay(store, cli, tmp_path):
    imported(store, *SOLARI)
    page = tmp_path / "report.html"
    cli.run("impact", "--all", "-o", "version=2", "--html", str(page), expect=1)
    text = page.read_text(encoding="utf-8")
    pages = sorted(p.name for p in (tmp_path / "report-games").iterdir())
    assert pages == ["two-against-two-dice-seeded.html", "two-against-two-greedy-to-36-seeded.html",
                     "two-players-greedy-to-36-entered.html"]
    for name in pages:
        assert f'href="report-games/{name}"' in text
    side_by_side = (tmp_path / "report-games" / pages[0]).read_text(encoding="utf-8")
    assert "two-against-two-dice-seeded re-played" in side_by_side and '"options.version"' in side_by_side


def test_json_and_text_name_the_same_changed_games(store, cli):
    imported(store, *SOLARI)
    report = cli.json("impact", "--all", "-o", "version=2", expect=1)
    text = cli.run("impact", "--all", "-o", "version=2", expect=1).stdout
    lines = text.splitlines()
    lines = lines[next(k for k, line in enumerate(lines) if line.startswith("by solrec ")) + 1:]  # what was tested first
    assert [line.split(":")[0] for line in lines[: len(report["changed"])]] == [
        g["id"] for g in report["changed"]
    ]
    assert json.loads(json.dumps(report)) == report


def test_the_report_and_its_page_write_commands_in_the_records_words_never_in_python_quotes(store, cli, tmp_path):
    # issue 43: "impact prints Bob: '56-06' in Python quotes"
    imported(store, *SOLARI)
    page = tmp_path / "impact.html"
    text = cli.run("impact", "--all", "-o", "version=2", "--html", str(page), expect=1).stdout
    changed = cli.json("impact", "--all", "-o", "version=2", expect=1)["changed"]
    html = page.read_text(encoding="utf-8")
    assert changed
    for game in changed:
        notation = game["notation"]
        assert f"{game['actor']}: {notation}" in text
        assert f"'{notation}'" not in text and f"'{notation}'" not in game["reason"]
        assert f"&#x27;{notation}&#x27;" not in html and f"'{notation}'" not in html
