"""The workflows' own refusals (besides the kernel's and the store's), each a kind in the CLI's JSON
errors (cli/app.py ``_KINDS``) and a 400 of the server."""

from __future__ import annotations

from solrec.core.errors import SolrecError


class UsageRefused(SolrecError):
    """Options that do not go together, or one that is missing (what Typer cannot check)."""


class NothingToUndo(SolrecError):
    """``undo``: no command (or fewer than asked) can be taken back."""


class ChanceStays(SolrecError):
    """``undo``: seeded chance goes only with the command that caused it."""


class CommentsStay(SolrecError):
    """``undo``: the moves to take back carry comments, which go only when asked (``--drop-comments``)."""
