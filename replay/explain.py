"""Explain: the score sheet after any move, line by line, each line citing its rule."""

from __future__ import annotations

import textwrap
from typing import Any

from solrec.core import words

from .log import Log, check_position, move_at, state_at


def explain(log: Log, at: int | None = None) -> dict[str, Any]:
    """The score sheet at position ``at`` (None: the end); its ``move`` says after which move."""
    game = log.game
    position = check_position(log, at)
    state = state_at(log, position)
    sheet = game.score(state)
    outcome = game.outcome(state)
    return {
        "id": log.game_id,
        "game": game.id,
        "move": move_at(log.rows, position),
        "position": position,
        "scores": dict(sheet.totals),
        "lines": [
            {"player": line.player, "points": line.points, "what": line.what, "rule": line.rule}
            for line in sheet.lines
        ],
        "outcome": outcome.as_dict() if outcome else None,
    }


# The width an explained sheet is wrapped to: a rule sentence runs long (Solari's cite whole paragraphs).
WIDTH = 100


def sheet_lines(lines: list[dict[str, Any]], width: int = WIDTH) -> list[str]:
    """Score lines as a terminal shows them: player, points and what on one line, the rule sentence
    under it, each wrapped to ``width`` (a line of text never runs past it but for one long word)."""
    out = []
    for line in lines:
        head = f"  {line['player']:<10} {line['points']:>+6}  "
        out += textwrap.wrap(line["what"], width, initial_indent=head, subsequent_indent=" " * len(head)) or [head.rstrip()]
        out += textwrap.wrap(line["rule"], width, initial_indent=" " * (len(head) + 2),
                             subsequent_indent=" " * (len(head) + 2))
    return out


def format_explanation(data: dict[str, Any]) -> str:
    move = data.get("move")
    after = f"at position {data['position']}" if move is None else "at the set-up" if move == 0 else f"after move {move}"
    out = [f"{data['id']} {after}"]
    out += sheet_lines(data["lines"])
    if not data["lines"]:
        # a finished game's result is explained below even when no line scored (a resigned solitaire)
        out.append("  (no score lines)" if data["outcome"] else "  (no score lines yet)")
    for player, total in data["scores"].items():
        out.append(f"  total {player}: {total}")
    if data["outcome"]:
        o = data["outcome"]
        ranking = f"; ranking {words.names(o['ranking'])}" if len(o["ranking"]) > 1 else ""
        out.append(f"  result: {words.outcome(o, data['scores'])}{ranking}; {o['reason']}")
    return "\n".join(out)
