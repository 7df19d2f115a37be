"""Solo Dice's observation tensor (docs/ai.md, "Observation tensors"): the score pad and the roll.

Everything is public in Solo Dice (observation.py), so the player's tensor is the whole pad: the
marks of each sum and leftover number, the open leftover numbers, the free throws and the dice rolled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..tensors import Features
from .state import ENDING_MARK, FACES, MAX_LEFTOVER_NUMBERS, SUMS, State

MARKS_SEEN = 12  # 0..10 marks per sum, then 11+ (004: "beyond the 10th score nothing")
DICE = 5
# marks per sum one-hot; marks per leftover number one-hot (0..8); the open leftover numbers and how
# many; free throws; the roll (there is one; the dice per face; each die, sorted, one-hot); rolls; over
SIZE = (len(SUMS) * MARKS_SEEN + len(FACES) * (ENDING_MARK + 1) + len(FACES) + MAX_LEFTOVER_NUMBERS + 1 + 1
        + 1 + len(FACES) + DICE * len(FACES) + 1 + 1)


def size(options: Mapping[str, Any], players: Sequence[str]) -> int:
    return SIZE


def encode(seen: State, seat: str) -> tuple[float, ...]:
    f = Features()
    for marks in seen.marks:
        f.one_hot(marks, MARKS_SEEN)
    for marks in seen.leftover_marks:
        f.one_hot(marks, ENDING_MARK + 1)
    f.flags(face in seen.opened for face in FACES)
    f.one_hot(len(seen.opened), MAX_LEFTOVER_NUMBERS + 1)  # 004: at most three leftover numbers
    f.scaled(seen.free_throws, 10)
    roll = tuple(sorted(seen.roll)) if seen.roll is not None else ()
    f.flag(bool(roll))
    f.counts((roll.count(face) for face in FACES), DICE)
    for i in range(DICE):
        f.one_hot(roll[i] - 1 if i < len(roll) else None, len(FACES))
    f.scaled(seen.rolls, 100)
    f.flag(seen.over)
    return f.done()
