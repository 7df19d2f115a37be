"""The study page: one game and its forks (variations) as chapters of one printable page, every
move numbered as everywhere else (move N: the record's N-th line), the comments inline at their
moves, each chapter drawn at its commented moves (the move in words, its comments, the board after
it), and its board and score totals at its end. ``solrec html --study`` writes it (a
self-contained file: inline style, no script, no request); ``solrec serve`` serves it to the referee
(then its style is the server's ``/static/study.css``: the server's pages allow no inline style).

Pure: loaded logs in, the page as a string out. What the table cannot see follows the ``show`` rule:
public notation and pictures unless ``reveal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import attrs

from solrec.core import words
from solrec.core.game import CHANCE
from solrec.core.observe import Viewer

from .log import Log, move_at, state_at, walk
from .seen import seen, seen_command, seen_said

_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'

CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 0 auto; max-width: 60em; padding: 10px 16px;
  color: #1a1a1a; background: #fff; }
h1 { font-size: 22px; margin: 4px 0; }
.meta { color: #555; font-size: 13px; margin: 0 0 10px 0; }
nav.chapters { font-size: 14px; margin: 8px 0 14px 0; }
nav.chapters a { margin-right: 10px; }
section.chapter { border-top: 2px solid #1d2b44; padding-top: 6px; margin-top: 18px; }
section.chapter h2 { font-size: 18px; margin: 4px 0; }
.leaves { color: #2e7d32; font-weight: bold; font-size: 14px; margin: 2px 0 8px 0; }
ol.moves { list-style: none; padding: 0; margin: 0; font-size: 14px; columns: 2 22em; column-gap: 24px; }
ol.moves > li { break-inside: avoid; padding: 1px 0; }
ol.moves > li.shared { color: #595959; }
.num { display: inline-block; min-width: 2.6em; color: #595959; text-align: right; margin-right: 6px; }
.cmd { font-family: DejaVu Sans Mono, monospace; background: #f1f1ea; padding: 0 4px; }
.actor { font-weight: bold; }
ul.notes { list-style: none; margin: 2px 0 4px 3.2em; padding: 0; }
ul.notes li { background: #fff8e1; border-left: 3px solid #f9a825; padding: 2px 6px; margin-bottom: 2px; }
.nmark { color: #c62828; font-weight: bold; }
.by { font-weight: bold; }
.end { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; margin-top: 8px; }
.board { width: 340px; max-width: 100%; }
.board svg { width: 100%; height: auto; }
.board pre { font-size: 11px; white-space: pre-wrap; }
.totals { font-weight: bold; }
.at-moves { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 10px; }
figure.at-move { margin: 0; width: 340px; max-width: 100%; break-inside: avoid; border: 1px solid #ddd; padding: 6px; }
figure.at-move figcaption { font-size: 14px; margin-bottom: 4px; }
figure.at-move .said { font-weight: bold; }
figure.at-move ul.notes { margin: 2px 0; }
figure.at-move .board { width: 100%; }
.notation { color: #555; }
.notation code { font-family: DejaVu Sans Mono, monospace; font-size: 12px; }
@media print {
  body { max-width: none; padding: 0; }
  nav.chapters { display: none; }
  section.chapter { break-before: page; }
  section.chapter:first-of-type { break-before: auto; }
  a { color: inherit; text-decoration: none; }
}
"""


@attrs.frozen
class Chapter:
    """One game of the study: the log, the game it is a variation of, and where it leaves it (the
    position the fork was made at, as ``forks`` records it)."""

    log: Log
    parent: str | None = None
    at: int = 0


def _board(log: Log, viewer: Viewer, position: int | None = None) -> str:
    """The board after ``position`` events (None: the chapter's end), as ``viewer`` sees it (``replay.seen``)."""
    look = seen(log, viewer, len(log.rows) if position is None else position)
    picture = look.svg()
    if picture:
        return picture.replace(_XML_DECL, "", 1).strip()
    return f"<pre>{escape(look.text)}</pre>"


def _notes(log: Log, position: int) -> str:
    items = []
    for n in log.notes.at(position):
        mark = f'<span class="nmark">{escape(n.mark)}</span> ' if n.mark else ""
        by = f'<span class="by">{escape(n.by)}:</span> ' if n.by else ""
        items.append(f'<li class="note" data-n="{n.n}">{mark}{by}{escape(n.text)}</li>')
    return f'<ul class="notes">{"".join(items)}</ul>' if items else ""


def _at_move(log: Log, viewer: Viewer, position: int, said: str, notation: str) -> str:
    """A commented move drawn: what was played, in words (its notation in small type), its
    comments, and the board after it."""
    move = move_at(log.rows, position)
    small = f' <small class="notation">(<code>{escape(notation)}</code>)</small>' if notation else ""
    return (f'<figure class="at-move" data-move="{move}"><figcaption><span class="said">{escape(said)}</span>{small}'
            f'{_notes(log, position)}</figcaption><div class="board">{_board(log, viewer, position)}</div></figure>')


def _chapter(k: int, chapter: Chapter, reveal: bool, names: dict[str, str]) -> str:
    log = chapter.log
    game = log.game
    shared = move_at(log.rows, chapter.at) if chapter.parent is not None else 0
    title = "the game" if chapter.parent is None else "a variation"
    out = [f'<section class="chapter" id="{escape(names[log.game_id])}" data-id="{escape(log.game_id)}">',
           f"<h2>Chapter {k}: {escape(log.game_id)} ({title})</h2>"]
    if chapter.parent is not None:
        parent = names.get(chapter.parent)
        ref = f'<a href="#{escape(parent)}">{escape(chapter.parent)}</a>' if parent else escape(chapter.parent)
        after = "at the set-up" if shared == 0 else f"after move {shared}"
        out.append(f'<p class="leaves" data-move="{shared}">It leaves {ref} {after}: the moves up to there are '
                   f"the same; from move {shared + 1} on they are its own.</p>")
    out.append('<ol class="moves">')
    if log.notes.at(0):
        out.append(f'<li data-move="0"><span class="num">0</span> the set-up{_notes(log, 0)}</li>')
    viewer = Viewer.referee() if reveal else Viewer.table()
    before = state_at(log, 0)
    position = 0
    commented = {n.position for n in log.notes.notes}
    # the chapter drawn at each commented move: the move in words, its comments, the board after it
    figures = [_at_move(log, viewer, 0, "the set-up", "")] if 0 in commented else []
    for group, events, after in walk(log):
        move = group[0].step + 1
        shown = seen_command(game, group[0].command, before, viewer)
        position += len(group)
        cls = ' class="shared"' if move <= shared else ""
        out.append(f'<li data-move="{move}"{cls}><span class="num">{move}</span><span class="actor">'
                   f"{escape(group[0].actor)}</span> <span class=\"cmd\">{escape(shown)}</span>{_notes(log, position)}</li>")
        if position in commented:
            actor = "Chance" if group[0].actor == CHANCE else group[0].actor
            said = seen_said(game, group[0].actor, group[0].command, events, before, viewer)
            figures.append(_at_move(log, viewer, position, f"move {move}: {actor} {said}", shown))
        before = after
    out.append("</ol>")
    if figures:
        out.append('<div class="at-moves">' + "".join(figures) + "</div>")
    state = before
    outcome = game.outcome(state)
    totals = ", ".join(f"{escape(p)} {t}" for p, t in game.score(state).totals)
    status = escape(outcome.reason) if outcome else f"{escape(str(game.to_act(state)))} to act"
    last = move_at(log.rows, len(log.rows))
    out.append(f'<div class="end"><div class="board">{_board(log, viewer)}</div><div>'
               f'<p>{"at the set-up" if last == 0 else f"after move {last}"}: {status}</p>'
               f'<p class="totals">{totals}</p></div></div></section>')
    return "\n".join(out)


def study_page(chapters: Sequence[Chapter], *, reveal: bool = False, stylesheet: str | None = None) -> str:
    """The study of ``chapters`` (the game first, then its forks, depth first). ``stylesheet``: a
    link to the style instead of an inline one (the server's pages)."""
    main = chapters[0].log
    names = {c.log.game_id: f"chapter-{k}" for k, c in enumerate(chapters, start=1)}
    header: dict[str, Any] = main.header.as_dict()
    opts = " ".join(f"{k}={words.value(v)}" for k, v in header["options"].items() if not (isinstance(v, str) and len(v) > 80))
    meta = f"{main.game.title}; players {', '.join(header['players'])}; chance {header['chance']}; rules {header['rules']}"
    style = (f'<link rel="stylesheet" href="{escape(stylesheet)}">' if stylesheet
             else f"<style>{CSS}</style>")
    csp = "" if stylesheet else (
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">")
    nav = "".join(f'<a href="#{names[c.log.game_id]}">{k}. {escape(c.log.game_id)}</a>'
                  for k, c in enumerate(chapters, start=1))
    body = "\n".join(_chapter(k, c, reveal, names) for k, c in enumerate(chapters, start=1))
    forks = len(chapters) - 1
    return (
        f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{csp}"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>study of {escape(main.game_id)}</title>{style}</head><body>"
        f"<h1>Study of {escape(main.game_id)}</h1>"
        f'<p class="meta">{escape(meta)}{"; options " + escape(opts) if opts else ""}; '
        f"the game and {forks} variation{'' if forks == 1 else 's'}, each a chapter; move N is the N-th line "
        "of the record</p>"
        f'<nav class="chapters">{nav}</nav>\n{body}\n</body></html>\n'
    )


def chapters_of(store: Any, game_id: str, load: Any) -> list[Chapter]:
    """The game and its forks, depth first, as chapters (``load``: reads a stored game's log)."""
    from solrec.events.forks import descendants

    out = [Chapter(load(store, game_id))]
    for fork, parent, position in descendants(store, game_id):
        out.append(Chapter(load(store, fork), parent, position))
    return out
