"""The table: a game's header plus the pure steps that turn (actor, command) into events.

Nothing here touches storage. The CLI, import, simulate and validate all go through ``play`` so a
command is checked the same way wherever it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import frozen
from .chance import SeededDraw
from .errors import IllegalCommand, InvalidSetup, WrongActor
from .game import CHANCE, Command, Event, Game
from .options import options_dict, parse_options
from .words import quoted

SEEDED = "seeded"
ENTERED = "entered"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # what SQLite stores as an integer
MAX_BOT = 200  # characters of a bot seat's KIND[:SETTINGS] in a header
_BOT = re.compile(r"^[a-z][a-z0-9_-]*(:.*)?$")
MAX_RULES = 200  # characters of a rules version: a label such as "solo-dice/1", printed by every reader


@frozen.value
class Header:
    """What a game's log starts with; it is covered by the hash chain."""

    game: str
    players: tuple[str, ...]
    chance: str
    seed: int | None
    options: tuple[tuple[str, Any], ...]
    rules: str
    # options the stored header lacked, filled in by ``upcast_options``: the hash chain covers the
    # header as it was recorded, and it is written back as recorded
    upcast: tuple[str, ...] = ()
    # the bots that played seats (``simulate --player NAME=bot:KIND``): (player, "KIND[:SETTINGS]"), in
    # the players' order; absent from the recorded dict when there are none, so a game without bots
    # hashes, stores and exports exactly as before the field existed
    bots: tuple[tuple[str, str], ...] = ()

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def recorded_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options if k not in self.upcast}

    def recorded_dict(self) -> dict[str, Any]:
        """The header as it was recorded (what the hash chain starts from)."""
        return {**self.as_dict(), "options": self.recorded_options()}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "chance": self.chance,
            "options": self.options_dict(),
            "rules": self.rules,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        if self.bots:
            out["bots"] = dict(self.bots)
        return out


def make_header(
    game: Game,
    players: Sequence[str] | None,
    options: Mapping[str, Any] | None = None,
    chance: str = SEEDED,
    seed: int | None = None,
    rules: str | None = None,
    bots: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
) -> Header:
    """Check players, options, chance mode and bot seats; fill every option's default."""
    opts = parse_options(game.Options, dict(options or {}))
    players = game.check_players(players if players else game.default_players_for(opts))
    game.check_options(opts, players)
    if chance not in (SEEDED, ENTERED):
        raise InvalidSetup(f"chance is {quoted(SEEDED)} or {quoted(ENTERED)}, not {quoted(chance)}")
    if chance == SEEDED and seed is None:
        raise InvalidSetup("a seeded game needs a seed")
    if seed is not None and not INT64_MIN <= seed <= INT64_MAX:
        raise InvalidSetup(f"a seed is a whole number of at most 64 bits, not {str(seed)[:30]}")
    if chance == ENTERED:
        seed = None
    if rules is not None and (not isinstance(rules, str) or len(rules) > MAX_RULES or not rules.isprintable()):
        shown = quoted(rules[:40]) if isinstance(rules, str) else type(rules).__name__
        raise InvalidSetup(f"a rules version is printable text of at most {MAX_RULES} characters, not {shown}")
    return Header(
        game=game.id,
        players=players,
        chance=chance,
        seed=seed,
        options=tuple(sorted(options_dict(opts).items())),
        rules=rules if rules is not None else game.rules_version,
        bots=check_bots(players, bots),
    )


def check_bots(players: Sequence[str], bots: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> tuple[tuple[str, str], ...]:
    """A header's bot seats in the players' order: each a player of the game (once), its bot a
    printable ``KIND[:SETTINGS]`` of at most MAX_BOT characters (what the bot is, as ``ai.bots``
    spells it; the core does not need the ai extra to check or read it)."""
    if not bots:
        return ()
    pairs = list(bots.items()) if isinstance(bots, Mapping) else list(bots)
    seen: dict[str, str] = {}
    for pair in pairs:
        if not (isinstance(pair, tuple | list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise InvalidSetup("a bot seat is a player's name and its bot's KIND[:SETTINGS], both text")
        name, bot = pair
        if name not in players:
            raise InvalidSetup(f"bot seat {quoted(name[:40])} is not a player of the game")
        if name in seen:
            raise InvalidSetup(f"bot seat {quoted(name[:40])} is given twice")
        if not _BOT.match(bot) or len(bot) > MAX_BOT or not bot.isprintable():
            raise InvalidSetup(f"a bot is KIND[:SETTINGS] of at most {MAX_BOT} printable characters, not {quoted(bot[:40])}")
        seen[name] = bot
    return tuple((p, seen[p]) for p in players if p in seen)


def upcast_options(game: Game, recorded: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A stored header's options with those it lacks because it was recorded before they existed
    set as the game says reproduces how it was played (``Game.upcast_options``); and their names."""
    missing = {k: v for k, v in game.upcast_options.items() if k not in recorded}
    return {**recorded, **missing}, tuple(sorted(missing))


def initial_state(game: Game, header: Header) -> Any:
    """The set-up position of a header; a header the game would refuse at ``new`` (no players, an
    option combination that cannot be played) is refused here too (InvalidSetup)."""
    options = parse_options(game.Options, header.options_dict())
    players = game.check_players(header.players)
    game.check_options(options, players)
    return game.setup(options, players)


@frozen.value
class Step:
    """One command and the events it produced."""

    actor: str
    command: Command
    notation: str
    events: tuple[Event, ...]


def fold(game: Game, state: Any, events: Iterable[Event]) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


def seeded_chance(game: Game, header: Header, state: Any, position: int) -> Command:
    assert header.seed is not None
    return game.chance_command(state, SeededDraw(header.seed, position))


def decide_as(game: Game, header: Header, state: Any, position: int, actor: str, command: Command) -> Step:
    """Check who acts, then let the game decide. Refusals are typed; nothing is returned half-done."""
    events = decide_events(game, header, state, position, actor, command)
    return Step(actor, command, game.format(command), events)


def decide_events(game: Game, header: Header, state: Any, position: int, actor: str, command: Command) -> tuple[Event, ...]:
    """``decide_as`` without writing the command's notation (``validate`` has the recorded one)."""
    to_act = game.to_act(state)
    if to_act is None:
        raise IllegalCommand("the game is over")
    if actor != to_act:
        if to_act == CHANCE:
            raise WrongActor(f"chance acts now, not {actor}")
        raise WrongActor(f"{to_act} is to act, not {actor}")
    if command.chance != (actor == CHANCE):
        if command.chance:
            raise WrongActor(f"{quoted(game.format(command))} is for chance to give, not {actor}")
        raise WrongActor(f"chance gives only chance commands, not {quoted(game.format(command))}")
    if actor == CHANCE and header.chance == SEEDED:
        expected = seeded_chance(game, header, state, position)
        if command != expected:
            # Never name the seed's draw: it may be what the players cannot see yet (the next card).
            raise IllegalCommand(
                f"this game's chance comes from its seed and acts by itself: {quoted(game.format(command))} "
                "is not what it gives here"
            )
    events = tuple(game.decide(state, command))
    if not events:  # a kernel invariant: every legal command leaves a trace in the log
        raise AssertionError(f"{game.id}: decide returned no events for {quoted(command)}")
    return events


def advance_chance(game: Game, header: Header, state: Any, position: int) -> tuple[list[Step], Any, int]:
    """In a seeded game, let chance act for as long as it is to act."""
    steps: list[Step] = []
    if header.chance != SEEDED:
        return steps, state, position
    while game.to_act(state) == CHANCE:
        command = seeded_chance(game, header, state, position)
        step = decide_as(game, header, state, position, CHANCE, command)
        steps.append(step)
        state = fold(game, state, step.events)
        position += len(step.events)
    return steps, state, position


def play(
    game: Game, header: Header, state: Any, position: int, actor: str, command: Command
) -> tuple[list[Step], Any, int]:
    """Decide one command, fold it, then let seeded chance act. Returns the steps to append."""
    step = decide_as(game, header, state, position, actor, command)
    state = fold(game, state, step.events)
    position += len(step.events)
    steps, state, position = advance_chance(game, header, state, position)
    return [step, *steps], state, position


def parse_as(game: Game, state: Any, text: str) -> Command:
    return game.parse(text.strip(), state)
