"""The CLI's own refusals, each with its kind in a JSON error (cli/app.py ``_KINDS``; docs/output.md lists
them). A module of its own, below every other CLI module, so that any of them may raise these."""

from __future__ import annotations

from solrec.core.errors import SolrecError

# the refusals of the workflows both the CLI and the server call, kept there (their kinds are the CLI's)
from solrec.workflows.errors import ChanceStays, NothingToUndo, UsageRefused  # noqa: F401


class Declined(SolrecError):
    """The person asked said no (``delete`` without confirming)."""


class HiddenInformation(SolrecError):
    """The output would show what the players cannot see while the game runs (without ``--reveal``)."""


class Unsupported(SolrecError):
    """The game has no such tool (no solver, no picture)."""


class Unreadable(SolrecError):
    """A file cannot be read as asked (a directory where a file is due): an ``io`` refusal."""
