"""A game's log as replay tooling sees it: the header and the stored rows, from any source."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from solrec.core.errors import CorruptLog
from solrec.core.game import Event, Game
from solrec.core.play import Header, initial_state
from solrec.core.registry import get_game
from solrec.events.codec import EventCodec
from solrec.events.envelope import Row, codec_for, group_steps


@attrs.frozen
class Log:
    game_id: str
    header: Header
    rows: tuple[Row, ...]
    recorded: dict[str, Any] | None = None  # events, head, scores, outcome as the store recorded them

    @property
    def game(self) -> Game:
        return get_game(self.header.game)

    @property
    def codec(self) -> EventCodec:
        return codec_for(self.game)

    def events(self, upto: int | None = None) -> list[Event]:
        codec = self.codec
        rows = self.rows if upto is None else self.rows[:upto]
        out = []
        for row in rows:
            try:
                out.append(codec.decode(row.type, row.version, row.payload))
            except CorruptLog as err:
                raise CorruptLog(f"game {self.game_id!r} event {row.seq}: {err}") from None
        return out

    def steps(self) -> list[list[Row]]:
        return group_steps(self.rows)


def load(store, game_id: str) -> Log:
    header = store.header(game_id)
    get_game(header.game)  # refuse unknown games early
    return Log(game_id, header, tuple(store.rows(game_id)), store.recorded(game_id))


def check_position(log: Log, at: int | None) -> int:
    """A position is a number of events, 0 to the log's length; None means the end."""
    n = len(log.rows)
    if at is None:
        return n
    if not 0 <= at <= n:
        from solrec.core.errors import InvalidSetup

        raise InvalidSetup(f"position {at} is outside the log (0 to {n})")
    return at


def state_at(log: Log, at: int | None = None) -> Any:
    """Fold ``evolve`` over the log's first ``at`` events."""
    game = log.game
    state = initial_state(game, log.header)
    for event in log.events(check_position(log, at)):
        state = game.evolve(state, event)
    return state


def walk(log: Log) -> Iterator[tuple[list[Row], list[Event], Any]]:
    """Each command's rows, its decoded events, and the state after them."""
    game, codec = log.game, log.codec
    state = initial_state(game, log.header)
    for group in log.steps():
        events = []
        for row in group:
            try:
                events.append(codec.decode(row.type, row.version, row.payload))
            except CorruptLog as err:
                raise CorruptLog(f"game {log.game_id!r} event {row.seq}: {err}") from None
        for event in events:
            state = game.evolve(state, event)
        yield group, events, state


def from_rows(game_id: str, header: Header, rows: Sequence[Row]) -> Log:
    return Log(game_id, header, tuple(rows))
