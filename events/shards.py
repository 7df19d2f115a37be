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

from .database import file_uri
from .store import Store, StoreError


def corpus_files(paths: Iterable[Path]) -> list[Path]:
    """The database files ``paths`` names (``corpus``), what was skipped left unsaid."""
    return corpus(paths)[0]


def corpus(paths: Iterable[Path]) -> tuple[list[Path], list[str]]:
    """The database files ``paths`` names, and a line for each entry skipped. A file named is taken
    as it is (the store refuses what is not a database); a folder gives its ``*.db`` regular files
    in name order, and skips, saying why, what is not one: a folder, a FIFO (never opened, so
    nothing waits on it), a device (a link to ``/dev/zero``), a link that loops or leads nowhere. In a
    corpus of several files an empty file holds no game, as it does named alone (``list``,
    ``validate --all`` and ``impact --all`` read none from it): it is skipped, saying so. The same
    file named twice (two spellings, a link, a hard link) is refused: its games would count twice."""
    given = list(paths)
    out: list[Path] = []
    skipped: list[str] = []
    for path in given:
        if path.is_dir():
            entries = sorted(path.glob("*.db"))
            files = [p for p in entries if _kept(p, skipped)]
            if not files:
                why = f" ({len(entries)} skipped: {skipped[-1].split(': ', 1)[1]})" if entries else ""
                raise InvalidSetup(f"{path} holds no .db file with a solrec database{why}")
            out.extend(files)
        else:
            out.append(path)
    if len(out) > 1:
        out = [p for p in out if p.parent in given or not _empty(p, skipped)]  # (a folder's are skipped)
    seen: dict[tuple[int, int], Path] = {}
    for p in out:
        try:
            st = p.stat()
        except OSError:
            continue  # the store says what is wrong with it
        first = seen.setdefault((st.st_dev, st.st_ino), p)
        if first is not p:
            what = f"{p} is named twice" if str(first) == str(p) else f"{first} and {p} are the same file"
            raise InvalidSetup(f"{what}: name each shard once (its games would count twice)")
    return out, skipped


def _kept(path: Path, skipped: list[str]) -> bool:
    """Whether a folder's ``*.db`` entry is a regular file to read; else why not, in ``skipped``."""
    import errno
    import stat

    try:
        st = path.stat()  # follows links; never opens the file
    except OSError as err:
        if err.errno == errno.ELOOP:
            why = "a symbolic link that loops"
        elif err.errno == errno.ENOENT:
            why = "a symbolic link to nothing"
        else:
            why = f"cannot be read ({err.strerror or err})"
        skipped.append(f"skipped {path}: {why}")
        return False
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return not _empty(path, skipped)
    kinds = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe), never opened"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")]
    why = next((w for test, w in kinds if test(mode)), "not a regular file")
    link = " (through a symbolic link)" if path.is_symlink() else ""
    skipped.append(f"skipped {path}: {why}{link}, not a database file")
    return False


def _empty(path: Path, skipped: list[str]) -> bool:
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError:
        return False
    if empty:
        skipped.append(f"skipped {path}: an empty file (it holds no game)")
    return empty


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
        conn.execute("attach database ? as src", [file_uri(source.read_path, "ro")])  # an older file: its migrated copy
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
