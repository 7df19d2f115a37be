"""SOLI2's observation tensor (docs/ai.md, "Observation tensors"): the board, the pouch, the hand
and the channels, the phase and whose turn, from the seat's side (its colour in a duel).

Everything on the board and in the channels is public (observation.py); which marble the pouch gives
next is in no state, so no tensor holds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
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
    f = Features()
    for rank in seen.board:  # 7 strings, rank 7 first: the same order as seen.flat
        f.values.extend(_rank(rank))
    f.one_hot(MODES.index(seen.mode), len(MODES))
    f.one_hot(FILLS.index(seen.fill), len(FILLS))
    f.one_hot(OBJECTIVES.index(seen.objective), len(OBJECTIVES))
    f.one_hot(PHASES.index(seen.phase), len(PHASES))
    me = seen.players.index(seat)
    f.flag(not seen.over and seen.turn == me)  # the seat is to place or jump
    f.one_hot(seen.turn, 2)
    f.one_hot(me if not seen.solitaire else None, 2)  # a duel's seat plays black (first) or white
    f.counts(seen.pouch, PER_COLOR)
    f.one_hot(0 if seen.hand is None else 1 + B.COLORS.index(seen.hand), 3)  # none, black, white
    channels = list(seen.channels) + [(0, 0)] * (2 - len(seen.channels))
    for black, white in channels[:2]:
        f.counts((black, white), PER_COLOR // 2)
    f.counts(seen.removed, PER_COLOR)
    f.scaled(seen.placements, MARBLES)
    f.scaled(seen.jumps, MARBLES)
    f.scaled(seen.passes, 10)
    return f.done()
