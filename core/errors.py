"""Typed refusals, in the manner of python-chess: every one carries a reason a player understands.

- ``InvalidCommand``: the text does not parse as a command of this game (a typo, a bad notation).
- ``WrongActor``: a well-formed command from someone who is not to act (chance included).
- ``IllegalCommand``: the rules forbid the command in this position.
- ``AmbiguousCommand``: the text fits more than one legal command; the reason lists them.
- ``InvalidSetup``: unknown game, bad option, wrong number of players.
- ``StoreError`` and its kinds live in ``solrec.events``; ``CorruptLog`` is raised when stored
  data cannot be read back.
"""

from __future__ import annotations


class SolrecError(Exception):
    """Base of every error solrec reports to a user; ``str(err)`` is one readable line."""

    @property
    def reason(self) -> str:
        return str(self)


class InvalidCommand(SolrecError, ValueError):
    """The command text does not parse."""


class AmbiguousCommand(InvalidCommand):
    """The command text matches several legal commands."""


class WrongActor(SolrecError):
    """The command comes from someone who is not to act."""


class IllegalCommand(SolrecError):
    """The rules forbid this command now."""


class InvalidSetup(SolrecError, ValueError):
    """Unknown game, unknown or malformed option, unsuitable players."""


class CorruptLog(SolrecError):
    """Stored data cannot be decoded or does not fit the game. ``position``: the event where the
    problem lies, when it lies in one (a verdict names it)."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message)
        self.position = position


def json_reason(err: BaseException) -> str:
    """Why text did not read as JSON (or a value did not unpack), in one line of plain words: a
    number over Python's limit of 4300 digits is named as such, not by the setting that lifts it."""
    if isinstance(err, RecursionError):
        return "nested too deeply"
    text = str(err)
    if "integer string conversion" in text:
        return "it holds a number of more than 4300 digits"
    msg = getattr(err, "msg", None)  # json.JSONDecodeError: the reason without the position
    if isinstance(err, ValueError) and isinstance(msg, str):
        return msg
    return text.splitlines()[0] if text else type(err).__name__



class UndeclaredField(TypeError):
    """A game's state or event holds a field its observation does not declare (public, the owner's,
    or hidden), or declares one it does not hold: the game is refused when it is loaded, because a
    field nobody declared would otherwise be shown to everyone (a bug in the game, not a user's)."""
