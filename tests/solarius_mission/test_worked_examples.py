"""The worked examples of rule text 003 that need no space, each as the text tells it."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand

from .helpers import Table


def test_a_die_on_minus_one_costs_one_fuel():
    # 003 9.2 A: "Marion selects a black die ... Because of the "-1" she pays 1 fuel."
    t = Table()
    t.do("take black3@-1 standard", "bonus fuel -1")
    assert t.mat().fuel == 1


def test_black_three_plus_one_bought_point_is_four_points_for_two_bucks_and_one_contamination():
    # 003 9.2 A: "She would like to use 4 action points and buys the fourth point with 2 SpaceBucks."
    t = Table()
    t.do("take black3@-1 standard", "bonus bucks -1")
    assert t.mat().contamination == 1  # the die itself brings 3
    t.set_mat(bucks=2)
    t.do("buy-ap 1")
    assert t.mat().bucks == 0
    t.do("fuel")
    assert t.mat().fuel == 2 + 4
    assert t.mat().contamination == 1  # the bought point brings no more


def test_star_plus_one_with_tech_die_two_is_three_action_points():
    # 003 6.0: "Her black tech die has a vlaue of "2" - therefore she receives 3 action points."
    t = Table(opening=("start-card 4", "start-card 2", "first Marion", "roll black *+1", "roll yellow 2",
                       "roll turquoise 1", "roll brown 1", "hub A"))
    (taken,) = [e for e in t.do("take black*+1@-1 standard") if type(e).__name__ == "DieTaken"]
    assert (taken.points, taken.action_points) == (3, 3)


def turquoise_table() -> Table:
    t = Table(opening=("start-card 1", "start-card 2", "first Marion", "roll turquoise 3", "roll yellow 2",
                       "roll black 1", "roll brown 1", "hub A"))
    t.do("take turquoise3@-1 standard", "bonus fuel -1")
    return t


def test_turquoise_three_points_upgrade_one_die_twice():
    # 003 9.2 A: "may upgrade the black tech die twice. The first upgrade costs 1 action point, the second one 2"
    t = turquoise_table()
    t.do("upgrade black black")
    assert t.mat().tech[0] == 2  # the side showing 3


def test_turquoise_three_points_upgrade_three_dice_from_one_to_two():
    t = turquoise_table()
    t.do("upgrade black turquoise brown")
    assert t.mat().tech == (1, 1, 1, 1)  # yellow was upgraded by the start card


def test_upgrading_beyond_the_action_points_is_refused():
    t = turquoise_table()
    with pytest.raises(IllegalCommand, match="costs 6 action points, the die brings 3"):
        t.do("upgrade black black black")


def test_brown_three_points_shift_black_one_column_and_yellow_from_two_to_three():
    # 003 9.2 A: "she shifts the black tech die (1 action point) from column I to II, then the yellow tech die
    # (2 action points) from column II to III."
    t = Table(opening=("start-card 2", "start-card 1", "first Marion", "roll brown 3", "roll yellow 2",
                       "roll black 1", "roll turquoise 1", "hub A"))
    t.do("take brown3@-1 standard", "bonus fuel -1", "shift black yellow")
    assert t.mat().columns == (2, 3, 1, 1)


def test_three_resources_two_in_column_one_and_one_in_column_two_are_worth_four():
    # 003 9.2 A: "Marion places 2 resources on warehouse spaces in column I and the third one on a warehouse
    # space in column II. These new resources have a value of 4."
    t = Table(opening=("start-card 1", "start-card 2", "first Marion", "roll yellow 3", "roll black 2",
                       "roll turquoise 1", "roll brown 1", "hub A"))
    t.set_mat(columns=(2, 3, 1, 1))
    t.do("take yellow3@-1 standard", "bonus fuel -1", "resources yellow I I II")
    assert t.mat().storage[1] == (2, 1, 0)
    values = t.state.cset.number("mat.storage.values")
    assert sum(n * v for n, v in zip(t.mat().storage[1], values)) == 4


def test_two_drives_cost_six_fuel():
    # 003 9.2 B I.1: "Marion purchases 2 additional drive markers ... She pays 6 fuel"
    t = Table()
    t.do("take yellow2@0 standard", "bucks")
    t.set_mat(fuel=8)
    t.do("drives 2")
    assert (t.mat().fuel, t.mat().drives) == (2, (1, 1))


@pytest.mark.parametrize("gain, fuel, bucks", [("fuel 2", 4, 2), ("bucks 2", 2, 4), ("fuel 1 bucks 1", 3, 3)])
def test_resources_of_value_one_and_three_exchange_for_two_fuel_or_bucks(gain, fuel, bucks):
    # 003 9.2 d.1: "With these resources and a value of 4 she may either get 2 fuel, 2 SpaceBucks, or 1 fuel and
    # 1 SpaceBucks each."
    t = Table()
    t.set_mat(storage=((1, 0, 0), (0, 0, 1), (2, 0, 0), (2, 0, 0)))
    t.do(f"exchange black I yellow III for {gain}")
    assert (t.mat().fuel, t.mat().bucks) == (fuel, bucks)
    assert t.mat().storage[:2] == ((0, 0, 0), (0, 0, 0))


def test_five_contamination_with_three_spaces_is_minus_two():
    # 003 8.0: "her three spaces on her mat are full and two cubes are already next to her mat ... will get
    # 2 minus points at the end of the game for sure!"
    from solrec.core.solarius_mission.rules import contaminate, fold

    t = Table()
    for _ in range(5):
        t.state = fold(t.state, contaminate(t.state, "Marion", 1, "test"))
    assert (t.mat().contamination, t.mat().beside) == (3, 2)
    assert t.score_line("Marion", "2 contamination cube(s) beside the mat") == -2


def test_die_in_column_five_with_columns_one_and_two_full_scores_two():
    # 003 11.0: "Marion has shifted the tech die in the black row to column V and filled the warehouse spaces in
    # column I and II completely. She receives 2 victory points."
    t = Table()
    t.set_mat(columns=(5, 1, 1, 1), storage=((3, 2, 0), (0, 0, 0), (2, 0, 0), (2, 0, 0)))
    assert t.score_line("Marion", "full storage columns") == 2
    assert t.score_line("Marion", "tech dice in column IV or V") == 1
