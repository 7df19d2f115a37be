"""What every game provides, and the plain values the kernel passes around.

A game is a stateless object. Its states, commands and events are frozen attrs classes holding
tuples. ``decide`` refuses or returns events and never has side effects; ``evolve`` folds one event
into a new state and is pure and total over the events ``decide`` produces.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from . import frozen
from .chance import SeededDraw
from .errors import InvalidSetup
from .observe import Viewer
from .words import quoted

TABLE = Viewer.table()  # who looks where a caller names nobody: the table (what everyone sees)

if TYPE_CHECKING:
    from .observe import Observation
    from .solve import SolveReport

CHANCE = "chance"
"""The actor name of chance: dice, shuffles and draws. No player may take this name."""

MAX_NAME = 40  # characters of a player name: it is printed in every score line and board


def check_name(name: object) -> str:
    """A player name as a table would write it: printable text, no control characters (ESC, newline)."""
    if not isinstance(name, str) or not name or name != name.strip():
        raise InvalidSetup(f"player name {quoted(name)} is empty or has surrounding spaces")
    if len(name) > MAX_NAME:
        raise InvalidSetup(f"player name {quoted(name[:MAX_NAME])}... is longer than {MAX_NAME} characters")
    if not name.isprintable():
        raise InvalidSetup(f"player name {quoted(name)} holds a control character")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidSetup(f"player name {quoted(name)} is not valid UTF-8 text") from None
    return name


class Command:
    """Base of every command. ``chance`` marks the commands that chance (not a player) gives."""

    chance: ClassVar[bool] = False


class Event:
    """Base of every event. ``TYPE`` is its stable tag in the log, ``VERSION`` its schema version."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def check(self) -> None:
        """Refuse (ValueError, one line) values outside the game: a colour that is neither black nor
        white, a square off the board. Called when an event is read back from storage, so ``evolve``
        only ever meets events in the game's domain; events ``decide`` makes pass by construction."""


@frozen.value
class ScoreLine:
    """One line of a score sheet: who, how many points, for what, and the rule it rests on."""

    player: str
    points: int
    what: str
    rule: str


@frozen.value
class ScoreSheet:
    lines: tuple[ScoreLine, ...]
    totals: tuple[tuple[str, int], ...]

    @classmethod
    def from_lines(cls, players: Sequence[str], lines: Sequence[ScoreLine]) -> ScoreSheet:
        totals = {p: 0 for p in players}
        for line in lines:
            totals[line.player] += line.points
        return cls(tuple(lines), tuple(totals.items()))

    def total(self, player: str) -> int:
        return dict(self.totals)[player]

    def as_dict(self) -> dict[str, Any]:
        return {
            "scores": dict(self.totals),
            "lines": [attrs.asdict(line) for line in self.lines],
        }


@frozen.value
class Outcome:
    """How a finished game ended.

    ``winners`` is the one answer to "who won": one player, partners who win together, players who
    share a victory; empty for a draw and for a solo game not won. ``winner`` is the first of them
    (None when there is none), for code that asks about one player. ``result`` says how it ended in
    the game's words: ``won`` (someone won), ``drawn``, and for a solo game ``won``, ``lost`` or
    ``scored`` (a score solitaire has no win, only a score).
    """

    winner: str | None
    ranking: tuple[str, ...]
    reason: str
    winners: tuple[str, ...] = attrs.field(default=attrs.Factory(lambda self: (self.winner,) if self.winner else (), takes_self=True))
    result: str = attrs.field(default=attrs.Factory(lambda self: "won" if self.winners else "drawn", takes_self=True))

    def as_dict(self) -> dict[str, Any]:
        return {"result": self.result, "winners": list(self.winners), "ranking": list(self.ranking), "reason": self.reason}


def same_outcome(recorded: Mapping[str, Any] | None, recomputed: Mapping[str, Any] | None) -> bool:
    """Whether a stored outcome is the recomputed one. Outcomes stored before ``result`` existed
    held ``winner`` (the first of ``winners``) instead: they are compared on what both shapes hold."""
    if recorded is None or recomputed is None or "result" in recorded:
        return recorded == recomputed
    older = {k: v for k, v in recorded.items() if k != "winner"}
    return older == {k: v for k, v in recomputed.items() if k != "result"} and recorded.get("winner") == (
        recomputed["winners"][0] if recomputed["winners"] else None
    )


@frozen.value
class Choice:
    """One legal command as a person at a table clicks it (``solrec serve``).

    ``steps`` are the clicks that make it, in order: a piece then its destination (``("11", "21")``),
    a die then its action, a hex. A step that names a place on the game's picture is the
    ``data-spot`` of an element of the game's picture (``Game.svg``, as a seat sees it), so the page can highlight it there.
    ``group`` is the heading it is listed under, in the game's words; ``detail`` what it costs or does.
    """

    command: str
    steps: tuple[str, ...]
    group: str
    detail: str = ""
    # the places of the picture the command takes away (a jumped marble): marked on the board while
    # the command is one click from being played, so the player sees what it removes first
    takes: tuple[str, ...] = ()
    # each step in the game's words where its name is notation ("the yellow 2 die on the -1 space"); () or "": the step
    said: tuple[str, ...] = ()


@frozen.value
class Field:
    """One slot of a ``Form``: its name in the template and the values to pick from, in order."""

    name: str
    values: tuple[str, ...]
    # each value fills at most one of the fields of its kind (its name without the trailing number:
    # ``tile1`` ... ``tile6``), as a component placed once: a page's tap pad offers it once
    once: bool = False


@frozen.value
class Form:
    """A command made of picked parts where listing every command is too much (a roll of five dice,
    a card number, an exchange): ``template`` has a ``{name}`` slot per field."""

    group: str
    template: str
    fields: tuple[Field, ...]
    example: str
    label: str = ""


@frozen.value
class Choices:
    """What the actor can click now: the listed commands, and the forms for the rest (``Game.choices``)."""

    actor: str | None
    commands: tuple[Choice, ...] = ()
    forms: tuple[Form, ...] = ()


class Game(abc.ABC):
    """The contract every game fulfils. Subclasses set the class attributes and the methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    rule_text: ClassVar[str]  # the file in shared/rules this game implements
    Options: ClassVar[type]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    command_types: ClassVar[tuple[type, ...]]
    event_types: ClassVar[tuple[type[Event], ...]]
    # what `play --help` says of the notation, and two commands written in it
    notation_help: ClassVar[str] = ""
    notation_examples: ClassVar[tuple[str, ...]] = ()
    # (type tag, version) -> function lifting that version's plain payload to the next version
    upcasters: ClassVar[Mapping[tuple[str, int], Callable[[dict], dict]]] = {}
    # option -> the value that reproduces how games were played before the option existed: a
    # stored header lacking the option is read with it (``play.upcast_options``)
    upcast_options: ClassVar[Mapping[str, Any]] = {}

    # -- set-up -----------------------------------------------------------------------------
    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            noun = "player" if self.max_players == 1 else "players"
            raise InvalidSetup(f"{self.title} is played by {span} {noun}, not {len(players)}")
        for name in players:
            check_name(name)
            if name.lower() == CHANCE:
                raise InvalidSetup(f"{quoted(CHANCE)} is the name of chance, not a player name")
        if len(set(players)) != len(players):
            raise InvalidSetup("player names must differ")
        return players

    def default_players(self) -> tuple[str, ...]:
        # "Player 1", "Player 2", ... in every game: a name a table replaces, never a real one (issue 31)
        return tuple(f"Player {i + 1}" for i in range(max(self.min_players, 2 if self.max_players >= 2 else 1)))

    def default_players_for(self, options: Any) -> tuple[str, ...]:
        """The players a game gets when none are named, given its options (e.g. a game whose solitaire
        mode is played by one player). Defaults to ``default_players()``."""
        return self.default_players()

    def check_options(self, options: Any, players: tuple[str, ...]) -> None:
        """Refuse option and player combinations that cannot be played (InvalidSetup)."""

    @abc.abstractmethod
    def setup(self, options: Any, players: tuple[str, ...]) -> Any:
        """The state before the first command."""

    # -- play -------------------------------------------------------------------------------
    @abc.abstractmethod
    def to_act(self, state: Any) -> str | None:
        """The player who must act, CHANCE, or None once the game is over."""

    @abc.abstractmethod
    def decide(self, state: Any, command: Command) -> tuple[Event, ...]:
        """The events a legal command produces (never empty), or IllegalCommand."""

    # one mutator per event type (the state module's ``MUTATORS``): the state after that event
    mutators: ClassVar[Mapping[type, Callable[[Any, Any], Any]]]

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one event (a fold may look the mutator up itself: ``mutators``)."""
        return self.mutators[type(event)](state, event)

    def legal_commands(self, state: Any) -> tuple[Command, ...] | None:
        """Every legal command of the actor to act, or None where the choices are not enumerable."""
        return None

    def sample_command(self, state: Any, rng: Any) -> Command:
        """A random legal command for simulated players (``rng`` is a ``random.Random``); games whose
        choices are not enumerable override this."""
        legal = self.legal_commands(state)
        if not legal:
            raise NotImplementedError(f"{self.id}: no enumerable command to sample in this state")
        return legal[rng.randrange(len(legal))]

    def command_forms(self, state: Any) -> tuple[str, ...]:
        """Where ``legal_commands`` is None for a player: the command forms and their bounds, for ``legal``."""
        return ()

    def chance_forms(self, state: Any) -> tuple[str, ...]:
        """At a chance step of a game whose chance is entered at the table: the chance command(s) expected
        now, each with its format and an example, naming nothing hidden; () where the game gives none."""
        return ()

    def legal_details(self, state: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Extra detail ``legal`` shows beside the commands (JSON fields added, text lines appended), e.g.
        where a move leads and what is possible there; most games have none."""
        return {}, ()

    @abc.abstractmethod
    def chance_command(self, state: Any, draw: SeededDraw) -> Command:
        """The chance command a seeded game gives in this state, drawn from ``draw``."""

    # -- reading ----------------------------------------------------------------------------
    @abc.abstractmethod
    def score(self, state: Any) -> ScoreSheet: ...

    @abc.abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The result once the game is over, else None."""

    def ending(self, state: Any) -> str | None:
        """How a finished game ended, in the game's words but without its particulars (who, how many
        points): the kinds of end ``solrec balance`` counts. None while it runs. By default the
        outcome's result (won, drawn, lost, scored); a game with several ways to end names them."""
        outcome = self.outcome(state)
        return None if outcome is None else outcome.result

    @abc.abstractmethod
    def parse(self, text: str, state: Any = None) -> Command:
        """Read the game's notation (InvalidCommand / AmbiguousCommand)."""

    @abc.abstractmethod
    def format(self, command: Command) -> str:
        """Write a command in the game's notation; ``parse(format(c)) == c``."""

    def render(self, state: Any, viewer: Viewer = TABLE) -> str:
        """Text picture of the state as ``viewer`` sees it (the table by default; the referee sees
        what players at the table cannot): drawn from the viewer's observation (``observation``)."""
        return self.observation.text(state, viewer)

    def svg(
        self, state: Any, viewer: Viewer = TABLE, *, last: Sequence[Event] | None = None, size: int | None = 400
    ) -> str | None:
        """A standalone SVG 1.1 picture of the state as ``viewer`` sees it (pure, like
        ``chess.svg.board``), drawn from the viewer's observation; ``last`` (the events of the last
        command) is highlighted, ``size`` is the width in pixels. None where the game has no picture."""
        return self.observation.svg(state, viewer, last=last, size=size)

    # -- at the table: what to click (``solrec serve``) ----------------------------------------------
    def choices(self, state: Any, entered: bool = False) -> Choices:
        """The actor's legal commands as clicks (``Choice``), grouped in the game's words, and forms for
        what is not listed (``Form``); at a chance step of an entered game (``entered``) the forms the
        person reading the table picks from (``chance_choices``), naming nothing hidden; at a seeded
        one, and once the game is over, nothing. Games give their own in ``player_choices``."""
        actor = self.to_act(state)
        if actor is None or (actor == CHANCE and not entered):
            return Choices(actor)
        if actor == CHANCE:
            return Choices(CHANCE, forms=self.chance_choices(state))
        return self.player_choices(state, actor)

    def player_choices(self, state: Any, actor: str) -> Choices:
        """``choices`` when a player is to act. Every listed command is one ``legal_commands`` holds,
        written as ``format_at``. The default: each command one click, grouped by its first word;
        games override it for pieces and destinations."""
        listed = []
        for command in self.legal_commands(state) or ():
            text = self.format_at(command, state)
            head, _, rest = text.partition(" ")
            listed.append(Choice(text, (text,), head if rest else "play"))
        return Choices(actor, tuple(listed))

    def chance_choices(self, state: Any) -> tuple[Form, ...]:
        """``choices`` at a chance step of an entered game: the forms of what chance names; () where
        the game gives none (the command is typed)."""
        return ()

    def command_words(self, command: Command, state: Any = None) -> str:
        """A command said in words for a button, beside its notation ("take the yellow 2 die onto the
        -1 space"), at ``state`` (the position it is played in; None: without one): the game's words
        module (``core/<game>/words.py``). Naming only what the command's actor may see."""
        return self.format(command) if state is None else self.format_at(command, state)

    def format_at(self, command: Command, state: Any) -> str:
        """A command as a player reads it at this position (``state``: the position it is played in),
        e.g. a hex by the label printed on the board; ``parse(format_at(c, s), s) == c``. The stored
        record keeps ``format``. Defaults to ``format``."""
        return self.format(command)

    # -- what a viewer may see (``core/observe.py``; each game's ``observation.py``) ----------------
    # Whether the game's states hide something from a player (a hand, a face-down stock). Such a game
    # must give its observation: there is no permissive default (``observation``). A game whose only
    # secret is its seed's future hides nothing in its states: the kernel keeps the seed from all but
    # the referee (``replay.seen``).
    hidden_information: ClassVar[bool] = False

    def make_observation(self) -> Observation:
        """The game's ``observation.py`` observation (every field of its states and events declared,
        ``core.observe.Declaration``). There is no default: a game that gives none is refused (fail
        closed), one with hidden information first of all."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.id} hides information and gives no observation: nothing of it is shown")
        raise NotImplementedError(f"{self.id} gives no observation: every field of its states and events is declared there")

    @property
    def observation(self) -> Observation:
        """What each viewer may see of this game's states, commands and events (made once)."""
        made = self.__dict__.get("_observation")
        if made is None:
            made = self.__dict__["_observation"] = self.make_observation()
        return made

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        """Whether ``event`` shows a player something hidden before it (a card drawn or turned face
        up, a tile from the bag, a pouch draw; in a seeded game, any chance event the seed foretold):
        a seat may not take back a command whose events reveal. The observation decides; False for a
        game that hides nothing."""
        return self.observation.reveals(event, seeded)

    # -- component data (optional) -----------------------------------------------------------
    def components_options(self, name: str, texts: Mapping[str, str]) -> dict[str, str]:
        """The setup options that record a component set given as TOML texts (``new --components``)."""
        raise InvalidSetup(f"{self.title} has no component data")

    def components_listing(self, name: str | None, texts: Mapping[str, str] | None) -> dict[str, Any]:
        """A component set's data with provenance (the built-in set when ``texts`` is None)."""
        raise InvalidSetup(f"{self.title} has no component data")

    def card(self, number: int, name: str | None, texts: Mapping[str, str] | None) -> dict[str, Any]:
        """One card of a component set as it is printed, in words, with its provenance (``text``: the
        lines to show). Numbered as everywhere else in the game (commands, events)."""
        raise InvalidSetup(f"{self.title} has no cards to show")

    # -- solving (optional) -----------------------------------------------------------------
    def solve(self, state: Any, budget: int, viewer: Viewer = TABLE) -> SolveReport | None:
        """Whether the game can still be won from ``state`` (searching at most ``budget`` positions),
        as a ``core.solve.SolveReport``; None means this game has no solver. For any viewer but the
        referee the answer rests only on what the players at the table see (an answer derived from
        hidden information reveals it); for the referee the solver may use the rest too (a face-down
        deck's order)."""
        return None

    def survey(
        self, deals: int, seed: int, budget: int, progress: Callable[[int], None] | None = None
    ) -> dict[str, Any] | None:
        """Solve ``deals`` seeded deals derived from ``seed``; plain data for the CLI. ``progress(1)`` is
        called after each deal. None means this game has no solver."""
        return None

    def describe_event(self, event: Event) -> str:
        """One line for logs and replays."""
        fields = ", ".join(f"{k}={quoted(v)}" for k, v in attrs.asdict(event, recurse=False).items())  # type: ignore[arg-type]
        return f"{event.TYPE}({fields})"

    def describe_event_at(self, event: Event, state: Any) -> str:
        """``describe_event`` with the state the event applies to (the position before it, or a later
        position of the same game: the words may rest only on what never changes once it exists, such
        as a board's labels), for games whose words need the position. Defaults to ``describe_event``."""
        return self.describe_event(event)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {quoted(self.id)} rules {self.rules_version}>"

