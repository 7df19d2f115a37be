"""The whole corpus at once: every stored game streamed in one query, replayed or validated, on every core.

``validate_corpus`` gives exactly the verdicts of ``validate_stored`` game by game, in the order of
the ids asked for, whatever ``jobs`` is. The games are read in id order, a range of ids per query,
and each game's rows go through the same checks as ``load``; any game whose stored data does not
read cleanly (a damaged row, a header that does not decode, no games row, no events) is handed to
``validate_stored``, so its verdict names the problem exactly as before.

With ``jobs`` > 1 the sorted ids are cut into contiguous ranges of about equal event counts, a few
per worker so that a long game does not leave a core idle, and each worker process opens its own
read-only connection to the database (``concurrent.futures``: one machine is enough; see
docs/scaling.md for more).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

import attrs

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.registry import get_game
from solrec.core.words import quoted
from solrec.events.notes import read as read_notes
from solrec.events.seal import stored_seal
from solrec.events.store import Store

from .log import Log, fold, integrity, load, where
from .validate import Verdict, validate, validate_stored

# Below this many recorded events, starting worker processes costs more than it saves: about 0.05 s
# per worker against some 20,000 events validated per second per core (docs/scaling.md).
SMALL_CORPUS = 20_000
SHARDS_PER_JOB = 4
CHUNK = 2_000  # games per query: their games rows are held in memory meanwhile


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def stream_logs(store: Store, ids: Sequence[str], mirrors: bool = False) -> Iterator[tuple[str, Log | None]]:
    """Each game of ``ids`` as an unverified Log (as ``load(verify=False, mirrors=mirrors)`` gives
    it), in id order, read with one query for the games and one for the events; None for a game to
    read on its own (its stored data has a problem that ``load`` reports in its own words)."""
    wanted = sorted(set(ids))
    done: set[str] = set()
    with store.snapshot():  # the games rows and the events of one moment, however long the stream
        try:
            for start in range(0, len(wanted), CHUNK):
                chunk = wanted[start : start + CHUNK]
                first, last = chunk[0], chunk[-1]
                chunk_set = set(chunk)
                # A chunk that is not every game of its range (a scattered subset) reads its games only.
                only = chunk if store.games_between(first, last) > len(chunk) else None
                games = store.game_rows(first, last, only)
                for gid, rows, unmirrored in store.stream_rows(first, last, mirrors, only):
                    if gid not in chunk_set or gid in done:
                        continue
                    done.add(gid)
                    yield gid, _log(store, gid, games.get(gid), rows, unmirrored)
        except SolrecError:  # the stream broke off (a value SQLite cannot hand over): the rest one by one
            pass
        for gid in wanted:
            if gid not in done:
                yield gid, None


def _log(store: Store, gid: str, game_row: Any, rows: Any, unmirrored: int | None) -> Log | None:
    if not isinstance(game_row, dict) or not isinstance(rows, list):
        return None
    try:
        header = store.header(gid, game_row)
        get_game(header.game)
        return Log(gid, header, tuple(rows), store.recorded(gid, game_row), stored_seal(store, gid), unmirrored, read_notes(store, gid))
    except SolrecError:
        return None


def final_states(store: Store, ids: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """Each game replayed to its final state, in id order; every log is verified as ``load`` does
    (a damaged one raises CorruptLog)."""
    for gid, log in stream_logs(store, ids):
        if log is None:
            log = load(store, gid)
        else:
            broken = integrity(log)
            if broken is not None:
                raise CorruptLog(f"game {quoted(gid)} at {where(log.rows, broken.seq)}: {broken.reason}")
        yield gid, fold(log)


class Task(Protocol):
    """The per-game work of a corpus run: a result for each game, from its streamed log (None: a game
    to read on its own, see ``stream_logs``). A task is a picklable value (a frozen attrs class of a
    module's top level), so worker processes get it whole."""

    def __call__(self, store: Store, game_id: str, log: Log | None) -> Any: ...


@attrs.frozen
class ValidateTask:
    key: bytes | None = None

    def __call__(self, store: Store, game_id: str, log: Log | None) -> Verdict:
        return validate(log, self.key) if log is not None else validate_stored(store, game_id, self.key)


def run_range(store: Store, ids: Sequence[str], task: Task, progress: Callable[[int], Any] | None = None) -> dict[str, Any]:
    """``task`` over the games of ``ids``, streamed from ``store`` in id order."""
    out: dict[str, Any] = {}
    for gid, log in stream_logs(store, ids, mirrors=True):
        out[gid] = task(store, gid, log)
        if progress is not None:
            progress(1)
    return out


def run_file(path: str, ids: list[str], task: Task) -> dict[str, Any]:
    """``run_range`` on a read-only connection of its own (a worker's)."""
    store = Store(path, create=False)
    try:
        store.conn.execute("PRAGMA query_only = ON")  # a worker only reads
        return run_range(store, ids, task)
    finally:
        store.close()


def default_jobs(store: Store) -> int:
    """Every CPU, but one where the corpus is so small that processes cost more than they save."""
    cpus = available_cpus()
    if cpus <= 1 or store.recorded_events() < SMALL_CORPUS:
        return 1
    return cpus


def shards(ids: Sequence[str], sizes: dict[str, int], count: int) -> list[list[str]]:
    """``ids`` sorted and cut into at most ``count`` contiguous runs of about equal event counts."""
    ordered = sorted(set(ids))
    total = sum(max(1, sizes.get(gid, 1)) for gid in ordered)
    out: list[list[str]] = [[]]
    filled = 0
    for gid in ordered:
        if out[-1] and filled >= total * len(out) / count:
            out.append([])
        out[-1].append(gid)
        filled += max(1, sizes.get(gid, 1))
    return out


def validate_corpus(
    store: Store,
    ids: Sequence[str] | None = None,
    jobs: int | None = None,
    key: bytes | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[Verdict]:
    """A verdict per game of ``ids`` (None: every game), in that order, on ``jobs`` worker processes
    (None: ``default_jobs``); the same verdicts as ``validate_stored`` one game at a time.
    ``progress(n)`` is told as verdicts come in (per game on one job, per finished range on several)."""
    return map_corpus(store, ValidateTask(key), ids, jobs, progress)


def map_corpus(
    store: Store,
    task: Task,
    ids: Sequence[str] | None = None,
    jobs: int | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[Any]:
    """``task``'s result per game of ``ids`` (None: every game), in that order, on ``jobs`` worker
    processes (None: ``default_jobs``): the same results whatever ``jobs`` is."""
    with store.snapshot():  # the ids and, on one job, every result of one moment
        ids = store.game_ids() if ids is None else list(ids)
        if jobs is None:
            jobs = default_jobs(store)
        jobs = max(1, min(jobs, len(set(ids))))
        if jobs == 1:
            results = run_range(store, ids, task, progress)
            return [results[gid] for gid in ids]
        sizes = store.recorded_event_counts()
    # Each worker reads its range in a snapshot of its own; no read transaction is open across the fork.
    parts = shards(ids, sizes, jobs * SHARDS_PER_JOB)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results = {}
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        for part in pool.map(run_file, [str(store.path)] * len(parts), parts, [task] * len(parts)):
            results.update(part)
            if progress is not None:
                progress(len(part))
    return [results[gid] for gid in ids]
