"""Solarius Mission in words: each event said once, for the record (``record``: what ``log``, the
replay page and the move list print) and in the past tense after the actor's name for the seat
page's "since your last move" (``since``), and each command said for a button (``command``).

The words never name a card a player receives or keeps at the start, nor one drawn (the move list's
"card (hidden)"); a card played or discarded in play is public. The game (``describe_event``) and
the observation (``said``) both read this module; neither imports the other.
"""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from ..observe import phrases
from . import commands as c
from . import events as ev
from . import text
from .board import Board, format_hex
from .state import State


def board_at(state: Any) -> Board | None:
    """The board of a position once its tiles lie (labels need it), else None (axial q,r)."""
    return state.board if isinstance(state, State) and state.placement else None


def record(event: Event, board: Board | None = None) -> str:  # noqa: C901 - one line per event type
    """One line for an event; hexes by their labels when ``board`` (the position's) is given, else q,r."""
    e: Any = event
    if isinstance(event, ev.StartCardDealt):
        # the start card and the two progress cards it names are hidden at the table; the rest shows on the mat
        return f"{e.player} receives a start card: {e.text.split(', cards')[0]}, 2 progress cards"
    if isinstance(event, ev.StartChosen):
        return f"{e.player} shifts {e.shift}, upgrades {e.upgrade}, takes resources {' '.join(e.resources)}, discards a card"
    if isinstance(event, ev.StartingPlayerChosen):
        return f"{e.player} is the starting player"
    if isinstance(event, ev.SetupDieRolled):
        return f"bridge die rolled: {e.colour}{e.face}"
    if isinstance(event, ev.BridgeSetUp):
        return "bridge: " + "  ".join(f"[{v:+d}] {' '.join(s) or '-'}" for v, s in zip((-1, 0, 1, 2, 3), e.spaces))
    if isinstance(event, ev.HubRevealed):
        return f"game turn {e.turn}: commercial hub {e.hub} is built"
    if isinstance(event, ev.DieTaken):
        where = {"transform": f"the transformation space as {e.acts_as}", "card": f"the die space of card {e.card}"}.get(
            e.space, f"the {e.space} space")
        return f"{e.player} takes {e.colour}{e.face} (bonus {e.bonus:+d}) onto {where}: {e.action_points} action point(s)"
    if isinstance(event, ev.Contaminated):
        beside = f", {e.beside} beside the mat" if e.beside else ""
        return f"{e.player}: contamination for {e.why} ({e.on_spaces} on spaces{beside})"
    if isinstance(event, ev.ContaminationRemoved):
        return f"{e.player} removes {e.count} contamination"
    if isinstance(event, ev.TrackChanged):
        return f"{e.player}: fuel {e.fuel:+d}, SpaceBucks {e.bucks:+d} ({e.why})"
    if isinstance(event, ev.BonusTaken):
        return f"{e.player}: bridge bonus fuel {e.fuel:+d}, SpaceBucks {e.bucks:+d}"
    if isinstance(event, ev.ActionPointsBought):
        return f"{e.player} buys {e.points} action point(s)"
    if isinstance(event, ev.ActionPointsAdded):
        return f"{e.player}: +{e.points} action point(s) from the die space"
    if isinstance(event, ev.ResourcesPlaced):
        return f"{e.player} places " + (", ".join(f"{col} {('I', 'II', 'III')[k - 1]}" for col, k in e.cubes) or "nothing")
    if isinstance(event, ev.ResourcesRemoved):
        return f"{e.player} returns " + ", ".join(f"{col} {('I', 'II', 'III')[k - 1]}" for col, k in e.cubes)
    if isinstance(event, ev.TechUpgraded):
        return f"{e.player} upgrades {' '.join(e.colours)}"
    if isinstance(event, ev.TechShifted):
        return f"{e.player} shifts {' '.join(e.colours)}"
    if isinstance(event, ev.DieActionDone):
        return f"{e.player}: die action {e.action}, {e.used} used, {e.forfeited} forfeited"
    if isinstance(event, ev.ResearchDone):
        return f"{e.player}: research space, {e.what}"
    if isinstance(event, ev.CardsRequested):
        return f"{e.player} draws {e.count} card(s)" + (f", then discards {e.discard}" if e.discard else "")
    if isinstance(event, ev.CardDrawn):
        return f"{e.player} draws a card"
    if isinstance(event, ev.DeckReshuffled):
        return f"the {e.cards} discarded cards are shuffled into a new deck"
    if isinstance(event, ev.CardDiscarded):
        return f"{e.player} discards card {e.card}"
    if isinstance(event, ev.CardPlayed):
        return f"{e.player} plays card {e.card} as {e.text}"
    if isinstance(event, ev.EffectWaiting):
        return f"{e.player} chooses: {e.count} {e.kind}" + (f" ({e.colour})" if e.colour else "")
    if isinstance(event, ev.EffectResolved):
        return f"{e.player}: effect resolved"
    if isinstance(event, ev.DrivesBought):
        return f"{e.player} buys {e.count} drive(s)"
    if isinstance(event, ev.DrivesGained):
        return f"{e.player} gains {e.count} neutral drive(s)"
    if isinstance(event, ev.DriveUpgraded):
        return f"{e.player} upgrades drive {e.slot + 1} to 2"
    if isinstance(event, ev.SupplementaryDone):
        return f"{e.player}: supplementary action {e.what}"
    if isinstance(event, ev.TurnEnded):
        return f"{e.player} ends the turn"
    if isinstance(event, ev.Refilled):
        return f"the wheel turns; refill die {e.colour}{e.face} onto -1"
    if isinstance(event, ev.TurnEndStarted):
        return "turn end: station effects and settlements, in turn order " + ", ".join(e.order)
    if isinstance(event, ev.PlayerClosed):
        return f"{e.player} closes the game turn"
    if isinstance(event, ev.PlanetSettled):
        paid = f" for {e.fuel} fuel" if e.fuel else (f" for {e.bucks} SpaceBucks" if e.bucks else "")
        return f"{e.player} completes the settlement of planet {e.planet}{paid}"
    if isinstance(event, ev.SPACE):
        return _space(event, board)
    if isinstance(event, ev.GameTurnEnded):
        return f"game turn {e.turn} ends" + (f"; {e.next_start} starts the next" if e.next_start else "; end game scoring")
    if isinstance(event, ev.TilesPlaced):
        return "space: outer tiles clockwise from the top " + " ".join(f"{t}{r}" for t, r in e.placement)
    if isinstance(event, ev.PlanetsDealt):
        return f"{len(e.hexes)} planets are dealt face down"
    if isinstance(event, ev.PlanetTurned):
        return f"{e.player} turns the planet at {format_hex(e.hex, board)}"
    if isinstance(event, ev.PlanetRevealed):
        return f"the planet at {format_hex(e.hex, board)} is planet {e.planet}: {e.text}"
    return type(event).__name__


def record_at(event: Event, state: Any) -> str:
    """``record`` at a position (the one before the event, or a later one of the same game): hexes by
    the board's labels, a bonus the full track did not take."""
    if isinstance(event, ev.BonusTaken) and isinstance(state, State):
        return record(event) + bonus_lost(state, event)
    return record(event, board_at(state))


def bonus_lost(state: State, e: ev.BonusTaken) -> str:
    """What of a bonus the full track did not take (5.0 "A player may never have more than 10 fuel or
    SpaceBucks"): ``e`` records what was received; ``state`` (before it) holds the die's bonus."""
    bonus = state.die.bonus if state.die is not None else 0
    lost = bonus - (e.fuel + e.bucks)
    if bonus <= 0 or lost <= 0:
        return ""
    mat = state.mat(e.player)
    top = state.cset.number("mat.track.maximum")
    full = [name for name, now in (("fuel", mat.fuel + e.fuel), ("SpaceBucks", mat.bucks + e.bucks)) if now >= top]
    return f"; {lost} lost: the {' and '.join(full) or 'track'} track is full at {top} ({text.TRACK_MAX})"


def _space(event: Event, board: Board | None = None) -> str:
    e: Any = event

    def at(h: Any) -> str:
        return format_hex(h, board)

    if isinstance(event, ev.PortalsActivated):
        how = "returns a drive of value 1 to the pool" if e.returned else f"flips drive {e.slot + 1} from 2 to 1"
        return f"{e.player} {how}: the portals are active this turn, the range is 1 less"
    if isinstance(event, ev.ShipFlown):
        words = [at(h) if i not in e.jumps else f"P {at(h)}" for i, h in enumerate(e.path)]
        # what was paid: the drives' range, and range bought at once with fuel (9.2 B II "Each additional
        # point of range costs two fuel"); the fuel itself is the TrackChanged event before this one
        paid = f": {e.cost - e.bought} from the drives, {e.bought} bought with fuel" if e.bought else ""
        return f"{e.player} flies {' '.join(words)} (range {e.cost}{paid})"
    if isinstance(event, ev.PlanetColonized):
        return f"{e.player} colonizes planet {e.planet} at {at(e.hex)}: a colony; the planet waits beside the mat"
    if isinstance(event, ev.PlanetDeclined):
        return f"{e.player} declines planet {e.planet} at {at(e.hex)}: explorer bonus of {e.vp} resource(s)"
    if isinstance(event, ev.StationBuilt):
        return f"{e.player} builds a space station (card {e.card}) at {at(e.hex)}"
    if isinstance(event, ev.MissionCompleted):
        bonus = {"now": "; hub bonus now", "later": "; hub bonus when the hub is built", "": ""}[e.bonus]
        return f"{e.player} completes mission {e.card} at {at(e.hex)} next to hub {e.hub}{bonus}"
    if isinstance(event, ev.OutpostBuilt):
        return f"{e.player} builds outpost {e.outpost} at {at(e.hex)}"
    if isinstance(event, ev.HubBonusTaken):
        return f"{e.player} takes the bonus of outpost {e.outpost} for hub {e.hub}"
    if isinstance(event, ev.SpaceActionDone):
        return f"{e.player}: after the flight, {e.what}"
    return type(event).__name__


_ROMAN = ("I", "II", "III")


def _count(n: int, what: str) -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


def _track(fuel: int, bucks: int) -> str:
    gained = [f"{n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n > 0]
    paid = [f"{-n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n < 0]
    return phrases([*(["gained " + " and ".join(gained)] if gained else []), *(["paid " + " and ".join(paid)] if paid else [])])


def since(event: Event, before: Any, actor: str) -> str:  # noqa: C901 - one phrase per event type
    """One event in words after the actor's name (past tense), or "" for a detail the sentence leaves
    to the move list (a bonus's track, contamination, an effect resolved)."""
    e: Any = event
    board = board_at(before)

    def at(h: Any) -> str:
        return format_hex(h, board)

    def planet(n: int) -> str:
        found = before.cset.planets.get(n) if isinstance(before, State) else None
        return f"a {found.colour} planet" if found is not None else f"planet {n}"

    other = "" if actor == getattr(e, "player", actor) else f" for {e.player}"
    if isinstance(event, ev.StartCardDealt):
        return f"dealt {e.player} a start card"
    if isinstance(event, ev.StartChosen):
        return f"started shifting {e.shift} and upgrading {e.upgrade}"
    if isinstance(event, ev.StartingPlayerChosen):
        return f"chose {e.player} to start"
    if isinstance(event, ev.SetupDieRolled):
        return f"rolled {e.colour}{e.face} onto the bridge"
    if isinstance(event, ev.HubRevealed):
        return f"built commercial hub {e.hub}"
    if isinstance(event, ev.DieTaken):
        where = {"transform": f"the transformation space as {e.acts_as}", "card": f"the die space of card {e.card}"}.get(
            e.space, f"the {e.space} space")
        return f"took the {e.colour}{e.face} die onto {where}"
    if isinstance(event, (ev.BonusTaken, ev.TrackChanged)):
        return _track(e.fuel, e.bucks) + other
    if isinstance(event, (ev.ResourcesPlaced, ev.ResourcesRemoved)) and e.cubes:
        cubes = [f"{col} {_ROMAN[k - 1]}" for col, k in e.cubes]
        counted = [c if cubes.count(c) == 1 else f"{cubes.count(c)}x {c}" for c in dict.fromkeys(cubes)]
        return ("placed " if isinstance(event, ev.ResourcesPlaced) else "returned ") + phrases(counted) + other
    if isinstance(event, ev.TechUpgraded):
        return f"upgraded {' and '.join(e.colours)}{other}"
    if isinstance(event, ev.TechShifted):
        return f"shifted {' and '.join(e.colours)}{other}"
    if isinstance(event, ev.ActionPointsBought):
        return f"bought {_count(e.points, 'action point')}"
    if isinstance(event, ev.CardsRequested):
        return f"drew {_count(e.count, 'card')}"
    if isinstance(event, ev.CardDrawn):
        return f"dealt {e.player} a card"
    if isinstance(event, ev.DeckReshuffled):
        return "shuffled the discards into a new deck"
    if isinstance(event, ev.CardDiscarded):
        return f"discarded card {e.card}"
    if isinstance(event, ev.CardPlayed):
        return f"played card {e.card} as a {e.side}"
    if isinstance(event, ev.DrivesBought):
        return f"bought {_count(e.count, 'drive')}"
    if isinstance(event, ev.DrivesGained):
        return f"gained {_count(e.count, 'neutral drive')}"
    if isinstance(event, ev.DriveUpgraded):
        return "upgraded a drive to 2"
    if isinstance(event, ev.TurnEnded):
        return "ended the turn"
    if isinstance(event, ev.Refilled):
        return f"rolled {e.colour}{e.face} onto the wheel"
    if isinstance(event, ev.PlayerClosed):
        return "closed the game turn"
    if isinstance(event, ev.PlanetSettled):
        return f"completed the settlement of {planet(e.planet)}"
    if isinstance(event, ev.GameTurnEnded):
        return f"ended game turn {e.turn}"
    if isinstance(event, ev.TilesPlaced):
        return "laid out the outer tiles"
    if isinstance(event, ev.PlanetsDealt):
        return f"dealt {len(e.hexes)} planets face down"
    if isinstance(event, ev.PlanetRevealed):
        return f"turned up {planet(e.planet)} at {at(e.hex)}"
    if isinstance(event, ev.PortalsActivated):
        return "activated the portals"
    if isinstance(event, ev.ShipFlown):
        return f"flew to {at(e.path[-1])}" + (" through a portal" if e.jumps else "")
    if isinstance(event, ev.PlanetColonized):
        return f"colonized {planet(e.planet)}"
    if isinstance(event, ev.PlanetDeclined):
        return f"declined {planet(e.planet)}"
    if isinstance(event, ev.StationBuilt):
        return f"built a space station at {at(e.hex)}"
    if isinstance(event, ev.MissionCompleted):
        return f"completed a mission at {at(e.hex)}"
    if isinstance(event, ev.OutpostBuilt):
        return f"built an outpost at {at(e.hex)}"
    if isinstance(event, ev.HubBonusTaken):
        return f"took the bonus of hub {e.hub}"
    return ""


def _cubes(cubes: tuple[tuple[str, int], ...]) -> str:
    said = [f"{col} {_ROMAN[k - 1]}" for col, k in cubes]
    return phrases([s if said.count(s) == 1 else f"{said.count(s)}x {s}" for s in dict.fromkeys(said)]) or "nothing"


def _pay(fuel: int, bucks: int) -> str:
    return " and ".join(f"{n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n) or "nothing"


def command(command: Command, state: Any = None) -> str:  # noqa: C901 - one phrase per command type
    """A command said for a button, beside its notation ("take the yellow 2 die from the -1 space
    onto the standard space"); hexes by the board's labels where ``state`` (its position) has them."""
    board = board_at(state)
    x: Any = command
    if isinstance(command, c.Take):
        where = {"transform": f"the transformation space as {x.new_colour}", "card": f"the die space of card {x.card}",
                 }.get(x.space, f"the {x.space} space")
        # 003 6.0: a star brings the tech die's value, a star+1 one more
        face = {"*": "star", "*+1": "star+1"}.get(x.face, x.face)
        return f"take the {x.colour} {face} die from the {x.bonus:+d} space onto {where}".replace("+0 space", "0 space")
    if isinstance(command, c.Bonus):
        return f"take the bridge bonus as {_pay(x.fuel, x.bucks)}"
    if isinstance(command, c.BuyActionPoints):
        return f"buy {_count(x.points, 'action point')}"
    if isinstance(command, c.Resources):
        return f"place {_cubes(x.cubes)}"
    if isinstance(command, c.Fuel):
        return "take fuel"
    if isinstance(command, c.Bucks):
        return "take SpaceBucks"
    if isinstance(command, c.Upgrade):
        return f"upgrade {' and '.join(x.colours)}"
    if isinstance(command, c.Shift):
        return f"shift {' and '.join(x.colours)}"
    if isinstance(command, c.Draw):
        return "draw cards"
    if isinstance(command, c.PlayCard):
        return f"play card {x.card} as a {x.side}"
    if isinstance(command, c.Skip):
        return "skip the research space"
    if isinstance(command, c.Discard):
        return f"discard card {x.card}"
    if isinstance(command, c.BuyDrives):
        return f"buy {_count(x.count, 'drive')}"
    if isinstance(command, c.Pass):
        return "pass"
    if isinstance(command, c.EndTurn):
        return "end the turn"
    if isinstance(command, c.ExchangeForResource):
        return f"exchange {_pay(x.fuel, x.bucks)} for {x.colour} {_ROMAN[x.column - 1]}"
    if isinstance(command, c.ExchangeResources):
        return f"exchange {_cubes(x.cubes)} for {_pay(x.fuel, x.bucks)}"
    if isinstance(command, c.UpgradeDrive):
        return "upgrade a drive to 2"
    if isinstance(command, c.Settle):
        return f"complete the settlement of planet {x.planet}"
    if isinstance(command, c.Close):
        return "close the game turn"
    if isinstance(command, c.ChooseStart):
        return f"start shifting {x.shift} and upgrading {x.upgrade}, keeping cards {' and '.join(map(str, x.keep))}"
    if isinstance(command, c.DealStartCard):
        return f"deal start card {x.card}"
    if isinstance(command, c.FirstPlayer):
        return f"choose {x.player} to start"
    if isinstance(command, c.Roll):
        return f"roll {x.colour} {x.face}"
    if isinstance(command, c.RevealHub):
        return f"build commercial hub {x.hub}"
    if isinstance(command, c.DrawCard):
        return f"deal card {x.card}"
    if isinstance(command, c.PlaceTiles):
        return "lay out the outer tiles " + " ".join(f"{t}{r}" for t, r in x.placement)
    if isinstance(command, c.RevealPlanet):
        return f"turn up planet {x.planet}"
    post = f" with outpost {x.outpost}" if getattr(command, "outpost", 0) else ""
    if isinstance(command, c.Fly):
        return f"fly to {format_hex(x.path[-1], board)}" + (" through a portal" if x.jumps else "")
    if isinstance(command, c.Colonize):
        return "colonize the planet" + post
    if isinstance(command, c.Decline):
        return "decline the planet"
    if isinstance(command, c.Build):
        return f"build a space station (card {x.card}) with {_cubes(x.cubes)}" + post
    if isinstance(command, c.CompleteMission):
        return f"complete mission {x.card} with {_cubes(x.cubes)}" + (f" at hub {x.hub}" if x.hub else "") + post
    if isinstance(command, c.HubBonus):
        return f"take the bonus of outpost {x.outpost}"
    return type(command).__name__
