"""A game as the field's tools play it: positions, chance as explicit outcomes, seats' observations.

Every adapter (OpenSpiel, PettingZoo, Gymnasium) and every bot stands on ``Table`` and ``Position``;
nothing here imports an optional extra.

Chance (docs/ai.md, "Chance"): a game's chance command is made by its own ``chance_command(state,
draw)``, the function seeded games use. Here ``draw`` is a ``ScriptedDraw``: each ``below(n)`` it is
asked (a die is ``below(6)``, a card from a deck of 30 ``below(30)``, a shuffle one ``below(k)`` per
card) is one chance node with ``n`` outcomes of probability ``1/n`` each, exactly the distribution
``SeededDraw`` draws from. A chance command that asks nothing (Solar Solitaire's next stock card,
known from its shuffle) is applied at once, without a chance node. So no game needs an adapter of its
own for chance, and the adapters' probabilities are the game's by construction.

Observation (docs/ai.md, "Observation"): what a seat sees is the game's observation
(``core/observe.py``) for ``Viewer.seat(name)`` and nothing else: the state as that seat may see it,
and every command and event of the history as that seat may read it (the information state).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from solrec.core.chance import SeededDraw
from solrec.core.game import CHANCE, Command, Event, Game
from solrec.core.observe import Viewer
from solrec.core.play import Header, initial_state, make_header
from solrec.core.registry import bot_hooks, get_game


class NeedDraw(Exception):
    """A chance command asked for one more uniform draw below ``n`` than its script holds."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class ScriptedDraw(SeededDraw):
    """A ``SeededDraw`` whose draws are given (the chance outcomes picked so far), in order."""

    def __init__(self, script: Sequence[int]):
        super().__init__(0, 0)
        self.script = tuple(script)
        self.used = 0

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0  # no choice, no chance node (as SeededDraw draws no bits for it)
        if self.used == len(self.script):
            raise NeedDraw(n)
        value = self.script[self.used]
        if not 0 <= value < n:
            raise ValueError(f"chance outcome {value} is not below {n}")
        self.used += 1
        return value

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(1 + self.below(sides) for _ in range(count))


class RecordingDraw(SeededDraw):
    """A ``SeededDraw`` that notes each draw it makes (``n > 1``): the chance outcomes that give a
    seeded game's chance command here. ``dice`` draws as ``below`` does, the same bits in the same
    order (``SeededDraw.dice``)."""

    def __init__(self, seed: int, position: int):
        super().__init__(seed, position)
        self.drawn: list[int] = []

    def below(self, n: int) -> int:
        value = super().below(n)
        if n > 1:
            self.drawn.append(value)
        return value

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(1 + self.below(sides) for _ in range(count))


def chance_draws(game: Game, state: Any, seed: int, position: int) -> tuple[Command, tuple[int, ...]]:
    """The chance command a seeded game gives at ``position`` and the chance outcomes that make it."""
    draw = RecordingDraw(seed, position)
    command = game.chance_command(state, draw)
    return command, tuple(draw.drawn)


@attrs.frozen(eq=False)
class Position:
    """One position of a game at the adapters' table: the game's state, the chance outcomes drawn so
    far for the chance command being made, and the history (a parent chain: each position knows the
    one before its last command, and that command with its events)."""

    state: Any
    draws: tuple[int, ...] = ()
    parent: Position | None = None
    actor: str | None = None  # who gave the command that led here
    command: Command | None = None
    events: tuple[Event, ...] = ()
    moves: int = 0  # player commands played so far
    cache: dict[Any, Any] = attrs.field(factory=dict, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self  # immutable (the cache only remembers what the position computes): a copy shares it

    def __reduce__(self) -> tuple[Any, ...]:
        # the history as a list, root first: pickling the parent chain as it is would recurse once per
        # command (a Solari game has thousands)
        chain = []
        p: Position | None = self
        while p is not None:
            chain.append((p.state, p.draws, p.actor, p.command, p.events, p.moves))
            p = p.parent
        return (_rebuild, (tuple(reversed(chain)),))


def _rebuild(chain: tuple[tuple[Any, ...], ...]) -> Position:
    position: Position | None = None
    for state, draws, actor, command, events, moves in chain:
        position = Position(state, draws, position, actor, command, events, moves)
    assert position is not None
    return position


@attrs.frozen
class Outlook:
    """Who acts at a position: a player (``seat``), chance (``outcomes``: how many equally likely
    outcomes the next draw has), or nobody (the game is over)."""

    actor: str | None
    outcomes: int = 0


def table_of(header: Header) -> Table:
    """The adapters' table of a recorded game's header (its game, options and players)."""
    return Table(header.game, header.options_dict(), header.players)


class Table:
    """One game with its options and players, as the adapters play it (no seed: chance is explicit)."""

    def __init__(self, game_id: str, options: Mapping[str, Any] | None = None, players: Sequence[str] | None = None):
        self.game: Game = get_game(game_id)
        self.header: Header = make_header(self.game, players, dict(options or {}), seed=0)
        self.players: tuple[str, ...] = self.header.players
        self.options: dict[str, Any] = self.header.options_dict()
        self.hooks = bot_hooks(self.game.id)  # the game's numbering, returns, resampler (core/<game>/bots.py)
        self.codec = self.hooks.codec(self.game, self.options)
        self.viewers = {p: Viewer.seat(p) for p in self.players}

    def __reduce__(self) -> tuple[Any, ...]:
        return (Table, (self.game.id, self.options, self.players))

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self

    # -- positions -------------------------------------------------------------------------------
    def initial(self) -> Position:
        return self.settle(Position(initial_state(self.game, self.header)))

    def to_act(self, position: Position) -> Outlook:
        actor = self.game.to_act(position.state)
        if actor != CHANCE:
            return Outlook(actor)
        need = self._chance(position)
        assert isinstance(need, int)
        return Outlook(CHANCE, need)

    def _chance(self, position: Position) -> Command | int:
        """The chance command the draws so far make, or the size of the next draw it needs."""
        key = "chance"
        if key not in position.cache:
            try:
                position.cache[key] = self.game.chance_command(position.state, ScriptedDraw(position.draws))
            except NeedDraw as need:
                position.cache[key] = need.n
        return position.cache[key]

    def settle(self, position: Position) -> Position:
        """Apply every chance command that needs no draw (a card its shuffle already fixed)."""
        while self.game.to_act(position.state) == CHANCE:
            made = self._chance(position)
            if isinstance(made, int):
                break
            position = self._apply(position, CHANCE, made)
        return position

    def draw(self, position: Position, outcome: int) -> Position:
        """Chance's next outcome (``0 <= outcome < to_act(position).outcomes``)."""
        need = self._chance(position)
        if not isinstance(need, int) or not 0 <= outcome < need:
            raise ValueError(f"{outcome} is not a chance outcome here")
        drawn = attrs.evolve(position, draws=position.draws + (outcome,), cache={})
        made = self._chance(drawn)
        if isinstance(made, int):
            return drawn
        return self.settle(self._apply(position, CHANCE, made))

    def play(self, position: Position, command: Command, settle: bool = True) -> Position:
        """The player to act gives ``command`` (refused as ``decide`` refuses it); then chance acts
        where it needs no draw (``settle``; not in an entered game's record, whose chance is typed)."""
        actor = self.game.to_act(position.state)
        if actor is None or actor == CHANCE:
            raise ValueError("no player is to act")
        after = self._apply(position, actor, command)
        return self.settle(after) if settle else after

    def give_chance(self, position: Position, command: Command) -> Position:
        """A chance command as typed at a table (an entered game's record), instead of drawn."""
        return self._apply(position, CHANCE, command)

    def _apply(self, position: Position, actor: str, command: Command) -> Position:
        events = tuple(self.game.decide(position.state, command))
        state = position.state
        for e in events:
            state = self.game.evolve(state, e)
        moves = position.moves + (actor != CHANCE)
        return Position(state, (), position, actor, command, events, moves)

    def follow(self, steps: Sequence[Any], position: Position | None = None) -> Position:
        """The position after a log's steps (``core.play.Step``: actor, command), each applied as the
        log has it (a chance command as given, none applied unasked): a recorded game as a position."""
        position = Position(initial_state(self.game, self.header)) if position is None else position
        for step in steps:
            position = self._apply(position, step.actor, step.command)
        return position

    def over(self, position: Position) -> bool:
        return self.game.to_act(position.state) is None

    # -- results (docs/ai.md, "Returns") -----------------------------------------------------------
    def scores(self, position: Position) -> dict[str, int]:
        return dict(self.game.score(position.state).totals)

    def returns(self, position: Position) -> list[float]:
        """Per seat, in seating order: for a game of several players +1 to each winner, -1 to each other
        player, 0 to all in a draw; for a solitaire its normalised score (``solitaire_return``). 0
        before the end."""
        outcome = self.game.outcome(position.state)
        if outcome is None:
            return [0.0] * len(self.players)
        if len(self.players) == 1:
            return [self.solitaire_return(outcome.result, self.scores(position)[self.players[0]])]
        if not outcome.winners:
            return [0.0] * len(self.players)
        return [1.0 if p in outcome.winners else -1.0 for p in self.players]

    def solitaire_return(self, result: str, score: int) -> float:
        """A one-player game's score on the return scale, -1 .. 1: the game's own mapping
        (``BotHooks.solitaire_return``; docs/ai.md, "Returns")."""
        if self.hooks.solitaire_return is None:
            raise ValueError(f"{self.game.id}: no return for a game of one player")
        return self.hooks.solitaire_return(result, score)

    # -- what a seat sees ----------------------------------------------------------------------------
    def observation(self, position: Position, seat: str) -> dict[str, Any]:
        """The state as ``seat`` may see it (the game's observation for ``Viewer.seat(seat)``)."""
        from solrec.events.codec import to_plain

        key = ("obs", seat)
        if key not in position.cache:
            position.cache[key] = self.game.observation.state(position.state, to_plain(position.state), self.viewers[seat])
        return position.cache[key]

    def observation_string(self, position: Position, seat: str) -> str:
        key = ("obs-str", seat)
        if key not in position.cache:
            position.cache[key] = json.dumps(self.observation(position, seat), sort_keys=True, separators=(",", ":"),
                                             default=str)
        return position.cache[key]

    def seen_step(self, position: Position, seat: str) -> str:
        """The command that led to ``position`` and its events as ``seat`` may read them."""
        from solrec.events.codec import to_plain

        assert position.parent is not None and position.command is not None and position.actor is not None
        viewer = self.viewers[seat]
        observe = self.game.observation
        command = observe.command(position.command, position.parent.state, viewer)
        events = [observe.event(e, to_plain(e), viewer).data for e in position.events]
        return json.dumps([position.actor, command, events], sort_keys=True, separators=(",", ":"), default=str)

    def history_digest(self, position: Position, seat: str) -> str:
        """A SHA-256 over every step of the history as ``seat`` reads it (``seen_step``): equal for two
        histories the seat reads alike. Kept per position, so a long game pays once per step."""
        key = ("hist", seat)
        chain: list[Position] = []
        p: Position | None = position
        while p is not None and key not in p.cache:
            chain.append(p)
            p = p.parent
        digest = p.cache[key] if p is not None else hashlib.sha256(b"solrec-seen").hexdigest()
        for q in reversed(chain):
            if q.parent is not None:
                digest = hashlib.sha256(f"{digest}\n{self.seen_step(q, seat)}".encode()).hexdigest()
            q.cache[key] = digest
        return digest

    def information_state_string(self, position: Position, seat: str) -> str:
        """What ``seat`` knows at ``position``: its seen history (as a digest) and what it sees now."""
        return f"{seat}|{position.moves}|{self.history_digest(position, seat)}|{self.observation_string(position, seat)}"

    # -- commands --------------------------------------------------------------------------------
    def legal(self, position: Position) -> dict[int, Command]:
        """The legal player commands at ``position``, by action id (the codec's fixed numbering)."""
        if "legal" not in position.cache:
            position.cache["legal"] = self.codec.legal(position.state)
        return position.cache["legal"]
