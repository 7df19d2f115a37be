"""Solarius Mission state and how each event changes it (one mutator per event type).

Every resource cube, contamination cube, action die, progress card and common drive is always in
exactly one place: a mat or the pool; the bag, the bridge or a mat; the deck, a hand, a mat or the
discard pile. The phase of a player turn is derived from the state, never stored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from .. import frozen
from . import components as comp
from . import events as ev
from . import loading
from .board import Board, Hex, board_of

COLOURS = comp.COLOURS


@frozen.value
class Die:
    colour: str
    face: str  # "1", "2", "3", "*", "*+1"

    def text(self) -> str:
        return f"{self.colour}:{self.face}"

    @staticmethod
    def of(text: str) -> Die:
        colour, _, face = text.partition(":")
        return Die(colour, face)


@frozen.value
class Taken:
    """The die of the turn in progress and how far its player turn has come."""

    colour: str
    face: str
    space: str
    acts_as: str
    card: int
    bonus: int
    points: int
    action_points: int
    bought: int = 0
    bonus_done: bool = False
    research_done: bool = False
    action_done: bool = False
    supplementary_done: bool = False
    ended: bool = False
    # space (part 2): the flight of this turn and what followed it
    portals: bool = False  # portals active for the rest of the turn
    flown: bool = False
    landed_hidden: bool = False  # the flight ended on a face-down planet (its revealer may decline)
    space_done: bool = False


@frozen.value
class Mat:
    fuel: int
    bucks: int
    tech: tuple[int, ...] = (0, 0, 0, 0)  # side index per row (0 = "1")
    columns: tuple[int, ...] = (1, 1, 1, 1)  # column 1..5 per row
    storage: tuple[tuple[int, int, int], ...] = ((0, 0, 0),) * 4  # cubes per column I-III per row
    contamination: int = 0  # cubes on the contamination spaces
    beside: int = 0  # cubes beside the mat (never removed)
    drives: tuple[int, ...] = ()  # common drives, their values
    hand: tuple[int, ...] = ()
    missions: tuple[int, ...] = ()  # played as missions, not completed
    completed: tuple[int, ...] = ()  # missions completed (space, part 2)
    developments: tuple[int, ...] = ()
    dice: tuple[Die, ...] = ()  # the action dice on the mat this game turn
    used: tuple[str, ...] = ()  # transform, research, card:N used this game turn
    # Space (part 2): stations built, planets waiting and settled, figures in space
    stations: tuple[int, ...] = ()
    planets_waiting: tuple[int, ...] = ()
    planets_settled: tuple[int, ...] = ()
    outposts: tuple[int, ...] = ()  # outpost markers placed (ids), in order
    hub_missions: tuple[str, ...] = ()  # hubs (letters) at which the player has completed a mission
    hub_bonus_waiting: tuple[str, ...] = ()  # hub bonuses earned, taken when the hub is built (9.2 B II.3)

    def row(self, colour: str) -> int:
        return COLOURS.index(colour)

    @property
    def resources(self) -> int:
        return sum(sum(r) for r in self.storage)


@attrs.frozen(order=True)
class Figure:
    """A player figure in space (9.2 B II): a colony, a space station or a mission marker, with or
    without an outpost beside it in its hex (II.4)."""

    player: str
    kind: str  # colony, station, mission
    hex: Hex
    outpost: bool = False


@frozen.value
class Pending:
    kind: str  # resources, upgrade, shift
    colour: str
    count: int
    player: str = ""  # whose choice it is ("" in records before part 2: the current player)


@frozen.value
class State:
    players: tuple[str, ...]
    digest: str  # the component set (loading.by_digest)
    start_mode: str  # cards or choose
    mats: tuple[Mat, ...]
    bag: tuple[int, ...]  # dice per colour
    deck: tuple[int, ...]  # the face-down progress cards (unordered: chance names each draw)
    start_cards: tuple[int, ...]  # start cards not dealt yet
    hubs: tuple[str, ...]  # hubs not revealed yet (two of them never will be)
    resource_pool: int
    contamination_pool: int
    drive_pool: int
    bridge: tuple[tuple[Die, ...], ...] = ((), (), (), (), ())  # per wheel value -1, 0, 1, 2, 3
    setup_dice: tuple[Die, ...] = ()
    discard: tuple[int, ...] = ()
    hubs_built: tuple[str, ...] = ()
    dealt: int = 0  # start cards dealt / start positions chosen
    start_player: int = -1
    turn: int = 0  # the game turn, 1..4 once revealed
    turn_started: bool = False
    turns_taken: int = 0  # player turns in this game turn
    actor: int = 0  # the player whose player turn it is
    die: Taken | None = None
    drawing: int = 0  # cards chance still gives to the actor
    must_discard: int = 0  # cards the actor must discard besides the hand limit
    effects: tuple[Pending, ...] = ()
    closing: tuple[int, ...] = ()  # players still to close the game turn (10.0), in turn order
    over: bool = False
    # Space (part 2), all empty for a set without a map (house-2016: played without flight). Kept
    # sorted, so equal positions compare equal.
    placement: tuple[tuple[str, int], ...] = ()  # (tile letter, rotation 0-5) per outer position 0-5
    planets_on_map: tuple[tuple[Hex, int], ...] = ()  # (hex, planet id), -1 while face down; sorted by hex
    figures: tuple[Figure, ...] = ()  # sorted
    ships: tuple[Hex, ...] = ()  # per player index
    hub_hexes: tuple[tuple[str, Hex], ...] = ()  # built hubs: (letter, hex), by letter (hubs_built keeps the order)
    revealing: Hex | None = None  # a face-down planet being turned: chance names it next
    # the scoring readings chosen at setup (game.MissionOptions; docs/rules/solarius-mission.md)
    hub_adjacency: str = "once"
    outpost_doubles: str = "space"
    network: str = "adjacent"
    # what each figure on the map stands for, for the score lines: (hex, the planet of the colony / the
    # station card / the completed mission card there), sorted by hex
    figure_ids: tuple[tuple[Hex, int], ...] = ()

    @property
    def board(self) -> Board:
        """The seven tiles as placed (built once per set and placement)."""
        return _board(self.digest, self.placement)

    @property
    def has_map(self) -> bool:
        return self.cset.has_map

    def planet_at(self, h: Hex) -> int | None:
        """The planet on ``h`` (-1 face down), or None."""
        for where, planet in self.planets_on_map:
            if where == h:
                return planet
        return None

    def figure_at(self, h: Hex) -> Figure | None:
        for f in self.figures:
            if f.hex == h:
                return f
        return None
    station_effect: str = "earlier"  # option station_effect (reading 7)

    @property
    def cset(self) -> comp.ComponentSet:
        return loading.by_digest(self.digest)

    def index(self, player: str) -> int:
        return self.players.index(player)

    def mat(self, player: str) -> Mat:
        return self.mats[self.players.index(player)]

    @property
    def current(self) -> str:
        return self.players[self.actor]

    @property
    def setup_done(self) -> bool:
        return self.start_player >= 0 and not self.setup_dice and any(self.bridge)

    def with_mat(self, player: str, mat: Mat) -> State:
        i = self.players.index(player)
        return frozen.evolve(self, mats=(*self.mats[:i], mat, *self.mats[i + 1:]))


@functools.lru_cache(maxsize=256)
def _board(digest: str, placement: tuple[tuple[str, int], ...]) -> Board:
    return board_of(loading.by_digest(digest).layouts, placement)


# -- small pure helpers shared with the rules -----------------------------------------------------------


def tech_value(state: State, mat: Mat, colour: str) -> int:
    return state.cset.number("mat.tech.faces")[mat.tech[mat.row(colour)]]


def die_points(state: State, mat: Mat, colour: str, face: str) -> int:
    """003 6.0: a star brings the tech die's value, a star+1 one more."""
    if face == "*":
        return tech_value(state, mat, colour)
    if face == "*+1":
        return tech_value(state, mat, colour) + 1
    return int(face)


def open_cells(state: State, mat: Mat, colour: str) -> tuple[int, int, int]:
    """Storage cells per column left of the tech die (the built-in set: 2, 3, 4, 5, 6 cells)."""
    total = state.cset.number("mat.storage.open_cells")[mat.columns[mat.row(colour)] - 1]
    out = []
    for size in state.cset.number("mat.storage.cells"):
        take = min(size, total)
        out.append(take)
        total -= take
    return (out[0], out[1], out[2])


def can_place(state: State, mat: Mat, colour: str, column: int) -> str | None:
    """Why a cube may not go into this column now (003 7.0, the pyramid), or None."""
    row = mat.storage[mat.row(colour)]
    cells = open_cells(state, mat, colour)
    size = state.cset.number("mat.storage.cells")
    if row[column - 1] >= cells[column - 1]:
        if cells[column - 1] < size[column - 1]:
            return f"column {roman(column)} of the {colour} row has no open storage space left of the tech die"
        return f"column {roman(column)} of the {colour} row is full"
    if column == 2 and row[0] < row[1] + 2:
        return f"a cube in column II needs {row[1] + 2} in column I of the {colour} row (it has {row[0]})"
    if column == 3 and (row[0] < size[0] or row[1] < size[1]):
        return f"a cube in column III needs columns I and II of the {colour} row full"
    return None


def roman(column: int) -> str:
    return ("I", "II", "III", "IV", "V")[column - 1]


def contamination_spaces(state: State, mat: Mat) -> int:
    cset = state.cset
    spaces = cset.number("mat.contamination.spaces")
    spaces += sum(cset.number("mat.stations.contamination_spaces")[: len(mat.stations)])
    for cid in mat.developments:
        spaces += sum(e.amount for e in cset.card(cid).permanent if e.kind == "contamination_spaces")
    return spaces


def permanent_action_points(state: State, mat: Mat, colour: str) -> int:
    return sum(
        e.amount
        for cid in mat.developments
        for e in state.cset.card(cid).permanent
        if e.kind == "action_points" and e.colour in (colour, "any")
    )


def clamp_track(state: State, value: int) -> int:
    return max(0, min(state.cset.number("mat.track.maximum"), value))


# -- mutators ----------------------------------------------------------------------------------------


def _place(storage: tuple[tuple[int, int, int], ...], cubes, sign: int) -> tuple[tuple[int, int, int], ...]:
    rows = [list(r) for r in storage]
    for colour, column in cubes:
        rows[COLOURS.index(colour)][column - 1] += sign
    return tuple((r[0], r[1], r[2]) for r in rows)


def _start_position(state: State, player: str, shift: str, upgrade: str, resources, cards) -> State:
    mat = state.mat(player)
    columns = list(mat.columns)
    columns[mat.row(shift)] = 2
    tech = list(mat.tech)
    tech[mat.row(upgrade)] = 1
    each = state.cset.number("start_cards.rules.resources_each")
    cubes = [(c, 1) for c in resources for _ in range(each)]
    mat = frozen.evolve(
        mat, columns=tuple(columns), tech=tuple(tech), storage=_place(mat.storage, cubes, 1),
        hand=tuple(sorted((*mat.hand, *cards))),
    )
    return frozen.evolve(state.with_mat(player, mat), resource_pool=state.resource_pool - len(cubes), dealt=state.dealt + 1)


def _start_card_dealt(state: State, e: ev.StartCardDealt) -> State:
    card = state.cset.start_cards[e.card]
    state = frozen.evolve(state, start_cards=tuple(c for c in state.start_cards if c != e.card),
                         deck=tuple(c for c in state.deck if c not in card.progress))
    return _start_position(state, e.player, card.shift, card.upgrade, card.resources, card.progress)


def _start_chosen(state: State, e: ev.StartChosen) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, hand=()))
    state = frozen.evolve(state, discard=tuple(sorted((*state.discard, e.discard))))
    state = _start_position(state, e.player, e.shift, e.upgrade, e.resources, e.keep)
    if state.dealt < len(state.players):  # the next player receives three cards (4.0, without start cards)
        state = frozen.evolve(state, drawing=3, actor=state.dealt)
    return state


def _starting_player(state: State, e: ev.StartingPlayerChosen) -> State:
    i = state.index(e.player)
    return frozen.evolve(state, start_player=i, actor=i)


def _bag_minus(bag: tuple[int, ...], colour: str) -> tuple[int, ...]:
    i = COLOURS.index(colour)
    return (*bag[:i], bag[i] - 1, *bag[i + 1:])


def _setup_die_rolled(state: State, e: ev.SetupDieRolled) -> State:
    return frozen.evolve(state, setup_dice=(*state.setup_dice, Die(e.colour, e.face)), bag=_bag_minus(state.bag, e.colour))


def _bridge_set_up(state: State, e: ev.BridgeSetUp) -> State:
    bridge = tuple(tuple(Die.of(t) for t in space) for space in e.spaces)
    return frozen.evolve(state, bridge=bridge, setup_dice=())


def _hub_revealed(state: State, e: ev.HubRevealed) -> State:
    # 9.1 "turns it and places it on the corresponding hexagon in space": the hub's tile holds one hub space.
    hub_hexes = tuple(sorted((*state.hub_hexes, (e.hub, state.board.hub_hex(e.hub))))) if state.placement else state.hub_hexes
    return frozen.evolve(
        state, hubs=tuple(h for h in state.hubs if h != e.hub), hubs_built=(*state.hubs_built, e.hub),
        turn=e.turn, turn_started=True, hub_hexes=hub_hexes,
    )


def _die_taken(state: State, e: ev.DieTaken) -> State:
    space = state.cset.number("bridge.wheel.values").index(e.bonus)
    die = Die(e.colour, e.face)
    dice = list(state.bridge[space])
    dice.remove(die)
    bridge = (*state.bridge[:space], tuple(dice), *state.bridge[space + 1:])
    mat = state.mat(e.player)
    used = mat.used
    if e.space in ("transform", "research"):
        used = (*used, e.space)
    elif e.space == "card":
        used = (*used, f"card:{e.card}")
    mat = frozen.evolve(mat, dice=(*mat.dice, die), used=used)
    taken = Taken(e.colour, e.face, e.space, e.acts_as, e.card, e.bonus, e.points, e.action_points,
                  bonus_done=e.bonus == 0, research_done=e.space != "research")
    return frozen.evolve(state.with_mat(e.player, mat), bridge=bridge, die=taken)


def _contaminated(state: State, e: ev.Contaminated) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(mat, contamination=mat.contamination + e.on_spaces, beside=mat.beside + e.beside)
    return frozen.evolve(state.with_mat(e.player, mat), contamination_pool=state.contamination_pool - e.on_spaces - e.beside)


def _contamination_removed(state: State, e: ev.ContaminationRemoved) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(mat, contamination=mat.contamination - e.count)
    return frozen.evolve(state.with_mat(e.player, mat), contamination_pool=state.contamination_pool + e.count)


def _track_changed(state: State, e: ev.TrackChanged) -> State:
    mat = state.mat(e.player)
    return state.with_mat(e.player, frozen.evolve(mat, fuel=mat.fuel + e.fuel, bucks=mat.bucks + e.bucks))


def _bonus_taken(state: State, e: ev.BonusTaken) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, fuel=mat.fuel + e.fuel, bucks=mat.bucks + e.bucks))
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, bonus_done=True))


def _ap_bought(state: State, e: ev.ActionPointsBought) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, bought=state.die.bought + e.points))


def _ap_added(state: State, e: ev.ActionPointsAdded) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, action_points=state.die.action_points + e.points))


def _resources_placed(state: State, e: ev.ResourcesPlaced) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(mat, storage=_place(mat.storage, e.cubes, 1))
    return frozen.evolve(state.with_mat(e.player, mat), resource_pool=state.resource_pool - len(e.cubes))


def _resources_removed(state: State, e: ev.ResourcesRemoved) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(mat, storage=_place(mat.storage, e.cubes, -1))
    return frozen.evolve(state.with_mat(e.player, mat), resource_pool=state.resource_pool + len(e.cubes))


def _tech_upgraded(state: State, e: ev.TechUpgraded) -> State:
    mat = state.mat(e.player)
    tech = list(mat.tech)
    for c in e.colours:
        tech[mat.row(c)] += 1
    return state.with_mat(e.player, frozen.evolve(mat, tech=tuple(tech)))


def _tech_shifted(state: State, e: ev.TechShifted) -> State:
    mat = state.mat(e.player)
    columns = list(mat.columns)
    for c in e.colours:
        columns[mat.row(c)] += 1
    return state.with_mat(e.player, frozen.evolve(mat, columns=tuple(columns)))


def _die_action_done(state: State, e: ev.DieActionDone) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, action_done=True))


def _research_done(state: State, e: ev.ResearchDone) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, research_done=True))


def _cards_requested(state: State, e: ev.CardsRequested) -> State:
    return frozen.evolve(state, drawing=state.drawing + e.count, must_discard=state.must_discard + e.discard)


def _card_drawn(state: State, e: ev.CardDrawn) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, hand=tuple(sorted((*mat.hand, e.card)))))
    return frozen.evolve(state, deck=tuple(c for c in state.deck if c != e.card), drawing=max(0, state.drawing - 1))


def _deck_reshuffled(state: State, e: ev.DeckReshuffled) -> State:
    return frozen.evolve(state, deck=tuple(sorted((*state.deck, *state.discard))), discard=())


def _card_discarded(state: State, e: ev.CardDiscarded) -> State:
    mat = state.mat(e.player)
    hand = list(mat.hand)
    hand.remove(e.card)
    state = state.with_mat(e.player, frozen.evolve(mat, hand=tuple(hand)))
    return frozen.evolve(state, discard=tuple(sorted((*state.discard, e.card))), must_discard=max(0, state.must_discard - 1))


def _card_played(state: State, e: ev.CardPlayed) -> State:
    mat = state.mat(e.player)
    hand = list(mat.hand)
    hand.remove(e.card)
    if e.side == "mission":
        mat = frozen.evolve(mat, hand=tuple(hand), missions=(*mat.missions, e.card))
    else:
        mat = frozen.evolve(mat, hand=tuple(hand), developments=(*mat.developments, e.card))
    return state.with_mat(e.player, mat)


def _effect_waiting(state: State, e: ev.EffectWaiting) -> State:
    return frozen.evolve(state, effects=(*state.effects, Pending(e.kind, e.colour, e.count, e.player)))


def _effect_resolved(state: State, e: ev.EffectResolved) -> State:
    return frozen.evolve(state, effects=state.effects[1:])


def _drives_bought(state: State, e: ev.DrivesBought) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(mat, drives=(*mat.drives, *(1,) * e.count))
    return frozen.evolve(state.with_mat(e.player, mat), drive_pool=state.drive_pool - e.count)


_drives_gained = _drives_bought


def _drive_upgraded(state: State, e: ev.DriveUpgraded) -> State:
    mat = state.mat(e.player)
    drives = list(mat.drives)
    drives[e.slot] = 2
    return state.with_mat(e.player, frozen.evolve(mat, drives=tuple(drives)))


def _supplementary_done(state: State, e: ev.SupplementaryDone) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, supplementary_done=True))


def _turn_ended(state: State, e: ev.TurnEnded) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, ended=True))


def _refilled(state: State, e: ev.Refilled) -> State:
    # 003 9.2 C: the wheel turns one step, the die on the 3 rides along, the new die goes on -1.
    b = state.bridge
    bridge = ((Die(e.colour, e.face),), b[0], b[1], b[2], tuple(sorted(b[3] + b[4], key=Die.text)))
    n = len(state.players)
    return frozen.evolve(
        state, bridge=bridge, bag=_bag_minus(state.bag, e.colour), die=None,
        turns_taken=state.turns_taken + 1, actor=(state.actor + 1) % n,
    )


def _game_turn_ended(state: State, e: ev.GameTurnEnded) -> State:
    if not e.next_start:
        return frozen.evolve(state, over=True, turn_started=False)
    bag = list(state.bag)
    mats = []
    for mat in state.mats:
        for die in mat.dice:
            bag[COLOURS.index(die.colour)] += 1
        mats.append(frozen.evolve(mat, dice=(), used=()))
    start = state.index(e.next_start)
    return frozen.evolve(
        state, bag=tuple(bag), mats=tuple(mats), start_player=start, actor=start, turns_taken=0, turn_started=False,
    )


def _turn_end_started(state: State, e: ev.TurnEndStarted) -> State:
    order = tuple(state.index(p) for p in e.order)
    return frozen.evolve(state, closing=order, actor=order[0])


def _player_closed(state: State, e: ev.PlayerClosed) -> State:
    closing = state.closing[1:]
    return frozen.evolve(state, closing=closing, actor=closing[0] if closing else state.actor)


def _planet_settled(state: State, e: ev.PlanetSettled) -> State:
    mat = state.mat(e.player)
    mat = frozen.evolve(
        mat, fuel=mat.fuel - e.fuel, bucks=mat.bucks - e.bucks,
        planets_waiting=tuple(p for p in mat.planets_waiting if p != e.planet),
        planets_settled=(*mat.planets_settled, e.planet),
    )
    return state.with_mat(e.player, mat)


def _tiles_placed(state: State, e: ev.TilesPlaced) -> State:
    return frozen.evolve(state, placement=e.placement)


def _planets_dealt(state: State, e: ev.PlanetsDealt) -> State:
    return frozen.evolve(state, planets_on_map=tuple(sorted((h, -1) for h in e.hexes)))


def _planet_turned(state: State, e: ev.PlanetTurned) -> State:
    return frozen.evolve(state, revealing=e.hex)


def _planet_revealed(state: State, e: ev.PlanetRevealed) -> State:
    planets = tuple(sorted((h, e.planet if h == e.hex else p) for h, p in state.planets_on_map))
    return frozen.evolve(state, planets_on_map=planets, revealing=None)


MUTATORS: dict[type, Callable[[State, Any], State]] = {
    ev.StartCardDealt: _start_card_dealt,
    ev.StartChosen: _start_chosen,
    ev.StartingPlayerChosen: _starting_player,
    ev.SetupDieRolled: _setup_die_rolled,
    ev.BridgeSetUp: _bridge_set_up,
    ev.HubRevealed: _hub_revealed,
    ev.DieTaken: _die_taken,
    ev.Contaminated: _contaminated,
    ev.ContaminationRemoved: _contamination_removed,
    ev.TrackChanged: _track_changed,
    ev.BonusTaken: _bonus_taken,
    ev.ActionPointsBought: _ap_bought,
    ev.ActionPointsAdded: _ap_added,
    ev.ResourcesPlaced: _resources_placed,
    ev.ResourcesRemoved: _resources_removed,
    ev.TechUpgraded: _tech_upgraded,
    ev.TechShifted: _tech_shifted,
    ev.DieActionDone: _die_action_done,
    ev.ResearchDone: _research_done,
    ev.CardsRequested: _cards_requested,
    ev.CardDrawn: _card_drawn,
    ev.DeckReshuffled: _deck_reshuffled,
    ev.CardDiscarded: _card_discarded,
    ev.CardPlayed: _card_played,
    ev.EffectWaiting: _effect_waiting,
    ev.EffectResolved: _effect_resolved,
    ev.DrivesBought: _drives_bought,
    ev.DrivesGained: _drives_gained,
    ev.DriveUpgraded: _drive_upgraded,
    ev.SupplementaryDone: _supplementary_done,
    ev.TurnEnded: _turn_ended,
    ev.Refilled: _refilled,
    ev.GameTurnEnded: _game_turn_ended,
    ev.TurnEndStarted: _turn_end_started,
    ev.PlayerClosed: _player_closed,
    ev.PlanetSettled: _planet_settled,
    ev.TilesPlaced: _tiles_placed,
    ev.PlanetsDealt: _planets_dealt,
    ev.PlanetTurned: _planet_turned,
    ev.PlanetRevealed: _planet_revealed,
}


# -- space (part 2): the flight and what follows it ------------------------------------------------------


def _with_figures(state: State, figures) -> State:
    return frozen.evolve(state, figures=tuple(sorted(figures)))


def _with_figure_id(state: State, h: Hex, ident: int) -> State:
    """What the figure placed on ``h`` stands for (its planet, station card or mission card), so the
    score lines can name each planet's, station's and mission's hex."""
    return frozen.evolve(state, figure_ids=tuple(sorted((*state.figure_ids, (h, ident)))))


def _with_die(state: State, **changes) -> State:
    assert state.die is not None
    return frozen.evolve(state, die=frozen.evolve(state.die, **changes))


def _portals_activated(state: State, e: ev.PortalsActivated) -> State:
    mat = state.mat(e.player)
    drives = list(mat.drives)
    if e.returned:
        del drives[e.slot]
        state = frozen.evolve(state, drive_pool=state.drive_pool + 1)
    else:
        drives[e.slot] = 1
    state = state.with_mat(e.player, frozen.evolve(mat, drives=tuple(drives)))
    return _with_die(state, portals=True)


def _ship_flown(state: State, e: ev.ShipFlown) -> State:
    i = state.index(e.player)
    end = e.path[-1]
    ships = (*state.ships[:i], end, *state.ships[i + 1:])
    hidden = dict(state.planets_on_map).get(end) == -1
    return _with_die(frozen.evolve(state, ships=ships), flown=True, landed_hidden=hidden)


def _planet_colonized(state: State, e: ev.PlanetColonized) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, planets_waiting=(*mat.planets_waiting, e.planet)))
    state = frozen.evolve(state, planets_on_map=tuple(p for p in state.planets_on_map if p[0] != e.hex))
    state = _with_figure_id(state, e.hex, e.planet)
    return _with_figures(state, (*state.figures, Figure(e.player, "colony", e.hex, False)))


def _planet_declined(state: State, e: ev.PlanetDeclined) -> State:
    return state  # the planet stays face up on its hex; the explorer bonus waits as an effect


def _station_built(state: State, e: ev.StationBuilt) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, stations=(*mat.stations, e.card)))
    state = _with_figure_id(state, e.hex, e.card)
    return _with_figures(state, (*state.figures, Figure(e.player, "station", e.hex, False)))


def _mission_completed(state: State, e: ev.MissionCompleted) -> State:
    mat = state.mat(e.player)
    missions = list(mat.missions)
    missions.remove(e.card)
    mat = frozen.evolve(
        mat, missions=tuple(missions), completed=(*mat.completed, e.card),
        hub_missions=mat.hub_missions if e.hub in mat.hub_missions else (*mat.hub_missions, e.hub),
        hub_bonus_waiting=(*mat.hub_bonus_waiting, e.hub) if e.bonus else mat.hub_bonus_waiting,
    )
    state = state.with_mat(e.player, mat)
    state = _with_figure_id(state, e.hex, e.card)
    return _with_figures(state, (*state.figures, Figure(e.player, "mission", e.hex, False)))


def _outpost_built(state: State, e: ev.OutpostBuilt) -> State:
    mat = state.mat(e.player)
    state = state.with_mat(e.player, frozen.evolve(mat, outposts=(*mat.outposts, e.outpost)))
    figures = [frozen.evolve(f, outpost=True) if f.player == e.player and f.hex == e.hex else f for f in state.figures]
    return _with_figures(state, figures)


def _hub_bonus_taken(state: State, e: ev.HubBonusTaken) -> State:
    mat = state.mat(e.player)
    waiting = list(mat.hub_bonus_waiting)
    waiting.remove(e.hub)
    return state.with_mat(e.player, frozen.evolve(mat, hub_bonus_waiting=tuple(waiting)))


def _space_action_done(state: State, e: ev.SpaceActionDone) -> State:
    return _with_die(state, space_done=True)


MUTATORS.update({
    ev.PortalsActivated: _portals_activated,
    ev.ShipFlown: _ship_flown,
    ev.PlanetColonized: _planet_colonized,
    ev.PlanetDeclined: _planet_declined,
    ev.StationBuilt: _station_built,
    ev.MissionCompleted: _mission_completed,
    ev.OutpostBuilt: _outpost_built,
    ev.HubBonusTaken: _hub_bonus_taken,
    ev.SpaceActionDone: _space_action_done,
})


def hub_bonus_due(state: State) -> tuple[str, str] | None:
    """9.2 B II.3: a hub bonus earned at a hub that is built now, the players in turn order."""
    n = len(state.players)
    start = max(state.start_player, 0)
    for k in range(n):
        player = state.players[(start + k) % n]
        for hub in state.mat(player).hub_bonus_waiting:
            if hub in state.hubs_built:
                return player, hub
    return None


def acting(state: State) -> str:
    """Who decides now: a waiting effect's owner, a hub bonus's receiver, else the current player."""
    if state.effects and state.effects[0].player:
        return state.effects[0].player
    due = hub_bonus_due(state)
    if due is not None and not state.effects:
        return due[0]
    return state.current


def evolve(state: State, event: object) -> State:
    return MUTATORS[type(event)](state, event)


def fold(state: State, events: list) -> State:
    for e in events:
        state = evolve(state, e)
    return state


# -- the phase, derived ---------------------------------------------------------------------------------

CHANCE_PHASES = ("start-card", "deal", "first-player", "bridge", "hub", "card", "refill", "tiles", "reveal")


def phase(state: State) -> str:
    """Where the game stands: a chance step, a player decision, or over."""
    n = len(state.players)
    if state.over:
        return "over"
    if state.revealing is not None:
        return "reveal"
    if not state.placement and state.has_map:
        return "tiles"  # 4.0: space is put together first
    if state.dealt < n:
        if state.start_mode == "cards":
            return "start-card"
        if state.drawing:
            return "deal"
        return "choose-start"
    if state.start_player < 0:
        return "first-player"
    if not any(state.bridge):
        return "bridge"
    if not state.turn_started:
        return "hub"
    if state.effects and (state.die is None or acting(state) != state.current):
        return "effects"
    if not state.effects and hub_bonus_due(state) is not None:
        return "hub-bonus"
    if state.drawing:
        return "card"
    mat = state.mats[state.actor]
    if state.must_discard or len(mat.hand) > state.cset.number("mat.hand.limit"):
        return "discard"
    if state.closing:
        return "effects" if state.effects else "turn-end"
    die = state.die
    if die is None:
        return "take"
    if not die.bonus_done:
        return "bonus"
    if state.effects:
        return "effects"
    if not die.research_done:
        return "research"
    if not die.action_done:
        return "action"
    if not die.supplementary_done:
        return "supplementary"
    if die.flown and not die.space_done and not die.ended:
        return "explore" if die.landed_hidden else "space"
    if not die.ended:
        return "after"
    return "refill"


# -- space: what is known of the planets ------------------------------------------------------------------


def revealed_planets(state: State) -> tuple[int, ...]:
    """Every planet turned face up so far: on the map, waiting or settled on a mat."""
    out = [p for _, p in state.planets_on_map if p >= 0]
    for mat in state.mats:
        out.extend((*mat.planets_waiting, *mat.planets_settled))
    return tuple(sorted(out))


def planets_in_play(state: State, colour: str) -> int:
    """4.0: 9 planets per colour, less those sorted out for the player count (unseen: which ones is
    never known, so only how many of each colour can still be turned)."""
    cset = state.cset
    removed = cset.number("tiles.setup.planets_removed_per_colour")[len(state.players)]
    return max(0, sum(1 for p in cset.planets.values() if p.colour == colour) - removed)


def describe_phase(state: State) -> str:
    ph = phase(state)
    who = state.current
    return {
        "start-card": "chance deals the start cards",
        "deal": "chance deals progress cards",
        "choose-start": f"{state.players[state.dealt] if state.dealt < len(state.players) else who} chooses a starting position",
        "first-player": "chance picks the starting player",
        "bridge": "chance rolls the dice for the bridge",
        "hub": "chance reveals the commercial hub of the game turn",
        "card": f"chance names the card {who} draws",
        "discard": f"{who} discards a progress card",
        "take": f"{who} takes an action die from the bridge",
        "bonus": f"{who} takes the bridge bonus",
        "effects": f"{who} resolves an effect",
        "research": f"{who} draws or plays a progress card (research space)",
        "action": f"{who} conducts the die action",
        "supplementary": f"{who} may take a supplementary action",
        "after": f"{who} ends the turn",
        "turn-end": f"{who} closes the game turn (station effects, settlements with fuel and SpaceBucks)",
        "refill": "chance draws and rolls the refill die",
        "space": f"{who} may settle a planet, build a space station or complete a mission (or end the turn)",
        "explore": f"{who} settles the planet just turned ('colonize') or declines it for the explorer bonus ('decline')",
        "hub-bonus": f"{(hub_bonus_due(state) or (who, ''))[0]} chooses the bonus of hub {(hub_bonus_due(state) or ('', '?'))[1]}: "
                     "one of the six outpost bonuses",
        "over": "the game is over",
        "tiles": "chance places the six outer tiles around the centre",
        "reveal": "chance names the planet being turned",
    }[ph]
