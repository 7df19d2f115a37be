"""solrec.events: the codec, the envelope (rows and hash chain) and the SQLite store."""

from .codec import EventCodec, converter, pack, to_plain, unpack
from .envelope import ChainBreak, Row, chain_rows, check_chain, codec_for, genesis_hash, group_steps
from .store import ConcurrencyConflict, NotASolrecDatabase, Store, StoreError, UnknownGameId, default_db_path

__all__ = [
    "ChainBreak", "ConcurrencyConflict", "EventCodec", "NotASolrecDatabase", "Row", "Store", "StoreError",
    "UnknownGameId", "chain_rows", "check_chain", "codec_for", "converter", "default_db_path",
    "genesis_hash", "group_steps", "pack", "to_plain", "unpack",
]
