"""The replay page: one self-contained HTML file (inline CSS, JS and SVG; no request leaves it) that
steps through a recorded game, and the same page for two logs side by side (``diff``).

Pure: takes loaded logs, returns the page as a string; writing it is the CLI's business.

The page steps through the game move by move: *move* k is the game's k-th command, the k-th line
of its record, chance lines included (move 0: the set-up), the number every other output uses; the
position (events applied) rides along for programs. For each command the page shows the actor and the command
in the game's notation, the events it caused, the position after them, the board (the game's ``svg``)
and the score sheet with each line's explanation and rule. Hidden information follows the ``show``
rule: commands in their public notation and pictures without what the table cannot see, unless
``reveal``.

What repeats is stored once: every distinct SVG line and every distinct score-sheet line goes into a
table, and each command lists indices into those tables (runs of consecutive indices as ``[first,
count]`` pairs), so a game of a few hundred commands stays a few hundred kilobytes to a few
megabytes. Building it takes time in proportion to the game's length: each command's picture and
score sheet once, the pictures' unchanged parts drawn once (the games' ``render.py``).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Sequence
from itertools import compress, count, repeat
from typing import Any, cast

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError
from solrec.core.observe import Viewer
from solrec.core.play import initial_state
from solrec.core.words import quoted

from .diff import diff as diff_logs
from .impact import sheets_side_by_side
from .log import Log, walk
from .marks import marks_of
from .seen import header_seen, seen_event

_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'

# The page holds a picture and a score sheet per command: a Solari game of 19,691 events made a page
# of 14.6 MB in 18 s of CPU (bench/bench_html.py), about as much as a browser steps through
# comfortably. Longer games are refused up front; `replay` and `svg --at` show them.
MAX_EVENTS = 20_000


def check_size(events: int) -> None:
    """Refuse (before any work) a page that would hold more than ``MAX_EVENTS`` events."""
    if events > MAX_EVENTS:
        raise InvalidSetup(
            f"html draws at most {MAX_EVENTS:,} events and this page would hold {events:,}: one picture and "
            "score sheet per command make a longer game's page too slow to build and to step through "
            "(replay and svg --at show any position of it)")


class _Tables:
    """The shared tables: each distinct string (SVG line) or score line stored once."""

    def __init__(self) -> None:
        self._frag_index: dict[str, int] = {}  # in insertion order: the fragments
        self.lines: list[list[Any]] = []
        self._line_index: dict[tuple, int] = {}

    @property
    def fragments(self) -> list[str]:
        return list(self._frag_index)

    def svg(self, picture: str) -> list[list[int]]:
        """The picture as runs ``[first, count]`` of consecutive fragment indices. Pictures of
        neighbouring positions share most lines: the lines are looked up all at once, and only the
        new ones (a few per command) one by one."""
        index = self._frag_index
        parts = picture.replace(_XML_DECL + "\n", "", 1).rstrip("\n").split("\n")
        found: list[int | None] = list(map(index.get, parts))
        for k in compress(count(), map(operator.is_, found, repeat(None))):
            found[k] = index.setdefault(parts[k], len(index))  # new, or new earlier in this picture
        ids = cast(list[int], found)
        # a run breaks where an index is not the one before it plus one
        breaks = [0, *compress(count(1), map(operator.ne, map(operator.sub, ids[1:], ids[:-1]), repeat(1))), len(ids)]
        return [[ids[a], b - a] for a, b in zip(breaks, breaks[1:])]

    def line(self, player: str, points: int, what: str, rule: str) -> int:
        key = (player, points, what, rule)
        i = self._line_index.get(key)
        if i is None:
            i = self._line_index[key] = len(self.lines)
            self.lines.append([player, points, what, rule])
        return i


def _status(game, state) -> str:
    outcome = game.outcome(state)
    if outcome is not None:
        return f"game over: {outcome.reason}"
    who = game.to_act(state)
    return f"{who} to act" if who else ""


Progress = Callable[[int], None] | None  # called with 1 after each command drawn


def replay_data(log: Log, tables: _Tables, *, reveal: bool = False, player: str | None = None,
                progress: Progress = None) -> dict[str, Any]:
    """Plain data of one log's replay (the engine's view after every command, or ``player``'s: the
    table and his own hand), indexing ``tables``."""
    game = log.game
    header = log.header
    seer = Viewer.of(player, reveal)
    observe = game.observation
    marks = marks_of(log.notes.notes)

    def step(number: int, position: int, actor: str, command: str, events: list[str], state, last) -> dict:
        sheet = game.score(state)
        picture = observe.svg(state, seer, last=last)
        notes = [{"n": c.n, "by": c.by, "mark": c.mark, "text": c.text} for c in log.notes.at(position)]
        # a review's mark and loss, a bot's move (replay/marks.py): only on the moves that have them
        marked = marks.get(position) if number else None
        extra = {k: v for k, v in (("review", marked.review()), ("bot", marked.bot)) if v} if marked else {}
        return {
            **extra,
            "notes": notes,
            "number": number,
            "position": position,
            "actor": actor,
            "command": command,
            "events": events,
            "svg": tables.svg(picture) if picture else None,
            "text": None if picture else observe.text(state, seer),
            "lines": [tables.line(ln.player, ln.points, ln.what, ln.rule) for ln in sheet.lines],
            "totals": [[p, t] for p, t in sheet.totals],
            "status": _status(game, state),
        }

    before = initial_state(game, header)
    steps = [step(0, 0, "", "", [], before, None)]
    position = 0
    for group, events, after in walk(log):
        position += len(group)
        written = group[0].command
        try:
            parsed = game.parse(written, before)
        except SolrecError as err:
            if not reveal:
                # the log's own command does not read where it stands: damaged stored data, a verdict
                raise CorruptLog(f"game {quoted(log.game_id)} move {len(steps)} ({quoted(written)}) does not read "
                                 f"where it stands: {err}", group[0].seq) from None
        else:
            written = observe.command(parsed, before, seer)
        steps.append(step(len(steps), position, group[0].actor, written,
                          [game.describe_event_at(e, before) for e in events if seen_event(game, e, seer).described],
                          after, events))
        if progress is not None:
            progress(1)
        before = after
    info = header_seen(log, seer)  # a seed tells every future draw: the referee's only
    # An option that carries data (a component set's content) is named by its size, not printed whole.
    info["options"] = {
        k: (f"<{len(v):,} characters>" if isinstance(v, str) and len(v) > 80 else v)
        for k, v in info["options"].items()
    }
    return {"id": log.game_id, "title": game.title, "header": info, "reveal": reveal, "steps": steps}


def _json(data: Any) -> str:
    # Inside <script>: "</" and "<!--" must not appear literally.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def _page(title: str, payload: dict[str, Any]) -> str:
    return _TEMPLATE.replace("__TITLE__", _escape(title)).replace("__DATA__", _json(payload))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def page(log: Log, *, reveal: bool = False, player: str | None = None, progress: Progress = None,
         at: int | None = None, links: dict[str, Any] | None = None) -> str:
    """The replay page of one log (``player``: as that player sees it); ``progress`` is called after
    each command drawn.

    It opens at the move that ends at position ``at`` (or the last one before it); without ``at``,
    a finished game opens at its end and a running one at the set-up. A ``#move=N`` fragment in the
    page's address opens move N instead (an older ``#pos=N``, the move position N lies in), and
    moving updates it. ``links``: the pages of the
    game's variations, ``{"forks": [{"id", "at", "href"}], "parent": {"id", "at", "href"} | None}``,
    shown at the positions they branch from."""
    check_size(len(log.rows))
    tables = _Tables()
    game = replay_data(log, tables, reveal=reveal, player=player, progress=progress)
    steps = game["steps"]
    if at is None:
        start = len(steps) - 1 if steps[-1]["status"].startswith("game over") else 0
    else:
        start = max(k for k, s in enumerate(steps) if s["position"] <= at)
    game["start"] = start
    game["links"] = links or {"forks": [], "parent": None}
    payload = {"fragments": tables.fragments, "lines": tables.lines, "games": [game], "divergence": None}
    return _page(f"{game['title']} {log.game_id}: replay", payload)


def _command_of(log: Log, position: int) -> int:
    """The move (1-based) whose events include the event at ``position`` (the one that takes the game
    from ``position`` to ``position + 1``); past the end, the last move + 1."""
    for k, group in enumerate(log.steps(), start=1):
        if group[0].seq <= position <= group[-1].seq:
            return k
    return len(log.steps()) + 1


def diff_page(a: Log, b: Log, *, reveal: bool = False, progress: Progress = None,
              names: tuple[str, str] | None = None, tested: dict[str, Any] | None = None) -> str:
    """Two logs side by side, stepping together, with the first divergence (``diff``'s) marked: the
    logs agree up to ``position``, and each side's move that holds the next event is marked; score
    lines one side has and the other has not are marked at every move, and the final score sheets are
    compared line by line below. ``names``: what each side is (``impact``: recorded, re-decided); then
    the page opens at the first differing move, and ``tested`` says what the report tested."""
    check_size(len(a.rows) + len(b.rows))
    result = diff_logs(a, b)
    tables = _Tables()
    games: Sequence[dict[str, Any]] = [replay_data(a, tables, reveal=reveal, progress=progress),
                                       replay_data(b, tables, reveal=reveal, progress=progress)]
    if names is not None:
        for g, label in zip(games, names):
            g["label"] = label
    final = [g["steps"][-1]["lines"] for g in games]
    rows = sheets_side_by_side([tuple(tables.lines[i]) for i in final[0]], [tuple(tables.lines[i]) for i in final[1]])
    index = {tuple(line): i for i, line in enumerate(tables.lines)}
    sheets = [[None if x is None else index[x], None if y is None else index[y], x != y] for x, y in rows]
    divergence: dict[str, Any] = {"reason": result["reason"], "position": result.get("position"),
                                  "header": result["header"]}
    if result.get("position") is not None:
        pos = result["position"] - 1  # the seq of the first event that differs (position = seq + 1)
        # a log that has no event there shows "log ended" at the command past its end
        divergence["commands"] = [_command_of(a, pos), _command_of(b, pos)]
    if names is not None and divergence.get("commands"):
        divergence["open"] = True
    from .impact import tested_lines

    payload = {"fragments": tables.fragments, "lines": tables.lines, "games": list(games), "divergence": divergence,
               "sheets": sheets, "tested": tested_lines(tested) if tested else []}
    return _page(f"diff {a.game_id} {b.game_id}", payload)


# The page. The Content-Security-Policy forbids every request: the file works offline and cannot leak.
_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 0; background: #f4f4f0; color: #1a1a1a; }
header { background: #1d2b44; color: #fff; padding: 8px 14px; }
header h1 { font-size: 18px; margin: 0 0 2px 0; }
header .meta { font-size: 12px; color: #c9d6f0; overflow-wrap: anywhere; }
header .meta summary { cursor: pointer; }
#divergence { background: #fde2e1; color: #8a1212; padding: 6px 14px; font-weight: bold; }
.controls { position: sticky; top: 0; background: #e8e8e2; padding: 8px 14px; display: flex; gap: 8px;
  align-items: center; flex-wrap: wrap; border-bottom: 1px solid #ccc; z-index: 1; }
.controls button { font-size: 15px; padding: 4px 10px; }
#slider { flex: 1; min-width: 160px; }
#stepinfo { font-weight: bold; min-width: 9em; }
.columns { display: flex; gap: 14px; padding: 10px 14px; align-items: flex-start; flex-wrap: wrap; }
.game { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 10px; flex: 1; min-width: 420px; }
.game.diverged { border: 3px solid #c62828; }
.game h2 { font-size: 15px; margin: 0 0 6px 0; }
.move { font-size: 14px; margin-bottom: 6px; }
.move .actor { font-weight: bold; }
.move .command { font-family: DejaVu Sans Mono, monospace; background: #f1f1ea; padding: 1px 5px; }
.events { font-size: 12px; color: #333; margin: 0 0 8px 18px; padding: 0; }
.row { display: flex; gap: 12px; flex-wrap: wrap; }
.board { width: 420px; max-width: 100%; }
.board svg { width: 100%; height: auto; }
.board pre { font-size: 12px; }
.sheet { flex: 1; min-width: 260px; font-size: 12px; }
.sheet table { border-collapse: collapse; width: 100%; }
.sheet td, .sheet th { border-bottom: 1px solid #e3e3e3; padding: 2px 4px; vertical-align: top; text-align: left; }
.sheet td.pts { text-align: right; white-space: nowrap; }
.sheet td.rule { color: #555; font-style: italic; }
.totals { font-size: 15px; font-weight: bold; margin: 4px 0 8px 0; }
.status { font-size: 13px; color: #1d2b44; margin-bottom: 6px; }
.mark { color: #c62828; font-weight: bold; }
.layout { display: flex; align-items: flex-start; }
.layout .columns { flex: 1; min-width: 0; }
#moves { width: 250px; max-height: calc(100vh - 60px); overflow-y: auto; margin: 10px 0 10px 14px; padding: 0;
  list-style: none; background: #fff; border: 1px solid #ccc; border-radius: 6px; font-size: 13px;
  position: sticky; top: 50px; }
#moves li { padding: 2px 8px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#moves li:hover { background: #eef2fa; }
#moves li.current { background: #1d2b44; color: #fff; }
#moves .num { display: inline-block; min-width: 2.5em; color: #595959; }
#moves li.current .num { color: #c9d6f0; }
#moves .cmd { font-family: DejaVu Sans Mono, monospace; }
#moves .marks { color: #c62828; font-weight: bold; margin-left: 4px; }
#moves li.current .marks { color: #ffb4b4; }
#moves .review { color: #c62828; font-weight: bold; margin-left: 4px; white-space: nowrap; }
#moves .bot { font-size: 11px; border: 1px solid #888; border-radius: 3px; padding: 0 3px; margin-left: 4px; }
#moves li.current .review { color: #ffb4b4; }
#moves .fork { color: #2e7d32; margin-left: 4px; }
.notes { margin: 0 0 8px 0; padding: 0; list-style: none; font-size: 13px; }
.notes li { background: #fff8e1; border-left: 3px solid #f9a825; padding: 3px 8px; margin-bottom: 3px; }
.notes .nmark { color: #c62828; font-weight: bold; margin-right: 4px; }
.notes .by { font-weight: bold; margin-right: 4px; }
.variations { font-size: 13px; margin: 0 0 8px 0; }
.variations a { color: #2e7d32; margin-right: 8px; }
.sheet tr.changed td { background: #fde2e1; }
.sheet td.chg, #final td.chg { color: #c62828; font-weight: bold; white-space: nowrap; }
#tested { background: #e8eefb; padding: 6px 14px; margin: 0; font-size: 13px; list-style: none; }
#final { margin: 0 14px 14px 14px; background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 8px; font-size: 12px; }
#final h2 { font-size: 15px; margin: 0 0 6px 0; }
#final table { border-collapse: collapse; width: 100%; table-layout: fixed; }
#final td, #final th { border-bottom: 1px solid #e3e3e3; padding: 2px 4px; vertical-align: top; text-align: left; }
#final th.chg, #final td.chg { width: 5.5em; }
#final tr.changed td { background: #fde2e1; }
#final .rule { color: #555; font-style: italic; }
/* A phone (390 px): one column, the board the page's width, the move list under it (issue 31). */
@media (max-width: 720px) {
  .layout { flex-direction: column; }
  .layout .columns { width: 100%; box-sizing: border-box; padding: 8px; }
  .game { min-width: 0; max-width: 100%; box-sizing: border-box; }
  .board { width: 100%; }
  .board pre { overflow-x: auto; }
  .sheet { min-width: 0; }
  #moves { order: 2; width: auto; max-height: 40vh; margin: 0 8px 10px; position: static; align-self: stretch; }
  .controls { padding: 6px 8px; gap: 6px; }
  .controls button { padding: 6px 8px; }
  #slider { min-width: 100%; order: 5; }
  #stepinfo { min-width: 0; }
  .sheet table { table-layout: fixed; overflow-wrap: anywhere; }
  #final table { table-layout: auto; }
}
</style>
</head>
<body>
<header><h1 id="title"></h1><details class="meta"><summary id="meta-line"></summary><div id="meta"></div></details></header>
<ul id="tested" hidden></ul>
<div id="divergence" hidden></div>
<div class="controls">
<button id="first" title="first (Home)">&laquo; first</button>
<button id="prev" title="previous (left arrow)">&#x25C0; prev</button>
<button id="next" title="next (right arrow)">next &#x25B6;</button>
<button id="last" title="last (End)">last &raquo;</button>
<input id="slider" type="range" min="0" value="0" aria-label="move">
<span id="stepinfo"></span>
<button id="jump" hidden>first divergence</button>
</div>
<div class="layout"><ol id="moves" hidden tabindex="0" aria-label="moves (click one to go there)"></ol><div class="columns" id="columns"></div></div>
<section id="final" hidden><h2>score sheets at the end, line by line (changed lines marked)</h2><table id="finaltable"></table></section>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
(function () {
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var F = DATA.fragments, L = DATA.lines, G = DATA.games, D = DATA.divergence;
  var maxStep = 0, current = 0, cols = [];
  G.forEach(function (g) { maxStep = Math.max(maxStep, g.steps.length - 1); });
  if (D && D.commands) maxStep = Math.max(maxStep, D.commands[0], D.commands[1]);
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svgOf(runs) {
    var out = [];
    runs.forEach(function (r) { for (var i = 0; i < r[1]; i++) out.push(F[r[0] + i]); });
    return out.join("\\n");
  }
  document.getElementById("title").textContent = G.length === 1
    ? G[0].title + " \\u2014 " + G[0].id + (G[0].reveal ? " (revealed)" : "")
    : "diff " + G[0].id + " | " + G[1].id + (G[0].reveal ? " (revealed)" : "");
  // the set-up folds under one line (a component set's digest is long): opened on a tap
  document.getElementById("meta-line").textContent = G.map(function (g) {
    var n = Object.keys(g.header.options).length;
    return "players " + g.header.players.join(", ") + (n ? " \u00b7 " + n + " option" + (n === 1 ? "" : "s") : "");
  }).join("  |  ");
  document.getElementById("meta").textContent = G.map(function (g) {
    var h = g.header, opts = Object.keys(h.options).map(function (k) { return k + "=" + h.options[k]; });
    return g.id + ": players " + h.players.join(", ") + "; chance " + h.chance +
      (h.seed !== undefined ? " (seed " + h.seed + ")" : "") + "; rules " + h.rules +
      (opts.length ? "; options " + opts.join(" ") : "") +
      (h.bots ? "; " + Object.keys(h.bots).map(function (p) { return p + ": bot " + h.bots[p]; }).join(", ") : "");
  }).join("  |  ");
  G.forEach(function (g, gi) {
    var box = el("section", "game");
    box.id = "game" + gi;
    box.appendChild(el("h2", "", g.id + (g.label ? " (" + g.label + ")" : "")));
    var move = el("div", "move");
    var actor = el("span", "actor"); actor.id = gi ? "actor" + gi : "actor";
    var command = el("span", "command"); command.id = gi ? "command" + gi : "command";
    move.appendChild(actor); move.appendChild(document.createTextNode(" ")); move.appendChild(command);
    var mark = el("span", "mark"); move.appendChild(document.createTextNode(" ")); move.appendChild(mark);
    var events = el("ul", "events"); events.id = gi ? "events" + gi : "events";
    var notes = el("ul", "notes"); notes.id = gi ? "notes" + gi : "notes";
    var variations = el("div", "variations"); variations.id = gi ? "variations" + gi : "variations";
    var status = el("div", "status"); status.id = gi ? "status" + gi : "status";
    var row = el("div", "row");
    var board = el("div", "board"); board.id = gi ? "board" + gi : "board";
    var sheet = el("div", "sheet");
    var totals = el("div", "totals"); totals.id = gi ? "totals" + gi : "totals";
    var table = el("table");
    sheet.appendChild(el("div", "", "score sheet")); sheet.appendChild(totals); sheet.appendChild(table);
    row.appendChild(board); row.appendChild(sheet);
    box.appendChild(move); box.appendChild(events); box.appendChild(notes); box.appendChild(variations);
    box.appendChild(status); box.appendChild(row);
    document.getElementById("columns").appendChild(box);
    cols.push({g: g, box: box, actor: actor, command: command, mark: mark, events: events, status: status,
      board: board, totals: totals, table: table, shownSvg: null, notes: notes, variations: variations});
  });
  // One game: a move list beside the board (click to go), and positions in the address (#pos=N)
  var single = G.length === 1, moves = document.getElementById("moves"), items = [];
  // a review's mark shows with its loss (s.review), a bot's move as "bot" (s.bot): not again as comments
  function ownNotes(s) { return s.notes.filter(function (n) { return !(s.review && n.by === "solrec review") && !(s.bot && n.by === "solrec bot"); }); }
  function marksOf(s) { return ownNotes(s).map(function (n) { return n.mark; }).filter(function (m) { return m; }); }
  function forksAt(g, s) { return g.links ? g.links.forks.filter(function (f) { return f.at === s.position; }) : []; }
  if (single) {
    moves.hidden = false;
    G[0].steps.forEach(function (s, k) {
      var li = el("li");
      li.id = "move" + k;
      li.appendChild(el("span", "num", k === 0 ? "" : String(k)));
      li.appendChild(document.createTextNode(k === 0 ? "the set-up" : s.actor + " "));
      if (k) li.appendChild(el("span", "cmd", s.command));
      if (s.review) { var r = el("span", "review", s.review); r.title = "solrec review: mark and estimated loss"; li.appendChild(r); }
      if (s.bot) { var b = el("span", "bot", "bot"); b.title = "played by the bot " + s.bot; li.appendChild(b); }
      var m = marksOf(s);
      if (m.length || ownNotes(s).length) li.appendChild(el("span", "marks", m.length ? m.join(" ") : "\u2026"));
      if (forksAt(G[0], s).length) li.appendChild(el("span", "fork", "\u21b3 variation"));
      li.title = "move " + k + " (position " + s.position + ")";
      li.onclick = function () { show(k); };
      moves.appendChild(li);
      items.push(li);
    });
  }
  function stepAt(position) {  // the move a position lies in (an older #pos=N link)
    var steps = G[0].steps, k = 0;
    steps.forEach(function (s, i) { if (s.position < position) k = i + 1; });
    return Math.min(k, steps.length - 1);
  }
  function fromFragment() {
    var m = /^#move=(\\d+)$/.exec(location.hash);
    if (m) return Math.min(parseInt(m[1], 10), maxStep);
    if (!single) return null;
    m = /^#pos=(\\d+)$/.exec(location.hash);
    return m ? stepAt(parseInt(m[1], 10)) : null;
  }
  var slider = document.getElementById("slider");
  slider.max = String(maxStep);
  if (D) {
    var banner = document.getElementById("divergence");
    banner.hidden = false;
    // one count: move N, the N-th line of the record
    banner.textContent = (D.commands ? (D.commands[0] === D.commands[1] ? "the games first differ in move " + D.commands[0] :
      "the games first differ in move " + D.commands[0] + " | move " + D.commands[1]) +
      "; they agree up to move " + (Math.min(D.commands[0], D.commands[1]) - 1) : D.reason) +
      D.header.map(function (h) { return "; header " + h.path + ": " + JSON.stringify(h.a) + " | " + JSON.stringify(h.b); }).join("");
    if (D.commands) document.getElementById("jump").hidden = false;
  }
  function show(k) {
    current = Math.max(0, Math.min(maxStep, k));
    slider.value = String(current);
    document.getElementById("stepinfo").textContent = "move " + current + " of " + maxStep +
      (current === 0 ? " (the set-up)" : "");
    cols.forEach(function (c, gi) {
      var steps = c.g.steps, s = steps[Math.min(current, steps.length - 1)];
      var ended = current > steps.length - 1;
      c.actor.textContent = s.number === 0 ? "the set-up" : s.actor + ":";
      c.command.textContent = s.number === 0 ? "" : s.command;
      c.command.hidden = s.number === 0;
      var diverged = D && D.commands && D.commands[gi] === current;
      c.mark.textContent = (ended ? "(the game ended after move " + (steps.length - 1) + ") " : "") +
        (diverged ? "\\u2190 first divergence" : "") + (!ended && s.review ? s.review + " " : "") +
        (!ended && s.bot ? "(played by the bot " + s.bot + ")" : "");
      c.box.classList.toggle("diverged", !!diverged);
      c.events.textContent = "";
      s.events.forEach(function (t) { c.events.appendChild(el("li", "", t)); });
      c.notes.textContent = "";
      (ended ? [] : s.notes).forEach(function (n) {
        var li = el("li");
        li.setAttribute("data-n", String(n.n));
        if (n.mark) { li.appendChild(el("span", "nmark", n.mark)); li.appendChild(document.createTextNode(" ")); }
        if (n.by) { li.appendChild(el("span", "by", n.by + ":")); li.appendChild(document.createTextNode(" ")); }
        li.appendChild(document.createTextNode(n.text));
        c.notes.appendChild(li);
      });
      c.variations.textContent = "";
      var links = ended ? [] : forksAt(c.g, s);
      var parent = c.g.links && c.g.links.parent;
      if (links.length) c.variations.appendChild(document.createTextNode("variations from here: "));
      links.forEach(function (f) { var a = el("a", "", f.id); a.setAttribute("href", f.href); c.variations.appendChild(a); });
      if (parent && s.position === parent.at) {
        c.variations.appendChild(document.createTextNode("a variation of "));
        var a = el("a", "", parent.id); a.setAttribute("href", parent.href); c.variations.appendChild(a);
      }
      c.status.textContent = (s.number === 0 ? "the set-up" : "after move " + s.number) + (s.status ? "; " + s.status : "");
      if (c.shownSvg !== s) {
        if (s.svg) c.board.innerHTML = svgOf(s.svg);
        else { c.board.textContent = ""; c.board.appendChild(el("pre", "", s.text)); }
        c.shownSvg = s;
      }
      c.totals.textContent = s.totals.map(function (t) { return t[0] + " " + t[1]; }).join(", ");
      c.table.textContent = "";
      var head = el("tr");
      ["player", "points", "what", "rule"].forEach(function (h) { head.appendChild(el("th", "", h)); });
      var two = cols.length === 2, other = {};
      if (two) {
        var os = cols[1 - gi].g.steps, o = os[Math.min(current, os.length - 1)];
        o.lines.forEach(function (i) { other[i] = (other[i] || 0) + 1; });
        head.insertBefore(el("th", "chg", ""), head.firstChild);
      }
      c.table.appendChild(head);
      if (!s.lines.length) {
        var none = el("tr"), td = el("td", "", "(no score lines yet)"); td.colSpan = 4; none.appendChild(td);
        c.table.appendChild(none);
      }
      s.lines.forEach(function (i) {
        var ln = L[i], tr = el("tr");
        if (two) {  // a line the other side does not hold at this move: changed
          var changed = !other[i];
          if (!changed) other[i] -= 1;
          tr.appendChild(el("td", "chg", changed ? "\u2731 changed" : ""));
          if (changed) tr.className = "changed";
        }
        tr.appendChild(el("td", "", ln[0]));
        tr.appendChild(el("td", "pts", (ln[1] > 0 ? "+" : "") + ln[1]));
        tr.appendChild(el("td", "", ln[2]));
        tr.appendChild(el("td", "rule", ln[3]));
        c.table.appendChild(tr);
      });
    });
    if (single) {
      items.forEach(function (li, k) { li.classList.toggle("current", k === current); });
      var item = items[current];
      if (item) {  // kept in view inside the list, without scrolling the page
        if (item.offsetTop < moves.scrollTop) moves.scrollTop = item.offsetTop;
        else if (item.offsetTop + item.offsetHeight > moves.scrollTop + moves.clientHeight)
          moves.scrollTop = item.offsetTop + item.offsetHeight - moves.clientHeight;
      }
    }
    var want = "#move=" + current;
    if (location.hash !== want) {
      try { history.replaceState(null, "", want); } catch (e) { location.hash = want; }
    }
  }
  if (DATA.tested && DATA.tested.length) {
    var tested = document.getElementById("tested");
    tested.hidden = false;
    DATA.tested.forEach(function (t) { tested.appendChild(el("li", "", t)); });
  }
  if (DATA.sheets && G.length === 2) {
    var fin = document.getElementById("final"), ft = document.getElementById("finaltable");
    fin.hidden = false;
    var fh = el("tr");
    fh.appendChild(el("th", "chg", ""));
    [G[0], G[1]].forEach(function (g) { fh.appendChild(el("th", "", g.id + (g.label ? " (" + g.label + ")" : ""))); });
    ft.appendChild(fh);
    var cellOf = function (i) {
      var td = el("td");
      if (i === null) { td.textContent = "(no line)"; return td; }
      var ln = L[i];
      td.appendChild(el("div", "", ln[0] + " " + (ln[1] > 0 ? "+" : "") + ln[1] + " " + ln[2]));
      if (ln[3]) td.appendChild(el("div", "rule", ln[3]));
      return td;
    };
    DATA.sheets.forEach(function (r) {
      var tr = el("tr");
      if (r[2]) tr.className = "changed";
      tr.appendChild(el("td", "chg", r[2] ? "\u2731 changed" : ""));
      tr.appendChild(cellOf(r[0])); tr.appendChild(cellOf(r[1]));
      ft.appendChild(tr);
    });
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(current - 1); };
  document.getElementById("next").onclick = function () { show(current + 1); };
  document.getElementById("last").onclick = function () { show(maxStep); };
  document.getElementById("jump").onclick = function () { show(Math.min(D.commands[0], D.commands[1])); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;  // the slider moves itself with the arrows
    if (e.key === "ArrowRight") { show(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(maxStep); e.preventDefault(); }
  });
  window.addEventListener("hashchange", function () { var k = fromFragment(); if (k !== null) show(k); });
  var opening = fromFragment();
  // an impact page opens where the games first differ
  var divergent = D && D.open && D.commands ? Math.min(D.commands[0], D.commands[1]) : 0;
  show(opening !== null ? opening : (single ? G[0].start || 0 : divergent));
})();
</script>
</body>
</html>
"""
