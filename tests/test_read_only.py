"""Read-only means read-only (issue 29): a command that only reads never writes the file it reads.

A file an older solrec wrote (schemas 1 and 2) is read as it is, through a private migrated copy; only
a command that records something, or ``solrec upgrade``, migrates it, and says so. No ``-wal`` or
``-shm`` file is left beside a file read. A file this process may not write is fully readable.

The suite runs as root, where file permissions do not stop a write: a ``chmod 444`` copy is read
through the ordinary path there, so the read-only path is tested by telling the store it may not
write (``os.access``), and, where ``setpriv`` can drop to the user nobody, by a real read-only file
in a read-only folder.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from solrec.events import database as database_module
from solrec.events import store as store_module

from .conftest import FIXTURES, Cli
from .robustness.helpers import as_schema

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"

# Every command that only reads, as the issue lists them (``serve`` viewing is tested below)
READING = [
    ("list",), ("list", "--tree"), ("show", "we"), ("show", "g"), ("legal", "g"), ("log", "we"), ("replay", "we"),
    ("score", "we", "--explain"), ("diff", "we", "g"), ("validate", "we", "g"), ("validate", "--all"),
    ("impact", "--all"), ("impact", "we", "g"), ("export", "we"), ("svg", "g"), ("html", "we"),
    ("note", "we"),  # without TEXT: lists the comments
]


def era_file(folder: Path, schema: int) -> Path:
    """A database as solrec schema ``schema`` left it: the worked example (finished, with comments) and
    a running game."""
    db = folder / f"schema-{schema}.db"
    cli = Cli(db)
    cli.run("import", str(WORKED), "--id", "we")
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    cli.run("play", "g", *_first_legal(cli))
    if schema < 3:
        as_schema(db, schema)
    return db


def _first_legal(cli: Cli) -> list[str]:
    return [cli.json("legal", "g")["commands"][0]]


def beside(db: Path) -> list[str]:
    """The files SQLite keeps beside a database while it is open (or left after a crash)."""
    return sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name + "-"))


def schema_of(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute("select value from solrec_meta where key = 'schema'").fetchone()[0]
    finally:
        conn.close()


def read_as_cli_does(db: Path, *args: str, expect: tuple[int, ...] = (0, 1)):
    """One command as ``solrec`` runs it: its databases closed as the process ends (cli/main.py)."""
    result = Cli(db).run(*args, expect=None)
    store_module.close_all()
    assert result.exit_code in expect, (args, result.exit_code, result.stdout[-300:], result.stderr[-300:])
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.mark.parametrize("schema", [1, 2, 3])
def test_every_reading_command_leaves_the_file_byte_identical_with_nothing_beside_it(tmp_path, schema):
    db = era_file(tmp_path, schema)
    before = db.read_bytes()
    for args in READING:
        result = read_as_cli_does(db, *args)
        assert db.read_bytes() == before, f"{args} changed the file"
        assert beside(db) == [], f"{args} left {beside(db)} beside the file"
        assert "migrated" not in result.stderr, args
    assert schema_of(db) == str(schema)


@pytest.mark.parametrize("schema", [1, 2])
def test_an_older_file_reads_as_it_does_once_upgraded(tmp_path, schema):
    db = era_file(tmp_path, schema)
    as_read = {args: read_as_cli_does(db, *args, "--json").stdout for args in [("show", "we"), ("export", "we"), ("validate", "--all")]}
    upgraded = read_as_cli_does(db, "upgrade")
    assert upgraded.stdout.strip() == f"{db}: migrated from solrec schema {schema} to schema 3"
    assert schema_of(db) == "3"
    for args, text in as_read.items():
        assert read_as_cli_does(db, *args, "--json").stdout == text, args


def test_upgrade_says_a_current_file_needs_nothing_and_leaves_it_as_it_is(tmp_path):
    db = era_file(tmp_path, 3)
    before = db.read_bytes()
    result = read_as_cli_does(db, "upgrade", "--json")
    assert '"migrated": false' in result.stdout
    assert db.read_bytes() == before and beside(db) == []


def test_upgrade_of_no_database_or_an_empty_file_is_refused_and_makes_nothing(tmp_path):
    missing = tmp_path / "missing.db"
    assert "no such database" in read_as_cli_does(missing, "upgrade", expect=(2,)).stderr
    assert not missing.exists()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert "it is empty" in read_as_cli_does(empty, "upgrade", expect=(2,)).stderr
    assert empty.read_bytes() == b""


@pytest.mark.parametrize("schema", [1, 2])
def test_the_first_command_that_records_something_migrates_an_older_file_and_says_so(tmp_path, schema):
    db = era_file(tmp_path, schema)
    result = read_as_cli_does(db, "note", "we", "checked by the referee")
    assert f"{db}: migrated from solrec schema {schema} to schema 3" in result.stderr
    assert schema_of(db) == "3"
    assert read_as_cli_does(db, "validate", "--all").stdout.endswith("2 valid, 0 invalid\n")


def test_a_refused_write_leaves_an_older_file_as_it_is(tmp_path):
    db = era_file(tmp_path, 1)
    before = db.read_bytes()
    read_as_cli_does(db, "play", "we", "1+5 6+5 5", expect=(2,))  # the game is over
    read_as_cli_does(db, "note", "we", "  ", expect=(2,))  # an empty comment
    assert db.read_bytes() == before and beside(db) == []


def test_a_chmod_444_copy_is_fully_readable_and_stays_as_it_is(tmp_path):
    db = era_file(tmp_path, 1)
    os.chmod(db, 0o444)
    before = db.read_bytes()
    for args in READING:
        read_as_cli_does(db, *args)
    assert db.read_bytes() == before and beside(db) == []


@pytest.mark.parametrize("schema", [1, 3])
def test_a_file_the_store_may_not_write_is_read_immutable_with_nothing_beside_it(tmp_path, monkeypatch, schema):
    db = era_file(tmp_path, schema)
    before = db.read_bytes()
    real_access = os.access
    monkeypatch.setattr(database_module.os, "access", lambda path, mode, **kw: False if mode & os.W_OK else real_access(path, mode, **kw))
    for args in READING:
        read_as_cli_does(db, *args)
        assert db.read_bytes() == before and beside(db) == [], args


def test_serve_shows_an_older_file_without_changing_a_byte(tmp_path):
    pytest.importorskip("starlette", reason="solrec serve needs the serve extra (pip install 'solrec[serve]')")
    from starlette.testclient import TestClient

    from solrec.server.app import create_app
    from solrec.server.seats import referee_cookie, token_hash

    db = era_file(tmp_path, 1)
    before = db.read_bytes()
    app = create_app(db, "referee-token", b"k" * 32, live_seconds=0.3, poll_seconds=0.05, quiet_poll_seconds=0.05)
    with TestClient(app, raise_server_exceptions=False) as client:
        client.cookies.set(referee_cookie(token_hash("referee-token")), "referee-token")
        for path in ("/", "/g/we", "/g/we/view", "/g/g", "/g/g/view", "/new?game=solo-dice"):
            response = client.get(path)
            assert response.status_code == 200, (path, response.text[:200])
        assert "Ann" in client.get("/g/g").text
    store_module.close_all()
    assert db.read_bytes() == before and beside(db) == []
    assert schema_of(db) == "1"


def _nobody() -> list[str] | None:
    """A prefix that runs a command as the user nobody, or None (not root, no setpriv)."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    # a checkout in a folder only root may enter (a clone in a mktemp folder): nobody cannot load solrec
    probe = subprocess.run([*prefix, sys.executable, "-c", "import solrec.cli.main"], capture_output=True, timeout=300,
                           cwd="/")
    return prefix if probe.returncode == 0 else None


@pytest.mark.parametrize("schema", [1, 3])
def test_a_read_only_file_in_a_read_only_folder_is_fully_readable_by_a_user_who_may_not_write_it(tmp_path, schema):
    prefix = _nobody()
    if prefix is None:
        pytest.skip("needs root, setpriv and a checkout the user nobody may read, to run solrec as a user who may not write the file")
    made = era_file(tmp_path, schema)
    folder = Path(tempfile.mkdtemp(prefix="solrec-ro-"))  # beside /tmp, where nobody may enter
    try:
        db = folder / "disputed.db"
        shutil.copyfile(made, db)
        os.chmod(db, 0o444)
        os.chmod(folder, stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        before = db.read_bytes()
        solrec = [*prefix, sys.executable, "-c", "from solrec.cli.main import run; run()"]
        for args in [("show", "we"), ("validate", "--all"), ("impact", "--all"), ("export", "we"), ("list",), ("legal", "g")]:
            result = subprocess.run([*solrec, *args, "--db", str(db)], capture_output=True, text=True, timeout=300,
                                    cwd=folder, env={**os.environ, "HOME": str(folder), "TMPDIR": "/tmp"})
            assert result.returncode in (0, 1) and "Traceback" not in result.stderr, (args, result.stderr[-300:])
        written = subprocess.run([*solrec, "note", "we", "a comment", "--db", str(db)], capture_output=True, text=True,
                                 timeout=300, cwd=folder, env={**os.environ, "HOME": str(folder)})
        assert written.returncode == 2 and "read-only" in written.stderr, written.stderr
        assert len(written.stderr.strip().splitlines()) == 1
        assert db.read_bytes() == before and beside(db) == []
    finally:
        os.chmod(folder, 0o700)
        shutil.rmtree(folder, ignore_errors=True)


def test_shard_splits_an_older_file_without_writing_it(tmp_path):
    db = era_file(tmp_path, 1)
    before = db.read_bytes()
    read_as_cli_does(db, "shard", "--into", str(tmp_path / "parts"), "--games-per-shard", "1")
    assert db.read_bytes() == before and beside(db) == []
    parts = Cli(tmp_path / "parts")
    assert parts.run("validate", "--all").stdout.endswith("2 valid, 0 invalid\n")
    assert [p.name for p in sorted((tmp_path / "parts").glob("*.db"))] == ["shard-0001.db", "shard-0002.db"]


def test_stores_opened_at_once_in_several_threads_read_an_older_file_alike(tmp_path):
    import threading

    from solrec.events.store import Store
    from solrec.replay.log import load

    db = era_file(tmp_path, 1)
    before = db.read_bytes()
    heads: list[str] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def reader() -> None:
        try:
            barrier.wait(timeout=120)
            store = Store(db, create=False)
            heads.append(load(store, "we").head)
            store.close()
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    store_module.close_all()
    assert errors == [] and len(heads) == 4 and len(set(heads)) == 1
    assert db.read_bytes() == before and beside(db) == []


def test_the_rules_1_corpus_is_byte_identical_after_impact_validate_and_list(tmp_path):
    """The referee's case of the issue: the Solari corpus recorded under rules 1, re-decided."""
    import gzip

    db = tmp_path / "solari-rules-1.db"
    with gzip.open(FIXTURES / "impact" / "solari-rules-1.db.gz", "rb") as packed, open(db, "wb") as out:
        shutil.copyfileobj(packed, out)
    before = db.read_bytes()
    assert read_as_cli_does(db, "impact", "--all").exit_code == 1  # rule changes found: a verdict
    for args in [("validate", "--all"), ("list",), ("show", "two-players-greedy-to-36-entered")]:
        read_as_cli_does(db, *args)
    assert db.read_bytes() == before and beside(db) == []
