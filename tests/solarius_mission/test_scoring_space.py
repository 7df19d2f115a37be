"""End game scoring in space (003 11.0, 9.2 B II.4): one rule, one test, on hand-built maps."""

from __future__ import annotations

import itertools

import attrs
import pytest

from solrec.core.solarius_mission import scoring
from solrec.core.solarius_mission.scoring import (
    Space,
    best_sets,
    hub_adjacency,
    largest_network,
    network_points,
)

AXIAL = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@attrs.frozen
class Fig:
    player: str
    kind: str
    hex: tuple[int, int]
    outpost: bool = False


def neighbours(h):
    return tuple((h[0] + dq, h[1] + dr) for dq, dr in AXIAL)


def distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def space(*figures, hubs=()):
    return Space(tuple(figures), tuple(hubs), neighbours, distance, lambda h: f"{h[0]},{h[1]}")


# -- figures next to built hubs ------------------------------------------------------------------------

def test_each_own_figure_next_to_a_built_hub_scores_one():
    s = space(Fig("A", "colony", (1, 0)), Fig("A", "station", (0, 1)), Fig("A", "mission", (3, 3)),
              Fig("B", "colony", (-1, 0)), hubs=[("B", (0, 0))])
    assert hub_adjacency(s, "A", per_hub=False, outpost_doubles=True)[0] == 2
    assert hub_adjacency(s, "B", per_hub=False, outpost_doubles=True)[0] == 1


def test_a_figure_next_to_an_unbuilt_hub_space_scores_nothing():
    s = space(Fig("A", "colony", (1, 0)), hubs=())
    assert hub_adjacency(s, "A", per_hub=False, outpost_doubles=True) == (0, [])


def test_hub_adjacency_counts_a_figure_once_next_to_two_hubs():
    s = space(Fig("A", "station", (1, 0)), hubs=[("B", (0, 0)), ("C", (2, 0))])
    points, parts = hub_adjacency(s, "A", per_hub=False, outpost_doubles=True)
    assert points == 1 and parts == ["station 1,0 next to hubs B and C, once: 1"]


def test_hub_adjacency_per_hub_option_counts_each_hub():
    s = space(Fig("A", "station", (1, 0)), hubs=[("B", (0, 0)), ("C", (2, 0))])
    assert hub_adjacency(s, "A", per_hub=True, outpost_doubles=True)[0] == 2


def test_outpost_doubles_hub_adjacency():
    s = space(Fig("A", "colony", (1, 0), outpost=True), hubs=[("B", (0, 0))])
    points, parts = hub_adjacency(s, "A", per_hub=False, outpost_doubles=True)
    assert points == 2 and parts == ["colony 1,0 with outpost next to hub B: 2 (outpost doubles)"]


def test_outpost_doubles_network_only_option_leaves_hub_adjacency_single():
    s = space(Fig("A", "colony", (1, 0), outpost=True), hubs=[("B", (0, 0))])
    assert hub_adjacency(s, "A", per_hub=False, outpost_doubles=False)[0] == 1


# -- the network ---------------------------------------------------------------------------------------

def test_network_is_the_largest_group_connected_hex_to_hex():
    s = space(Fig("A", "colony", (0, 0)), Fig("A", "station", (1, 0)), Fig("A", "mission", (2, 0)),
              Fig("A", "colony", (5, 5)), Fig("A", "colony", (5, 6)), Fig("B", "colony", (3, 0)))
    count, group = largest_network(s, "A", None)
    assert count == 3 and {f.hex for f in group} == {(0, 0), (1, 0), (2, 0)}


def test_network_is_not_connected_through_other_players_figures():
    s = space(Fig("A", "colony", (0, 0)), Fig("B", "colony", (1, 0)), Fig("A", "colony", (2, 0)))
    assert largest_network(s, "A", None)[0] == 1


def test_outpost_counts_double_in_the_network():
    s = space(Fig("A", "colony", (0, 0), outpost=True), Fig("A", "station", (1, 0)),
              Fig("A", "colony", (4, 4)), Fig("A", "colony", (4, 5)))
    count, group = largest_network(s, "A", None)
    assert count == 3 and {f.hex for f in group} == {(0, 0), (1, 0)}


def test_network_within_ship_range_option_links_figures_that_many_hexes_apart():
    s = space(Fig("A", "colony", (0, 0)), Fig("A", "station", (2, 0)), Fig("A", "colony", (5, 0)))
    assert largest_network(s, "A", None)[0] == 1
    assert largest_network(s, "A", 2)[0] == 2
    assert largest_network(s, "A", 3)[0] == 3


def test_network_majority_four_players_awards_six_four_two():
    assert network_points({"A": 5, "B": 3, "C": 2, "D": 1}, (6, 4, 2)) == {"A": 6, "B": 4, "C": 2, "D": 0}


def test_network_majority_three_players_awards_four_two():
    assert network_points({"A": 5, "B": 3, "C": 2}, (4, 2)) == {"A": 4, "B": 2, "C": 0}


def test_network_majority_two_players_awards_two():
    assert network_points({"A": 1, "B": 3}, (2,)) == {"A": 0, "B": 2}


@pytest.mark.parametrize("sizes, awards, expected", [
    # four players: first place shared by two -> (6 + 4) / 2 = 5; the next rank is third
    ({"A": 4, "B": 4, "C": 2, "D": 1}, (6, 4, 2), {"A": 5, "B": 5, "C": 2, "D": 0}),
    # three tied for first -> (6 + 4 + 2) / 3 = 4; the fourth gets nothing
    ({"A": 3, "B": 3, "C": 3, "D": 1}, (6, 4, 2), {"A": 4, "B": 4, "C": 4, "D": 0}),
    # tie for third -> (2 + 0) / 2 = 1
    ({"A": 5, "B": 4, "C": 2, "D": 2}, (6, 4, 2), {"A": 6, "B": 4, "C": 1, "D": 1}),
    # tie for second -> (4 + 2) / 2 = 3
    ({"A": 5, "B": 4, "C": 4, "D": 2}, (6, 4, 2), {"A": 6, "B": 3, "C": 3, "D": 0}),
    # all four tied -> 12 / 4 = 3
    ({"A": 1, "B": 1, "C": 1, "D": 1}, (6, 4, 2), {"A": 3, "B": 3, "C": 3, "D": 3}),
])
def test_network_majority_ties_share_rounded_down_four_players(sizes, awards, expected):
    assert network_points(sizes, awards) == expected


@pytest.mark.parametrize("sizes, expected", [
    ({"A": 3, "B": 3, "C": 1}, {"A": 3, "B": 3, "C": 0}),  # (4 + 2) / 2
    ({"A": 2, "B": 2, "C": 2}, {"A": 2, "B": 2, "C": 2}),  # (4 + 2 + 0) / 3
    ({"A": 5, "B": 2, "C": 2}, {"A": 4, "B": 1, "C": 1}),  # (2 + 0) / 2
])
def test_network_majority_ties_share_rounded_down_three_players(sizes, expected):
    assert network_points(sizes, (4, 2)) == expected


def test_network_majority_ties_share_rounded_down_two_players():
    assert network_points({"A": 3, "B": 3}, (2,)) == {"A": 1, "B": 1}  # (2 + 0) / 2


def test_a_player_without_figures_in_space_takes_no_part_in_the_network():
    assert network_points({"A": 0, "B": 0}, (2,)) == {"A": 0, "B": 0}
    assert network_points({"A": 2, "B": 0, "C": 0}, (4, 2)) == {"A": 4, "B": 0, "C": 0}


# -- colour sets ---------------------------------------------------------------------------------------

def _brute(counts, four_vp=4, three_vp=2):
    """Every way of taking sets of 4 and 3 distinct colours, by exhaustion."""
    best = 0
    colours = range(4)

    def go(left, points):
        nonlocal best
        best = max(best, points)
        if all(k > 0 for k in left):
            go(tuple(k - 1 for k in left), points + four_vp)
        for trio in itertools.combinations(colours, 3):
            if all(left[c] > 0 for c in trio):
                go(tuple(k - (c in trio) for c, k in enumerate(left)), points + three_vp)

    go(tuple(counts), 0)
    return best


@pytest.mark.parametrize("counts", list(itertools.product(range(4), repeat=4)))
def test_colour_sets_partition_maximises_points(counts):
    colours = ("black", "yellow", "turquoise", "brown")
    planets, pid = {}, 1
    for col, k in zip(colours, counts):
        planets[col] = list(range(pid, pid + k))
        pid += k
    fours, threes = best_sets(planets, 4, 2)
    assert 4 * len(fours) + 2 * len(threes) == _brute(counts)
    used = [p for s in (*fours, *threes) for p in s]
    assert len(used) == len(set(used))  # 11.0 "Each planet may be part of only one set."
    colour_of = {p: col for col, ps in planets.items() for p in ps}
    assert all(len({colour_of[p] for p in s}) == len(s) for s in (*fours, *threes))


def test_colour_sets_take_two_sets_of_three_where_one_set_of_four_would_leave_points():
    # 3 black, 3 yellow, 2 turquoise, 1 brown: one 4-set then one 3-set (6) beats nothing better;
    # 3 sets of 3 (6) tie with it; the best is 6 either way, never the 4 of a single 4-set
    fours, threes = best_sets({"black": [1, 2, 3], "yellow": [4, 5, 6], "turquoise": [7, 8], "brown": [9]}, 4, 2)
    assert 4 * len(fours) + 2 * len(threes) == 6


def test_kind_words_name_every_figure_kind():
    assert set(scoring.KIND_WORDS) == {"colony", "station", "mission"}


def forget_kept_lines() -> None:
    scoring._PLAYER_LINES.clear()
    scoring._NETWORK_LINES.clear()


@pytest.mark.parametrize("path", ["solarius-mission/space-three-players-seeded.jsonl",
                                  "solarius-mission/four-players-entered.jsonl"])
def test_score_lines_kept_from_earlier_positions_are_the_lines_worked_out_afresh(path):
    """A player's lines are kept while his mat and space are unchanged, the network lines while no
    figure moves (the replay page scores every command): each position scored after all the game's
    earlier ones equals it scored from nothing."""
    from solrec.replay.log import walk

    from ..pictures.helpers import fixture_log

    log = fixture_log(path)
    states = [state for _, _, state in walk(log)]
    forget_kept_lines()
    in_turn = [scoring.score(state) for state in states]
    for k in range(0, len(states), 5):
        forget_kept_lines()
        assert scoring.score(states[k]) == in_turn[k], k
