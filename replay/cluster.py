"""A corpus task over several database files, on this machine (``--jobs``) or on a Dask distributed
cluster (``--cluster ADDRESS``; the optional extra ``solrec[cluster]``; docs/scaling.md).

On a cluster each file's games are cut into batches of about equal event counts (``corpus.shards``);
a worker opens the file by its path (a filesystem every worker sees) and runs the task over its batch
(``corpus.run_file``), or, with ``ship_rows``, this process reads the logs and sends them with the
batch. Results stream back as batches finish; a batch whose worker died or failed is submitted again
(at most ``RETRIES`` times) and counted, and so is a batch the scheduler ran again itself after the
worker running it was lost (``retried``). With ``ship_rows`` batches are read as they are submitted,
a few per worker at a time, so the client's memory does not grow with the corpus. The results are
those of ``--jobs 1``, in the same order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from solrec.core.errors import InvalidSetup
from solrec.events.store import Store

from .corpus import SHARDS_PER_JOB, Task, map_corpus, run_file, shards, stream_logs
from .log import Log

RETRIES = 3
BATCH_EVENTS = 200_000  # events per batch: a few seconds of work, so a lost worker costs little
# With --ship-rows a batch's rows travel from the client: smaller batches (some 15 MB of rows as
# Python values each), IN_FLIGHT of them per worker at a time, so the client's memory stays bounded.
SHIP_EVENTS = 20_000
IN_FLIGHT = 2


@attrs.frozen
class Run:
    results: list[Any]
    # batches run again: submitted again after they failed, or sent to another worker by the
    # scheduler after the worker running them was lost
    retried: int = 0


def run_logs(logs: list[tuple[str, Log]], task: Task) -> dict[str, Any]:
    """``task`` over logs shipped to the worker (``--ship-rows``): no file is opened."""
    return {gid: task(None, gid, log) for gid, log in logs}  # type: ignore[arg-type]


def map_files(paths: Sequence[Path], task: Task, jobs: int | None = None,
              progress: Callable[[int], Any] | None = None) -> Run:
    """``task`` over every game of every file, file by file, on ``jobs`` worker processes."""
    out: list[Any] = []
    for path in paths:
        store = Store(path, create=False)
        try:
            out += map_corpus(store, task, None, jobs, progress)
        finally:
            store.close()
    return Run(out)


def map_cluster(address: str, paths: Sequence[Path], task: Task, ship_rows: bool = False,
                progress: Callable[[int], Any] | None = None) -> Run:
    """``task`` over every game of every file on the Dask cluster at ``address``."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InvalidSetup("--cluster needs Dask distributed: pip install 'solrec[cluster]'") from None
    stores = [Store(path, create=False) for path in paths]
    try:
        with Client(address, timeout="10s") as client:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            order: list[str] = []
            plan: deque[tuple[int, list[str]]] = deque()  # (file, its batch of ids), in order
            for at, store in enumerate(stores):
                with store.snapshot():
                    ids = store.game_ids()
                    sizes = store.recorded_event_counts()
                order += ids
                per_batch = SHIP_EVENTS if ship_rows else BATCH_EVENTS
                count = max(workers * SHARDS_PER_JOB, sum(sizes.values()) // per_batch + 1)
                plan.extend((at, part) for part in shards(ids, sizes, count) if part)
            # With --ship-rows the client reads each batch just before it is submitted, and keeps only
            # IN_FLIGHT batches per worker submitted at a time (the scheduler holds what they carry):
            # its memory is a few batches, whatever the corpus. By path, every batch is submitted at once.
            window = workers * IN_FLIGHT if ship_rows else len(plan)
            results: dict[str, Any] = {}
            jobs: dict[Any, tuple[int, list[str]]] = {}  # future -> its batch
            attempts: dict[int, int] = {}  # id(batch) -> times submitted again
            retried = 0
            pending = as_completed()

            def submit(job: tuple[int, list[str]], first: bool) -> None:
                at, part = job
                if ship_rows:
                    logs, local = _read(stores[at], part)
                    for gid in local:  # stored data that needs reading on its own: read here
                        results[gid] = task(stores[at], gid, None)
                    if first and local and progress is not None:
                        progress(len(local))
                    args: tuple = (run_logs, logs, task)
                else:
                    args = (run_file, str(paths[at].resolve()), part, task)
                future = client.submit(*args, pure=False)
                jobs[future] = job
                pending.add(future)

            def fill() -> None:
                while plan and len(jobs) < window:
                    submit(plan.popleft(), True)

            fill()
            for future in pending:
                job = jobs.pop(future)
                if future.status != "finished":  # failed, or lost past the scheduler's own retries
                    tries = attempts[id(job[1])] = attempts.get(id(job[1]), 0) + 1
                    if tries > RETRIES:
                        future.result()  # raises the worker's error
                    retried += 1
                    submit(job, False)
                    continue
                part = future.result()
                retried += client.run_on_scheduler(RERUNS, [future.key])
                del future  # the scheduler forgets the batch and its result
                results.update(part)
                if progress is not None:
                    progress(len(part))
                fill()
    finally:
        for store in stores:
            store.close()
    return Run([results[gid] for gid in order], retried)


def _reruns(keys: list[Any], dask_scheduler: Any = None) -> int:
    """Run on the scheduler: how many times it sent each of ``keys`` to a worker again, after the
    worker it ran on was lost (or lost its result): the task's entries into ``processing`` beyond
    the first in the scheduler's transition log, or, where that log no longer reaches back, the
    times its worker died under it (``suspicious``). Plain Python over the scheduler's own state:
    it needs no solrec on the scheduler (pickled by value, ``_by_value``)."""
    wanted = set(keys)
    runs = dict.fromkeys(wanted, 0)
    for entry in dask_scheduler.transition_log:
        if entry[0] in wanted and entry[2] == "processing":
            runs[entry[0]] += 1
    tasks = dask_scheduler.tasks
    return sum(max(n - 1, getattr(tasks.get(key), "suspicious", 0)) for key, n in runs.items())


def _by_value(func: Callable) -> Callable:
    """A copy of ``func`` that cloudpickle sends by value (its code), not by reference to this module:
    the scheduler need not have solrec installed. ``func`` may use builtins only."""
    import types

    return types.FunctionType(func.__code__, {"__builtins__": __builtins__}, func.__name__, func.__defaults__)


RERUNS = _by_value(_reruns)


def _read(store: Store, ids: list[str]) -> tuple[list[tuple[str, Log]], list[str]]:
    logs, local = [], []
    for gid, log in stream_logs(store, ids, mirrors=True):
        if log is None:
            local.append(gid)
        else:
            logs.append((gid, log))
    return logs, local
