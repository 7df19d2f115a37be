"""Diff two logs: the first position where they differ, the events there side by side, and a
structured difference of the two states and score sheets at that point."""

from __future__ import annotations

from typing import Any

from solrec.events.codec import to_plain

from .log import Log, state_at


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


def diff(a: Log, b: Log) -> dict[str, Any]:
    header_diff = structural_diff(a.header.as_dict(), b.header.as_dict())
    result: dict[str, Any] = {"a": a.game_id, "b": b.game_id, "header": header_diff}
    if a.header.game != b.header.game:
        result.update(identical=False, position=None, reason="different games")
        return result
    game = a.game
    ev_a, ev_b = a.events(), b.events()
    position = None
    for i in range(max(len(ev_a), len(ev_b))):
        x = ev_a[i] if i < len(ev_a) else None
        y = ev_b[i] if i < len(ev_b) else None
        if x is None or y is None or type(x) is not type(y) or to_plain(x) != to_plain(y):
            position = i
            break
    if position is None:
        result.update(identical=not header_diff, position=None, reason="the logs hold the same events")
        return result

    def side(log: Log, events: list) -> dict[str, Any]:
        event = events[position] if position < len(events) else None
        row = log.rows[position] if position < len(log.rows) else None
        at = min(position + 1, len(events))
        state = state_at(log, at)
        sheet = game.score(state)
        return {
            "command": None if row is None else {"actor": row.actor, "command": row.command},
            "event": None if event is None else {"type": event.TYPE, "text": game.describe_event(event), "data": to_plain(event)},
            "state": to_plain(state),
            "score": sheet.as_dict(),
        }

    sa, sb = side(a, ev_a), side(b, ev_b)
    result.update(
        identical=False,
        position=position,
        reason=f"the logs first differ at event {position}",
        events={"a": sa["event"], "b": sb["event"]},
        commands={"a": sa["command"], "b": sb["command"]},
        state=structural_diff(sa["state"], sb["state"]),
        score=structural_diff(sa["score"], sb["score"]),
    )
    return result


def format_diff(d: dict[str, Any]) -> str:
    out = [f"diff {d['a']} {d['b']}"]
    for h in d["header"]:
        out.append(f"  header {h['path']}: {h['a']!r} | {h['b']!r}")
    if d.get("position") is None:
        out.append(f"  {d['reason']}")
        return "\n".join(out)
    out.append(f"  {d['reason']}")

    def cmd(c):
        return "(log ended)" if c is None else f"{c['actor']}: {c['command']}"

    def ev(e):
        return "(no event)" if e is None else e["text"]

    width = max(len(cmd(d["commands"]["a"])), len(ev(d["events"]["a"])), 20)
    out.append(f"  {'a':<{width}} | b")
    out.append(f"  {cmd(d['commands']['a']):<{width}} | {cmd(d['commands']['b'])}")
    out.append(f"  {ev(d['events']['a']):<{width}} | {ev(d['events']['b'])}")
    out.append("  state after it:")
    for s in d["state"] or [{"path": "(none)", "a": "", "b": ""}]:
        out.append(f"    {s['path']}: {s['a']!r} | {s['b']!r}")
    out.append("  score sheet after it:")
    for s in d["score"] or [{"path": "(same)", "a": "", "b": ""}]:
        out.append(f"    {s['path']}: {s['a']!r} | {s['b']!r}")
    return "\n".join(out)
