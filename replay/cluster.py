"""A corpus task over several database files, on this machine (``--jobs``) or on a Dask distributed
cluster (``--cluster ADDRESS``; the optional extra ``solrec[cluster]``; docs/scaling.md).

On a cluster each file's games are cut into batches of about equal event counts (``corpus.shards``);
a worker opens the file by its path (a filesystem every worker sees) and runs the task over its batch
(``corpus.run_file``), or, with ``ship_rows``, this process reads the logs and sends them with the
batch. Results stream back as batches finish; a batch whose worker died or failed is submitted again
(at most ``RETRIES`` times) and counted. The results are those of ``--jobs 1``, in the same order.
"""

from __future__ import annotations

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


@attrs.frozen
class Run:
    results: list[Any]
    retried: int = 0  # batches submitted again after their worker died or failed


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
    with Client(address, timeout="10s") as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        order: list[str] = []
        results: dict[str, Any] = {}
        jobs: dict[Any, tuple] = {}  # future -> what to submit again
        for path in paths:
            store = Store(path, create=False)
            try:
                ids = store.game_ids()
                order += ids
                sizes = store.recorded_event_counts()
                count = max(workers * SHARDS_PER_JOB, sum(sizes.values()) // BATCH_EVENTS + 1)
                for part in shards(ids, sizes, count):
                    if ship_rows:
                        logs, local = _read(store, part)
                        for gid in local:  # stored data that needs reading on its own: read here
                            results[gid] = task(store, gid, None)
                        args: tuple = (run_logs, logs, task)
                    else:
                        args = (run_file, str(path.resolve()), part, task)
                    jobs[client.submit(*args, pure=False)] = args
            finally:
                store.close()
        retried = 0
        attempts: dict[tuple, int] = {}
        pending = as_completed(list(jobs))
        for future in pending:
            args = jobs.pop(future)
            if future.status != "finished":
                key = (id(args[1]),)
                attempts[key] = attempts.get(key, 0) + 1
                if attempts[key] > RETRIES:
                    future.result()  # raises the worker's error
                retried += 1
                again = client.submit(*args, pure=False)
                jobs[again] = args
                pending.add(again)
                continue
            part = future.result()
            results.update(part)
            if progress is not None:
                progress(len(part))
    return Run([results[gid] for gid in order], retried)


def _read(store: Store, ids: list[str]) -> tuple[list[tuple[str, Log]], list[str]]:
    logs, local = [], []
    for gid, log in stream_logs(store, ids, mirrors=True):
        if log is None:
            local.append(gid)
        else:
            logs.append((gid, log))
    return logs, local
