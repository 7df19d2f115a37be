"""What people read: values in the games' and the record format's words, never Python's.

One formatter for every text surface (the CLI, ``diff``, ``validate``, ``explain``): JSON's
``true``/``false``/``null``, strings unquoted where that is unambiguous, names joined in prose
("Ann and Bob"), a score map as "Ann 8, Bob 5". Pure; nothing game-specific.

People count moves: move N is the N-th line of the record (a command, a chance line among them),
counting from 1; the set-up is move 0, and "after move N" is the state its last event leads to.
Positions (events applied, 0 = the set-up) stay for programs, beside every move in JSON; the event
stored at ``seq`` k leads to position k + 1 and belongs to move ``step`` + 1. ``at_event`` words that
once for every message about a stored event.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

# A string prints bare when nothing in it could be read as another value or as punctuation of the
# text around it: no quotes, commas, brackets, leading/trailing spaces, and not "true"/"null"/a number.
_BARE = re.compile(r"[^\s\"',\[\]{}|:;]+(?: [^\s\"',\[\]{}|:;]+)*")
_LITERAL = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def names(items: Iterable[Any], empty: str = "nobody") -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``; ``empty`` for none."""
    parts = [value(x) for x in items]
    if not parts:
        return empty
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def scores(totals: Mapping[str, Any]) -> str:
    """A score map as a table says it: ``Ann 8, Bob 5``."""
    return ", ".join(f"{p} {value(v)}" for p, v in totals.items()) if totals else "no scores"


def value(v: Any) -> str:
    """One plain value (a header field, an option, a piece of state) in the record format's words."""
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, str):
        return v if _BARE.fullmatch(v) and not _LITERAL.fullmatch(v) else json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, Mapping):
        if all(isinstance(k, str) and not isinstance(x, (Mapping, list, tuple)) for k, x in v.items()):
            return scores(v) if v else "{}"
        return json.dumps(v, ensure_ascii=False, default=str)
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, str) for x in v):
            return names(v)
        return json.dumps(list(v), ensure_ascii=False, default=str)
    return json.dumps(str(v), ensure_ascii=False)


def outcome(o: Mapping[str, Any] | None, totals: Mapping[str, Any] | None = None) -> str:
    """An outcome (``Outcome.as_dict``) as a sentence's head: ``Ann and Cid win``, ``a draw``, and a
    solo game's ``Ann won``, ``Ann lost``, ``Ann scored -150``. An outcome stored before ``result``
    existed (it had ``winner`` beside ``winners``) reads the same."""
    if o is None:
        return "not over"
    winners = list(o.get("winners") or [])
    ranking = list(o.get("ranking") or [])
    result = o.get("result") or ("won" if winners else "drawn")
    if len(ranking) == 1:  # a solo game: won or lost, or scored
        score = f" {value(totals[ranking[0]])}" if result == "scored" and totals and ranking[0] in totals else ""
        return f"{ranking[0]} {result}{score}"
    if winners:
        return f"{names(winners)} win" + ("" if len(winners) > 1 else "s")
    return "a draw"


def at_event(seq: int, step: int | None = None) -> str:
    """Where a stored event lies, in the one count people see: its move (the command it belongs to,
    ``step`` + 1); without the step (an event missing from the log), the position it leads to."""
    return f"position {seq + 1}" if step is None else f"move {step + 1}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games``: a count with its noun in the right number."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def quoted(v: Any) -> str:
    """What someone typed or a stored file holds, quoted in a message as the record format quotes text:
    ``"e3"`` (double quotes and JSON's escapes, never Python's ``'e3'``), what is not printable shown
    escaped; a value that is not text as ``value`` says it."""
    if not isinstance(v, str):
        return value(v)
    return one_line(json.dumps(v, ensure_ascii=False))


@attrs.frozen
class Said:
    """One event said once, in the past tense (issue 41): ``words`` follow the name of its ``actor``
    (the player the event names; None where it names none, or names him inside the words). The
    record's line (``log``, the replay page, the move list) and the "since your last move" sentence
    are both made from it. ``told`` False: a detail that sentence leaves to the move list."""

    words: str
    actor: str | None = None
    told: bool = True

    def line(self) -> str:
        """The record's line: the actor's name, then the words."""
        return f"{self.actor} {self.words}" if self.actor else self.words

    def after(self, actor: str) -> str:
        """The words after ``actor``'s name in "since your last move" ("" for a detail left out); an
        event of another player follows as what came of it: "then Ann passed"."""
        if not self.told:
            return ""
        return self.words if self.actor in (None, actor) else f"then {self.actor} {self.words}"


# Escapes for text a stored file may hold and input refuses (the CLI's guard, the server's pages).
def one_line(message: str) -> str:
    """The message on one line: newlines, ESC and other control characters shown escaped."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def shown(text: str) -> str:
    """Output text with what a stored file may hold and input refuses (control characters such as
    ESC, bidi overrides such as U+202E: every character that is not printable) shown escaped, as
    ``one_line`` shows them in a refusal; the output's own line breaks are kept."""
    if text.replace("\n", "").isprintable():
        return text
    return "\n".join(map(one_line, text.split("\n")))
