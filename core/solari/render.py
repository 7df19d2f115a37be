"""Solari as text: the 8x8 board with every piece, the counters on the 36 counting squares, the
mover's numbers, pieces in hand or off the board, and the dominoes."""

from __future__ import annotations

from ..observe import Viewer
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


TABLE = Viewer.table()


def render(state: State, viewer: Viewer = TABLE) -> str:
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
        out.append("off the board, to be reentered: " + ", ".join(piece_name(p) for p in state.off_board))
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


# -- the picture -------------------------------------------------------------------------------

SIDE_COLOUR = {"Uranus": "#138d9c", "Neptune": "#2a4fc4", "Saturn": "#d9a21b", "Jupiter": "#a63a12"}
SIDE_INK = {"Uranus": "#ffffff", "Neptune": "#ffffff", "Saturn": "#000000", "Jupiter": "#ffffff"}
# The board's rings, from the margin squares (the orbit of the large planets, 000) to the sun.
RING_FILL = ("#d7e1f0", "#e9eef7", "#f6f8fc", "#ffd84d")
KIND_LETTER = {"chaser": "C", "blocker": "B", "doubler": "D"}


def _counting_square(i: int) -> tuple[int, int]:
    """Cell (column, row) of counting square ``i`` (0-35) on the 10x10 ring round the board, clockwise
    from the top-left corner."""
    if i < 10:
        return i, 0
    if i < 19:
        return 9, i - 9
    if i < 28:
        return 9 - (i - 18), 9
    return 0, 9 - (i - 27)


def _wrap(note: str, width: int = 62) -> list[str]:
    lines, current = [], ""
    for word in note.split(" "):
        if current and len(current) + len(word) > width:
            lines.append(current)
            current = "   " + word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current]


def _piece(x: float, y: float, piece) -> list[str]:
    """A piece centred on (x, y): comets are discs with their number and an arrow for their facing;
    chasers diamonds (C), blockers squares (B), doublers octagons (D) - told apart by shape and letter,
    not by colour alone."""
    from ..svg import circle, polygon, rect, text

    fill, ink = SIDE_COLOUR[piece.side], SIDE_INK[piece.side]
    if piece.kind == "comet":
        out = [circle(x, y, 12.5, fill=fill, stroke="#000000", stroke_width=1.2)]
        dx, dy = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}.get(piece.facing or "", (0, 0))
        if dx or dy:
            tip = (x + dx * 17.5, y + dy * 17.5)
            base = (x + dx * 11, y + dy * 11)
            out.append(polygon([tip, (base[0] + dy * 6, base[1] + dx * 6), (base[0] - dy * 6, base[1] - dx * 6)],
                               fill="#000000"))
        out.append(text(x, y + 5, piece.number, 14, anchor="middle", fill=ink, font_weight="bold"))
        return out
    if piece.kind == "chaser":
        shape = polygon([(x, y - 15), (x + 15, y), (x, y + 15), (x - 15, y)], fill=fill, stroke="#000000",
                        stroke_width=1.2)
    elif piece.kind == "blocker":
        shape = rect(x - 12, y - 12, 24, 24, fill=fill, stroke="#000000", stroke_width=3)
    else:
        r, k = 13.5, 5.6
        shape = polygon([(x - k, y - r), (x + k, y - r), (x + r, y - k), (x + r, y + k), (x + k, y + r),
                         (x - k, y + r), (x - r, y + k), (x - r, y - k)], fill=fill, stroke="#000000",
                        stroke_width=1.2, stroke_dasharray="3 1.5")
    return [shape, text(x, y + 5, KIND_LETTER[piece.kind], 13, anchor="middle", fill=ink, font_weight="bold")]


def svg(state: State, viewer: Viewer = TABLE, *, last=None, size: int | None = 400) -> str:
    """The 8x8 board (coordinates on its edges, the sun, the rings, the margin squares) inside the 36
    counting squares that carry each side's counter; every piece in its side's colour; the steps of
    the last move as arrows, shot pieces ringed in red, the squares a move scored tinted; then, in
    words, what the text picture says below its board. In the hidden-dominoes version a player's
    dominoes lie face down: the referee's picture lists the unplayed ones (which anyone can count). ``last`` is the events of the last
    command. Every square carries an invisible square named ``data-spot="25"``, the step
    ``Game.choices`` names."""
    from ..svg import HIGHLIGHT, SHOT, arrow, circle, document, rect, text
    from .events import Entered, MoveScored, Placed, Stepped

    cell, band = 38, 16
    origin = band  # the counting ring's top-left corner
    bx = origin + cell  # the board's top-left corner
    width = band * 2 + cell * 10
    out = [rect(0, 0, width, 0, fill="#ffffff")]

    def centre(sq: int) -> tuple[float, float]:
        r, c = divmod(sq, 10)
        return bx + c * cell + cell / 2, bx + r * cell + cell / 2

    # the counting squares, numbered 0-35 clockwise from the top-left corner
    for i in range(36):
        c, r = _counting_square(i)
        out.append(rect(origin + c * cell, origin + r * cell, cell, cell, fill="#f3efe2" if i % 6 else "#e4dcc2",
                        stroke="#9c927a", stroke_width=0.8))
        out.append(text(origin + c * cell + 3, origin + r * cell + 10, i, 8, fill="#6d6450"))
    # the board's squares, shaded by ring; coordinates outside the counting ring
    for r in range(8):
        for c in range(8):
            ring = min(r, c, 7 - r, 7 - c)
            out.append(rect(bx + c * cell, bx + r * cell, cell, cell, fill=RING_FILL[ring], stroke="#8090a8",
                            stroke_width=0.8))
        out.append(text(band / 2, bx + r * cell + cell / 2 + 4, r, 12, anchor="middle", font_weight="bold"))
        out.append(text(bx + r * cell + cell / 2, band - 3, r, 12, anchor="middle", font_weight="bold"))
        out.append(text(width - band / 2, bx + r * cell + cell / 2 + 4, r, 12, anchor="middle", font_weight="bold"))
        out.append(text(bx + r * cell + cell / 2, width - 3, r, 12, anchor="middle", font_weight="bold"))
    sun_x, sun_y = centre(33)
    out.append(circle(sun_x + cell / 2, sun_y + cell / 2, cell * 0.95, fill="none", stroke="#e08a00",
                      stroke_width=1.5, stroke_dasharray="4 3"))
    # the squares the last move scored
    for event in last or ():
        if isinstance(event, MoveScored):
            for unit in event.units:
                for sq in unit.squares:
                    r, c = divmod(sq, 10)
                    out.append(rect(bx + c * cell + 2, bx + r * cell + 2, cell - 4, cell - 4, fill="#7ccf6a",
                                    opacity=0.55))
    for sq, piece in state.board:
        x, y = centre(sq)
        out.extend(_piece(x, y, piece))
    # the steps of the move so far (or just made): thin arrows; the last command's: bold
    fresh: list[str] = []
    for event in last or ():
        if isinstance(event, Stepped):
            x1, y1 = centre(event.frm)
            x2, y2 = centre(event.to)
            fresh.extend(arrow(x1, y1, x2, y2, HIGHLIGHT, 4))
            if event.shot is not None:
                fresh.append(circle(x2, y2, 17, fill="none", stroke=SHOT, stroke_width=3.5))
        elif isinstance(event, (Placed, Entered)):
            x, y = centre(event.square)
            fresh.append(circle(x, y, 17, fill="none", stroke=SHOT if isinstance(event, Placed) else HIGHLIGHT,
                                stroke_width=3.5, stroke_dasharray="5 3"))
            if isinstance(event, Entered) and event.shot is not None:
                fresh.append(circle(x, y, 19, fill="none", stroke=SHOT, stroke_width=2))
    if not any(isinstance(e, Stepped) for e in last or ()):
        for p in state.partials:
            if p.frm != p.to:
                x1, y1 = centre(p.frm)
                x2, y2 = centre(p.to)
                out.extend(arrow(x1, y1, x2, y2, "#7f7f7f", 2.5))
                if p.shot:  # this step of the move shot a piece here
                    out.append(circle(x2, y2, 17, fill="none", stroke=SHOT, stroke_width=2))
    out.extend(fresh)
    for r in range(8):  # a click anywhere on a square names it (``Game.choices``); never seen
        for c in range(8):
            out.append(rect(bx + c * cell, bx + r * cell, cell, cell, fill="#ffffff", fill_opacity=0,
                            data_spot=f"{r}{c}"))
    # the counters on the counting squares (several on one square share it)
    tot = totals(state)
    seen: dict[int, int] = {}
    for side in state.sides:
        i = tot[side] % 36
        k = seen.get(i, 0)
        seen[i] = k + 1
        c, r = _counting_square(i)
        x, y = origin + c * cell + 12.0 + (k % 2) * 15, origin + r * cell + 17.0 + (k // 2) * 14
        out.append(circle(x, y, 7, fill=SIDE_COLOUR[side], stroke="#000000", stroke_width=1))
        out.append(text(x, y + 3.5, side[0], 9, anchor="middle", fill=SIDE_INK[side], font_weight="bold"))
    # below the board: the text picture's words
    words = render(state, viewer).splitlines()
    legend = next(i for i, ln in enumerate(words) if ln.startswith("  (o margin"))
    notes = [words[0], *words[legend + 1 :]]
    if viewer.sees_all and state.opts.source == "dominoes-hidden":
        for i, side in enumerate(state.sides):
            rest = [d for d in DOMINOES if d not in state.played[i]]
            notes.append(f"{side}'s face-down dominoes (revealed): " + " ".join(f"{a}-{b}" for a, b in rest))
    notes.append("comet: disc, number, arrow = facing; C chaser, B blocker, D doubler")
    below = width + 8
    rows = [ln for note in notes for ln in _wrap(note)]
    for k, row in enumerate(rows):
        out.append(text(8, below + 12 + k * 15, row, 11))
    height = below + len(rows) * 15 + 8
    out[0] = rect(0, 0, width, height, fill="#ffffff")
    return document(width, height, out, size=size, title=words[0])
