"""``solrec front``: one page over several ``solrec serve`` servers, each on its own shard database
(server/front.py; docs/scaling.md, "Beyond one machine"). Needs the serve extra, imported only
when the command runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from solrec.core.words import quoted

from .app import command
from .errors import UsageRefused
from .serve import LOOPBACK, check_free

SERVER = re.compile(r"(?P<url>https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5})=(?P<db>.+)")


@command("front")
def front_cmd(
    servers: Annotated[list[str], typer.Option(
        "--server", metavar="URL=DB",
        help="A game server and its shard database: http://HOST:PORT=PATH (repeat it, once per server).")],
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8000,
) -> None:
    """Serve one page listing the games of several servers, each linking to the server that holds it.

    Each server is a `solrec serve` on its own shard database; a game stays on the server that made
    it. Any address of a game at the front (/g/ID/..., a seat's link included) is sent on to that
    server. The front reads the shards' games rows and keeps nothing; every token is checked by the
    game's own server. Give games ids unique across the servers (the new-game form's id).
    """
    import importlib.util

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise UsageRefused("solrec front needs the serve extra: pip install 'solrec[serve]'")
    from solrec.server.front import Shard, create_front_app

    from .session import open_store

    shards: list[Shard] = []
    seen: dict[tuple[int, int], Path] = {}
    for given in servers:
        found = SERVER.fullmatch(given)
        if found is None:
            raise UsageRefused(f"--server is http://HOST:PORT=DATABASE, not {quoted(given[:80])}")
        url, db = found.group("url"), Path(found.group("db"))
        if not db.is_file():
            raise UsageRefused(f"{db}: no such database (each server's shard, made by solrec serve, new or shard)")
        open_store(db).close()  # a file that is not a sound solrec database is refused before serving it
        st = db.stat()
        if seen.setdefault((st.st_dev, st.st_ino), db) is not db:
            raise UsageRefused(f"{db} is named twice: each server has its own shard")
        if any(s.url == url for s in shards):
            raise UsageRefused(f"{url} is named twice: each server once, with its shard")
        shards.append(Shard(url, db))
    check_free(host, port)
    import uvicorn

    loopback = host in LOOPBACK
    app = create_front_app(shards, hosts=LOOPBACK | {"[::1]"} if loopback else None)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"solrec front: http://{shown}:{port}/ over {len(shards)} servers: {', '.join(s.url for s in shards)}")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, lifespan="off")
    uvicorn.Server(config).run()
