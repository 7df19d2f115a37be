"""Solarius Mission in space (003 9.2 B II): the flight, then at most one of settling a planet,
building a space station or completing a mission, with an outpost where eligible; hub bonuses.

The geometry (hexes, neighbours, tiles, portals, hub hexes) is board.py's; this module decides
the commands, lists the legal ones and helps the random player. Readings: docs/rules/solarius-mission.md.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..errors import IllegalCommand
from ..game import Command, Event
from ..words import quoted
from . import commands as c
from . import effects, text
from . import events as ev
from .board import Hex, check_path, distance, moves, neighbours, reach
from .board import format_hex as _format_hex
from .components import COLOURS, Effect
from .state import Mat, State, acting, describe_phase, fold, hub_bonus_due, phase

COLONIES = 12  # 003 2.5: "twelve colonies"


def _need(ok: bool, reason: str) -> None:
    if not ok:
        raise IllegalCommand(reason)


def _phase_is(state: State, *phases: str, what: str) -> str:
    ph = phase(state)
    if ph not in phases:
        raise IllegalCommand(f"{what} is not possible now: {describe_phase(state)}")
    return ph


# -- the map as the rules see it ------------------------------------------------------------------------


def figure_at(state: State, hex_: Hex) -> Any:
    return state.figure_at(hex_)


def planet_at(state: State, hex_: Hex) -> int | None:
    """The planet on a hex: its id, -1 face down, None without a planet."""
    return state.planet_at(hex_)


def format_hex(state: State, hex_: Hex) -> str:
    return _format_hex(hex_, state.board)


def hub_hexes(state: State) -> dict[Hex, str]:
    """Every tile's hub space (built or not: reading 9), by hex -> tile letter."""
    board = state.board
    return {h: board.tile(h) for h in board.hub_hexes}


def is_empty_space(state: State, hex_: Hex) -> bool:
    """003 9.2 B II.2/II.3: an empty hexagon: "neither containing player figures, nor a planet, nor a
    portal" (nor hub, home). A planet space not used at this player count (4.0 "these two spaces are
    not occupied") holds no planet, so it is empty (reading F8); a used one always holds its planet or,
    once colonized, a colony."""
    return state.board.kind(hex_) in ("empty", "planet") and planet_at(state, hex_) is None and figure_at(state, hex_) is None


def why_not_end(state: State, player: str, hex_: Hex) -> str | None:
    """003 9.2 B II: a flight may not end on another player's figure or ship, nor on a hub."""
    f = figure_at(state, hex_)
    if f is not None and f.player != player:
        return f"{format_hex(state, hex_)} holds {f.player}'s {f.kind} ({text.END_OF_FLIGHT})"
    for other, ship in zip(state.players, state.ships):
        if other != player and ship == hex_:
            return f"{format_hex(state, hex_)} holds {other}'s space ship ({text.END_OF_FLIGHT})"
    if hex_ in hub_hexes(state):
        return f"{format_hex(state, hex_)} is the commercial hub space of tile {hub_hexes(state)[hex_]} (reading 9; {text.END_OF_FLIGHT})"
    return None


def permanent_range(state: State, mat: Mat) -> int:
    return sum(e.amount for cid in mat.developments for e in state.cset.card(cid).permanent if e.kind == "range")


def ship_range(state: State, mat: Mat) -> int:
    """003 9.2 B II: the sum of the drives (the own drive is 1) plus developments' range."""
    return state.cset.number("mat.drives.own") + sum(mat.drives) + permanent_range(state, mat)


def portal_slot(mat: Mat, portal: str) -> int:
    """The drive that pays for the portals: a 2 flipped, or a 1 returned (never the own drive)."""
    if portal == "flip":
        _need(2 in mat.drives, f"you have no drive of value 2 to flip ({text.PORTAL_FLIP})")
        return mat.drives.index(2)
    _need(portal == "return", "portals are activated with 'flip' (a 2-drive to 1) or 'return' (a 1-drive to the pool)")
    _need(bool(mat.drives), f"only a common drive pays for the portals ({text.PORTAL_DRIVE}; {text.OWN_DRIVE_STAYS})")
    _need(1 in mat.drives, f"you have no common drive of value 1 to return ({text.PORTAL_FLIP})")
    return len(mat.drives) - 1 - mat.drives[::-1].index(1)


# -- the flight -----------------------------------------------------------------------------------------------


def path_cost(state: State, path: tuple[Hex, ...], jumps: tuple[int, ...], portals: bool) -> int:
    """The range a path uses (one per step or jump), checked step by step: the first bad step's reason
    (board.check_path), and a jump is written as one ('P')."""
    board = state.board
    why = check_path(board, (), path, len(path), portals)
    if why is not None:
        hint = f" ({text.JUMP})" if "portal" in why else f" ({text.RANGE})"
        raise IllegalCommand(why + hint)
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        jump = distance(a, b) != 1
        if jump != (i in jumps):
            where = f"step {i} ({format_hex(state, a)} -> {format_hex(state, b)})"
            raise IllegalCommand(f"{where} is a jump between portals: write P before {format_hex(state, b)}" if jump
                                 else f"{where} is a step to an adjacent hex: P marks a jump between portals only")
    return len(path) - 1


def flight_events(state: State, cmd: c.Fly) -> list[Event]:
    player = state.current
    mat = state.mat(player)
    i = state.index(player)
    _need(len(cmd.path) >= 1, "a flight names the ship's hex first")
    _need(cmd.path[0] == state.ships[i], f"your ship is at {format_hex(state, state.ships[i])}, not {format_hex(state, cmd.path[0])}")
    _need(all(0 < j < len(cmd.path) for j in cmd.jumps), "a jump leads to a hex of the path")
    out: list[Event] = [ev.SupplementaryDone(player, "fly")]
    base = ship_range(state, mat)
    if cmd.portal:
        slot = portal_slot(mat, cmd.portal)
        out.append(ev.PortalsActivated(player, slot, cmd.portal == "return"))
        base -= 1
    cost = path_cost(state, cmd.path, cmd.jumps, bool(cmd.portal))
    bought = max(0, cost - base)
    per = state.cset.number("mat.exchange.fuel_per_range")
    _need(mat.fuel >= per * bought,
          f"the path uses {cost} range, your ship has {base}: {bought} more cost {per * bought} fuel, you have {mat.fuel} ({text.EXTRA_RANGE})")
    why = why_not_end(state, player, cmd.path[-1])
    _need(why is None, f"the flight may not end there: {why}")
    if bought:
        out.append(ev.TrackChanged(player, -per * bought, 0, "extra range"))
    out.append(ev.ShipFlown(player, tuple(cmd.path), tuple(sorted(cmd.jumps)), cost, bought))
    if state.planet_at(cmd.path[-1]) == -1:
        # 003 9.2 B II.1 "If the planet is still concealed (on its back), the player turns it ... This is mandatory!"
        out.append(ev.PlanetTurned(player, cmd.path[-1]))
    return out


def decide_fly(state: State, cmd: c.Fly) -> list[Event]:
    _phase_is(state, "supplementary", what="space flight")
    _need(state.has_map, f"the component set {quoted(state.cset.name)} has no map: this game is played without flight")
    if len(cmd.path) == 1 and cmd.path[0] != state.ships[state.actor]:
        cmd = cheapest_flight(state, cmd.path[0], cmd.portal)
    return flight_events(state, cmd)


PORTAL_ORDER = ("", "flip", "return")  # no portal first; a flip keeps the drive on the mat, so before a return


def portal_options(mat: Mat) -> tuple[str, ...]:
    """The ways to fly: without the portals, and with them paid by each kind of drive the mat holds (F1)."""
    return tuple(p for p in PORTAL_ORDER if p == "" or (p == "flip" and 2 in mat.drives) or (p == "return" and 1 in mat.drives))


def fuel_for(state: State, mat: Mat, fly: c.Fly) -> int:
    """The fuel a flight buys range with (F2): 2 per point of the path beyond the ship's range."""
    base = ship_range(state, mat) - (1 if fly.portal else 0)
    return state.cset.number("mat.exchange.fuel_per_range") * max(0, len(fly.path) - 1 - base)


def cheapest_flight(state: State, dest: Hex, portal: str = "") -> c.Fly:
    """A flight named by its destination alone (``fly H14``): the cheapest path there — the least fuel,
    then without activating the portals, then the portals paid by a flip before a return (PORTAL_ORDER);
    among equally short paths the one ``reach_paths`` walks back (at each step back the least hex by q,
    then r). ``portal`` given: only that way. Refused with the reason when no flight ends there."""
    mat = state.mat(state.current)
    start = state.ships[state.actor]
    per = state.cset.number("mat.exchange.fuel_per_range")
    why = why_not_end(state, state.current, dest)
    _need(why is None, f"the flight may not end there: {why}")
    best: tuple[tuple[int, int], c.Fly] | None = None
    for portal_ in (portal,) if portal else portal_options(mat):
        base = ship_range(state, mat) - (1 if portal_ else 0)
        found = path_to(state, start, dest, base + mat.fuel // per, bool(portal_))
        if found is None:
            continue
        fly = c.Fly(found[0], found[1], portal_)
        key = (fuel_for(state, mat, fly), PORTAL_ORDER.index(portal_))
        if best is None or key < best[0]:
            best = (key, fly)
    _need(best is not None, f"your ship cannot reach {format_hex(state, dest)}: its range and {mat.fuel} fuel "
                            f"({text.EXTRA_RANGE}) do not reach that far, with or without the portals")
    assert best is not None
    return best[1]


def path_to(state: State, start: Hex, end: Hex, most: int, portals: bool) -> tuple[tuple[Hex, ...], tuple[int, ...]] | None:
    """A cheapest path from ``start`` to ``end`` within ``most`` range (board.reach), walked back from the end."""
    board = state.board
    cost = reach(board, (), start, most, portals)
    if end not in cost:
        return None
    return _walk_back(board, cost, start, end, portals)


def _walk_back(board: Any, cost: dict[Hex, int], start: Hex, end: Hex, portals: bool) -> tuple[tuple[Hex, ...], tuple[int, ...]]:
    path = [end]
    while path[-1] != start:
        h = path[-1]
        path.append(min(n for n in moves(board, h, portals) if cost.get(n, -1) == cost[h] - 1))
    path.reverse()
    return tuple(path), tuple(i for i in range(1, len(path)) if distance(path[i - 1], path[i]) != 1)


def describe_cost(state: State, fly: c.Fly) -> str:
    """What a flight costs before it is flown (``legal``): the range it uses, the fuel for range beyond the
    drives (F2) and the drive given up for the portals (F1)."""
    mat = state.mat(state.current)
    used = len(fly.path) - 1
    base = ship_range(state, mat) - (1 if fly.portal else 0)
    words = [f"range {used} of {base}"]
    fuel = fuel_for(state, mat, fly)
    if fuel:
        words.append(f"{used - base} bought for {fuel} fuel")
    if fly.portal == "flip":
        words.append("portals: a drive flipped from 2 to 1")
    elif fly.portal == "return":
        words.append("portals: a drive of 1 returned to the pool")
    return ", ".join(words)


# -- outposts (II.4) ----------------------------------------------------------------------------------------


def outpost_events(state: State, player: str, hex_: Hex, kind: str, outpost: int, now: State | None = None) -> list[Event]:
    """Checked on ``state`` (before the figure is placed); the outpost joins the figure placed in ``now``
    and its bonus follows at once. [] for no outpost."""
    if not outpost:
        return []
    board = state.board
    tile = board.tile(hex_)
    cset = state.cset
    mat = state.mat(player)
    _need(outpost in cset.outposts, f"there is no outpost {outpost} ({', '.join(map(str, sorted(cset.outposts)))})")
    marker = cset.outposts[outpost]
    _need(outpost not in mat.outposts, f"your outpost {outpost} is built already")
    _need(marker.symbol == kind, f"outpost {outpost} shows the {marker.symbol} symbol, not the {kind}")
    _need(tile not in ("centre", "", None), f"outposts are built on the outer tiles A to F only ({text.OUTPOST_TILE})")
    mine = [f for f in state.figures if f.player == player and f.outpost and board.tile(f.hex) == tile]
    _need(not mine, f"you have an outpost on tile {tile} already ({text.OUTPOST_TILE})")
    first = not any(f.kind == kind and board.tile(f.hex) == tile for f in state.figures)
    _need(first, f"your {kind} is not the first {kind} on tile {tile} ({text.OUTPOST_FIRST})")
    symbols = [cset.outposts[o].symbol for o in mat.outposts]
    if kind in symbols:
        missing = [s for s in ("colony", "station", "mission") if s not in symbols]
        _need(not missing, f"a second {kind} outpost needs one outpost of each kind first; missing: {', '.join(missing)} ({text.OUTPOST_ORDER})")
    out: list[Event] = [ev.OutpostBuilt(player, hex_, outpost)]
    out.extend(effects.apply(fold(now or state, out), player, marker.bonus, f"outpost {outpost}"))
    return out


# -- settling a planet (II.1) -------------------------------------------------------------------------------


def _ship(state: State) -> Hex:
    return state.ships[state.actor]


def decide_colonize(state: State, cmd: c.Colonize) -> list[Event]:
    _phase_is(state, "space", "explore", what="settling a planet")
    player = state.current
    hex_ = _ship(state)
    planet = planet_at(state, hex_)
    _need(planet is not None and planet >= 0, f"there is no planet on {format_hex(state, hex_)} ({text.SETTLE_PLANET})")
    _need(figure_at(state, hex_) is None, f"{format_hex(state, hex_)} holds a figure already")
    colonies = sum(1 for f in state.figures if f.player == player and f.kind == "colony")
    _need(colonies < COLONIES, f"all your colonies are in space ({text.COLONIES})")
    assert planet is not None
    out: list[Event] = [ev.SpaceActionDone(player, "colony"), ev.PlanetColonized(player, hex_, planet)]
    out.extend(outpost_events(state, player, hex_, "colony", cmd.outpost, fold(state, out)))
    return out


def decide_decline(state: State, cmd: c.Decline) -> list[Event]:
    _phase_is(state, "explore", what=f"declining a planet (only its revealer, at once: {text.EXPLORER})")
    player = state.current
    hex_ = _ship(state)
    planet = planet_at(state, hex_)
    assert planet is not None and planet >= 0
    vp = state.cset.planets[planet].vp
    out: list[Event] = [ev.SpaceActionDone(player, "decline"), ev.PlanetDeclined(player, hex_, planet, vp)]
    out.extend(effects.apply(fold(state, out), player, (Effect("resources", colour="any", amount=vp),), "explorer bonus"))
    return out


# -- payments ---------------------------------------------------------------------------------------------


def _values(state: State) -> tuple[int, ...]:
    return tuple(state.cset.number("mat.storage.values"))


def cubes_on_mat(mat: Mat, cubes: tuple[tuple[str, int], ...]) -> None:
    rows = [list(r) for r in mat.storage]
    for colour, column in cubes:
        _need(colour in COLOURS and 1 <= column <= 3, f"{colour} {column} is not a storage cell")
        rows[COLOURS.index(colour)][column - 1] -= 1
        _need(rows[COLOURS.index(colour)][column - 1] >= 0, f"you have not that many {colour} resources in column {'I' * column if column < 3 else 'III'}")


def value_by_colour(state: State, cubes: tuple[tuple[str, int], ...]) -> dict[str, int]:
    values = _values(state)
    out: dict[str, int] = {}
    for colour, column in cubes:
        out[colour] = out.get(colour, 0) + values[column - 1]
    return out


def next_slot(state: State, mat: Mat) -> tuple[int, int] | None:
    slots = state.cset.number("mat.stations.slot_costs")
    if len(mat.stations) >= len(slots):
        return None
    a, b = slots[len(mat.stations)]
    return a, b


def check_station_payment(state: State, mat: Mat, card: int, cubes: tuple[tuple[str, int], ...]) -> None:
    """003 9.2 B II.2: the next slot's two values, in the card's two colours, the player choosing which
    colour pays which value; exact (reading 5)."""
    slot = next_slot(state, mat)
    assert slot is not None
    colours = state.cset.station_cards[card].colours
    cubes_on_mat(mat, cubes)
    for colour, _ in cubes:
        _need(colour in colours, f"station card {card} is paid in {' and '.join(colours)}, not {colour}")
    paid = value_by_colour(state, cubes)
    a, b = slot
    got = (paid.get(colours[0], 0), paid.get(colours[1], 0))
    _need(got in ((a, b), (b, a)),
          f"your station {len(mat.stations) + 1} costs values {a} and {b} in {colours[0]} and {colours[1]} (either way round), "
          f"you pay {colours[0]} {got[0]} and {colours[1]} {got[1]} ({text.STATION_ORDER})")


def check_mission_payment(state: State, card: int, cubes: tuple[tuple[str, int], ...]) -> None:
    """The card's cost terms: ``5`` a total value of the colour, ``2 II`` cubes of a value (exact, reading 5)."""
    terms = state.cset.card(card).cost
    values = _values(state)
    want = " + ".join(t.text() for t in terms)
    bad = f"mission {card} costs {want} ({text.MISSION_PAY})"
    for colour in COLOURS:
        mine = sorted(values[column - 1] for col, column in cubes if col == colour)
        fixed = sorted(v for t in terms if t.colour == colour for v in t.cubes)
        total = sum(t.total for t in terms if t.colour == colour)
        rest = list(mine)
        for v in fixed:
            _need(v in rest, bad)
            rest.remove(v)
        _need(sum(rest) == total, bad)


def ways_to_pay(mat: Mat, colour: str, value: int, values: tuple[int, ...]) -> list[tuple[tuple[str, int], ...]]:
    """Every multiset of the colour's cubes of exactly this total value (columns ascending)."""
    row = mat.storage[COLOURS.index(colour)]
    out = []
    for counts in itertools.product(*(range(n + 1) for n in row)):
        if sum(k * values[i] for i, k in enumerate(counts)) == value:
            out.append(tuple((colour, i + 1) for i, k in enumerate(counts) for _ in range(k)))
    return out


def station_payments(state: State, mat: Mat, card: int) -> list[tuple[tuple[str, int], ...]]:
    slot = next_slot(state, mat)
    if slot is None:
        return []
    x, y = state.cset.station_cards[card].colours
    values = _values(state)
    out = []
    for a, b in {slot, (slot[1], slot[0])}:
        for px in ways_to_pay(mat, x, a, values):
            for py in ways_to_pay(mat, y, b, values):
                out.append(tuple(sorted(px + py, key=lambda cube: (COLOURS.index(cube[0]), cube[1]))))
    return sorted(set(out))


def mission_payments(state: State, mat: Mat, card: int) -> list[tuple[tuple[str, int], ...]]:
    terms = state.cset.card(card).cost
    values = _values(state)
    per_colour = []
    for colour in COLOURS:
        mine = [t for t in terms if t.colour == colour]
        if not mine:
            continue
        fixed = tuple((colour, v) for t in mine for v in t.cubes)  # value v is column v
        row = list(mat.storage[COLOURS.index(colour)])
        ok = True
        for _, v in fixed:
            row[v - 1] -= 1
            ok = ok and row[v - 1] >= 0
        if not ok:
            return []
        total = sum(t.total for t in mine)
        rests = ways_to_pay(Mat(0, 0, storage=tuple(tuple(row) if i == COLOURS.index(colour) else (0, 0, 0) for i in range(4))),  # type: ignore[misc]
                            colour, total, values)
        per_colour.append([tuple(sorted(fixed + r, key=lambda cube: cube[1])) for r in rests])
        del ok
    return [tuple(x for part in combo for x in part) for combo in itertools.product(*per_colour)]


# -- building a space station (II.2) -----------------------------------------------------------------------


def decide_build(state: State, cmd: c.Build) -> list[Event]:
    _phase_is(state, "space", what="building a space station")
    player = state.current
    mat = state.mat(player)
    hex_ = _ship(state)
    _need(is_empty_space(state, hex_), f"{format_hex(state, hex_)} is not an empty hexagon ({text.STATION_HEX})")
    _need(next_slot(state, mat) is not None, f"all four of your space stations are built ({text.STATION_FOUR})")
    _need(cmd.card in state.cset.station_cards, f"there is no station card {cmd.card}")
    _need(cmd.card not in mat.stations, f"station card {cmd.card} is built already")
    check_station_payment(state, mat, cmd.card, cmd.cubes)
    out: list[Event] = [ev.SpaceActionDone(player, "station"), ev.ResourcesRemoved(player, cmd.cubes),
                        ev.StationBuilt(player, hex_, cmd.card)]
    s = fold(state, out)
    card = state.cset.station_cards[cmd.card]
    new = effects.apply(s, player, card.immediate, f"station {cmd.card} (immediate)")
    s = fold(s, new)
    out.extend(new)
    # 003 9.2 B II.2 "Afterwards the permanent effects of all his space stations built earlier are triggered,
    # in any order, once." (reading 7: the option station_effect says whether the new one joins them)
    earlier = mat.stations if state.station_effect == "earlier" else (*mat.stations, cmd.card)
    for sid in earlier:
        new = effects.apply(s, player, state.cset.station_cards[sid].permanent, f"station {sid} (permanent)")
        s = fold(s, new)
        out.extend(new)
    out.extend(outpost_events(state, player, hex_, "station", cmd.outpost, s))
    return out


# -- completing a mission (II.3) ----------------------------------------------------------------------------


def hubs_next_to(state: State, hex_: Hex) -> list[str]:
    return sorted(letter for h, letter in hub_hexes(state).items() if h in neighbours(hex_))


def surrounded_hubs(state: State, player: str, hex_: Hex) -> list[str]:
    """003 9.2 B II.3: all hexes next to the hub occupied; the ship's empty hex next to another
    player's figure that touches the hub or is joined to it by a chain of figures."""
    out = []
    occupied = {f.hex for f in state.figures}
    for h, letter in hub_hexes(state).items():
        around = [n for n in neighbours(h) if n in state.board]
        if any(is_empty_space(state, n) for n in around):
            continue
        chain = {n for n in around if n in occupied}
        frontier = list(chain)
        while frontier:
            nxt = []
            for x in frontier:
                for n in neighbours(x):
                    if n in occupied and n not in chain:
                        chain.add(n)
                        nxt.append(n)
            frontier = nxt
        if any(f.hex in chain and f.player != player and f.hex in neighbours(hex_) for f in state.figures):
            out.append(letter)
    return sorted(out)


def decide_mission(state: State, cmd: c.CompleteMission) -> list[Event]:
    _phase_is(state, "space", what="completing a mission")
    player = state.current
    mat = state.mat(player)
    hex_ = _ship(state)
    _need(cmd.card in mat.missions, f"card {cmd.card} is not one of your open missions {list(mat.missions)}")
    _need(is_empty_space(state, hex_), f"{format_hex(state, hex_)} is not an empty hexagon (no figure, planet or portal)")
    near = hubs_next_to(state, hex_)
    surrounded = False
    if not near:
        near = surrounded_hubs(state, player, hex_)
        surrounded = True
    _need(bool(near), f"{format_hex(state, hex_)} is not next to a commercial hub space ({text.MISSION_HEX})")
    hub = cmd.hub or (near[0] if len(near) == 1 else "")
    _need(bool(hub), f"{format_hex(state, hex_)} is next to hubs {' and '.join(near)}: name one ('at {near[0]}')")
    _need(hub in near, f"{format_hex(state, hex_)} is not next to the hub space of tile {hub} (next to {', '.join(near)})")
    check_mission_payment(state, cmd.card, cmd.cubes)
    cubes_on_mat(mat, cmd.cubes)
    bonus = ""
    if hub not in mat.hub_missions and not surrounded:
        bonus = "now" if hub in state.hubs_built else "later"
    out: list[Event] = [ev.SpaceActionDone(player, "mission")]
    if cmd.cubes:
        out.append(ev.ResourcesRemoved(player, cmd.cubes))
    out.append(ev.MissionCompleted(player, hex_, cmd.card, hub, bonus))
    out.extend(outpost_events(state, player, hex_, "mission", cmd.outpost, fold(state, out)))
    return out


def decide_hub_bonus(state: State, cmd: c.HubBonus) -> list[Event]:
    _phase_is(state, "hub-bonus", what="taking a hub bonus")
    due = hub_bonus_due(state)
    assert due is not None
    player, hub = due
    outposts = state.cset.outposts
    _need(cmd.outpost in outposts, f"the hub bonus is one of the outpost bonuses {sorted(outposts)} ({text.HUB_BONUS})")
    out: list[Event] = [ev.HubBonusTaken(player, hub, cmd.outpost)]
    out.extend(effects.apply(fold(state, out), player, outposts[cmd.outpost].bonus, f"hub {hub} bonus"))
    return out


# -- legal commands -----------------------------------------------------------------------------------------


def flights(state: State) -> list[c.Fly]:
    """One flight per reachable end hex and way to pay the portals: a cheapest path (reach)."""
    if not state.has_map:
        return []
    player = state.current
    mat = state.mat(player)
    i = state.index(player)
    start = state.ships[i]
    options = [""]
    if 2 in mat.drives:
        options.append("flip")
    if 1 in mat.drives:
        options.append("return")
    out = []
    seen: set[Hex] = set()
    for portal in options:
        base = ship_range(state, mat) - (1 if portal else 0)
        most = base + mat.fuel // state.cset.number("mat.exchange.fuel_per_range")
        paths = reach_paths(state, start, most, bool(portal))
        for end, (path, jumps) in sorted(paths.items(), key=lambda kv: (len(kv[1][0]), kv[0].q, kv[0].r)):
            if why_not_end(state, player, end) is not None:
                continue
            if portal and end in seen:
                continue  # the same hex reached without giving up a drive
            out.append(c.Fly(path, jumps, portal))
        if not portal:
            seen = set(paths)
    return out


def reach_paths(state: State, start: Hex, most: int, portals: bool) -> dict[Hex, tuple[tuple[Hex, ...], tuple[int, ...]]]:
    """A cheapest path to every hex within ``most`` (board.reach), walked back from each end."""
    board = state.board
    cost = reach(board, (), start, most, portals)
    return {end: _walk_back(board, cost, start, end, portals) for end in cost}


def space_commands(state: State) -> list[Command]:
    """After the flight: what is possible on the ship's hex."""
    ph = phase(state)
    player = state.current
    mat = state.mat(player)
    hex_ = _ship(state)
    out: list[Command] = []
    planet = planet_at(state, hex_)
    if planet is not None and planet >= 0 and figure_at(state, hex_) is None:
        out.extend(c.Colonize(o) for o in (0, *eligible_outposts(state, player, hex_, "colony")))
    if ph == "explore":
        out.append(c.Decline())
        return out
    if is_empty_space(state, hex_):
        if next_slot(state, mat) is not None:
            posts = (0, *eligible_outposts(state, player, hex_, "station"))
            for card in sorted(state.cset.station_cards):
                if card in mat.stations:
                    continue
                for pay in station_payments(state, mat, card):
                    out.extend(c.Build(card, pay, o) for o in posts)
        near = hubs_next_to(state, hex_) or surrounded_hubs(state, player, hex_)
        if near:
            posts = (0, *eligible_outposts(state, player, hex_, "mission"))
            for card in mat.missions:
                for pay in mission_payments(state, mat, card):
                    for hub in near:
                        out.extend(c.CompleteMission(card, pay, hub if len(near) > 1 else "", o) for o in posts)
    out.append(c.EndTurn())
    return out


def eligible_outposts(state: State, player: str, hex_: Hex, kind: str) -> list[int]:
    out = []
    for o in sorted(state.cset.outposts):
        try:
            outpost_events(state, player, hex_, kind, o)
        except IllegalCommand:
            continue
        out.append(o)
    return out


def hub_bonus_commands(state: State) -> list[Command]:
    return [c.HubBonus(o) for o in sorted(state.cset.outposts)]


def effect_player(state: State) -> str:
    return acting(state)


# -- the random player -----------------------------------------------------------------------------------


def sample_flight(state: State, rng: Any) -> c.Fly | None:
    """A flight to a hex where something can be done, mostly; now and then anywhere."""
    options = flights(state)
    if not options:
        return None
    player = state.current
    mat = state.mat(player)
    can_station = next_slot(state, mat) is not None and any(
        station_payments(state, mat, card) for card in state.cset.station_cards if card not in mat.stations)
    can_mission = any(mission_payments(state, mat, card) for card in mat.missions)
    planets, stations, missions = [], [], []
    for fly in options:
        end = fly.path[-1]
        planet = planet_at(state, end)
        if planet is not None and figure_at(state, end) is None:
            planets.append(fly)
        elif is_empty_space(state, end):
            if can_mission and (hubs_next_to(state, end) or surrounded_hubs(state, player, end)):
                missions.append(fly)
            if can_station:
                stations.append(fly)
    # a mission or a station is rarer than a planet: taken whenever one can be paid
    for pool in (missions, stations, planets):
        cheap = [f for f in pool if not f.portal] or pool
        if cheap and rng.random() < 0.85:
            pool = cheap if rng.random() < 0.7 else pool
            return pool[rng.randrange(len(pool))]
    if can_mission and rng.random() < 0.7:
        # no hub within reach: towards the nearest hub space, without buying range
        hubs = list(hub_hexes(state))
        free = [f for f in options if not f.portal and len(f.path) - 1 <= ship_range(state, mat)]
        if free and hubs:
            return min(free, key=lambda f: (min(distance(f.path[-1], h) for h in hubs), rng.random()))
    if rng.random() < 0.1:
        return options[rng.randrange(len(options))]
    return None


def sample_space(commands: list[Command], rng: Any) -> Command:
    """After the flight: mostly act, with an outpost where one is possible."""
    acts = [m for m in commands if not isinstance(m, c.EndTurn)]
    if not acts or rng.random() < 0.05 and any(isinstance(m, c.EndTurn) for m in commands):
        return c.EndTurn() if any(isinstance(m, c.EndTurn) for m in commands) else commands[rng.randrange(len(commands))]
    posts = [m for m in acts if getattr(m, "outpost", 0)]
    if posts and rng.random() < 0.8:
        return posts[rng.randrange(len(posts))]
    return acts[rng.randrange(len(acts))]


def sample_prepare(state: State, rng: Any) -> Command | None:
    """Before a flight: buy a cube (2 fuel/SpaceBucks) towards an open mission's cost that cannot be
    paid yet, of the value the cost asks where the pyramid allows."""
    from .state import can_place

    mat = state.mat(state.current)
    if not mat.missions or any(mission_payments(state, mat, card) for card in mat.missions):
        return None
    if state.resource_pool < 1 or mat.fuel + mat.bucks < 2:
        return None
    card = mat.missions[rng.randrange(len(mat.missions))]
    values = _values(state)
    for term in state.cset.card(card).cost:
        row = mat.storage[COLOURS.index(term.colour)]
        if term.cubes:
            v = term.cubes[0]
            if row[v - 1] >= len(term.cubes):
                continue
            columns = list(range(v, 0, -1))
        else:
            have = sum(k * values[i] for i, k in enumerate(row))
            if have >= term.total:
                continue
            columns = [col for col in (3, 2, 1) if values[col - 1] <= term.total - have] or [1]
        column = next((col for col in columns if can_place(state, mat, term.colour, col) is None), 0)
        if not column:
            return None
        fuel = min(2, mat.fuel)
        return c.ExchangeForResource(fuel, 2 - fuel, term.colour, column)
    return None


def mission_within_storage(state: State, mat: Mat, card: int) -> bool:
    """The random player's test: the open storage cells can hold the cost of this mission."""
    from .state import open_cells

    values = _values(state)
    for term in state.cset.card(card).cost:
        cells = open_cells(state, mat, term.colour)
        if term.cubes and cells[term.cubes[0] - 1] < len(term.cubes):
            return False
        if sum(k * values[i] for i, k in enumerate(cells)) < term.total + sum(term.cubes):
            return False
    return True
