"""Who looks at a game, and the one contract a game writes its hidden-information rule in.

A ``Viewer`` is the referee (everything, as ``--reveal``), the table (the public view: a spectator,
the CLI without ``--as``) or one seat by its player's name (the table and that player's own hand).
Each game's ``observation.py`` is the only code that hides anything in that game (an
``Observation``): it observes a state (plain, JSON-able data), a command at its position (the text the
viewer may read), an event (its data or withheld, and whether its words may be shown), and draws the
state for the viewer (text and SVG). Every surface (``show``/``log``/``legal``/``svg``/``html
--as``, the server's views, the replay page, ``diff``, the live output of ``new``/``play``) reads a
game through ``replay.seen``, which reads it through this contract.

A game that hides something declares ``hidden_information``; its observation then has no permissive
default: an observation that does not say what a viewer sees of a piece refuses to say anything
(``Observation``'s methods are abstract; ``Game.observation`` refuses a game that hides something and
gives none). The models: OpenSpiel's observer (one observer per kind of viewer, its string and tensor
from one list of pieces), boardgame.io's ``playerView`` (whose known leaks were channels left
unfiltered: its issues 1159, 399, 227).
"""

from __future__ import annotations

import abc
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, ClassVar, TypeAlias

from . import frozen

# A game, its commands and events (core/game.py), which imports this module: named, not imported.
Game: TypeAlias = Any
Command: TypeAlias = Any
Event: TypeAlias = Any

REFEREE, TABLE, SEAT = "referee", "table", "seat"
HIDDEN = "(hidden)"  # what a viewer reads in place of a command text it may not read


@frozen.value
class Viewer:
    """Who looks: ``Viewer.referee()``, ``Viewer.table()`` or ``Viewer.seat(name)``."""

    kind: str
    name: str | None = None

    @classmethod
    def referee(cls) -> Viewer:
        return cls(REFEREE)

    @classmethod
    def table(cls) -> Viewer:
        return cls(TABLE)

    @classmethod
    def seat(cls, name: str) -> Viewer:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a seat is a player's name, not {name!r}")
        return cls(SEAT, name)

    @classmethod
    def of(cls, player: str | None, reveal: bool = False) -> Viewer:
        """The viewer the older ``reveal`` + ``player`` pair named: a player's seat, else the referee
        with ``reveal``, else the table."""
        if player is not None:
            return cls.seat(player)
        return cls.referee() if reveal else cls.table()

    @property
    def sees_all(self) -> bool:
        """The referee: everything, the seed and the heads included."""
        return self.kind == REFEREE

    @property
    def is_seat(self) -> bool:
        return self.kind == SEAT

    @property
    def player(self) -> str | None:
        """The seat's player name (None for the referee and the table)."""
        return self.name if self.kind == SEAT else None

    def is_player(self, name: str | None) -> bool:
        """Whether this viewer is the seat of ``name``."""
        return self.kind == SEAT and name is not None and self.name == name

    def __str__(self) -> str:
        return self.name if self.kind == SEAT and self.name else f"the {self.kind}"


@frozen.value
class SeenEvent:
    """What a viewer sees of one event: its plain data (None: withheld altogether) and whether the
    game's words for it (``describe_event``) may be shown."""

    data: dict[str, Any] | None
    described: bool


class Observation(abc.ABC):
    """A game's hidden-information rule, written once (its ``observation.py``). Every method answers
    for one viewer; none has a permissive default, so a game that forgets one cannot be observed."""

    def __init__(self, game: Game):
        self.game = game

    @abc.abstractmethod
    def state(self, state: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The state as ``viewer`` may see it, as plain data (``plain``: the state's full plain data)."""

    @abc.abstractmethod
    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        """A command as ``viewer`` may read it, in the words of ``state`` (the position it is played
        in; None where no position is at hand: then as the game's plain notation)."""

    @abc.abstractmethod
    def event(self, event: Event, plain: dict[str, Any], viewer: Viewer) -> SeenEvent:
        """An event as ``viewer`` may see it (``plain``: its full plain data)."""

    @abc.abstractmethod
    def text(self, state: Any, viewer: Viewer) -> str:
        """The text picture of the state as ``viewer`` sees it."""

    @abc.abstractmethod
    def svg(self, state: Any, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str | None:
        """The SVG picture of the state as ``viewer`` sees it (None: the game has no picture)."""

    @abc.abstractmethod
    def reveals(self, event: Event, seeded: bool = True) -> bool:
        """Whether ``event`` shows any player something that was hidden before it: a card drawn or
        turned face up, a tile from the bag, a pouch draw; in a seeded game (``seeded``) any chance
        event the hidden seed foretold. A seat may not take back a command whose events reveal."""

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        """What ``actor`` did by ``command`` (its ``events``, played at ``before``), in words, as
        ``viewer`` may read it: a phrase in the past tense that follows the actor's name ("flew to H14
        and colonized a yellow planet"), for the seat page's "since your last move". A game overrides
        it with its own words and never names there what the viewer may not see (a hidden card); this
        default names only the command as the viewer reads it."""
        shown = self.command(command, before, viewer)
        return f"drew {shown}" if actor == "chance" else f"played {shown}"

    def command_text(self, text: str, viewer: Viewer) -> str:
        """A stored command's text (a log row's) where no position is at hand, as ``viewer`` may read
        it: parsed, then observed. A text that does not read alone is shown whole to the referee; to
        anyone else only where the game hides nothing (fail closed)."""
        if viewer.sees_all:
            return text
        try:
            command = self.game.parse(text)
        except Exception:  # a notation that needs the position to parse
            return HIDDEN if self.game.hidden_information else text
        return self.command(command, None, viewer)


def phrases(parts: Sequence[str]) -> str:
    """Phrases joined as a sentence's predicate: "a", "a and b", "a, b and c"."""
    kept = [p for p in parts if p]
    return kept[0] if len(kept) == 1 else ", ".join(kept[:-1]) + " and " + kept[-1] if kept else ""


class Open(Observation):
    """The observation of a game whose states hide nothing from anyone (what chance has not dealt
    yet lives only in the seed, which the kernel shows the referee alone): every viewer sees the
    whole state; the pictures take the referee's ``reveal`` where the game draws more for him."""

    # the events that show what was hidden before them (a pouch draw, a domino turned face up), and
    # those a seed foretold (a roll, a deal): these reveal only in a seeded game
    revealing: ClassVar[tuple[type, ...]] = ()
    foretold: ClassVar[tuple[type, ...]] = ()

    def state(self, state: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return plain

    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        return self.game.format(command) if state is None else self.game.format_at(command, state)

    def event(self, event: Event, plain: dict[str, Any], viewer: Viewer) -> SeenEvent:
        return SeenEvent(plain, True)

    def text(self, state: Any, viewer: Viewer) -> str:
        return self.game.render(state, viewer.sees_all)

    def svg(self, state: Any, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str | None:
        # every seat sees the same picture of a state: drawn once for all of them (a server makes
        # each watching seat's page of a new position, one after another, from the one state)
        try:
            key = (id(state), viewer.sees_all, size, tuple(last) if last is not None else None)
            hash(key)
        except TypeError:  # an event that cannot be a key: drawn each time
            return self.game.svg(state, reveal=viewer.sees_all, last=last, size=size)
        with _PICTURES_LOCK:
            kept = _PICTURES.get(key)
        if kept is not None and kept[0] is state:
            return kept[1]
        picture = self.game.svg(state, reveal=viewer.sees_all, last=last, size=size)
        with _PICTURES_LOCK:
            _PICTURES[key] = (state, picture)  # the state kept with it: its id is not reused meanwhile
            while len(_PICTURES) > PICTURES_KEPT:
                _PICTURES.popitem(last=False)
        return picture

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, self.revealing) or (seeded and isinstance(event, self.foretold))


PICTURES_KEPT = 64  # the pictures of the last states drawn (of open games): a position's seats in turn
_PICTURES: OrderedDict[tuple, tuple[Any, str | None]] = OrderedDict()
_PICTURES_LOCK = threading.Lock()
