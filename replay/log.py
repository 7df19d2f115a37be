"""A game's log as replay tooling sees it: the header and the stored rows, from any source, and the
states they fold to (at any position, through snapshots: ``Replay``, ``state_at``).

``load`` verifies before anything is shown: the hash chain, and the event count and head hash the
game records, so every reading command (show, score, replay, log, export, diff, legal) and every
writer (play) refuses a damaged log with the position and reason instead of showing wrong results.
Only ``validate`` loads without verifying, to give its own detailed verdict.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Any

from solrec.core import frozen
from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError
from solrec.core.game import Event, Game
from solrec.core.play import INT64_MAX, INT64_MIN, Header, initial_state, make_header
from solrec.core.registry import get_game
from solrec.core.words import at_event, quoted
from solrec.events.codec import EventCodec
from solrec.events.envelope import ChainBreak, Row, check_chain, codec_for, genesis_hash, group_steps
from solrec.events.notes import NO_NOTES, Notes
from solrec.events.notes import read as read_notes
from solrec.events.seal import stored_seal


@frozen.value
class Log:
    game_id: str
    header: Header
    rows: tuple[Row, ...]
    recorded: dict[str, Any] | None = None  # events, head, scores, outcome as the store recorded them
    seal: dict[str, Any] | None = None  # events, head, mac of `solrec seal`, if the game was sealed
    # The first position whose browsing columns disagree with its hashed head (read for ``validate``)
    unmirrored: int | None = None
    # The game's comments as stored (events/notes.py): not part of the game, checked by ``validate``
    notes: Notes = NO_NOTES

    @property
    def game(self) -> Game:
        return get_game(self.header.game)

    @property
    def codec(self) -> EventCodec:
        return codec_for(self.game)

    def events(self, upto: int | None = None) -> list[Event]:
        events, undecodable = self.decoded(upto)
        if undecodable is not None:
            seq, err = undecodable
            raise CorruptLog(f"game {quoted(self.game_id)} at {at_event(seq, self.rows[seq].step)}: {err}", seq)
        return events

    def decoded(self, upto: int | None = None) -> tuple[list[Event], tuple[int, CorruptLog] | None]:
        """The first ``upto`` events decoded (None: all); where one does not decode, the events
        before it, and its position and why."""
        rows = self.rows if upto is None else self.rows[:upto]
        try:  # the usual case in one pass: this runs for every event loaded
            return self.codec.decode_rows(rows), None
        except CorruptLog:
            pass
        events: list[Event] = []
        for row in rows:
            try:
                events.append(self.codec.decode(row.type, row.version, row.payload))
            except CorruptLog as err:
                return events, (row.seq, err)
        raise AssertionError("an event failed to decode once and decoded again")  # decode is pure

    @property
    def head(self) -> str:
        """The hash the next event chains from: the last event's, or the header's for an empty log
        (what a write names as the head it was decided against)."""
        return self.rows[-1].hash if self.rows else genesis_hash(self.header)

    def steps(self) -> list[list[Row]]:
        return group_steps(self.rows)


def integrity(log: Log) -> ChainBreak | None:
    """The first place where the stored log does not hold together: its hash chain, or the event
    count and head hash its game records. Cheap: one hash per event, no decoding."""
    broken = check_chain(log.header, log.rows)
    if broken is not None:
        return broken
    rec = log.recorded
    if rec is not None:
        n = len(log.rows)
        if rec["events"] != n:
            if rec["events"] > n:
                return ChainBreak(n, f"the event is missing: the game records {rec['events']} events, its log holds {n}")
            return ChainBreak(rec["events"], f"the game records {rec['events']} events but its log holds {n}")
        if log.rows and rec["head"] != log.rows[-1].hash:
            return ChainBreak(n - 1, "the last event is not the one the game records (rows were dropped)")
        if not log.rows and rec["head"] != genesis_hash(log.header):
            # seq -1: the header itself, before any event (position 0)
            return ChainBreak(-1, "the header is not the one the game was created with")
    return None


def load(store, game_id: str, verify: bool = True, mirrors: bool = False) -> Log:
    """The stored game; with ``verify`` (the default) a damaged log is refused with ``CorruptLog``.
    With ``mirrors``, the log also says where its browsing columns first disagree with what is
    hashed (``validate`` reports it; nothing else reads those columns)."""
    with store.snapshot():  # the games row, the events and the seal as one moment holds them
        row = store.game_row(game_id)
        header = store.header(game_id, row)
        try:
            get_game(header.game)
        except InvalidSetup as err:
            raise CorruptLog(f"game {quoted(game_id)}: {err}") from None
        rows = tuple(store.rows_of_read_game(game_id))
        unmirrored = store.unmirrored(game_id) if mirrors else None
        log = Log(game_id, header, rows, store.recorded(game_id, row), stored_seal(store, game_id), unmirrored,
                  read_notes(store, game_id))
    if verify:
        broken = integrity(log)
        if broken is not None:
            raise CorruptLog(f"game {quoted(game_id)} at {where(log.rows, broken.seq)}: {broken.reason}")
    return log


def where(rows: Sequence[Row], seq: int) -> str:
    """``at_event`` for the event at ``seq`` of ``rows``, its move named when the row is there."""
    known = 0 <= seq < len(rows) and rows[seq].seq == seq  # not where an event is missing: its move is not known
    return at_event(seq, rows[seq].step if known else None)


# -- moves: the count people see --------------------------------------------------------------------
# Move N is the N-th command of the log (the N-th line of its record, a chance line among them),
# counting from 1; move 0 is the set-up. "After move N" is the position where its last event leads.


def move_ends(log: Log) -> list[int]:
    """The position after each move: ``move_ends(log)[n]`` is where move n ends (0: the set-up)."""
    ends, position = [0], 0
    for group in log.steps():
        position += len(group)
        ends.append(position)
    return ends


def moves_of(log: Log) -> int:
    """How many moves the log holds."""
    return log.rows[-1].step + 1 if log.rows else 0


def position_of_move(log: Log, move: int | None) -> int:
    """The position after move ``move`` (None: the end); a move the game does not have is refused."""
    ends = move_ends(log)
    if move is None:
        return ends[-1]
    if not 0 <= move < len(ends):
        raise InvalidSetup(f"move {move} is outside the game (0, the set-up, to {len(ends) - 1})")
    return ends[move]


def move_at(rows: Sequence[Row], position: int) -> int:
    """The move whose events lead to ``position`` (the one holding the event stored at ``position``
    - 1); 0 for the set-up. A position past the stored rows (a missing event) is the next move."""
    if position <= 0:
        return 0
    if position <= len(rows):
        return rows[position - 1].step + 1
    return (rows[-1].step + 2) if rows else 1


def check_position(log: Log, at: int | None) -> int:
    """A position is a number of events, 0 to the log's length; None means the end."""
    n = len(log.rows)
    if at is None:
        return n
    if not 0 <= at <= n:
        raise InvalidSetup(f"position {at} is outside the log (0 to {n})")
    return at


def setup_problem(game: Game, header: Header) -> str | None:
    """Why a stored header does not set up a game (players, options, chance as ``new`` checks them)."""
    if not header.players:
        return "it names no players"
    try:
        make_header(game, list(header.players), header.options_dict(), header.chance, header.seed, header.rules)
    except SolrecError as err:
        return str(err)
    return None


_SETUPS: dict[tuple, tuple[str | None, Any]] = {}


def set_up(game: Game, header: Header) -> tuple[str | None, Any]:
    """(why the stored header does not set up a game, None) or (None, the state before the first event).

    A pure function of the header's game, players, options and chance mode (the seed only as far as
    ``new`` checks it), and states are immutable: a corpus of games set up alike checks and builds
    the setup once, not once per game."""
    seed = header.seed
    seed_kind = "none" if seed is None else ("int" if type(seed) is int and INT64_MIN <= seed <= INT64_MAX else "bad")
    key: tuple[Any, ...] = (game.id, header.players, header.options, header.chance, seed_kind, header.rules)
    try:
        known = _SETUPS.get(key)
    except TypeError:  # an option value that is not hashable: no memo
        key, known = (), None
    if known is not None:
        return known
    problem = setup_problem(game, header)
    state = None
    try:
        if problem is None:
            state = initial_state(game, header)
    except SolrecError as err:
        problem = str(err)
    if key:
        if len(_SETUPS) >= 4096:
            _SETUPS.clear()
        _SETUPS[key] = (problem, state)
    return problem, state


def start(log: Log) -> Any:
    """The state before the first event; a stored header that no longer sets up a game is a stored
    data problem, not bad input."""
    problem, state = set_up(log.game, log.header)
    if problem is not None:
        raise CorruptLog(f"game {quoted(log.game_id)}: its header does not set up a game: {problem}")
    return state


MISFITS = (LookupError, ValueError, TypeError, AttributeError, ArithmeticError, AssertionError)


def apply(game: Game, state: Any, event: Event, game_id: str, seq: int, step: int | None = None) -> Any:
    """``evolve`` over a stored event. Stored events are checked by type and domain on decode; one
    that still does not fit the position (a jump from an empty pocket, say) is a stored data problem."""
    try:
        return game.evolve(state, event)
    except MISFITS as err:
        raise misfit(game_id, seq, event, err, step) from None


def misfit(game_id: str, seq: int, event: Event, err: BaseException, step: int | None = None) -> CorruptLog:
    return CorruptLog(f"game {quoted(game_id)} at {at_event(seq)}: event {quoted(event.TYPE)} does not fit the game there ({type(err).__name__})")


def apply_all(game: Game, state: Any, rows: Sequence[Row], events: Sequence[Event], game_id: str) -> Any:
    """``apply`` over ``events`` (the decoded ``rows``), in one loop with no call per event but the
    event's mutator (what ``evolve`` calls)."""
    mutators = game.mutators
    i = -1
    try:
        for i, event in enumerate(events):
            state = mutators[type(event)](state, event)
    except MISFITS as err:
        raise misfit(game_id, rows[i].seq, events[i], err, rows[i].step) from None
    return state


# -- snapshots ------------------------------------------------------------------------------------
# A game's state at any position without replaying from zero every time. The eventsourcing
# library's idea, kept in memory: while a log is folded, the state after every ``SNAPSHOT_EVERY``
# events is kept (states are immutable, so keeping one is keeping a reference), and a position is
# reached from the nearest snapshot at or before it, or from the position asked for last when that
# is nearer (scrubbing forward one event at a time costs one ``evolve``). Showing every position of
# a game one by one is then linear in its length, not quadratic. ``Replay(log).state_at(n)`` is what
# a referee's scrubber or an HTML replay uses; ``states(log)`` yields every position's state in one
# fold; ``state_at`` goes through ``replay_of`` so repeated positions of the same loaded log share
# one Replay.

SNAPSHOT_EVERY = 64  # events between snapshots: at most 63 evolves to reach any position
# the last few positions asked for, kept with their states: a server's view asks for the end and its
# move list for the start of the newest command, turn about; with only the last one kept, each such
# turn went back to the snapshot (up to 63 evolves)
RECENT = 4
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
        self._recent: list[tuple[int, Any]] = [(0, self._snapshots[0])]  # (position, state), the newest last

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
                raise CorruptLog(f"game {quoted(self.log.game_id)} at {at_event(row.seq, row.step)}: {err}") from None
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
        for seen_at, seen_state in self._recent:
            if position <= seen_at <= at:
                position, state = seen_at, seen_state
        if position != at:
            state = self._fold(state, position, at)
        recent = [r for r in self._recent if r[0] != at]
        recent.append((at, state))
        self._recent = recent[-RECENT:]
        return state


    def continued(self, log: Log) -> Replay:
        """This replay for ``log``, the same game with rows appended (a game played on) or taken back
        (``undo``): the decoded events, snapshots and last position of their common rows carry over,
        so reaching the new end costs only the new events. The rows are compared by the hash chain:
        the same hash at the shorter log's end means the same rows before it (both logs verified)."""
        n = min(len(self.log.rows), len(log.rows))
        if log.header != self.log.header or (n and log.rows[n - 1].hash != self.log.rows[n - 1].hash):
            raise ValueError("not the same game's log with rows appended or taken back")
        replay = Replay(log, self.every)
        replay._events = self._events[:n]
        replay._snapshots = self._snapshots[: n // self.every + 1]  # states of the common rows: the same in both
        replay._recent = [r for r in self._recent if r[0] <= n] or replay._recent
        return replay


def states(log: Log) -> Iterator[Any]:
    """The state at every position of the log, 0 to its length, in one fold."""
    replay = Replay(log)
    for at in range(len(log.rows) + 1):
        yield replay.state_at(at)


_REPLAYS: dict[int, tuple[Log, Replay]] = {}
_KEEPING = threading.Lock()  # a server reads logs from several threads


def keep_replays(most: int) -> None:
    """Keep the Replays of at least ``most`` loaded logs (a server keeps a log per game being
    played: each game's next view goes on from its states, not from the set-up)."""
    global _KEPT
    _KEPT = max(_KEPT, most)


def _keep(log: Log, replay: Replay) -> None:
    with _KEEPING:
        while len(_REPLAYS) >= _KEPT:
            _REPLAYS.pop(next(iter(_REPLAYS)))
        _REPLAYS[id(log)] = (log, replay)  # the log is held, so its id is not reused while kept


def replay_of(log: Log) -> Replay:
    """The Replay of this loaded log, made on first use; the last few logs' are kept."""
    kept = _REPLAYS.get(id(log))
    if kept is not None and kept[0] is log:
        return kept[1]
    replay = Replay(log)
    _keep(log, replay)
    return replay


def carry_over(old: Log, new: Log) -> bool:
    """Let ``state_at(new)`` go on from what was computed for ``old`` when ``new`` is ``old`` with rows
    appended or taken back (a server reading a game again after a command): True when it could."""
    kept = _REPLAYS.get(id(old))
    if kept is None or kept[0] is not old:
        return False
    try:
        replay = kept[1].continued(new)
    except ValueError:
        return False
    _keep(new, replay)
    return True


def state_at(log: Log, at: int | None = None) -> Any:
    """The state after the log's first ``at`` events (None: all). Reached from the nearest snapshot
    of this loaded log (``Replay``), so asking for many positions does not replay from zero."""
    return replay_of(log).state_at(at)


def fold(log: Log, at: int | None = None) -> Any:
    """Fold ``evolve`` over the log's first ``at`` events, from zero, keeping nothing."""
    state = start(log)
    at = check_position(log, at)
    return apply_all(log.game, state, log.rows, log.events(at), log.game_id)


def walk(log: Log) -> Iterator[tuple[list[Row], list[Event], Any]]:
    """Each command's rows, its decoded events, and the state after them."""
    game, codec = log.game, log.codec
    state = start(log)
    for group in log.steps():
        events = []
        for row in group:
            try:
                events.append(codec.decode(row.type, row.version, row.payload))
            except CorruptLog as err:
                raise CorruptLog(f"game {quoted(log.game_id)} at {at_event(row.seq, row.step)}: {err}") from None
        for row, event in zip(group, events):
            state = apply(game, state, event, log.game_id, row.seq, row.step)
        yield group, events, state


def from_rows(game_id: str, header: Header, rows: Sequence[Row]) -> Log:
    return Log(game_id, header, tuple(rows))
