"""Solarius Mission at the adapters' table (docs/ai.md, "Solarius Mission"): its fixed action
numbering and the commands a position offers there (``bots.py`` binds it for the bots and adapters).

Numbering. An action id is a segment's offset plus a mixed-radix code of the command's fields; the
segments and their ranges are fixed by the component set alone (its cards, dice faces, wheel, hubs,
outposts, planets, storage), so every game with the same set and options numbers alike. A cube
payment or placement is coded by its count per row and column (a *row vector*: column I 0-3, II 0-2,
III 0-1), never by the order the cubes are written in.

Which commands are numbered (a documented canonical subset, complete up to the order of exchanges
and dominated flights):

- every command the game lists for the phase (``legal.phase_commands``) and every anytime command
  but the resource exchanges (``legal.anytime_commands``);
- a resource exchange (003 9.2 d.1) of at most three cubes. A larger exchange is the same as a
  sequence of these: any set of cubes of values 1-3 splits into groups of at most three cubes, each
  of value 2 or more, all but at most one of even value (pair the odd cubes; a value-2 cube alone; a
  leftover 1 joins a group), so the groups give together exactly the fuel and SpaceBucks the whole
  gives (value // 2), and the track's clamp at 10 is the same taken at once or in steps
  (``split_exchange``);
- a flight: one cheapest path per end hex and way to pay the portals (none, flip a 2-drive, return a
  1-drive), as ``space.flights`` finds them, but every way to pay the portals to every end (the
  game's list leaves out a portal flight to a hex reachable without one, which may still save fuel);
  a dearer path to the same hex with the same portal payment costs more fuel for the same end.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import attrs

from ..actions import Codec
from ..game import Command
from . import commands as c
from . import components as comp
from . import legal, loading, rules, space
from .board import Hex
from .components import COLOURS
from .state import CHANCE_PHASES, State, phase

CAPS = (3, 2, 1)  # cubes per storage column I-III of a row (mat.storage.cells)
ROWS = [(a, b, k) for a in range(CAPS[0] + 1) for b in range(CAPS[1] + 1) for k in range(CAPS[2] + 1)]  # 24
ROW_INDEX = {r: i for i, r in enumerate(ROWS)}
PORTALS = ("", "flip", "return")
SINGLES = (c.Fuel, c.Bucks, c.Draw, c.Skip, c.Pass, c.EndTurn, c.UpgradeDrive, c.Close, c.Decline)
HEX_RADIUS = 12  # every hex of a placed board lies within 12 steps of the home planet
MOST_PLACED = 6  # a Resources command places at most 6 cubes (a row holds 6)
MOST_EXCHANGED = 3  # the exchanges numbered: at most three cubes


def row_vectors(cubes: Sequence[tuple[str, int]]) -> tuple[tuple[int, int, int], ...]:
    rows = [[0, 0, 0] for _ in COLOURS]
    for colour, column in cubes:
        rows[COLOURS.index(colour)][column - 1] += 1
    return tuple((r[0], r[1], r[2]) for r in rows)


def cubes_of(rows: Sequence[tuple[int, int, int]], colours: Sequence[str] = COLOURS) -> tuple[tuple[str, int], ...]:
    return tuple((colour, column + 1) for colour, row in zip(colours, rows) for column in range(3)
                 for _ in range(row[column]))


def _vectors(most: int) -> list[tuple[tuple[int, int, int], ...]]:
    """Every storage vector (a row vector per colour) of at most ``most`` cubes, in a fixed order."""
    return [v for v in itertools.product(ROWS, repeat=len(COLOURS)) if sum(map(sum, v)) <= most]


PLACED = _vectors(MOST_PLACED)
PLACED_INDEX = {v: i for i, v in enumerate(PLACED)}
EXCHANGED = [v for v in _vectors(MOST_EXCHANGED) if sum(map(sum, v))]
EXCHANGED_INDEX = {v: i for i, v in enumerate(EXCHANGED)}


@attrs.frozen
class Segment:
    """One command type's ids: ``offset`` .. ``offset + size - 1``; ``radix`` the ranges of its fields."""

    name: str
    offset: int
    radix: tuple[int, ...]

    @property
    def size(self) -> int:
        n = 1
        for r in self.radix:
            n *= r
        return n

    def code(self, digits: Sequence[int]) -> int:
        n = 0
        for d, r in zip(digits, self.radix):
            if not 0 <= d < r:
                raise KeyError(f"{self.name}: field {d} out of its range {r}")
            n = n * r + d
        return self.offset + n

    def digits(self, action: int) -> tuple[int, ...]:
        n = action - self.offset
        out = []
        for r in reversed(self.radix):
            out.append(n % r)
            n //= r
        return tuple(reversed(out))


class MissionCodec(Codec):
    """Solarius Mission's numbering (module docstring). ``legal`` lists ``commands(state)``."""

    def __init__(self, cset: comp.ComponentSet):
        n = cset.number
        self.cards = sorted(cset.progress_cards)
        self.card_index = {cid: i for i, cid in enumerate(self.cards)}
        self.pairs = list(itertools.combinations(self.cards, 2))
        self.pair_index = {p: i for i, p in enumerate(self.pairs)}
        self.faces = sorted(set(n("dice.action_dice.faces")))
        self.wheel = list(n("bridge.wheel.values"))
        low = min(0, min(self.wheel))
        self.bonus_low = low
        self.bonus_span = max(self.wheel) - low + 1
        self.track = n("mat.track.maximum")
        self.ap_most = self.track // n("mat.exchange.bucks_per_action_point")
        self.steps = len(n("mat.tech.faces"))  # at most faces - 1 steps per colour
        self.drives = n("mat.drives.common_slots")
        self.units = n("mat.exchange.units_per_resource")
        self.planets = sorted(cset.planets)
        self.planet_index = {p: i for i, p in enumerate(self.planets)}
        self.hexes = sorted(Hex(q, r) for q in range(-HEX_RADIUS, HEX_RADIUS + 1) for r in range(-HEX_RADIUS, HEX_RADIUS + 1)
                            if max(abs(q), abs(r), abs(q + r)) <= HEX_RADIUS)
        self.hex_index = {h: i for i, h in enumerate(self.hexes)}
        self.outposts = [0, *sorted(cset.outposts)]
        self.outpost_index = {o: i for i, o in enumerate(self.outposts)}
        self.hubs = ["", *n("dice.hubs.letters")]
        self.hub_index = {h: i for i, h in enumerate(self.hubs)}
        self.stations = sorted(cset.station_cards)
        values = n("mat.storage.values")
        slot_values = {v for slot in n("mat.stations.slot_costs") for v in slot}
        # a station's payment: per its colours (in row order), a row vector of one slot value
        self.station_pay: dict[int, tuple[tuple[str, ...], list[tuple[tuple[int, int, int], ...]]]] = {}
        for card in self.stations:
            colours = tuple(sorted(set(cset.station_cards[card].colours), key=COLOURS.index))
            rows = [r for r in ROWS if sum(k * v for k, v in zip(r, values)) in slot_values]
            self.station_pay[card] = (colours, list(itertools.product(rows, repeat=len(colours))))
        # a mission's payment: per the colours of its cost, the row vectors of that colour's value that
        # hold its fixed cubes (space.mission_payments)
        self.mission_pay: dict[int, tuple[tuple[str, ...], list[tuple[tuple[int, int, int], ...]]]] = {}
        for card in self.cards:
            terms = cset.card(card).cost
            colours = tuple(col for col in COLOURS if any(t.colour == col for t in terms))
            per = []
            for col in colours:
                mine = [t for t in terms if t.colour == col]
                fixed = row_vectors([(col, v) for t in mine for v in t.cubes])[COLOURS.index(col)]
                value = sum(t.total for t in mine) + sum(k * v for k, v in zip(fixed, values))
                per.append([r for r in ROWS if sum(k * v for k, v in zip(r, values)) == value
                            and all(a >= b for a, b in zip(r, fixed))])
            self.mission_pay[card] = (colours, list(itertools.product(*per)))
        self.mission_offsets: dict[int, int] = {}
        self.station_offsets: dict[int, int] = {}

        sizes: list[tuple[str, tuple[int, ...]]] = [
            ("single", (len(SINGLES),)),
            ("start", (4, 4, max(1, len(self.pairs)))),
            ("take", (4, len(self.faces), len(self.wheel), 2 + 4 + len(self.cards))),
            ("bonus", (self.bonus_span, self.bonus_span)),
            ("buy-ap", (self.ap_most + 1,)),
            ("resources", (len(PLACED),)),
            ("upgrade", (self.steps,) * 4),
            ("shift", (self.steps,) * 4),
            ("play", (max(1, len(self.cards)), 2)),
            ("discard", (max(1, len(self.cards)),)),
            ("drives", (self.drives + 1,)),
            ("exchange-for", (self.units + 1, 4, 3)),
            ("exchange", (len(EXCHANGED), MOST_EXCHANGED * 3 // 2 + 1)),
            ("settle", (max(1, len(self.planets)),)),
            ("fly", (len(self.hexes), len(PORTALS))),
            ("colonize", (len(self.outposts),)),
            ("hub-bonus", (len(self.outposts),)),
        ]
        self.segments: dict[str, Segment] = {}
        offset = 0
        for name, radix in sizes:
            seg = Segment(name, offset, radix)
            self.segments[name] = seg
            offset += seg.size
        for card in self.stations:
            seg = Segment(f"build:{card}", offset, (max(1, len(self.station_pay[card][1])), len(self.outposts)))
            self.segments[seg.name] = seg
            offset += seg.size
        for card in self.cards:
            seg = Segment(f"mission:{card}", offset, (max(1, len(self.mission_pay[card][1])), len(self.hubs),
                                                      len(self.outposts)))
            self.segments[seg.name] = seg
            offset += seg.size
        self._size = offset
        self._ordered = sorted(self.segments.values(), key=lambda s: s.offset)
        self._pay_index = {
            ("build", card): {p: i for i, p in enumerate(pays)} for card, (_, pays) in self.station_pay.items()}
        self._pay_index.update({
            ("mission", card): {p: i for i, p in enumerate(pays)} for card, (_, pays) in self.mission_pay.items()})
        super().__init__((), self.key, commands, self._text_of)

    # -- the Codec contract, arithmetic instead of a list -------------------------------------------------
    @property
    def size(self) -> int:
        return self._size

    def action(self, command: Command) -> int:
        return self.key(command)

    def text(self, action: int) -> str:
        return self._text_of(action)

    def _text_of(self, action: Hashable) -> str:
        assert isinstance(action, int)
        return legal.notation_format(self.command(action))

    # -- command -> id --------------------------------------------------------------------------------
    def _payment(self, kind: str, card: int, colours: tuple[str, ...], cubes: Sequence[tuple[str, int]]) -> int:
        rows = row_vectors(cubes)
        if any(sum(rows[i]) for i, col in enumerate(COLOURS) if col not in colours):
            raise KeyError("a payment in a colour the card does not ask for")
        return self._pay_index[(kind, card)][tuple(rows[COLOURS.index(col)] for col in colours)]

    def key(self, cmd: Command) -> int:  # noqa: C901 - one branch per command type
        s = self.segments
        if isinstance(cmd, SINGLES):
            return s["single"].code((SINGLES.index(type(cmd)),))
        if isinstance(cmd, c.ChooseStart):
            return s["start"].code((COLOURS.index(cmd.shift), COLOURS.index(cmd.upgrade),
                                    self.pair_index[tuple(sorted(cmd.keep))]))  # type: ignore[index]
        if isinstance(cmd, c.Take):
            where = {"standard": 0, "research": 1}.get(cmd.space)
            if where is None:
                where = 2 + COLOURS.index(cmd.new_colour) if cmd.space == "transform" else 6 + self.card_index[cmd.card]
            return s["take"].code((COLOURS.index(cmd.colour), self.faces.index(cmd.face), self.wheel.index(cmd.bonus), where))
        if isinstance(cmd, c.Bonus):
            return s["bonus"].code((cmd.fuel - self.bonus_low, cmd.bucks - self.bonus_low))
        if isinstance(cmd, c.BuyActionPoints):
            return s["buy-ap"].code((cmd.points,))
        if isinstance(cmd, c.Resources):
            return s["resources"].code((PLACED_INDEX[row_vectors(cmd.cubes)],))
        if isinstance(cmd, (c.Upgrade, c.Shift)):
            counts = tuple(cmd.colours.count(col) for col in COLOURS)
            return s["upgrade" if isinstance(cmd, c.Upgrade) else "shift"].code(counts)
        if isinstance(cmd, c.PlayCard):
            return s["play"].code((self.card_index[cmd.card], ("mission", "development").index(cmd.side)))
        if isinstance(cmd, c.Discard):
            return s["discard"].code((self.card_index[cmd.card],))
        if isinstance(cmd, c.BuyDrives):
            return s["drives"].code((cmd.count,))
        if isinstance(cmd, c.ExchangeForResource):
            return s["exchange-for"].code((cmd.fuel, COLOURS.index(cmd.colour), cmd.column - 1))
        if isinstance(cmd, c.ExchangeResources):
            return s["exchange"].code((EXCHANGED_INDEX[row_vectors(cmd.cubes)], cmd.fuel))
        if isinstance(cmd, c.Settle):
            return s["settle"].code((self.planet_index[cmd.planet],))
        if isinstance(cmd, c.Fly):
            return s["fly"].code((self.hex_index[cmd.path[-1]], PORTALS.index(cmd.portal)))
        if isinstance(cmd, c.Colonize):
            return s["colonize"].code((self.outpost_index[cmd.outpost],))
        if isinstance(cmd, c.HubBonus):
            return s["hub-bonus"].code((self.outpost_index[cmd.outpost],))
        if isinstance(cmd, c.Build):
            colours = self.station_pay[cmd.card][0]
            return s[f"build:{cmd.card}"].code((self._payment("build", cmd.card, colours, cmd.cubes),
                                                self.outpost_index[cmd.outpost]))
        if isinstance(cmd, c.CompleteMission):
            colours = self.mission_pay[cmd.card][0]
            return s[f"mission:{cmd.card}"].code((self._payment("mission", cmd.card, colours, cmd.cubes),
                                                  self.hub_index[cmd.hub], self.outpost_index[cmd.outpost]))
        raise KeyError(f"{type(cmd).__name__} is not a player command")

    # -- id -> command (for the action strings; a flight by its end hex only) --------------------------------
    def command(self, action: int) -> Command:  # noqa: C901 - one branch per segment
        if not 0 <= action < self._size:
            raise KeyError(action)
        seg = next(s for s in reversed(self._ordered) if s.offset <= action)
        d = seg.digits(action)
        name = seg.name
        if name == "single":
            return SINGLES[d[0]]()
        if name == "start":
            return c.ChooseStart(COLOURS[d[0]], COLOURS[d[1]], self.pairs[d[2]])
        if name == "take":
            colour, face, bonus = COLOURS[d[0]], self.faces[d[1]], self.wheel[d[2]]
            if d[3] < 2:
                return c.Take(colour, face, bonus, ("standard", "research")[d[3]])
            if d[3] < 6:
                return c.Take(colour, face, bonus, "transform", new_colour=COLOURS[d[3] - 2])
            return c.Take(colour, face, bonus, "card", card=self.cards[d[3] - 6])
        if name == "bonus":
            return c.Bonus(d[0] + self.bonus_low, d[1] + self.bonus_low)
        if name == "buy-ap":
            return c.BuyActionPoints(d[0])
        if name == "resources":
            return c.Resources(cubes_of(PLACED[d[0]]))
        if name in ("upgrade", "shift"):
            colours = tuple(col for col, k in zip(COLOURS, d) for _ in range(k))
            return c.Upgrade(colours) if name == "upgrade" else c.Shift(colours)
        if name == "play":
            return c.PlayCard(self.cards[d[0]], ("mission", "development")[d[1]])
        if name == "discard":
            return c.Discard(self.cards[d[0]])
        if name == "drives":
            return c.BuyDrives(d[0])
        if name == "exchange-for":
            return c.ExchangeForResource(d[0], self.units - d[0], COLOURS[d[1]], d[2] + 1)
        if name == "exchange":
            cubes = cubes_of(EXCHANGED[d[0]])
            units = sum(column for _, column in cubes) // 2
            return c.ExchangeResources(cubes, d[1], units - d[1])
        if name == "settle":
            return c.Settle(self.planets[d[0]])
        if name == "fly":
            return c.Fly((self.hexes[d[0]],), (), PORTALS[d[1]])
        if name == "colonize":
            return c.Colonize(self.outposts[d[0]])
        if name == "hub-bonus":
            return c.HubBonus(self.outposts[d[0]])
        kind, _, card_text = name.partition(":")
        card = int(card_text)
        if kind == "build":
            colours, pays = self.station_pay[card]
            return c.Build(card, cubes_of(pays[d[0]], colours), self.outposts[d[1]])
        colours, pays = self.mission_pay[card]
        return c.CompleteMission(card, cubes_of(pays[d[0]], colours), self.hubs[d[1]], self.outposts[d[2]])

    def split(self, command: Command) -> list[Command]:
        """A recorded command as numbered commands: a resource exchange of more than three cubes as
        its groups (``split_exchange``); any other as itself."""
        if isinstance(command, c.ExchangeResources) and len(command.cubes) > MOST_EXCHANGED:
            return list(split_exchange(command))
        return [command]

    def legal(self, state: Any) -> dict[int, Command]:
        out: dict[int, Command] = {}
        for command in commands(state):
            out.setdefault(self.action(command), command)
        return dict(sorted(out.items()))


def codec(options: Mapping[str, Any]) -> MissionCodec:
    cset = loading.resolve(options["components"], options["components_digest"], options["components_data"])
    return MissionCodec(cset)


# -- the commands a position offers at the table ----------------------------------------------------------
def small_exchanges(state: State) -> list[Command]:
    """Every resource exchange of at most ``MOST_EXCHANGED`` cubes (``legal.exchange_resources_commands``,
    bounded)."""
    mat = state.mats[state.actor]
    return list(_exchanges_of(mat.storage, tuple(state.cset.number("mat.storage.values")),
                              state.cset.number("mat.exchange.value_per_unit")))


@functools.lru_cache(maxsize=4096)
def _exchanges_of(storage: tuple[tuple[int, int, int], ...], values: tuple[int, ...], per: int) -> tuple[Command, ...]:
    """``small_exchanges`` of a storage (what it depends on alone), kept: a search asks it for the same
    few storages thousands of times (the commands are frozen, so sharing them is safe)."""
    out: list[Command] = []
    for vector in EXCHANGED:
        if any(k > have for row, held in zip(vector, storage) for k, have in zip(row, held)):
            continue
        cubes = cubes_of(vector)
        units = sum(values[column - 1] for _, column in cubes) // per
        if units >= 1:
            out.extend(c.ExchangeResources(cubes, f, units - f) for f in range(units + 1))
    return tuple(out)


def flights(state: State) -> list[Command]:
    """One cheapest flight per end hex and way to pay the portals (``space.flights`` without its
    leaving out of portal flights to hexes reachable without)."""
    if not state.has_map:
        return []
    player = state.current
    mat = state.mat(player)
    start = state.ships[state.index(player)]
    options = [""] + (["flip"] if 2 in mat.drives else []) + (["return"] if 1 in mat.drives else [])
    out: list[Command] = []
    for portal in options:
        base = space.ship_range(state, mat) - (1 if portal else 0)
        most = base + mat.fuel // state.cset.number("mat.exchange.fuel_per_range")
        paths = space.reach_paths(state, start, most, bool(portal))
        for end, (path, jumps) in sorted(paths.items(), key=lambda kv: (len(kv[1][0]), kv[0].q, kv[0].r)):
            if space.why_not_end(state, player, end) is None:
                out.append(c.Fly(path, jumps, portal))
    return out


def commands(state: State) -> list[Command]:
    """The numbered commands of a position (module docstring): the phase's, the anytime ones, the
    exchanges of at most three cubes."""
    ph = phase(state)
    if ph == "over" or ph in CHANCE_PHASES:
        return []
    out = list(legal.phase_commands(state))
    if ph == "supplementary":
        out = [cmd for cmd in out if not isinstance(cmd, c.Fly)] + flights(state)
    if ph in rules.ANYTIME:
        out.extend(legal.anytime_commands(state, False))
        out.extend(small_exchanges(state))
    return out


def split_exchange(cmd: c.ExchangeResources, values: Sequence[int] = (1, 2, 3)) -> list[c.ExchangeResources]:
    """A resource exchange as a sequence of numbered ones (at most three cubes each) that together
    take the same cubes and give the same fuel and SpaceBucks (module docstring)."""
    cubes = sorted(cmd.cubes, key=lambda cube: (values[cube[1] - 1] % 2, COLOURS.index(cube[0]), cube[1]))
    evens = [cube for cube in cubes if values[cube[1] - 1] % 2 == 0]
    odds = [cube for cube in cubes if values[cube[1] - 1] % 2 == 1]
    groups: list[list[tuple[str, int]]] = [[cube] for cube in evens]
    while len(odds) >= 2:
        groups.append([odds.pop(), odds.pop()])
    if odds:
        last = odds.pop()
        if values[last[1] - 1] >= 2:
            groups.append([last])
        elif groups:
            small = min(groups, key=len)
            small.append(last)
        else:
            groups.append([last])
    fuel, out = cmd.fuel, []
    for group in groups:
        units = sum(values[column - 1] for _, column in group) // 2
        f = min(fuel, units)
        fuel -= f
        out.append(c.ExchangeResources(tuple(sorted(group, key=lambda cube: (COLOURS.index(cube[0]), cube[1]))), f, units - f))
    return out
