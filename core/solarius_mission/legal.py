"""Solarius Mission: the legal commands of a position, listed one by one or as forms where they are
more than LIMIT, with the data of the server's forms."""

from __future__ import annotations

import itertools
from typing import Any

import attrs

from ..errors import IllegalCommand
from ..game import Command
from . import commands as c
from . import space
from .components import COLOURS
from .rules import (
    ANYTIME,
    PLAYER_PHASES,
    available_points,
    cannot_pay_anywhere,
    cards_available,
    decide,
    evolve_storage,
    revealable,
    settle_options,
    shift_costs,
    upgrade_costs,
)
from .state import (
    CHANCE_PHASES,
    Mat,
    State,
    acting,
    can_place,
    describe_phase,
    fold,
    phase,
)

# -- legal commands ---------------------------------------------------------------------------------------

LIMIT = 600  # more legal commands than this: listed as forms, not one by one


def placements(state: State, mat: Mat, colours: tuple[str, ...], most: int) -> list[tuple[tuple[str, int], ...]]:
    """Every way to place up to ``most`` cubes (rows in colour order, columns left to right)."""
    most = min(most, state.resource_pool)
    per_row: list[list[tuple[tuple[str, int], ...]]] = []
    for colour in colours:
        options: list[tuple[tuple[str, int], ...]] = [()]
        frontier: list[tuple[tuple[tuple[str, int], ...], Mat]] = [((), mat)]
        while frontier:
            nxt = []
            for placed, m in frontier:
                if len(placed) >= most:
                    continue
                last = placed[-1][1] if placed else 1
                for column in (1, 2, 3):
                    if column < last or can_place(state, m, colour, column) is not None:
                        continue
                    more = (*placed, (colour, column))
                    options.append(more)
                    nxt.append((more, evolve_storage(m, colour, column)))
            frontier = nxt
        per_row.append(options)
    out = []
    for combo in itertools.product(*per_row):
        cubes = tuple(x for part in combo for x in part)
        if len(cubes) <= most:
            out.append(cubes)
    return out


def _step_multisets(state: State, mat: Mat, kind: str, budget: int | None, steps: int | None) -> list[tuple[str, ...]]:
    """Upgrades or shifts (colours in row order) within an action-point budget or a number of free steps."""
    out: list[tuple[str, ...]] = []
    costs = upgrade_costs if kind == "upgrade" else shift_costs

    def grow(prefix: tuple[str, ...], start: int) -> None:
        out.append(prefix)
        if steps is not None and len(prefix) >= steps:
            return
        for i in range(start, 4):
            cand = (*prefix, COLOURS[i])
            try:
                cost = costs(state, mat, cand, budget is None)
            except IllegalCommand:
                continue
            if budget is not None and cost > budget:
                continue
            grow(cand, i)

    grow((), 0)
    return out


def take_commands(state: State) -> list[Command]:
    mat = state.mats[state.actor]
    out: list[Command] = []
    values = state.cset.number("bridge.wheel.values")
    for i, dice in enumerate(state.bridge):
        bonus = values[i]
        for die in sorted(set(dice), key=lambda d: d.text()):
            if bonus < 0 and mat.fuel + mat.bucks < -bonus and not cannot_pay_anywhere(state, mat):
                continue
            out.append(c.Take(die.colour, die.face, bonus, "standard"))
            if "research" not in mat.used:
                out.append(c.Take(die.colour, die.face, bonus, "research"))
            if "transform" not in mat.used:
                out.extend(c.Take(die.colour, die.face, bonus, "transform", new_colour=col) for col in COLOURS if col != die.colour)
            for cid in mat.developments:
                space = state.cset.card(cid).die_space
                if space is not None and f"card:{cid}" not in mat.used and space.accepts(die.colour):
                    out.append(c.Take(die.colour, die.face, bonus, "card", card=cid))
    return out


def bonus_commands(state: State) -> list[Command]:
    assert state.die is not None
    bonus = state.die.bonus
    mat = state.mats[state.actor]
    if bonus < 0:
        out: list[Command] = []
        if mat.fuel >= -bonus:
            out.append(c.Bonus(bonus, 0))
        if mat.bucks >= -bonus:
            out.append(c.Bonus(0, bonus))
        return out
    return [c.Bonus(f, bonus - f) for f in range(bonus + 1)]


def action_commands(state: State) -> list[Command]:
    assert state.die is not None
    mat = state.mats[state.actor]
    points = available_points(state)
    colour = state.die.acts_as
    out: list[Command] = [c.Resources(p) for p in placements(state, mat, (colour,), points)]
    if colour == "black":
        out.append(c.Fuel())
    elif colour == "yellow":
        out.append(c.Bucks())
    elif colour == "turquoise":
        out.extend(c.Upgrade(m) for m in _step_multisets(state, mat, "upgrade", points, None))
    else:
        out.extend(c.Shift(m) for m in _step_multisets(state, mat, "shift", points, None))
    price = state.cset.number("mat.exchange.bucks_per_action_point")
    out.extend(c.BuyActionPoints(n) for n in range(1, mat.bucks // price + 1))
    return out


def effect_commands(state: State) -> list[Command]:
    pending = state.effects[0]
    mat = state.mat(acting(state))
    if pending.kind == "resources":
        colours = COLOURS if pending.colour == "any" else (pending.colour,)
        return [c.Resources(p) for p in placements(state, mat, colours, pending.count)]
    kind = pending.kind
    multisets = _step_multisets(state, mat, kind, None, pending.count)
    return [c.Upgrade(m) if kind == "upgrade" else c.Shift(m) for m in multisets]


def play_commands(state: State) -> list[Command]:
    mat = state.mats[state.actor]
    out: list[Command] = []
    missions_left = len(mat.missions) + len(mat.completed) < state.cset.number("mat.missions.markers")
    for cid in mat.hand:
        if missions_left:
            out.append(c.PlayCard(cid, "mission"))
        out.append(c.PlayCard(cid, "development"))
    return out


def exchange_for_resource_commands(state: State) -> list[Command]:
    mat = state.mats[state.actor]
    units = state.cset.number("mat.exchange.units_per_resource")
    out: list[Command] = []
    if state.resource_pool < 1:
        return out
    targets = [(col, column) for col in COLOURS for column in (1, 2, 3) if can_place(state, mat, col, column) is None]
    for fuel in range(units + 1):
        bucks = units - fuel
        if mat.fuel >= fuel and mat.bucks >= bucks:
            out.extend(c.ExchangeForResource(fuel, bucks, col, column) for col, column in targets)
    return out


def resource_exchange_count(state: State) -> int:
    count = 1
    for row in state.mats[state.actor].storage:
        for n in row:
            count *= n + 1
    return count - 1


def exchange_resources_commands(state: State) -> list[Command]:
    mat = state.mats[state.actor]
    values = state.cset.number("mat.storage.values")
    per = state.cset.number("mat.exchange.value_per_unit")
    cells = [(col, column, mat.storage[i][column - 1]) for i, col in enumerate(COLOURS) for column in (1, 2, 3)]
    out: list[Command] = []
    for counts in itertools.product(*(range(n + 1) for _, _, n in cells)):
        cubes = tuple((col, column) for (col, column, _), k in zip(cells, counts) for _ in range(k))
        units = sum(values[column - 1] for _, column in cubes) // per
        if units >= 1:
            out.extend(c.ExchangeResources(cubes, f, units - f) for f in range(units + 1))
    return out


def anytime_commands(state: State, with_resource_exchanges: bool) -> list[Command]:
    out = exchange_for_resource_commands(state)
    mat = state.mats[state.actor]
    if 1 in mat.drives and mat.fuel >= state.cset.number("mat.drives.upgrade_price"):
        out.append(c.UpgradeDrive())
    out.extend(c.Settle(p) for p in settle_options(state, state.current, False))
    if with_resource_exchanges:
        out.extend(exchange_resources_commands(state))
    return out


def phase_commands(state: State) -> list[Command]:
    """The commands of the phase itself (without the anytime actions)."""
    ph = phase(state)
    mat = state.mats[state.actor] if ph != "choose-start" else state.mats[state.dealt]
    if ph == "choose-start":
        hand = mat.hand
        return [
            c.ChooseStart(s, u, keep)
            for s in COLOURS for u in COLOURS if s != u
            for keep in itertools.combinations(hand, 2)
        ]
    if ph == "discard":
        return [c.Discard(cid) for cid in mat.hand]
    if ph == "take":
        return take_commands(state)
    if ph == "bonus":
        return bonus_commands(state)
    if ph == "effects":
        return effect_commands(state)
    if ph == "research":
        out: list[Command] = [c.Skip(), *play_commands(state)]
        if cards_available(state):
            out.insert(0, c.Draw())
        return out
    if ph == "action":
        return action_commands(state)
    if ph == "supplementary":
        out = [c.Pass(), c.EndTurn(), *play_commands(state)]
        if cards_available(state):
            out.append(c.Draw())
        room = state.cset.number("mat.drives.common_slots") - len(mat.drives)
        price = state.cset.number("mat.drives.price")
        out.extend(c.BuyDrives(n) for n in range(1, min(room, state.drive_pool, mat.fuel // price) + 1))
        out.extend(space.flights(state))
        return out
    if ph in ("space", "explore"):
        return space.space_commands(state)
    if ph == "hub-bonus":
        return space.hub_bonus_commands(state)
    if ph == "after":
        return [c.EndTurn()]
    if ph == "turn-end":
        return [c.Close(), *(c.Settle(p) for p in settle_options(state, state.current, True))]
    return []


@attrs.frozen
class FlightEnd:
    """One reachable hex of a flight (003 9.2 B II) and what the player can do there: ``fly`` is the cheapest
    flight ``legal`` lists, ``turns_planet`` whether it turns a face-down planet (chance names it), ``then``
    the commands possible on arrival."""

    hex: str
    fly: c.Fly
    turns_planet: bool
    then: tuple[Command, ...]


def flight_ends(state: State) -> tuple[FlightEnd, ...]:
    """Every reachable hex and the actions possible at its end, found by playing each listed flight with
    ``decide`` and asking the same ``space_commands`` the space phase uses, so ``legal`` and ``decide`` agree.
    A face-down planet is turned as any planet still in play (which one does not change what is possible:
    settle, with the outposts the tile allows, or decline)."""
    if phase(state) != "supplementary":
        return ()
    out = []
    for fly in space.flights(state):
        after = fold(state, list(decide(state, fly)))
        turned = phase(after) == "reveal"
        planets = sorted(p for ps in revealable(after).values() for p in ps) if turned else []
        if planets:
            after = fold(after, list(decide(after, c.RevealPlanet(planets[0]))))
        then = () if turned and not planets else \
            tuple(cmd for cmd in space.space_commands(after) if not isinstance(cmd, c.EndTurn))
        out.append(FlightEnd(space.format_hex(state, fly.path[-1]), fly, turned, then))
    return tuple(out)


def describe_flight_end(end: FlightEnd, state: State) -> str:
    """One line of ``legal``: the hex, its flight and what it costs, and the actions there (payments
    counted, outposts named)."""
    board = state.board
    kinds: dict[str, tuple[int, set[int]]] = {}
    for cmd in end.then:
        if isinstance(cmd, c.Colonize):
            key = "colonize"
        elif isinstance(cmd, c.Decline):
            key = "decline (explorer bonus)"
        elif isinstance(cmd, c.Build):
            key = f"build station {cmd.card}"
        elif isinstance(cmd, c.CompleteMission):
            key = f"mission {cmd.card}" + (f" at {cmd.hub}" if cmd.hub else "")
        else:
            key = notation_format(cmd, board)
        ways, posts = kinds.get(key, (0, set()))
        outpost = getattr(cmd, "outpost", 0)
        kinds[key] = (ways + (outpost == 0), posts | ({outpost} if outpost else set()))
    parts = []
    for key, (ways, posts) in kinds.items():
        part = key + (f" ({ways} ways to pay)" if ways > 1 else "")
        if posts:
            part += " + outpost " + "/".join(str(o) for o in sorted(posts))
        parts.append(part)
    what = "; ".join(parts) if parts else "nothing but ending the turn"
    return (f"{end.hex}: {notation_format(end.fly, board)} ({space.describe_cost(state, end.fly)})"
            + (" -> turns the planet" if end.turns_planet else "") + f" -> {what}")


def flight_cost(state: State, fly: c.Fly) -> dict[str, Any]:
    """A flight's cost as data (``legal --json``): range used and held, range bought and its fuel, the portals."""
    mat = state.mat(state.current)
    base = space.ship_range(state, mat) - (1 if fly.portal else 0)
    used = len(fly.path) - 1
    return {"range": used, "ship_range": base, "bought": max(0, used - base), "fuel": space.fuel_for(state, mat, fly),
            "portal": fly.portal or None}


def form_data(state: State) -> dict[str, Any]:
    """Where the legal commands are too many to list (the resource exchanges): what a program can act
    on — every other command listed (``listed``, when at most LIMIT), and each form with its bounds as
    data (``form_bounds``)."""
    if phase(state) not in PLAYER_PHASES or legal_commands(state) is not None:
        return {}
    board = state.board if state.placement else None
    mat = state.mats[state.actor]
    others = phase_commands(state) + (anytime_commands(state, False) if phase(state) in ANYTIME else [])
    n = state.cset.number
    bounds: list[dict[str, Any]] = []
    if phase(state) in ANYTIME:
        bounds = [
            {"form": "exchange COLOUR COLUMN ... for fuel F bucks B", "rule": "003 9.2 d.1",
             "cubes": {col: dict(zip(("I", "II", "III"), mat.storage[i])) for i, col in enumerate(COLOURS)},
             "column_values": dict(zip(("I", "II", "III"), n("mat.storage.values"))),
             "value_per_unit": n("mat.exchange.value_per_unit"),
             "fuel_plus_bucks": "the cubes' total value // value_per_unit", "track_maximum": n("mat.track.maximum"),
             "count": resource_exchange_count(state)},
            {"form": "exchange fuel F bucks B for COLOUR COLUMN", "rule": "003 9.2 d.1", "fuel": mat.fuel,
             "bucks": mat.bucks, "fuel_plus_bucks": 2, "placed": "under the pyramid rule (7.0)"},
        ]
    return {"listed": [notation_format(x, board) for x in others] if len(others) <= LIMIT else None,
            "form_bounds": bounds}


def legal_details(state: State) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``legal``'s extra: where the commands are not listed one by one, the others and the forms' bounds
    as data (``form_data``); for a flight (003 9.2 B II), the reachable hexes, each flight's cost and the
    actions possible there. A hex is its board label (``hex``), axial ``q``/``r`` beside it."""
    forms = form_data(state)
    ends = flight_ends(state)
    if not ends:
        return forms, ()
    board = state.board
    fields = {**forms, "flight_ends": [
        {"hex": e.hex, "q": e.fly.path[-1].q, "r": e.fly.path[-1].r, "fly": notation_format(e.fly, board),
         "destination": f"fly {e.hex}", "cost": flight_cost(state, e.fly), "turns_planet": e.turns_planet,
         "then": [notation_format(x, board) for x in e.then]} for e in ends]}
    lines = (f"reachable hexes ({len(ends)}), what each flight costs and what can be done there (003 9.2 B II; "
             "'fly HEX' alone takes the cheapest path):",
             *(f"  {describe_flight_end(e, state)}" for e in ends))
    return fields, lines


def legal_commands(state: State) -> tuple[Command, ...] | None:
    ph = phase(state)
    if ph == "over":
        return ()
    if ph in CHANCE_PHASES:
        return None
    out = phase_commands(state)
    if ph in ANYTIME:
        if resource_exchange_count(state) > LIMIT:
            return None
        out.extend(anytime_commands(state, True))
    if len(out) > LIMIT:
        return None
    return tuple(out)


def command_forms(state: State) -> tuple[str, ...]:
    """What a player may type when the legal commands are too many to list."""
    ph = phase(state)
    if ph not in PLAYER_PHASES:
        return ()
    forms = [f"{len(phase_commands(state))} command(s) of this phase: " + describe_phase(state)]
    board = state.board if state.placement else None
    forms.extend(f"  {notation_format(cmd, board)}" for cmd in phase_commands(state)[:LIMIT])
    if ph in ANYTIME:
        mat = state.mats[state.actor]
        forms.append(
            f"exchange COLOUR COLUMN ... for fuel F bucks B: any of your {mat.resources} resources, "
            "F + B = their total value // 2 (003 9.2 d.1)"
        )
        forms.append("exchange fuel F bucks B for COLOUR COLUMN: F + B = 2, the cube placed under the pyramid rule")
        forms.append("upgrade-drive: 3 fuel, a common drive from 1 to 2")
    return tuple(forms)


def chance_forms(state: State) -> tuple[str, ...]:
    """The chance command a table types now (entered chance), its format and an example. Only what the
    table sees is named: which cards are in the deck or which hubs were put back unseen is not."""
    ph = phase(state)
    who = state.current
    cards = f"{min(state.cset.progress_cards)}-{max(state.cset.progress_cards)}"
    if ph == "start-card":
        starts = f"{min(state.cset.start_cards)}-{max(state.cset.start_cards)}"
        return (f"start-card N: the start card {state.players[state.dealt]} receives, N one of {starts}; e.g. start-card 2",)
    if ph in ("deal", "card"):
        taker = state.players[state.dealt] if ph == "deal" and state.dealt < len(state.players) else who
        return (f"card N: the progress card {taker} draws, N one of {cards}; e.g. card 17",)
    if ph == "first-player":
        return (f"first PLAYER: the starting player, one of {', '.join(state.players)}; e.g. first {state.players[0]}",)
    if ph in ("bridge", "refill"):
        bag = ", ".join(f"{col} {k}" for col, k in zip(COLOURS, state.bag) if k)
        faces = ", ".join(dict.fromkeys(state.cset.number("dice.action_dice.faces")))
        return (f"roll COLOUR FACE: the die drawn from the bag (in the bag: {bag}) and its face ({faces}); "
                f"e.g. roll {next(col for col, k in zip(COLOURS, state.bag) if k)} 3",)
    if ph == "hub":
        unbuilt = [h for h in state.cset.number("dice.hubs.letters") if h not in state.hubs_built]
        return (f"hub X: the commercial hub turned for game turn {state.turn + 1}, X one of {', '.join(unbuilt)} "
                f"(not built yet); e.g. hub {unbuilt[0]}",)
    if ph == "tiles":
        return ("tiles L0 L0 L0 L0 L0 L0: per position clockwise from the top, an outer tile's letter A-F and its "
                "turn 0-5; e.g. tiles A0 C3 B1 F5 D2 E4",)
    if ph == "reveal":
        where = space.format_hex(state, state.revealing) if state.revealing is not None else "the ship's hex"
        return (f"planet N: the planet turned face up at {where}, N a planet of the set not seen yet; e.g. planet 12",)
    return ()


def notation_format(cmd: Command, board: Any = None) -> str:
    from .notation import format as fmt

    return fmt(cmd, board)
