"""Explain: the score sheet at any position, line by line, each line citing its rule."""

from __future__ import annotations

from typing import Any

from solrec.core import words

from .log import Log, check_position, state_at


def explain(log: Log, at: int | None = None) -> dict[str, Any]:
    game = log.game
    position = check_position(log, at)
    state = state_at(log, position)
    sheet = game.score(state)
    outcome = game.outcome(state)
    return {
        "id": log.game_id,
        "game": game.id,
        "position": position,
        "scores": dict(sheet.totals),
        "lines": [
            {"player": line.player, "points": line.points, "what": line.what, "rule": line.rule}
            for line in sheet.lines
        ],
        "outcome": outcome.as_dict() if outcome else None,
    }


def format_explanation(data: dict[str, Any]) -> str:
    out = [f"{data['id']} at position {data['position']}"]
    width = max([len(line["what"]) for line in data["lines"]] + [10])
    for line in data["lines"]:
        out.append(f"  {line['player']:<10} {line['points']:>+6}  {line['what']:<{width}}  {line['rule']}")
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
