"""Solarius Mission in words: each event said once, in the past tense (``said``), from which come the
record's line (``record``: what ``log``, the replay page and the move list print) and the words of the
seat page's "since your last move" (``since``), and each command said for a button (``command``).

The words never name a card a player receives or keeps at the start, nor one drawn (the move list's
"card (hidden)"); a card played or discarded in play is public. The game (``describe_event``) and
the observation (``said``) both read this module; neither imports the other.
"""

from __future__ import annotations

from typing import Any

from ..game import Command, Event
from ..observe import phrases
from ..words import Said
from . import commands as c
from . import events as ev
from . import text
from .board import Board, format_hex
from .state import State


def board_at(state: Any) -> Board | None:
    """The board of a position once its tiles lie (labels need it), else None (axial q,r)."""
    return state.board if isinstance(state, State) and state.placement else None


def said(event: Event, state: Any = None) -> Said:  # noqa: C901 - one phrase per event type
    """One event in the past tense, after the name of the player it names (a card dealt, a start
    chosen: named in the words). ``state``: the position it is played in (the one before it, or a
    later one of the same game): hexes by the board's labels, a planet's colour, a bonus the full
    track did not take; without it hexes are q,r."""
    e: Any = event
    p = getattr(e, "player", None)
    board = board_at(state)

    def at(h: Any) -> str:
        return format_hex(h, board)

    def planet(n: int) -> str:
        found = state.cset.planets.get(n) if isinstance(state, State) else None
        return f"the {found.colour} planet {n}" if found is not None else f"planet {n}"

    if isinstance(event, ev.StartCardDealt):
        # the start card and the two progress cards it names are hidden at the table; the rest shows on the mat
        return Said(f"dealt {p} a start card: {e.text.split(', cards')[0]}, two progress cards")
    if isinstance(event, ev.StartChosen):
        return Said(f"shifted {e.shift}, upgraded {e.upgrade}, took resources {' '.join(e.resources)} and discarded a card", p)
    if isinstance(event, ev.StartingPlayerChosen):
        return Said(f"chose {p} to start")
    if isinstance(event, ev.SetupDieRolled):
        return Said(f"rolled {e.colour}{e.face} onto the bridge")
    if isinstance(event, ev.BridgeSetUp):
        spaces = "  ".join(f"[{v:+d}] {' '.join(s) or '-'}" for v, s in zip((-1, 0, 1, 2, 3), e.spaces))
        return Said(f"set up the bridge: {spaces}", told=False)
    if isinstance(event, ev.HubRevealed):
        return Said(f"built commercial hub {e.hub} in game turn {e.turn}")
    if isinstance(event, ev.DieTaken):
        where = {"transform": f"the transformation space as {e.acts_as}", "card": f"the die space of card {e.card}"}.get(
            e.space, f"the {e.space} space")
        return Said(f"took the {e.colour}{e.face} die (bonus {e.bonus:+d}) onto {where} for "
                    f"{_count(e.action_points, 'action point')}", p)
    if isinstance(event, ev.Contaminated):
        beside = f", {e.beside} beside the mat" if e.beside else ""
        return Said(f"took contamination for {e.why} ({e.on_spaces} on spaces{beside})", p, told=False)
    if isinstance(event, ev.ContaminationRemoved):
        return Said(f"removed {e.count} contamination", p, told=False)
    if isinstance(event, ev.TrackChanged):
        return Said(f"{_track(e.fuel, e.bucks) or 'gained no fuel nor SpaceBucks'} ({e.why})", p, told=bool(e.fuel or e.bucks))
    if isinstance(event, ev.BonusTaken):
        lost = bonus_lost(state, e) if isinstance(state, State) else ""
        track = _track(e.fuel, e.bucks)
        return Said(f"took the bridge bonus{f' and {track}' if track else ''}{lost}", p)
    if isinstance(event, ev.ActionPointsBought):
        return Said(f"bought {_count(e.points, 'action point')}", p)
    if isinstance(event, ev.ActionPointsAdded):
        return Said(f"gained {_count(e.points, 'action point')} from the die space", p, told=False)
    if isinstance(event, ev.ResourcesPlaced):
        return Said(f"placed {_cubes(e.cubes)}", p, told=bool(e.cubes))
    if isinstance(event, ev.ResourcesRemoved):
        return Said(f"returned {_cubes(e.cubes)}", p, told=bool(e.cubes))
    if isinstance(event, ev.TechUpgraded):
        return Said(f"upgraded {' and '.join(e.colours)}", p)
    if isinstance(event, ev.TechShifted):
        return Said(f"shifted {' and '.join(e.colours)}", p)
    if isinstance(event, ev.DieActionDone):
        return Said(f"did the die action {e.action}: {e.used} used, {e.forfeited} forfeited", p, told=False)
    if isinstance(event, ev.ResearchDone):
        return Said(f"used the research space: {e.what}", p, told=False)
    if isinstance(event, ev.CardsRequested):
        return Said(f"drew {_count(e.count, 'card')}" + (f", to discard {e.discard}" if e.discard else ""), p)
    if isinstance(event, ev.CardDrawn):
        return Said(f"dealt {p} a card")
    if isinstance(event, ev.DeckReshuffled):
        return Said(f"shuffled the {e.cards} discarded cards into a new deck")
    if isinstance(event, ev.CardDiscarded):
        return Said(f"discarded card {e.card}", p)
    if isinstance(event, ev.CardPlayed):
        return Said(f"played card {e.card} as {e.text}", p)
    if isinstance(event, ev.EffectWaiting):
        return Said(f"had to choose {e.count} {e.kind}" + (f" ({e.colour})" if e.colour else ""), p, told=False)
    if isinstance(event, ev.EffectResolved):
        return Said("resolved the effect", p, told=False)
    if isinstance(event, ev.DrivesBought):
        return Said(f"bought {_count(e.count, 'drive')}", p)
    if isinstance(event, ev.DrivesGained):
        return Said(f"gained {_count(e.count, 'neutral drive')}", p)
    if isinstance(event, ev.DriveUpgraded):
        return Said(f"upgraded drive {e.slot + 1} to 2", p)
    if isinstance(event, ev.SupplementaryDone):
        return Said(f"took the supplementary action {e.what}", p, told=False)
    if isinstance(event, ev.TurnEnded):
        return Said("ended the turn", p)
    if isinstance(event, ev.Refilled):
        return Said(f"turned the wheel and rolled {e.colour}{e.face} onto the -1 space")
    if isinstance(event, ev.TurnEndStarted):
        return Said("began the turn end: station effects and settlements, in turn order " + ", ".join(e.order),
                    told=False)
    if isinstance(event, ev.PlayerClosed):
        return Said("closed the game turn", p)
    if isinstance(event, ev.PlanetSettled):
        paid = f" for {e.fuel} fuel" if e.fuel else (f" for {e.bucks} SpaceBucks" if e.bucks else "")
        return Said(f"completed the settlement of {planet(e.planet)}{paid}", p)
    if isinstance(event, ev.GameTurnEnded):
        return Said(f"ended game turn {e.turn}" + (f", {e.next_start} to start the next" if e.next_start else ", on to the end game scoring"))
    if isinstance(event, ev.TilesPlaced):
        return Said("laid out the outer tiles clockwise from the top " + " ".join(f"{t}{r}" for t, r in e.placement))
    if isinstance(event, ev.PlanetsDealt):
        return Said(f"dealt {len(e.hexes)} planets face down")
    if isinstance(event, ev.PlanetTurned):
        return Said(f"turned the planet at {at(e.hex)}", p, told=False)
    if isinstance(event, ev.PlanetRevealed):
        return Said(f"turned up {planet(e.planet)} at {at(e.hex)} ({e.text})")
    if isinstance(event, ev.PortalsActivated):
        how = "returned a drive of value 1 to the pool" if e.returned else f"flipped drive {e.slot + 1} from 2 to 1"
        return Said(f"{how}, activating the portals this turn (the range 1 less)", p)
    if isinstance(event, ev.ShipFlown):
        path = [at(h) if i not in e.jumps else f"P {at(h)}" for i, h in enumerate(e.path)]
        # what was paid: the drives' range, and range bought at once with fuel (9.2 B II "Each additional
        # point of range costs two fuel"); the fuel itself is the TrackChanged event before this one
        paid = f": {e.cost - e.bought} from the drives, {e.bought} bought with fuel" if e.bought else ""
        return Said(f"flew {' '.join(path)} (range {e.cost}{paid})", p)
    if isinstance(event, ev.PlanetColonized):
        return Said(f"colonized {planet(e.planet)} at {at(e.hex)}", p)
    if isinstance(event, ev.PlanetDeclined):
        return Said(f"declined {planet(e.planet)} at {at(e.hex)} for an explorer bonus of {e.vp} resource(s)", p)
    if isinstance(event, ev.StationBuilt):
        return Said(f"built a space station (card {e.card}) at {at(e.hex)}", p)
    if isinstance(event, ev.MissionCompleted):
        bonus = {"now": ", the hub bonus now", "later": ", the hub bonus when the hub is built", "": ""}[e.bonus]
        return Said(f"completed mission {e.card} at {at(e.hex)} next to hub {e.hub}{bonus}", p)
    if isinstance(event, ev.OutpostBuilt):
        return Said(f"built outpost {e.outpost} at {at(e.hex)}", p)
    if isinstance(event, ev.HubBonusTaken):
        return Said(f"took the bonus of outpost {e.outpost} for hub {e.hub}", p)
    if isinstance(event, ev.SpaceActionDone):
        return Said(f"finished the flight: {e.what}", p, told=False)
    return Said(type(event).__name__)


def record(event: Event, state: Any = None) -> str:
    """One event in the record's words (``log``, the replay page, the move list), at ``state`` (see
    ``said``)."""
    return said(event, state).line()


def since(event: Event, actor: str, before: Any = None) -> str:
    """One event in words after ``actor``'s name, for "since your last move" (``before``: the position
    the command was played in); "" for a detail the sentence leaves to the move list."""
    return said(event, before).after(actor)


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


_ROMAN = ("I", "II", "III")


def _count(n: int, what: str) -> str:
    return (f"an {what}" if what[0] in "aeiou" else f"a {what}") if n == 1 else f"{n} {what}s"


def _track(fuel: int, bucks: int) -> str:
    gained = [f"{n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n > 0]
    paid = [f"{-n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n < 0]
    return phrases([*(["gained " + " and ".join(gained)] if gained else []), *(["paid " + " and ".join(paid)] if paid else [])])


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
