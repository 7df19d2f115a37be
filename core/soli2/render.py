"""SOLI2 as text: the board with coordinates (b black, w white, . empty), then what is off the board."""

from __future__ import annotations

from . import board as B
from .rules import legal_jumps
from .state import CLASSIC, DUEL, FILLING, JUMPING, PURE_SKILL, State

_MODE = {CLASSIC: "SOLI2 classic solitaire", "soli2-solitaire": "SOLI2 solitaire"}


def title(state: State) -> str:
    if state.mode == DUEL:
        return (
            f"SOLI2 duel ({state.fill}, {state.objective}): black {state.players[0]}, white {state.players[1]}"
        )
    return f"{_MODE[state.mode]}: {state.players[0]}"


def render(state: State) -> str:
    files = "    " + " ".join(B.FILES)
    out = [title(state), "", files]
    for k, row in enumerate(state.board):
        rank = B.SIZE - k
        out.append(f" {rank}  " + " ".join(row) + f"  {rank}")
    out.append(files)
    out.append("")
    black, white = state.on_board(B.BLACK), state.on_board(B.WHITE)
    out.append(f"on the board: black {black}, white {white}")
    out.append(f"removed (in the channel): black {state.removed[0]}, white {state.removed[1]}")
    if state.mode != CLASSIC and state.phase == FILLING:
        if state.fill == PURE_SKILL and state.mode == DUEL:
            for name, (b, w) in zip(state.players, state.channels):
                out.append(f"{name}'s channel: black {b}, white {w}")
        else:
            out.append(f"pouch: black {state.pouch[0]}, white {state.pouch[1]}")
        if state.hand is not None:
            out.append(f"drawn, to place: {state.hand}")
    if state.last:
        out.append(f"last: {state.last}")
    out.append(status(state))
    return "\n".join(out)


def status(state: State) -> str:
    if state.over:
        reason = {"black-out": "black has no marbles left", "white-out": "white has no marbles left"}.get(
            state.end or "", "neither player has a legal jump" if state.mode == DUEL else "no jump remains"
        )
        return f"game over: {reason}"
    player = state.players[state.turn]
    who = f"{player} ({state.color_of(state.turn)})" if state.mode == DUEL else player
    if state.phase == FILLING:
        if state.mode != DUEL:
            return f"filling the pockets in order: {state.placements} of 48 placed; the pouch gives the next"
        if state.fill == PURE_SKILL:
            return f"{who} to place a marble from their channel ({state.placements} of 48 placed)"
        if state.hand is None:
            return f"the pouch gives {who} a marble ({state.placements} of 48 placed)"
        return f"{who} to place the {state.hand} marble ({state.placements} of 48 placed)"
    assert state.phase == JUMPING
    n = len(legal_jumps(state))
    return f"{who} to jump: {n} legal jump{'' if n == 1 else 's'}"

