"""WINNING THE GAME, BREAKING TIES and "GIVE AWAY": score sheets and outcomes of a duel."""

from __future__ import annotations

import attrs

from solrec.core.soli2 import board as B
from solrec.core.soli2 import text
from solrec.core.soli2.scoring import tie_break
from solrec.core.soli2.state import OVER

from .conftest import GAME, position


def finished(diagram: str, objective: str = "standard", end: str = "no-jump"):
    return attrs.evolve(position(diagram, objective=objective), phase=OVER, end=end)


PICTURE = """
    . . . . . . .
    . . . . . . .
    . . . w . . .
    . . . . . . .
    . . b . . . .
    . . . . . . .
    . . . . . . .
"""


def what(state) -> list[str]:
    return [line.what for line in GAME.score(state).lines]


def test_each_players_score_is_their_marbles_remaining():
    state = finished(
        """
        b . . . . . .
        . . . . . . .
        b . . . . . w
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b . . . . . .
        """
    )
    sheet = GAME.score(state)
    assert dict(sheet.totals) == {"Ann": 3, "Bob": 1}
    assert what(state) == ["black: 3 marbles on the board", "white: 1 marble on the board"]
    assert all(line.rule == text.MOST_WINS for line in sheet.lines)


def test_the_player_with_the_most_marbles_remaining_wins():
    # 002: "The player with the most marbles remaining wins."
    state = finished(
        """
        b . . . . . .
        . . . . . . .
        . . . . . . .
        . . . w . . .
        . . . . . . .
        . . . . . . .
        b . . . . . .
        """
    )
    outcome = GAME.outcome(state)
    assert outcome.winner == "Ann" and outcome.ranking == ("Ann", "Bob")
    assert outcome.reason == (
        "neither player has a legal jump; Ann (black) wins: black 2, white 1: the most marbles remaining wins"
    )
    assert len(GAME.score(state).lines) == 2  # no tie-break when the counts decide


def test_in_give_away_the_player_with_the_least_marbles_remaining_wins():
    # 002: "The rules are unchanged except that the player with the **least** marbles remaining wins the game."
    state = finished(
        """
        b . . . . . .
        . . . . . . .
        . . . . . . .
        . . . w . . .
        . . . . . . .
        . . . . . . .
        b . . . . . .
        """,
        objective="give-away",
    )
    outcome = GAME.outcome(state)
    assert outcome.winner == "Bob"
    assert outcome.reason.endswith("Bob (white) wins: black 2, white 1: the least marbles remaining wins (give away)")
    assert all(line.rule == text.GIVE_AWAY_LEAST for line in GAME.score(state).lines)
    assert dict(GAME.score(state).totals) == {"Ann": 2, "Bob": 1}


def test_in_give_away_running_out_of_marbles_wins():
    # 002: "When playing "give away", the object of the game is to remove your own marbles from the board."
    state = finished(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . w . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        objective="give-away",
        end="black-out",
    )
    outcome = GAME.outcome(state)
    assert outcome.winner == "Ann"
    assert outcome.reason.startswith("black has no marbles left; Ann (black) wins: black 0, white 1")


def test_the_pictured_tie_white_one_space_from_the_center_beats_black_two_spaces():
    # 002: "The white marble is 1 space from the center. The black marble is 2 spaces from the center."
    state = finished(PICTURE)
    assert GAME.outcome(state).winner == "Bob"
    lines = GAME.score(state).lines
    assert lines[2].what == "tie-break: white d5 at distance 1 beats black c3 at distance 2"
    assert lines[2].player == "Bob" and lines[2].points == 0
    assert lines[2].rule == text.TIE_CLOSEST + "; " + text.DISTANCE
    assert GAME.outcome(state).reason == (
        "neither player has a legal jump; Bob (white) wins: 1 marble each; "
        "tie-break: white d5 at distance 1 beats black c3 at distance 2"
    )


def test_on_equal_counts_the_player_with_the_marble_closest_to_the_center_wins():
    # 002: "If both players have the same number of marbles remaining at the end of the game, the player
    # with the marble closest to the center wins."
    state = finished(
        """
        . . . . . . w
        . . . . . . .
        . . . . . . .
        . . . . b . .
        . . . . . . .
        . . . . . . .
        b . . . . . w
        """
    )
    assert GAME.outcome(state).winner == "Ann"
    assert what(state)[2:] == ["tie-break: black e4 at distance 1 beats white g7 at distance 6"]


def test_distances_are_measured_horizontally_plus_vertically_not_diagonally():
    # 002: "**Distances are measured horizontally plus vertically**, not diagonally."
    assert B.DISTANCE[B.index("c3")] == 2  # one step diagonally, two orthogonal steps
    assert B.DISTANCE[B.index("d6")] == 2
    assert B.DISTANCE[B.index("a1")] == 6
    state = finished(
        """
        . . . . . . .
        . . . w . . .
        . . . . . . .
        . . . . . . .
        . . b . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert what(state)[2] == "tie-break: black c3 at distance 2 and white d6 at distance 2 are equally close: both set aside"


def test_equally_close_marbles_are_set_aside_and_the_next_closest_compared():
    # 002: "If the two marbles are equally close, remove them and compare the next closest marbles, and so on."
    state = finished(
        """
        . . . w . . .
        . . . . . . .
        . . . . w . .
        . . . . . . .
        . . b . . . .
        . . . . . . .
        b . . . . . .
        """
    )
    lines = GAME.score(state).lines[2:]
    assert [line.what for line in lines] == [
        "tie-break: black c3 at distance 2 and white e5 at distance 2 are equally close: both set aside",
        "tie-break: white d7 at distance 3 beats black a1 at distance 6",
    ]
    assert lines[0].rule == text.TIE_NEXT
    assert GAME.outcome(state).winner == "Bob"


def test_and_so_on_through_several_set_aside_pairs():
    steps, winner = tie_break(
        "".join(
            """
            . . . . . . b
            . . . . w . .
            . . . b . . .
            . . . . w . .
            . . . . . . .
            . . b . . . .
            . . . . . w .
            """.split()
        )
    )
    assert [(s.black, s.white, s.closer) for s in steps] == [
        ("d5", "e4", None),
        ("c2", "e6", None),
        ("g7", "f1", "white"),
    ]
    assert winner == "white"


def test_if_no_marble_is_closer_after_all_are_compared_white_wins():
    # 002: "If neither player is closer after all marbles have been compared, the player playing "white"
    # wins the game, ..."
    state = finished(
        """
        . . . . . . .
        . . . . . . .
        . . . . w . .
        . . . . . . .
        . . b . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    outcome = GAME.outcome(state)
    assert outcome.winner == "Bob"
    lines = GAME.score(state).lines
    assert lines[-1].what == "tie-break: no marble is closer after all have been compared: white wins"
    assert lines[-1].rule == text.TIE_WHITE
    assert outcome.reason.endswith("1 marble each and no marble closer after all were compared: white wins the tie-break")


def test_give_away_uses_the_same_tie_break_the_closest_to_the_center_wins():
    # 002: "The same tie-breaking rules apply: the player closest to the center wins."
    state = finished(PICTURE, objective="give-away")
    assert GAME.outcome(state).winner == "Bob"
    line = GAME.score(state).lines[2]
    assert line.what == "tie-break: white d5 at distance 1 beats black c3 at distance 2"
    assert line.rule == text.GIVE_AWAY_TIE + "; " + text.DISTANCE


def test_the_tie_break_is_shown_only_once_the_game_is_over():
    state = position(PICTURE)
    assert GAME.outcome(state) is None
    assert len(GAME.score(state).lines) == 2


def test_marbles_on_the_board_are_scored_while_filling():
    from .conftest import new, play

    state = play(new(), "draw white", "place a1", "draw white", "place a2", "draw black", "place a3")
    assert dict(GAME.score(state).totals) == {"Ann": 1, "Bob": 2}
