"""The CLI's own refusals, each with its kind in a JSON error (cli/app.py ``_KINDS``; the README lists
them). A module of its own, below every other CLI module, so that any of them may raise these."""

from __future__ import annotations

from solrec.core.errors import SolrecError


class UsageRefused(SolrecError):
    """Options that do not go together, or one that is missing (what Typer cannot check)."""


class NothingToUndo(SolrecError):
    """``undo``: no command (or fewer than asked) can be taken back."""


class ChanceStays(SolrecError):
    """``undo``: seeded chance goes only with the command that caused it."""


class Declined(SolrecError):
    """The person asked said no (``delete`` without confirming)."""


class HiddenInformation(SolrecError):
    """The output would show what the players cannot see while the game runs (without ``--reveal``)."""


class Unsupported(SolrecError):
    """The game has no such tool (no solver, no picture)."""


class Unreadable(SolrecError):
    """A file cannot be read as asked (a directory where a file is due): an ``io`` refusal."""
