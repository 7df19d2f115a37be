"""Solo Dice as text: the score pad, sums on the left, leftover numbers and F on the right."""

from __future__ import annotations

from ..observe import Viewer
from .scoring import BASIC_VALUE, score, sum_lines
from .state import ENDING_MARK, FACES, MAX_LEFTOVER_NUMBERS, SUMS, State


def _tally(n: int) -> str:
    return "|" * n if n <= 12 else f"|x{n}"


def render(state: State) -> str:
    sheet = score(state)
    out = [f"Solo Dice: {state.player}, roll {state.rolls}, score {sheet.total(state.player)}", ""]
    out.append("sum  value  marks         points")
    for total in SUMS:
        marks = state.marks_of(total)
        points = sum(line.points for line in sum_lines(state.player, total, marks))
        shown = f"{points:+d}" if marks else ""
        out.append(f"{total:>3}  {BASIC_VALUE[total]:>5}  {_tally(marks):<12}  {shown:>6}")
    out.append("")
    out.append(f"leftover numbers (open: {' '.join(map(str, state.opened)) or 'none'}; {ENDING_MARK} marks end the game)")
    for face in FACES:
        marks = state.leftover_marks_of(face)
        if marks:
            out.append(f"{face:>3}  {_tally(marks):<8}  {marks}")
    out.append(f"  F  {_tally(state.free_throws):<8}  {state.free_throws}")
    out.append("")
    if state.over:
        out.append(f"game over: the {state.ended_by} was set aside for the {ENDING_MARK}th time")
    elif state.roll is None:
        out.append("to roll")
    else:
        out.append(f"rolled {' '.join(map(str, state.roll))}: choose two pairs and a leftover")
    return "\n".join(out)


# -- the picture -------------------------------------------------------------------------------

_PIPS = {  # pip centres on a unit die face, 004's dice faces 1-6
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
# What each mark of a sum does (004, "The point assignment"), so the pad shows it without colour alone:
# the first costs 200 ("-"), the fifth returns it ("+"), the sixth to tenth score the value ("v").
_MARK_STYLE = {1: ("#f4c7c3", "-"), 5: ("#c5e8c0", "+")}


def _die(x: float, y: float, face: int, size: float, highlight: bool) -> list[str]:
    from ..svg import HIGHLIGHT, circle, rect

    out = [rect(x, y, size, size, rx=size * 0.15, fill="#ffffff", stroke=HIGHLIGHT if highlight else "#333333",
                stroke_width=3 if highlight else 1.5)]
    for px, py in _PIPS[face]:
        out.append(circle(round(x + px * size, 1), round(y + py * size, 1), round(size * 0.09, 1), fill="#222222"))
    return out


def svg(state: State, viewer: Viewer | None = None, *, last=None, size: int | None = 400) -> str:
    """The score pad as on the original tool: the eleven sums with their marks and points on the left,
    the leftover numbers and F (free throws) on the right, the current roll as dice, the running total.
    Solo Dice hides nothing, so every ``viewer`` sees the same picture. ``last`` (the events of the last command)
    outlines the marks and dice it changed. Each rolled die carries an invisible square named
    ``data-spot="leave 5"``, the step ``Game.choices`` names for leaving it."""
    from ..svg import HIGHLIGHT, document, line, rect, text
    from .events import PairsChosen, Rolled
    from .rules import leave

    sheet = score(state)
    new_sums: dict[int, int] = {}
    new_face, new_free, new_roll = None, False, False
    for event in last or ():
        if isinstance(event, PairsChosen):
            for pair in (event.first, event.second):
                new_sums[sum(pair)] = new_sums.get(sum(pair), 0) + 1
            new_free = event.free_throw
            new_face = None if event.free_throw else event.leftover
        elif isinstance(event, Rolled):
            new_roll = True

    width, top, row_h = 410, 58, 26
    out = [rect(0, 0, width, 470, fill="#fbfaf5")]
    out.append(text(10, 22, f"Solo Dice: {state.player}", 16, font_weight="bold"))
    out.append(text(10, 42, f"roll {state.rolls}", 12, fill="#555555"))
    out.append(text(width - 10, 30, f"score {sheet.total(state.player)}", 20, anchor="end", font_weight="bold"))
    out.append(text(10, top - 4, "sum", 10, fill="#555555"))
    out.append(text(72, top - 4, "value", 10, anchor="end", fill="#555555"))
    out.append(text(82, top - 4, "marks", 10, fill="#555555"))
    out.append(text(268, top - 4, "points", 10, anchor="end", fill="#555555"))
    box = 13
    for i, total in enumerate(SUMS):
        y = top + i * row_h
        marks = state.marks_of(total)
        out.append(rect(4, y, 270, row_h - 2, fill="#ffffff" if i % 2 else "#f1efe6"))
        out.append(text(30, y + 17, total, 14, anchor="end", font_weight="bold"))
        out.append(text(72, y + 17, BASIC_VALUE[total], 11, anchor="end", fill="#555555"))
        fresh = new_sums.get(total, 0)
        for m in range(1, min(marks, 10) + 1):
            fill, sign = _MARK_STYLE.get(m, ("#c9daf8", "v") if m >= 6 else ("#e0e0e0", ""))
            x = 82 + (m - 1) * (box + 1)
            is_new = m > marks - fresh
            out.append(rect(x, y + 5, box, box, fill=fill, stroke=HIGHLIGHT if is_new else "#555555",
                            stroke_width=2.5 if is_new else 0.8))
            out.append(text(x + box / 2, y + 15, sign or "/", 10, anchor="middle"))
        if marks > 10:
            out.append(text(82 + 10 * (box + 1), y + 16, f"+{marks - 10}", 10))
        if marks:
            points = sum(ln.points for ln in sum_lines(state.player, total, marks))
            out.append(text(268, y + 17, f"{points:+d}", 12, anchor="end"))
    # the right column, as on the original tool: the three numbers that may be opened there, in the
    # order they were opened (004: "you may only open three numbers"), then F for the free throws
    rx = 282
    out.append(text(rx, top - 4, f"leftovers ({ENDING_MARK}th ends)", 10, fill="#555555"))
    slots: list[int | None] = [*state.opened, *([None] * (MAX_LEFTOVER_NUMBERS - len(state.opened)))]
    for i, face in enumerate((*slots, "F")):
        y = top + i * row_h + (8 if face == "F" else 0)
        if face is None:
            out.append(rect(rx, y, width - rx - 4, row_h - 2, fill="#eeeeee"))
            out.append(text(rx + 12, y + 17, "-", 14, anchor="middle", fill="#999999"))
            out.append(text(rx + 26, y + 16, "not opened yet", 10, fill="#999999"))
            continue
        marks = state.free_throws if face == "F" else state.leftover_marks_of(int(face))
        out.append(rect(rx, y, width - rx - 4, row_h - 2, fill="#ffffff"))
        out.append(text(rx + 12, y + 17, face, 14, anchor="middle", font_weight="bold"))
        fresh_here = new_free if face == "F" else face == new_face
        for m in range(1, min(marks, ENDING_MARK) + 1):
            x = rx + 24 + (m - 1) * 11
            is_new = fresh_here and m == marks
            out.append(line(x + 2, y + 20, x + 8, y + 4, stroke=HIGHLIGHT if is_new else "#333333",
                            stroke_width=3 if is_new else 1.6))
        out.append(text(width - 8, y + 17, marks if marks else "", 11, anchor="end"))
    # the roll and the state of play
    y = top + len(SUMS) * row_h + 12
    if state.roll is not None:
        out.append(text(10, y + 14, "rolled:", 12))
        for i, face in enumerate(state.roll):
            out.extend(_die(62 + i * 42, y, face, 34, new_roll))
        # a click on a die sets it aside as the leftover (``Game.choices``): invisible, over the dice
        out.extend(rect(62 + i * 42, y, 34, 34, fill="#ffffff", fill_opacity=0, data_spot=leave(face))
                   for i, face in enumerate(state.roll))
        out.append(text(10, y + 56, "choose two pairs and a leftover", 11, fill="#555555"))
    elif state.over:
        out.append(text(10, y + 20, f"game over: the {state.ended_by} was set aside for the {ENDING_MARK}th time",
                        12, font_weight="bold"))
    else:
        out.append(text(10, y + 20, "to roll", 12))
    out.append(text(10, y + 78, "marks: - opens the sum (costs 200), + the 5th (returns the 200),", 10, fill="#555555"))
    out.append(text(10, y + 91, "v the 6th to 10th (score the value), / no points", 10, fill="#555555"))
    height = y + 100
    out[0] = rect(0, 0, width, height, fill="#fbfaf5")
    return document(width, height, out, size=size, title=f"Solo Dice: {state.player}, roll {state.rolls}")
