"""Seals: an HMAC of a game's head hash under a referee's key (docs/security.md).

The hash chain shows that rows were edited, dropped or reordered, but anyone who can write the file
can recompute an unkeyed chain and the ``games`` row to match. A seal binds the game id, its event
count and its head hash under a secret key, so a log cannot be altered up to the sealed position
without the key. The key comes from ``SOLREC_KEY`` (the key itself) or ``SOLREC_KEY_FILE`` (a file
holding it); without either, seals can be made by nobody and checked by nobody.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solrec.core.errors import CorruptLog, InvalidSetup
from solrec.core.words import quoted

if TYPE_CHECKING:
    from .store import Store

MAX_KEY_FILE = 4096  # bytes: a key file is a secret, not a document
_HEX64 = re.compile(r"[0-9a-f]{64}")  # a SHA-256 digest in hex: a head hash, an HMAC


def key_from(key_file: Path | None = None) -> bytes | None:
    """The sealing key: ``key_file``, else ``SOLREC_KEY_FILE``, else ``SOLREC_KEY``; None if none is set."""
    path = key_file or (Path(os.environ["SOLREC_KEY_FILE"]) if os.environ.get("SOLREC_KEY_FILE") else None)
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_KEY_FILE + 1)
        except OSError as err:
            raise InvalidSetup(f"key file {path}: {err.strerror or err}") from None
        if len(data) > MAX_KEY_FILE:
            raise InvalidSetup(f"key file {path} is over {MAX_KEY_FILE} bytes: is it really a key?")
        key = data.strip()
        if not key:
            raise InvalidSetup(f"key file {path} is empty")
        return key
    text = os.environ.get("SOLREC_KEY")
    if text is None:
        return None
    try:
        key = text.encode("utf-8").strip()
    except UnicodeEncodeError:
        raise InvalidSetup("SOLREC_KEY is not valid UTF-8") from None
    if not key:
        raise InvalidSetup("SOLREC_KEY is empty")
    return key


def mac(key: bytes, game_id: str, events: int, head: str) -> str:
    message = b"solrec-seal\0" + game_id.encode("utf-8") + b"\0" + str(events).encode() + b"\0" + head.encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def notes_mac(key: bytes, game_id: str, events: int, head: str, notes: int, notes_head: str) -> str:
    """A seal made since comments exist: it binds the comments' count and chain head as well, so a
    seal stripped of them (or given others) does not verify."""
    message = (
        b"solrec-seal-2\0" + game_id.encode("utf-8") + b"\0" + str(events).encode() + b"\0" + head.encode()
        + b"\0" + str(notes).encode() + b"\0" + notes_head.encode()
    )
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def check(
    key: bytes, game_id: str, seal: dict, chain: list[str], genesis: str,
    notes: tuple[tuple[int, str] | None, list[str], str] | None = None,
) -> str | None:
    """Why the seal does not hold for the log whose row hashes are ``chain``, or None if it holds.

    A seal covers the log up to its event count; events played after sealing are not covered.
    ``notes``: what the seal says it covered of the comments (count, head; None for a seal made
    before comments existed), the comments' chain hashes now, and their chain's start. A comment
    added after sealing is not covered; one that was sealed and is gone or changed is found."""
    events, head, stored = seal["events"], seal["head"], seal["mac"]
    if not (type(events) is int and events >= 0 and _HEX64.fullmatch(stored) and _HEX64.fullmatch(head)):
        return "its stored seal is damaged (not an event count, a head hash and an HMAC-SHA256)"
    sealed_notes = notes[0] if notes is not None else None
    if sealed_notes is None:
        expected = mac(key, game_id, events, head)
    else:
        expected = notes_mac(key, game_id, events, head, *sealed_notes)
    if not hmac.compare_digest(expected, stored):
        return "its seal does not verify under this key (the seal or the log was altered, or the key differs)"
    if notes is not None and sealed_notes is not None:
        (count, notes_head), hashes, start = sealed_notes, notes[1], notes[2]
        if count > len(hashes):
            return f"it was sealed with {count} comments but {len(hashes)} are stored now"
        if (hashes[count - 1] if count else start) != notes_head:
            return f"its first {count} comments are not the ones that were sealed"
    if events > len(chain):
        return f"it was sealed at {events} events but its log now holds {len(chain)}"
    now = chain[events - 1] if events else genesis
    if now != head:
        return f"its first {events} events are not the ones that were sealed"
    return None


# -- stored seals (the ``seals`` table, events/schema.py) ------------------------------------------
def put_seal(store: Store, game_id: str, events: int, head: str, mac: str) -> None:
    """Store a game's seal (replacing an older one), making the ``seals`` table with the first."""
    from .store import UnknownGameId, now

    with store.transaction() as conn:
        store.create_table("seals")
        if not store.has_game(game_id):
            raise UnknownGameId(f"no game {quoted(game_id)} in {store.path}")
        conn.execute("insert or replace into seals values (?,?,?,?,?)", [game_id, events, head, mac, now()])


def stored_seal(store: Store, game_id: str) -> dict[str, Any] | None:
    """The stored seal of a game, or None (no seal was ever made)."""
    if not store.exists or not store.has_seals:
        return None  # no seals table when the file was opened (or made): a seal made since is not seen
    rows = store.query(
        "select case when length(head) <= 200 then head end, events, case when length(mac) <= 200 then mac end,"
        " sealed from seals where game_id = ?",
        [game_id],
    )
    if not rows:
        return None
    head, events, stored, sealed = rows[0]
    if not isinstance(head, str) or type(events) is not int or not isinstance(stored, str):
        raise CorruptLog(f"game {quoted(game_id)}: its seal is not of its type")
    return {"events": events, "head": head, "mac": stored, "sealed": sealed}
