"""Snapshots: a game's state at any position without replaying from zero every time.

The eventsourcing library's idea, kept in memory: while a log is folded, the state after every
``SNAPSHOT_EVERY`` events is kept (states are immutable, so keeping one is keeping a reference), and
a position is reached from the nearest snapshot at or before it, or from the position asked for
last when that is nearer (scrubbing forward one event at a time costs one ``evolve``). Showing every
position of a game one by one is then linear in its length, not quadratic.

``Replay(log).state_at(n)`` is what a referee's scrubber or an HTML replay uses; ``states(log)``
yields every position's state in one fold. ``replay.log.state_at`` goes through ``replay_of`` so
repeated positions of the same loaded log share one Replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solrec.core.errors import CorruptLog
from solrec.core.game import Event
from solrec.core.words import at_event

from .log import Log, apply_all, check_position, start

SNAPSHOT_EVERY = 64  # events between snapshots: at most 63 evolves to reach any position
_KEPT = 8  # loaded logs whose Replay ``replay_of`` keeps


class Replay:
    """One loaded log's states, computed once and kept every ``every`` events."""

    def __init__(self, log: Log, every: int = SNAPSHOT_EVERY):
        if every < 1:
            raise ValueError("snapshots are at least one event apart")
        self.log = log
        self.game = log.game
        self.every = every
        self._codec = log.codec
        self._events: list[Event] = []  # the decoded prefix of the log
        self._snapshots: list[Any] = [start(log)]  # the states at positions 0, every, 2 * every, ...
        self._last: tuple[int, Any] = (0, self._snapshots[0])

    def __len__(self) -> int:
        return len(self.log.rows)

    def events(self, upto: int) -> list[Event]:
        """The first ``upto`` events, decoded once (a damaged one raises CorruptLog, as ``Log.events``)."""
        rows = self.log.rows
        while len(self._events) < upto:
            row = rows[len(self._events)]
            try:
                self._events.append(self._codec.decode(row.type, row.version, row.payload))
            except CorruptLog as err:
                raise CorruptLog(f"game {self.log.game_id!r} at {at_event(row.seq)}: {err}") from None
        return self._events

    def _fold(self, state: Any, begin: int, end: int) -> Any:
        return apply_all(self.game, state, self.log.rows[begin:end], self._events[begin:end], self.log.game_id)

    def state_at(self, at: int | None = None) -> Any:
        """The state after the first ``at`` events (None: the end)."""
        at = check_position(self.log, at)
        self.events(at)  # every event up to the position is decoded (and checked) before any is applied
        every, snapshots = self.every, self._snapshots
        while len(snapshots) * every <= at:
            begin = (len(snapshots) - 1) * every
            snapshots.append(self._fold(snapshots[-1], begin, begin + every))
        position, state = at // every * every, snapshots[at // every]
        last_at, last_state = self._last
        if position <= last_at <= at:
            position, state = last_at, last_state
        state = self._fold(state, position, at)
        self._last = (at, state)
        return state


def states(log: Log) -> Iterator[Any]:
    """The state at every position of the log, 0 to its length, in one fold."""
    replay = Replay(log)
    for at in range(len(log.rows) + 1):
        yield replay.state_at(at)


_REPLAYS: dict[int, tuple[Log, Replay]] = {}


def replay_of(log: Log) -> Replay:
    """The Replay of this loaded log, made on first use; the last few logs' are kept."""
    kept = _REPLAYS.get(id(log))
    if kept is not None and kept[0] is log:
        return kept[1]
    replay = Replay(log)
    if len(_REPLAYS) >= _KEPT:
        _REPLAYS.pop(next(iter(_REPLAYS)))
    _REPLAYS[id(log)] = (log, replay)  # the log is held, so its id is not reused while kept
    return replay
