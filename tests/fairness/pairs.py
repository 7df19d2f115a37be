"""Pairs of games one seat cannot tell apart (hypothesis strategies), for the non-interference property.

A pair is two logs of the same length with the same public history for one seat: the same players,
options and commands as that seat may read them, the same events but for what the seat cannot see,
and a different seed (so different future chance). Log ``a`` is played with seed ``seed_a`` (chance
from the seed; in an entered game chance as typed, drawn here from the same kind of seed) and random
legal commands; log ``b`` ("the twin") repeats ``a`` step by step, except that what the seat cannot
see is drawn again from ``seed_b``:

- Solarius Mission: the start card and the progress cards another player receives (and the cards
  that player keeps at the start, mapped along), never a card the seat later sees in ``a``;
- Solar Solitaire: the order of the stock cards that ``a`` never turns (a seeded shuffle or one typed
  in);
- every game: the seed itself (``b`` is headed by ``seed_b``; what ``a``'s chance showed stays).

The twin stops where the two games would differ publicly, judged here and not by the observation under
test: where a command of ``b`` is refused, or where the events differ in anything but the fields the
game declares hidden from the seat (each game's ``DECLARED``, ``core/declared.py``: another player's
card numbers, the stock's order), what stands in their place for the seat (a start card's public part,
the stock's size) compared as public. A field declared hidden tomorrow is covered without a word here.
Both logs are cut there.

The interface (stable: the server's property test is built on it):

- ``SETUPS``: the setup names; ``pairs(setup)``: a strategy of ``Pair``;
- ``Pair``: ``setup``, ``seat`` (the player who cannot tell them apart), ``viewer``, ``a`` and ``b``
  (``replay.log.Log``, game id ``GAME_ID``), ``header_a``/``header_b``, ``steps_a``/``steps_b``;
- ``build(setup, seed_a, seed_b, play_seed, moves, seat)``: one pair, deterministically;
- ``store_pair(pair, folder)``: the two logs in two databases (``a.db``, ``b.db``) under the same id.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

from solrec.core.chance import SeededDraw
from solrec.core.declared import EVERYONE, OWNER, Declaration
from solrec.core.game import CHANCE, Command, Event, Game
from solrec.core.observe import Viewer
from solrec.core.play import ENTERED, SEEDED, Header, Step, initial_state, make_header
from solrec.core.registry import get_game
from solrec.events.codec import to_plain
from solrec.events.envelope import chain_rows, codec_for, genesis_hash
from solrec.replay.log import Log, from_rows

GAME_ID = "twin"
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@attrs.frozen
class Setup:
    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    chance: str = SEEDED
    moves: int = 8  # the most player commands a pair plays (its positions grow with chance's events)


def _mission(n: int, start: str) -> Setup:
    return Setup("solarius-mission", ("Ann", "Bob", "Cid", "Dee")[:n], (("start", start),), moves=10)


SETUPS: dict[str, Setup] = {
    **{f"solarius-mission-{n}-{start}": _mission(n, start) for n in (2, 3, 4) for start in ("cards", "choose")},
    "solar-solitaire-seeded": Setup("solar-solitaire", ("Sol",), moves=12),
    "solar-solitaire-entered": Setup("solar-solitaire", ("Sol",), chance=ENTERED, moves=12),
    "solari-dominoes-hidden": Setup("solari", ("Ann", "Bob"), (("source", "dominoes-hidden"),), moves=6),
    "solari-dice": Setup("solari", ("Ann", "Bob"), moves=6),
    "soli2-pouch": Setup("soli2", ("Ann", "Bob"), (("mode", "duel"), ("fill", "pouch")), moves=10),
    "solo-dice": Setup("solo-dice", ("Sol",), moves=8),
}


@attrs.frozen
class Pair:
    setup: str
    seat: str
    header_a: Header
    header_b: Header
    steps_a: tuple[Step, ...]
    steps_b: tuple[Step, ...]
    a: Log
    b: Log

    @property
    def viewer(self) -> Viewer:
        return Viewer.seat(self.seat)

    @property
    def positions(self) -> int:
        """The events of each log: the two agree for the seat at every position 0..positions."""
        return len(self.a.rows)


def _log(header: Header, steps: tuple[Step, ...]) -> Log:
    game = get_game(header.game)
    return from_rows(GAME_ID, header, chain_rows(codec_for(game), genesis_hash(header), 0, 0, steps))


# -- what the seat cannot see, per game: the twin's commands and the check that events agree ------------
Twin = Callable[[Game, Any, Any, Command, str, SeededDraw, "Plan"], Command]


@attrs.define
class Plan:
    """What the twin needs to know of ``a`` as a whole: the cards the seat ever sees in it, and the
    stock each shuffle leaves unturned."""

    seen_cards: set[int] = attrs.Factory(set)
    unturned: dict[int, int] = attrs.Factory(dict)  # step index of a shuffle -> its cards never turned
    mapped: dict[int, int] = attrs.Factory(dict)  # a's hidden card -> b's
    step: int = 0


def _cards_of(value: Any, into: set[int], key: str = "") -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _cards_of(v, into, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _cards_of(v, into, key)
    elif isinstance(value, int) and not isinstance(value, bool) and key in ("card", "keep", "discard", "hand", "cards_"):
        into.add(value)


def _mission_hidden(command: Command, events: tuple[Event, ...], seat: str) -> bool:
    """Whether a chance command deals another player a card the seat does not see."""
    from solrec.core.solarius_mission import commands as c
    from solrec.core.solarius_mission import events as ev

    if isinstance(command, (c.DealStartCard, c.DrawCard)):
        return any(isinstance(e, (ev.StartCardDealt, ev.CardDrawn)) and e.player != seat for e in events)
    return False


def _mission_plan(game: Game, steps: list[Step], seat: str) -> Plan:
    plan = Plan()
    for step in steps:
        if _mission_hidden(step.command, step.events, seat):
            continue
        owner_hidden = step.actor not in (seat, CHANCE) and type(step.command).__name__ == "ChooseStart"
        if owner_hidden:
            continue
        _cards_of(to_plain(step.command), plan.seen_cards)
        for e in step.events:
            plain = to_plain(e)
            if type(e).__name__ in ("StartChosen",) and plain.get("player") != seat:
                continue
            _cards_of(plain, plan.seen_cards)
    return plan


def _mission_twin(game: Game, state_a: Any, state_b: Any, command: Command, seat: str, draw: SeededDraw, plan: Plan,
                  events_a: tuple[Event, ...] = ()) -> Command:
    from solrec.core.solarius_mission import commands as c

    if _mission_hidden(command, events_a, seat):
        pool = state_b.start_cards if isinstance(command, c.DealStartCard) else state_b.deck
        free = [k for k in sorted(pool) if k not in plan.seen_cards and k not in plan.mapped.values()]
        # only a card that deals the same public events (a start card's start position is on the mat)
        free = [k for k in free if _decides_alike(game, state_b, attrs.evolve(command, card=k), events_a, seat)]
        if free:
            card = draw.choice(free)
            plan.mapped[command.card] = card
            return attrs.evolve(command, card=card)
        return command
    if isinstance(command, c.ChooseStart) and plan.mapped:
        return attrs.evolve(command, keep=tuple(plan.mapped.get(k, k) for k in command.keep))
    return command


def _decides_alike(game: Game, state: Any, command: Command, events: tuple[Event, ...], seat: str) -> bool:
    try:
        mine = tuple(game.decide(state, command))
    except Exception:
        return False
    return len(mine) == len(events) and all(_same(game, x, y, seat) for x, y in zip(events, mine))


def _solitaire_twin(game: Game, state_a: Any, state_b: Any, command: Command, seat: str, draw: SeededDraw, plan: Plan,
                    events_a: tuple[Event, ...] = ()) -> Command:
    from solrec.core.solar_solitaire.commands import Shuffle

    if isinstance(command, Shuffle):
        k = plan.unturned.get(plan.step, 0)
        if k > 1:
            order = command.order
            return Shuffle(order[: len(order) - k] + tuple(draw.shuffled(order[len(order) - k:])))
    return command


def _same(game: Game, e_a: Event, e_b: Event, seat: str) -> bool:
    """Whether two events agree in all the seat may see of them, as the game declares it."""
    return type(e_a) is type(e_b) and _public(game.observation.declared, e_a, seat) == _public(game.observation.declared, e_b, seat)


def _public(declared: Declaration, record: Any, seat: str, root: Any = None, index: int | None = None) -> Any:
    """What of ``record`` (an event, or a record it holds) the seat may see by the game's declaration:
    each field seen by everyone (and what it holds, walked the same way); for a field the seat may
    not see, what stands in its place (``Instead``), and the field itself where it is the seat's own."""
    if isinstance(record, tuple):
        return tuple(_public(declared, v, seat, root, i) for i, v in enumerate(record))
    if not attrs.has(type(record)):
        return record
    root = record if root is None else root
    fields = declared.of(type(record))
    owner = fields.owner(record, root, index) if fields.owner is not None else None
    out: dict[str, Any] = {}
    for f in attrs.fields(type(record)):
        value = getattr(record, f.name)
        sight = fields.sights[f.name]
        if sight.who == EVERYONE:
            out[f.name] = _public(declared, value, seat, root, None)
            continue
        for instead in sight.instead:
            out[f"{f.name}:{instead.key}"] = instead.of(value, record)
        if sight.who == OWNER and owner == seat:
            out[f.name] = _public(declared, value, seat, root, None)
    return out


def _plain_twin(game: Game, state_a: Any, state_b: Any, command: Command, seat: str, draw: SeededDraw, plan: Plan,
                events_a: tuple[Event, ...] = ()) -> Command:
    return command


# -- building a pair --------------------------------------------------------------------------------
def _play_a(game: Game, header: Header, setup: Setup, seed: int, play_seed: int, moves: int) -> list[Step]:
    """Log ``a``: chance from ``seed`` (typed as drawn from it in an entered game), ``moves`` random
    legal player commands."""
    rng = random.Random(play_seed)
    state = initial_state(game, header)
    steps: list[Step] = []
    played = 0
    position = 0
    while True:
        actor = game.to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            command = game.chance_command(state, SeededDraw(seed, position))
        else:
            if played >= moves:
                break
            command = game.sample_command(state, rng)
            played += 1
        events = tuple(game.decide(state, command))
        steps.append(Step(actor, command, game.format(command), events))
        for e in events:
            state = game.evolve(state, e)
        position += len(events)
    return steps


def _unturned(game: Game, header: Header, steps: list[Step]) -> dict[int, int]:
    """Solar Solitaire: for each shuffle, how many of its cards stay face down until the next shuffle
    (or the end of ``a``): the stock is the order's tail, turned from the front."""
    from solrec.core.solar_solitaire.commands import Shuffle

    state = initial_state(game, header)
    out: dict[int, int] = {}
    current = None
    for i, step in enumerate(steps):
        if isinstance(step.command, Shuffle):
            if current is not None:
                out[current] = _tail(state, steps[current].command.order)
            current = i
        for e in step.events:
            state = game.evolve(state, e)
    if current is not None:
        out[current] = _tail(state, steps[current].command.order)
    return out


def _tail(state: Any, order: tuple[str, ...]) -> int:
    stock = tuple(state.stock)
    return len(stock) if stock and order[len(order) - len(stock):] == stock else 0


def build(setup: str, seed_a: int, seed_b: int, play_seed: int, moves: int, seat: int) -> Pair:
    """One pair: ``a`` played from ``seed_a`` and ``play_seed`` (at most ``moves`` player commands),
    ``b`` its twin for the seat numbered ``seat`` (modulo the players), cut where they differ publicly."""
    s = SETUPS[setup]
    game = get_game(s.game)
    options = dict(s.options)
    entered = s.chance == ENTERED
    header_a = make_header(game, s.players, options, s.chance, None if entered else seed_a)
    header_b = make_header(game, s.players, options, s.chance, None if entered else (seed_b if seed_b != seed_a else seed_a ^ 1))
    player = s.players[seat % len(s.players)]
    steps_a = _play_a(game, header_a, s, seed_a, play_seed, moves)
    if s.game == "solarius-mission":
        plan, twin = _mission_plan(game, steps_a, player), _mission_twin
    elif s.game == "solar-solitaire":
        plan, twin = Plan(unturned=_unturned(game, header_a, steps_a)), _solitaire_twin
    else:
        plan, twin = Plan(), _plain_twin
    state_a, state_b = initial_state(game, header_a), initial_state(game, header_b)
    kept_a: list[Step] = []
    kept_b: list[Step] = []
    position = 0
    for i, step in enumerate(steps_a):
        plan.step = i
        command = twin(game, state_a, state_b, step.command, player, SeededDraw(seed_b, position), plan, step.events)
        try:
            events_b = tuple(game.decide(state_b, command))
        except Exception:
            break  # b cannot go on as a did: the games differ publicly from here
        if len(events_b) != len(step.events) or not all(_same(game, x, y, player) for x, y in zip(step.events, events_b)):
            break
        kept_a.append(step)
        kept_b.append(Step(step.actor, command, game.format(command), events_b))
        for e in step.events:
            state_a = game.evolve(state_a, e)
        for e in events_b:
            state_b = game.evolve(state_b, e)
        position += len(events_b)
    ta, tb = tuple(kept_a), tuple(kept_b)
    return Pair(setup, player, header_a, header_b, ta, tb, _log(header_a, ta), _log(header_b, tb))


def pairs(setup: str) -> st.SearchStrategy[Pair]:
    """Pairs of ``setup`` (a name in ``SETUPS``)."""
    s = SETUPS[setup]
    return st.builds(
        build, st.just(setup), SEEDS, SEEDS, st.integers(0, 2**32 - 1), moves(s.moves),
        st.integers(0, len(s.players) - 1),
    )


def moves(most: int) -> st.SearchStrategy[int]:
    """How many player commands a pair plays: short games mostly (a pair costs about its positions,
    and most leaks show in the first few), a game of any length up to ``most`` in one pair of three."""
    return st.one_of(st.integers(0, max(1, most // 3)), st.integers(0, max(1, most // 3)), st.integers(0, most))


def store_pair(pair: Pair, folder: Path) -> tuple[Path, Path]:
    """The pair's two logs, each in its own database in ``folder`` under the id ``GAME_ID`` (so a
    command names both alike): ``a.db`` and ``b.db``. Every row stored at one fixed time."""
    from solrec.events import store as stores
    from solrec.workflows.games import result_of

    now, stores.now = stores.now, lambda: "2026-01-01T00:00:00.000+00:00"  # a time both share
    try:
        return _store_both(pair, folder, stores, result_of)
    finally:
        stores.now = now


def _store_both(pair: Pair, folder: Path, stores: Any, result_of: Any) -> tuple[Path, Path]:
    out = []
    for name, header, steps in (("a", pair.header_a, pair.steps_a), ("b", pair.header_b, pair.steps_b)):
        path = folder / f"{name}.db"
        game = get_game(header.game)
        state = initial_state(game, header)
        for step in steps:
            for e in step.events:
                state = game.evolve(state, e)
        scores, outcome = result_of(game, state)
        store = stores.Store(path)
        try:
            store.create_game(GAME_ID, header, codec_for(game), list(steps), scores, outcome)
        finally:
            store.close()
        out.append(path)
    return out[0], out[1]
