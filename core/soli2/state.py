"""SOLI2 state and how each event changes it (one mutator per event type)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..frozen import evolve as copy_with
from . import board as B
from .events import Drawn, Ended, Jumped, Passed, Placed

DUEL = "duel"
CLASSIC = "classic-solitaire"
SOLI2_SOLITAIRE = "soli2-solitaire"
MODES = (DUEL, CLASSIC, SOLI2_SOLITAIRE)
POUCH = "pouch"
PURE_SKILL = "pure-skill"
FILLS = (POUCH, PURE_SKILL)
STANDARD = "standard"
GIVE_AWAY = "give-away"
OBJECTIVES = (STANDARD, GIVE_AWAY)

FILLING = "filling"
JUMPING = "jumping"
OVER = "over"
PHASES = (FILLING, JUMPING, OVER)

PER_COLOR = 24
MARBLES = 2 * PER_COLOR


@attrs.frozen
class State:
    mode: str
    fill: str
    objective: str
    players: tuple[str, ...]  # duel: (black, white); solitaire: (the player,)
    board: tuple[str, ...]  # 7 rows, rank 7 first; "b" black, "w" white, "." empty
    phase: str = FILLING
    turn: int = 0  # index into players of who places or jumps next
    pouch: tuple[int, int] = (0, 0)  # black, white marbles in the pouch
    hand: str | None = None  # the color drawn from the pouch and not yet placed
    channels: tuple[tuple[int, int], ...] = ()  # pure skill: (black, white) in each player's channel
    removed: tuple[int, int] = (0, 0)  # black, white marbles jumped off the board
    placements: int = 0
    jumps: int = 0
    passes: int = 0
    last: str | None = None  # the last placement or jump, for the picture
    end: str | None = None  # the Ended reason once over

    # -- reading -----------------------------------------------------------------------------
    @property
    def flat(self) -> str:
        return "".join(self.board)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def solitaire(self) -> bool:
        return self.mode != DUEL

    def at(self, square: str) -> str | None:
        mark = self.flat[B.index(square)]
        return None if mark == B.EMPTY else B.COLOR_OF_MARK[mark]

    def on_board(self, color: str) -> int:
        return self.flat.count(B.MARK[color])

    def color_of(self, player_index: int) -> str:
        """A duel player's color: the first listed player is black."""
        return B.COLORS[player_index]

    def player_of(self, color: str) -> str:
        return self.players[0] if self.solitaire else self.players[B.COLORS.index(color)]


def setup(mode: str, fill: str, objective: str, players: tuple[str, ...]) -> State:
    if mode == CLASSIC:
        return State(mode, fill, objective, players, B.rows(B.CLASSIC_BOARD), phase=JUMPING)
    base = State(mode, fill, objective, players, B.rows(B.EMPTY_BOARD))
    if mode == DUEL and fill == PURE_SKILL:
        half = PER_COLOR // 2
        return copy_with(base, channels=((half, half), (half, half)))
    return copy_with(base, pouch=(PER_COLOR, PER_COLOR))


def _count_minus(counts: tuple[int, int], color: str) -> tuple[int, int]:
    k = B.COLORS.index(color)
    out = list(counts)
    out[k] -= 1
    return (out[0], out[1])


def _count_plus(counts: tuple[int, int], color: str) -> tuple[int, int]:
    k = B.COLORS.index(color)
    out = list(counts)
    out[k] += 1
    return (out[0], out[1])


def _next_turn(state: State) -> int:
    return 0 if state.solitaire else 1 - state.turn


def _drawn(state: State, event: Drawn) -> State:
    return copy_with(state, pouch=_count_minus(state.pouch, event.color), hand=event.color)


def _placed(state: State, event: Placed) -> State:
    flat = list(state.flat)
    flat[B.index(event.square)] = B.MARK[event.color]
    channels = state.channels
    hand = state.hand
    if state.fill == PURE_SKILL and state.mode == DUEL:
        k = state.players.index(event.player)
        channels = tuple(_count_minus(c, event.color) if i == k else c for i, c in enumerate(channels))
    else:
        hand = None
    placements = state.placements + 1
    full = placements == MARBLES
    return copy_with(
        state,
        board=B.rows("".join(flat)),
        channels=channels,
        hand=hand,
        placements=placements,
        phase=JUMPING if full else state.phase,
        turn=0 if full else _next_turn(state),  # 002: black also jumps first
        last=f"{event.color} on {event.square}",
    )


def _jumped(state: State, event: Jumped) -> State:
    flat = list(state.flat)
    mark = flat[B.index(event.start)]
    flat[B.index(event.start)] = B.EMPTY
    flat[B.index(event.over)] = B.EMPTY
    flat[B.index(event.end)] = mark
    return copy_with(
        state,
        board=B.rows("".join(flat)),
        removed=_count_plus(state.removed, event.removed),
        jumps=state.jumps + 1,
        turn=_next_turn(state),
        last=f"{event.start}-{event.end} took the {event.removed} marble on {event.over}",
    )


def _passed(state: State, event: Passed) -> State:
    return copy_with(state, turn=_next_turn(state), passes=state.passes + 1)


def _ended(state: State, event: Ended) -> State:
    return copy_with(state, phase=OVER, end=event.reason)


MUTATORS: dict[type, Callable[[State, Any], State]] = {Drawn: _drawn, Placed: _placed, Jumped: _jumped, Passed: _passed, Ended: _ended}


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)
