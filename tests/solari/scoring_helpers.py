"""Small builders for Solari scoring tests: boards from {square: piece} and quick scoring."""

from __future__ import annotations

from solrec.core.solari.board import Piece, board_from
from solrec.core.solari.scoring import ScoringRules, score_move

U, N, S, J = "Uranus", "Neptune", "Saturn", "Jupiter"


def comet(number: int, facing: str = "N", side: str = U) -> Piece:
    return Piece(side, "comet", number, facing)


def doubler(side: str = U) -> Piece:
    return Piece(side, "doubler")


def chaser(side: str = U) -> Piece:
    return Piece(side, "chaser")


def blocker(side: str = U) -> Piece:
    return Piece(side, "blocker")


def row_of(squares, numbers, facings=None, side: str = U) -> dict:
    """Comets with ``numbers`` (and ``facings``, default distinct-ish N,E,S,W cycling) on ``squares``."""
    facings = facings or ["N", "E", "S", "W", "N", "E"][: len(numbers)]
    return {q: comet(n, f, side) for q, n, f in zip(squares, numbers, facings)}


def board(*parts: dict):
    pieces: dict = {}
    for part in parts:
        pieces.update(part)
    return board_from(pieces)


def score(before, after, mover: str = U, moved=(), **rules):
    return score_move(before, after, mover, tuple(moved), ScoringRules(**rules))


def total(units) -> int:
    return sum(u.points for u in units)


def kinds(units) -> list[tuple[str, int, bool, int]]:
    return [(u.kind, len(u.squares), u.full, u.value) for u in units]
