"""Setup options: sides, teams, version, chasers/blockers/doublers, joker, layout, reentry, and the
scoring readings that pass through to core.solari.scoring."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.errors import InvalidSetup
from solrec.core.play import initial_state, make_header
from solrec.core.solari import rules
from solrec.core.solari.layout import format_layout, house_layout, parse_layout, rotate
from solrec.core.solari.scoring import ScoringRules, score_move

from .helpers import GAME, PLAYERS, Table


def setup(players=2, **options):
    header = make_header(GAME, PLAYERS[players], {k: str(v) for k, v in options.items()}, "entered")
    return initial_state(GAME, header)


def test_two_players_play_uranus_and_saturn_by_default():
    assert setup().sides == ("Uranus", "Saturn")


def test_three_players_play_uranus_neptune_and_saturn_by_default():
    assert setup(3).sides == ("Uranus", "Neptune", "Saturn")


def test_four_players_play_all_sides_with_the_teams_alternating():
    assert setup(4).sides == ("Uranus", "Saturn", "Neptune", "Jupiter")


def test_the_sides_option_maps_players_to_sides_in_seat_order():
    state = setup(sides="Jupiter,neptune")
    assert state.sides == ("Jupiter", "Neptune") and state.player_of("Neptune") == "Bob"


@pytest.mark.parametrize(
    "sides, message",
    [("Pluto,Saturn", '"Pluto" is not'), ("Uranus,Uranus", "names a side twice"), ("Uranus", "names 1 sides for 2")],
)
def test_the_sides_option_refuses_bad_lists(sides, message):
    with pytest.raises(InvalidSetup, match=message):
        setup(sides=sides)


def test_teams_are_two_against_two():
    with pytest.raises(InvalidSetup, match="4 players, not 2"):
        setup(teams="on")


def test_partners_share_one_score_but_score_only_with_their_own_comets():
    t = Table("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S,77:N1N,70:J1N", players=4, teams="on")
    t("roll 1 1", "72-62", "62-52")
    sheet = GAME.score(t.state)
    assert dict(sheet.totals) == {"Ann": 5, "Bob": 0, "Cid": 5, "Dee": 0}
    assert {line.player for line in sheet.lines} == {"Ann"}


def test_version_1_scores_rows_only():
    t = Table("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S", version=1)("roll 1 1", "72-62", "62-52")
    assert t.total("Ann") == 3


def test_version_is_1_2_or_3():
    with pytest.raises(InvalidSetup, match="one of 1, 2, 3"):
        setup(version=4)


@pytest.mark.parametrize("kind", ["chasers", "blockers", "doublers"])
def test_special_pieces_can_be_left_out(kind):
    state = setup(**{kind: "off"})
    assert not any(p.kind == kind[:-1] for _, p in state.board)
    assert len(state.board) == 2 * 9 - 2


@pytest.mark.parametrize("kind, code", [("chasers", "22:Uc"), ("blockers", "11:Ub"), ("doublers", "00:Ud")])
def test_a_layout_may_not_use_a_piece_that_is_off(kind, code):
    with pytest.raises(InvalidSetup, match="are off in this game"):
        setup(**{kind: "off", "layout": f"{code},24:U1N"})


def test_the_joker_is_off_by_default():
    assert not Table("24:U1N,07:S1S")("roll 6 6").state.joker


def test_reentry_is_move_or_extra():
    with pytest.raises(InvalidSetup, match="one of move, extra"):
        setup(reentry="later")


def test_the_scoring_readings_reach_the_scoring_rules():
    state = setup(4, teams="on", version=2, doublers="off", partials_per_row="best", partner_doubler="doubles",
                  full_sequence_and_orientation="higher", unchanged_row_full_unit="full", diminished="squares")
    assert rules.scoring_rules(state) == ScoringRules(
        version=2, doublers=False, teams=True, full_sequence_and_orientation="higher", partials_per_row="best",
        unchanged_row_full_unit="full", partner_doubler="doubles", diminished="squares",
    )


def test_diminished_reads_the_comets_unless_the_squares_reading_is_chosen():
    # the project's reading is the default, so every game recorded before the option plays as it did
    assert rules.scoring_rules(setup()).diminished == "comets"
    with pytest.raises(InvalidSetup, match="one of comets, squares"):
        setup(diminished="both")


def test_every_scoring_rules_field_is_an_option():
    options = {f.name for f in attrs.fields(GAME.Options)}
    assert {f.name for f in attrs.fields(ScoringRules)} <= options


# -- the house layout and the layout notation ------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_house_layout_uses_the_start_squares_of_notes_md(n):
    board = dict(setup(n).board)
    kinds = {sq: p.kind for sq, p in board.items()}
    chasers = {sq for sq, k in kinds.items() if k == "chaser"}
    blockers = {sq for sq, k in kinds.items() if k == "blocker"}
    doublers = {sq for sq, k in kinds.items() if k == "doubler"}
    comets = {sq for sq, k in kinds.items() if k == "comet"}
    assert chasers <= {22, 25, 52, 55} and blockers <= {11, 16, 61, 66} and doublers <= {0, 7, 70, 77}
    inner = {23, 24, 32, 42, 35, 45, 53, 54}
    middle = {12, 13, 14, 15, 21, 31, 41, 51, 26, 36, 46, 56, 62, 63, 64, 65}
    assert comets <= inner | middle and len(comets) == 6 * n
    assert len(comets & inner) == 2 * n


def test_the_house_layout_is_fair_under_the_boards_rotations():
    sides = ("Uranus", "Saturn", "Neptune", "Jupiter")
    board = house_layout(sides)
    by_side = {s: {(rotate(sq, -k), p.kind, p.number) for sq, p in board if p.side == s} for k, s in enumerate(sides)}
    assert len({frozenset(v) for v in by_side.values()}) == 1
    two = dict(house_layout(("Uranus", "Saturn")))
    assert all(two[rotate(sq, 2)].side != p.side and two[rotate(sq, 2)].number == p.number for sq, p in two.items())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_scoring_unit_stands_on_the_board_at_the_start(n):
    state = setup(n)
    for side in state.sides:
        mine = tuple(sq for sq, p in state.board if p.side == side)
        assert score_move((), state.board, side, mine, rules.scoring_rules(state)) == ()


def test_the_layout_notation_round_trips():
    board = house_layout(("Uranus", "Saturn"))
    assert parse_layout(format_layout(board)) == board
    assert format_layout(board).startswith("00:Ud,11:Ub,12:U1S")


def test_a_layout_sets_up_any_position():
    state = setup(layout="33:u1n, 34:U2E ,00:Sd")
    assert [(sq, p.label) for sq, p in state.board] == [(0, "Sd"), (33, "U1^"), (34, "U2>")]


@pytest.mark.parametrize(
    "layout, message",
    [
        ("33:U7N", "is not SQUARE:CODE"),
        ("33-U1N", "is not SQUARE:CODE"),
        ("33:U1N,33:U2N", "two pieces on square 33"),
        ("33:U1N,34:U1E", "lists U1 twice"),
        ("33:Ud", "doubler stands on the margin"),
        ("33:J1N", "Jupiter does not play"),
        (" , ", "lists no piece"),
    ],
)
def test_a_bad_layout_is_refused(layout, message):
    with pytest.raises(InvalidSetup, match=message):
        setup(layout=layout)
