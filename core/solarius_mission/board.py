"""Space (003 2.1, 4.0): hexes, the seven tiles as placed, and the pure geometry of a flight.

Coordinates are axial ``(q, r)`` on pointy-top hexes (rows run left to right, ``r`` grows downward),
the home planet at ``(0, 0)``. Every tile of the house layout is a hexagon of 19 hexes (radius 2);
the centre tile lies around the home planet, the six outer tiles around it at positions 0-5,
clockwise from the top. "The other six tiles are placed circularly and in any alignment around the
center" (4.0): a tile's rotation 0-5 turns it clockwise by 60 degrees per step around its own middle.

The notation a person reads off the board: the tile's letter and the hex's number printed on that
tile — ``H`` for the centre (home) tile, ``A``-``F`` for the outer tiles; on each tile 0 is the
middle, 1-6 the inner ring and 7-18 the outer ring, each clockwise from the top of the tile as
printed (so the numbers turn with the tile). ``H0`` (or ``H``) is the home planet. Axial ``q,r`` is
accepted too, for tools.
"""

from __future__ import annotations

import functools
import math
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence

import attrs

from .. import frozen
from ..errors import InvalidCommand
from ..words import quoted

CENTRE = "centre"
CENTRE_LETTER = "H"  # the home tile, in the notation
OUTER = ("A", "B", "C", "D", "E", "F")
RADIUS = 2  # every tile is a hexagon of radius 2: 19 hexes
TILE_SIZE = 1 + 3 * RADIUS * (RADIUS + 1)
KINDS = ("home", "planet", "portal", "hub", "empty")
# The layout's words for a hex: a planet space carries its marking (4.0 "Spaces showing a 3 ...").
LAYOUT_KINDS = {
    "home": ("home", ""), "planet": ("planet", ""), "planet-3": ("planet", "3"), "planet-4": ("planet", "4"),
    "portal": ("portal", ""), "hub": ("hub", ""), "empty": ("empty", ""),
}


@frozen.value
class Hex:
    """A hex in axial coordinates; the home planet is ``Hex(0, 0)``. Ordered by ``(q, r)``, as
    ``attrs``' ``order=True`` orders it. Its comparisons are written out: a board sorts its hexes
    once per process (some thousand comparisons: attrs' generic ones cost a few milliseconds of
    start-up), and hexes are the keys of every map a flight search reads (``frozen.value``'s shared
    equality and hash are slower than these)."""

    q: int
    r: int

    def __iter__(self) -> Iterator[int]:
        return iter((self.q, self.r))

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.q == other.q and self.r == other.r

    def __hash__(self) -> int:
        return hash((self.q, self.r))

    def __lt__(self, other: Hex) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.q, self.r) < (other.q, other.r)

    def __le__(self, other: Hex) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.q, self.r) <= (other.q, other.r)

    def __gt__(self, other: Hex) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.q, self.r) > (other.q, other.r)

    def __ge__(self, other: Hex) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.q, self.r) >= (other.q, other.r)


HOME = Hex(0, 0)
# Pointy-top directions, clockwise from the upper right: NE, E, SE, SW, W, NW.
DIRECTIONS = (Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1))


def add(a: Hex, b: Hex) -> Hex:
    return Hex(a.q + b.q, a.r + b.r)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``, clockwise from the upper right."""
    return tuple(add(h, d) for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate(h: Hex, steps: int) -> Hex:
    """Turn ``h`` clockwise about the origin by 60 degrees per step."""
    q, r = h.q, h.r
    for _ in range(steps % 6):
        q, r = -r, q + r
    return Hex(q, r)


def _clockwise_from_top(h: Hex) -> float:
    x = math.sqrt(3) * (h.q + h.r / 2)
    y = 1.5 * h.r
    return math.atan2(x, -y) % (2 * math.pi)


def _tile_offsets() -> tuple[Hex, ...]:
    """Offset of each numbered hex from its tile's middle, unrotated: 0, then each ring clockwise from the top."""
    out = [Hex(0, 0)]
    for ring in range(1, RADIUS + 1):
        hexes = [Hex(q, r) for q in range(-ring, ring + 1) for r in range(-ring, ring + 1) if distance(Hex(q, r), HOME) == ring]
        out.extend(sorted(hexes, key=lambda h: round(_clockwise_from_top(h), 9)))
    return tuple(out)


TILE_OFFSETS = _tile_offsets()
# The middle of the outer tile at position 0 (top); the others are it turned clockwise. Radius-2
# hexagons interlock when their middles are 5 apart at this skew (checked by the tests).
POSITION_0 = Hex(2, -5)
POSITIONS = tuple(rotate(POSITION_0, p) for p in range(6))


@attrs.frozen
class Space:
    """One hex of the board: which tile and number it is, and what is printed there."""

    tile: str  # "centre" or "A".."F"
    number: int
    kind: str  # home, planet, portal, hub, empty
    marking: str = ""  # a planet space's "3" / "4", else ""


@attrs.frozen(repr=False)
class Board:
    """The seven tiles as placed (4.0). ``placement`` names the tile and its rotation per outer position."""

    placement: tuple[tuple[str, int], ...]
    spaces: Mapping[Hex, Space]
    labels: Mapping[str, Hex]
    # computed once (build): every hex sorted, the portals and the hub spaces among them — asked for
    # at every step of a flight search, so never sorted again
    hexes: tuple[Hex, ...] = attrs.field(init=False)
    portals: tuple[Hex, ...] = attrs.field(init=False)
    hub_hexes: tuple[Hex, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        hexes = tuple(sorted(self.spaces))
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "portals", tuple(h for h in hexes if self.spaces[h].kind == "portal"))
        object.__setattr__(self, "hub_hexes", tuple(h for h in hexes if self.spaces[h].kind == "hub"))

    def __repr__(self) -> str:
        return f"<Board tiles {' '.join(f'{t}{r}' for t, r in self.placement)}, {len(self.spaces)} hexes>"

    def __contains__(self, h: object) -> bool:
        return h in self.spaces

    def space(self, h: Hex) -> Space:
        return self.spaces[h]

    def adjacent(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of ``h`` that are on the board (across tile borders too)."""
        return tuple(n for n in neighbours(h) if n in self.spaces)

    def kind(self, h: Hex) -> str:
        return self.spaces[h].kind

    def marking(self, h: Hex) -> str:
        return self.spaces[h].marking

    def tile(self, h: Hex) -> str:
        return self.spaces[h].tile

    def hub_hex(self, tile: str) -> Hex:
        """003 9.1: "The letter on the flipside (A-F) tells the players on which space the commercial hub is placed"."""
        (h,) = (h for h, s in self.spaces.items() if s.kind == "hub" and s.tile == tile)
        return h

    def planet_spaces(self, players: int) -> tuple[Hex, ...]:
        """The planet spaces in use (4.0). Centre: "Spaces showing a 3 are only used in a 3 player game";
        outer tiles: "planet spaces with number 3 are used only in 3- or 4-player-games, planet spaces with
        number 4 are used only in 4-player-games"."""
        out = []
        for h in self.hexes:
            s = self.spaces[h]
            if s.kind != "planet":
                continue
            if s.marking == "" or (s.marking == "3" and (players == 3 if s.tile == CENTRE else players >= 3)) or (
                s.marking == "4" and players == 4
            ):
                out.append(h)
        return tuple(out)

    def label(self, h: Hex) -> str:
        s = self.spaces[h]
        return f"{CENTRE_LETTER if s.tile == CENTRE else s.tile}{s.number}"

    def tile_hexes(self, tile: str) -> tuple[Hex, ...]:
        return tuple(h for h in self.hexes if self.spaces[h].tile == tile)


def build(layouts: Mapping[str, Sequence[str]], placement: Sequence[tuple[str, int]]) -> Board:
    """The board from the set's tile layouts (name -> 19 layout kinds by hex number) and a placement."""
    spaces: dict[Hex, Space] = {}
    labels: dict[str, Hex] = {}
    tiles = [(CENTRE, HOME, 0), *((letter, POSITIONS[p], rot) for p, (letter, rot) in enumerate(placement))]
    for name, middle, rot in tiles:
        for number, word in enumerate(layouts[name]):
            kind, marking = LAYOUT_KINDS[word]
            h = add(middle, rotate(TILE_OFFSETS[number], rot))
            spaces[h] = Space(name, number, kind, marking)
            labels[f"{CENTRE_LETTER if name == CENTRE else name}{number}"] = h
    return Board(tuple((str(t), int(r)) for t, r in placement), spaces, labels)


@functools.lru_cache(maxsize=256)
def _cached(layouts: tuple[tuple[str, tuple[str, ...]], ...], placement: tuple[tuple[str, int], ...]) -> Board:
    return build(dict(layouts), placement)


def board_of(layouts: Mapping[str, Sequence[str]], placement: tuple[tuple[str, int], ...]) -> Board:
    """The board, built once per set and placement."""
    return _cached(tuple(sorted((k, tuple(v)) for k, v in layouts.items())), placement)


# -- the notation -----------------------------------------------------------------------------------------

_LABEL = re.compile(r"^([A-FH])(\d{1,2})?$")
_AXIAL = re.compile(r"^(-?\d+),(-?\d+)$")


def parse_hex(text: str, board: Board | None = None) -> Hex:
    """``B7`` (tile letter and the hex number printed on it; ``H``/``H0`` the home planet) or ``q,r``.

    The tile form needs the board (it depends on where the tile lies); raises InvalidCommand with a
    one-line reason."""
    t = text.strip()
    m = _AXIAL.match(t)
    if m:
        h = Hex(int(m.group(1)), int(m.group(2)))
        if board is not None and h not in board:
            raise InvalidCommand(f"{quoted(t)} is not a hex of the board")
        return h
    m = _LABEL.match(t.upper())
    if not m:
        raise InvalidCommand(
            f"{quoted(t)} is not a hex: write the tile (H for the centre, A-F) and the hex's number 0-{TILE_SIZE - 1}, "
            "e.g. B7, or axial q,r"
        )
    letter, number = m.group(1), int(m.group(2) or 0)
    if m.group(2) is None and letter != CENTRE_LETTER:
        raise InvalidCommand(f"{quoted(t)} is not a hex: give the hex's number on tile {letter}, 0-{TILE_SIZE - 1}")
    if number >= TILE_SIZE:
        raise InvalidCommand(f"{quoted(t)} is not a hex: a tile's hexes are numbered 0-{TILE_SIZE - 1}")
    if board is None:
        if letter != CENTRE_LETTER:
            raise InvalidCommand(f"{quoted(t)} names a hex of an outer tile; where it lies depends on the tiles placed")
        return TILE_OFFSETS[number]
    if f"{letter}{number}" not in board.labels:
        raise InvalidCommand(f"{quoted(t)} is not a hex of the board (tile {letter} is not placed)")
    return board.labels[f"{letter}{number}"]


def format_hex(h: Hex, board: Board | None = None) -> str:
    """The tile form when the board is known (``B7``), else axial ``q,r``."""
    if board is not None and h in board:
        return board.label(h)
    return f"{h.q},{h.r}"


# -- flight geometry (003 9.2 B II) ------------------------------------------------------------------------


def moves(board: Board, h: Hex, portals_active: bool) -> Iterable[Hex]:
    """Where one point of range takes a ship from ``h``: an adjacent hex of the board, or, with the
    portals active, any other portal ("he may jump from one portal hexagon to any other portal hexagon.
    This jump costs 1 range")."""
    for n in neighbours(h):
        if n in board.spaces:
            yield n
    if portals_active and board.spaces[h].kind == "portal":
        for p in board.portals:
            if p != h:
                yield p


def reach(board: Board, occupied: Iterable[Hex], start: Hex, range_: int, portals_active: bool) -> dict[Hex, int]:
    """The minimal cost of a flight from ``start`` to every hex it may end on within ``range_``.

    "The player may, however, fly over any hexagon" — ``occupied`` (the hexes the flight may not end
    on: other players' figures and ships, hubs) are flown over freely but left out of the answer. The
    start costs 0: "with a range of 3 he may fly between 0 and 3 hexagons"."""
    cost = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if cost[h] >= range_:
            continue
        for n in moves(board, h, portals_active):
            if n not in cost:
                cost[n] = cost[h] + 1
                queue.append(n)
    blocked = set(occupied)
    return {h: c for h, c in cost.items() if h not in blocked}


def check_path(
    board: Board, occupied: Iterable[Hex], path: Sequence[Hex], range_: int, portals_active: bool,
) -> str | None:
    """Why this flight may not be flown, naming the first bad step; None when it may.

    ``path`` starts on the ship's hex; each next hex is adjacent (a step) or, with the portals active,
    another portal (a jump); each costs 1 range."""
    if not path:
        return "a flight starts on the ship's hex"
    if path[0] not in board:
        return f"the flight starts off the board at {format_hex(path[0], board)}"
    for i, (a, b) in enumerate(zip(path, path[1:]), start=1):
        where = f"step {i} ({format_hex(a, board)} -> {format_hex(b, board)})"
        if b not in board:
            return f"{where} leaves the board"
        if distance(a, b) == 1:
            pass
        elif board.kind(a) == "portal" and board.kind(b) == "portal" and a != b:
            if not portals_active:
                return f"{where} is a jump between portals, but the portals are not active"
        elif a == b:
            return f"{where} does not move"
        else:
            return f"{where} is not to an adjacent hex (distance {distance(a, b)})"
        if i > range_:
            return f"{where} is beyond the range of {range_}"
    if path[-1] in set(occupied):
        return f"the flight may not end on {format_hex(path[-1], board)}"
    return None
