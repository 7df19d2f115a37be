"""The Solari board: squares, lines, rings and the pieces on it (shared by rules and scoring).

Squares are two-digit numbers ``rc`` (row r, column c, each 0-7): 00 is the top-left corner, 77 the
bottom-right (notes.md: "Board coordinates 00-77 (8x8)"). Facings are the compass directions of a
comet's last move: N = towards row 0, S = towards row 7, W = towards column 0, E = towards column 7.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

SIDES = ("Uranus", "Neptune", "Saturn", "Jupiter")
COMET, CHASER, BLOCKER, DOUBLER = "comet", "chaser", "blocker", "doubler"
KINDS = (COMET, CHASER, BLOCKER, DOUBLER)
FACINGS = ("N", "E", "S", "W")
STEP = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}

SUN = (33, 34, 44, 43)  # clockwise from the top-left, for clockwise sequences in the sun
MARGIN = tuple(sorted(r * 10 + c for r in range(8) for c in range(8) if r in (0, 7) or c in (0, 7)))


def square(row: int, col: int) -> int:
    return row * 10 + col


def row_col(sq: int) -> tuple[int, int]:
    return divmod(sq, 10)


def on_board(row: int, col: int) -> bool:
    return 0 <= row < 8 and 0 <= col < 8


def name(sq: int) -> str:
    return f"{sq:02d}"


@attrs.frozen
class Piece:
    side: str  # one of SIDES
    kind: str  # one of KINDS
    number: int = 0  # comets 1-6; 0 for the quadrangular pieces
    facing: str | None = None  # comets only: one of FACINGS

    @property
    def label(self) -> str:
        """Short text, e.g. ``U3>`` for Uranus comet 3 facing east, ``Uc`` Uranus chaser."""
        initial = self.side[0]
        if self.kind == COMET:
            arrow = {"N": "^", "E": ">", "S": "v", "W": "<", None: "?"}[self.facing]
            return f"{initial}{self.number}{arrow}"
        return f"{initial}{self.kind[0]}"


# A board is a tuple of (square, piece) pairs sorted by square: hashable and canonical.
Board = tuple[tuple[int, Piece], ...]


def board_from(pieces: dict[int, Piece]) -> Board:
    return tuple(sorted(pieces.items()))


def as_dict(board: Board) -> dict[int, Piece]:
    return dict(board)


def lines() -> Iterator[tuple[int, ...]]:
    """Every full line of the board: 8 rows, 8 columns, and the diagonals of length >= 3."""
    for r in range(8):
        yield tuple(square(r, c) for c in range(8))
    for c in range(8):
        yield tuple(square(r, c) for r in range(8))
    for d in range(-5, 6):  # r - c = d
        diag = tuple(square(r, r - d) for r in range(8) if on_board(r, r - d))
        if len(diag) >= 3:
            yield diag
    for s in range(2, 13):  # r + c = s
        anti = tuple(square(r, s - r) for r in range(8) if on_board(r, s - r))
        if len(anti) >= 3:
            yield anti


LINES = tuple(lines())
