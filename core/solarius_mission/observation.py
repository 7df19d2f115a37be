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
from ..observe import SeenEvent, Viewer
from . import commands as c
from . import events as ev
from . import render
from .game import describe
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

    def text(self, state: State, viewer: Viewer) -> str:
        return render.render(state, viewer.sees_all, viewer=viewer.player or "")

    def svg(self, state: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(state, reveal=viewer.sees_all, last=last, size=size, viewer=viewer.player or "")

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, REVEALING) or (seeded and isinstance(event, FORETOLD))
