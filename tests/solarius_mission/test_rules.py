"""One rule, one test: setup, the bridge, the die, the actions, the supplementary action, turn end."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.errors import AmbiguousCommand, IllegalCommand, InvalidCommand, WrongActor
from solrec.core.observe import Viewer
from solrec.core.solarius_mission.legal import take_commands
from solrec.core.solarius_mission.state import Die
from solrec.events.codec import to_plain

from .helpers import GAME, Table


def dice(space) -> list[str]:
    return [d.colour + d.face for d in space]


# -- setup ------------------------------------------------------------------------------------------


def test_start_card_shifts_one_die_upgrades_another_and_gives_two_resources_in_each_other_colour():
    t = Table()
    mat = t.mat("Marion")  # start card 1: shift black, upgrade yellow, turquoise and brown resources, cards 1 2
    assert mat.columns == (2, 1, 1, 1) and mat.tech == (0, 1, 0, 0)
    assert mat.storage == ((0, 0, 0), (0, 0, 0), (2, 0, 0), (2, 0, 0))
    assert mat.hand == (1, 2) and (mat.fuel, mat.bucks) == (2, 2)


def test_unused_start_cards_leave_their_progress_cards_in_the_deck():
    t = Table()
    assert set(t.state.deck) == set(range(5, 33))  # cards 1-4 went to hands with start cards 1 and 2


@pytest.mark.parametrize("players, per_colour", [(2, 3), (3, 4), (4, 5)])
def test_the_bag_holds_the_dice_of_the_player_count(players, per_colour):
    t = Table(players=tuple(f"P{i}" for i in range(players)), opening=None)
    assert t.state.bag == (per_colour,) * 4


def test_the_bridge_is_set_up_by_value_highest_on_minus_one_and_ties_share_a_space():
    t = Table()
    bridge = t.state.bridge
    assert dice(bridge[0]) == ["black3"] and dice(bridge[1]) == ["yellow2"]
    assert sorted(dice(bridge[2])) == ["brown*", "turquoise1"]  # brown* is Marion's brown tech die: 1


def test_without_start_cards_each_player_keeps_two_of_three_cards_and_chooses_the_start_position():
    t = Table(opening=None, start="choose")
    t.do("card 5", "card 6", "card 7")
    assert t.phase == "choose-start"
    with pytest.raises(IllegalCommand, match="differ"):
        t.do("start shift black upgrade black keep 5 6")
    t.do("start shift black upgrade yellow keep 5 7")
    assert t.mat("Marion").hand == (5, 7) and t.state.discard == (6,)
    assert t.mat("Marion").storage[2:] == ((2, 0, 0), (2, 0, 0))
    assert t.phase == "deal" and t.state.current == "Tom"


# -- taking a die --------------------------------------------------------------------------------------


def test_a_die_must_lie_on_the_bridge_space_named():
    t = Table()
    with pytest.raises(IllegalCommand, match="no die yellow2 lies on the space with bonus -1"):
        t.do("take yellow2@-1 standard")


def test_the_face_may_be_left_out_when_only_one_die_of_the_colour_lies_there():
    t = Table()
    assert GAME.parse("take black@-1 standard", t.state) == GAME.parse("take black3@-1 standard")
    with pytest.raises(InvalidCommand):
        GAME.parse("take black@-1 standard")  # without the game the face is needed


def test_an_ambiguous_die_is_refused_with_both_readings():
    import attrs

    t = Table()
    t.state = attrs.evolve(t.state, bridge=((Die("black", "3"), Die("black", "*")), *t.state.bridge[1:]))
    with pytest.raises(AmbiguousCommand, match="black\\*@-1 and black3@-1"):
        GAME.parse("take black@-1 standard", t.state)


def test_minus_one_with_neither_fuel_nor_bucks_is_refused_exchange_first():
    t = Table()
    t.set_mat(fuel=0, bucks=0)
    with pytest.raises(IllegalCommand, match="exchange first"):
        t.do("take black3@-1 standard")


def test_minus_one_is_taken_for_nothing_when_every_die_lies_there_and_nothing_can_pay():
    import attrs

    t = Table()
    t.set_mat(fuel=0, bucks=0, storage=((0, 0, 0),) * 4)
    t.state = attrs.evolve(t.state, bridge=((Die("black", "3"), Die("yellow", "2")), (), (), (), ()))
    t.do("take black3@-1 standard")
    assert t.phase == "action" and (t.mat().fuel, t.mat().bucks) == (0, 0)


def test_the_bonus_of_two_or_three_is_any_split_and_capped_at_ten():
    t = Table()
    t.do("take brown*@1 standard")
    with pytest.raises(IllegalCommand, match="adding up to 1"):
        t.do("bonus fuel 1 bucks 1")
    t.set_mat(fuel=10)
    t.do("bonus fuel 1")
    assert t.mat().fuel == 10  # 003 5.0: never more than 10


def test_the_transformation_space_changes_the_colour_and_costs_one_contamination():
    t = Table()
    t.do("take yellow2@0 transform black")
    assert t.state.die.acts_as == "black" and t.mat().contamination == 1
    t.do("fuel")
    assert t.mat().fuel == 4


def test_a_star_on_the_transformation_space_takes_the_new_colours_tech_die():
    t = Table()
    t.do("take brown*@1 transform yellow")  # Marion's yellow tech die shows 2 (start card 1)
    assert t.state.die.action_points == 2


def test_the_transformation_space_is_used_once_per_game_turn():
    t = Table()
    t.set_mat(used=("transform",))
    with pytest.raises(IllegalCommand, match="once per game turn"):
        t.do("take yellow2@0 transform black")


def test_the_research_space_draws_or_plays_first_and_costs_one_contamination():
    t = Table()
    t.do("take yellow2@0 research")
    assert t.phase == "research" and t.mat().contamination == 1
    t.do("draw")
    assert GAME.to_act(t.state) == "chance"
    t.do("card 20")
    assert t.mat().hand == (1, 2, 20) and t.phase == "action"


def test_contamination_counts_the_die_itself_not_card_boosts():
    t = Table()
    t.set_mat(developments=(5,))  # +1 action point for black dice
    t.do("take yellow2@0 transform black")
    assert t.state.die.action_points == 3
    assert t.mat().contamination == 1  # the transformation only


def test_contamination_stacks_with_the_research_cube():
    t = Table()
    t.do("take black3@-1 research")
    assert t.mat().contamination == 2


# -- the die action ------------------------------------------------------------------------------------------


def test_buying_action_points_needs_two_bucks_each():
    t = Table()
    t.do("take black3@-1 standard", "bonus bucks -1")
    with pytest.raises(IllegalCommand, match="cost 2 SpaceBucks"):
        t.do("buy-ap 1")


def test_the_pyramid_needs_two_cubes_in_column_one_before_column_two():
    t = Table()
    t.set_mat(columns=(3, 1, 1, 1))
    t.do("take black3@-1 standard", "bonus fuel -1")
    with pytest.raises(IllegalCommand, match="column II needs 2 in column I"):
        t.do("resources black I II")


def test_storage_left_of_the_tech_die_only():
    t = Table()
    t.do("take black3@-1 standard", "bonus fuel -1")
    t.do("resources black I I I")  # black is in column II: all three column I cells
    t2 = Table()
    t2.do("take yellow2@0 standard", "buy-ap 1")
    with pytest.raises(IllegalCommand, match="no open storage space"):
        t2.do("resources yellow I I I")


def test_more_resources_than_action_points_are_refused_fewer_forfeit_the_rest():
    t = Table()
    t.do("take yellow2@0 standard")
    with pytest.raises(IllegalCommand, match="at most 2"):
        t.do("resources yellow I I I")
    (done,) = [e for e in t.do("resources yellow I") if type(e).__name__ == "DieActionDone"]
    assert (done.used, done.forfeited) == (1, 1)


def test_the_colour_action_belongs_to_the_dies_colour():
    t = Table()
    t.do("take yellow2@0 standard")
    with pytest.raises(IllegalCommand, match="fuel is the action of a black die"):
        t.do("fuel")


def test_fuel_beyond_ten_is_lost():
    t = Table()
    t.do("take black3@-1 standard", "bonus bucks -1")
    t.set_mat(fuel=9)
    t.do("fuel")
    assert t.mat().fuel == 10


# -- supplementary action, cards --------------------------------------------------------------------------------


def after_action() -> Table:
    t = Table()
    t.do("take yellow2@0 standard", "bucks")
    return t


def test_drives_up_to_three_at_three_fuel_each():
    t = after_action()
    t.set_mat(fuel=10)
    with pytest.raises(IllegalCommand, match="room for 3 more"):
        t.do("drives 4")
    t.set_mat(fuel=5)
    with pytest.raises(IllegalCommand, match="cost 6 fuel"):
        t.do("drives 2")


def test_drawing_two_then_discarding_one():
    t = after_action()
    t.do("draw", "card 9", "card 10")
    assert t.phase == "discard" and t.mat().hand == (1, 2, 9, 10)
    t.do("discard 1")
    assert t.mat().hand == (2, 9, 10) and t.phase == "after"


def test_the_hand_limit_of_three_is_restored_at_once():
    t = Table()
    t.set_mat(hand=(1, 2, 3))
    t.do("take yellow2@0 research", "draw", "card 9")
    assert t.phase == "discard"
    t.do("discard 9")
    assert t.phase == "action"


def test_a_mission_is_played_with_its_cost_and_scores_minus_one_unfulfilled():
    t = after_action()
    (played,) = [e for e in t.do("play 1 mission") if type(e).__name__ == "CardPlayed"]
    assert played.text == "mission: black 5 for 3 VP"
    assert t.score_line("Marion", "1 unfulfilled mission") == -1


def test_at_most_six_missions():
    t = after_action()
    t.set_mat(missions=(11, 12, 13, 14, 15, 16))
    with pytest.raises(IllegalCommand, match="six missions"):
        t.do("play 1 mission")


def test_a_development_with_a_choice_waits_for_the_player():
    t = after_action()
    t.do("play 2 development")  # 2 resources of any colour
    assert t.phase == "effects"
    t.do("resources black I yellow I")
    assert t.mat().storage[0] == (1, 0, 0) and t.mat().storage[1] == (1, 0, 0)


def test_a_die_space_triggers_its_effect_once_per_game_turn():
    t = Table()
    t.set_mat(developments=(17,))  # die space: 2 fuel
    t.do("take yellow2@0 card 17")
    assert t.mat().fuel == 4 and t.phase == "action"
    t.do("bucks", "end-turn")
    assert "card:17" in t.mat().used


def test_upgrading_the_own_drive_is_refused():
    t = Table()
    with pytest.raises(IllegalCommand, match="own drive stays 1"):
        t.do("upgrade-drive")


def test_an_odd_remainder_of_an_exchange_is_lost():
    t = Table()
    t.set_mat(storage=((0, 0, 0), (0, 0, 1), (2, 0, 0), (2, 0, 0)))
    with pytest.raises(IllegalCommand, match="value 3 give 1"):
        t.do("exchange yellow III for fuel 2")
    t.do("exchange yellow III for fuel 1")
    assert t.mat().fuel == 3


def test_two_fuel_or_bucks_buy_one_resource_under_the_pyramid_rule():
    t = Table()
    t.do("exchange fuel 1 bucks 1 for black I")
    assert (t.mat().fuel, t.mat().bucks, t.mat().storage[0]) == (1, 1, (1, 0, 0))
    with pytest.raises(IllegalCommand, match="column II"):
        t.do("exchange fuel 1 bucks 1 for black II")


def test_anytime_actions_only_in_ones_own_turn_outside_the_bonus():
    t = Table()
    t.do("take brown*@1 standard")
    with pytest.raises(IllegalCommand, match="not possible now"):
        t.do("exchange fuel 2 for black I")


# -- refill and turn end -------------------------------------------------------------------------------------------


def test_the_refill_turns_the_wheel_and_the_die_on_three_rides_along():
    import attrs

    t = after_action()
    t.state = attrs.evolve(t.state, bridge=((), (Die("black", "3"),), (Die("brown", "*"),), (), (Die("turquoise", "1"),)))
    t.do("end-turn", "roll brown 2")
    assert [dice(s) for s in t.state.bridge] == [["brown2"], [], ["black3"], ["brown*"], ["turquoise1"]]
    assert t.state.current == "Tom"


def play_game_turn(t: Table) -> None:
    for _ in range(8):
        actor = t.state.current
        take = next(c for c in take_commands(t.state) if GAME.format(c).endswith("standard"))
        t.do(GAME.format(take))
        while t.phase == "bonus":
            t.do(GAME.format(GAME.legal_commands(t.state)[0]))
        t.do("resources")
        t.do("end-turn")
        colour = next(c for c, k in zip(("black", "yellow", "turquoise", "brown"), t.state.bag) if k)
        t.do(f"roll {colour} 1")
        assert actor != t.state.current or t.state.turns_taken == 0


def test_after_four_dice_each_the_dice_go_back_and_the_start_player_moves_clockwise():
    t = Table()
    play_game_turn(t)
    assert t.state.turns_taken == 0 and sum(t.state.bag) == 8 and not t.mat("Marion").dice
    assert t.state.start_player == 1 and t.phase == "hub"
    t.do("hub C")
    assert t.state.turn == 2 and t.state.current == "Tom"


def test_the_game_ends_after_the_fourth_game_turn_with_the_scoring():
    t = Table()
    for hub in ("C", "D", "E"):
        play_game_turn(t)
        t.do(f"hub {hub}")
    play_game_turn(t)
    assert t.state.over and GAME.to_act(t.state) is None
    outcome = GAME.outcome(t.state)
    assert outcome is not None and set(outcome.ranking) == {"Marion", "Tom"}
    with pytest.raises(IllegalCommand, match="over"):
        t.do("hub F")


def test_a_tie_is_a_shared_victory_without_planet_points():
    import attrs

    t = Table()
    t.state = attrs.evolve(t.state, over=True)
    t.set_mat("Marion", **{f: getattr(t.mat("Tom"), f) for f in ("fuel", "bucks", "tech", "columns", "storage")})
    outcome = GAME.outcome(t.state)
    assert outcome.winners == ("Marion", "Tom") and "shared victory" in outcome.reason


def test_live_output_hides_start_cards_and_drawn_cards():
    t = Table()
    assert GAME.observation.command(GAME.parse("start-card 3"), None, Viewer.table()) == "start-card (hidden)"
    assert GAME.observation.command(GAME.parse("card 17"), None, Viewer.table()) == "card (hidden)"
    state = t.state.with_mat("Marion", attrs.evolve(t.state.mat("Marion"), hand=(3, 4)))
    public = GAME.observation.state(state, to_plain(state), Viewer.table())
    assert "deck" not in public and "hubs" not in public and public["deck_count"] == len(state.deck)
    assert "hand" not in public["mats"][0] and public["mats"][0]["hand_count"] == 2
    assert "hand: 2 card(s)" in GAME.render(t.state) and "hand: 1 2" in GAME.render(t.state, Viewer.referee())


def test_notation_round_trips():
    for text in ("take black3@-1 standard", "take yellow*@2 transform black", "take brown*+1@0 card 17",
                 "bonus fuel 1 bucks 1", "bonus fuel -1", "buy-ap 2", "resources black I I II", "resources",
                 "upgrade black black", "shift black yellow", "play 17 mission", "discard 3", "drives 2",
                 "exchange fuel 1 bucks 1 for black I", "exchange black I yellow III for fuel 1 bucks 1",
                 "start shift black upgrade yellow keep 3 17", "start-card 2", "first Marion", "roll black *+1",
                 "hub C", "card 17", "end-turn", "pass", "draw", "skip", "fuel", "bucks", "upgrade-drive"):
        assert GAME.format(GAME.parse(text)) == text


def test_legal_lists_forms_with_bounds_when_the_exchanges_are_too_many():
    t = Table()
    assert GAME.legal_commands(t.state) is not None
    t.set_mat(columns=(5, 5, 5, 5), storage=((3, 2, 1),) * 4)
    assert GAME.legal_commands(t.state) is None
    forms = GAME.command_forms(t.state)
    assert any(f.startswith("exchange COLOUR COLUMN ... for fuel F bucks B: any of your 24 resources") for f in forms)
    assert "  take black3@-1 standard" in forms


def test_where_the_exchanges_are_too_many_legal_json_lists_every_other_command_and_the_bounds_as_data():
    t = Table()
    t.set_mat(columns=(5, 5, 5, 5), storage=((3, 2, 1),) * 4)
    fields, _ = GAME.legal_details(t.state)
    assert "take black3@-1 standard" in fields["listed"] and not any(x.startswith("exchange black") for x in fields["listed"])
    resources, track = fields["form_bounds"]
    assert resources["cubes"]["black"] == {"I": 3, "II": 2, "III": 1} and resources["count"] == 24 ** 4 - 1
    assert track["fuel"] == t.mat().fuel and track["fuel_plus_bucks"] == 2
    # each listed command is one play accepts
    for text in fields["listed"]:
        GAME.decide(t.state, GAME.parse(text, t.state))


# -- refusals, each with the reason a player reads ----------------------------------------------------------


def at_action(colour_die: str = "yellow2@0") -> Table:
    t = Table()
    t.do(f"take {colour_die} standard")
    return t


@pytest.mark.parametrize(
    "arrange, command, reason",
    [
        (lambda t: t.set_mat(used=("research",)), "take yellow2@0 research", "research space is used once per game turn"),
        (lambda t: t.set_mat(developments=(20,)), "take yellow2@0 card 20", "takes turquoise dice"),
        (lambda t: None, "take yellow2@0 card 20", "card 20 is not one of your developments"),
        (lambda t: t.set_mat(developments=(1,)), "take yellow2@0 card 1", "has no die space"),
        (lambda t: None, "take yellow2@0 transform yellow", "any other colour"),
        (lambda t: None, "take yellow2@0 nowhere", None),
        (lambda t: None, "play 9 mission", "playing a card is not possible now"),
        (lambda t: None, "discard 1", "discarding is not possible now"),
    ],
)
def test_refusals_when_taking(arrange, command, reason):
    t = Table()
    arrange(t)
    if reason is None:
        with pytest.raises(InvalidCommand):
            t.do(command)
        return
    with pytest.raises(IllegalCommand, match=reason):
        t.do(command)


@pytest.mark.parametrize(
    "command, reason",
    [
        ("play 9 development", "card 9 is not in your hand"),
        ("drives 0", "room for 3 more drive"),
        ("exchange fuel 1 for black I", "one resource costs 2 fuel and/or SpaceBucks"),
        ("exchange black I for fuel 1", "not that many black resources in column I"),
        ("exchange turquoise I for fuel 1", "value 1 buy nothing"),
        ("upgrade-drive", "no common drive"),
        ("buy-ap 1", "buying action points is not possible now"),
    ],
)
def test_refusals_in_the_supplementary_phase(command, reason):
    t = at_action()
    t.do("bucks")
    with pytest.raises(IllegalCommand, match=reason):
        t.do(command)


def test_upgrading_a_tech_die_beyond_its_highest_side_is_refused():
    t = turquoise_like()
    t.set_mat(tech=(5, 1, 0, 0))
    with pytest.raises(IllegalCommand, match="black tech die shows its highest side"):
        t.do("upgrade black")


def test_shifting_a_tech_die_beyond_column_five_is_refused():
    t = Table(opening=("start-card 1", "start-card 2", "first Marion", "roll brown 3", "roll yellow 2",
                       "roll black 1", "roll turquoise 1", "hub A"))
    t.do("take brown3@-1 standard", "bonus fuel -1")
    t.set_mat(columns=(5, 1, 1, 1))
    with pytest.raises(IllegalCommand, match="column V already"):
        t.do("shift black")


def turquoise_like() -> Table:
    from .test_worked_examples import turquoise_table

    return turquoise_table()


@pytest.mark.parametrize("command", ["hub C", "roll black 3", "card 9", "start-card 3", "first Tom"])
def test_a_player_cannot_give_what_chance_gives(command):
    t = Table()
    with pytest.raises(WrongActor, match="is for chance to give"):
        t.do(command)


@pytest.mark.parametrize(
    "opening, reason",
    [
        (("start-card 9",), "start card 9 is not among the undealt ones"),
        (("start-card 1", "start-card 2", "first Zoe"), '"Zoe" is not a player'),
        (("start-card 1", "start-card 2", "first Marion", "roll black 3", "roll black 3", "roll black 3", "roll black 3"),
         "the bag holds no black die"),
        (("start-card 1", "start-card 2", "first Marion", "roll black 3", "roll yellow 2", "roll turquoise 1",
          "roll brown *", "hub G"), "hub G is not among the hidden hubs"),
    ],
)
def test_chance_gives_only_what_the_table_holds(opening, reason):
    t = Table(opening=None)
    with pytest.raises(IllegalCommand, match=reason):
        t.do(*opening)


def test_a_card_not_in_the_deck_cannot_be_drawn():
    t = Table()
    t.do("take yellow2@0 research", "draw")
    with pytest.raises(IllegalCommand, match="progress card 1 is not in the deck"):
        t.do("card 1")


def test_paying_the_bonus_with_what_one_does_not_have_is_refused():
    t = Table()
    t.set_mat(bucks=0)
    t.do("take black3@-1 standard")
    with pytest.raises(IllegalCommand, match="cannot pay with what you do not have"):
        t.do("bonus bucks -1")


# -- turn end: stations in turn order, the last turn's settlements -------------------------------------------


def play_turns(t: Table, count: int) -> None:
    for _ in range(count):
        take = next(c for c in take_commands(t.state) if GAME.format(c).endswith("standard"))
        t.do(GAME.format(take))
        while t.phase == "bonus":
            t.do(GAME.format(GAME.legal_commands(t.state)[0]))
        t.do("resources", "end-turn")
        colour = next(c for c, k in zip(("black", "yellow", "turquoise", "brown"), t.state.bag) if k)
        t.do(f"roll {colour} 1")


def test_stations_fire_their_permanent_effects_at_turn_end_in_turn_order():
    t = Table()
    t.set_mat("Marion", stations=(2,))  # permanent: 1 SpaceBuck
    t.set_mat("Tom", stations=(4,))  # permanent: 1 resource of any colour
    play_turns(t, 8)
    names = [type(e).__name__ for e in t.events[-6:]]
    assert "TurnEndStarted" in names and t.phase == "effects" and t.state.current == "Tom"
    marion_bucks = t.mat("Marion").bucks
    t.do("resources yellow I")
    assert t.phase == "turn-end"
    t.do("close")
    assert t.phase == "hub" and t.mat("Marion").bucks == marion_bucks


def test_the_last_turn_allows_settlements_with_fuel_and_bucks_only():
    import attrs

    t = Table()
    t.state = attrs.evolve(t.state, turn=4)
    t.set_mat("Marion", planets_waiting=(10, 19), bucks=5)  # 10: yellow, pay 2 SpaceBucks; 19: a tech precondition
    play_turns(t, 8)
    assert t.phase == "turn-end" and t.state.current == "Marion"
    t.set_mat("Marion", bucks=5, tech=(0, 0, 5, 0))
    with pytest.raises(IllegalCommand, match="only fuel and SpaceBucks"):
        t.do("settle 19")
    t.do("settle 10", "close")
    assert t.state.over and t.mat("Marion").planets_settled == (10,) and t.mat("Marion").bucks == 3
    assert t.score_line("Marion", "1 settled planet") == 1 and t.score_line("Marion", "1 planet(s) not settled") == -1


def test_a_settlement_is_completed_at_any_time_of_ones_own_turn():
    t = Table()
    t.set_mat("Marion", planets_waiting=(19,))  # turquoise tech die at 3 or more
    with pytest.raises(IllegalCommand, match="turquoise tech die at value 3 or more"):
        t.do("settle 19")
    t.set_mat("Marion", tech=(0, 1, 2, 0))
    t.do("settle 19")
    assert t.mat("Marion").planets_settled == (19,)


def test_without_stations_or_settlements_the_turn_end_needs_no_command():
    t = Table()
    play_turns(t, 8)
    assert t.phase == "hub" and "TurnEndStarted" not in [type(e).__name__ for e in t.events]


def test_a_bonus_taken_at_the_full_track_says_what_was_lost():
    # 5.0 "A player may never have more than 10 fuel or SpaceBucks": the "+0" says why
    t = Table()
    t.set_mat(fuel=10, bucks=10)
    t.do("take turquoise1@1 standard")
    before = t.state
    (taken,) = [e for e in t.do("bonus fuel 1") if type(e).__name__ == "BonusTaken"]
    assert GAME.describe_event_at(taken, before) == (
        "Marion took the bridge bonus; 1 lost: the fuel and SpaceBucks track is full at 10 "
        '(003: "A player may never have more than 10 fuel or SpaceBucks.")')
