"""Setting up space (003 4.0): the tiles, the planets face down, the ships at home; hubs placed on
their tile (9.1); a planet named by chance only when it is turned (9.2 B II.1); the text map."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from solrec.core.chance import SeededDraw
from solrec.core.errors import IllegalCommand, InvalidCommand
from solrec.core.solarius_mission import board as b
from solrec.core.solarius_mission import events as ev
from solrec.core.solarius_mission import render
from solrec.core.solarius_mission.board import HOME
from solrec.core.solarius_mission.state import Figure, evolve, revealed_planets

from .helpers import GAME, OPENING, Table

PLAYERS = {2: ("Marion", "Tom"), 3: ("Marion", "Tom", "Ute"), 4: ("Marion", "Tom", "Ute", "Vic")}


def test_space_is_put_together_before_anything_else():
    # 4.0 "The players put together space with the seven interlocking space board tiles."
    t = Table(opening=None, tiles=None)
    assert t.phase == "tiles" and GAME.to_act(t.state) == "chance"
    with pytest.raises(IllegalCommand, match="chance places the six outer tiles"):
        t.do("start-card 1")


def test_the_outer_tiles_lie_where_and_in_the_alignment_the_table_says():
    # 4.0 "The other six tiles are placed circularly and in any alignment around the center."
    t = Table(opening=None, tiles="tiles A0 C3 B1 F5 D2 E4")
    assert t.state.placement == (("A", 0), ("C", 3), ("B", 1), ("F", 5), ("D", 2), ("E", 4))
    assert t.state.board.tile(b.POSITIONS[1]) == "C"
    assert GAME.format(GAME.parse("tiles a0 c3 b1 f5 d2 e4")) == "tiles A0 C3 B1 F5 D2 E4"


def test_a_seeded_game_places_every_outer_tile_once_in_a_drawn_alignment():
    t = Table(opening=None, tiles=None)
    command = GAME.chance_command(t.state, SeededDraw(2016, 0))
    letters = sorted(letter for letter, _ in command.placement)
    assert letters == list(b.OUTER) and all(0 <= r < 6 for _, r in command.placement)
    assert command == GAME.chance_command(t.state, SeededDraw(2016, 0))  # the seed decides


@pytest.mark.parametrize("players, spaces", [(2, 20), (3, 28), (4, 32)])
def test_the_planets_are_dealt_face_down_on_the_planet_spaces_in_use(players, spaces):
    # 4.0 "Now the players put one planet per planet space on the game board (space) - according to the number of players."
    t = Table(players=PLAYERS[players], opening=None)
    assert len(t.state.planets_on_map) == spaces
    assert all(p == -1 for _, p in t.state.planets_on_map)
    assert {h for h, _ in t.state.planets_on_map} == set(t.state.board.planet_spaces(players))


def test_the_ships_start_on_the_home_planet():
    # 4.0 "The space ship is placed on/next to the home planet in the center of space."
    t = Table(players=PLAYERS[3], opening=None)
    assert t.state.ships == (HOME, HOME, HOME) and t.state.board.kind(HOME) == "home"


def test_a_revealed_hub_is_placed_on_the_hub_space_of_its_tile():
    # 9.1 "The letter on the flipside (A-F) tells the players on which space the commercial hub is placed."
    t = Table()  # the opening reveals hub B
    assert t.state.hub_hexes == (("B", t.state.board.hub_hex("B")),)
    assert t.state.board.tile(t.state.hub_hexes[0][1]) == "B"


def test_a_set_without_a_map_is_played_without_space():
    t = Table(opening=None, tiles=None, components="house-2016", components_digest="a48068fe6f45209a")
    assert t.phase == "start-card" and t.state.placement == () and t.state.ships == ()
    t.do(*OPENING)
    assert t.state.hub_hexes == () and "space (" not in GAME.render(t.state)


# -- turning a planet ------------------------------------------------------------------------------------


def turned(t: Table, h=None) -> Table:
    """Arrange the moment a ship has ended its flight on a face-down planet and turns it (sm-flight's flight
    emits ev.PlanetTurned)."""
    h = h or t.state.planets_on_map[0][0]
    t.state = evolve(t.state, ev.PlanetTurned("Marion", h))
    return t


def test_a_face_down_planet_is_named_by_chance_only_when_it_is_turned():
    # 9.2 B II.1 "If the planet is still concealed (on its back), the player turns it and puts it back (open) on its hexagon."
    t = turned(Table())
    h = t.state.revealing
    assert t.phase == "reveal" and GAME.to_act(t.state) == "chance"
    yellow2 = yellow_two(t)
    planet = t.state.cset.planets[yellow2]
    events = t.do(f"planet {yellow2}")
    pre = dict(planet.precondition)
    assert events == [ev.PlanetRevealed(h, yellow2, f"yellow 2 VP, {pre['kind']} amount {pre['amount']}")]
    assert t.state.planet_at(h) == yellow2 and t.state.revealing is None and t.phase == "take"


def yellow_two(t: Table) -> int:
    """The planet of 9.2 B II.1's example: "Marion discovers a yellow planet ... the explorer bonus of 2 resources"."""
    return min(i for i, p in t.state.cset.planets.items() if p.colour == "yellow" and p.vp == 2)


def test_a_planet_already_turned_cannot_be_named_again():
    t = turned(Table())
    t.do("planet 20")
    turned(t, t.state.planets_on_map[1][0])
    with pytest.raises(IllegalCommand, match="planet 20 has been turned already"):
        t.do("planet 20")


def test_no_more_planets_of_a_colour_are_turned_than_are_in_play():
    # 4.0 "In a 2-player game he sorts out four planets per color": 5 of each colour are in play
    t = Table()
    black = sorted(i for i, p in t.state.cset.planets.items() if p.colour == "black")
    for i, planet in enumerate(black[:5]):
        turned(t, t.state.planets_on_map[i][0])
        t.do(f"planet {planet}")
    turned(t, t.state.planets_on_map[5][0])
    with pytest.raises(IllegalCommand, match="all 5 black planets in play with 2 players have been turned"):
        t.do(f"planet {black[5]}")


def test_the_set_names_every_planet_chance_may_give():
    t = turned(Table())
    with pytest.raises(IllegalCommand, match="the set has no planet 99"):
        t.do("planet 99")


def test_a_planet_is_named_only_while_one_is_being_turned():
    t = Table()
    with pytest.raises(IllegalCommand, match="naming a planet is not possible now"):
        GAME.decide(t.state, GAME.parse("planet 3"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_reveals_turn_every_planet_in_play_and_no_more(players):
    t = Table(players=PLAYERS[players], opening=None)
    state = t.state
    for i, (h, _) in enumerate(t.state.planets_on_map):
        state = evolve(state, ev.PlanetTurned("Marion", h))
        command = GAME.chance_command(state, SeededDraw(7, i))
        for e in GAME.decide(state, command):
            state = evolve(state, e)
    colours = Counter(state.cset.planets[p].colour for p in revealed_planets(state))
    removed = {2: 4, 3: 2, 4: 1}[players]
    assert colours == {c: 9 - removed for c in ("black", "yellow", "turquoise", "brown")}


# -- the notation's refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, reason",
    [
        ("tiles A0 C3 B1 F5 D2", "names the 6 outer tiles"),
        ("tiles A0 C3 B1 F5 D2 G4", '"G4": the outer tiles are A, B, C, D, E, F'),
        ("tiles A0 C3 B1 F5 D2 A4", "tile A is named 2 times"),
        ("tiles A0 C3 B1 F5 D2 E6", '"E6": a tile\'s rotation is 0-5'),
        ("tiles A0 C3 B1 F5 D2 E", '"E": a tile\'s rotation is 0-5'),
        ("planet x", "a planet is a number"),
    ],
)
def test_bad_tiles_are_refused_with_a_reason(text, reason):
    with pytest.raises(InvalidCommand, match=reason):
        GAME.parse(text)


# -- the map as text --------------------------------------------------------------------------------------


def test_show_draws_every_ship_figure_planet_portal_and_hub_and_hides_what_is_face_down():
    t = turned(Table())
    up = t.state.revealing
    yellow2 = yellow_two(t)
    t.do(f"planet {yellow2}")
    bd = t.state.board
    colony, station = bd.labels["A2"], bd.labels["B3"]
    t.state = attrs.evolve(
        t.state, figures=(Figure("Marion", "colony", colony, True), Figure("Tom", "station", station)),
        ships=(colony, bd.labels["C5"]),
    )
    text = GAME.render(t.state)
    lines = render.space_lines(t.state)
    grid = "\n".join(line for line in lines if line.startswith("  "))
    assert "1c+^ " in grid and "2s " in grid and "^2 " in grid
    assert "[B]" in grid and "(A)" in grid and "y2" in grid and "?" in grid and "O" in grid and "H" in grid
    assert "ships: Marion A2, Tom C5" in text
    assert f"planets face up: {bd.label(up)} planet {yellow2} (yellow 2 VP)" in text
    assert "figures: Marion colony A2 with outpost, Tom station B3" in text
    assert f"hubs built: B at {bd.label(bd.hub_hex('B'))}" in text
    assert "planets face down (19):" in text
    # nothing of a face-down planet is known to the state, so nothing can leak: only '?'
    assert all(p == -1 for h, p in t.state.planets_on_map if h != up)


def test_each_hex_of_the_map_is_drawn_once_where_it_lies():
    t = Table()
    lines = render.space_lines(t.state)
    split = next(i for i, line in enumerate(lines) if line.startswith("the same hexes by their labels"))
    grid = [line for line in lines[:split] if line.startswith("  ")]
    cells = sum(len(line.split()) for line in grid)
    assert cells == len(t.state.board.hexes)
    # then the same grid by the labels: each hex's label once, in the same place
    labels = [line for line in lines[split + 1:] if line.startswith("  ")]
    assert len(labels) == len(grid) and sorted(x for line in labels for x in line.split()) == sorted(t.state.board.labels)
