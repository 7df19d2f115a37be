"""Through the CLI: simulated games of every move source are recorded and validate; legal, show and
score --explain work on a Solari game."""

from __future__ import annotations

import pytest

SOURCES = [
    ("dice", ["--option", "source=dice", "--option", "moves=20"]),
    ("dominoes-hidden", ["--option", "source=dominoes-hidden"]),
    ("dominoes-open", ["--option", "source=dominoes-open"]),
    ("dominoes-free", ["--option", "source=dominoes-free"]),
]


@pytest.mark.parametrize("source, options", SOURCES, ids=[s for s, _ in SOURCES])
def test_simulated_games_of_every_move_source_validate(cli, source, options):
    cli.simulate_and_validate("solari", 12, *options)


@pytest.mark.slow
@pytest.mark.parametrize("source, options", SOURCES, ids=[s for s, _ in SOURCES])
def test_300_simulated_games_of_every_move_source_validate(cli, source, options):
    cli.simulate_and_validate("solari", 300, *options)


def test_simulated_four_player_team_games_validate(cli):
    cli.simulate_and_validate("solari", 6, "-p", "A", "-p", "B", "-p", "C", "-p", "D", "--option", "teams=on", "--option", "moves=10")


def test_legal_show_and_score_explain_on_a_solari_game(cli):
    cli.run("simulate", "solari", "--games", "1", "--seed", "3", "--option", "moves=6")
    shown = cli.run("show", "solari-1").stdout
    assert "counters:" in shown and "game over" in shown
    explained = cli.run("score", "solari-1", "--explain").stdout
    assert "Ann" in explained or "Player" in explained
