"""Supplementary action II (003 9.2 B II): the flight, settling planets, stations, missions at hubs,
outposts and hub bonuses — one rule, one test; each refusal with its reason."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.solarius_mission import space
from solrec.core.solarius_mission.board import HOME, Hex, neighbours, parse_hex
from solrec.core.solarius_mission.state import Figure

from .helpers import GAME, OPENING, Table


def flying(players: tuple[str, ...] = ("Marion", "Tom"), **mat) -> Table:
    """Marion's first turn after her die action (a black 3 for fuel): the supplementary phase."""
    t = Table(players)
    t.do("take black3@-1 standard", "bonus fuel -1", "fuel")
    assert t.phase == "supplementary"
    mat.setdefault("drives", (2, 2, 2))  # range 7: any hex of the map within reach unless a test says otherwise
    t.set_mat(**mat)
    return t


def hx(t: Table, label: str) -> Hex:
    return parse_hex(label, t.state.board)


def arrange(t: Table, **changes) -> None:
    t.state = attrs.evolve(t.state, **changes)


def face_up(t: Table, label: str, planet: int) -> None:
    """The planet space at ``label`` holds ``planet`` face up (turned earlier)."""
    arrange(t, planets_on_map=tuple(sorted((h, planet if t.state.board.label(h) == label else p) for h, p in t.state.planets_on_map)))


def put(t: Table, player: str, kind: str, label: str, outpost: bool = False) -> None:
    arrange(t, figures=tuple(sorted((*t.state.figures, Figure(player, kind, hx(t, label), outpost)))))


def ship(t: Table, player: str, label: str) -> None:
    i = t.state.index(player)
    ships = list(t.state.ships)
    ships[i] = hx(t, label)
    arrange(t, ships=tuple(ships))


def path_to(t: Table, label: str, portals: bool = False) -> str:
    """The notation of a cheapest flight of Marion's ship to ``label``."""
    start = t.state.ships[t.state.actor]
    paths = space.reach_paths(t.state, start, 40, portals)
    path, jumps = paths[hx(t, label)]
    return GAME.format(GAME.parse("fly " + " ".join(f"{h.q},{h.r}" for h in path), None)) if not jumps else \
        GAME.format(space.c.Fly(path, jumps, ""))


def fly(t: Table, label: str, portal: str = "") -> list:
    text = path_to(t, label, bool(portal))
    if portal:
        text = text.replace("fly ", f"fly portal {portal} ", 1)
    return t.do(text)


def refused(t: Table, text: str, match: str) -> None:
    before = t.state
    with pytest.raises(IllegalCommand, match=match):
        t.do(text)
    assert t.state == before


def cells(**rows: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    return tuple(rows.get(col, (0, 0, 0)) for col in ("black", "yellow", "turquoise", "brown"))


# -- the flight ------------------------------------------------------------------------------------------


def test_every_ship_starts_on_the_home_planet():
    t = flying()
    assert set(t.state.ships) == {HOME}


def test_range_is_the_sum_of_the_drives():
    # 003 9.2 B II: "Now he determines his range by adding up the value of all drives his space ship has."
    t = flying(drives=(2,), fuel=0)
    assert space.ship_range(t.state, t.mat()) == 3
    target = next(h for h in t.state.board.hexes if space.reach_paths(t.state, HOME, 3, False).get(h, ((),))[0].__len__() == 4
                  and space.why_not_end(t.state, "Marion", h) is None)
    t.do(GAME.format(space.c.Fly(space.reach_paths(t.state, HOME, 3, False)[target][0])))
    assert t.state.ships[0] == target and t.mat().fuel == 0


def test_a_flight_beyond_the_range_buys_range_with_two_fuel_per_point_at_once():
    # 003 9.2 B II: "Each additional point of range costs two fuel. The player has to use purchased points immediately"
    t = flying(drives=(), fuel=5)
    path = space.reach_paths(t.state, HOME, 3, False)
    far = next(h for h, (p, _) in path.items() if len(p) == 4 and space.why_not_end(t.state, "Marion", h) is None)
    events = t.do(GAME.format(space.c.Fly(path[far][0])))
    flown = [e for e in events if type(e).__name__ == "ShipFlown"][0]
    assert (flown.cost, flown.bought) == (3, 2)
    assert t.mat().fuel == 1


def test_range_beyond_the_fuel_is_refused_with_what_it_costs():
    t = flying(drives=(), fuel=3)
    path = space.reach_paths(t.state, HOME, 3, False)
    far = next(h for h, (p, _) in path.items() if len(p) == 4 and space.why_not_end(t.state, "Marion", h) is None)
    refused(t, GAME.format(space.c.Fly(path[far][0])), "uses 3 range, your ship has 1: 2 more cost 4 fuel, you have 3")


def test_a_flight_named_by_its_destination_takes_the_cheapest_path_and_says_which():
    t = flying(drives=(), fuel=5)  # range 1: H8 is two steps away, one bought for 2 fuel
    events = t.do("fly H8")
    flown = [e for e in events if type(e).__name__ == "ShipFlown"][0]
    assert flown.path == (HOME, hx(t, "H1"), hx(t, "H8")) and (flown.cost, flown.bought) == (2, 1)
    assert t.mat().fuel == 3
    assert GAME.describe_event_at(flown, t.state) == "Marion flew H0 H1 H8 (range 2: 1 from the drives, 1 bought with fuel)"


def test_a_destination_prefers_the_least_fuel_then_no_portal():
    # without the portals H8 costs 2 fuel; no portal reaches it cheaper, so the portals stay inactive
    t = flying(drives=(1,), fuel=4)
    assert space.cheapest_flight(t.state, hx(t, "H8")).portal == ""
    # far away, a jump between portals saves fuel: the drive is given up instead of paying fuel
    far = flying(drives=(1, 1), fuel=10)
    plain, _ = space.path_to(far.state, HOME, hx(far, "C2"), 40, False)
    jumped = space.cheapest_flight(far.state, hx(far, "C2"))
    assert jumped.portal == "return" and jumped.jumps
    assert space.fuel_for(far.state, far.mat(), jumped) < space.fuel_for(far.state, far.mat(), space.c.Fly(plain))


def test_a_destination_out_of_reach_is_refused_with_the_reason():
    t = flying(drives=(), fuel=0)
    refused(t, "fly H8", "cannot reach H8")
    refused(t, "fly A0", "commercial hub space")


def test_the_full_path_stays_accepted_for_another_path():
    t = flying(drives=(2,), fuel=0)
    t.do("fly H0 H2 H9 H8")  # three steps where two would do
    assert t.state.ships[0] == hx(t, "H8")


def test_events_and_commands_read_with_the_position_use_the_tile_labels():
    t = flying(drives=(2,), fuel=0)
    fly_cmd = GAME.parse("fly H8", t.state)
    assert GAME.format(fly_cmd) == "fly 2,-2"  # the stored record: no board at hand
    assert GAME.format_at(space.cheapest_flight(t.state, hx(t, "H8")), t.state) == "fly H0 H1 H8"
    before = t.state
    events = t.do("fly H8")
    assert [GAME.describe_event_at(e, before) for e in events if type(e).__name__ == "PlanetTurned"] == \
        ["Marion turned the planet at H8"]


def test_a_flight_starts_on_the_ship():
    t = flying()
    n = neighbours(HOME)[0]
    refused(t, f"fly {n.q},{n.r} 0,0", "your ship is at H0, not H1")


def test_each_step_goes_to_an_adjacent_hex_and_the_first_bad_step_is_named():
    # 003 9.2 B II: "Each “point of range” allows the space ship to move to an adjacent hexagon in space."
    t = flying(drives=(2, 2), fuel=0)
    a = neighbours(HOME)[1]
    refused(t, f"fly 0,0 {a.q},{a.r} {a.q + 2},{a.r}", "step 2 .* is not to an adjacent hex")


def test_a_zero_step_flight_stays_and_is_a_flight():
    # 003 9.2 B II: "with a range of 3 he may fly between 0 and 3 hexagons"
    t = flying()
    arrange(t, ships=(HOME, hx(t, "A8")))
    t.do("fly 0,0")
    assert t.phase == "space"


def test_a_flight_may_not_end_on_another_players_ship():
    t = flying()
    ship(t, "Tom", "H1")
    refused(t, path_to(t, "H1"), "holds Tom's space ship")


def test_a_flight_may_not_end_on_another_players_figure_but_flies_over_it():
    t = flying(drives=(1,), fuel=0)
    put(t, "Tom", "station", "H1")
    refused(t, path_to(t, "H1"), "holds Tom's station")
    beyond = next(h for h in neighbours(hx(t, "H1")) if h != HOME and h not in neighbours(HOME))
    h1 = hx(t, "H1")
    t.do(f"fly 0,0 {h1.q},{h1.r} {beyond.q},{beyond.r}")
    assert t.state.ships[0] == beyond


def test_a_flight_may_end_on_an_own_figure():
    # 003 9.2 B II: "The player may end the flight of his space ship on a hexagon with one of his own player figures"
    t = flying()
    put(t, "Marion", "station", "H1")
    t.do(path_to(t, "H1"))
    assert t.state.ships[0] == hx(t, "H1")


def test_a_flight_may_not_end_on_a_hub_space_built_or_not():
    # 003 9.2 B II "he may not end his flight in hexagons containing: ... Commercial hub"; reading 9 for unbuilt ones
    t = flying(drives=(2, 2, 2), fuel=10)
    assert "B" in t.state.hubs_built
    refused(t, path_to(t, "B0"), "commercial hub space of tile B")
    refused(t, path_to(t, "A0"), "commercial hub space of tile A")


# -- portals ---------------------------------------------------------------------------------------------


def test_a_jump_needs_the_portals_active():
    t = flying(drives=(2, 2, 2), fuel=10)
    a, b = t.state.board.portals[:2]
    pa = space.reach_paths(t.state, HOME, 40, False)[a][0]
    text = GAME.format(space.c.Fly((*pa, b), (len(pa),), ""))
    refused(t, text, "portals are not active")


def test_activating_the_portals_returns_a_one_drive_and_a_jump_costs_one():
    # 003 9.2 B II: "he removes one drive of value 1 to the pool of markers" ... "This jump costs 1 range."
    t = flying(drives=(1, 1, 1), fuel=10)
    pool = t.state.drive_pool
    paths = space.reach_paths(t.state, HOME, 40, False)
    a = min(t.state.board.portals, key=lambda p: len(paths[p][0]))
    b = next(p for p in t.state.board.portals if p != a and p not in neighbours(a))
    pa = paths[a][0]
    events = t.do(GAME.format(space.c.Fly((*pa, b), (len(pa),), "return")))
    assert t.mat().drives == (1, 1) and t.state.drive_pool == pool + 1
    flown = [e for e in events if type(e).__name__ == "ShipFlown"][0]
    assert flown.cost == len(pa) and t.state.ships[0] == b  # the steps to the portal and 1 for the jump
    assert flown.bought == max(0, len(pa) - 3) and t.mat().fuel == 10 - 2 * flown.bought


def test_activating_the_portals_flips_a_two_drive_to_one():
    t = flying(drives=(2,), fuel=10)
    a, _ = t.state.board.portals[:2]
    t.do(GAME.format(space.c.Fly(space.reach_paths(t.state, HOME, 40, False)[a][0], (), "flip")))
    assert t.mat().drives == (1,)


def test_the_own_drive_never_pays_for_the_portals():
    # 003 9.2 B II: "The drive in player color always stays with the space ship!"
    t = flying(drives=(), fuel=10)
    refused(t, "fly portal return 0,0", "only a common drive pays for the portals")
    refused(t, "fly portal flip 0,0", "no drive of value 2 to flip")


def test_a_jump_is_written_with_p():
    t = flying(drives=(2, 2, 2), fuel=10)
    a, b = t.state.board.portals[:2]
    pa = space.reach_paths(t.state, HOME, 40, False)[a][0]
    text = GAME.format(space.c.Fly((*pa, b), (), "return"))
    refused(t, text.replace("fly portal return", "fly portal flip"), "is a jump between portals: write P before")


# -- settling planets (II.1) ----------------------------------------------------------------------------------


def planet_hex(t: Table) -> str:
    board = t.state.board
    return next(board.label(h) for h, p in t.state.planets_on_map if p == -1 and board.tile(h) == "centre")


def test_a_flight_ending_on_a_face_down_planet_turns_it():
    # 003 9.2 B II.1: "If the planet is still concealed (on its back), the player turns it ... This is mandatory!"
    t = flying()
    label = planet_hex(t)
    fly(t, label)
    assert t.phase == "reveal"
    t.do("planet 1")
    assert t.state.planet_at(hx(t, label)) == 1 and t.phase == "explore"


def test_after_turning_the_player_settles_or_declines_and_may_not_just_end_the_turn():
    t = flying()
    fly(t, planet_hex(t))
    t.do("planet 1")
    refused(t, "end-turn", "not possible now")


def test_declining_gives_the_explorer_bonus_of_the_planets_vp_in_resources():
    # 003 9.2 B II.1: "The explorer bonus is the number of victory points of the planet."
    t = flying()
    label = planet_hex(t)
    fly(t, label)
    planet = next(i for i, p in t.state.cset.planets.items() if p.vp == 2)
    t.do(f"planet {planet}", "decline")
    assert t.phase == "effects" and t.state.effects[0].count == 2
    before = t.mat().resources
    t.do("resources black I yellow I")
    assert t.mat().resources == before + 2
    assert t.state.planet_at(hx(t, label)) == planet  # stays face up on its hex
    assert t.phase == "after"


def test_the_explorer_bonus_is_only_for_the_revealer_at_once():
    t = flying()
    label = planet_hex(t)
    face_up(t, label, 5)
    fly(t, label)
    assert t.phase == "space"
    refused(t, "decline", "not possible now")


def test_settling_puts_a_colony_on_the_hex_and_the_planet_waits_beside_the_mat():
    # 003 9.2 B II.1: "he takes the planet and puts one of the colonies ... in the planet´s spot"
    t = flying()
    label = planet_hex(t)
    fly(t, label)
    t.do("planet 7", "colonize")
    assert Figure("Marion", "colony", hx(t, label), False) in t.state.figures
    assert t.mat().planets_waiting == (7,) and t.state.planet_at(hx(t, label)) is None
    assert t.phase == "after"


def test_a_face_up_planet_turned_earlier_may_be_claimed():
    # 003 9.2 B II.1: "The player may settle several planets already discovered and turned up (both by other players or himself ...)"
    t = flying()
    label = planet_hex(t)
    face_up(t, label, 5)
    fly(t, label)
    t.do("colonize")
    assert t.mat().planets_waiting == (5,)


def test_settling_needs_a_planet():
    t = flying()
    fly(t, "H1")
    refused(t, "colonize", "there is no planet")


def test_twelve_colonies_at_most():
    t = flying()
    hexes = [h for h in t.state.board.hexes if t.state.board.kind(h) == "empty"][:12]
    arrange(t, figures=tuple(sorted(Figure("Marion", "colony", h) for h in hexes)))
    label = planet_hex(t)
    face_up(t, label, 5)
    fly(t, label)
    refused(t, "colonize", "all your colonies are in space")


# -- space stations (II.2) ---------------------------------------------------------------------------------


def test_the_first_station_is_paid_yellow_three_and_brown_two():
    # 003 9.2 B II.2 example: "She returns yellow resources with a value of 3 and brown resources with a value of 2"
    t = flying(storage=cells(yellow=(1, 1, 0), brown=(2, 0, 0)), columns=(1, 2, 1, 1))
    fly(t, "H1")
    t.do("build 1 yellow I II brown I I")
    assert t.mat().stations == (1,) and t.mat().storage == cells()
    assert Figure("Marion", "station", hx(t, "H1"), False) in t.state.figures


def test_the_player_chooses_which_colour_pays_which_value():
    t = flying(storage=cells(yellow=(2, 0, 0), brown=(3, 0, 0)))
    fly(t, "H1")
    t.do("build 1 yellow I I brown I I I")
    assert t.mat().stations == (1,)


def test_a_station_payment_must_be_exact_and_in_the_cards_colours():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(3, 0, 0), black=(2, 0, 0)))
    fly(t, "H1")
    refused(t, "build 1 yellow I I I brown I I I", "costs values 3 and 2")
    refused(t, "build 1 yellow I I I black I I", "is paid in yellow and brown, not black")


def test_a_station_needs_an_empty_hexagon():
    # 003 9.2 B II.2: "neither containing player figures, nor a planet, nor a portal"
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    ship(t, "Tom", "H1")
    t.do("fly 0,0")
    refused(t, "build 1 yellow I I I brown I I", "not an empty hexagon")


def test_a_station_may_stand_on_a_planet_space_not_used_at_this_player_count():
    # 003 9.2 B II.2 excludes hexes "containing player figures ... a planet ... a portal"; 4.0: the centre's
    # "3" spaces "are only used in a 3 player game. In a 2- or 4-player-game these two spaces are not occupied"
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    assert t.state.board.marking(hx(t, "H17")) == "3" and t.state.planet_at(hx(t, "H17")) is None
    fly(t, "H17")
    assert any(GAME.format(m).startswith("build 1 ") for m in GAME.legal_commands(t.state))
    t.do("build 1 yellow I I I brown I I")
    assert Figure("Marion", "station", hx(t, "H17"), False) in t.state.figures


def test_a_planet_space_in_use_is_no_place_for_a_station():
    # in a 3-player game the centre's "3" space holds a planet (4.0), so a station may not stand there
    t = Table(("Marion", "Tom", "Ann"), opening=("start-card 1", "start-card 2", "start-card 3", *OPENING[2:]))
    t.do("take black3@-1 standard", "bonus fuel -1", "fuel")
    t.set_mat(drives=(2, 2, 2), storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    assert hx(t, "H17") in dict(t.state.planets_on_map)
    face_up(t, "H17", 12)
    fly(t, "H17")
    refused(t, "build 1 yellow I I I brown I I", "not an empty hexagon")


def test_a_station_gives_its_immediate_effect_then_the_earlier_stations_permanent_effects():
    # 003 9.2 B II.2: "Afterwards the permanent effects of all his space stations built earlier are triggered"
    t = flying(storage=cells(black=(2, 1, 0), turquoise=(2, 1, 0)), stations=(5,), columns=(2, 1, 2, 1), fuel=0, bucks=0)
    arrange(t, figures=(Figure("Marion", "station", hx(t, "H3")),))
    fly(t, "H1")
    t.do("build 2 black I I II turquoise I II")  # slot 2: values 4 and 3
    assert t.mat().stations == (5, 2)
    assert t.mat().fuel == 3 + 1 and t.mat().bucks == 0  # card 2: 3 fuel now; station 5 (earlier): 1 fuel


def test_with_option_including_new_the_new_stations_permanent_effect_fires_too():
    t = Table(station_effect="including-new")
    t.do("take black3@-1 standard", "bonus fuel -1", "fuel")
    t.set_mat(storage=cells(black=(2, 1, 0), turquoise=(2, 1, 0)), stations=(5,), columns=(2, 1, 2, 1), fuel=0, bucks=0,
              drives=(2, 2))
    arrange(t, figures=(Figure("Marion", "station", hx(t, "H3")),))
    fly(t, "H1")
    t.do("build 2 black I I II turquoise I II")
    assert t.mat().fuel == 4 and t.mat().bucks == 1  # card 2's permanent: 1 SpaceBuck


def test_a_station_opens_two_more_contamination_spaces():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    before = space.contamination_spaces(t.state, t.mat()) if hasattr(space, "contamination_spaces") else None
    from solrec.core.solarius_mission.state import contamination_spaces

    before = contamination_spaces(t.state, t.mat())
    fly(t, "H1")
    t.do("build 1 yellow I I I brown I I")
    assert contamination_spaces(t.state, t.mat()) == before + 2


def test_four_stations_at_most_and_each_card_once():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)), stations=(1, 2, 3, 4))
    fly(t, "H1")
    refused(t, "build 5 yellow I I I brown I I", "all four of your space stations are built")
    t2 = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)), stations=(1,))
    fly(t2, "H1")
    refused(t2, "build 1 yellow I I I brown I I", "station card 1 is built already")


# -- missions at hubs (II.3) -----------------------------------------------------------------------------------


def on_mission(cards=(1,), **mat) -> Table:
    mat.setdefault("storage", cells(black=(3, 1, 0), yellow=(3, 2, 0)))
    mat.setdefault("columns", (2, 2, 1, 1))
    t = flying(missions=tuple(cards), **mat)
    return t


def test_a_mission_next_to_a_built_hub_puts_the_marker_on_the_ship_and_earns_the_bonus_now():
    # 003 9.2 B II.3 example: "She completes her mission and places the mission marker on the hexagon of her space ship."
    t = on_mission(drives=(2, 2), fuel=10)
    fly(t, "B1")
    t.do("mission 1 black I I I II")  # black 5
    assert t.mat().completed == (1,) and t.mat().missions == ()
    assert Figure("Marion", "mission", hx(t, "B1"), False) in t.state.figures
    assert t.phase == "hub-bonus"
    drives = len(t.mat().drives)
    t.do("hub-bonus 1")  # any of the six outpost bonuses: the neutral drive
    assert len(t.mat().drives) == drives + 1 and t.phase == "after"


def test_a_mission_pays_exactly_its_cost_in_either_notation():
    # reading 5; "yellow 2 II" is two cubes of value 2
    t = on_mission(cards=(2,))
    fly(t, "B1")
    refused(t, "mission 2 yellow I I I I", "mission 2 costs yellow 2 II")
    t.do("mission 2 yellow II II")
    assert t.mat().completed == (2,)


def test_a_mission_at_a_hub_where_the_player_completed_one_brings_no_second_bonus():
    t = on_mission(cards=(1,), hub_missions=("B",))
    fly(t, "B1")
    t.do("mission 1 black I I I II")
    assert t.phase == "after"


def test_a_mission_needs_a_hub_space_next_to_the_ship():
    t = on_mission()
    fly(t, "H1")
    refused(t, "mission 1 black I I I II", "not next to a commercial hub space")


def test_a_mission_needs_an_open_mission_card():
    t = on_mission(cards=())
    fly(t, "B1")
    refused(t, "mission 1 black I I I II", "not one of your open missions")


def test_a_mission_next_to_an_unbuilt_hub_earns_the_bonus_when_the_hub_is_built():
    # 003 9.2 B II.3: "if that hub gets into space later, he receives the bonus at that time"
    t = on_mission()
    assert "A" not in t.state.hubs_built
    fly(t, "A2")
    t.do("mission 1 black I I I II")
    assert t.phase == "after" and t.mat().hub_bonus_waiting == ("A",)
    t.do("end-turn", "roll yellow 1")
    arrange(t, turn_started=False)  # the next game turn's start, arranged
    t.do("hub A")
    assert t.phase == "hub-bonus" and GAME.to_act(t.state) == "Marion"
    t.do("hub-bonus 2")  # two resources of any colour: Marion places them though it is Tom's turn
    assert GAME.to_act(t.state) == "Marion" and t.phase == "effects"
    t.do("resources turquoise I turquoise I")
    assert t.mat().hub_bonus_waiting == () and t.phase == "take" and GAME.to_act(t.state) == "Tom"


def test_several_hub_bonuses_at_once_are_chosen_in_turn_order():
    # 003 9.2 B II.3: "If more than one player receive a bonus at the same time, they may choose their bonus in turn order."
    t = on_mission()
    t.do("end-turn", "roll yellow 1")  # Tom's turn
    t.set_mat("Marion", hub_bonus_waiting=("A",))
    t.set_mat("Tom", hub_bonus_waiting=("A",))
    arrange(t, turn_started=False, start_player=1)
    t.do("hub A")
    assert GAME.to_act(t.state) == "Tom"
    t.do("hub-bonus 3")
    assert GAME.to_act(t.state) == "Marion"
    t.do("hub-bonus 4")
    assert t.phase == "take"


def test_the_surrounded_hub_takes_a_mission_by_a_chain_of_other_figures_without_bonus():
    # 003 9.2 B II.3: "he needs an empty hexagon that is next to a playing figure ... of another player that is next to
    # the commercial hub or is connected by an uninterrupted chain of playing figures to the commercial hub"
    t = on_mission()
    board = t.state.board
    ring = [h for h in neighbours(hx(t, "B0")) if board.kind(h) == "empty"]
    for h in ring:
        put(t, "Tom", "station", board.label(h))
    far = next(h for h in board.hexes if board.kind(h) == "empty" and h not in ring and hx(t, "B0") not in neighbours(h)
               and any(r in neighbours(h) for r in ring) and not space.hubs_next_to(t.state, h))
    fly(t, board.label(far))
    t.do("mission 1 black I I I II")
    assert t.mat().completed == (1,) and t.mat().hub_missions == ("B",)
    assert t.phase == "after"  # 003: "If this special case is the first completed mission at the commercial hub the player does not get a bonus."


def test_without_a_free_hex_at_the_hub_a_mission_far_from_the_chain_is_refused():
    t = on_mission()
    board = t.state.board
    for h in neighbours(hx(t, "B0")):
        if board.kind(h) == "empty":
            put(t, "Tom", "station", board.label(h))
    fly(t, "H1")
    refused(t, "mission 1 black I I I II", "not next to a commercial hub space")


# -- outposts (II.4) ---------------------------------------------------------------------------------------------


def test_the_first_station_on_a_tile_where_others_hold_a_colony_and_a_mission_takes_an_outpost_with_a_neutral_drive():
    # 003 9.2 B II.4 example: "It does not matter if another player already has a colony or a mission marker on this
    # outer tile. She takes a neutral drive as her outpost bonus."
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)), drives=(2, 2), fuel=10)
    put(t, "Tom", "colony", "A8")
    put(t, "Tom", "mission", "A2")
    fly(t, "A4")
    t.do("build 1 yellow I I I brown I I outpost 1")
    assert Figure("Marion", "station", hx(t, "A4"), True) in t.state.figures
    assert t.mat().outposts == (1,) and t.mat().drives == (2, 2, 1)


def test_an_outpost_only_on_an_outer_tile():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    fly(t, "H1")
    refused(t, "build 1 yellow I I I brown I I outpost 1", "outer tiles A to F only")


def test_one_outpost_per_player_and_tile():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)), outposts=(3,))
    put(t, "Marion", "colony", "A8", outpost=True)
    fly(t, "A4")
    refused(t, "build 1 yellow I I I brown I I outpost 1", "outpost on tile A already")


def test_the_figure_must_be_the_first_of_its_kind_on_the_tile():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    put(t, "Tom", "station", "A7")
    fly(t, "A4")
    refused(t, "build 1 yellow I I I brown I I outpost 1", "not the first station on tile A")


def test_the_outpost_shows_the_figures_symbol():
    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)))
    fly(t, "A4")
    refused(t, "build 1 yellow I I I brown I I outpost 3", "shows the colony symbol, not the station")


def test_a_second_colony_outpost_waits_for_a_mission_outpost():
    # 003 9.2 B II.4 example: "Marion has built a colony and a space station outpost. To build a second colony-outpost she
    # first has to build her first mission-outpost."
    t = flying(outposts=(3, 1))
    put(t, "Marion", "colony", "B2", outpost=True)
    put(t, "Marion", "station", "C3", outpost=True)
    label = next(t.state.board.label(h) for h, p in t.state.planets_on_map if t.state.board.tile(h) == "A")
    face_up(t, label, 5)
    fly(t, label)
    refused(t, "colonize outpost 4", "missing: mission")
    t.set_mat(outposts=(3, 1, 5))
    t.do("colonize outpost 4")
    assert t.mat().outposts == (3, 1, 5, 4) and t.mat().bucks >= 3


# -- legal --------------------------------------------------------------------------------------------------------


def test_legal_lists_a_flight_to_every_reachable_hex_and_no_flight_onto_a_hub_or_a_ship():
    t = flying(drives=(1,), fuel=0)
    ship(t, "Tom", "H1")
    legal = GAME.legal_commands(t.state)
    assert legal is not None
    ends = {cmd.path[-1] for cmd in legal if isinstance(cmd, space.c.Fly) and not cmd.portal}
    expected = {h for h in t.state.board.hexes if space.reach_paths(t.state, HOME, 2, False).get(h)
                and space.why_not_end(t.state, "Marion", h) is None}
    assert ends == expected and hx(t, "H1") not in ends
    for cmd in legal:
        if isinstance(cmd, space.c.Fly):
            GAME.decide(t.state, cmd)  # every listed flight is legal


def test_legal_after_the_flight_lists_the_actions_possible_there():
    t = on_mission(storage=cells(black=(3, 1, 0), yellow=(3, 0, 0), brown=(2, 0, 0)))
    fly(t, "B1")
    legal = GAME.legal_commands(t.state)
    assert legal is not None
    texts = {GAME.format(cmd) for cmd in legal}
    assert "mission 1 black I I I II" in texts and "end-turn" in texts
    assert any(x.startswith("build 1 ") for x in texts)
    for cmd in legal:
        GAME.decide(t.state, cmd)


def test_notation_of_flights_round_trips():
    for text in ("fly 0,0 1,0 P 3,-2 3,-1", "fly portal return 0,0", "fly portal flip 0,0 0,1"):
        assert GAME.format(GAME.parse(text)) == text
    for text in ("colonize", "colonize outpost 3", "decline", "build 1 yellow III brown II outpost 1",
                 "mission 5 black II II yellow I I at B outpost 5", "hub-bonus 2"):
        assert GAME.format(GAME.parse(text)) == text


# -- the rulebook's space examples (003 9.2 B II), arranged positions -----------------------------------------


def test_example_portal_flight_a_one_drive_removed_range_five_to_four_step_jump_two_steps_next_to_a_hub():
    # 003 9.2 B II: "Marion has activated the portals and removed one of her drives with a value of 1 – her space ship
    # now has a range of 4. She moves the space ship to the first portal, from there to the second portal and then
    # with her last two points next to the commercial hub."
    t = flying(drives=(2, 1, 1), fuel=0)
    ship(t, "Marion", "H10")
    assert space.ship_range(t.state, t.mat()) == 5
    events = t.do("fly portal return H10 C18 P B7 B8 B1")
    flown = [e for e in events if type(e).__name__ == "ShipFlown"][0]
    assert (flown.cost, flown.bought, flown.jumps) == (4, 0, (2,))
    assert t.mat().drives == (2, 1) and t.mat().fuel == 0
    assert space.hubs_next_to(t.state, t.state.ships[0]) == ["B"]
    refused_range = flying(drives=(2, 1, 1), fuel=0)
    ship(refused_range, "Marion", "H10")
    refused(refused_range, "fly portal return H10 C18 P B7 B8 B9 B10", "uses 5 range, your ship has 4")


def test_example_the_yellow_two_vp_planet_declined_for_two_resources():
    # 003 9.2 B II.1: "Marion discovers a yellow planet and decides to not settle it. She puts it openly back to its
    # hexagon and takes the explorer bonus of 2 resources instead."
    t = flying(storage=cells())
    fly(t, "H8")
    t.do("planet 12", "decline", "resources yellow I brown I")
    assert t.state.cset.planets[12].colour == "yellow" and t.state.planet_at(hx(t, "H8")) == 12
    assert t.mat().resources == 2 and t.mat().planets_waiting == ()


# -- through the CLI, and the examples fixture ---------------------------------------------------------------

OPENING_IN_SPACE = ("tiles A0 B0 C0 D0 E0 F0; start-card 2; start-card 1; first Marion; roll black 3; roll yellow 2; "
                    "roll black 1; roll brown 1; hub B; take yellow2@0 standard; resources yellow I I")


def test_a_refused_flight_names_the_first_bad_step_exits_two_and_writes_nothing(cli):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    cli.run("play", "g", OPENING_IN_SPACE)
    before = cli.json("show", "g")["position"]
    result = cli.run("play", "g", "fly H0 H1 H18 F10", expect=2)
    assert "step 2 (H1 -> H18) is not to an adjacent hex" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    # the rule sentence is quoted whole, never cut short
    assert '(003: "Each “point of range” allows the space ship to move to an adjacent hexagon in space.")' in result.stderr
    result = cli.run("play", "g", "fly H0 H1 B0", expect=2)
    assert cli.json("show", "g")["position"] == before
    cli.run("play", "g", "fly H0 H1 H8")
    assert cli.json("show", "g")["to_act"] == "chance"


def stored(cli, game: str) -> tuple[int, str]:
    """The stored event count and head hash of ``game``: what a refused command must leave as it was."""
    from solrec.events.store import Store

    store = Store(cli.db)
    try:
        row = store.game_row(game)
    finally:
        store.close()
    return row["events"], row["head"]


@pytest.mark.parametrize("flight", ["fly H0 Q7", "fly H0 H1 Q7 H8", "fly portal return H0 Q7"])
def test_a_bad_hex_written_in_a_flight_is_refused_exits_two_and_writes_nothing(cli, flight):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    cli.run("play", "g", OPENING_IN_SPACE)
    before = stored(cli, "g")
    result = cli.run("play", "g", flight, expect=2)
    assert '"Q7" is not a hex' in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert stored(cli, "g") == before and before[0] > 0
    assert cli.json("show", "g")["to_act"] == "Marion"


def test_legal_through_the_cli_lists_the_flights(cli):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    cli.run("play", "g", OPENING_IN_SPACE)
    out = cli.json("legal", "g")
    flights = [c for c in out["commands"] if c.startswith("fly ")]
    assert "fly H0 H1 H8" in flights  # H8, one point bought with fuel; the hexes by their labels
    assert "fly H0" not in flights  # Tom's ship is on the home planet
    assert not [f for f in flights if "," in f]


def test_the_space_examples_fixture_replays_the_texts_figures():
    from solrec.events.record import decide_record

    from ..conftest import FIXTURES

    _, steps, state, _ = decide_record((FIXTURES / "solarius-mission" / "space-examples-entered.jsonl").read_text())
    events = [e for s in steps for e in s.events]
    declined = [e for e in events if type(e).__name__ == "PlanetDeclined"]
    assert [(d.planet, d.vp) for d in declined] == [(12, 2)]  # the yellow 2-VP planet, 2 resources
    paid = [e for e in events if type(e).__name__ == "ResourcesRemoved" and e.player == "Marion"][-1]
    assert sorted(paid.cubes) == [("brown", 1), ("brown", 1), ("yellow", 1), ("yellow", 1), ("yellow", 1)]
    board = state.board
    assert Figure("Marion", "station", parse_hex("F10", board), True) in state.figures
    assert Figure("Tom", "colony", parse_hex("F2", board), False) in state.figures
    assert state.mat("Marion").drives == (1,)  # the outpost bonus: a neutral drive


# -- the portal flight and the outpost order, reached by play (fixture space-portal-flight-and-outposts-entered) ----

PORTALS_AND_OUTPOSTS = "space-portal-flight-and-outposts-entered.jsonl"


def replayed_until(name: str, command: str, after: bool = False):
    """The state just before (or ``after``) the fixture's first line ``command``, the whole log's steps, its end."""
    from solrec.events.record import decide_record

    from ..conftest import FIXTURES

    lines = (FIXTURES / "solarius-mission" / name).read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if f'"command": "{command}"' in line)
    _, _, before, _ = decide_record("".join(lines[: at + after]))
    _, steps, final, _ = decide_record("".join(lines))
    return before, steps, final


def test_the_fixture_flies_the_portal_example_range_five_to_four_a_step_a_jump_two_steps_next_to_a_hub():
    # 003 9.2 B II: "Marion has activated the portals and removed one of her drives with a value of 1 – her space ship
    # now has a range of 4. She moves the space ship to the first portal, from there to the second portal and then
    # with her last two points next to the commercial hub."
    before, steps, _ = replayed_until(PORTALS_AND_OUTPOSTS, "fly portal return B6 B7 P D5 D6 D1")
    marion = before.mat("Marion")
    assert marion.drives == (2, 1, 1) and space.ship_range(before, marion) == 5
    step = next(s for s in steps if any(type(e).__name__ == "PortalsActivated" for e in s.events))  # the first portal flight
    activated = [e for e in step.events if type(e).__name__ == "PortalsActivated"]
    assert [(a.player, a.returned) for a in activated] == [("Marion", True)]
    (flown,) = [e for e in step.events if type(e).__name__ == "ShipFlown"]
    labels = [space.format_hex(before, h) for h in flown.path]
    assert labels == ["B6", "B7", "D5", "D6", "D1"] and flown.jumps == (2,)  # a step, a jump, two steps
    assert (flown.cost, flown.bought) == (4, 0)  # the whole range of 4 after the drive went back, no fuel bought
    after = space.fold(before, list(step.events))
    assert after.mat("Marion").drives == (2, 1) and space.ship_range(after, after.mat("Marion")) == 4
    assert space.hubs_next_to(after, flown.path[-1]) == ["D"] and "D" in dict(after.hub_hexes)  # hub D, built
    assert GAME.decide(after, GAME.parse("mission 10 yellow I I I outpost 5", after))  # a mission there is possible


def test_the_fixture_refuses_a_second_colony_outpost_until_a_mission_outpost_exists():
    # 003 9.2 B II.4 example: "Marion has built a colony and a space station outpost. To build a second colony-outpost she
    # first has to build her first mission-outpost."
    before, _, final = replayed_until(PORTALS_AND_OUTPOSTS, "planet 30", after=True)  # on B6, just turned
    board = before.board
    assert before.mat("Marion").outposts == (1, 3)
    assert Figure("Marion", "colony", parse_hex("A5", board), True) in before.figures
    assert Figure("Marion", "station", parse_hex("F10", board), True) in before.figures
    with pytest.raises(IllegalCommand, match="missing: mission"):
        GAME.decide(before, GAME.parse("colonize outpost 4", before))
    assert "colonize outpost 4" not in [GAME.format(x) for x in GAME.legal_commands(before) or ()]
    # ... the mission outpost on D1 (next to hub D, after the portal flight), then the second colony outpost on B6 is accepted
    assert Figure("Marion", "mission", parse_hex("D1", board), True) in final.figures
    assert Figure("Marion", "colony", parse_hex("B6", board), True) in final.figures
    assert final.mat("Marion").outposts == (1, 3, 5, 4)


# -- legal: the reachable hexes for a flight and the actions possible there -----------------------------------


def agrees_with_decide(state, ends) -> None:
    """Every action ``legal`` names at a flight's end is accepted by ``decide`` once the ship is there."""
    from solrec.core.solarius_mission import commands as c
    from solrec.core.solarius_mission.rules import revealable

    for end in ends:
        after = space.fold(state, list(GAME.decide(state, end.fly)))
        if end.turns_planet:
            planet = min(p for ps in revealable(after).values() for p in ps)
            after = space.fold(after, list(GAME.decide(after, c.RevealPlanet(planet))))
        assert set(end.then) <= set(GAME.legal_commands(after) or ())
        for cmd in end.then:
            assert GAME.decide(after, cmd)


def test_legal_names_for_each_reachable_hex_the_mission_and_outposts_possible_next_to_a_hub():
    from solrec.core.solarius_mission.legal import flight_ends

    before, _, _ = replayed_until(PORTALS_AND_OUTPOSTS, "fly portal return B6 B7 P D5 D6 D1")
    ends = flight_ends(before)
    flights = [x for x in GAME.legal_commands(before) or () if type(x).__name__ == "Fly"]
    assert [e.fly for e in ends] == flights  # one end per listed flight, the same cheapest flight
    by_hex = {}
    for e in ends:
        by_hex.setdefault(e.hex, e)
    d1 = by_hex["D1"]  # next to hub D: the mission in hand, paid yellow I I I, with the mission outpost
    assert {GAME.format(x) for x in d1.then} == {"mission 10 yellow I I I", "mission 10 yellow I I I outpost 5",
                                                 "mission 10 yellow I I I outpost 6"}
    assert by_hex["D3"].turns_planet and {GAME.format(x) for x in by_hex["D3"].then} >= {"colonize", "decline"}
    assert {GAME.format(x) for x in by_hex["B5"].then} == {GAME.format(x) for x in d1.then}  # next to hub B (built or not)
    far = [e for e in ends if not space.hubs_next_to(before, e.fly.path[-1]) and space.is_empty_space(before, e.fly.path[-1])]
    assert far and all(e.then == () for e in far)  # no station affordable, no hub near: nothing but ending the turn
    agrees_with_decide(before, [by_hex[h] for h in ("D1", "D3", "B5", "E4")] + far[:3])


def test_legal_names_the_affordable_station_and_its_outpost_at_an_empty_hex():
    from solrec.core.solarius_mission.legal import flight_ends

    t = flying(storage=cells(yellow=(3, 0, 0), brown=(2, 0, 0)), outposts=(3,), drives=(1,))
    ends = {e.hex: e for e in flight_ends(t.state)}
    assert {GAME.format(x) for x in ends["H1"].then} == {"build 1 yellow I I I brown I I"}  # centre: no outpost
    assert "H8" in ends and ends["H8"].turns_planet
    agrees_with_decide(t.state, list(ends.values()))


def test_legal_through_the_cli_shows_the_reachable_hexes_and_what_can_be_done_there(cli):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    cli.run("play", "g", OPENING_IN_SPACE)
    out = cli.json("legal", "g")
    assert out["enumerable"] and "fly H0 H1 H8" in out["commands"]
    ends = {e["hex"]: e for e in out["flight_ends"]}
    assert ends["H8"] == {"hex": "H8", "q": 2, "r": -2, "fly": "fly H0 H1 H8", "destination": "fly H8",
                          "cost": {"range": 2, "ship_range": 1, "bought": 1, "fuel": 2, "portal": None},
                          "turns_planet": True, "then": ["colonize", "decline"]}
    assert ends["H1"]["then"] == [] and not ends["H1"]["turns_planet"]
    assert sorted(ends) == sorted({e["hex"] for e in out["flight_ends"]}) and len(ends) == len(out["flight_ends"])
    text = cli.run("legal", "g").stdout
    assert "reachable hexes (18), what each flight costs and what can be done there" in text
    assert ("  H8: fly H0 H1 H8 (range 2 of 1, 1 bought for 2 fuel) -> turns the planet -> colonize; "
            "decline (explorer bonus)") in text
