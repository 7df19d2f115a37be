"""The CLI's glue around the store-backed workflows (workflows/games.py, which the server imports
too): open the database as a command asks, say a migration, read a record file. The workflows are
re-exported here, where the CLI's commands find them (``cli.app.workflows``)."""

from __future__ import annotations

import sys
from pathlib import Path

from solrec.events.record import InvalidRecord
from solrec.events.store import Store, default_db_path, no_such_database
from solrec.workflows.games import (  # noqa: F401 - the CLI's commands call them as session.X
    SolrecError,
    fork_game,
    id_span,
    import_all,
    import_text,
    new_game,
    play_commands,
    result_of,
    simulate_games,
    store_new,
    summarize,
    summary_text,
    validate_games,
)

from .errors import Unreadable, UsageRefused


def check_id_given(game_id: str | None) -> None:
    """``--id ""`` is a mistake, not a request for an automatic id."""
    if game_id is not None and not game_id.strip():
        raise UsageRefused("--id is empty: give an id, or leave --id out for an automatic one")


def open_store(db: Path | None, create: bool = False, missing_ok: bool = False) -> Store:
    """Open the database; only commands that record something create it (and say so, once). With
    ``missing_ok`` the default database not created yet reads as one holding no game (listing
    nothing is not an error), and so does an empty file (one a first write was stopped in before
    its schema was written); the file is still made only by the first write. A path given (``--db``,
    ``SOLREC_DB``) that does not exist is refused by a read: a mistyped path is not an empty corpus."""
    path = db if db is not None else default_db_path()
    say_migrations()
    if missing_ok and not create and not path.exists() and path != default_db_path(given=False):
        raise no_such_database(path)
    return Store(path, create=create or missing_ok)


def say_migrations() -> None:
    """The first write to a file an older solrec wrote migrates it, and the first to a path that does
    not exist creates it: each said on stderr, one line."""
    from solrec.events import database

    if database.announce is None:
        database.announce = lambda message: print(f"solrec: {message}", file=sys.stderr, flush=True)


MAX_RECORD = 32 * 1024 * 1024  # bytes of a record file: a long game with its events is under 1 MiB


def read_record(file: str) -> str:
    """A record file's text ("-": stdin), refused unread past MAX_RECORD and unless it is UTF-8."""
    if file == "-":
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        data = stream.read(MAX_RECORD + 1) if stream is not None else sys.stdin.read(MAX_RECORD + 1).encode("utf-8", "surrogateescape")
        name = "stdin"
    else:
        path = Path(file)
        if path.is_dir():
            raise Unreadable(f"{file} is a directory, not a record file")
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD + 1)
        name = file
    if len(data) > MAX_RECORD:
        raise InvalidRecord(f"{name} is larger than {MAX_RECORD // (1024 * 1024)} MiB: not a solrec record")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRecord(f"{name} is not UTF-8 text") from None


__all__ = [
    "SolrecError", "import_text", "new_game", "open_store", "play_commands", "result_of", "simulate_games",
]
