"""Space (003 2.1, 4.0): hexes, the tiles as placed, the notation, and the geometry of a flight."""

from __future__ import annotations

import pytest

from solrec.core.errors import InvalidCommand
from solrec.core.solarius_mission import board as b
from solrec.core.solarius_mission import loading
from solrec.core.solarius_mission.board import HOME, Hex

LAYOUTS = loading.builtin().layouts
PRINTED = (("A", 0), ("B", 0), ("C", 0), ("D", 0), ("E", 0), ("F", 0))


def board(placement=PRINTED) -> b.Board:
    return b.board_of(LAYOUTS, tuple(placement))


def test_a_hex_has_six_neighbours_each_one_step_away():
    h = Hex(3, -2)
    assert len(set(b.neighbours(h))) == 6
    assert all(b.distance(h, n) == 1 for n in b.neighbours(h))
    assert b.distance(HOME, Hex(2, -5)) == 5 and b.distance(Hex(-1, 3), Hex(2, 1)) == 3


def test_the_centre_and_six_outer_tiles_interlock_without_gaps_or_overlaps():
    # 2.1 "space consists of a center and six outer tiles that are placed next to the center"
    bd = board()
    assert len(bd.hexes) == 7 * b.TILE_SIZE
    centre = set(bd.tile_hexes(b.CENTRE))
    assert {n for h in centre for n in b.neighbours(h)} - centre <= set(bd.hexes)
    for i, letter in enumerate(b.OUTER):
        touching = {bd.tile(n) for h in bd.tile_hexes(letter) for n in b.neighbours(h) if n in bd} - {letter}
        assert touching == {b.CENTRE, b.OUTER[i - 1], b.OUTER[(i + 1) % 6]}


def test_adjacency_crosses_tile_borders():
    bd = board()
    # the centre's top hex (H7) and the hexes of tile A at position 0 beyond it
    top = bd.labels["H7"]
    assert {bd.tile(n) for n in b.neighbours(top)} == {b.CENTRE, "A"} and bd.adjacent(top) == b.neighbours(top)
    edge = bd.labels["A7"]  # the top of tile A: the board ends above it
    assert 0 < len(bd.adjacent(edge)) < 6
    assert b.distance(top, bd.labels["A0"]) == 3


def test_a_tile_may_lie_in_any_alignment_and_its_printed_numbers_turn_with_it():
    # 4.0 "The other six tiles are placed circularly and in any alignment around the center"
    plain, turned = board(), board((("A", 1), *PRINTED[1:]))
    assert turned.labels["A0"] == plain.labels["A0"]  # the middle stays
    assert turned.labels["A1"] == plain.labels["A2"]  # one step clockwise
    assert turned.labels["A7"] == rotate_about(plain.labels["A7"], plain.labels["A0"], 1)
    assert {turned.kind(h) for h in turned.tile_hexes("A")} == {plain.kind(h) for h in plain.tile_hexes("A")}
    assert board((("A", 6 - 1), *PRINTED[1:])).labels["A2"] == plain.labels["A1"]


def rotate_about(h: Hex, middle: Hex, steps: int) -> Hex:
    off = b.rotate(Hex(h.q - middle.q, h.r - middle.r), steps)
    return Hex(middle.q + off.q, middle.r + off.r)


def test_where_a_tile_lies_does_not_matter_to_what_is_printed_on_it():
    # 4.0 "It does not matter which outer board tile is at which place."
    shuffled = board((("C", 3), ("A", 0), ("F", 5), ("B", 1), ("E", 4), ("D", 2)))
    for letter in b.OUTER:
        kinds = sorted(shuffled.kind(shuffled.labels[f"{letter}{n}"]) for n in range(b.TILE_SIZE))
        assert kinds == sorted(board().kind(board().labels[f"{letter}{n}"]) for n in range(b.TILE_SIZE))


def test_the_notation_reads_back_every_hex_of_the_board():
    bd = board((("C", 3), ("A", 0), ("F", 5), ("B", 1), ("E", 4), ("D", 2)))
    for h in bd.hexes:
        assert b.parse_hex(b.format_hex(h, bd), bd) == h
        assert b.parse_hex(f"{h.q},{h.r}", bd) == h
    assert b.parse_hex("H", bd) == HOME == b.parse_hex("h0", bd)
    assert b.format_hex(HOME, bd) == "H0" and b.format_hex(Hex(40, 0)) == "40,0"


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Z3", "is not a hex: write the tile"),
        ("A19", "numbered 0-18"),
        ("A", "give the hex's number on tile A"),
        ("", "is not a hex"),
        ("9,9", "is not a hex of the board"),
        ("B-1", "is not a hex"),
    ],
)
def test_a_bad_hex_is_refused_with_its_reason(text, reason):
    with pytest.raises(InvalidCommand, match=reason):
        b.parse_hex(text, board())


def test_the_home_planet_is_the_centre_of_the_centre_tile():
    # 2.1 "The center contains the home planet in the middle; it is the starting space for all players´ space ships."
    bd = board()
    assert bd.kind(HOME) == "home" and bd.tile(HOME) == b.CENTRE and bd.labels["H0"] == HOME


@pytest.mark.parametrize("players, spaces", [(2, 20), (3, 28), (4, 32)])
def test_the_planet_spaces_in_use_hold_the_planets_in_play(players, spaces):
    # 4.0: 1/2/4 planets per colour sorted out of 36; unmarked spaces always, "3" spaces with 3 (centre:
    # only 3) or 4 players, "4" spaces with 4 players
    bd = board()
    used = bd.planet_spaces(players)
    assert len(used) == spaces
    centre_three = [h for h in bd.tile_hexes(b.CENTRE) if bd.marking(h) == "3"]
    assert all((h in used) == (players == 3) for h in centre_three)


def test_the_centre_has_four_planet_spaces_two_marked_three():
    bd = board()
    planets = [h for h in bd.tile_hexes(b.CENTRE) if bd.kind(h) == "planet"]
    assert sorted(bd.marking(h) for h in planets) == ["", "", "3", "3"]
    assert not [h for h in bd.tile_hexes(b.CENTRE) if bd.kind(h) in ("portal", "hub")]


def test_each_outer_tile_holds_five_planet_spaces_one_hub_space_and_portals():
    bd = board()
    for letter in b.OUTER:
        hexes = bd.tile_hexes(letter)
        planets = sorted(bd.marking(h) for h in hexes if bd.kind(h) == "planet")
        assert planets == ["", "", "", "3", "4"]
        assert [bd.kind(h) for h in hexes].count("hub") == 1 and bd.tile(bd.hub_hex(letter)) == letter
        assert [bd.kind(h) for h in hexes].count("portal") == 2


def test_the_ring_around_each_hub_holds_three_empty_spaces_two_planets_and_a_portal():
    # the caption beside 9.2 B II.3: "Three empty spaces surrounded by two planets and a portal."
    bd = board()
    for letter in b.OUTER:
        ring = sorted(bd.kind(n) for n in b.neighbours(bd.hub_hex(letter)))
        assert ring == ["empty", "empty", "empty", "planet", "planet", "portal"]


# -- reach and paths (9.2 B II) ------------------------------------------------------------------------------


def test_each_point_of_range_moves_the_ship_to_an_adjacent_hexagon():
    # 9.2 B II "Each point of range allows the space ship to move to an adjacent hexagon in space"
    bd = board()
    costs = b.reach(bd, (), HOME, 2, portals_active=False)
    assert costs[HOME] == 0  # "he may fly between 0 and 3 hexagons"
    assert set(costs) == {h for h in bd.hexes if b.distance(HOME, h) <= 2}
    assert all(c == b.distance(HOME, h) for h, c in costs.items())


def test_active_portals_let_the_ship_jump_between_any_two_portals_for_one_range():
    # 9.2 B II "he may jump from one portal hexagon to any other portal hexagon. This jump costs 1 range."
    bd = board()
    a_portal, d_portal = bd.labels["A3"], bd.labels["D5"]
    start = next(n for n in b.neighbours(a_portal) if bd.kind(n) == "empty")
    without = b.reach(bd, (), start, 2, portals_active=False)
    with_portals = b.reach(bd, (), start, 2, portals_active=True)
    assert d_portal not in without and with_portals[d_portal] == 2
    assert set(bd.portals) <= set(with_portals)
    assert b.check_path(bd, (), (start, a_portal, d_portal), 2, portals_active=True) is None


def test_the_ship_flies_over_any_hexagon_but_does_not_end_on_an_occupied_one():
    # 9.2 B II "The player may, however, fly over any hexagon with his space ship; he may not end his flight in hexagons containing ..."
    bd = board()
    ring = b.neighbours(HOME)
    costs = b.reach(bd, ring, HOME, 2, portals_active=False)
    assert not set(ring) & set(costs)
    assert all(costs[h] == 2 for h in bd.hexes if b.distance(HOME, h) == 2)
    far = bd.labels["H7"]
    assert b.check_path(bd, (far,), (HOME, bd.labels["H1"], far), 3, False) == "the flight may not end on H7"


@pytest.mark.parametrize(
    "labels, range_, active, reason",
    [
        (("H0", "H7"), 3, False, r"step 1 \(H0 -> H7\) is not to an adjacent hex \(distance 2\)"),
        (("H0", "H1", "H8", "H0"), 2, False, r"step 3 \(H8 -> H0\) is not to an adjacent hex \(distance 2\)"),
        (("H0", "H1", "H7"), 1, False, r"step 2 \(H1 -> H7\) is beyond the range of 1"),
        (("A3", "D5"), 3, False, r"step 1 \(A3 -> D5\) is a jump between portals, but the portals are not active"),
        (("H0", "H0"), 3, False, r"step 1 \(H0 -> H0\) does not move"),
    ],
)
def test_a_bad_flight_is_refused_at_its_first_bad_step(labels, range_, active, reason):
    bd = board()
    path = tuple(bd.labels[x] for x in labels)
    assert re_match(reason, b.check_path(bd, (), path, range_, active))


def re_match(pattern: str, text: str | None) -> bool:
    import re

    return text is not None and re.fullmatch(pattern, text) is not None


def test_a_flight_off_the_board_is_refused():
    bd = board()
    edge = max(bd.hexes, key=lambda h: b.distance(HOME, h))
    outside = next(n for n in b.neighbours(edge) if n not in bd)
    assert b.check_path(bd, (), (edge, outside), 3, False).endswith("leaves the board")


def test_the_documented_house_layout_is_the_data():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "solarius-mission.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith(("| centre (H) |", "| A |", "| B |", "| C |", "| D |", "| E |", "| F |"))]
    assert len(rows) == 7
    for tile, row in zip(loading.builtin().tiles, rows):
        letter = "H" if tile.name == b.CENTRE else tile.name
        cells = [c.strip() for c in row.strip("|").split("|")]
        _, home, planets, hub, portals, empty = cells
        unmarked, three, four = (part.strip() for part in planets.split("/"))

        def labels(word: str) -> str:
            return " ".join(f"{letter}{i}" for i, w in enumerate(tile.hexes) if w == word) or "-"

        assert (home, unmarked, three, four, hub, portals) == (
            labels("home"), labels("planet"), labels("planet-3"), labels("planet-4"), labels("hub"), labels("portal"))
        assert int(empty) == tile.hexes.count("empty")
