"""SOLI2 through the command line: simulate and validate every mode, legal, score and show."""

from __future__ import annotations

import pytest

from ..conftest import FIXTURES

MODE_OPTIONS = [
    ["--option", "mode=duel"],
    ["--option", "mode=duel", "--option", "objective=give-away"],
    ["--option", "mode=duel", "--option", "fill=pure-skill"],
    ["--option", "mode=classic-solitaire"],
    ["--option", "mode=soli2-solitaire"],
]
MODE_IDS = ["duel", "give-away", "pure-skill", "classic", "soli2-solitaire"]


# Fast enough (about 10 s a mode on 2 cores) to run in `make test`.
@pytest.mark.parametrize("options", MODE_OPTIONS, ids=MODE_IDS)
def test_500_simulated_games_validate(cli, options):
    cli.simulate_and_validate("soli2", 500, *options)


def test_a_simulated_solitaire_names_one_player_by_default(cli):
    cli.json("simulate", "soli2", "--games", "1", "--option", "mode=classic-solitaire")
    shown = cli.json("show", "soli2-1")
    assert shown["to_act"] is None
    assert list(shown["scores"]) == ["Player 1"]


def test_an_entered_duel_played_from_the_command_line(cli):
    cli.run("new", "soli2", "--entered", "-p", "Ann", "-p", "Bob", "--id", "g")
    legal = cli.json("legal", "g")
    assert legal["to_act"] == "chance" and legal["commands"] == ["draw black", "draw white"]
    cli.run("play", "g", "draw white; place b3; draw black")
    refused = cli.run("play", "g", "place b3", expect=None)
    assert refused.exit_code != 0 and "b3 is not empty" in refused.stderr
    legal = cli.json("legal", "g")
    assert legal["to_act"] == "Bob" and len(legal["commands"]) == 48 and "place b3" not in legal["commands"]
    shown = cli.json("show", "g")
    assert shown["state"]["pouch"] == [23, 23]
    assert " 3  . w . . . . .  3" in shown["text"]


def test_score_and_explanation_of_a_recorded_duel_show_the_tie_break(cli):
    cli.run("import", str(FIXTURES / "soli2" / "duel-pouch-standard.jsonl"), "--id", "tie")
    score = cli.json("score", "tie")
    assert score["scores"] == {"Ann": 5, "Bob": 5}
    assert score["outcome"]["winners"] == ["Ann"]
    explained = cli.run("score", "tie", "--explain").stdout
    assert "tie-break: black c3 at distance 2" in explained
    assert '002: "If the two marbles are equally close' in explained


def test_wrong_player_count_for_a_mode_is_refused(cli):
    result = cli.run("new", "soli2", "-p", "Ann", "-p", "Bob", "--option", "mode=soli2-solitaire", expect=None)
    assert result.exit_code != 0
    assert "SOLI2 soli2-solitaire is played by 1 player, not 2" in result.stderr
