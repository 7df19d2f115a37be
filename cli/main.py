"""The ``solrec`` command line (Typer): wires the command modules onto the app (cli/app.py).

Each command module registers its commands on import; ``HELP_ORDER`` is the order of ``solrec --help``:
the table first, then the audit, records, and the rest.
"""

from __future__ import annotations

import sys

from . import (  # noqa: F401  (they register their commands on app)
    annotate,
    audit,
    components,
    impact,
    manage,
    pictures,
    records,
    seal,
    serve,
    solve,
    table,
    variations,
)
from .app import app

__all__ = ["app", "run"]

HELP_ORDER = (
    "games", "new", "play", "legal", "undo", "fork", "note", "show", "log", "score", "replay", "diff", "validate", "impact", "shard",
    "export", "import", "simulate", "list", "rename", "delete", "seal", "svg", "html", "solve", "components", "card", "serve",
)
app.registered_commands.sort(key=lambda c: HELP_ORDER.index(c.name) if c.name in HELP_ORDER else len(HELP_ORDER))


def run() -> None:
    """Console entry point. Typer builds every command's parameters on each call; when the call
    names one command, only that one is built (start-up: the CLI is typed once per move)."""
    import os

    word = sys.argv[1] if len(sys.argv) > 1 else ""
    completing = any(k.startswith("_SOLREC") and k.endswith("_COMPLETE") for k in os.environ)
    named = [c for c in app.registered_commands if c.name == word]
    if named and not completing:
        app.registered_commands = named
    app()


if __name__ == "__main__":  # pragma: no cover - `python -m solrec.cli.main`
    run()
