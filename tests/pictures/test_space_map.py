"""The Solarius Mission hex map as a person sees it: the picture drawn by headless Chromium, a
screenshot taken, and the pixels looked at where the map puts each figure, planet, hub and portal."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from solrec.core.observe import Viewer
from solrec.core.solarius_mission.render import (
    FACE_DOWN,
    PLANET_FILL,
    PLAYER_FILL,
    SPACE_INK,
    WIDTH,
    map_layout,
    ship_at,
)

from ..solarius_mission.test_scoring_map import every_figure_kind
from . import browser
from .png import Image, hex_colour, near
from .test_svg import SVG_NS, check_svg, words


@pytest.fixture(scope="module")
def driver():
    with browser.session(2 * WIDTH + 40, 1800) as d:
        yield d


def screenshot(driver, picture: str, tmp_path) -> Image:
    """The picture at one pixel per unit, at the page's top left corner, as Chromium draws it."""
    page = tmp_path / "map.html"
    body = picture.split("\n", 1)[1]  # the SVG element without the XML declaration
    page.write_text(f"<!doctype html><html><body style='margin:0;background:#fff'>{body}</body></html>",
                    encoding="utf-8")
    driver.get(page.as_uri())
    return Image(driver.get_screenshot_as_png())


def test_the_map_is_valid_svg_and_names_the_players():
    game, state = every_figure_kind()
    picture = game.svg(state)
    root = check_svg(picture)
    assert root.find(f"{SVG_NS}polygon") is not None
    for player in state.players:
        assert player in words(picture)


def test_every_figure_planet_hub_and_ship_shows_in_its_colour_in_chromium(driver, tmp_path):
    game, state = every_figure_kind()
    picture = game.svg(state, size=2 * WIDTH)  # two pixels per unit
    image = screenshot(driver, picture, tmp_path)
    b = state.board
    unit_at, unit_size, _ = map_layout(b, WIDTH, map_top(picture))
    size = 2 * unit_size

    def at(h):
        x, y = unit_at(h)
        return 2 * x, 2 * y

    seats = {p: i for i, p in enumerate(state.players)}
    for f in state.figures:
        x, y = at(f.hex)
        want = hex_colour(PLAYER_FILL[seats[f.player]])
        assert near(image.pixel(x, y), want), f"{f.kind} of {f.player} at {b.label(f.hex)}: {image.pixel(x, y)}"
        if f.outpost:  # the ring around the figure
            ring = image.pixel(x + size * 0.74, y)
            assert near(ring, want), f"outpost ring at {b.label(f.hex)}: {ring}"
    for h, pid in state.planets_on_map:
        x, y = at(h)
        px = image.pixel(x, y - size * 0.35)  # above the VP or "?" written in the middle
        if pid < 0:
            assert near(px, hex_colour(FACE_DOWN)), f"face-down planet at {b.label(h)}: {px}"
        else:
            colour = state.cset.planets[pid].colour
            assert near(px, hex_colour(PLANET_FILL[colour])), f"{colour} planet at {b.label(h)}: {px}"
    for letter, h in state.hub_hexes:
        x, y = at(h)
        assert near(image.pixel(x - size * 0.45, y), hex_colour(SPACE_INK)), f"hub {letter} at {b.label(h)}"
    for i, h in enumerate(state.ships):
        x, y = ship_at(at(h), size, [j for j, g in enumerate(state.ships) if g == h].index(i))
        assert near(image.pixel(x, y), hex_colour(PLAYER_FILL[i])), f"ship of {state.players[i]} at {b.label(h)}"


def map_top(picture: str) -> float:
    """Where ``svg`` starts the map: the y of its title row."""
    for e in ET.fromstring(picture).iter(f"{SVG_NS}text"):
        if e.text == "space":
            return float(e.get("y", "0")) - 16
    raise AssertionError("no map in the picture")


def test_face_down_planets_stay_face_down_even_revealed():
    # a face-down planet's identity is drawn by chance only when it is turned: nothing to reveal
    game, state = every_figure_kind()
    face_down = sum(1 for _, pid in state.planets_on_map if pid < 0)
    for reveal in (False, True):
        marks = [e for e in ET.fromstring(game.svg(state, Viewer.of(None, reveal))).iter(f"{SVG_NS}text") if e.text == "?"]
        assert len(marks) == face_down


def test_face_up_planets_show_their_colour_and_vp():
    game, state = every_figure_kind()
    b = state.board
    at, size, _ = map_layout(b, WIDTH, map_top(game.svg(state)))
    root = ET.fromstring(game.svg(state))
    for h, pid in state.planets_on_map:
        if pid < 0:
            continue
        x, y = at(h)
        planet = state.cset.planets[pid]
        discs = [e for e in root.iter(f"{SVG_NS}circle")
                 if abs(float(e.get("cx", 0)) - x) < 0.2 and abs(float(e.get("cy", 0)) - y) < 0.2]
        assert any(e.get("fill") == PLANET_FILL[planet.colour] for e in discs)
        assert [e.text for e in root.iter(f"{SVG_NS}text")
                if abs(float(e.get("x", 0)) - x) < 0.2 and abs(float(e.get("y", 0)) - (y + size * 0.15)) < 0.2] == [str(planet.vp)]


def test_the_hexes_the_last_command_named_are_outlined():
    from solrec.core.solarius_mission.events import PlanetRevealed
    from solrec.core.svg import HIGHLIGHT

    game, state = every_figure_kind()
    h = state.board.labels["B14"]
    assert HIGHLIGHT not in game.svg(state)
    outlined = [e for e in ET.fromstring(game.svg(state, last=[PlanetRevealed(h, 14, "yellow 2 VP")])).iter(f"{SVG_NS}polygon")
                if e.get("stroke") == HIGHLIGHT]
    assert len(outlined) == 1


def test_a_game_without_the_map_draws_no_space():
    from .test_svg import position

    game, state, _ = position("solarius-mission/three-players-chosen-start-seeded.jsonl", 105)
    assert not state.has_map
    assert "space" not in [e.text for e in ET.fromstring(game.svg(state)).iter(f"{SVG_NS}text")]
