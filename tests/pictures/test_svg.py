"""The SVG pictures (``core/<game>/render.py: svg``): valid standalone SVG 1.1 at every position of
every fixture, pinned text for one position per game, hidden information hidden, the last command
highlighted."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from solrec.core.observe import Viewer
from solrec.core.play import initial_state
from solrec.core.svg import HIGHLIGHT
from solrec.replay.log import walk

from .helpers import FIXTURE_FILES, FIXTURE_IDS, fixture_log

SVG_NS = "{http://www.w3.org/2000/svg}"


def words(text: str) -> str:
    """The picture's text, its wrapped lines joined, spaces collapsed."""
    return " ".join(" ".join(e.text or "" for e in ET.fromstring(text).iter(f"{SVG_NS}text")).split())


def check_svg(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    root = ET.fromstring(text.encode("utf-8"))  # an XML parser accepts it
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("version") == "1.1"
    x, y, w, h = map(float, root.get("viewBox", "").split())
    assert (x, y) == (0, 0) and w > 0 and h > 0
    assert root.get("width") == "400"  # readable at 400 px: the default size
    assert root.find(f"{SVG_NS}title") is not None
    return root


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=FIXTURE_IDS)
def test_every_position_of_every_fixture_is_valid_standalone_svg(path):
    log = fixture_log(path)
    game, codec = log.game, log.codec
    state = initial_state(game, log.header)
    check_svg(game.svg(state))
    for group in log.steps():
        events = []
        for row in group:  # every position: after each event, the command's events so far highlighted
            event = codec.decode(row.type, row.version, row.payload)
            events.append(event)
            state = game.evolve(state, event)
            check_svg(game.svg(state, last=events))
    check_svg(game.svg(state, Viewer.referee(), last=events))


SNAPSHOT_POSITIONS = {
    "solo-dice": ("solo-dice/worked-example.jsonl", 20),
    "soli2": ("soli2/duel-pouch-standard.jsonl", 110),
    "solar-solitaire": ("solar-solitaire/lost-entered.jsonl", 40),
    "solari": ("solari/two-players-dominoes-open-seeded.jsonl", 11),
    "solarius-mission": ("solarius-mission/three-players-chosen-start-seeded.jsonl", 105),
}


def position(path: str, step: int):
    """The state after ``step`` commands, and that command's events."""
    log = fixture_log(path)
    for k, (_, events, state) in enumerate(walk(log), start=1):
        if k == step:
            return log.game, state, events
    raise AssertionError(f"{path} has fewer than {step} commands")


@pytest.mark.parametrize("game_id", sorted(SNAPSHOT_POSITIONS))
def test_one_position_per_game_is_pinned(game_id, snapshot):
    game, state, last = position(*SNAPSHOT_POSITIONS[game_id])
    picture = game.svg(state, last=last)
    check_svg(picture)
    assert picture == snapshot


@pytest.mark.parametrize("game_id", sorted(SNAPSHOT_POSITIONS))
def test_svg_is_a_pure_function_of_the_position(game_id):
    game, state, last = position(*SNAPSHOT_POSITIONS[game_id])
    assert game.svg(state, last=last) == game.svg(state, last=last)
    assert HIGHLIGHT in game.svg(state, last=last)
    assert HIGHLIGHT not in game.svg(state)  # only the last command's changes are highlighted


def test_size_sets_the_pixel_width_and_keeps_the_view_box():
    game, state, _ = position(*SNAPSHOT_POSITIONS["soli2"])
    root = ET.fromstring(game.svg(state, size=800))
    assert root.get("width") == "800"
    assert root.get("viewBox") == ET.fromstring(game.svg(state)).get("viewBox")
    assert ET.fromstring(game.svg(state, size=None)).get("width") is None


def test_text_is_in_the_games_own_words():
    game, state, _ = position(*SNAPSHOT_POSITIONS["solo-dice"])
    assert "leftovers" in game.svg(state) and "score -330" in game.svg(state)
    game, state, _ = position(*SNAPSHOT_POSITIONS["solar-solitaire"])
    for words in ("space stations", "launch pads", "waste heap", "stock", "rocket 0-0-0"):
        assert words in game.svg(state)


def test_soli2_draws_the_last_jump_as_an_arrow_and_crosses_out_the_jumped_marble():
    game, state, last = position(*SNAPSHOT_POSITIONS["soli2"])
    root = ET.fromstring(game.svg(state, last=last))
    highlighted = [e for e in root.iter() if HIGHLIGHT in (e.get("stroke"), e.get("fill"))]
    assert {e.tag for e in highlighted} == {f"{SVG_NS}line", f"{SVG_NS}polygon"}  # shaft and head


def test_solar_solitaire_hides_the_stock_order_and_buried_cards_unless_revealed():
    log = fixture_log("solar-solitaire/won-seeded.jsonl")
    game = log.game
    steps = list(walk(log))
    _, _, state = steps[5]
    assert state.stock_known and len(state.stock) > 3
    order = " ".join(state.stock)
    hidden, shown = words(game.svg(state)), words(game.svg(state, Viewer.referee()))
    assert order not in hidden and "turning order" not in hidden
    assert f"{len(state.stock)} card(s) left" in hidden
    assert f"stock (turning order): {order}" in shown
    buried = next(p for p in state.pads if len(p) > 1)  # a pad pile: only its top shows at the table
    assert " ".join(buried) not in hidden
    assert " ".join(buried) in shown


def test_solari_hidden_dominoes_lie_face_down_unless_revealed():
    from solrec.core.play import make_header
    from solrec.core.registry import get_game
    from solrec.core.solari.rules import DOMINO_MOVES
    from solrec.core.solari.state import DOMINOES

    game = get_game("solari")
    header = make_header(game, ["Ann", "Bob"], {"source": "dominoes-hidden"}, "entered", None, None)
    state = initial_state(game, header)
    hidden = words(game.svg(state))
    assert f"Uranus: {DOMINO_MOVES} dominoes face down" in hidden and "1-1 1-2" not in hidden
    shown = words(game.svg(state, Viewer.referee()))
    everything = " ".join(f"{a}-{b}" for a, b in DOMINOES)
    assert f"Uranus's face-down dominoes (revealed): {everything}" in shown
    assert f"Saturn's face-down dominoes (revealed): {everything}" in shown


def test_solari_marks_the_shot_piece_and_the_steps_of_the_move():
    from solrec.core.solari.events import Stepped
    from solrec.core.svg import SHOT

    log = fixture_log("solari/two-players-dominoes-open-seeded.jsonl")
    for _, events, state in walk(log):
        if any(isinstance(e, Stepped) and e.shot is not None for e in events):
            break
    else:
        raise AssertionError("no shot in the fixture")
    picture = log.game.svg(state, last=events)
    assert SHOT in picture and HIGHLIGHT in picture


def test_solarius_mission_hides_hands_deck_and_hubs_unless_revealed():
    game, state, _ = position("solarius-mission/three-players-chosen-start-seeded.jsonl", 105)
    hand = next(m.hand for m in state.mats if len(m.hand) >= 2)
    hidden, shown = words(game.svg(state)), words(game.svg(state, Viewer.referee()))
    assert f"hand: {len(hand)} card(s), face down" in hidden and "revealed" not in hidden
    assert f"hand (revealed): {' '.join(map(str, hand))}" in shown
    assert f"progress deck {len(state.deck)} card(s)" in hidden
    assert f"deck (revealed, unordered): {' '.join(map(str, state.deck))}" in shown
    assert "3: ?" in hidden and f"hidden hubs (revealed): {' '.join(state.hubs)}" in shown


def test_solarius_mission_shows_the_bridge_and_each_mat_in_the_games_words():
    game, state, _ = position("solarius-mission/three-players-chosen-start-seeded.jsonl", 105)
    picture = words(game.svg(state))
    for phrase in ("bridge (bonus wheel) -1", "+1 * +2 +3", "start player: Ute", "hubs 1: F 2: C",
                   "fuel", "SpaceBucks", "tech dice I II III IV V", "storage", "contamination", "beside:",
                   "drives", "stations", "dice taken", "mission 8: yellow 6 for 4 VP", "planets waiting"):
        assert phrase in picture
    for player in state.players:
        assert player in picture


def test_solarius_mission_outlines_what_the_last_command_changed():
    game, state, last = position("solarius-mission/three-players-chosen-start-seeded.jsonl", 105)
    root = ET.fromstring(game.svg(state, last=last))  # resources placed in Ute's turquoise row
    outlined = [e for e in root.iter(f"{SVG_NS}rect") if e.get("stroke") == HIGHLIGHT]
    assert len(outlined) == 1
    assert not [e for e in ET.fromstring(game.svg(state)).iter(f"{SVG_NS}rect") if e.get("stroke") == HIGHLIGHT]


def forget_drawn_parts() -> None:
    """Empty every memory of parts drawn before: the elements, Solarius Mission's board, maps and mats."""
    from solrec.core import svg
    from solrec.core.solarius_mission import render

    for element in (svg.rect, svg.circle, svg.line, svg.text, svg._polygon):
        element.cache_clear()  # type: ignore[attr-defined]
    render._BACKGROUNDS.clear()
    render._MATS.clear()
    render._MAPS.clear()


@pytest.mark.parametrize("path", ["solarius-mission/space-three-players-seeded.jsonl",
                                  "solarius-mission/two-players-start-cards-seeded.jsonl",
                                  "solari/three-players-dominoes-free-entered.jsonl"])
def test_a_picture_drawn_from_remembered_parts_is_the_picture_drawn_afresh(path):
    """Pictures reuse the parts an earlier position drew (elements, a board, a mat that did not
    change): each position, drawn after all the game's earlier ones, is the same text as drawn
    with nothing remembered."""
    log = fixture_log(path)
    game = log.game
    positions = [(events, state) for _, events, state in walk(log)]
    for reveal in (False, True):
        forget_drawn_parts()
        in_turn = [game.svg(state, Viewer.of(None, reveal), last=events) for events, state in positions]
        for k in range(0, len(positions), 7):
            forget_drawn_parts()
            events, state = positions[k]
            assert game.svg(state, Viewer.of(None, reveal), last=events) == in_turn[k], k
