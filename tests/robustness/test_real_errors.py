"""Errors are the real error, and creating or refusing writes exactly what it should (issue 8, items
4 to 7)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest

from solrec.cli.main import app
from solrec.core import make_header
from solrec.core.registry import get_game
from solrec.events import Store, StoreError, codec_for

from .helpers import FIXTURES, SOLREC, Hostile, small_disk

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"


def refusal(cli, *args, code=2, db=None) -> str:
    result = cli.run(*args, db=db)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result.stderr


# -- item 4: bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("new", "solo-dice", "--seed", str(2**64)), "at most 64 bits"),
        (("new", "solo-dice", "--seed", str(-(2**63) - 1)), "at most 64 bits"),
        (("new", "solari", "-o", "target=" + str(2**70)), "at most 64 bits"),
        (("simulate", "solo-dice", "--games", str(2**64)), "at most 64 bits"),
        (("show", "g", "--at", str(2**64)), "at most 64 bits"),
        (("new", "solo-dice", "-p", "Ann\x1b[2J"), "control character"),
        (("new", "solo-dice", "-p", "Ann\nBob"), "control character"),
        (("new", "solo-dice", "-p", "A" * 41), "longer than 40"),
        (("new", "solo-dice", "-p", "Ann\udcff"), "not valid UTF-8"),
        (("new", "solo-dice", "--id", "g\x1b"), "game id"),
        (("new", "solo-dice", "--id", "g\n1"), "game id"),
        (("show", "g\udcff"), "not valid UTF-8"),
        (("play", "g", "roll\udcff"), "not valid UTF-8"),
        (("show", "-x"), "no such option: -x"),
        (("play", "--id"), "no such option: --id"),
        (("show",), "missing argument"),
    ],
)
def test_bad_input_is_exit_2_with_a_one_line_reason(tmp_path, args, reason):
    cli = Hostile(tmp_path / "solrec.db")
    assert reason in refusal(cli, *args)
    assert not cli.db.exists()


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ({"seed": 2**64, "chance": "seeded"}, "at most 64 bits"),
        ({"options": {"target": 2**64}, "game": "solari", "players": ["A", "B"]}, "at most 64 bits"),
        ({"players": ["Ann\u001b"]}, "control character"),
        ({"players": ["Ann\ud800"]}, "control character"),
        ({"players": ["x" * 100]}, "longer than 40"),
    ],
)
def test_bad_record_headers_are_exit_2(tmp_path, header, reason):
    cli = Hostile(tmp_path / "solrec.db")
    line = {"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "entered", **header}
    result = cli.run("import", "-", input=json.dumps(line) + "\n")
    assert result.exit_code == 2 and reason in result.stderr
    assert not cli.db.exists()


def test_a_record_line_nested_thousands_deep_is_exit_2(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    result = cli.run("import", "-", input="[" * 100_000 + "]" * 100_000 + "\n")
    assert result.exit_code == 2 and "nested too deeply" in result.stderr


def test_a_record_that_is_not_utf8_is_exit_2(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(WORKED.read_bytes().replace(b"Ann", b"A\xffn"))
    assert "is not UTF-8 text" in refusal(cli, "import", str(path))


# -- item 5: the real error --------------------------------------------------------------------------
def test_dev_null_is_not_a_database(tmp_path):
    cli = Hostile(tmp_path / "x.db")
    for args in (("new", "solo-dice"), ("show", "g"), ("validate", "--all")):
        assert "not a regular file" in refusal(cli, *args, db=Path("/dev/null"))


def test_a_directory_is_not_a_database(tmp_path):
    cli = Hostile(tmp_path / "x.db")
    assert "not a regular file" in refusal(cli, "new", "solo-dice", db=tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_a_read_only_file_is_reported_as_read_only(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--id", "g", "--entered")
    os.chmod(cli.db, 0o444)
    assert "read-only" in refusal(cli, "play", "g", "roll 1 2 3 4 5")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_a_read_only_folder_is_reported(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    os.chmod(folder, 0o555)
    cli = Hostile(folder / "solrec.db")
    assert "cannot open the database" in refusal(cli, "new", "solo-dice")


def test_a_locked_database_is_reported_as_busy(tmp_path, monkeypatch):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--id", "g", "--entered")
    monkeypatch.setattr(Store, "_connect", _quick_connect(Store._connect))
    holder = sqlite3.connect(cli.db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert "the database is busy" in refusal(cli, "play", "g", "roll 1 2 3 4 5")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _quick_connect(original):
    def connect(self, create, *args, **kwargs):
        db = original(self, create, *args, **kwargs)
        db.conn.execute("PRAGMA busy_timeout = 50")
        return db

    return connect


def test_a_full_disk_is_reported_as_a_full_disk_not_a_rollback_error(tmp_path):
    path = tmp_path / "solrec.db"
    store = Store(path)
    game = get_game("solo-dice")
    header = make_header(game, ["Ann"], chance="entered")
    store.create_game("g", header, codec_for(game))
    page = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {page}")  # SQLite rolls back itself on "full"
    from solrec.core.play import Step
    from solrec.core.solo_dice.commands import Roll
    from solrec.core.solo_dice.events import Rolled

    big = [Step("chance", Roll((1, 2, 3, 4, 5)), "roll 1 2 3 4 5" + " " * 3000, (Rolled((1, 2, 3, 4, 5)),))] * 40
    with pytest.raises(StoreError, match="the disk is full; nothing was written"):
        store.append("g", 0, store.recorded("g")["head"], codec_for(game), big)
    assert store.rows("g") == []


def test_an_io_error_at_open_is_reported_as_such(tmp_path, monkeypatch):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--id", "g", "--entered")

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite3, "connect", broken)
    result = cli.runner.invoke(app, ["show", "g", "--db", str(cli.db)])
    assert result.exit_code == 2 and result.stderr == f"solrec: {cli.db}: disk I/O error\n"


# -- item 6: creation under concurrency ---------------------------------------------------------------
def _spawn(args: list[str], db: Path) -> subprocess.Popen:
    return subprocess.Popen([*SOLREC, *args, "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_three_new_on_the_same_new_path_all_succeed(tmp_path):
    db = tmp_path / "race" / "solrec.db"
    procs = [_spawn(["new", "solo-dice", "--json"], db) for _ in range(3)]
    outs = [(p.wait(), *p.communicate()) for p in procs]
    assert all(code == 0 for code, _, _ in outs), [(code, err) for code, _, err in outs if code]  # the refusals whole
    ids = sorted(json.loads(out)["id"] for _, out, _ in outs)
    assert ids == ["solo-dice-1", "solo-dice-2", "solo-dice-3"]


def test_two_simulate_runs_with_automatic_ids_never_collide(tmp_path):
    db = tmp_path / "solrec.db"
    procs = [_spawn(["simulate", "solo-dice", "--games", "15", "--seed", str(s), "--json"], db) for s in (1, 2)]
    outs = [(p.wait(), *p.communicate()) for p in procs]
    assert all(code == 0 for code, _, _ in outs), outs
    ids = [i for _, out, _ in outs for i in json.loads(out)["ids"]]
    assert len(ids) == len(set(ids)) == 30
    check = subprocess.run([*SOLREC, "validate", "--all", "--db", str(db)], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.strip().endswith("30 valid, 0 invalid")


def test_stores_racing_to_create_the_schema_all_open(tmp_path):
    db = tmp_path / "solrec.db"
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def opener():
        barrier.wait()
        try:
            Store(db).db  # noqa: B018 (creates the file and schema)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def _games_in(db: Path) -> int:
    """The games a database holds so far (0 before its schema is written, or while it is locked)."""
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return conn.execute("select count(*) from games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_a_killed_writer_leaves_every_stored_game_valid(tmp_path):
    db = tmp_path / "solrec.db"
    proc = _spawn(["simulate", "solari", "--games", "50", "--seed", "9"], db)
    import time

    # killed once it has stored some games and is writing more (a condition, not a time: under load
    # the writer may need seconds to start)
    deadline = time.monotonic() + 300
    while _games_in(db) < 1 and proc.poll() is None:
        assert time.monotonic() < deadline, "the writer stored no game in 300 s"
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    check = subprocess.run([*SOLREC, "validate", "--all", "--db", str(db)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


# -- item 7: a refusal writes nothing -----------------------------------------------------------------
# (`validate --all` and `list` on a missing database are no refusal: 0 games, exit 0, and no file
# either: tests/test_vocabulary.py)
@pytest.mark.parametrize(
    "args",
    [("new", "solo-dice", "-o", "x=1"), ("new", "nope"), ("new", "solo-dice", "--id", "-bad"),
     ("play", "g", "roll 1 2 3 4 5"), ("show", "g"), ("simulate", "solo-dice", "-o", "x=1")],
)
def test_a_refusal_on_a_missing_database_leaves_no_file(tmp_path, args):
    cli = Hostile(tmp_path / "sub" / "solrec.db")
    assert cli.run(*args).exit_code == 2
    assert not (tmp_path / "sub").exists()


def test_a_refused_import_or_new_writes_no_schema_into_an_empty_file(tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    cli = Hostile(empty)
    assert cli.run("import", "-", input='{"solrec": 1, "game": "nope"}\n').exit_code == 2
    assert cli.run("new", "solo-dice", "-o", "x=1").exit_code == 2
    assert empty.read_bytes() == b""
    assert cli.run("new", "solo-dice").exit_code == 0


def test_a_refused_import_leaves_no_file(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    assert cli.run("import", "-", input='{"solrec": 1, "game": "nope"}\n').exit_code == 2
    assert list(tmp_path.iterdir()) == []


# (`validate --all` and `list` read an empty file as holding no game: the test after the next)
@pytest.mark.parametrize("command", [("show", "g"), ("log", "g"), ("play", "g", "x")])
def test_a_reading_command_never_writes_a_schema_into_an_empty_or_foreign_file(tmp_path, command):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    cli = Hostile(empty)
    assert "is not a solrec database (it is empty)" in refusal(cli, *command)
    assert empty.read_bytes() == b""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    refusal(cli, *command, db=notes)
    assert notes.read_text() == "my notes\n"


def test_a_database_sqlite_opens_read_only_is_reported_as_read_only(tmp_path, monkeypatch):
    """The same as a read-only file, also where the tests run as root (who writes through chmod)."""
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--id", "g", "--entered")

    def read_only(self, create):
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
        import sqlite_utils

        return sqlite_utils.Database(conn)

    monkeypatch.setattr(Store, "_connect", read_only)
    assert "read-only; nothing was written" in refusal(cli, "play", "g", "roll 1 2 3 4 5")


def test_simulate_on_a_full_disk_says_which_games_it_kept(tmp_path, monkeypatch):
    """Issue 21: each simulated game is its own write; when the disk fills, the games before are kept
    and the message names them (it said "nothing was written" while some were)."""
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("simulate", "solo-dice", "--games", "1")
    small_disk(monkeypatch, 6)
    result = cli.runner.invoke(app, ["simulate", "solo-dice", "--games", "200", "--db", str(cli.db)])
    monkeypatch.undo()
    store = Store(cli.db, create=False)
    kept = store.game_ids()[1:]
    store.close()
    assert result.exit_code == 2 and 0 < len(kept) < 200, (result.stderr, kept)
    assert result.stderr == (
        f"solrec: {cli.db}: the disk is full at game {len(kept) + 1} of 200: kept the {len(kept)} recorded before it"
        f" ({kept[0]} .. {kept[-1]}); nothing more was written\n"
    )
    assert cli.run("validate", "--all").exit_code == 0


@pytest.mark.parametrize("args", [("list",), ("validate", "--all")])
def test_an_empty_database_file_holds_no_game_for_list_and_validate_all(tmp_path, args):
    """A writer killed after SQLite made the file but before its schema was written leaves an empty
    file: listing it lists nothing (exit 0), as for a database not made yet, and writes nothing."""
    empty = tmp_path / "solrec.db"
    empty.write_bytes(b"")
    result = Hostile(empty).run(*args)
    assert result.exit_code == 0, result.stderr
    assert "0 games" in result.stdout or "0 valid, 0 invalid" in result.stdout
    assert empty.read_bytes() == b""
    notes = tmp_path / "notes.txt"  # a file that is no database at all is still refused, untouched
    notes.write_text("my notes\n")
    assert Hostile(notes).run(*args).exit_code == 2
    assert notes.read_text() == "my notes\n"
