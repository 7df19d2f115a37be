"""Opening, checking and migrating a solrec database file; its transactions and queries
(``Database``, which ``Store`` in events/store.py builds on to read and write games).

A database file is untrusted input (docs/security.md). Opening checks the whole file before anything
reads past ``sqlite_master`` or writes to it, a migration included: exactly solrec's tables, columns,
declared types and constraints, its views by name, no trigger and no index of its own
(events/schema.py). A file that does not exist yet is created by the first write, never by a read
or a refusal; a read of a path that does not exist is refused (``no_such_database``). A file is
opened for reading first (nothing written, no ``-wal`` left beside it) and for writing at the first
write; a write this process may not make is refused before SQLite opens the file for it (it would
leave a ``-wal`` and ``-shm`` of this user's beside another's file). Older databases are migrated by
their first write (or ``upgrade``; a read migrates a private copy and writes nothing): schema 1
gains ``data``, schema 2 gains ``head``, packed from its columns (a row edited before the migration
still breaks its chain).

Every read of several statements runs in one read transaction (``snapshot``: one snapshot under
WAL), so a write landing between two of them is never half seen; every write in one ``BEGIN
IMMEDIATE`` transaction (``transaction``), several in one (``group``) with a savepoint each.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.words import quoted

from .envelope import pack_head
from .schema import (
    MAX_PAYLOAD,
    MAX_TEXT,
    SCHEMA_VERSION,
    TABLES,
    VIEWS,
    check_file,
    check_table,
    create,
    head_types,
    payload_json,
)

_SQLITE_MAGIC = b"SQLite format 3\0"


class StoreError(SolrecError):
    """The database cannot be used as asked."""


class NotASolrecDatabase(StoreError):
    pass


class CorruptDatabase(StoreError, CorruptLog):
    """The file is a solrec database, but damaged: one verdict for the whole file (exit 1)."""


class UnknownGameId(StoreError):
    pass


class Unreadable(StoreError):
    """A value the read path would refuse (over a bound, not of its type): refused before it is
    written, so that whatever is written reads back (exit 2, nothing written)."""


class ConcurrencyConflict(StoreError):
    pass


def default_db_path(given: bool = True) -> Path:
    """``SOLREC_DB``, else ``$XDG_DATA_HOME/solrec/solrec.db`` (``~/.local/share/solrec/solrec.db``).
    ``given=False``: the latter only (the database no one named, which a read may find not made yet)."""
    env = os.environ.get("SOLREC_DB")
    if env and given:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "solrec" / "solrec.db"


class _Database:
    """The connection, with sqlite-utils' ``Database`` built only when something asks for more than
    ``execute`` (importing sqlite-utils costs more than a whole ``show``)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._full: Any = None
        self.objects: tuple[int, dict[str, str]] | None = None  # ``Database.objects``, kept per schema version
        _OPEN.add(self)

    def __del__(self) -> None:
        # A connection is a reference cycle in CPython's sqlite3 (its statement cache refers back to
        # it): left alone, it is closed only by the cyclic collector, which the CLI does not run over
        # the whole heap at exit (cli/main.py ``run``). Closed here when its store lets it go.
        conn = self.__dict__.get("conn")  # not ``self.conn``: ``__getattr__`` would build sqlite-utils
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:  # made in another thread: the collector closes it, as before
                pass

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("select name from sqlite_master where type = 'table'")]

    @property
    def full(self) -> Any:
        if self._full is None:
            import sqlite_utils

            self._full = sqlite_utils.Database(self.conn)
        return self._full

    def __getitem__(self, name: str) -> Any:
        return self.full[name]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.full, name)


_OPEN: weakref.WeakSet[_Database] = weakref.WeakSet()  # the connections of stores still alive


# Private migrated copies of older files this process reads (``Database._read_copy``): (path, device,
# inode, size, mtime, its -wal's size and mtime) -> the copy, in one folder removed at exit.
_COPIES: dict[tuple[Any, ...], Path] = {}
_FOLDER: list[str] = []
_COPYING = threading.Lock()


def _private_folder() -> str:
    if not _FOLDER:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="solrec-read-")  # mode 700: this user's only
        owner = os.getpid()

        def remove() -> None:
            if os.getpid() == owner:  # not a worker process this one forked
                shutil.rmtree(folder, ignore_errors=True)

        atexit.register(remove)
        _FOLDER.append(folder)
    return _FOLDER[0]


def close_all() -> None:
    """Close the connection of every store still alive (the CLI's exit, cli/main.py ``run``)."""
    for db in list(_OPEN):
        try:
            db.conn.close()
        except sqlite3.Error:  # made in another thread, which closes it
            pass


def no_such_database(path: Path) -> StoreError:
    """A read of a file that does not exist: a mistyped path is not an empty corpus."""
    return StoreError(f"no such database: {path} (it is created by new, import or simulate)")


# What reads an older file hears of it, and what the first write to one says when it migrates it:
# set by the CLI (a line on stderr); nothing by default.
announce: Callable[[str], None] | None = None


class Database:
    """A solrec database file opened, checked and (at its first write) migrated; its transactions and
    queries (``Store``, events/store.py, reads and writes the games on it). Opened for reading:
    nothing is written to the file (nor a ``-wal`` left beside it) until the first write, which
    reopens it for writing and, for a file an older solrec wrote, migrates it first (``announce``
    says so). Until then an older file is read through a private migrated copy (``read_path``), made
    once per process and file version."""

    def __init__(self, path: str | Path, create: bool = True, writing: bool = False):
        """``writing``: open the file for writing at once (``solrec upgrade``: an older file is
        migrated now, with no private copy made first)."""
        self.path = Path(path)
        self._db: _Database | None = None
        self.has_seals = False  # seen at open (and made by events/seal.py): reading a game asks no more
        self._reading = False  # the connection reads only (the file's own, or a private copy's)
        self._may_write = False  # the file's own connection was opened for writing, writes refused
        self._old: int | None = None  # the schema of an older file, read through a private copy
        self._copy: Path | None = None
        if not self.path.exists():
            if not create:
                raise no_such_database(self.path)
            return  # created by the first write (a refused command leaves no file behind)
        if not self.path.is_file():
            raise StoreError(f"{self.path} is not a regular file, so it cannot hold a solrec database")
        # A file this process may not write is read, as by any command: ``upgrade`` refuses to
        # migrate it (``_for_writing``) and says a current one needs nothing.
        self._db = self._connect(create=False) if writing and self._writable() else self._connect_reading()
        tables = self.objects()
        self.has_seals = "seals" in tables
        if not tables:
            if not create:
                raise NotASolrecDatabase(f"{self.path} is not a solrec database (it is empty)")
            self._db.conn.close()  # an empty file gets its schema with the first write, like a new one
            self._db, self._reading = None, False
        else:
            self._check_schema(tables)

    # -- opening ----------------------------------------------------------------------------
    def _connect_reading(self) -> _Database:
        """A connection that reads the file and writes nothing to it. A file this process may write
        is opened as for writing with writes refused (``query_only``): SQLite then removes the
        ``-wal`` and ``-shm`` files it makes beside it when the connection closes, and a writer in
        another process is seen as it commits. A file or folder it may not write (a ``chmod 444``
        copy, a read-only mount), where SQLite would leave those files behind or could not make
        them, is opened read-only, and ``immutable`` (no lock, no file beside it) unless a ``-wal``
        beside it holds what a writer committed."""
        path = self.path
        if os.access(path, os.W_OK) and os.access(path.absolute().parent, os.W_OK):
            db = self._connect(create=False)
            try:
                db.conn.execute("PRAGMA query_only = ON")
            except sqlite3.Error as err:
                db.conn.close()
                raise self._error(err, "open") from None
            self._may_write = True
        else:
            wal = path.with_name(path.name + "-wal")
            db = self._connect(create=False, mode="ro" if wal.exists() else "ro&immutable=1")
        self._reading = True
        return db

    def _connect(self, create: bool, mode: str | None = None, path: Path | None = None) -> _Database:
        mode = mode or ("rwc" if create else "rw")
        uri = file_uri(path or self.path, mode)
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=10, isolation_level=None)
        except sqlite3.Error as err:
            raise self._error(err, "open") from None
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("PRAGMA trusted_schema = OFF")  # no functions from views/triggers of a foreign file
        except sqlite3.Error as err:
            conn.close()
            raise self._error(err, "open") from None
        return _Database(conn)

    def has_table(self, name: str) -> bool:
        """Whether the file holds the table ``name`` (one made by the first command that needs it);
        a file not made yet holds none."""
        return self._db is not None and name in self.objects()

    def objects(self) -> dict[str, str]:
        """Every table, view, index and trigger of the file: name -> type (not to be changed by the
        caller). Kept per connection and its schema's version (``PRAGMA schema_version``: SQLite moves
        it on every change to ``sqlite_master``, by any connection): a server's request asks whether
        a table exists several times (seats, notes, bots), and reading ``sqlite_master`` each time
        cost more than the reads it guarded."""
        db = self._db if isinstance(self._db, _Database) else None  # (a read-only file's is sqlite-utils' own)
        version = None
        if db is not None:
            try:
                version = db.conn.execute("PRAGMA schema_version").fetchone()[0]
            except sqlite3.Error:
                version = None  # read the ordinary way, which says what is wrong
            kept = db.objects
            if version is not None and kept is not None and kept[0] == version:
                return kept[1]
        objects = {str(name): str(kind) for name, kind in self.query("select name, type from sqlite_master")}
        if db is not None and version is not None:
            db.objects = (version, objects)  # read after the version: a change between them is read again
        return objects

    def _check_schema(self, objects: dict[str, str]) -> None:
        """Check the whole file before anything reads past ``sqlite_master`` or writes to it (a
        migration included), then migrate an older schema. What is not solrec's is refused: a
        trigger would run code on the next write, an index or a constraint could fail or slow every
        insert, a view where a table belongs would run a query on every read."""
        if "solrec_meta" not in objects:
            raise NotASolrecDatabase(f"{self.path} is not a solrec database (it has other tables)")
        master = {
            str(name): (str(kind), sql)
            for name, kind, sql in self.query("select name, type, sql from sqlite_master")
        }
        meta = TABLES["solrec_meta"]  # alike in every schema
        check_table(self.path, master, meta, meta.columns, SCHEMA_VERSION, self._table_info, CorruptDatabase)
        version = self.query("select value from solrec_meta where key = 'schema'")
        if not version:
            raise CorruptDatabase(f"{self.path}: the solrec schema version is missing")
        value = version[0][0]
        if isinstance(value, str) and value.strip().isdigit() and len(value) < 10:
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            raise CorruptDatabase(f"{self.path}: the solrec schema version {quoted(str(value)[:40])} is not a number")
        if number not in (1, 2, SCHEMA_VERSION):
            raise NotASolrecDatabase(
                f"{self.path}: solrec schema {number}; this solrec reads schema {SCHEMA_VERSION}"
            )
        check_file(self.path, master, number, self._table_info, CorruptDatabase)
        if number in (1, 2):
            if self._reading:
                self._read_copy(number)  # a read writes nothing: an older file is read as it is
            else:
                self._migrate(number)
                self.migrated_from = number
                if announce is not None:
                    announce(f"{self.path}: migrated from solrec schema {number} to schema {SCHEMA_VERSION} "
                             "(a file an older solrec wrote)")

    def _read_copy(self, number: int) -> None:
        """Read an older file through a private copy, migrated there (the file itself is left as it
        is: a referee may be handed it): the copy is made with SQLite's backup (one consistent
        snapshot) into a folder of this process's own, once per file version, and removed at exit."""
        stat = self.path.stat()
        wal = self.path.with_name(self.path.name + "-wal")
        wal_stat = wal.stat() if wal.exists() else None
        key = (str(self.path.absolute()), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
               wal_stat and (wal_stat.st_size, wal_stat.st_mtime_ns))
        with _COPYING:  # the server's requests open stores from several threads
            copy = _COPIES.get(key)
            if copy is None or not copy.exists():
                import tempfile

                handle, name = tempfile.mkstemp(suffix=".db", dir=_private_folder())
                os.close(handle)
                copy = Path(name)
                target = sqlite3.connect(copy, isolation_level=None)
                try:
                    self.conn.backup(target)
                except sqlite3.Error as err:
                    raise self._error(err, "read") from None
                finally:
                    target.close()
                self._db.conn.close()  # type: ignore[union-attr]
                self._db = self._connect(create=False, path=copy)
                self._migrate(number)
                _COPIES[key] = copy
            else:
                self._db.conn.close()  # type: ignore[union-attr]
                self._db = self._connect(create=False, path=copy)
        self._db.conn.execute("PRAGMA query_only = ON")
        self._old, self._copy = number, copy

    @property
    def read_path(self) -> Path:
        """The file reads come from: the database, or the private migrated copy of an older one."""
        return self._copy if self._copy is not None else self.path

    @property
    def older_schema(self) -> int | None:
        """The schema of a file an older solrec wrote, read as it is until a write migrates it."""
        return self._old

    def _for_writing(self) -> None:
        """Reopen a file opened for reading for writing, migrating an older one first (it is checked
        again: another process may have migrated or changed it since)."""
        if not self._reading or self._db is None:
            return
        if self._old is None and self._may_write:  # the file's own connection: it may write from now on
            try:
                self._db.conn.execute("PRAGMA query_only = OFF")
            except sqlite3.Error as err:
                raise self._error(err, "write") from None
            self._reading = False
            return
        self._check_writable()
        self._db.conn.close()
        self._db, self._reading, self._old, self._copy = None, False, None, None
        self._views_checked = False
        self._db = self._connect(create=False)
        objects = self.objects()
        if not objects:  # emptied since: made as a new file is
            self._create_schema()
        else:
            self._check_schema(objects)

    migrated_from: int | None = None  # the schema of the older file this store migrated, if it did

    def _check_writable(self) -> None:
        """Refuse a write to a file this process may not write before SQLite opens it: opened all the
        same (read-only, as SQLite does then), it would make a ``-wal`` and ``-shm`` beside it in a
        folder anyone may write, owned by this user, and the file's owner could no longer write it
        until someone removed them (docs/security.md). A folder that may not be written is refused
        unless both files are there already (a running server's)."""
        if not self._writable():
            raise StoreError(f"{self.path}: the database or its folder is read-only; nothing was written")

    def _writable(self) -> bool:
        path = self.path
        folder_ok = os.access(path.absolute().parent, os.W_OK) or all(
            path.with_name(path.name + end).exists() for end in ("-wal", "-shm"))
        return os.access(path, os.W_OK) and folder_ok

    def upgrade(self) -> int | None:
        """Migrate a file an older solrec wrote (``solrec upgrade``): the schema it had, or None when it
        is current (nothing is written then)."""
        if self._old is not None:
            self._for_writing()
        return self.migrated_from

    def _table_info(self, table: str) -> list[tuple]:
        return self.query(f"PRAGMA table_xinfo({table})")

    def _create_views(self) -> None:
        for name, sql in VIEWS.items():
            self.conn.execute(f"create view if not exists {name} as {sql}")

    def _refresh_views(self, conn: sqlite3.Connection) -> None:
        """Views made by an older solrec (``game_list`` gave seeds as numbers) are made again by the
        first write: a read never writes."""
        stored = dict(conn.execute("select name, sql from sqlite_master where type = 'view'").fetchall())
        for name, sql in VIEWS.items():
            if name in stored and not str(stored[name]).endswith(f" as {sql}"):
                conn.execute(f"drop view {name}")
                conn.execute(f"create view {name} as {sql}")
        self._views_checked = True

    _views_checked = False

    def _migrate(self, number: int) -> None:
        """Schema 1 -> 2: add ``events.data`` (the payload as JSON) and the views. Schema 2 -> 3: add
        ``events.head``, packed from the columns it mirrors. One transaction for both: a migration
        that cannot complete (a full disk) leaves the file as it was. The file was checked first
        (``schema.check_file``): nothing in it runs or refuses on these writes."""
        self.conn.text_factory = _tolerant_text  # a text that is not UTF-8 makes its row damaged, not the file
        try:
            with self.transaction("migrate") as conn:
                version = conn.execute("select value from solrec_meta where key = 'schema'").fetchone()
                if version is None or str(version[0]) != str(number):
                    return  # another process migrated it first
                if number == 1:
                    conn.execute("alter table events add column data text")
                    rows = conn.execute(f"select rowid, payload from events where length(payload) <= {MAX_PAYLOAD}").fetchall()
                    conn.executemany(
                        "update events set data = ? where rowid = ?",
                        [(payload_json(p) if isinstance(p, bytes) else None, r) for r, p in rows],
                    )
                    self._create_views()
                conn.execute("alter table events add column head blob")
                # A row whose columns are not of their types (or over their bounds) keeps no head: it
                # reads back as damaged, as it did before.
                texts = " and ".join(f"length({c}) <= {MAX_TEXT}" for c in ("actor", "command", "type"))
                rows = conn.execute(f"select rowid, seq, step, actor, command, type, version from events where {texts}").fetchall()
                conn.executemany(
                    "update events set head = ? where rowid = ?",
                    [(pack_head(q, st, a, c, t, v), r) for r, q, st, a, c, t, v in rows if head_types(q, st, a, c, t, v)],
                )
                conn.execute("update solrec_meta set value = ? where key = 'schema'", [str(SCHEMA_VERSION)])
        finally:
            self.conn.text_factory = str

    def _create_schema(self) -> None:
        """Create the tables, unless another process did first (several `new` may race on a new file)."""
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error as err:
            raise self._error(err, "create") from None
        with self.transaction("create"):
            objects = self.objects()
            if objects:
                self._check_schema(objects)
                return
            db = self.db.full
            create(db, TABLES["solrec_meta"])
            db.execute("insert into solrec_meta values ('schema', ?)", [str(SCHEMA_VERSION)])
            create(db, TABLES["games"])
            create(db, TABLES["events"])
            self._create_views()

    def create_table(self, name: str) -> None:
        """Make the optional table ``name`` (events/schema.py) unless the file holds it, inside the
        caller's ``transaction``: the first seal, comment, fork, seat link or bot makes its table."""
        if name not in self.objects():
            table = TABLES[name]
            assert table.optional, name
            create(self.db.full, table)
        if name == "seals":
            self.has_seals = True

    @property
    def db(self) -> _Database:
        """The open database; a store for a file that does not exist yet creates it now."""
        if self._db is None:
            made = not self.path.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect(create=True)
            objects = self.objects()
            if objects:
                self._check_schema(objects)
            else:
                self._create_schema()
            if made and announce is not None:
                announce(f"created {self.path}")
        return self._db

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    @property
    def exists(self) -> bool:
        return self._db is not None

    def close(self) -> None:
        if self._db is not None:
            self._db.conn.close()

    def _error(self, err: sqlite3.Error, doing: str) -> StoreError:
        """SQLite's error as what it is, in one line (never a masking follow-up error)."""
        text = str(err).splitlines()[0] if str(err) else type(err).__name__
        low = text.lower()
        where = str(self.path)
        nothing = "" if doing in ("open", "read") else "; nothing was written"
        if "locked" in low or "busy" in low:
            return ConcurrencyConflict(f"{where}: the database is busy (locked by another program){nothing}")
        if "readonly" in low or "read-only" in low:
            return StoreError(f"{where}: the database or its folder is read-only{nothing}")
        if "full" in low:
            return StoreError(f"{where}: the disk is full{nothing}")
        if "unable to open" in low or "cannot open" in low:
            reason = "permission denied" if self.path.exists() or not os.access(self.path.parent, os.W_OK) else text
            return StoreError(f"{where}: cannot open the database ({reason})")
        if "malformed" in low or "not a database" in low or "corrupt" in low:
            if _looks_like_sqlite(self.path):
                return CorruptDatabase(f"{where}: the database file is damaged ({text})")
            return NotASolrecDatabase(f"{where} is not a solrec database ({text})")
        if "disk i/o" in low or isinstance(err, sqlite3.OperationalError):
            return StoreError(f"{where}: {text}{nothing}")
        return CorruptDatabase(f"{where}: {text}")

    @contextmanager
    def transaction(self, doing: str = "write", counting: bool = False) -> Iterator[sqlite3.Connection]:
        """One write: ``BEGIN IMMEDIATE`` ... ``COMMIT``, all of it or none of it (SQLite's error said as
        what it is, ``doing`` naming the write), or inside ``group`` a savepoint of its transaction.
        Reopens a file opened for reading for writing first (migrating an older one). ``counting``:
        a write that takes its ids from ``Store._allocate_id`` only, which keeps its count."""
        if self._grouped:  # inside ``group``: a savepoint of its transaction, committed with it
            with self._savepoint(doing, counting) as conn:
                yield conn
            return
        if self._reading and doing != "migrate":
            self._for_writing()
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._error(err, doing) from None
        if not counting:
            self._numbers = None  # a write may take or free any id: the next GAME-N is scanned for again
        try:
            if not self._views_checked:
                self._refresh_views(conn)
            yield conn
            conn.execute("COMMIT")
        except BaseException as err:
            self._roll_back(conn)
            if isinstance(err, sqlite3.IntegrityError):
                raise
            if isinstance(err, sqlite3.Error):
                raise self._error(err, doing) from None
            raise

    # game kind -> (SQLite's data_version, the largest N of its GAME-N ids) as the last write that took
    # automatic ids saw them (``_allocate_id``); None: scan again
    _numbers: dict[str, tuple[int, int]] | None = None

    _grouped = False  # inside ``group``: every write is a savepoint of its one transaction
    _savepoints = 0
    _lost = False  # the group's transaction was rolled back under it

    @contextmanager
    def group(self) -> Iterator[sqlite3.Connection]:
        """Several writes in one transaction, so one disk sync commits them all (the server's writer
        groups the writes of several games: no table waits for a sync per other table's write). Each
        write inside is a savepoint (``savepoint``): one that fails is rolled back alone and the
        others stay. All of them are on disk when this returns, or none (it raises): nothing written
        inside may be acknowledged before then."""
        if self._reading:
            self._for_writing()
        conn = self.conn
        try:
            # the commit syncs the WAL before it returns (SQLite's default, said here: the group's
            # writes are acknowledged on the strength of it; docs/security.md)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._error(err, "write") from None
        self._grouped, self._savepoints, self._lost = True, 0, False
        try:
            if not self._views_checked:
                self._refresh_views(conn)
            yield conn
            if self._lost or not conn.in_transaction:  # SQLite rolled it all back (a full disk does)
                raise StoreError(f"{self.path}: the write was rolled back; nothing was written")
            conn.execute("COMMIT")
        except BaseException as err:
            self._roll_back(conn)
            if isinstance(err, sqlite3.Error):
                raise self._error(err, "write") from None
            raise
        finally:
            self._grouped = False

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        """A failed transaction's end: what was counted on was not written. SQLite may have rolled
        back already (a full disk does): rolling back again must not replace the real error with
        "cannot rollback - no transaction is active"."""
        self._numbers = None
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    @contextmanager
    def savepoint(self, doing: str = "write") -> Iterator[sqlite3.Connection]:
        """One write of a ``group`` (several store writes together): all of it or none of it."""
        with self._savepoint(doing, False) as conn:
            yield conn

    @contextmanager
    def _savepoint(self, doing: str, counting: bool) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        if not conn.in_transaction:  # SQLite rolled the group back (a full disk does): nothing more joins it
            self._lost = True
            raise StoreError(f"{self.path}: the write was rolled back; nothing was written")
        self._savepoints += 1
        name = f"solrec_{self._savepoints}"
        if not counting:
            self._numbers = None
        try:
            conn.execute(f"SAVEPOINT {name}")
        except sqlite3.Error as err:
            raise self._error(err, doing) from None
        try:
            yield conn
            conn.execute(f"RELEASE {name}")
        except BaseException as err:
            self._numbers = None
            if conn.in_transaction:
                try:
                    conn.execute(f"ROLLBACK TO {name}")
                    conn.execute(f"RELEASE {name}")
                except sqlite3.Error:
                    pass
            if isinstance(err, sqlite3.IntegrityError):
                raise
            if isinstance(err, sqlite3.Error):
                raise self._error(err, doing) from None
            raise

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read inside one read transaction: every statement sees the database as it was at the
        first (one snapshot under WAL), so a write landing between two statements of one read (a
        games row and its events) is not half seen. Nested uses share the outer snapshot."""
        conn = self._db.conn if self._db is not None else None
        if conn is None or conn.in_transaction:
            yield  # nothing to read yet, or already inside a snapshot (or a write, which sees its own)
            return
        try:
            conn.execute("BEGIN")  # deferred: the snapshot is taken by the first read
        except sqlite3.Error as err:
            raise self._error(err, "read") from None
        try:
            yield
        finally:
            try:  # nothing was written: this only lets the snapshot go (SQLite may have already)
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Every row of one statement (none from a file not made yet); SQLite's errors as what they
        are, a stored text that is not UTF-8 read as ``Undecodable`` (damaged where it is)."""
        if self._db is None:
            return []
        try:
            return self._db.conn.execute(sql, list(params)).fetchall()
        except sqlite3.Error as err:
            if not self._tolerate(err):
                raise self._error(err, "read") from None
        try:  # once more, a text that is not UTF-8 read as ``Undecodable``
            return self._db.conn.execute(sql, list(params)).fetchall()
        except sqlite3.Error as err:
            raise self._error(err, "read") from None

    def _tolerate(self, err: sqlite3.Error) -> bool:
        """After SQLite handed over a stored text that is not UTF-8, read texts as ``_tolerant_text``
        does (a little slower) so that the value is damaged data where it is, not a failed read of
        the whole file. Whether ``err`` was that."""
        if self._db is None or not str(err).startswith("Could not decode to UTF-8"):
            return False
        self._db.conn.text_factory = _tolerant_text
        return True


class Undecodable:
    """A stored text that is not UTF-8, kept as its bytes: neither text nor bytes to whoever checks
    a stored value's type, so it is reported as damaged where it is."""

    __slots__ = ("raw",)

    def __init__(self, raw: bytes):
        self.raw = raw

    def __repr__(self) -> str:
        return f"<not UTF-8: {self.raw[:40]!r}>"

    __str__ = __repr__


def _tolerant_text(raw: bytes) -> str | Undecodable:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return Undecodable(raw)


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    except OSError:
        return False


def file_uri(path: Path, mode: str) -> str:
    """The SQLite URI of a file, opened in ``mode`` (``ro``, ``rw``, ``rwc``, ``ro&immutable=1``)."""
    from urllib.parse import quote

    return f"file:{quote(str(path.absolute()), safe='/')}?mode={mode}"


class ChangeWatch:
    """What a server's poller asks of a file other processes write (server/state.py): SQLite's
    ``data_version`` (a number that moves when another connection commits; free to read) and the
    recorded head of the games it watches, on a read-only connection of its own that never waits for
    a lock (a busy file is asked again at the next poll). Opened at the first question, once the
    file exists; any SQLite error is None (asked again)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None

    def version(self) -> int | None:
        """``PRAGMA data_version``, or None (no file yet, or SQLite could not answer now)."""
        conn = self._connection()
        if conn is None:
            return None
        try:
            return int(conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None

    def heads(self, game_ids: Sequence[str]) -> dict[Any, tuple] | None:
        """game id -> (recorded event count, head hash) of those of ``game_ids`` stored, or None."""
        conn = self._connection()
        if conn is None:
            return None
        ids = list(game_ids)
        rows: dict[Any, tuple] = {}
        try:
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                rows.update({gid: (events, head) for gid, events, head in conn.execute(
                    f"select id, events, head from games where id in ({','.join('?' * len(part))})", part)})
        except sqlite3.Error:
            return None
        return rows

    def links(self, game_ids: Sequence[str]) -> dict[str, list[tuple]] | None:
        """What revokes a viewer, for the server's streams: game id -> its seat links' rows
        (``("seat", player, token hash)``) and its bots' (``("bot", player, None)``), for each of
        ``game_ids`` and for ``""`` (the referee's link), or None (SQLite could not answer now)."""
        conn = self._connection()
        if conn is None:
            return None
        found: dict[str, list[tuple]] = {gid: [] for gid in (*game_ids, "")}
        names = ["", *game_ids]
        try:
            tables = {r[0] for r in conn.execute(
                "select name from sqlite_master where type = 'table' and name in ('seats', 'bots')")}
            for i in range(0, len(names), 500):
                part = names[i:i + 500]
                marks = ",".join("?" * len(part))
                if "seats" in tables:
                    for gid, player, kept in conn.execute(
                            f"select game_id, player, token_hash from seats where game_id in ({marks})", part):
                        found[gid].append(("seat", player, kept))
                if "bots" in tables:
                    for gid, player in conn.execute(f"select game_id, player from bots where game_id in ({marks})", part):
                        found[gid].append(("bot", player, None))
        except sqlite3.Error:
            return None
        return found

    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None:
            if not self.path.exists():
                return None
            try:
                self._conn = sqlite3.connect(file_uri(self.path, "ro"), uri=True, check_same_thread=False, timeout=0)
            except sqlite3.Error:
                return None
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
