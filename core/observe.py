"""Who looks at a game, and the one contract a game writes its hidden-information rule in.

A ``Viewer`` is the referee (everything, as ``--reveal``), the table (the public view: a spectator,
the CLI without ``--as``) or one seat by its player's name (the table and that player's own hand).
Each game's ``observation.py`` is the only code that hides anything in that game (an
``Observation``): it observes a state (plain, JSON-able data), a command at its position (the text the
viewer may read), an event (its data or withheld, and whether its words may be shown), and draws the
state for the viewer (text and SVG). Every surface (``show``/``log``/``legal``/``svg``/``html
--as``, the server's views, the replay page, ``diff``, the live output of ``new``/``play``) reads a
game through ``replay.seen``, which reads it through this contract.

Every field of every state class (and of the classes it holds: mats, hands, piles) and of every
event type is declared once, in the game's observation module (``core.declared.Declaration``):
public, the owner's (a mat's hand: its player's), or hidden, with what stands in its place for
those who may not see it (its size, a mark). A seat's JSON (``state``/``event``) and the pictures
(drawn from ``seen``: the state with every field the viewer may not see ``Withheld``) are built
from what is declared: what a viewer may see is copied, nothing is deleted. A game whose state or
events hold a field nobody declared is refused when it is loaded (``check``; ``core.registry``),
naming the class and the field. A game that hides something declares ``hidden_information``;
``Game.observation`` refuses a game that gives no observation. The models: OpenSpiel's observer
(one observer per kind of viewer, its string and tensor from one list of pieces), boardgame.io's
``playerView`` (whose known leaks were channels left unfiltered: its issues 1159, 399, 227).
"""

from __future__ import annotations

import abc
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, TypeAlias

from . import frozen
from .declared import Declaration
from .errors import UndeclaredField
from .words import quoted

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
            raise ValueError(f"a seat is a player's name, not {quoted(name)}")
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


def check(game: Game, state: type | None = None, events: Iterable[type] | None = None) -> None:
    """Refuse a game whose state (``state``: the declared state class by default) or events
    (``events``: the game's event types by default) hold a field its observation does not declare
    (called when the game is loaded, ``core.registry``)."""
    declared = getattr(game.observation, "declared", None)
    if not isinstance(declared, Declaration):
        raise UndeclaredField(f"{game.id}: its observation declares no fields (a Declaration)")
    try:
        declared.check(state, game.event_types if events is None else events)
    except UndeclaredField as err:
        raise UndeclaredField(f"{game.id}: {err}") from None


class Observation(abc.ABC):
    """A game's hidden-information rule, written once (its ``observation.py``): its ``declared``
    fields, from which every viewer's state and events are built, and the commands as each viewer
    may read them. Nothing has a permissive default, so a game that forgets one cannot be observed."""

    declared: ClassVar[Declaration]  # every field of the game's states and events (``Declaration``)

    def __init__(self, game: Game):
        self.game = game

    def state(self, state: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The state as ``viewer`` may see it, as plain data (``plain``: the state's full plain data),
        built from what is declared."""
        return self.declared.plain(state, plain, viewer)

    def seen(self, state: Any, viewer: Viewer) -> Any:
        """The state as ``viewer`` may see it, as the game's own state class: what the pictures draw
        (each field the viewer may not see ``Withheld``)."""
        return self.declared.seen(state, viewer)

    def event(self, event: Event, plain: dict[str, Any], viewer: Viewer) -> SeenEvent:
        """An event as ``viewer`` may see it (``plain``: its full plain data), built from what is
        declared; its words may be shown to everyone (the game's words never name a hidden piece)."""
        return SeenEvent(self.declared.plain(event, plain, viewer), True)

    def seen_events(self, events: Sequence[Event] | None, viewer: Viewer) -> Sequence[Event] | None:
        """Events as ``viewer`` may see them, as their own classes (what a picture highlights)."""
        if events is None or viewer.sees_all:
            return events
        return [self.declared.seen(e, viewer) for e in events]

    @abc.abstractmethod
    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        """A command as ``viewer`` may read it, in the words of ``state`` (the position it is played
        in; None where no position is at hand: then as the game's plain notation)."""

    def text(self, state: Any, viewer: Viewer) -> str:
        """The text picture of the state as ``viewer`` sees it: drawn from its observation alone."""
        return self.draw_text(self.seen(state, viewer), viewer)

    def svg(self, state: Any, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str | None:
        """The SVG picture of the state as ``viewer`` sees it (None: the game has no picture), drawn
        from its observation alone; ``last`` (the last command's events, as the viewer sees them)
        highlighted."""
        return self.draw_svg(self.seen(state, viewer), viewer, last=self.seen_events(last, viewer), size=size)

    @abc.abstractmethod
    def draw_text(self, seen: Any, viewer: Viewer) -> str:
        """The text picture of ``seen`` (an observed state, ``seen``) for ``viewer``."""

    def draw_svg(self, seen: Any, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str | None:
        """The SVG picture of ``seen`` (an observed state) for ``viewer``; None: the game has none."""
        return None

    @abc.abstractmethod
    def reveals(self, event: Event, seeded: bool = True) -> bool:
        """Whether ``event`` shows any player something that was hidden before it: a card drawn or
        turned face up, a tile from the bag, a pouch draw; in a seeded game (``seeded``) any chance
        event the hidden seed foretold. A seat may not take back a command whose events reveal."""

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        """What ``actor`` did by ``command`` (its ``events``, played at ``before``), in words, as
        ``viewer`` may read it: a phrase in the past tense that follows the actor's name ("flew H0 H14
        (range 1) and colonized the yellow planet 10 at H14"), for the seat page's "since your last move". A game overrides
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
    yet lives only in the seed, which the kernel shows the referee alone): every field is declared
    public (still declared: a field nobody declared refuses the game), so every viewer sees the whole
    state; a picture may still say more to the referee (the unplayed dominoes listed)."""

    # the events that show what was hidden before them (a pouch draw, a domino turned face up), and
    # those a seed foretold (a roll, a deal): these reveal only in a seeded game
    revealing: ClassVar[tuple[type, ...]] = ()
    foretold: ClassVar[tuple[type, ...]] = ()

    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        return self.game.format(command) if state is None else self.game.format_at(command, state)

    def svg(self, state: Any, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str | None:
        # every seat sees the same picture of a state: drawn once for all of them (a server makes
        # each watching seat's page of a new position, one after another, from the one state)
        state, last = self.seen(state, viewer), self.seen_events(last, viewer)
        try:
            key = (id(state), viewer.sees_all, size, tuple(last) if last is not None else None)
            hash(key)
        except TypeError:  # an event that cannot be a key: drawn each time
            return self.draw_svg(state, viewer, last=last, size=size)
        with _PICTURES_LOCK:
            kept = _PICTURES.get(key)
        if kept is not None and kept[0] is state:
            return kept[1]
        picture = self.draw_svg(state, viewer, last=last, size=size)
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
