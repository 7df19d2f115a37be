"""``solrec serve --workers N``: N server processes on one database, each a whole server (its own
writer, its kept logs and views, its live streams), sharing the listening socket (uvicorn's
supervisor). What keeps them consistent is the store: every write names the head it was decided
against and is checked against it in its own transaction (``Store.append``/``truncate``), so two
processes playing on one game store one command and the other gets 409, as two requests of one
process do. A play made through one process reaches the streams another serves through that one's
poller (``ServerState.poll``: ``PRAGMA data_version``, then the watched games' rows).

The processes are started by uvicorn (spawned, not forked), so what each needs is handed over in
the environment (``CONFIG``, which each process reads and then drops): the database, the referee's token,
the key of the CSRF values and versions (one for all, so a page one process made is accepted by
another), the Host names and the reachable address. Only the same user may read a process's
environment, as it may read the database itself.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from starlette.types import ASGIApp

CONFIG = "SOLREC_SERVE_WORKER_CONFIG"
# How often each process looks for another's commits (``PRAGMA data_version``: a read of shared
# memory): a play made through one process reaches the streams of another within this, quiet or
# not, where one process alone wakes its own streams at once and polls only for the CLI's writes
# (every 1 s, every 0.3 s while the CLI writes: ``ServerState.poll_interval``).
POLL_SECONDS = 0.05


def environment(db: Path, referee_token: str | None, secret: bytes, hosts: set[str] | None,
                reachable: str | None, bot_workers: int = 1, hint_bot: str | None = None) -> str:
    return json.dumps({"db": str(db), "token": referee_token, "secret": secret.hex(),
                       "hosts": sorted(hosts) if hosts is not None else None, "reachable": reachable,
                       "bot_workers": bot_workers, "hint_bot": hint_bot})


def app_from_env() -> ASGIApp:
    """The app of one worker process (uvicorn's factory)."""
    from .app import create_app
    from .running import quieten

    quieten()
    config = json.loads(os.environ.pop(CONFIG))
    return create_app(Path(config["db"]), config["token"], bytes.fromhex(config["secret"]),
                      hosts=set(config["hosts"]) if config["hosts"] is not None else None,
                      reachable=config["reachable"], worker=str(os.getpid()),
                      poll_seconds=POLL_SECONDS, quiet_poll_seconds=POLL_SECONDS,
                      bot_workers=config.get("bot_workers", 1),
                      **({"hint_bot": config["hint_bot"]} if config.get("hint_bot") else {}))
