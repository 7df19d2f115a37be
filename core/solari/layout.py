"""Start layouts: the house layout for 2, 3 and 4 sides, and the compact ``layout`` option notation.

Layout notation: pieces separated by commas (spaces allowed), each ``SQUARE:CODE``. CODE is the side's
initial (U, N, S, J) followed by a comet's number and facing (``U3E``: Uranus comet 3 facing east) or
by ``c``, ``b``, ``d`` for the chaser, blocker, doubler (``Sd``: Saturn's doubler). Example:
``33:U1N,34:U2E,35:U3E,00:Ud``. Case does not matter.
"""

from __future__ import annotations

import re

from ..errors import InvalidSetup
from ..words import quoted
from .board import BLOCKER, CHASER, COMET, DOUBLER, FACINGS, MARGIN, SIDES, Board, Piece, board_from

KIND_CODE = {CHASER: "c", BLOCKER: "b", DOUBLER: "d"}
CODE_KIND = {v: k for k, v in KIND_CODE.items()}
INITIAL = {s[0]: s for s in SIDES}

# Uranus's quarter (the top-left): doubler on the corner, blocker and chaser on the diagonal, two
# comets on the inner ring and four on the middle ring, every one facing towards the sun.
BASE = (
    (0, Piece("Uranus", DOUBLER)),
    (11, Piece("Uranus", BLOCKER)),
    (22, Piece("Uranus", CHASER)),
    (12, Piece("Uranus", COMET, 1, "S")),
    (13, Piece("Uranus", COMET, 2, "S")),
    (21, Piece("Uranus", COMET, 3, "E")),
    (31, Piece("Uranus", COMET, 4, "E")),
    (23, Piece("Uranus", COMET, 5, "S")),
    (32, Piece("Uranus", COMET, 6, "E")),
)

# The quarter each seat takes: quarter k is the top-left quarter turned k times a quarter clockwise.
QUARTERS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def rotate(sq: int, turns: int) -> int:
    r, c = divmod(sq, 10)
    for _ in range(turns % 4):
        r, c = c, 7 - r
    return r * 10 + c


def rotate_facing(facing: str | None, turns: int) -> str | None:
    if facing is None:
        return None
    return FACINGS[(FACINGS.index(facing) + turns) % 4]


def house_layout(sides: tuple[str, ...], chasers: bool = True, blockers: bool = True, doublers: bool = True) -> Board:
    """The house layout: seat k's pieces are Uranus's quarter turned onto quarter QUARTERS[n][k]."""
    off = {CHASER: not chasers, BLOCKER: not blockers, DOUBLER: not doublers}
    pieces: dict[int, Piece] = {}
    for side, turns in zip(sides, QUARTERS[len(sides)]):
        for sq, p in BASE:
            if off.get(p.kind):
                continue
            pieces[rotate(sq, turns)] = Piece(side, p.kind, p.number, rotate_facing(p.facing, turns))
    return board_from(pieces)


def piece_code(p: Piece) -> str:
    if p.kind == COMET:
        return f"{p.side[0]}{p.number}{p.facing}"
    return f"{p.side[0]}{KIND_CODE[p.kind]}"


def format_layout(board: Board) -> str:
    return ",".join(f"{sq:02d}:{piece_code(p)}" for sq, p in board)


_ITEM = re.compile(r"^([0-7])([0-7])\s*:\s*([UNSJ])(?:([1-6])([NESW])|([CBD]))$", re.I)


def parse_layout(text: str) -> Board:
    pieces: dict[int, Piece] = {}
    seen: set[tuple[str, str, int]] = set()
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        m = _ITEM.match(item)
        if not m:
            raise InvalidSetup(
                f"layout item {quoted(item)} is not SQUARE:CODE, e.g. '33:U1N' (Uranus comet 1 facing north) or '00:Ud'"
            )
        sq = int(m.group(1) + m.group(2))
        side = INITIAL[m.group(3).upper()]
        if m.group(4):
            p = Piece(side, COMET, int(m.group(4)), m.group(5).upper())
        else:
            p = Piece(side, CODE_KIND[m.group(6).lower()])
        if sq in pieces:
            raise InvalidSetup(f"layout puts two pieces on square {sq:02d}")
        key = (p.side, p.kind, p.number)
        if key in seen:
            raise InvalidSetup(f"layout lists {piece_code(p)[:-1] if p.kind == COMET else piece_code(p)} twice")
        seen.add(key)
        if p.kind == DOUBLER and sq not in MARGIN:
            raise InvalidSetup(f"a doubler stands on the margin squares, not on {sq:02d}")
        pieces[sq] = p
    if not pieces:
        raise InvalidSetup("the layout lists no piece")
    return board_from(pieces)
