"""A corpus in several SQLite files (shards): one database split into files of whole games, and the
files a ``--db`` names (several, or a folder of ``*.db``).

A shard is a solrec database in the same schema, so every command reads it as it reads any other;
its rows are copied as stored (heads, payloads, hashes, seals), so every hash and seal is unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from solrec.core.errors import InvalidSetup

from .store import Store, StoreError, _uri_path


def corpus_files(paths: Iterable[Path]) -> list[Path]:
    """The database files ``paths`` names: a file as it is, a folder as its ``*.db`` files in name order."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.glob("*.db") if p.is_file())
            if not files:
                raise InvalidSetup(f"{path} holds no .db file")
            out.extend(files)
        else:
            out.append(path)
    return out


def split(source: Store, into: Path, games_per_shard: int) -> list[Path]:
    """``source``'s games, in id order, copied into ``into``/shard-NNNN.db, ``games_per_shard`` a file.
    Events without a games row (orphans: damage that ``validate`` reports) belong to no game and are
    not copied."""
    if games_per_shard < 1:
        raise InvalidSetup("a shard holds at least 1 game")
    if into.exists() and (not into.is_dir() or any(into.glob("*.db"))):
        raise InvalidSetup(f"{into} is not an empty folder: shards are written into a new or empty one")
    ids = sorted(source.game_ids())
    chunks = [ids[i : i + games_per_shard] for i in range(0, len(ids), games_per_shard)]
    into.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(len(chunks))))
    paths = []
    for number, chunk in enumerate(chunks, start=1):
        path = into / f"shard-{number:0{width}d}.db"
        _copy_games(source, Store(path), chunk)
        paths.append(path)
    return paths


def _copy_games(source: Store, target: Store, ids: Sequence[str]) -> None:
    conn = target.conn  # the schema, created as for any new database
    src = source.conn
    tables = {name: sql for name, sql in src.execute("select name, sql from sqlite_master where type = 'table'")}
    try:
        if "seals" in tables and "seals" not in {r[0] for r in conn.execute("select name from sqlite_master")}:
            conn.execute(tables["seals"])
        conn.execute("attach database ? as src", [f"file:{_uri_path(source.path)}?mode=ro"])
        conn.execute("begin")
        conn.execute("create temp table wanted (id text primary key)")
        conn.executemany("insert into temp.wanted values (?)", [(gid,) for gid in ids])
        conn.execute("insert into main.games select * from src.games where id in (select id from temp.wanted)")
        conn.execute("insert into main.events select * from src.events where game_id in (select id from temp.wanted)")
        if "seals" in tables:
            conn.execute("insert into main.seals select * from src.seals where game_id in (select id from temp.wanted)")
        conn.execute("commit")
        conn.execute("detach database src")
    except sqlite3.Error as err:
        raise StoreError(f"{target.path}: the shard could not be written ({err})") from None
    finally:
        target.close()
