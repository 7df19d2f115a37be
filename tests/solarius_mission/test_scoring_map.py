"""End game scoring in space on the board itself (003 11.0, 9.2 B II.4): a hand-built position with
every figure kind, outposts, built and unbuilt hubs, settled and waiting planets; each space line
names the hexes and figures it counts. The position's ``score --explain`` is pinned."""

from __future__ import annotations

import re

import attrs
import pytest

from solrec.core.play import ENTERED, initial_state, make_header
from solrec.core.registry import get_game
from solrec.core.solarius_mission import text
from solrec.core.solarius_mission.state import Figure
from solrec.replay.explain import format_explanation

GAME = get_game("solarius-mission")
PLACEMENT = (("A", 0), ("C", 3), ("B", 1), ("F", 5), ("D", 2), ("E", 4))  # 003 issue: `tiles A0 C3 B1 F5 D2 E4`


def table(players=("Marion", "Tom", "Ute"), **options):
    header = make_header(GAME, players, options, ENTERED)
    state = initial_state(GAME, header)
    return attrs.evolve(state, placement=PLACEMENT)


def place(state, *figures, hubs=(), planets=(), **mats):
    """Figures as (player, kind, label, outpost); hubs as tile letters (built on their hub hex);
    planets as (label, id); mats as player=dict(field=value)."""
    b = state.board
    figs = tuple(sorted(Figure(p, k, b.labels[label], o) for p, k, label, o in figures))
    state = attrs.evolve(
        state, figures=figs, hub_hexes=tuple((h, b.hub_hex(h)) for h in hubs),
        planets_on_map=tuple(sorted((b.labels[label], pid) for label, pid in planets)),
    )
    for player, changes in mats.items():
        state = state.with_mat(player, attrs.evolve(state.mat(player), **changes))
    return state


def every_figure_kind(**options):
    """Three players, every figure kind with and without an outpost, hubs A, B, C built (D, E, F not),
    planets settled and waiting, face-down and face-up planets on the map, ships."""
    s = table(**options)
    b = s.board
    figures = (
        # Marion: a colony with an outpost, a station, a mission marker around hub B; colonies elsewhere
        ("Marion", "colony", "B2", True, 3), ("Marion", "station", "B1", False, 1), ("Marion", "mission", "B3", False, 1),
        ("Marion", "colony", "A1", False, 12), ("Marion", "colony", "B10", False, 21), ("Marion", "colony", "F2", False, 30),
        ("Marion", "station", "F3", False, 2), ("Marion", "colony", "E3", False, 10),
        # Tom: a station with an outpost at hub A, a mission marker and colonies
        ("Tom", "station", "A2", True, 1), ("Tom", "mission", "A4", False, 2), ("Tom", "colony", "A5", False, 13),
        ("Tom", "colony", "B6", False, 22), ("Tom", "colony", "D2", False, 4), ("Tom", "colony", "D3", False, 31),
        # Ute: a mission marker with an outpost at hub C, stations and colonies around it
        ("Ute", "mission", "C3", True, 3), ("Ute", "colony", "C1", False, 23), ("Ute", "colony", "C4", False, 5),
        ("Ute", "station", "C5", False, 1), ("Ute", "station", "C6", False, 3),
    )
    colonised = {label for _, kind, label, _, _ in figures if kind == "colony"}
    planets = [(b.label(h), -1) for h in b.planet_spaces(3) if b.label(h) not in colonised]
    shown = {"B14": 14, "A8": 24}  # turned face up earlier (declined for the explorer bonus)
    planets = [(label, shown.get(label, pid)) for label, pid in planets]
    s = place(
        s, *((p, k, label, o) for p, k, label, o, _ in figures), hubs=("B", "A", "C"), planets=planets,
        Marion={"planets_settled": (3, 12, 21, 30), "planets_waiting": (10,), "stations": (1, 2), "completed": (1,)},
        Tom={"planets_settled": (13, 4, 31), "planets_waiting": (22,), "stations": (1,), "completed": (2,), "missions": (5,)},
        Ute={"planets_settled": (23,), "planets_waiting": (5,), "stations": (1, 3), "completed": (3,)},
    )
    return GAME, attrs.evolve(
        s, figure_ids=tuple(sorted((b.labels[label], ident) for _, _, label, _, ident in figures)),
        ships=(b.labels["B3"], b.labels["A4"], b.labels["H0"]),
    )


def explain_text(state) -> str:
    sheet = GAME.score(state)
    return format_explanation({
        "id": "every-figure-kind", "position": 0, "scores": dict(sheet.totals), "outcome": None,
        "lines": [{"player": ln.player, "points": ln.points, "what": ln.what, "rule": ln.rule} for ln in sheet.lines],
    })


def line(state, player, starts):
    (ln,) = [ln for ln in GAME.score(state).lines if ln.player == player and ln.what.startswith(starts)]
    return ln


def labels_next_to_hub(state, tile, kind):
    b = state.board
    from solrec.core.solarius_mission.board import neighbours

    return [b.label(h) for h in neighbours(b.hub_hex(tile)) if h in b and b.kind(h) == kind]


def test_a_figure_next_to_a_built_hub_scores_one_and_the_line_names_it():
    s = table()
    empty = labels_next_to_hub(s, "B", "empty")[0]
    s = place(s, ("Marion", "station", empty, False), hubs=("B",), Marion={"stations": (1,)})
    ln = line(s, "Marion", "figures next to built hubs")
    assert ln.points == 1 and f"station {empty} next to hub B: 1" in ln.what and ln.rule.startswith(text.HUBS)


def test_a_figure_next_to_an_unbuilt_hub_scores_nothing():
    s = table()
    empty = labels_next_to_hub(s, "B", "empty")[0]
    s = place(s, ("Marion", "station", empty, False), hubs=("C",), Marion={"stations": (1,)})
    assert line(s, "Marion", "figures next to built hubs").points == 0


def test_outpost_doubles_hub_adjacency():
    s = table()
    empty = labels_next_to_hub(s, "B", "empty")[0]
    s = place(s, ("Marion", "station", empty, True), hubs=("B",), Marion={"stations": (1,)})
    ln = line(s, "Marion", "figures next to built hubs")
    assert ln.points == 2 and "(outpost doubles)" in ln.what and text.OUTPOST_DOUBLE in ln.rule


def test_outpost_doubles_network_option_leaves_hub_points_single():
    s = table(outpost_doubles="network")
    empty = labels_next_to_hub(s, "B", "empty")[0]
    s = place(s, ("Marion", "station", empty, True), hubs=("B",), Marion={"stations": (1,)})
    assert line(s, "Marion", "figures next to built hubs").points == 1
    assert "2 connected figure(s)" in line(s, "Marion", "network majority").what


def test_outpost_does_not_double_planet_station_or_mission_points_by_default():
    s = table()
    b = s.board
    planet = labels_next_to_hub(s, "B", "planet")[0]
    s = place(s, ("Marion", "colony", planet, True), Marion={"planets_settled": (3,)})
    assert line(s, "Marion", "1 settled planet").points == s.cset.planets[3].vp
    assert b.labels[planet] not in dict(s.planets_on_map)


def test_a_player_alone_in_space_takes_the_first_award():
    s = table()
    empty = labels_next_to_hub(s, "B", "empty")
    s = place(s, ("Marion", "station", empty[0], False), ("Marion", "station", empty[1], False),
              Marion={"stations": (1, 2)})
    assert line(s, "Marion", "network majority").points == 4  # 3 players: 4/2
    assert line(s, "Tom", "network majority").points == 0


def test_score_explain_of_every_figure_kind_is_pinned(snapshot):
    _, s = every_figure_kind()
    assert explain_text(s) == snapshot


def test_every_space_line_names_the_hexes_it_counts():
    _, s = every_figure_kind()
    assert "colony B2 with outpost next to hub B: 2 (outpost doubles)" in line(s, "Marion", "figures next to built hubs").what
    assert "3 black 2 VP, colony B2" in line(s, "Marion", "4 settled planet(s)").what
    assert "10 yellow, colony E3" in line(s, "Marion", "1 planet(s) not settled").what
    assert "2nd (card 2) at F3 1 VP" in line(s, "Marion", "2 space station(s)").what
    assert "card 1 3 VP, marker B3" in line(s, "Marion", "1 completed mission").what
    assert "{3 12 21 30}" in line(s, "Marion", "colour sets").what


def test_every_space_line_cites_its_sentence_and_the_totals_add_up():
    _, s = every_figure_kind()
    sheet = GAME.score(s)
    for p in s.players:
        lines = [ln for ln in sheet.lines if ln.player == p]
        assert all(ln.rule.startswith('003: "') for ln in lines)
        assert sum(ln.points for ln in lines) == sheet.total(p)


def test_network_majority_counts_the_largest_group_with_outposts_double():
    _, s = every_figure_kind()
    # Marion: B1, B2 (outpost: 2), B3, B10 connected = 5; F2-F3 and A1, E3 are apart
    assert "5 connected figure(s)" in line(s, "Marion", "network majority").what
    # Ute: C1, C3 (outpost: 2), C4, C5, C6 around hub C = 6, the most: 4 of 4/2
    ute = line(s, "Ute", "network majority")
    assert ute.points == 4 and "6 connected figure(s)" in ute.what and text.NETWORK_OUTPOSTS in ute.rule
    assert line(s, "Marion", "network majority").points == 2 and line(s, "Tom", "network majority").points == 0
    assert text.NETWORK_PLAYERS in ute.rule


def test_network_majority_ties_share_rounded_down_on_the_board():
    s = table(players=("Marion", "Tom"))
    s = place(s, ("Marion", "station", "B1", False), ("Tom", "station", "C1", False),
              Marion={"stations": (1,)}, Tom={"stations": (1,)})
    for p in ("Marion", "Tom"):
        ln = line(s, p, "network majority")
        assert ln.points == 1 and "tied with" in ln.what and text.NETWORK_TIE in ln.rule  # (2 + 0) / 2


def test_outpost_doubles_all_option_doubles_planet_station_and_mission_points():
    _, s = every_figure_kind(outpost_doubles="all")
    assert line(s, "Marion", "4 settled planet(s)").points == 2 * 2 + 2 + 2 + 2  # colony B2 (planet 3) with outpost
    assert line(s, "Ute", "1 completed mission").points == 2 * 2  # mission marker C3 with outpost, card 3: 2 VP
    assert line(s, "Tom", "1 space station").points == 0  # the 1st station scores 0, doubled or not
    _, default = every_figure_kind()
    assert line(default, "Marion", "4 settled planet(s)").points == 8 and line(default, "Ute", "1 completed mission").points == 2


def test_network_within_ship_range_option_links_figures_apart():
    _, s = every_figure_kind(network="ship-range")
    # Tom's ship has range 1 (the own drive): A2 and A4 are two apart, so still apart
    assert "2 connected figure(s)" in line(s, "Tom", "network majority").what
    s = s.with_mat("Tom", attrs.evolve(s.mat("Tom"), drives=(2,)))  # range 3
    tom = line(s, "Tom", "network majority")
    assert "within ship range 3" in tom.what and "station A2 with outpost, mission marker A4, colony A5" in tom.what


def test_hub_adjacency_per_hub_option_is_recorded_and_counts_each_hub():
    # On house-2016b no hex touches two hub hexes (hubs lie in the tiles' middles, five apart), so
    # the option changes nothing here; the rule itself is tested on a hand-built map in test_scoring_space.
    from solrec.core.solarius_mission.board import neighbours

    _, once = every_figure_kind()
    b = once.board
    assert all(sum(1 for n in neighbours(h) if n in b and b.kind(n) == "hub") <= 1 for h in b.hexes)
    _, per = every_figure_kind(hub_adjacency="per-hub")
    assert per.hub_adjacency == "per-hub"
    assert GAME.score(per).totals == GAME.score(once).totals


def test_a_space_ship_is_no_figure_for_hubs_or_the_network():
    # 11.0 "(colony, space station, mission marker but not his space ship)"; "(colonies, space stations,
    # mission markers, but not space ships)"
    s = table()
    b = s.board
    s = place(s, ("Marion", "station", "B1", False), ("Marion", "station", "B3", False), hubs=("C",),
              Marion={"stations": (1, 2)})
    s = attrs.evolve(s, ships=(b.labels["B2"], b.labels["C1"], b.labels["H0"]))  # B2 joins B1 and B3; C1 touches hub C
    assert "1 connected figure(s)" in line(s, "Marion", "network majority").what
    assert line(s, "Tom", "figures next to built hubs").points == 0


@pytest.mark.parametrize("name", ["space-two-players-seeded", "space-three-players-seeded", "space-four-players-seeded"])
def test_the_complete_space_fixtures_explain_every_figure_by_its_hex(name):
    from solrec.replay.log import walk

    from ..pictures.helpers import fixture_log

    log = fixture_log(f"solarius-mission/{name}.jsonl")
    for _, _, state in walk(log):
        pass
    assert state.over
    b = state.board
    sheet = GAME.score(state)
    for p in state.players:
        mat = state.mat(p)
        own = [f for f in state.figures if f.player == p]
        text_of = " | ".join(ln.what for ln in sheet.lines if ln.player == p)
        def names(words: str, label: str, where: str) -> bool:
            return re.search(rf"\b{words} {label}(?!\d)", where) is not None

        for f in own:  # each planet, station and mission is named with its figure's hex
            assert names({"colony": "colony", "station": "at", "mission": "marker"}[f.kind], b.label(f.hex), text_of)
        assert len([f for f in own if f.kind == "colony"]) == len(mat.planets_settled) + len(mat.planets_waiting)
        assert len([f for f in own if f.kind == "station"]) == len(mat.stations)
        assert len([f for f in own if f.kind == "mission"]) == len(mat.completed)
        network = line(state, p, "network majority")
        named = [f for f in own if names({"colony": "colony", "station": "station", "mission": "mission marker"}[f.kind],
                                         b.label(f.hex), network.what)]
        assert f"({sum(2 if f.outpost else 1 for f in named)} connected figure(s)" in network.what
