"""The solver: a winning line that really wins, honest answers ("unknowable", "undecided"), the survey."""

from __future__ import annotations

from solrec.core.solar_solitaire import solver
from solrec.core.solar_solitaire.cards import ALL_CARDS
from solrec.core.solve import SolveReport

from .helpers import GAME, Table, make_state

WINNABLE_SEED = 3  # solved in about 50 positions
HARD_SEED = 21  # not decided within 20,000 positions


def test_a_solved_deals_winning_line_wins_when_replayed():
    table = Table("seeded", seed=WINNABLE_SEED)
    report = GAME.solve(table.state, 20_000)
    assert isinstance(report, SolveReport)
    assert report.verdict == "winnable" and report.line
    assert report.note.startswith("open-information analysis")
    for command in report.line:
        assert table.state.result is None
        table.cmd(command)
    assert table.state.result == "won"


def test_a_winning_line_from_the_middle_of_a_game_wins_too():
    table = Table("seeded", seed=WINNABLE_SEED)
    for command in GAME.solve(table.state, 20_000).line[:5]:
        table.cmd(command)
    report = GAME.solve(table.state, 20_000)
    for command in report.line:
        table.cmd(command)
    assert table.state.result == "won"


def test_an_entered_deck_cannot_be_known_before_the_stock_is_used_up():
    table = Table()
    table.cmd("deal 0-0-1 1-1-2 2-2-3 2-0-3")
    report = GAME.solve(table.state, 1000)
    assert report.verdict == "unknowable" and report.positions == 0 and not report.decided
    assert "cannot be known before the stockpile is used up" in report.note


def _rest(*placed):
    return tuple(c for c in ALL_CARDS if c not in placed)


def test_an_entered_deck_is_solved_once_the_stock_is_used_up():
    pads = (("0-0-1", "0-0-0"), ("1-1-2", "1-1-1"), ("2-2-3", "2-2-2"), ("2-0-3", "3-0-3"))
    placed = [c for p in pads for c in p] + ["3-3-3", "0-3-0", "0-2-0"]
    table = Table(state=make_state(pads, waste=(*_rest(*placed), "3-3-3", "0-3-0"), stock=("0-2-0",)))
    table.cmd("turn")
    table.cmd("card 0-2-0")
    report = GAME.solve(table.state, 1000)
    assert report.verdict == "winnable"
    assert report.line == ("move waste station0", "move waste station0", "move waste pad3")
    assert report.note == "the stockpile is used up: nothing is hidden"


def test_a_deal_with_no_winning_line_is_proven_unwinnable():
    pads = (("0-0-1", "0-0-0"), ("2-0-3", "0-0-3"), ("1-3-1",), ("1-2-2",))
    placed = [c for p in pads for c in p] + ["3-3-3", "1-1-3"]
    state = make_state(pads, waste=(*_rest(*placed), "3-3-3"), stock=("1-1-3",), stock_known=True)
    report = GAME.solve(state, 1000)
    # 0-0-3 on pad1 or on station0, before or after the last card: four positions, none won
    assert report.verdict == "unwinnable" and report.decided and report.positions == 4


def test_the_solver_reports_undecided_when_its_budget_runs_out():
    table = Table("seeded", seed=HARD_SEED)
    report = GAME.solve(table.state, 500)
    assert report.verdict == "undecided" and report.positions == 500 and report.line == ()


def test_a_finished_game_is_reported_as_it_ended():
    table = Table()
    table.cmd("deal 0-0-1 1-1-2 2-2-3 2-0-3")
    table.cmd("resign")
    assert GAME.solve(table.state, 10).verdict == "lost"


def test_the_forced_plays_alone_never_win_a_deal_the_solver_proves_lost():
    report = GAME.survey(12, 5, 3000)
    assert report["winnable"] + report["unwinnable"] + report["undecided"] == 12
    for row in report["rows"]:
        if row["forced_won"] or row["greedy_won"]:
            assert row["verdict"] != "unwinnable"
    assert 0 <= report["forced_won"] <= 12 and 0 <= report["greedy_won"] <= 12


def test_a_survey_deal_is_the_game_that_solrec_new_with_its_seed_deals():
    report = GAME.survey(2, 9, 100)
    seed = report["rows"][1]["seed"]
    assert seed == solver.deal_seed(9, 1)
    assert solver.deal_position(GAME, seed) == Table("seeded", seed=seed).state


def test_the_forced_player_wins_a_deal_whose_rockets_come_in_time():
    # seed 38's deal is won by the forced plays alone
    state = solver.deal_position(GAME, 38)
    deck = bytes(solver.INDEX[c] for c in state.stock)
    assert solver.play_forced_only(solver.piles_of(state), deck)
    assert solver.play_greedy(solver.piles_of(state), deck)


def test_a_winning_line_found_best_first_wins_when_replayed():
    # seed 37: the depth-first half of a 4,000-position budget finds nothing, the best-first half does
    table = Table("seeded", seed=37)
    deck = bytes(solver.INDEX[c] for c in table.state.stock)
    assert solver.depth_first(solver.roots_of(table.state, deck), deck, 2000).verdict == "undecided"
    report = GAME.solve(table.state, 4000)
    assert report.verdict == "winnable"
    for command in report.line:
        table.cmd(command)
    assert table.state.result == "won"
