"""What a move's comments say about the move itself: a review's mark and estimated loss (``solrec
review``), and whether a bot played it (a bot seat of ``solrec serve``). Pure: read from the comments
(events/notes.py) every surface already shows, so the move list of the CLI's ``log``, the replay page
and the server's pages mark a move alike.

A review comment is by "solrec review", marked as lichess marks its reviews (``?!`` inaccuracy, ``?``
mistake, ``??`` blunder; docs/ai.md), its text "blunder: estimated loss 0.35 against ... (bot ...)".
A bot's move carries a comment by "solrec bot", "played by the bot KIND[:SETTINGS]" (server/bots.py
writes it just after the move). Both sit at the position after the move, where comments on a move go.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

REVIEWER = "solrec review"  # the author of ``solrec review``'s comments (ai/records.py: REVIEWER)
BOT_AUTHOR = "solrec bot"  # the author of the comment that marks a bot's move
BOT_PLAYED = "played by the bot "
REVIEW_MARKS = ("?!", "?", "??")
_LOSS = re.compile(r"estimated loss (\d+(?:\.\d+)?)")


@attrs.frozen
class MoveMark:
    """A move's marks: the review's (``mark`` "" where none) and its estimated loss, the bot that
    played it ("" for a person)."""

    mark: str = ""
    loss: float | None = None
    bot: str = ""

    def review(self) -> str:
        """``?? -0.35``: the mark and the estimated loss, as the move lists show them ("" unreviewed)."""
        if not self.mark:
            return ""
        return self.mark if self.loss is None else f"{self.mark} -{self.loss:.2f}"

    def as_dict(self) -> dict[str, object]:
        return {"mark": self.mark or None, "loss": self.loss, "bot": self.bot or None}


def bot_note_text(bot: str) -> str:
    return BOT_PLAYED + bot


def move_marks(notes: Iterable[tuple[int, str, str, str]]) -> dict[int, MoveMark]:
    """The marks of the moves, by the position after each, from comments given as (position, by,
    mark, text)."""
    out: dict[int, MoveMark] = {}
    for position, by, mark, text in notes:
        if by == REVIEWER and mark in REVIEW_MARKS:
            found = _LOSS.search(text)
            loss = float(found.group(1)) if found else None
            out[position] = attrs.evolve(out.get(position, MoveMark()), mark=mark, loss=loss)
        elif by == BOT_AUTHOR and text.startswith(BOT_PLAYED):
            out[position] = attrs.evolve(out.get(position, MoveMark()), bot=text[len(BOT_PLAYED):].strip())
    return out


def marks_of(notes: Iterable[object]) -> dict[int, MoveMark]:
    """``move_marks`` of stored comments (``events.notes.Note``)."""
    return move_marks((n.position, n.by, n.mark, n.text) for n in notes)  # type: ignore[attr-defined]
