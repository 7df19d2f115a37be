"""What one viewer sees of a log at a position: the one function every surface reads a game through.

``seen(log, viewer, at)`` gives, for the referee, the table or one seat (``core.observe.Viewer``):
the observed state (plain data), its text and SVG pictures, the observed move list (each command as
the viewer may read it, the words of its events where the game lets them be shown), the last
command's events as seen, the set-up lines (the seed for the referee only: a seed tells every
future draw), and the choices and legal commands when the viewer is to act. The server's views, the
CLI's ``--as``, the replay page, ``diff``, ``svg``/``html`` and the live output of ``new``/``play``
all call it; nothing else asks a game what to hide. What it returns depends only on what the viewer
may see: two games a seat cannot tell apart give that seat the same answer (tests/fairness).

Computed on demand: a caller that wants only the picture pays for the picture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import attrs

from solrec.core.errors import SolrecError
from solrec.core.game import CHANCE, Choices, Command, Event, Game
from solrec.core.observe import HIDDEN, SeenEvent, Viewer
from solrec.core.play import ENTERED, Step

from .log import Log, replay_of, state_at

MAX_OPTION_SHOWN = 80  # characters of an option value shown (a component set's content is named by its size)


@attrs.frozen
class SeenMove:
    """One command as a viewer sees it: its number (1, 2, ...), actor, text, the position after it,
    the words of its events the viewer may read (a withheld event leaves none) and their data."""

    number: int
    actor: str
    command: str
    position: int
    events: tuple[str, ...]
    data: tuple[dict[str, Any] | None, ...]
    said: str = ""  # what the actor did, in words the viewer may read (``Observation.said``)


def seen_command(game: Game, text: str, before: Any, viewer: Viewer) -> str:
    """A stored command's text at the position it was played in, as ``viewer`` reads it. A text that
    does not read there is the referee's as stored; anyone else's through the game's observation
    without the position (``command_text``: hidden where the game hides anything)."""
    try:
        parsed = game.parse(text, before)
    except SolrecError:
        return game.observation.command_text(text, viewer)
    return game.observation.command(parsed, before, viewer)


def seen_said(game: Game, actor: str, text: str, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
    """What ``actor`` did by a stored command (its text, its ``events``, played at ``before``), in the
    words ``viewer`` may read (``Observation.said``): a phrase after the actor's name. A text that does
    not read at its position is named as the viewer reads it (``seen_command``)."""
    try:
        parsed = game.parse(text, before)
    except SolrecError:
        shown = seen_command(game, text, before, viewer)
        return f"drew {shown}" if actor == CHANCE else f"played {shown}"
    return game.observation.said(actor, parsed, events, before, viewer)


def seen_text(game: Game, text: str, viewer: Viewer, before: Callable[[], Any]) -> str:
    """A stored command's text as ``viewer`` reads it without its position (``command_text``, as the
    record writes it); one that reads only at its position is read there (``before()``: that state)."""
    shown = game.observation.command_text(text, viewer)
    return seen_command(game, text, before(), viewer) if shown == HIDDEN else shown


def seen_event(game: Game, event: Event, viewer: Viewer) -> SeenEvent:
    from solrec.events.codec import to_plain

    return game.observation.event(event, to_plain(event), viewer)


def seen_steps(game: Game, steps: Sequence[Step], before: Any, viewer: Viewer) -> list[dict[str, Any]]:
    """Steps just played (live output of ``new``/``play``) as ``viewer`` sees them: each command in
    the words of its position, the words of the events the game lets the viewer read."""
    out = []
    state = before
    for s in steps:
        if state is None:
            command = game.observation.command(s.command, None, viewer)
            events = [game.describe_event(e) for e in s.events if seen_event(game, e, viewer).described]
        else:
            command = game.observation.command(s.command, state, viewer)
            events = []
            for e in s.events:
                if seen_event(game, e, viewer).described:
                    events.append(game.describe_event_at(e, state))
                state = game.evolve(state, e)
        out.append({"actor": s.actor, "command": command, "events": events})
    return out


def setup_lines(log: Log, viewer: Viewer) -> tuple[tuple[str, str], ...]:
    """What the header says besides the players, as ``viewer`` may see it: the seed the referee's only."""
    header = log.header
    out = [("chance", header.chance)]
    if viewer.sees_all and header.seed is not None:
        out.append(("seed", str(header.seed)))
    for name, value in header.options_dict().items():
        text = "on" if value is True else "off" if value is False else str(value)
        if len(text) > MAX_OPTION_SHOWN:
            text = f"<{len(text):,} characters>"
        out.append((name, text))
    out.append(("rules", header.rules))
    out += [(player, f"bot {bot}") for player, bot in header.bots]  # only a game with bot seats
    return tuple(out)


def header_seen(log: Log, viewer: Viewer) -> dict[str, Any]:
    """The header as plain data, as ``viewer`` may see it: without the seed but for the referee."""
    info = log.header.as_dict()
    if not viewer.sees_all:
        info.pop("seed", None)
    return info


class Seen:
    """What ``viewer`` sees of ``log`` at ``position`` (see the module's doc); every part on demand."""

    def __init__(self, log: Log, viewer: Viewer, position: int):
        self.log = log
        self.viewer = viewer
        self.position = position
        self.end = len(log.rows)
        self.game = log.game

    # -- the position ----------------------------------------------------------------------------
    @cached_property
    def _state(self) -> Any:
        return state_at(self.log, self.position)

    @cached_property
    def to_act(self) -> str | None:
        return self.game.to_act(self._state)

    @cached_property
    def observation(self) -> dict[str, Any]:
        """The state as plain data, as the viewer may see it."""
        from solrec.events.codec import to_plain

        return self.game.observation.state(self._state, to_plain(self._state), self.viewer)

    @cached_property
    def text(self) -> str:
        return self.game.observation.text(self._state, self.viewer)

    def svg(self, size: int | None = 400) -> str | None:
        return self.game.observation.svg(self._state, self.viewer, last=self.last_events, size=size)

    @cached_property
    def score(self) -> Any:
        return self.game.score(self._state)

    @cached_property
    def outcome(self) -> Any:
        return self.game.outcome(self._state)

    # -- the commands ----------------------------------------------------------------------------
    @cached_property
    def _groups(self) -> list[list[Any]]:
        return [g for g in self.log.steps() if g[0].seq < self.position]

    @cached_property
    def last_events(self) -> list[Event] | None:
        """The events of the command that led here, up to the position (which may fall inside one):
        what the pictures highlight."""
        if not self.position or not self._groups:
            return None
        first = self._groups[-1][0].seq
        return replay_of(self.log).events(self.position)[first:self.position]

    @cached_property
    def last(self) -> tuple[SeenEvent, ...]:
        """The last command's events as the viewer sees them."""
        return tuple(seen_event(self.game, e, self.viewer) for e in self.last_events or ())

    @cached_property
    def moves(self) -> tuple[SeenMove, ...]:
        """Every command up to the position, as the viewer sees it."""
        game, viewer = self.game, self.viewer
        replay = replay_of(self.log)
        events = replay.events(self.position)
        out: list[SeenMove] = []
        for group in self._groups:
            first, end = group[0].seq, min(group[-1].seq + 1, self.position)
            before = replay.state_at(first)
            state = before
            words, data = [], []
            for e in events[first:end]:
                shown = seen_event(game, e, viewer)
                if shown.described:
                    words.append(game.describe_event_at(e, state))
                data.append(shown.data)
                state = game.evolve(state, e)
            mine = events[first:end]
            out.append(SeenMove(len(out) + 1, group[0].actor, seen_command(game, group[0].command, before, viewer),
                                end, tuple(words), tuple(data), seen_said(game, group[0].actor, group[0].command, mine, before, viewer)))
        return tuple(out)

    # -- the set-up ------------------------------------------------------------------------------
    @cached_property
    def setup(self) -> tuple[tuple[str, str], ...]:
        return setup_lines(self.log, self.viewer)

    @cached_property
    def header(self) -> dict[str, Any]:
        return header_seen(self.log, self.viewer)

    # -- what the viewer may do ------------------------------------------------------------------
    @property
    def live(self) -> bool:
        return self.position == self.end

    @cached_property
    def may_act(self) -> bool:
        """Whether the viewer acts now: the referee for whoever is to act (chance too in an entered
        game), a seat when its player is to act; never the table, never away from the live end."""
        to_act = self.to_act
        if not self.live or to_act is None:
            return False
        if self.viewer.sees_all:
            return to_act != CHANCE or self.log.header.chance == ENTERED
        return self.viewer.is_player(to_act)

    @cached_property
    def choices(self) -> Choices | None:
        """What the viewer may click now (None: nothing)."""
        if not self.may_act:
            return None
        if self.viewer.sees_all:
            return self.game.choices(self._state, entered=self.log.header.chance == ENTERED)
        return self.game.choices(self._state, entered=False)

    @cached_property
    def legal(self) -> tuple[Command, ...] | None:
        """The legal commands of whoever is to act, where the viewer may know them: everyone's for the
        referee, a seat's own when it is to act (another player's name his hand); None where not
        enumerable or not the viewer's."""
        if self.viewer.sees_all or self.viewer.is_player(self.to_act):
            return self.game.legal_commands(self._state)
        return None

    def format(self, command: Command) -> str:
        """A command of this position in its words (``format_at``)."""
        return self.game.format_at(command, self._state)

    def state_for_rules(self) -> Any:
        """The whole state, for what only the rules may read (the legal commands' details of the
        player to act): never to be shown as it is."""
        return self._state


def seen(log: Log, viewer: Viewer, at: int | None = None) -> Seen:
    """What ``viewer`` sees of ``log`` after position ``at`` (None: the end)."""
    end = len(log.rows)
    position = end if at is None else at
    if not 0 <= position <= end:
        from solrec.core.errors import CorruptLog

        raise CorruptLog(f"position {position} is outside the log (0 to {end})")
    return Seen(log, viewer, position)
