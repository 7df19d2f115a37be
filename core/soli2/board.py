"""The 7x7 board: files a-g left to right, ranks 1-7 bottom to top (rank 7 at the top, as in a chess
diagram), center d4 (notes.md; docs/rules/soli2.md "Board").

A board is 49 characters, one per pocket, in reading order: a7 b7 .. g7, a6 .. g6, .., a1 .. g1.
That is exactly the order in which SOLI2 solitaire fills the pockets ("left-to-right,
top-to-bottom"), so the index of a pocket is its place in that order.
"""

from __future__ import annotations

import re

FILES = "abcdefg"
SIZE = 7
POCKETS = SIZE * SIZE
EMPTY = "."
BLACK = "black"
WHITE = "white"
COLORS = (BLACK, WHITE)
MARK = {BLACK: "b", WHITE: "w"}
COLOR_OF_MARK = {"b": BLACK, "w": WHITE}
CENTER_NAME = "d4"
_SQUARE = re.compile(r"^([a-g])([1-7])$")


def opposite(color: str) -> str:
    return WHITE if color == BLACK else BLACK


def _index(name: str) -> int:
    file, rank = FILES.index(name[0]), int(name[1])
    return (SIZE - rank) * SIZE + file


def _name(i: int) -> str:
    return f"{FILES[i % SIZE]}{SIZE - i // SIZE}"


SQUARES = tuple(_name(i) for i in range(SIZE * SIZE))
_INDEX = {sq: i for i, sq in enumerate(SQUARES)}
# pocket indices sorted by their names (a1, a2, .., g7): the order in which pockets are listed
BY_NAME = tuple(sorted(range(SIZE * SIZE), key=lambda i: SQUARES[i]))


def index(name: str) -> int:
    return _INDEX[name]


def name(i: int) -> str:
    return SQUARES[i]


def coords(i: int) -> tuple[int, int]:
    """(file 0-6, rank 1-7)."""
    return i % SIZE, SIZE - i // SIZE


def is_square(text: str) -> bool:
    return bool(_SQUARE.match(text))


CENTER = index(CENTER_NAME)


def distance(i: int) -> int:
    """Horizontal plus vertical distance to the center d4."""
    f, r = coords(i)
    cf, cr = coords(CENTER)
    return abs(f - cf) + abs(r - cr)


DISTANCE = tuple(distance(i) for i in range(POCKETS))

# SOLI2 solitaire fills every pocket but the center, in reading order.
FILL_ORDER = tuple(i for i in range(POCKETS) if i != CENTER)


def _jumps_from(i: int) -> tuple[tuple[int, int], ...]:
    f, r = coords(i)
    out = []
    for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        tf, tr = f + 2 * df, r + 2 * dr
        if 0 <= tf < SIZE and 1 <= tr <= SIZE:
            out.append((index(f"{FILES[f + df]}{r + dr}"), index(f"{FILES[tf]}{tr}")))
    return tuple(out)


# For each pocket: the (over, to) pockets of the up to four straight jumps starting there.
JUMPS = tuple(_jumps_from(i) for i in range(POCKETS))

EMPTY_BOARD = EMPTY * POCKETS


def rows(flat: str) -> tuple[str, ...]:
    """The board as 7 strings, rank 7 first (as it is stored in the state)."""
    return tuple(flat[k * SIZE : (k + 1) * SIZE] for k in range(SIZE))


def classic_mark(i: int) -> str:
    """Classic solitaire's starting colors: a checkerboard with a1 black (colors play no part there)."""
    f, r = coords(i)
    return "b" if (f + r - 1) % 2 == 0 else "w"


CLASSIC_BOARD = "".join(EMPTY if i == CENTER else classic_mark(i) for i in range(POCKETS))
