"""Solarius Mission rules: decide each command. The legal ones are listed in ``legal.py``, shown as
clicks in ``choices.py`` and drawn for simulations in ``sampling.py``; each imports this module, never
the other way.

``decide`` refuses with a reason a player understands (IllegalCommand) and returns the events of
a legal command; automatic consequences (contamination, the bridge set-up after the fourth die,
the end of a game turn) are further events of the same command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import frozen
from ..errors import IllegalCommand
from ..game import Command, Event
from ..words import quoted
from . import commands as c
from . import effects, space, text
from . import events as ev
from .board import board_of
from .components import COLOURS, ComponentSet
from .state import (
    Mat,
    State,
    acting,
    can_place,
    clamp_track,
    contamination_spaces,
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


def die_step(colour: str, face: str, bonus: int) -> str:
    """A die on the bridge as a step: as the notation writes it (``black3@-1``), the ``data-spot`` of the
    die in the picture (``render.py``) and the first click of a take (``choices.py``)."""
    return f"{colour}{face}@{bonus}"


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
    _need(cmd.player in state.players, f"{quoted(cmd.player)} is not a player ({', '.join(state.players)})")
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
        _need(cmd.space == "standard", f"{quoted(cmd.space)} is not a die space")
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


def upgrade_costs(state: State, mat: Mat, colours: tuple[str, ...], free: bool) -> int:
    costs = state.cset.number("mat.tech.upgrade_costs")
    tech = list(mat.tech)
    total = 0
    for colour in colours:
        i = COLOURS.index(colour)
        _need(tech[i] < len(costs), f"the {colour} tech die shows its highest side")
        total += 0 if free else costs[tech[i]]
        tech[i] += 1
    return total


def shift_costs(state: State, mat: Mat, colours: tuple[str, ...], free: bool) -> int:
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
    costs: Callable[..., int] = upgrade_costs if kind == "upgrade" else shift_costs
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
