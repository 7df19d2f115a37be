"""Diff two logs: the first position where they differ, the events there side by side, and a
structured difference of the two states and score sheets at that point.

``position`` counts events applied, as everywhere: it is the first position where the logs differ,
the POS ``log`` shows for the first event that differs (the logs agree up to ``position - 1``:
``show --at`` that to see the last common state). ``ids`` names the two logs; ``a`` and ``b`` are
their sides, in that order. The text speaks
the games' own words: commands in their notation, events as the game describes them, the positions
as the game renders them, score lines as the score sheet words them. While either game runs, what
the players cannot see is hidden unless ``reveal``.
"""

from __future__ import annotations

from typing import Any

from solrec.core import words
from solrec.core.observe import Viewer
from solrec.events.codec import to_plain

from .log import Log, move_at, state_at
from .seen import seen_text


def structural_diff(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """Paths where two plain values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a:
                out.append({"path": sub, "a": None, "b": b[key]})
            elif key not in b:
                out.append({"path": sub, "a": a[key], "b": None})
            else:
                out.extend(structural_diff(a[key], b[key], sub))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(structural_diff(x, y, f"{path}[{i}]"))
        return out
    return [] if a == b else [{"path": path or "(value)", "a": a, "b": b}]


def diff(a: Log, b: Log, reveal: bool = False) -> dict[str, Any]:
    header_diff = structural_diff(a.header.as_dict(), b.header.as_dict())
    result: dict[str, Any] = {"ids": [a.game_id, b.game_id], "header": header_diff}
    if a.header.game != b.header.game:
        result.update(identical=False, position=None, reason="different games")
        return result
    game = a.game
    ev_a, ev_b = a.events(), b.events()
    seq = None  # the first event that differs
    for i in range(max(len(ev_a), len(ev_b))):
        x = ev_a[i] if i < len(ev_a) else None
        y = ev_b[i] if i < len(ev_b) else None
        if x is None or y is None or type(x) is not type(y) or to_plain(x) != to_plain(y):
            seq = i
            break
    if seq is None:
        reason = "the logs hold the same events" + (" (their headers differ)" if header_diff else "")
        result.update(identical=not header_diff, position=None, reason=reason)
        return result
    hide = not reveal and any(game.outcome(state_at(log)) is None for log in (a, b))
    seer = Viewer.table() if hide else Viewer.referee()
    observe = game.observation

    def side(log: Log, events: list) -> dict[str, Any]:
        event = events[seq] if seq < len(events) else None
        row = log.rows[seq] if seq < len(log.rows) else None
        at = min(seq + 1, len(events))
        state = state_at(log, at)
        sheet = game.score(state)
        data = None if event is None else to_plain(event)
        command = None if row is None else row.command
        described = True
        if hide:
            if event is not None and data is not None:
                shown = observe.event(event, data, seer)
                data, described = shown.data, shown.described
            if row is not None and command is not None:
                first = next(r.seq for r in log.rows if r.step == row.step)  # where its command was played
                command = seen_text(game, command, seer, lambda: state_at(log, first))
        return {
            "command": None if row is None else {"actor": row.actor, "command": command},
            "event": None if event is None else {"type": event.TYPE, "text": game.describe_event(event) if described else None,
                                                 "data": data},
            "state": observe.state(state, to_plain(state), seer),
            "score": sheet.as_dict(),
            "render": observe.text(state, seer).splitlines(),
        }

    sa, sb = side(a, ev_a), side(b, ev_b)
    move = move_at(a.rows if seq < len(a.rows) else b.rows, seq + 1)
    result.update(
        identical=False,
        position=seq + 1,
        move=move,
        reason=f"the logs first differ at move {move}",
        events={"a": sa["event"], "b": sb["event"]},
        commands={"a": sa["command"], "b": sb["command"]},
        state=structural_diff(sa["state"], sb["state"]),
        score=structural_diff(sa["score"], sb["score"]),
        rendered={"a": sa["render"], "b": sb["render"]},
        totals={"a": sa["score"]["scores"], "b": sb["score"]["scores"]},
        score_lines={
            "a": [f"{x['player']} {x['points']:+d}: {x['what']}" for x in sa["score"]["lines"]],
            "b": [f"{x['player']} {x['points']:+d}: {x['what']}" for x in sb["score"]["lines"]],
        },
    )
    return result


def diff_notes(a: Log, b: Log) -> list[dict[str, Any]]:
    """The positions where the two games' comments differ (text, author and mark; not their numbers
    or times), with each side's comments there."""
    out = []
    for position in sorted({c.position for c in a.notes.notes + b.notes.notes}):
        ca, cb = a.notes.at(position), b.notes.at(position)
        if [(c.by, c.mark, c.text) for c in ca] != [(c.by, c.mark, c.text) for c in cb]:
            move = move_at(a.rows if position <= len(a.rows) else b.rows, position)
            out.append({"move": move, "position": position, "a": [c.line() for c in ca], "b": [c.line() for c in cb]})
    return out


def with_notes(result: dict[str, Any], a: Log, b: Log) -> dict[str, Any]:
    """``diff --notes``: the comments compared too; logs whose events agree differ by their comments."""
    notes = diff_notes(a, b)
    result = {**result, "notes": notes}
    if notes and result.get("identical"):
        result.update(identical=False, reason=f"the logs hold the same events but their comments differ at"
                                              f" move {notes[0]['move']}")
    return result


def format_notes(d: dict[str, Any]) -> list[str]:
    out = []
    for n in d.get("notes", []):
        out.append(f"  comments at move {n['move']}:")
        out.extend(f"    - {line}" for line in n["a"] if line not in n["b"])
        out.extend(f"    + {line}" for line in n["b"] if line not in n["a"])
    return out


def format_diff(d: dict[str, Any]) -> str:
    id_a, id_b = d["ids"]
    out = [f"diff {id_a} {id_b}"]
    for h in d["header"]:
        out.append(f"  header {h['path']}: {words.value(h['a'])} | {words.value(h['b'])}")
    fork = d.get("fork")
    if fork:  # set by the caller from the store's record of forks (events/forks.py)
        after = f"move {fork['move']}" if fork.get("move") is not None else f"position {fork['position']}"
        out.append(f"  {fork['fork']} is a fork of {fork['parent']} after {after}:"
                   f" they share the first {fork['position']} events")
    out.append(f"  {d['reason']}")
    if d.get("position") is None:
        return "\n".join(out + format_notes(d))
    out[-1] = f"  {d['reason']}; they agree up to move {d['move'] - 1}"

    def cmd(c):
        return "(log ended)" if c is None else f"{c['actor']}: {c['command']}"

    def ev(e):
        return "(no event)" if e is None else e["text"]

    width = max(len(cmd(d["commands"]["a"])), len(ev(d["events"]["a"])), len(id_a), 20)
    out.append(f"  {id_a:<{width}} | {id_b}")
    out.append(f"  {cmd(d['commands']['a']):<{width}} | {cmd(d['commands']['b'])}")
    out.append(f"  {ev(d['events']['a']):<{width}} | {ev(d['events']['b'])}")
    ra, rb = d["rendered"]["a"], d["rendered"]["b"]
    only_a = [line for line in ra if line not in rb]
    only_b = [line for line in rb if line not in ra]
    out.append("  the game after it:" + ("" if only_a or only_b else " the same"))
    out.extend(f"    - {line}" for line in only_a)
    out.extend(f"    + {line}" for line in only_b)
    ta, tb = d["totals"]["a"], d["totals"]["b"]
    if ta == tb and d["score_lines"]["a"] == d["score_lines"]["b"]:
        out.append("  the score sheet after it: the same")
    else:
        out.append(f"  the score sheet after it: {words.scores(ta)} | {words.scores(tb)}")
        la, lb = d["score_lines"]["a"], d["score_lines"]["b"]
        out.extend(f"    - {line}" for line in la if line not in lb)
        out.extend(f"    + {line}" for line in lb if line not in la)
    out.extend(format_notes(d))
    out.append(f"  (- only in {id_a}, + only in {id_b})")
    return "\n".join(out)
