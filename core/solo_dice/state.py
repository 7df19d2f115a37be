"""Solo Dice state and how each event changes it (one mutator per event type)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from .events import PairsChosen, Rolled

SUMS = tuple(range(2, 13))
FACES = tuple(range(1, 7))
MAX_LEFTOVER_NUMBERS = 3
ENDING_MARK = 8


@attrs.frozen
class State:
    player: str
    marks: tuple[int, ...] = (0,) * len(SUMS)  # marks per sum 2..12 (the left column)
    leftover_marks: tuple[int, ...] = (0,) * len(FACES)  # marks per leftover number 1..6 (the right)
    opened: tuple[int, ...] = ()  # the open leftover numbers, in the order they were opened
    free_throws: int = 0  # the F column
    roll: tuple[int, ...] | None = None  # the dice awaiting a selection
    rolls: int = 0
    ended_by: int | None = None  # the leftover number that received its eighth mark

    def marks_of(self, total: int) -> int:
        return self.marks[total - 2]

    def leftover_marks_of(self, face: int) -> int:
        return self.leftover_marks[face - 1]

    @property
    def over(self) -> bool:
        return self.ended_by is not None


# The mutators build the next State field by field rather than through ``attrs.evolve``, which looks
# every field up again per event; the tuples that did not change are shared, never copied. Fields go
# positionally, in State's order (player, marks, leftover_marks, opened, free_throws, roll, rolls,
# ended_by): keyword arguments cost a third more per event.
def _rolled(state: State, event: Rolled) -> State:
    s = state
    return State(s.player, s.marks, s.leftover_marks, s.opened, s.free_throws, tuple(event.dice), s.rolls + 1, s.ended_by)


def _pairs_chosen(state: State, event: PairsChosen) -> State:
    s = state
    marks = list(s.marks)
    first, second = event.first, event.second
    marks[first[0] + first[1] - 2] += 1
    marks[second[0] + second[1] - 2] += 1
    if event.free_throw:
        return State(s.player, tuple(marks), s.leftover_marks, s.opened, s.free_throws + 1, None, s.rolls, s.ended_by)
    leftover = event.leftover
    leftover_marks = list(s.leftover_marks)
    leftover_marks[leftover - 1] += 1
    opened = s.opened if leftover in s.opened else (*s.opened, leftover)
    ended_by = leftover if leftover_marks[leftover - 1] >= ENDING_MARK else None
    return State(s.player, tuple(marks), tuple(leftover_marks), opened, s.free_throws, None, s.rolls, ended_by)


MUTATORS: dict[type, Callable[[State, Any], State]] = {Rolled: _rolled, PairsChosen: _pairs_chosen}


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)
