"""End game scoring in space on the board itself (003 11.0, 9.2 B II.4): a hand-built position with
every figure kind, outposts, built and unbuilt hubs, settled and waiting planets; each space line
names the hexes and figures it counts. The position's ``score --explain`` is pinned."""

from __future__ import annotations

import attrs

from solrec.core.play import ENTERED, initial_state, make_header
from solrec.core.registry import get_game
from solrec.core.solarius_mission import text
from solrec.core.solarius_mission.state import Figure

GAME = get_game("solarius-mission")
PLACEMENT = (("A", 0), ("B", 0), ("C", 0), ("D", 0), ("E", 0), ("F", 0))


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
