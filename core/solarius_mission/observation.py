"""What each viewer sees of Solarius Mission: the one place this game hides anything.

Hidden at the table (rule text 2.0, 5.0): the deck, the start cards not yet dealt, the commercial hubs
not yet built, and every player's hand; a seat sees its own hand as well (each card's two sides in
words). The move list hides which start card and which progress cards a player receives and the two
cards a player keeps at the start; the events' words (``describe``) already name none of them, so
they may be shown to everyone. The referee sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Command, Event
from ..observe import Observation as Base
from ..observe import SeenEvent, Viewer, phrases
from . import commands as c
from . import events as ev
from . import render
from .board import format_hex
from .game import board_at, describe
from .state import State

# the discard pile holds the card each player put away at the start unseen ("discards a card"):
# only its size is shown; the cards discarded in play are named in the move list
HIDDEN_STATE = ("deck", "start_cards", "hubs", "discard")
# what a card a player receives shows anyone who did not see the seed: a card, or a card and what
# else a player keeps
REVEALING = (ev.StartCardDealt, ev.CardDrawn, ev.HubRevealed, ev.PlanetRevealed)
FORETOLD = (ev.StartingPlayerChosen, ev.SetupDieRolled, ev.BridgeSetUp, ev.Refilled, ev.TilesPlaced,
            ev.PlanetsDealt, ev.DeckReshuffled)


class Observation(Base):
    def state(self, state: Any, plain: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if viewer.sees_all:
            return plain
        out = {k: v for k, v in plain.items() if k not in HIDDEN_STATE}
        out["deck_count"] = len(plain.get("deck", ()))
        out["hubs_hidden"] = len(plain.get("hubs", ()))
        out["discard_count"] = len(plain.get("discard", ()))
        out["mats"] = [
            {**{k: v for k, v in mat.items() if k != "hand"}, "hand_count": len(mat.get("hand", ()))}
            for mat in plain.get("mats", ())
        ]
        if viewer.player is not None and viewer.player in plain.get("players", ()):
            i = list(plain["players"]).index(viewer.player)
            out["mats"][i] = {**out["mats"][i], "hand": list(plain["mats"][i].get("hand", ()))}
        return out

    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        if not viewer.sees_all:
            # hidden at the table: which start card and which progress cards a player receives
            if isinstance(command, c.DealStartCard):
                return "start-card (hidden)"
            if isinstance(command, c.DrawCard):
                return "card (hidden)"
            if isinstance(command, c.ChooseStart):
                return f"start shift {command.shift} upgrade {command.upgrade} keep (2 hidden cards)"
        return self.game.format(command) if state is None else self.game.format_at(command, state)

    def event(self, event: Event, plain: dict[str, Any], viewer: Viewer) -> SeenEvent:
        if viewer.sees_all:
            return SeenEvent(plain, True)
        if isinstance(event, ev.StartCardDealt):
            return SeenEvent({"player": event.player, "card": "hidden", "text": describe(event).split(": ", 1)[1]}, True)
        if isinstance(event, ev.CardDrawn):
            return SeenEvent({"player": event.player, "card": "hidden"}, True)
        if isinstance(event, ev.StartChosen):
            return SeenEvent({**plain, "keep": "hidden", "discard": "hidden"}, True)
        return SeenEvent(plain, True)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        # every viewer reads the same words: they never name a card a player receives or keeps at the
        # start, nor one drawn (the move list's "card (hidden)"); a card played or discarded in play is public
        parts = [p for e in events if (p := _phrase(e, before, actor))]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def text(self, state: State, viewer: Viewer) -> str:
        return render.render(state, viewer.sees_all, viewer=viewer.player or "")

    def svg(self, state: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(state, reveal=viewer.sees_all, last=last, size=size, viewer=viewer.player or "")

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, REVEALING) or (seeded and isinstance(event, FORETOLD))


_ROMAN = ("I", "II", "III")


def _count(n: int, what: str) -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


def _track(fuel: int, bucks: int) -> str:
    gained = [f"{n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n > 0]
    paid = [f"{-n} {what}" for n, what in ((fuel, "fuel"), (bucks, "SpaceBucks")) if n < 0]
    return phrases([*(["gained " + " and ".join(gained)] if gained else []), *(["paid " + " and ".join(paid)] if paid else [])])


def _phrase(event: Event, before: Any, actor: str) -> str:  # noqa: C901 - one phrase per event type
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
