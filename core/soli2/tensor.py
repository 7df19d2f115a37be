"""SOLI2's observation tensor (docs/ai.md, "Observation tensors"): the board, the pouch, the hand
and the channels, the phase and whose turn, from the seat's side (its colour in a duel).

Everything on the board and in the channels is public (observation.py); which marble the pouch gives
next is in no state, so no tensor holds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

from ..tensors import Features
from . import board as B
from .state import FILLS, MARBLES, MODES, OBJECTIVES, PER_COLOR, PHASES, State

MARKS = (B.EMPTY, B.MARK[B.BLACK], B.MARK[B.WHITE])
INDEX = {mark: i for i, mark in enumerate(MARKS)}
SIZE = (B.POCKETS * len(MARKS) + len(MODES) + len(FILLS) + len(OBJECTIVES) + len(PHASES) + 1 + 2 + 2
        + 2 + 3 + 4 + 2 + 3)


@lru_cache(maxsize=4096)
def _rank(rank: str) -> tuple[float, ...]:
    """A rank's pockets one-hot (empty, black, white), kept: ranks repeat from position to position."""
    return tuple(1.0 if INDEX[mark] == i else 0.0 for mark in rank for i in range(len(MARKS)))


def size(options: Mapping[str, Any], players: Sequence[str]) -> int:
    return SIZE


def encode(seen: State, seat: str) -> tuple[float, ...]:
    me = seen.players.index(seat)
    board = tuple(chain.from_iterable(map(_rank, seen.board)))  # 7 strings, rank 7 first: as seen.flat
    return board + _rest(seen.mode, seen.fill, seen.objective, seen.phase, not seen.over and seen.turn == me,
                         seen.turn, me if not seen.solitaire else None, seen.pouch, seen.hand,
                         tuple(seen.channels), seen.removed, seen.placements, seen.jumps, seen.passes)


@lru_cache(maxsize=4096)
def _rest(mode: str, fill: str, objective: str, phase: str, to_act: bool, turn: int, me: int | None,
          pouch: tuple[int, int], hand: str | None, channels: tuple[tuple[int, int], ...],
          removed: tuple[int, int], placements: int, jumps: int, passes: int) -> tuple[float, ...]:
    """Everything but the board, kept: the positions of a bot's look ahead share it."""
    f = Features()
    f.one_hot(MODES.index(mode), len(MODES))
    f.one_hot(FILLS.index(fill), len(FILLS))
    f.one_hot(OBJECTIVES.index(objective), len(OBJECTIVES))
    f.one_hot(PHASES.index(phase), len(PHASES))
    f.flag(to_act)  # the seat is to place or jump
    f.one_hot(turn, 2)
    f.one_hot(me, 2)  # a duel's seat plays black (first) or white
    f.counts(pouch, PER_COLOR)
    f.one_hot(0 if hand is None else 1 + B.COLORS.index(hand), 3)  # none, black, white
    padded = list(channels) + [(0, 0)] * (2 - len(channels))
    for black, white in padded[:2]:
        f.counts((black, white), PER_COLOR // 2)
    f.counts(removed, PER_COLOR)
    f.scaled(placements, MARBLES)
    f.scaled(jumps, MARBLES)
    f.scaled(passes, 10)
    return f.done()
