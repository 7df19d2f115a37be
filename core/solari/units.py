"""Solari unit detection: the rows, the sun, the sequences and the orientations of one side's comets.

A *row* is a gap-free run of at least three of the side's own comets along one of the board's
``LINES`` (rows, columns, diagonals). Anything else on a square breaks it: an empty square, a comet
of a partner or an opponent, and any quadrangular piece, own or not (000: "Rows built by the partner
are not scored, everyone must score with his own comets."; "These quadrangular pieces have their
own skills. They don't count in rows.").

The *sun* (squares 33, 34, 44, 43) holding three or four of the side's comets is one more row-like
unit (000: "Occupying the center fields with 3 or 4 comets count as row of three or row of four.").
Its order is the ring 33 -> 34 -> 44 -> 43 -> 33 (clockwise); with three comets the arc starts after
the square that is not the side's.

Within a row (or the sun), a *sequence* is a maximal stretch of at least three comets whose numbers
step by +1 all along or by -1 all along (no wrap: 6 then 1 is no step); an *orientation* is a
maximal stretch of at least three comets with the same facing. A sub-unit is *full* when it covers
its whole row, else *partial*.

Each unit has an identity ``key`` that scoring compares between the boards before and after a move:
the set of squares for rows and the sun, the set of (square, number) for sequences and the set of
(square, facing) for orientations.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .board import COMET, LINES, SUN, Piece

ROW, SUN_KIND, SEQUENCE, ORIENTATION = "row", "sun", "sequence", "orientation"


@attrs.frozen
class Sub:
    """A sequence or orientation inside a row or the sun."""

    kind: str  # SEQUENCE or ORIENTATION
    squares: tuple[int, ...]  # in line order (or the sun's arc order)
    key: frozenset
    full: bool
    detail: str  # "1-2-3 ascending", "facing N"
    comets: frozenset[int] = frozenset()  # the numbers of its comets (one side: a number is a comet)


@attrs.frozen
class Group:
    """A row (or the sun) of one side's comets with the sequences and orientations inside it."""

    kind: str  # ROW or SUN_KIND
    squares: tuple[int, ...]
    key: frozenset
    line: tuple[int, ...] | None  # the full board line; None for the sun
    sequences: tuple[Sub, ...]
    orientations: tuple[Sub, ...]
    comets: frozenset[int] = frozenset()  # the numbers of its comets


def _stretches(values: list, step_ok) -> list[tuple[int, int]]:
    """Maximal index ranges [i, j) of length >= 3 whose consecutive steps are all the same accepted step."""
    found = []
    n = len(values)
    i = 0
    while i < n - 1:
        step = step_ok(values[i], values[i + 1])
        if step is None:
            i += 1
            continue
        j = i + 1
        while j + 1 < n and step_ok(values[j], values[j + 1]) == step:
            j += 1
        if j - i + 1 >= 3:
            found.append((i, j + 1))
        i = j
    return found


def _number_step(a: int, b: int) -> int | None:
    d = b - a
    return d if d in (1, -1) else None


def _facing_step(a: str | None, b: str | None) -> str | None:
    return a if a is not None and a == b else None


def _subs(arc: tuple[int, ...], comets: dict[int, Piece], sequences: bool, orientations: bool, cyclic: bool) -> tuple[tuple[Sub, ...], tuple[Sub, ...]]:
    """Sequences and orientations along ``arc``; ``cyclic`` (the full sun) also reads every rotation."""
    starts = range(len(arc)) if cyclic else (0,)
    seqs: dict[frozenset, Sub] = {}
    oris: dict[frozenset, Sub] = {}

    n = len(arc)
    for s in starts:
        order = arc[s:] + arc[:s]
        if sequences:
            nums = [comets[q].number for q in order]
            for i, j in _stretches(nums, _number_step):
                sq = order[i:j]
                key = frozenset((q, comets[q].number) for q in sq)
                if key not in seqs:
                    way = "ascending" if nums[i + 1] > nums[i] else "descending"
                    detail = f"{'-'.join(str(v) for v in nums[i:j])} {way}"
                    seqs[key] = Sub(SEQUENCE, sq, key, j - i == n, detail, _numbers(comets, sq))
        if orientations:
            faces = [comets[q].facing for q in order]
            for i, j in _stretches(faces, _facing_step):
                sq = order[i:j]
                facing_key = frozenset((q, faces[i]) for q in sq)
                if facing_key not in oris:
                    oris[facing_key] = Sub(ORIENTATION, sq, facing_key, j - i == n, f"facing {faces[i]}", _numbers(comets, sq))
    return _maximal(seqs.values()), _maximal(oris.values())


def _maximal(subs: Iterable[Sub]) -> tuple[Sub, ...]:
    """Drop stretches contained in a longer one (only the cyclic sun reading can produce them)."""
    subs = list(subs)
    full = [x for x in subs if x.full]
    if full:
        return (full[0],)
    return tuple(x for x in subs if not any(x.key < y.key for y in subs))


def _numbers(comets: dict[int, Piece], squares: tuple[int, ...]) -> frozenset[int]:
    return frozenset(comets[q].number for q in squares)


# square -> the indices in LINES of the lines through it (scoring reads the few lines that hold three
# or more of a side's comets, not all of them, on every move)
LINES_THROUGH: dict[int, tuple[int, ...]] = {
    q: tuple(i for i, line in enumerate(LINES) if q in line) for q in {q for line in LINES for q in line}
}


def own_comets(pieces: dict[int, Piece], side: str) -> dict[int, Piece]:
    return {q: p for q, p in pieces.items() if p.side == side and p.kind == COMET}


def groups(pieces: dict[int, Piece], side: str, sequences: bool = True, orientations: bool = True) -> list[Group]:
    """Every row and the sun of ``side``'s comets, in board-line order (the sun last)."""
    comets = own_comets(pieces, side)
    found: list[Group] = []
    if len(comets) < 3:
        return found
    crossed: dict[int, int] = {}  # a line's index in LINES -> how many of the comets lie on it
    for q in comets:
        for i in LINES_THROUGH.get(q, ()):
            crossed[i] = crossed.get(i, 0) + 1
    for i in sorted(i for i, n in crossed.items() if n >= 3):  # a row needs three comets on its line
        line = LINES[i]
        run: list[int] = []
        for q in line + (-1,):  # -1: a sentinel that ends the last run
            if q in comets:
                run.append(q)
                continue
            if len(run) >= 3:
                sq = tuple(run)
                seqs, oris = _subs(sq, comets, sequences, orientations, cyclic=False)
                found.append(Group(ROW, sq, frozenset(sq), line, seqs, oris, _numbers(comets, sq)))
            run = []
    held = [q in comets for q in SUN]
    count = sum(held)
    if count == 4:
        seqs, oris = _subs(SUN, comets, sequences, orientations, cyclic=True)
        found.append(Group(SUN_KIND, SUN, frozenset(SUN), None, seqs, oris, _numbers(comets, SUN)))
    elif count == 3:
        gap = held.index(False)
        arc = tuple(SUN[(gap + k) % 4] for k in (1, 2, 3))
        seqs, oris = _subs(arc, comets, sequences, orientations, cyclic=False)
        found.append(Group(SUN_KIND, arc, frozenset(arc), None, seqs, oris, _numbers(comets, arc)))
    return found
