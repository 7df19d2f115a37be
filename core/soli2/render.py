"""SOLI2 as text: the board with coordinates (b black, w white, . empty), then what is off the board."""

from __future__ import annotations

from ..observe import Viewer
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



# -- the picture -------------------------------------------------------------------------------

_FILL = {"b": "#1f1f1f", "w": "#f7f7f7"}


def svg(state: State, viewer: Viewer | None = None, *, last=None, size: int | None = 400) -> str:
    """The 7x7 board with coordinates, black and white marbles and the empty pockets, then what is off
    the board (the channel) and in the pouch or the channels. Nothing is hidden from the table (the
    pouch's counts follow from what was placed), so every ``viewer`` sees the same picture. Every pocket carries an
    invisible square named ``data-spot="d4"``, the step ``Game.choices`` names. ``last`` (the events of
    the last command) draws the last jump as an arrow and crosses out the removed marble, or rings the
    last placed marble."""
    from ..svg import HIGHLIGHT, SHOT, arrow, circle, document, line, rect, text
    from .events import Jumped, Placed

    cell, left, top = 50, 26, 46
    width = left * 2 + cell * B.SIZE
    out = [rect(0, 0, width, 0, fill="#f6f1e7")]
    out.append(text(10, 20, title(state), 13, font_weight="bold"))

    def centre(square: str) -> tuple[int, int]:
        file, rank = B.coords(B.index(square))
        return left + file * cell + cell // 2, top + (B.SIZE - rank) * cell + cell // 2

    out.append(rect(left, top, cell * B.SIZE, cell * B.SIZE, rx=10, fill="#c8a878", stroke="#7a5c33", stroke_width=2))
    for k in range(B.SIZE):
        out.append(text(left + k * cell + cell / 2, top - 6, B.FILES[k], 12, anchor="middle"))
        out.append(text(left + k * cell + cell / 2, top + B.SIZE * cell + 16, B.FILES[k], 12, anchor="middle"))
        out.append(text(left / 2, top + k * cell + cell / 2 + 4, B.SIZE - k, 12, anchor="middle"))
        out.append(text(width - left / 2, top + k * cell + cell / 2 + 4, B.SIZE - k, 12, anchor="middle"))
    flat = state.flat
    for i, mark in enumerate(flat):
        x, y = centre(B.name(i))
        if mark == B.EMPTY:
            # an empty pocket: a dark hollow, not a marble
            out.append(circle(x, y, 9, fill="#8a6a40", stroke="#5e4424", stroke_width=1.5))
        else:
            out.append(circle(x, y, 19, fill=_FILL[mark], stroke="#000000", stroke_width=1.2))
    cx, cy = centre(B.CENTER_NAME)  # the centre: the tie-break and the solitaires measure from it
    out.append(circle(cx, cy, 23, fill="none", stroke="#7a5c33", stroke_width=1, stroke_dasharray="3 3"))
    for event in last or ():
        if isinstance(event, Jumped):
            (x1, y1), (x2, y2) = centre(event.start), centre(event.end)
            out.extend(arrow(x1, y1, x2, y2, HIGHLIGHT, 5))
            ox, oy = centre(event.over)
            out.append(line(ox - 10, oy - 10, ox + 10, oy + 10, stroke=SHOT, stroke_width=4))
            out.append(line(ox - 10, oy + 10, ox + 10, oy - 10, stroke=SHOT, stroke_width=4))
        elif isinstance(event, Placed):
            x, y = centre(event.square)
            out.append(circle(x, y, 22, fill="none", stroke=HIGHLIGHT, stroke_width=4))
    for square in B.SQUARES:  # a click anywhere on a pocket names it (``Game.choices``); never seen
        x, y = centre(square)
        out.append(rect(x - cell // 2, y - cell // 2, cell, cell, fill="#ffffff", fill_opacity=0, data_spot=square))
    y = top + cell * B.SIZE + 40
    black, white = state.on_board(B.BLACK), state.on_board(B.WHITE)
    info = [f"on the board: black {black}, white {white}",
            f"removed (in the channel): black {state.removed[0]}, white {state.removed[1]}"]
    if state.mode != CLASSIC and state.phase == FILLING:
        if state.fill == PURE_SKILL and state.mode == DUEL:
            for name_, (b, w) in zip(state.players, state.channels):
                info.append(f"{name_}'s channel: black {b}, white {w}")
        else:
            info.append(f"pouch: black {state.pouch[0]}, white {state.pouch[1]}")
        if state.hand is not None:
            info.append(f"drawn, to place: {state.hand}")
    info.append(status(state))
    for k, row in enumerate(info):
        out.append(text(10, y + k * 18, row, 12, font_weight="bold" if k == len(info) - 1 else None))
    height = y + len(info) * 18
    out[0] = rect(0, 0, width, height, fill="#f6f1e7")
    return document(width, height, out, size=size, title=title(state))
