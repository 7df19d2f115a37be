"""Solarius Mission's observation tensor (docs/ai.md, "Observation tensors"): each player's mat, the
seat's own hand, the bridge and the bag, the die in play, the game turn, and the map hex by hex, each
player counted from the seat's own (the seat first, then the others in seating order).

Built from what the seat sees (observation.py): another player's hand is its size only, the deck, the
discard pile and the hubs not built their sizes only; the start cards not dealt not at all. The length
depends on the component set (its progress cards) alone, never on the number of players (four places,
the empty ones zero).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..tensors import Features
from .board import HOME, POSITIONS, TILE_OFFSETS, Hex, add
from .components import COLOURS
from .state import Mat, State

PLACES = 4  # players, the seat's first
FACES = ("1", "2", "3", "4", "5", "6", "*", "*+1")  # a die's faces (check.py: the faces a set may print)
WHEEL = 5  # the bridge's wheel values -1 .. 3
ROWS = len(COLOURS)  # the mat's rows, one per colour
FIGURES = ("colony", "station", "mission")
EFFECTS = ("resources", "upgrade", "shift")
TURNS = 5  # the game turn: 0 before the first, then 1..4
TAKEN_FLAGS = ("bonus_done", "research_done", "action_done", "supplementary_done", "ended", "portals", "flown",
               "landed_hidden", "space_done")
# every hex of the seven tiles, whatever their placement (the outer positions are fixed, 4.0)
HEXES: tuple[Hex, ...] = tuple(sorted({add(middle, offset) for middle in (HOME, *POSITIONS) for offset in TILE_OFFSETS}))
_HEX = {h: i for i, h in enumerate(HEXES)}
PER_MAT = 1 + 2 + ROWS * 6 + ROWS * 5 + ROWS * 3 + 2 + 2 + 1 + len(COLOURS) + 1 + 1 + 2 + 1 + 2 + 1
PER_HEX = 1 + len(COLOURS) + PLACES * len(FIGURES) + 1 + PLACES + 1 + 1
GLOBAL = (len(COLOURS) + 3 + 3 + WHEEL * len(COLOURS) * len(FACES) + 1 + 1 + 2 + 1 + PLACES + 1 + TURNS + 2
          + PLACES + 1 + (1 + len(COLOURS) + len(FACES) + len(TAKEN_FLAGS) + 3) + 2 + len(EFFECTS) + 1 + 2 + 1)


_CARDS: dict[str, tuple[dict[int, int], int]] = {}


def _cards(cset: Any) -> tuple[dict[int, int], int]:
    """The progress cards' places in the tensor (by id), and how many (kept per set's digest)."""
    known = _CARDS.get(cset.digest)
    if known is None:
        ids = sorted(cset.progress_cards)
        known = _CARDS[cset.digest] = ({card: i for i, card in enumerate(ids)}, len(ids))
    return known


def size(options: Mapping[str, Any], players: Sequence[str]) -> int:
    from . import loading

    cset = loading.resolve(options["components"], options["components_digest"], options["components_data"])
    cards = _cards(cset)[1]
    return PLACES * (PER_MAT + 3 * cards) + cards + GLOBAL + len(HEXES) * PER_HEX


def _mat(f: Features, mat: Mat | None, cards: dict[int, int], count: int, points: int) -> None:
    if mat is None:
        f.values.extend([0.0] * (PER_MAT + 3 * count))
        return
    f.flag(True)
    f.counts((mat.fuel, mat.bucks), 10)  # 5.0: "never more than 10 fuel or SpaceBucks"
    for side in mat.tech:
        f.one_hot(side, 6)
    for column in mat.columns:
        f.one_hot(column - 1, 5)
    for row in mat.storage:
        f.counts(row, 3)
    f.counts((mat.contamination, mat.beside), 10)
    f.scaled(len(mat.drives), 5)
    f.scaled(sum(mat.drives), 15)
    f.scaled(len(mat.hand), 10)  # another player's hand: its size, all the seat sees of it
    f.counts((sum(d.colour == colour for d in mat.dice) for colour in COLOURS), 3)
    f.scaled(len(mat.used), 5)
    f.scaled(len(mat.stations), 5)
    f.counts((len(mat.planets_waiting), len(mat.planets_settled)), 5)
    f.scaled(len(mat.outposts), 10)
    f.counts((len(mat.hub_missions), len(mat.hub_bonus_waiting)), 4)
    f.scaled(points, 100)
    for pile in (mat.missions, mat.completed, mat.developments):
        flags = [0.0] * count
        for card in pile:
            flags[cards[card]] = 1.0
        f.values.extend(flags)


def encode(seen: State, seat: str) -> tuple[float, ...]:
    from .scoring import score

    cset = seen.cset
    cards, count = _cards(cset)
    n = len(seen.players)
    me = seen.index(seat)
    order = [(me + k) % n for k in range(n)]  # the seat, then the others in seating order
    rel = {i: k for k, i in enumerate(order)}
    totals = dict(score(seen).totals)
    f = Features()
    for k in range(PLACES):
        i = order[k] if k < n else None
        _mat(f, seen.mats[i] if i is not None else None, cards, count, totals.get(seen.players[i], 0) if i is not None else 0)
    hand = [0.0] * count
    for card in seen.mats[me].hand:  # the seat's own hand (5.0: "a player's hand is his own")
        hand[cards[card]] = 1.0
    f.values.extend(hand)
    f.counts(seen.bag, 10)
    f.counts((len(seen.deck), len(seen.discard)), count)  # sizes only (observation.py)
    f.scaled(len(seen.hubs), 8)
    f.counts((seen.resource_pool, seen.contamination_pool), 50)
    f.scaled(seen.drive_pool, 20)
    for dice in seen.bridge:
        for colour in COLOURS:
            f.counts((sum(d.colour == colour and d.face == face for d in dice) for face in FACES), 3)
    f.scaled(len(seen.setup_dice), 5)
    f.scaled(len(seen.hubs_built), 8)
    f.flags((seen.start_mode == "cards", seen.start_mode == "choose"))
    f.scaled(seen.dealt, PLACES)
    f.one_hot(rel.get(seen.start_player), PLACES)
    f.flag(seen.start_player < 0)
    f.one_hot(seen.turn, TURNS)
    f.flag(seen.turn_started)
    f.scaled(seen.turns_taken, PLACES)
    f.one_hot(rel[seen.actor], PLACES)
    f.flag(not seen.over and seen.actor == me)
    die = seen.die
    f.flag(die is not None)
    f.one_hot(COLOURS.index(die.colour) if die is not None and die.colour in COLOURS else None, len(COLOURS))
    f.one_hot(FACES.index(die.face) if die is not None and die.face in FACES else None, len(FACES))
    f.flags(bool(getattr(die, flag)) if die is not None else False for flag in TAKEN_FLAGS)
    f.counts((die.points, die.action_points, die.bought) if die is not None else (0, 0, 0), 10)
    f.counts((seen.drawing, seen.must_discard), 5)
    f.counts((sum(e.count for e in seen.effects if e.kind == kind) for kind in EFFECTS), 6)
    f.flag(any(e.player == seat for e in seen.effects))
    f.flag(me in seen.closing)
    f.scaled(len(seen.closing), PLACES)
    f.flag(seen.over)
    # the map: a planet face down or its colour, the figures by player and kind, the ships, the hubs
    hexes = [[0.0] * PER_HEX for _ in HEXES]
    for h, planet in seen.planets_on_map:
        cell = hexes[_HEX[h]]
        if planet < 0:
            cell[0] = 1.0
        else:
            cell[1 + COLOURS.index(cset.planets[planet].colour)] = 1.0
    base = 1 + len(COLOURS)
    for fig in seen.figures:
        cell = hexes[_HEX[fig.hex]]
        cell[base + rel[seen.index(fig.player)] * len(FIGURES) + FIGURES.index(fig.kind)] = 1.0
        if fig.outpost:
            cell[base + PLACES * len(FIGURES)] = 1.0
    base += PLACES * len(FIGURES) + 1
    for i, ship in enumerate(seen.ships):
        hexes[_HEX[ship]][base + rel[i]] = 1.0
    for _, h in seen.hub_hexes:
        hexes[_HEX[h]][base + PLACES] = 1.0
    if seen.revealing is not None:
        hexes[_HEX[seen.revealing]][base + PLACES + 1] = 1.0
    for cell in hexes:
        f.values.extend(cell)
    return f.done()
