"""Solarius Mission rules: decide each command, list the legal ones, sample one for simulations.

``decide`` refuses with a reason a player understands (IllegalCommand) and returns the events of
a legal command; automatic consequences (contamination, the bridge set-up after the fourth die,
the end of a game turn) are further events of the same command.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import attrs

from .. import frozen
from ..errors import IllegalCommand
from ..game import Choice, Choices, Command, Event, Field, Form
from . import commands as c
from . import effects, space, text
from . import events as ev
from .board import board_of
from .components import COLOURS, ComponentSet
from .state import (
    CHANCE_PHASES,
    Mat,
    State,
    acting,
    can_place,
    clamp_track,
    contamination_spaces,
    describe_phase,
    die_points,
    fold,
    permanent_action_points,
    phase,
    planets_in_play,
    revealed_planets,
    roman,
)

ANYTIME = ("take", "research", "action", "supplementary", "space", "explore", "after")
PLAYER_PHASES = (
    "choose-start", "discard", "take", "bonus", "effects", "research", "action", "supplementary", "after", "turn-end",
    "space", "explore", "hub-bonus",
)


# One refusal helper and one phase check for the package; they live with the space rules, which
# rules.py imports (the import goes one way: space.py never imports rules.py).
_need = space._need
_phase_is = space._phase_is


# -- chance ---------------------------------------------------------------------------------------------


def _start_card_text(cset: ComponentSet, card_id: int) -> str:
    card = cset.start_cards[card_id]
    return (
        f"shift {card.shift}, upgrade {card.upgrade}, resources {' '.join(card.resources)}, "
        f"cards {' '.join(map(str, card.progress))}"
    )


def decide_deal_start_card(state: State, cmd: c.DealStartCard) -> list[Event]:
    _phase_is(state, "start-card", what="dealing a start card")
    _need(cmd.card in state.start_cards, f"start card {cmd.card} is not among the undealt ones {list(state.start_cards)}")
    player = state.players[state.dealt]
    return [ev.StartCardDealt(player, cmd.card, _start_card_text(state.cset, cmd.card))]


def decide_first(state: State, cmd: c.FirstPlayer) -> list[Event]:
    _phase_is(state, "first-player", what="choosing the starting player")
    _need(cmd.player in state.players, f"{cmd.player!r} is not a player ({', '.join(state.players)})")
    return [ev.StartingPlayerChosen(cmd.player)]


def bridge_spaces(state: State, dice) -> tuple[tuple[str, ...], ...]:
    """003 4.0: valued with the starting player's tech dice, highest on -1, ties share a space."""
    mat = state.mats[state.start_player]
    values = sorted({die_points(state, mat, d.colour, d.face) for d in dice}, reverse=True)
    spaces: list[list[str]] = [[] for _ in range(5)]
    for d in dice:
        spaces[values.index(die_points(state, mat, d.colour, d.face))].append(d.text())
    return tuple(tuple(sorted(s)) for s in spaces)


def decide_roll(state: State, cmd: c.Roll) -> list[Event]:
    ph = _phase_is(state, "bridge", "refill", what="rolling a die")
    i = COLOURS.index(cmd.colour)
    _need(state.bag[i] > 0, f"the bag holds no {cmd.colour} die")
    if ph == "bridge":
        out: list[Event] = [ev.SetupDieRolled(cmd.colour, cmd.face)]
        after = fold(state, out)
        if len(after.setup_dice) == after.cset.number("bridge.wheel.setup_dice"):
            out.append(ev.BridgeSetUp(bridge_spaces(after, after.setup_dice)))
        return out
    out = [ev.Refilled(cmd.colour, cmd.face)]
    after = fold(state, out)
    n = len(state.players)
    if after.turns_taken == n * state.cset.number("dice.bag.dice_per_player_turn"):
        if turn_end_needed(after):
            order = tuple(state.players[(state.start_player + k) % n] for k in range(n))
            start: list[Event] = [ev.TurnEndStarted(order)]
            out.extend(start)
            out.extend(close_from(fold(after, start)))
        else:
            out.append(game_turn_ended(after))
    return out


# -- turn end (10.0) ------------------------------------------------------------------------------------------


def last_turn(state: State) -> bool:
    return state.turn >= state.cset.number("dice.hubs.game_turns")


def game_turn_ended(state: State) -> Event:
    n = len(state.players)
    nxt = "" if last_turn(state) else state.players[(state.start_player + 1) % n]
    return ev.GameTurnEnded(state.turn, nxt)


def settle_payment(state: State, player: str, planet: int, window: bool) -> tuple[int, int]:
    """What completing a waiting planet's precondition costs now (9.2 d.3), or IllegalCommand. In the
    last turn-end window only fuel and SpaceBucks count (10.0)."""
    mat = state.mat(player)
    _need(planet in mat.planets_waiting, f"planet {planet} is not waiting beside your mat")
    pre = dict(state.cset.planets[planet].precondition)
    kind = pre["kind"]
    if kind in ("pay_fuel", "pay_bucks"):
        amount = pre["amount"]
        have = mat.fuel if kind == "pay_fuel" else mat.bucks
        what = "fuel" if kind == "pay_fuel" else "SpaceBucks"
        _need(have >= amount, f"planet {planet} asks {amount} {what}, you have {have}")
        return (amount, 0) if kind == "pay_fuel" else (0, amount)
    _need(not window, f"at turn end only fuel and SpaceBucks complete a settlement ({text.SETTLE_WINDOW})")
    row = COLOURS.index(pre["colour"])
    have = state.cset.number("mat.tech.faces")[mat.tech[row]] if kind == "tech_value" else mat.columns[row]
    what = "value" if kind == "tech_value" else "column"
    _need(have >= pre["at_least"], f"planet {planet} asks the {pre['colour']} tech die at {what} {pre['at_least']} or more")
    return (0, 0)


def settle_options(state: State, player: str, window: bool) -> list[int]:
    if window and not last_turn(state):
        return []
    out = []
    for planet in state.mat(player).planets_waiting:
        try:
            settle_payment(state, player, planet, window)
        except IllegalCommand:
            continue
        out.append(planet)
    return out


def turn_end_needed(state: State) -> bool:
    return any(mat.stations for mat in state.mats) or (
        last_turn(state) and any(settle_options(state, p, True) for p in state.players)
    )


def close_from(state: State) -> list[Event]:
    """The closing player's stations fire once (reading 8: in turn order); a player with nothing to
    decide closes at once; after the last one the game turn ends."""
    out: list[Event] = []
    while True:
        player = state.current
        for sid in state.mat(player).stations:
            new = effects.apply(state, player, state.cset.station_cards[sid].permanent, f"station {sid}")
            state = fold(state, new)
            out.extend(new)
        if state.effects or settle_options(state, player, True):
            return out
        closed: list[Event] = [ev.PlayerClosed(player)]
        state = fold(state, closed)
        out.extend(closed)
        if not state.closing:
            out.append(game_turn_ended(state))
            return out


def decide_close(state: State, cmd: c.Close) -> list[Event]:
    _phase_is(state, "turn-end", what="closing the turn end")
    closed: list[Event] = [ev.PlayerClosed(state.current)]
    after = fold(state, closed)
    if not after.closing:
        return [*closed, game_turn_ended(after)]
    return [*closed, *close_from(after)]


def decide_settle(state: State, cmd: c.Settle) -> list[Event]:
    ph = _phase_is(state, *ANYTIME, "turn-end", what="completing a settlement")
    player = state.current
    if ph == "turn-end":
        _need(last_turn(state), f"settlements at turn end only in the last game turn ({text.SETTLE_WINDOW})")
    fuel, bucks = settle_payment(state, player, cmd.planet, ph == "turn-end")
    return [ev.PlanetSettled(player, cmd.planet, fuel, bucks)]


def decide_hub(state: State, cmd: c.RevealHub) -> list[Event]:
    _phase_is(state, "hub", what="revealing a hub")
    _need(cmd.hub in state.hubs, f"hub {cmd.hub} is not among the hidden hubs")
    return [ev.HubRevealed(state.turn + 1, cmd.hub)]


def decide_draw_card(state: State, cmd: c.DrawCard) -> list[Event]:
    _phase_is(state, "deal", "card", what="drawing a card")
    _need(cmd.card in state.deck, f"progress card {cmd.card} is not in the deck")
    player = state.players[state.dealt] if phase(state) == "deal" else state.current
    out: list[Event] = [ev.CardDrawn(player, cmd.card)]
    after = fold(state, out)
    if after.drawing and not after.deck and after.discard:
        out.append(ev.DeckReshuffled(len(after.discard)))  # 003 9.2 B I.2
    return out


# -- set-up without start cards ---------------------------------------------------------------------------


def decide_choose_start(state: State, cmd: c.ChooseStart) -> list[Event]:
    _phase_is(state, "choose-start", what="choosing a starting position")
    player = state.players[state.dealt]
    hand = state.mat(player).hand
    _need(cmd.shift != cmd.upgrade, f"the shifted and the upgraded tech die differ ({text.START_CHOICE})")
    keep = tuple(sorted(cmd.keep))
    _need(len(set(keep)) == 2 and all(k in hand for k in keep), f"keep two of your cards {list(hand)}")
    (discard,) = [k for k in hand if k not in keep]
    others = tuple(col for col in COLOURS if col not in (cmd.shift, cmd.upgrade))
    return [ev.StartChosen(player, cmd.shift, cmd.upgrade, others, keep, discard)]


# -- a player turn ----------------------------------------------------------------------------------------


def contaminate(state: State, player: str, cubes: int, why: str) -> list[Event]:
    """003 8.0: onto a free contamination space, else beside the mat."""
    mat = state.mat(player)
    cubes = min(cubes, state.contamination_pool)
    if cubes <= 0:
        return []
    free = max(0, contamination_spaces(state, mat) - mat.contamination)
    on = min(cubes, free)
    return [ev.Contaminated(player, on, cubes - on, why)]


def _die_on(state: State, colour: str, face: str, bonus: int) -> bool:
    values = state.cset.number("bridge.wheel.values")
    if bonus not in values:
        return False
    return any(d.colour == colour and d.face == face for d in state.bridge[values.index(bonus)])


def cannot_pay_anywhere(state: State, mat: Mat) -> bool:
    """Reading 1: every die lies on -1, and neither fuel, SpaceBucks nor an exchange can pay for one."""
    if mat.fuel + mat.bucks > 0:
        return False
    values = state.cset.number("mat.storage.values")
    worth = sum(values[k] * n for row in mat.storage for k, n in enumerate(row))
    if worth >= state.cset.number("mat.exchange.value_per_unit"):
        return False
    wheel = state.cset.number("bridge.wheel.values")
    return all(not dice for v, dice in zip(wheel, state.bridge) if v >= 0)


def decide_take(state: State, cmd: c.Take) -> list[Event]:
    _phase_is(state, "take", what="taking a die")
    player = state.current
    mat = state.mat(player)
    _need(_die_on(state, cmd.colour, cmd.face, cmd.bonus), f"no die {cmd.colour}{cmd.face} lies on the space with bonus {cmd.bonus}")
    if cmd.bonus < 0 and not cannot_pay_anywhere(state, mat):
        _need(mat.fuel + mat.bucks >= -cmd.bonus, f"the -1 space needs 1 fuel or SpaceBuck to pay; exchange first ({text.BONUS})")
    acts_as = cmd.colour
    card = 0
    if cmd.space == "transform":
        _need("transform" not in mat.used, f"the transformation space is used once per game turn ({text.TRANSFORM_ONCE})")
        _need(cmd.new_colour in COLOURS and cmd.new_colour != cmd.colour, f"the transformed die takes any other colour ({text.TRANSFORM})")
        acts_as = cmd.new_colour
    elif cmd.space == "research":
        _need("research" not in mat.used, f"the research space is used once per game turn ({text.RESEARCH_ONCE})")
    elif cmd.space == "card":
        _need(cmd.card in mat.developments, f"card {cmd.card} is not one of your developments")
        space = state.cset.card(cmd.card).die_space
        _need(space is not None, f"development {cmd.card} has no die space")
        assert space is not None
        _need(f"card:{cmd.card}" not in mat.used, f"the die space of card {cmd.card} is used once per game turn ({text.CARD_SPACE})")
        _need(space.accepts(cmd.colour), f"the die space of card {cmd.card} takes {' or '.join(space.colours)} dice")
        card = cmd.card
    else:
        _need(cmd.space == "standard", f"{cmd.space!r} is not a die space")
    points = die_points(state, mat, acts_as, cmd.face)
    ap = points + permanent_action_points(state, mat, acts_as)
    out: list[Event] = [ev.DieTaken(player, cmd.colour, cmd.face, cmd.bonus, cmd.space, acts_as, card, points, ap)]
    s = fold(state, out)
    # 003 9.2 A: contamination counts the die's own points, not bought points or card boosts (reading 2)
    for cubes, why in (
        (1 if points >= 3 else 0, "a die of 3 or more action points"),
        (1 if cmd.space == "transform" else 0, "the transformation space"),
        (1 if cmd.space == "research" else 0, "the research space"),
    ):
        if cubes:
            new = contaminate(s, player, cubes, why)
            s = fold(s, new)
            out.extend(new)
    if cmd.bonus < 0 and mat.fuel + mat.bucks < -cmd.bonus:
        out.append(ev.BonusTaken(player, 0, 0))  # reading 1: nothing to pay with and no other die to take
        s = fold(s, out[-1:])
    if card:
        space = state.cset.card(card).die_space
        assert space is not None
        out.extend(effects.apply(s, player, space.effects, f"die space of card {card}"))
    return out


def decide_bonus(state: State, cmd: c.Bonus) -> list[Event]:
    _phase_is(state, "bonus", what="taking a bonus")
    assert state.die is not None
    player = state.current
    mat = state.mat(player)
    bonus = state.die.bonus
    if bonus < 0:
        _need(sorted((cmd.fuel, cmd.bucks)) == [bonus, 0], f"the {bonus} space pays {-bonus} fuel or SpaceBucks: 'bonus fuel {bonus}' or 'bonus bucks {bonus}'")
        _need(mat.fuel + cmd.fuel >= 0 and mat.bucks + cmd.bucks >= 0, "you cannot pay with what you do not have")
    else:
        _need(cmd.fuel >= 0 and cmd.bucks >= 0 and cmd.fuel + cmd.bucks == bonus, f"the bonus is {bonus}: fuel and SpaceBucks adding up to {bonus} ({text.BONUS_SPLIT})")
    fuel = clamp_track(state, mat.fuel + cmd.fuel) - mat.fuel
    bucks = clamp_track(state, mat.bucks + cmd.bucks) - mat.bucks
    return [ev.BonusTaken(player, fuel, bucks)]


def available_points(state: State) -> int:
    assert state.die is not None
    return state.die.action_points + state.die.bought


def decide_buy_ap(state: State, cmd: c.BuyActionPoints) -> list[Event]:
    _phase_is(state, "action", what="buying action points")
    player = state.current
    price = state.cset.number("mat.exchange.bucks_per_action_point")
    _need(cmd.points >= 1, "buy at least one action point")
    _need(state.mat(player).bucks >= price * cmd.points, f"{cmd.points} action point(s) cost {price * cmd.points} SpaceBucks ({text.BUY_AP})")
    return [ev.TrackChanged(player, 0, -price * cmd.points, "bought action points"), ev.ActionPointsBought(player, cmd.points)]


def check_cubes(state: State, mat: Mat, cubes: tuple[tuple[str, int], ...], colours: tuple[str, ...]) -> None:
    """Each cube in turn obeys the pyramid (003 7.0) and there are cubes in the pool."""
    _need(len(cubes) <= state.resource_pool, "the pool has not that many resources")
    for colour, column in cubes:
        _need(colour in colours, f"these resources are {' or '.join(colours)}, not {colour}")
        why = can_place(state, mat, colour, column)
        _need(why is None, f"{why} ({text.PYRAMID})")
        mat = evolve_storage(mat, colour, column)


def evolve_storage(mat: Mat, colour: str, column: int) -> Mat:

    rows = [list(r) for r in mat.storage]
    rows[COLOURS.index(colour)][column - 1] += 1
    return frozen.evolve(mat, storage=tuple((r[0], r[1], r[2]) for r in rows))


def _upgrade_costs(state: State, mat: Mat, colours: tuple[str, ...], free: bool) -> int:
    costs = state.cset.number("mat.tech.upgrade_costs")
    tech = list(mat.tech)
    total = 0
    for colour in colours:
        i = COLOURS.index(colour)
        _need(tech[i] < len(costs), f"the {colour} tech die shows its highest side")
        total += 0 if free else costs[tech[i]]
        tech[i] += 1
    return total


def _shift_costs(state: State, mat: Mat, colours: tuple[str, ...], free: bool) -> int:
    costs = state.cset.number("mat.tech.shift_costs")
    columns = list(mat.columns)
    total = 0
    for colour in colours:
        i = COLOURS.index(colour)
        _need(columns[i] < 5, f"the {colour} tech die is in column V already")
        total += 0 if free else costs[columns[i] - 1]
        columns[i] += 1
    return total


def decide_resources(state: State, cmd: c.Resources) -> list[Event]:
    ph = _phase_is(state, "action", "effects", what="placing resources")
    player = acting(state)
    mat = state.mat(player)
    if ph == "effects":
        pending = state.effects[0]
        _need(pending.kind == "resources", f"the waiting effect is {pending.kind}, not resources")
        _need(len(cmd.cubes) <= pending.count, f"the effect gives {pending.count} resource(s)")
        colours = COLOURS if pending.colour == "any" else (pending.colour,)
        check_cubes(state, mat, cmd.cubes, colours)
        out: list[Event] = [ev.ResourcesPlaced(player, cmd.cubes)] if cmd.cubes else []
        return [*out, ev.EffectResolved(player)]
    assert state.die is not None
    points = available_points(state)
    _need(len(cmd.cubes) <= points, f"{points} action point(s) take at most {points} resource(s) ({text.TAKE_RESOURCES})")
    check_cubes(state, mat, cmd.cubes, (state.die.acts_as,))
    out = [ev.ResourcesPlaced(player, cmd.cubes)] if cmd.cubes else []
    return [*out, ev.DieActionDone(player, "resources", len(cmd.cubes), points - len(cmd.cubes))]


def decide_track_action(state: State, cmd: c.Command) -> list[Event]:
    kind = "fuel" if isinstance(cmd, c.Fuel) else "bucks"
    _phase_is(state, "action", what=f"taking {kind}")
    assert state.die is not None
    want = "black" if kind == "fuel" else "yellow"
    _need(state.die.acts_as == want, f"{kind} is the action of a {want} die ({text.ACTIONS})")
    player = state.current
    mat = state.mat(player)
    points = available_points(state)
    have = mat.fuel if kind == "fuel" else mat.bucks
    gain = clamp_track(state, have + points) - have
    delta = ev.TrackChanged(player, gain, 0, "black die action") if kind == "fuel" else ev.TrackChanged(player, 0, gain, "yellow die action")
    return [delta, ev.DieActionDone(player, kind, gain, points - gain)]


def decide_upgrade_or_shift(state: State, cmd: c.Upgrade | c.Shift) -> list[Event]:
    kind = "upgrade" if isinstance(cmd, c.Upgrade) else "shift"
    ph = _phase_is(state, "action", "effects", what=f"{kind} of tech dice")
    player = acting(state)
    mat = state.mat(player)
    costs: Callable[..., int] = _upgrade_costs if kind == "upgrade" else _shift_costs
    event: Event = ev.TechUpgraded(player, cmd.colours) if kind == "upgrade" else ev.TechShifted(player, cmd.colours)
    if ph == "effects":
        pending = state.effects[0]
        _need(pending.kind == kind, f"the waiting effect is {pending.kind}, not {kind}")
        _need(len(cmd.colours) <= pending.count, f"the effect gives {pending.count} free step(s)")
        costs(state, mat, cmd.colours, True)
        return [*([event] if cmd.colours else []), ev.EffectResolved(player)]
    assert state.die is not None
    want = "turquoise" if kind == "upgrade" else "brown"
    _need(state.die.acts_as == want, f"{kind} is the action of a {want} die ({text.ACTIONS})")
    points = available_points(state)
    cost = costs(state, mat, cmd.colours, False)
    rule = text.UPGRADE_COST if kind == "upgrade" else text.SHIFT_COST
    _need(cost <= points, f"that {kind} costs {cost} action points, the die brings {points} ({rule})")
    return [*([event] if cmd.colours else []), ev.DieActionDone(player, kind, cost, points - cost)]


def cards_available(state: State) -> int:
    return len(state.deck) + len(state.discard)


def request_cards(state: State, player: str, count: int, discard: int) -> list[Event]:
    out: list[Event] = []
    if not state.deck and state.discard:
        out.append(ev.DeckReshuffled(len(state.discard)))
    out.append(ev.CardsRequested(player, count, discard))
    return out


def card_side_text(cset: ComponentSet, card_id: int, side: str) -> str:
    card = cset.card(card_id)
    if side == "mission":
        return f"mission: {' + '.join(t.text() for t in card.cost)} for {card.vp} VP"
    parts = [effects.describe(e) for e in (*card.immediate, *card.permanent)]
    if card.die_space is not None:
        parts.append(
            f"die space ({' or '.join(card.die_space.colours)}): " + ", ".join(effects.describe(e) for e in card.die_space.effects)
        )
    return "development: " + "; ".join(parts)


def play_card(state: State, player: str, card: int, side: str) -> list[Event]:
    mat = state.mat(player)
    _need(card in mat.hand, f"card {card} is not in your hand {list(mat.hand)}")
    _need(side in ("mission", "development"), "a card is played as a mission or a development")
    if side == "mission":
        markers = state.cset.number("mat.missions.markers")
        _need(len(mat.missions) + len(mat.completed) < markers, f"{text.SIX_MISSIONS}")
    out: list[Event] = [ev.CardPlayed(player, card, side, card_side_text(state.cset, card, side))]
    if side == "development":
        s = fold(state, out)
        out.extend(effects.apply(s, player, state.cset.card(card).immediate, f"development {card}"))
    return out


def decide_draw(state: State, cmd: c.Draw) -> list[Event]:
    ph = _phase_is(state, "research", "supplementary", what="drawing")
    player = state.current
    avail = cards_available(state)
    if ph == "research":
        _need(avail > 0, "the deck and the discard pile are empty")
        return [ev.ResearchDone(player, "draw"), *request_cards(state, player, 1, 0)]
    _need(avail > 0, "the deck and the discard pile are empty")
    count = min(2, avail)
    return [ev.SupplementaryDone(player, "draw"), *request_cards(state, player, count, 1)]


def decide_play(state: State, cmd: c.PlayCard) -> list[Event]:
    ph = _phase_is(state, "research", "supplementary", what="playing a card")
    player = state.current
    events = play_card(state, player, cmd.card, cmd.side)
    done: Event = ev.ResearchDone(player, "play") if ph == "research" else ev.SupplementaryDone(player, "play")
    return [done, *events]


def decide_skip(state: State, cmd: c.Skip) -> list[Event]:
    _phase_is(state, "research", what="skipping the research draw")
    return [ev.ResearchDone(state.current, "skip")]


def decide_discard(state: State, cmd: c.Discard) -> list[Event]:
    _phase_is(state, "discard", what="discarding")
    player = state.current
    _need(cmd.card in state.mat(player).hand, f"card {cmd.card} is not in your hand")
    return [ev.CardDiscarded(player, cmd.card)]


def decide_drives(state: State, cmd: c.BuyDrives) -> list[Event]:
    _phase_is(state, "supplementary", what="buying drives")
    player = state.current
    mat = state.mat(player)
    n = state.cset.number
    room = n("mat.drives.common_slots") - len(mat.drives)
    _need(1 <= cmd.count <= room, f"your ship has room for {room} more drive(s) ({text.DRIVES})")
    _need(cmd.count <= state.drive_pool, f"the pool holds {state.drive_pool} drive(s)")
    price = n("mat.drives.price") * cmd.count
    _need(mat.fuel >= price, f"{cmd.count} drive(s) cost {price} fuel ({text.DRIVES})")
    return [ev.SupplementaryDone(player, "drives"), ev.TrackChanged(player, -price, 0, "bought drives"), ev.DrivesBought(player, cmd.count)]


def decide_pass(state: State, cmd: c.Pass) -> list[Event]:
    _phase_is(state, "supplementary", what="passing the supplementary action")
    return [ev.SupplementaryDone(state.current, "pass")]


def decide_end_turn(state: State, cmd: c.EndTurn) -> list[Event]:
    ph = _phase_is(state, "supplementary", "space", "after", what="ending the turn")
    player = state.current
    out: list[Event] = [ev.SupplementaryDone(player, "pass")] if ph == "supplementary" else []
    return [*out, ev.TurnEnded(player)]


def _anytime(state: State, what: str) -> str:
    _phase_is(state, *ANYTIME, what=what)
    return state.current


def decide_exchange_for_resource(state: State, cmd: c.ExchangeForResource) -> list[Event]:
    player = _anytime(state, "an exchange")
    mat = state.mat(player)
    units = state.cset.number("mat.exchange.units_per_resource")
    _need(cmd.fuel >= 0 and cmd.bucks >= 0 and cmd.fuel + cmd.bucks == units, f"one resource costs {units} fuel and/or SpaceBucks ({text.EXCHANGE})")
    _need(mat.fuel >= cmd.fuel and mat.bucks >= cmd.bucks, "you cannot pay with what you do not have")
    check_cubes(state, mat, ((cmd.colour, cmd.column),), COLOURS)
    return [ev.TrackChanged(player, -cmd.fuel, -cmd.bucks, "exchange"), ev.ResourcesPlaced(player, ((cmd.colour, cmd.column),))]


def decide_exchange_resources(state: State, cmd: c.ExchangeResources) -> list[Event]:
    player = _anytime(state, "an exchange")
    mat = state.mat(player)
    _need(bool(cmd.cubes), "name the resources to exchange")
    rows = [list(r) for r in mat.storage]
    for colour, column in cmd.cubes:
        rows[COLOURS.index(colour)][column - 1] -= 1
        _need(rows[COLOURS.index(colour)][column - 1] >= 0, f"you have not that many {colour} resources in column {roman(column)}")
    values = state.cset.number("mat.storage.values")
    value = sum(values[column - 1] for _, column in cmd.cubes)
    per = state.cset.number("mat.exchange.value_per_unit")
    units = value // per
    _need(units >= 1, f"resources of total value {value} buy nothing: {per} value per fuel or SpaceBuck ({text.EXCHANGE_VALUE})")
    _need(cmd.fuel >= 0 and cmd.bucks >= 0 and cmd.fuel + cmd.bucks == units,
          f"resources of value {value} give {units} fuel and/or SpaceBucks ({text.EXCHANGE_VALUE})")
    fuel = clamp_track(state, mat.fuel + cmd.fuel) - mat.fuel
    bucks = clamp_track(state, mat.bucks + cmd.bucks) - mat.bucks
    return [ev.ResourcesRemoved(player, cmd.cubes), ev.TrackChanged(player, fuel, bucks, "exchange")]


def decide_upgrade_drive(state: State, cmd: c.UpgradeDrive) -> list[Event]:
    player = _anytime(state, "upgrading a drive")
    mat = state.mat(player)
    _need(1 in mat.drives, f"you have no common drive on its 1 side (your own drive stays 1: {text.OWN_DRIVE})")
    price = state.cset.number("mat.drives.upgrade_price")
    _need(mat.fuel >= price, f"upgrading a drive costs {price} fuel ({text.UPGRADE_DRIVE})")
    return [ev.TrackChanged(player, -price, 0, "upgraded a drive"), ev.DriveUpgraded(player, mat.drives.index(1))]


# -- space: the map's chance (part 2) ---------------------------------------------------------------------


def decide_tiles(state: State, cmd: c.PlaceTiles) -> list[Event]:
    """4.0 "The other six tiles are placed circularly and in any alignment around the center", then
    "the players put one planet per planet space on the game board (space) - according to the number
    of players", face down."""
    _phase_is(state, "tiles", what="placing the tiles")
    outer = sorted(t.name for t in state.cset.tiles if t.name != "centre")
    _need(sorted(letter for letter, _ in cmd.placement) == outer,
          f"the outer tiles are {', '.join(outer)}, each placed once")
    _need(all(0 <= r < 6 for _, r in cmd.placement), "a tile's rotation is 0-5")
    board = board_of(state.cset.layouts, cmd.placement)
    return [ev.TilesPlaced(cmd.placement), ev.PlanetsDealt(board.planet_spaces(len(state.players)))]


def planet_text(cset: ComponentSet, planet: int) -> str:
    p = cset.planets[planet]
    pre = dict(p.precondition)
    kind = pre.pop("kind")
    return f"{p.colour} {p.vp} VP, {kind} " + " ".join(f"{k} {v}" for k, v in sorted(pre.items()))


def revealable(state: State) -> dict[str, list[int]]:
    """The planets a face-down one may turn out to be, by colour: not yet seen, and of a colour of
    which fewer have been turned than are in play for the player count (4.0)."""
    seen = set(revealed_planets(state))
    out: dict[str, list[int]] = {}
    for colour in COLOURS:
        ids = sorted(i for i, p in state.cset.planets.items() if p.colour == colour)
        turned = sum(1 for i in ids if i in seen)
        if turned < planets_in_play(state, colour):
            out[colour] = [i for i in ids if i not in seen]
    return out


def decide_reveal_planet(state: State, cmd: c.RevealPlanet) -> list[Event]:
    _phase_is(state, "reveal", what="naming a planet")
    cset = state.cset
    _need(cmd.planet in cset.planets, f"the set has no planet {cmd.planet}")
    _need(cmd.planet not in revealed_planets(state), f"planet {cmd.planet} has been turned already")
    colour = cset.planets[cmd.planet].colour
    _need(cmd.planet in revealable(state).get(colour, ()),
          f"all {planets_in_play(state, colour)} {colour} planets in play with {len(state.players)} players "
          "have been turned (4.0 sorts the rest out)")
    assert state.revealing is not None
    return [ev.PlanetRevealed(state.revealing, cmd.planet, planet_text(cset, cmd.planet))]


HANDLERS: dict[type, Callable[[State, Any], list[Event]]] = {
    c.DealStartCard: decide_deal_start_card,
    c.FirstPlayer: decide_first,
    c.Roll: decide_roll,
    c.RevealHub: decide_hub,
    c.DrawCard: decide_draw_card,
    c.ChooseStart: decide_choose_start,
    c.Take: decide_take,
    c.Bonus: decide_bonus,
    c.BuyActionPoints: decide_buy_ap,
    c.Resources: decide_resources,
    c.Fuel: decide_track_action,
    c.Bucks: decide_track_action,
    c.Upgrade: decide_upgrade_or_shift,
    c.Shift: decide_upgrade_or_shift,
    c.Draw: decide_draw,
    c.PlayCard: decide_play,
    c.Skip: decide_skip,
    c.Discard: decide_discard,
    c.BuyDrives: decide_drives,
    c.Pass: decide_pass,
    c.EndTurn: decide_end_turn,
    c.ExchangeForResource: decide_exchange_for_resource,
    c.ExchangeResources: decide_exchange_resources,
    c.UpgradeDrive: decide_upgrade_drive,
    c.Settle: decide_settle,
    c.Close: decide_close,
    c.PlaceTiles: decide_tiles,
    c.RevealPlanet: decide_reveal_planet,
    c.Fly: space.decide_fly,
    c.Colonize: space.decide_colonize,
    c.Decline: space.decide_decline,
    c.Build: space.decide_build,
    c.CompleteMission: space.decide_mission,
    c.HubBonus: space.decide_hub_bonus,
}


def decide(state: State, command: Command) -> tuple[Event, ...]:
    if state.over:
        raise IllegalCommand("the game is over")
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise IllegalCommand(f"Solarius Mission has no command {type(command).__name__}")
    return tuple(handler(state, command))


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
    costs = _upgrade_costs if kind == "upgrade" else _shift_costs

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



# -- at the table: what to click (``solrec serve``) -------------------------------------------------------


def die_step(colour: str, face: str, bonus: int) -> str:
    """A die on the bridge as a step: as the notation writes it (``black3@-1``), the ``data-spot`` of the
    die in the picture."""
    return f"{colour}{face}@{bonus}"


def choice_of(state: State, cmd: Command, board: Any) -> Choice:
    """One command as clicks: a die then its action; a flight by its destination hex (its cost
    beside it); a station or a mission by its card, then the payment; a card then its side; a start by
    the cards kept, then the shifted and the upgraded tech die; an exchange by what is given, then what
    is got; the rest one click, under its first word."""
    text = notation_format(cmd, board)
    head, _, rest = text.partition(" ")
    if isinstance(cmd, c.Take):
        return Choice(text, (die_step(cmd.colour, cmd.face, cmd.bonus), rest.partition(" ")[2]), "take")
    if isinstance(cmd, c.Fly):
        return Choice(text, (space.format_hex(state, cmd.path[-1]),), "fly", space.describe_cost(state, cmd))
    if isinstance(cmd, (c.Build, c.CompleteMission)):
        card, _, payment = rest.partition(" ")
        what = f"station {card}" if isinstance(cmd, c.Build) else f"mission {card}"
        return Choice(text, (what, payment) if payment else (what,), head)
    if isinstance(cmd, c.PlayCard):
        return Choice(text, (f"card {cmd.card}", cmd.side), head)
    if isinstance(cmd, c.ChooseStart):
        return Choice(text, ("keep " + " ".join(map(str, cmd.keep)), f"shift {cmd.shift}", f"upgrade {cmd.upgrade}"), head)
    if isinstance(cmd, (c.ExchangeForResource, c.ExchangeResources)):
        given, _, got = rest.partition(" for ")
        return Choice(text, (given, f"for {got}"), head)
    return Choice(text, (text,), head)


def chance_choices(state: State) -> tuple[Form, ...]:
    return (chance_form(state),)


def choices(state: State, actor: str) -> Choices:
    """The actor's commands as clicks (``choice_of``); where the resource exchanges are too many to list
    (``LIMIT``), the other commands still listed and the exchanges as a form. At an entered table's
    chance step, a form of what chance names (``chance_form``)."""
    board = state.board if state.placement else None
    listed = legal_commands(state)
    forms: tuple[Form, ...] = ()
    if listed is None:
        listed = (*phase_commands(state), *(anytime_commands(state, False) if phase(state) in ANYTIME else ()))
        forms = (exchange_form(state),) if phase(state) in ANYTIME else ()
    return Choices(actor, tuple(choice_of(state, cmd, board) for cmd in listed), forms)


def exchange_form(state: State) -> Form:
    """Resources exchanged for fuel and SpaceBucks (003 9.2 d.1), picked row by row: the cubes of each
    row the player has, then how the value is taken."""
    mat = state.mats[state.actor]
    values = state.cset.number("mat.storage.values")
    fields = []
    for i, colour in enumerate(COLOURS):
        counts = mat.storage[i]
        if not any(counts):
            continue
        picks = [" ".join((colour, *(roman(k + 1) for k, n in enumerate(taken) for _ in range(n))))
                 for taken in itertools.product(*(range(n + 1) for n in counts)) if any(taken)]
        fields.append(Field(colour, ("", *picks)))
    per = state.cset.number("mat.exchange.value_per_unit")
    owned = [(colour, k + 1) for i, colour in enumerate(COLOURS) for k, n in enumerate(mat.storage[i]) for _ in range(n)]
    units = range(sum(values[column - 1] for _, column in owned) // per + 1)
    fields += [Field("fuel", tuple(map(str, units))), Field("bucks", tuple(map(str, units)))]
    template = "exchange " + " ".join(f"{{{f.name}}}" for f in fields[:-2]) + " for fuel {fuel} bucks {bucks}"
    given: list[tuple[str, int]] = []  # the example: the most valuable cubes, until they buy one unit
    for cube in sorted(owned, key=lambda cube: -values[cube[1] - 1]):
        given.append(cube)
        if sum(values[column - 1] for _, column in given) >= per:
            break
    worth = sum(values[column - 1] for _, column in given) // per
    example = c.ExchangeResources(tuple(sorted(given, key=lambda cube: (COLOURS.index(cube[0]), cube[1]))), worth, 0)
    return Form("exchange", template, tuple(fields), notation_format(example),
                "resources given for fuel and SpaceBucks: their value // 2 (003 9.2 d.1)")


def _accepts(state: State, cmd: Command) -> bool:
    try:
        return bool(decide(state, cmd))
    except IllegalCommand:
        return False


def chance_form(state: State) -> Form:
    """What chance names now, as parts to pick, each from what the table may know: every start card or
    progress card of the set (never the deck's content), the players, the colours in the bag (its counts
    are public) and the faces, the hubs not built yet, the outer tiles and their turns, the planets not
    seen yet of the colours still to turn. The example is the first pick ``decide`` accepts."""
    ph = phase(state)
    cset = state.cset
    fields: tuple[Field, ...]
    if ph == "start-card":
        template, fields = "start-card {card}", (Field("card", tuple(map(str, sorted(cset.start_cards)))),)
        label = f"the start card {state.players[state.dealt]} receives"
    elif ph in ("deal", "card"):
        template, fields = "card {card}", (Field("card", tuple(map(str, sorted(cset.progress_cards)))),)
        taker = state.players[state.dealt] if ph == "deal" and state.dealt < len(state.players) else state.current
        label = f"the progress card {taker} draws"
    elif ph == "first-player":
        template, fields, label = "first {player}", (Field("player", state.players),), "the starting player"
    elif ph in ("bridge", "refill"):
        colours = tuple(col for col, k in zip(COLOURS, state.bag) if k)
        faces = tuple(dict.fromkeys(cset.number("dice.action_dice.faces")))
        template, fields = "roll {colour} {face}", (Field("colour", colours), Field("face", faces))
        label = "the die drawn from the bag and its face"
    elif ph == "hub":
        unbuilt = tuple(h for h in cset.number("dice.hubs.letters") if h not in state.hubs_built)
        template, fields = "hub {hub}", (Field("hub", unbuilt),)
        label = f"the commercial hub turned for game turn {state.turn + 1}"
    elif ph == "tiles":
        from .board import OUTER

        fields = tuple(f for k in range(1, len(OUTER) + 1)
                       for f in (Field(f"tile{k}", OUTER, once=True), Field(f"turn{k}", tuple("012345"))))
        template = "tiles " + " ".join(f"{{tile{k}}}{{turn{k}}}" for k in range(1, len(OUTER) + 1))
        label = "the outer tiles clockwise from the top, each with its turn"
    else:
        assert ph == "reveal"
        planets = tuple(map(str, sorted(p for ids in revealable(state).values() for p in ids)))
        template, fields, label = "planet {planet}", (Field("planet", planets),), "the planet turned face up"
    return Form(ph, template, fields, _first_accepted(state, template, fields), label)


def _first_accepted(state: State, template: str, fields: tuple[Field, ...]) -> str:
    """The first command the fields spell (each field's values in order, the last varying fastest) that
    ``decide`` accepts; tiles are spelt as placed around the centre in order, each once."""
    from .notation import parse

    if template.startswith("tiles"):
        return "tiles A0 B0 C0 D0 E0 F0"
    for pick in itertools.product(*(f.values for f in fields)):
        text = template.format(**{f.name: v for f, v in zip(fields, pick)})
        if _accepts(state, parse(text, state)):
            return text
    raise AssertionError(f"no {template!r} is accepted")  # chance always has an outcome


# -- the random player --------------------------------------------------------------------------------------


def sample(state: State, rng: Any) -> Command:
    ph = phase(state)
    main = phase_commands(state)
    if not main:  # e.g. every die on -1 and nothing to pay with: exchange resources first (reading 1)
        mat = state.mats[state.actor]
        cubes = [(col, column) for i, col in enumerate(COLOURS) for column in (3, 2, 1) for _ in range(mat.storage[i][column - 1])]
        values = state.cset.number("mat.storage.values")
        return c.ExchangeResources(tuple(sorted(cubes[:2], key=lambda x: (COLOURS.index(x[0]), x[1]))) if values[cubes[0][1] - 1] < 2
                                   else (cubes[0],), 1, 0)
    if ph in ANYTIME and rng.random() < 0.08:
        extra = anytime_commands(state, False)
        mat = state.mats[state.actor]
        if mat.resources and rng.random() < 0.5:
            cubes = []
            for i, col in enumerate(COLOURS):
                for column in (1, 2, 3):
                    cubes.extend([(col, column)] * rng.randrange(mat.storage[i][column - 1] + 1))
            values = state.cset.number("mat.storage.values")
            units = sum(values[column - 1] for _, column in cubes) // state.cset.number("mat.exchange.value_per_unit")
            if units:
                fuel = rng.randrange(units + 1)
                extra.append(c.ExchangeResources(tuple(cubes), fuel, units - fuel))
        if extra:
            return extra[rng.randrange(len(extra))]
    if ph in ANYTIME and rng.random() < 0.5:
        settles = settle_options(state, state.current, False)
        if settles:
            return c.Settle(settles[rng.randrange(len(settles))])
    if ph == "supplementary" and rng.random() < 0.9:
        prepare = space.sample_prepare(state, rng)
        if prepare is not None:
            return prepare
    if ph == "supplementary" and rng.random() < 0.75:
        flight = space.sample_flight(state, rng)
        if flight is not None:
            return flight
    if ph in ("space", "explore"):
        return space.sample_space(main, rng)
    if ph in ("research", "supplementary") and rng.random() < 0.5:
        mat = state.mats[state.actor]
        missions = [m for m in main if isinstance(m, c.PlayCard) and m.side == "mission"
                    and space.mission_within_storage(state, mat, m.card)]
        if missions:  # missions give the flights a purpose
            return missions[rng.randrange(len(missions))]
    if ph == "after" or (ph == "supplementary" and rng.random() < 0.3):
        return c.EndTurn()
    if ph == "action":
        buys = [m for m in main if isinstance(m, c.BuyActionPoints)]
        acts = [m for m in main if not isinstance(m, c.BuyActionPoints)]
        if buys and rng.random() < 0.1:
            return buys[0]
        # prefer using the points: the largest actions are drawn more often
        acts.sort(key=lambda m: len(getattr(m, "cubes", getattr(m, "colours", ()))))
        if len(acts) > 1 and rng.random() < 0.6:
            return acts[-1 - rng.randrange(min(3, len(acts)))]
        return acts[rng.randrange(len(acts))]
    return main[rng.randrange(len(main))]
