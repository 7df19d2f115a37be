"""solrec.events: the codec, the envelope (rows and hash chain) and the SQLite store.

The names below are loaded on first use (PEP 562): importing ``solrec.events.seal`` or
``solrec.events.store`` alone does not import the codec's machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solrec.core.lazy import loader

_WHERE = {
    **dict.fromkeys(("EventCodec", "converter", "pack", "to_plain", "unpack"), "codec"),
    **dict.fromkeys(
        ("ChainBreak", "Row", "chain_rows", "check_chain", "codec_for", "genesis_hash", "group_steps"), "envelope"
    ),
    **dict.fromkeys(
        ("ConcurrencyConflict", "NotASolrecDatabase", "Store", "StoreError", "UnknownGameId", "default_db_path"),
        "store",
    ),
}

__all__ = [
    "ChainBreak", "ConcurrencyConflict", "EventCodec", "NotASolrecDatabase", "Row", "Store",
    "StoreError", "UnknownGameId", "chain_rows", "check_chain", "codec_for", "converter",
    "default_db_path", "genesis_hash", "group_steps", "pack", "to_plain", "unpack",
]


__getattr__ = loader(__name__, _WHERE)


if TYPE_CHECKING:
    from .codec import EventCodec, converter, pack, to_plain, unpack
    from .envelope import ChainBreak, Row, chain_rows, check_chain, codec_for, genesis_hash, group_steps
    from .store import (
        ConcurrencyConflict,
        NotASolrecDatabase,
        Store,
        StoreError,
        UnknownGameId,
        default_db_path,
    )
