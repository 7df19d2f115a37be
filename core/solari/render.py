"""Solari as text: the 8x8 board with every piece, the counters on the 36 counting squares, the
mover's numbers, pieces in hand or off the board, and the dominoes."""

from __future__ import annotations

from .board import MARGIN, SUN, name
from .rules import DOMINO_MOVES, pending_place, phase, piece_name, totals
from .state import DOMINOES, State


def _cell(sq: int, piece) -> str:
    if piece is not None:
        return piece.label
    if sq in SUN:
        return "*"
    if sq in MARGIN:
        return "o"
    return "."


def render(state: State, reveal: bool = False) -> str:
    board = dict(state.board)
    seats = ", ".join(f"{s} ({p})" for s, p in zip(state.sides, state.players))
    out = [f"Solari (version {state.opts.version}): {seats}" + ("; teams Uranus+Neptune v Saturn+Jupiter" if state.opts.teams else "")]
    out.append("     " + "".join(f"{c:<5}" for c in range(8)))
    for r in range(8):
        out.append(f"  {r}  " + "".join(f"{_cell(r * 10 + c, board.get(r * 10 + c)):<5}" for c in range(8)).rstrip())
    out.append("  (o margin square, * sun, . empty; U3> = Uranus comet 3 facing east, Uc/Ub/Ud chaser/blocker/doubler)")
    tot = totals(state)
    counters = []
    for side, player in zip(state.sides, state.players):
        points = tot[side]
        counters.append(f"{side} ({player}) {points} points: counter on counting square {points % 36}"
                        + (f" after {points // 36} round(s)" if points >= 36 else ""))
    out.append("counters: " + "; ".join(counters))
    out.append("moves made: " + ", ".join(f"{s} {m}" for s, m in zip(state.sides, state.moves_made)))
    if state.off_board:
        out.append("off the board (total shot): " + ", ".join(piece_name(p) for p in state.off_board))
    if state.opts.source != "dice":
        for i, side in enumerate(state.sides):
            played = state.played[i]
            if state.opts.source == "dominoes-open" and state.dealt[i]:
                rest = state.dealt[i][len(played):]
                out.append(f"{side}'s dominoes, left to right: " + " ".join(f"{a}-{b}" for a, b in rest))
            elif state.opts.source == "dominoes-free":
                unplayed = [d for d in DOMINOES if d not in played]
                out.append(f"{side}'s unplayed dominoes: " + " ".join(f"{a}-{b}" for a, b in unplayed))
            else:
                out.append(f"{side}: {DOMINO_MOVES - len(played)} dominoes face down")
    ph = phase(state)
    if ph == "over":
        out.append(f"game over: {state.ended}")
        return "\n".join(out)
    who = f"{state.mover} ({state.player})"
    if state.numbers is not None:
        nums = f"{state.numbers[0]}-{state.numbers[1]}" + (" (joker: any combination)" if state.joker else "")
        left = " ".join(map(str, state.left)) if not state.joker else f"{len(state.left)} number(s)"
        out.append(f"{who}: {state.how} {nums}; still to play: {left or 'nothing'}")
        if state.partials:
            out.append("played: " + ", ".join(f"{name(p.frm)}-{name(p.to)}" for p in state.partials))
    held = pending_place(state)
    if ph == "place" and held is not None:
        out.append(f"to place: {piece_name(held.piece)}, {held.kind} shot on {name(held.square)}")
    elif ph == "deal":
        out.append("chance deals the open dominoes")
    elif ph == "numbers":
        out.append(f"{who} to {'choose a domino' if state.opts.source == 'dominoes-free' else 'get the numbers'}")
    elif ph == "enter":
        out.append(f"{who} must reenter a totally shot piece")
    else:
        out.append(f"{who} to move")
    return "\n".join(out)
