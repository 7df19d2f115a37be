"""The server's one writer: every write of a ``solrec serve`` process goes through one thread with one
connection, which commits the writes waiting at that moment, of whatever games, in one transaction:
one disk sync for all of them (group commit). A write waits for the sync of its own group and no
more; no table waits for a sync per other table's write, and the event loop never waits at all.

Each write is a savepoint of the group's transaction (``Store.group``): a refused one (a conflict, an
illegal command found at the write) is rolled back alone. Its answer is given only after the group's
``COMMIT`` returned, so an acknowledged write is on disk (``PRAGMA synchronous = FULL`` under WAL:
the commit syncs the log file before it returns; docs/security.md). When the commit fails, every
write of the group fails with it and none is acknowledged.

A write that finds the writer idle (no group committing, none waiting) is committed by the thread
that asked, on that thread's own connection (``thread_store``), as a group of one: the same
transaction, savepoint and synced ``COMMIT``, without handing the write to the writer's thread and
waiting to be woken (two thread hops a play, each dear on a machine whose cores sleep between
plays). Writes arriving meanwhile queue for the writer's thread, which commits them as one group
when the lock (``committing``: one transaction at a time in the process) is free.

Other processes (the CLI, another worker of ``--workers``) write to the same file through their own
connections; the store's head-checked writes keep each game's log whole whoever writes.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from solrec.events.store import Store

MOST = 256  # writes in one group: a bound on how long one transaction stays open
IDLE = 5.0  # seconds without a write after which the thread closes its connection and ends (the next write starts another)


class Job:
    __slots__ = ("work", "future")

    def __init__(self, work: Callable[[Store], Any]):
        self.work = work
        self.future: Future[Any] = Future()


class GroupWriter:
    """``submit(work)``: ``work(store)`` run on the writer's thread inside the next group; its result
    (or exception) once the group is committed. ``on_store``: called with the writer's store in its
    thread (the server makes it that thread's store). ``thread_store``: the calling thread's own store
    (the one its reads go through), on which ``write`` commits a write itself when the writer is idle."""

    def __init__(self, db: Path, on_store: Callable[[Store], None] | None = None,
                 thread_store: Callable[[], Store] | None = None):
        self.db = db
        self.on_store = on_store
        self.thread_store = thread_store
        self.committing = threading.Lock()  # one transaction at a time: the writer's groups, a thread's own
        self.jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.started = threading.Lock()
        self.groups = 0  # committed groups and the writes in them (bench/: writes per sync)
        self.writes = 0

    def submit(self, work: Callable[[Store], Any]) -> Future[Any]:
        job = Job(work)
        with self.started:  # a thread ending idle decides under the same lock whether a job came
            self.jobs.put(job)
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, name="solrec-writer", daemon=True)
                self.thread.start()
        return job.future

    def write(self, work: Callable[[Store], Any]) -> Any:
        """``work(store)`` committed, its result (in a worker thread, never on the event loop): by this
        thread on its own store when nothing is committing or waiting, else through the writer's next
        group."""
        if self.thread_store is not None and self.jobs.empty() and self.committing.acquire(blocking=False):
            try:
                store = self.thread_store() if self.jobs.empty() and self.db.exists() else None
                if store is not None and store.exists and store.older_schema is None:
                    job = Job(work)
                    self.commit(store, [job])
                    return job.future.result()
            finally:
                self.committing.release()
        return self.submit(work).result()

    def run(self) -> None:
        store: Store | None = None
        while True:
            first: Job | None
            try:
                first = self.jobs.get(timeout=IDLE)
            except queue.Empty:
                with self.started:
                    if not self.jobs.empty():
                        continue
                    self.thread = None
                first = None
            if first is None:
                if store is not None:
                    store.close()
                return
            group = [first]
            while len(group) < MOST:
                try:
                    more = self.jobs.get_nowait()
                except queue.Empty:
                    break
                group.append(more)
            try:
                if store is None or not self.db.exists():
                    store = Store(self.db, create=True)
                    if self.on_store is not None:
                        self.on_store(store)
            except BaseException as err:  # noqa: BLE001 - the file cannot be opened: each write says why
                store = None
                for job in group:
                    job.future.set_exception(err)
                continue
            with self.committing:
                self.commit(store, group)

    def commit(self, store: Store, group: list[Job]) -> None:
        done: list[tuple[Job, bool, Any]] = []
        try:
            with store.group():
                for job in group:
                    try:
                        with store.savepoint():
                            done.append((job, True, job.work(store)))
                    except BaseException as err:  # noqa: BLE001 - the write's own answer (a refusal)
                        done.append((job, False, err))
        except BaseException as err:  # noqa: BLE001 - the commit failed: no write of the group is stored
            for job in group:
                job.future.set_exception(err)
            return
        self.groups += 1
        self.writes += len(group)
        for job, ok, value in done:
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
