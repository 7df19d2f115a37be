"""The server's writer: the writes of several games committed in one transaction (one disk sync),
each refused one rolled back alone, each answered only once its group is committed."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest

from solrec.events.store import ConcurrencyConflict, Store
from solrec.replay.log import load
from solrec.server.writer import GroupWriter
from solrec.workflows.games import decide_commands, new_game

TIMEOUT = 60.0


def games(db, n: int) -> list[str]:
    store = Store(db, create=True)
    try:
        return [new_game(store, "soli2", ["Ann", "Bob"], {}, 3 + i, False, None)[0] for i in range(n)]
    finally:
        store.close()


def first_move(db, gid: str):
    store = Store(db)
    try:
        log = load(store, gid)
    finally:
        store.close()
    return decide_commands(log, ["place d4"])


def stored(db, gid: str) -> list[str]:
    store = Store(db)
    try:
        return [r.command for r in load(store, gid).rows]
    finally:
        store.close()


def test_writes_waiting_together_are_committed_in_one_group(tmp_path):
    db = tmp_path / "w.db"
    ids = games(db, 6)
    writer = GroupWriter(db)
    holding, release = threading.Event(), threading.Event()

    def first(store: Store) -> str:
        holding.set()
        assert release.wait(TIMEOUT)
        return "first"

    futures: list[Future] = [writer.submit(first)]
    assert holding.wait(TIMEOUT)  # the writer is inside its first group: the next writes wait together
    plays = [first_move(db, gid) for gid in ids]
    futures += [writer.submit(played.append) for played in plays]
    assert not any(f.done() for f in futures)
    release.set()
    assert futures[0].result(TIMEOUT) == "first"
    for gid, f in zip(ids, futures[1:]):
        assert len(f.result(TIMEOUT).rows) > 0
        assert "place d4" in stored(db, gid)
    assert (writer.groups, writer.writes) == (2, 7)


def test_a_refused_write_is_rolled_back_alone_and_the_others_of_its_group_are_stored(tmp_path):
    db = tmp_path / "w.db"
    a, b = games(db, 2)
    writer = GroupWriter(db)
    holding, release = threading.Event(), threading.Event()
    writer.submit(lambda store: (holding.set(), release.wait(TIMEOUT)))
    assert holding.wait(TIMEOUT)
    played_a, played_b = first_move(db, a), first_move(db, b)
    stale = first_move(db, a)  # decided on the same head as played_a: the second of the two is refused
    futures = [writer.submit(played_a.append), writer.submit(stale.append), writer.submit(played_b.append)]
    release.set()
    futures[0].result(TIMEOUT)
    with pytest.raises(ConcurrencyConflict):
        futures[1].result(TIMEOUT)
    futures[2].result(TIMEOUT)
    assert stored(db, a).count("place d4") == 1 and "place d4" in stored(db, b)


def test_a_write_whose_file_cannot_be_opened_is_refused_never_left_waiting(tmp_path):
    db = tmp_path / "w.db"
    (gid,) = games(db, 1)
    played = first_move(db, gid)
    (tmp_path / "a-file").write_text("not a folder")
    writer = GroupWriter(tmp_path / "a-file" / "w.db")  # its folder cannot be made
    with pytest.raises(OSError):
        writer.submit(played.append).result(TIMEOUT)
    assert stored(db, gid).count("place d4") == 0


def test_a_write_finding_the_writer_idle_is_committed_by_the_thread_that_asked_on_its_own_store(tmp_path):
    db = tmp_path / "w.db"
    (gid,) = games(db, 1)
    own = Store(db)
    writer = GroupWriter(db, thread_store=lambda: own)
    used: list[Store] = []

    def play(store: Store):
        used.append(store)
        return first_move(db, gid).append(store)

    try:
        assert len(writer.write(play).rows) > 0
        assert used == [own] and writer.thread is None  # no hand-over to the writer's thread
        assert "place d4" in stored(db, gid)  # committed before the answer
        assert (writer.groups, writer.writes) == (1, 1)
    finally:
        own.close()


def test_a_write_arriving_while_another_commits_waits_for_the_writers_next_group(tmp_path):
    db = tmp_path / "w.db"
    a, b = games(db, 2)
    writer = GroupWriter(db, thread_store=lambda: pytest.fail("a write arriving mid-commit never commits alone"))
    played_a, played_b = first_move(db, a), first_move(db, b)
    with writer.committing:  # a commit in progress (the writer's group, or another thread's own)
        answers: list = []
        threads = [threading.Thread(target=lambda p=p: answers.append(writer.write(p.append))) for p in (played_a, played_b)]
        for t in threads:
            t.start()
        assert not answers
    for t in threads:
        t.join(TIMEOUT)
    assert len(answers) == 2
    assert "place d4" in stored(db, a) and "place d4" in stored(db, b)
    assert writer.writes == 2 and writer.groups in (1, 2)  # grouped when both had queued before the lock was free
