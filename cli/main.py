"""The ``solrec`` command line (Typer): wires the command modules onto the app (cli/app.py).

Each command module registers its commands on import; ``HELP_ORDER`` is the order of ``solrec --help``:
the table first, then the audit, records, and the rest.
"""

from __future__ import annotations

import gc
import os
import sys

# The bots' numpy works on small arrays (a network's layers on a few rows), where OpenBLAS's threads
# cost more CPU than they save: measured, the learned bot's SOLI2 move 1.85 ms of CPU with them, 0.89
# without, and afterstate training 8 times as fast. Set before anything loads numpy; a value the user
# set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# The console entry's module (``run``), loaded before Typer and every command module: the cyclic
# collector's youngest generation is collected after 100,000 new objects rather than 700 from here
# on (start-up, issue 22: the modules loading were scanned over and over; see ``run``).
gc.set_threshold(100_000, 10, 10)

from . import (  # noqa: E402, F401  (they register their commands on app)
    ai,
    annotate,
    audit,
    balance,
    components,
    front,
    impact,
    learn,
    manage,
    pictures,
    records,
    seal,
    serve,
    solve,
    table,
    tune,
    variations,
)
from .app import app  # noqa: E402

__all__ = ["app", "run"]

HELP_ORDER = (
    "games", "new", "play", "legal", "undo", "fork", "comment", "note", "show", "log", "score", "replay", "diff", "validate", "impact", "shard",
    "export", "import", "simulate", "balance", "tune", "hint", "review", "train", "list", "rename", "delete", "upgrade", "seal", "svg", "html", "solve", "components", "card", "serve", "front",
)
app.registered_commands.sort(key=lambda c: HELP_ORDER.index(c.name) if c.name in HELP_ORDER else len(HELP_ORDER))


def run() -> None:
    """Console entry point. Typer builds every command's parameters on each call; when the call
    names one command, only that one is built (start-up: the CLI is typed once per move).

    One call allocates its modules, classes and log, answers and exits. The cyclic collector runs
    less often (set as this module loads, above), and not over the whole heap at exit: ``gc.freeze``
    after the command leaves everything to the process's end, which frees it anyway. Of what the
    collector would have closed then, only database connections matter (one not closed leaves its
    write-ahead log file behind): ``close_all`` closes them first. Together ~25 ms of CPU a call."""
    import os

    word = sys.argv[1] if len(sys.argv) > 1 else ""
    completing = any(k.startswith("_SOLREC") and k.endswith("_COMPLETE") for k in os.environ)
    named = [c for c in app.registered_commands if c.name == word]
    if named and not completing:
        app.registered_commands = named
    try:
        app()
    finally:
        store = sys.modules.get("solrec.events.store")
        if store is not None:
            store.close_all()
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover - `python -m solrec.cli.main`
    run()
