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
# every field up again per event; the tuples that did not change are shared, never copied.
def _rolled(state: State, event: Rolled) -> State:
    return State(
        player=state.player, marks=state.marks, leftover_marks=state.leftover_marks, opened=state.opened,
        free_throws=state.free_throws, roll=tuple(event.dice), rolls=state.rolls + 1, ended_by=state.ended_by,
    )


def _pairs_chosen(state: State, event: PairsChosen) -> State:
    marks = list(state.marks)
    for pair in (event.first, event.second):
        marks[sum(pair) - 2] += 1
    if event.free_throw:
        return State(
            player=state.player, marks=tuple(marks), leftover_marks=state.leftover_marks, opened=state.opened,
            free_throws=state.free_throws + 1, roll=None, rolls=state.rolls, ended_by=state.ended_by,
        )
    leftover_marks = list(state.leftover_marks)
    leftover_marks[event.leftover - 1] += 1
    opened = state.opened if event.leftover in state.opened else (*state.opened, event.leftover)
    ended_by = event.leftover if leftover_marks[event.leftover - 1] >= ENDING_MARK else None
    return State(
        player=state.player, marks=tuple(marks), leftover_marks=tuple(leftover_marks), opened=opened,
        free_throws=state.free_throws, roll=None, rolls=state.rolls, ended_by=ended_by,
    )


MUTATORS: dict[type, Callable[[State, Any], State]] = {Rolled: _rolled, PairsChosen: _pairs_chosen}


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)
