"""``solrec serve``: record games at the table in a browser (server/, docs/security.md).

Starlette and uvicorn are the optional extra ``solrec[serve]``, imported only here, when the command
runs: the core install does not grow and no other command starts slower.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import typer

from solrec.core.words import quoted

from .app import Db, command
from .errors import UsageRefused

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# Seconds an idle connection is kept open. uvicorn's 5 s is shorter than the thought between two
# moves, so a device's next click would often race the server closing its connection (the request
# lost in flight: a POST is not sent again); a browser keeps its own for a minute or more.
KEEP_ALIVE = 75


@command("serve")
def serve_cmd(
    lan: Annotated[bool, typer.Option("--lan", help="Listen on this machine's address on the local network, printed; every seat link and QR code carries it, so phones on the network open them.")] = False,
    host: Annotated[str | None, typer.Option("--host", help="The address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every address of it).")] = None,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8000,
    new_referee_link: Annotated[bool, typer.Option("--new-referee-link", help="Make a new referee's link; the old one stops working.")] = False,
    bot_workers: Annotated[int, typer.Option("--bot-workers", min=1, max=64, help="Worker processes the bot seats and hints think in (docs/ai.md).")] = 1,
    hint_bot: Annotated[str, typer.Option("--hint-bot", metavar="KIND[:SETTINGS]", help="The bot behind the seats' hint button.")] = "mcts",
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Server processes on the one database (both cores: 2).")] = 1,
    public_url: Annotated[str | None, typer.Option("--public-url", metavar="URL", help="The address players reach the server at through a proxy (https://club.example): seat links and QR codes carry it.")] = None,
    db: Db = None,
) -> None:
    """Serve the games in a browser: the referee's page, and a seat link per player.

    Prints the referee's link the first time (it carries the referee's token). The database keeps
    only the token's hash, so the link works again after a restart, until --new-referee-link makes
    another. Each player opens the seat link the referee makes for them and sees only their own
    view; every page updates live. --lan serves the local network: the players' phones open the seat
    links and QR codes. Beyond 127.0.0.1 the tokens are the only protection and there is no TLS
    (docs/security.md).
    """
    import importlib.util

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise UsageRefused("solrec serve needs the serve extra: pip install 'solrec[serve]'")
    public = public_address(public_url) if public_url is not None else None  # refused before anything is written
    if lan and host is not None:
        raise UsageRefused("give --lan (this machine's address on the local network) or --host ADDRESS, not both")
    found = None
    if lan:
        found = lan_address(address_candidates())
        if found is None:
            raise UsageRefused("--lan: this machine has no address on a network besides loopback (127.0.0.1): "
                               "connect it to the network, or give --host ADDRESS")
    host = found or host or "127.0.0.1"
    import logging
    import secrets

    import uvicorn

    from solrec.events.store import default_db_path
    from solrec.server.app import create_app

    path = db if db is not None else default_db_path()
    if path.exists() and not path.is_file():
        raise UsageRefused(f"{path} is not a regular file, so it cannot hold a solrec database")
    if path.exists():
        from .session import open_store

        open_store(path)  # a file that is not a sound solrec database is refused before serving it
    if importlib.util.find_spec("pyspiel") is not None:  # bots need the ai extra: without it, seating one is refused
        from solrec.server.bots import BotRefused, check_bot

        try:
            hint_bot = check_bot(*hint_bot.partition(":")[::2])
        except BotRefused as err:
            raise UsageRefused(f"--hint-bot: {err}") from None
    check_free(host, port)
    from solrec.server import seats

    from .session import open_store as open_db

    # The referee's link survives a restart: its token is kept in the database as a hash (seats.py),
    # so it cannot be shown again; --new-referee-link replaces it (a link seen by the wrong person).
    store = open_db(path, create=True)
    kept = None if new_referee_link else seats.referee_link_made(store)
    token = None if kept is not None else secrets.token_urlsafe(24)
    if token is not None:
        seats.keep_referee_token(store, token)
    store.close()
    loopback = host in LOOPBACK
    shown = f"[{host}]" if ":" in host else host
    lan_host = found or (network_address() if host in ("0.0.0.0", "::") else None)
    lan_shown = None if lan_host is None else f"[{lan_host}]" if ":" in lan_host else lan_host
    hosts = LOOPBACK | {"[::1]"} if loopback else None
    reachable = f"http://{lan_shown}:{port}" if lan_shown is not None else None
    if public is not None:
        reachable, public_host = public
        if hosts is not None:  # the proxy hands on the public Host (docs/scaling.md): accepted besides loopback
            hosts = hosts | {public_host}
    link_host = "127.0.0.1" if host in ("0.0.0.0", "::") else shown
    typer.echo(f"solrec serve: {path}")
    if found is not None:
        carried = "--public-url's address" if public is not None else "this address"
        typer.echo(f"on the local network at http://{shown}:{port} (every seat link and QR code carries {carried})")
    if token is None:
        typer.echo(f"the referee's link made {kept} still opens the referee's pages (the database keeps only its hash, "
                   "so it cannot be shown again; --new-referee-link makes a new one and stops it)")
    else:
        typer.echo(f"the referee's link (keep it to yourself; it works until --new-referee-link): "
                   f"http://{link_host}:{port}/?token={token}")
    if lan_shown is not None and found is None and token is not None:
        typer.echo(f"the same on the network (seat links made from it carry this address): http://{lan_shown}:{port}/?token={token}")
    if not loopback:
        typer.echo(
            "warning: listening beyond this machine: the links' tokens are the only protection and there is no "
            "TLS (anyone on the network who sees a link is that seat); see docs/security.md",
            err=True,
        )
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if workers > 1:
        # several processes (server/workers.py): each builds its app from what is handed over here
        import os

        from solrec.server.workers import CONFIG, environment

        typer.echo(f"{workers} server processes on {path}")
        os.environ[CONFIG] = environment(path, token, secrets.token_bytes(32), hosts, reachable,
                                         bot_workers=bot_workers, hint_bot=hint_bot)
        uvicorn.run("solrec.server.workers:app_from_env", factory=True, workers=workers, host=host, port=port,
                    log_level="warning", access_log=False, timeout_graceful_shutdown=1, lifespan="on",
                    timeout_keep_alive=KEEP_ALIVE)
        return
    app = create_app(path, token, hosts=hosts, reachable=reachable, bot_workers=bot_workers, hint_bot=hint_bot)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, lifespan="on", timeout_keep_alive=KEEP_ALIVE)
    from solrec.server.running import QuietServer

    QuietServer(config).run()


def public_address(url: str) -> tuple[str, str]:
    """``--public-url``: an origin (scheme, host, an optional port; no path, query or fragment, as every
    page links from the server's root) and the Host a browser sends for it; refused in one line."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as err:
        raise UsageRefused(f"--public-url: {quoted(url[:60])} is not an address ({err})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageRefused(f"--public-url: {quoted(url[:60])} is not an http:// or https:// address with a host")
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username or parts.password:
        raise UsageRefused(f"--public-url: {quoted(url[:60])} has more than an origin (the server's pages link from its root)")
    if not parts.hostname.isascii() or not all(c.isalnum() or c in ".-:[]" for c in parts.netloc):
        raise UsageRefused(f"--public-url: {quoted(url[:60])} is not a plain host name (give its ASCII form)")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else ""), host


def network_address() -> str | None:
    """This machine's address on its network, for links a phone on the same network opens; None when
    there is none."""
    return lan_address(address_candidates())


def address_candidates() -> list[str]:
    """This machine's addresses, the likeliest first, found without sending a packet: the local address
    of a UDP socket connected toward a private address (the one its route to the local network leaves
    from; connecting a UDP socket only picks the route), then what the host's own name resolves to."""
    import socket

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            found.append(str(s.getsockname()[0]))
    except OSError:
        pass  # no route: no network, or none toward private addresses
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_DGRAM)]
    except (OSError, UnicodeError):
        pass
    return found


def lan_address(candidates: Iterable[str]) -> str | None:
    """The address phones on the local network reach this machine at, from its addresses (the likeliest
    first): the first that is neither loopback, nor unspecified, nor link-local, nor multicast, IPv4
    before IPv6 (a phone's camera app reads a plain address best); None when there is none."""
    import ipaddress

    usable = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text.partition("%")[0])
        except ValueError:
            continue
        if not (address.is_loopback or address.is_unspecified or address.is_link_local or address.is_multicast):
            usable.append(address)
    usable.sort(key=lambda a: a.version)  # stable: the likeliest first within a version
    return str(usable[0]) if usable else None


def check_free(host: str, port: int) -> None:
    """Refuse (exit 2, one line) an address the server cannot listen on: a port in use, a host that is
    not this machine's; uvicorn would otherwise log it and exit 1."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(address)
    except OSError as err:
        raise UsageRefused(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
