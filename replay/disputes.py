"""The referee's disputes: every comment marked as a question or a dispute, across the games of a
corpus, newest first, each at its move (``solrec list --marked``, and the disputes page of
``solrec serve``).

A comment sits on a position (events applied, events/notes.py); people name it by its move, the
move that ends there, so each game with such a comment is read (verified, as every reading
command does) to say which.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solrec.core.errors import SolrecError
from solrec.events import notes

from .log import load, move_at

# The marks a referee looks at: a question (?, ??), a dispute and its ruling.
DISPUTE_MARKS = ("disputed", "ruled", "?", "??")
# The opening of a comment solrec wrote, not a person (the ruling kept when the referee takes back
# past what had been shown): in the text, so the stored format and the comments' chain stay as they are.
AUTOMATIC = "(automatic) "


def automatic(text: str) -> str:
    """``text`` as an automatic comment's."""
    return AUTOMATIC + text


def is_automatic(text: str) -> bool:
    """Whether a comment's text is one solrec wrote (``automatic``): the one place that reads the mark."""
    return text.startswith(AUTOMATIC)


def disputes(stores: Iterable[Any], marks: Iterable[str] = DISPUTE_MARKS, with_automatic: bool = True) -> list[dict[str, Any]]:
    """The comments marked with one of ``marks`` in every game of ``stores``, newest first (by
    time, then by game and number): ``{"id", "game", "move", "position", "n", "mark", "by", "time",
    "text", "automatic"}``; without the automatic ones (``is_automatic``) unless ``with_automatic``.
    A game whose stored data is damaged is left out (``validate`` names it)."""
    wanted = tuple(marks)
    out = []
    for store in stores:
        ids: set[str] = set()
        for mark in wanted:
            ids |= notes.games_marked(store, mark)
        for gid in sorted(ids):
            try:
                log = load(store, gid)
            except SolrecError:
                continue
            for n in log.notes.notes:
                if n.mark in wanted and (with_automatic or not is_automatic(n.text)):
                    out.append({"id": gid, "game": log.header.game, "move": move_at(log.rows, n.position),
                                "position": n.position, "n": n.n, "mark": n.mark, "by": n.by, "time": n.time,
                                "text": n.text, "automatic": is_automatic(n.text)})
    out.sort(key=lambda d: (d["time"], d["id"], d["n"]), reverse=True)
    return out


def line(d: dict[str, Any]) -> str:
    """``solari-disputed move 12 #2 [disputed] Ann: text``"""
    who = f" {d['by']}:" if d["by"] else ""
    return f"{d['id']} move {d['move']} #{d['n']} [{d['mark']}]{who} {d['text']}".rstrip()
