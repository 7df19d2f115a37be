"""Solo Dice as text: the score pad, sums on the left, leftover numbers and F on the right."""

from __future__ import annotations

from .scoring import BASIC_VALUE, score, sum_lines
from .state import ENDING_MARK, FACES, SUMS, State


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
