"""The SQLite store: schema, atomic appends, optimistic concurrency, foreign files."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from solrec.core import make_header
from solrec.core.play import Step
from solrec.core.registry import get_game
from solrec.core.solo_dice.commands import Choose, Roll
from solrec.core.solo_dice.events import PairsChosen, Rolled
from solrec.events import ConcurrencyConflict, NotASolrecDatabase, Store, StoreError, codec_for
from solrec.events.store import default_db_path

GAME = get_game("solo-dice")
CODEC = codec_for(GAME)
HEADER = make_header(GAME, ["Ann"], chance="entered")
ROLL = Step("chance", Roll((6, 1, 5, 5, 5)), "roll 6 1 5 5 5", (Rolled((6, 1, 5, 5, 5)),))
CHOOSE = Step("Ann", Choose((6, 1), (5, 5), 5), "6+1 5+5 5", (PairsChosen((6, 1), (5, 5), 5, False),))


def head(store: Store, game_id: str = "g") -> str:
    """The head hash a write decided now names (the game's recorded head)."""
    return store.recorded(game_id)["head"]


def test_schema_primary_key_is_game_and_seq(store):
    assert store.db["events"].pks == ["game_id", "seq"]
    assert store.db["games"].pks == ["id"]
    assert store.db.journal_mode == "wal"


def test_append_continues_the_log(store):
    store.create_game("g", HEADER, CODEC)
    store.append("g", 0, head(store), CODEC, [ROLL])
    store.append("g", 1, head(store), CODEC, [CHOOSE])
    assert [(r.seq, r.step, r.actor, r.command) for r in store.rows("g")] == [
        (0, 0, "chance", "roll 6 1 5 5 5"), (1, 1, "Ann", "6+1 5+5 5"),
    ]


def test_an_append_at_a_stale_position_conflicts_and_writes_nothing(db_path):
    a, b = Store(db_path), Store(db_path)
    a.create_game("g", HEADER, CODEC)
    decided_at = head(a)
    a.append("g", 0, head(a), CODEC, [ROLL])
    with pytest.raises(ConcurrencyConflict, match="the game changed: replay and try again"):
        b.append("g", 0, decided_at, CODEC, [ROLL])
    assert len(b.rows("g")) == 1


def test_of_two_racing_writers_exactly_one_wins(db_path):
    Store(db_path).create_game("g", HEADER, CODEC)
    barrier = threading.Barrier(2)
    outcomes = []

    def writer():
        store = Store(db_path)
        barrier.wait()
        try:
            store.append("g", 0, head(store), CODEC, [ROLL])
            outcomes.append("won")
        except ConcurrencyConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "won"]
    assert len(Store(db_path).rows("g")) == 1


def test_all_events_of_an_append_are_written_or_none(store, monkeypatch):
    store.create_game("g", HEADER, CODEC)
    original = Store._insert

    def insert_then_fail(self, game_id, rows):
        original(self, game_id, rows[:1])
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(Store, "_insert", insert_then_fail)
    with pytest.raises(StoreError, match="the disk is full; nothing was written"):
        store.append("g", 0, head(store), CODEC, [ROLL, CHOOSE])
    monkeypatch.undo()
    assert store.rows("g") == []
    assert store.recorded("g")["events"] == 0


def test_the_primary_key_backs_the_position_check(store):
    store.create_game("g", HEADER, CODEC)
    store.append("g", 0, head(store), CODEC, [ROLL])
    with pytest.raises(sqlite3.IntegrityError):
        store.db.conn.execute(
            "insert into events (game_id, seq, step, actor, command, type, version, payload, hash, time)"
            " values ('g', 0, 0, 'x', 'x', 'x', 1, x'00', 'x', 'x')"
        )


def test_a_game_id_is_unique(store):
    store.create_game("g", HEADER, CODEC)
    with pytest.raises(StoreError, match='a game "g" already exists'):
        store.create_game("g", HEADER, CODEC)


def test_new_ids_count_up_per_game(store):
    assert store.new_game_id("solo-dice") == "solo-dice-1"
    store.create_game("solo-dice-1", HEADER, CODEC)
    assert store.new_game_id("solo-dice") == "solo-dice-2"


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(NotASolrecDatabase, match="is not a solrec database"):
        Store(path)


def test_another_programs_sqlite_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("create table contacts (name text)")
    conn.commit()
    conn.close()
    with pytest.raises(NotASolrecDatabase, match="it has other tables"):
        Store(path)
    assert sqlite3.connect(path).execute("select name from sqlite_master").fetchall() == [("contacts",)]


def test_default_database_location(monkeypatch, tmp_path):
    monkeypatch.delenv("SOLREC_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "solrec" / "solrec.db"
    monkeypatch.setenv("SOLREC_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_a_stores_connection_is_closed_when_the_store_is_let_go(db_path):
    import gc

    store = Store(db_path)
    store.create_game("g", HEADER, CODEC)
    conn = store.conn
    gc.disable()  # closed by the store letting go, not by the collector
    try:
        del store
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            conn.execute("select 1")
    finally:
        gc.enable()
    assert not db_path.with_name(db_path.name + "-wal").exists()


def test_close_all_closes_every_store_still_alive(db_path, tmp_path):
    from solrec.events.store import close_all

    kept = [Store(db_path), Store(tmp_path / "other.db")]
    for i, store in enumerate(kept):
        store.create_game(f"g{i}", HEADER, CODEC)
    close_all()
    for store in kept:
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            store.conn.execute("select 1")
    assert not list(tmp_path.glob("*-wal"))


def test_a_table_another_connection_makes_is_seen_at_the_next_question(db_path):
    # the file's objects are kept per schema version (``Database.objects``): a change by any
    # connection moves the version, so a kept answer is never stale
    from solrec.server import seats

    one = Store(db_path, create=True)
    seats.make_links(one, "g", ("Ann",))  # the file, with its seats table
    other = Store(db_path)
    assert "seats" in other.objects() and "extra" not in other.objects()
    one.conn.execute("create table extra (x)")
    assert "extra" in other.objects()
    one.conn.execute("drop table extra")
    assert "extra" not in other.objects()


def test_a_table_made_in_a_transaction_rolled_back_is_not_kept(db_path):
    from solrec.server import seats

    store = Store(db_path, create=True)
    seats.make_links(store, "g", ("Ann",))
    store.conn.execute("begin")
    store.conn.execute("create table extra (x)")
    assert "extra" in store.objects()
    store.conn.execute("rollback")
    assert "extra" not in store.objects()
