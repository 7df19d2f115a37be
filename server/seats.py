"""Seat links: one secret token per player of a game, kept in the database only as its SHA-256 hash.

A link ``/g/ID/seat/TOKEN`` is that player's seat: whoever holds it sees what that player sees and
plays that player's commands, nothing more (docs/security.md). The token is shown once, to the
referee who makes it; making a new link for a seat revokes the old one (a lost phone). The table is
``schema.TABLES["seats"]``, checked with the whole file like every solrec table.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from solrec.events.store import Store, now

# A spectator link's row: under the one name no player can have (``Game.check_players`` refuses
# "chance"), so it is never a seat: ``seat_of`` never answers it, and a spectator plays nothing.
SPECTATOR = "chance"
TOKEN_BYTES = 24  # secrets.token_urlsafe(24): 192 random bits, 32 characters


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def referee_cookie(kept_hash: str) -> str:
    """The referee's cookie's name: one per referee link (a digest of its kept hash), so that servers
    behind one public address (cookies are not told apart by port or path) never read each other's;
    a new referee link names a new cookie, as the old one stops working anyway."""
    return "solrec_referee_" + hashlib.sha256(f"solrec-referee-cookie:{kept_hash}".encode()).hexdigest()[:16]


def referee_hash(store: Store) -> str | None:
    """The kept referee link's hash, or None (none kept)."""
    if not _has_table(store):
        return None
    rows = store.query("select token_hash from seats where game_id = ? and player = ?", list(REFEREE_ROW))
    return rows[0][0] if rows and isinstance(rows[0][0], str) else None


def _has_table(store: Store) -> bool:
    return store.exists and "seats" in store.objects()


def make_links(store: Store, game_id: str, players: tuple[str, ...]) -> dict[str, str]:
    """A new token for each player (the old ones stop working): player -> token, to show once."""
    tokens = {player: new_token() for player in players}
    with store.transaction() as conn:
        store.create_table("seats")
        conn.executemany(
            "insert or replace into seats (game_id, player, token_hash, created) values (?,?,?,?)",
            [(game_id, player, token_hash(token), now()) for player, token in tokens.items()],
        )
    return tokens


def seat_of(store: Store, game_id: str, token: str) -> str | None:
    """The player whose seat this token opens in this game, or None (a wrong token, another game's,
    a revoked one: all alike)."""
    if not _has_table(store) or len(token) > 200:
        return None
    wanted = token_hash(token)
    for player, stored in store.query("select player, token_hash from seats where game_id = ?", [game_id]):
        if isinstance(stored, str) and hmac.compare_digest(stored, wanted) and isinstance(player, str):
            return None if player == SPECTATOR else player
    return None


def make_spectator_link(store: Store, game_id: str) -> str:
    """A new spectator token for the game (the old one stops working), to show once."""
    return make_links(store, game_id, (SPECTATOR,))[SPECTATOR]


def revoke_spectator_link(store: Store, game_id: str) -> bool:
    """Stop the game's spectator link; whether there was one."""
    if not _has_table(store):
        return False
    had = has_spectator_link(store, game_id)
    with store.transaction() as conn:
        conn.execute("delete from seats where game_id = ? and player = ?", [game_id, SPECTATOR])
    return had


def has_spectator_link(store: Store, game_id: str) -> bool:
    return _has_table(store) and bool(
        store.query("select 1 from seats where game_id = ? and player = ?", [game_id, SPECTATOR]))


def is_spectator(store: Store, game_id: str, token: str) -> bool:
    """Whether this token is the game's spectator link (a seat's token is not)."""
    if not _has_table(store) or len(token) > 200:
        return False
    wanted = token_hash(token)
    rows = store.query("select token_hash from seats where game_id = ? and player = ?", [game_id, SPECTATOR])
    return any(isinstance(r[0], str) and hmac.compare_digest(r[0], wanted) for r in rows)


def seated(store: Store, game_id: str) -> set[str]:
    """The players of a game who have a seat link."""
    if not _has_table(store):
        return set()
    return {str(r[0]) for r in store.query("select player from seats where game_id = ? and player != ?",
                                            [game_id, SPECTATOR])}



# The referee's link: one token for the whole server, kept like a seat's, as a hash, in the row of
# no game (a game id is never empty) and the player "referee". It survives a restart; `solrec serve
# --new-referee-link` replaces it, which stops the old one.
REFEREE_ROW = ("", "referee")


def keep_referee_token(store: Store, token: str) -> None:
    with store.transaction() as conn:
        store.create_table("seats")
        conn.execute("insert or replace into seats (game_id, player, token_hash, created) values (?,?,?,?)",
                     [*REFEREE_ROW, token_hash(token), now()])


def referee_link_made(store: Store) -> str | None:
    """When the referee's link kept in the database was made, or None (none kept)."""
    if not _has_table(store):
        return None
    rows = store.query("select created from seats where game_id = ? and player = ?", list(REFEREE_ROW))
    return str(rows[0][0])[:19] if rows else None


def is_referee_token(store: Store, token: str) -> bool:
    if not token or len(token) > 200:
        return False
    kept = referee_hash(store)
    return kept is not None and hmac.compare_digest(kept, token_hash(token))


# -- links that reach the phones -------------------------------------------------------------------------
DEFAULT_PORT = 8000  # `solrec serve`'s --port when none is given


def loopback_only(link: str) -> bool:
    """Whether a link names this machine itself (``127.0.0.0/8``, ``::1``, ``localhost``): a phone that
    opens it asks itself, not the server (issue 43: the seat links' QR codes led nowhere)."""
    import ipaddress
    from urllib.parse import urlsplit

    try:
        host = urlsplit(link).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_command(db: str, default_db: str, port: int | None) -> str:
    """The one command that serves this server's database to the local network: ``solrec serve --lan``
    with the database and port it was given (the defaults left out)."""
    import shlex

    words = ["solrec", "serve", "--lan"]
    if db != default_db:
        words += ["--db", shlex.quote(db)]
    if port is not None and port != DEFAULT_PORT:
        words += ["--port", str(port)]
    return " ".join(words)
