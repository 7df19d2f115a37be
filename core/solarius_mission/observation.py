"""What each viewer sees of Solarius Mission: the one place this game hides anything.

Hidden at the table (rule text 2.0, 5.0): the deck, the start cards not yet dealt, the commercial hubs
not yet built, and every player's hand; a seat sees its own hand as well (each card's two sides in
words). The move list hides which start card and which progress cards a player receives and the two
cards a player keeps at the start; the events' words (``words.py``) name none of them, so they may be
shown to everyone. The referee sees everything. Every field of the state, of what it holds and of
every event is declared below (``DECLARED``); the game is refused if one is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..declared import SECRET, Declaration, count, declare, hidden, marked, owners, told
from ..game import Command, Event
from ..observe import Observation as Base
from ..observe import Viewer, phrases
from . import commands as c
from . import events as ev
from . import render, words
from .board import Hex
from .state import Die, Figure, Mat, Pending, State, Taken

DECLARED = Declaration(State, [
    declare(State, (
        "players digest start_mode mats bag resource_pool contamination_pool drive_pool "
        "bridge setup_dice hubs_built dealt start_player turn turn_started turns_taken actor die "
        "drawing must_discard effects closing over placement planets_on_map figures ships hub_hexes revealing "
        "hub_adjacency outpost_doubles network figure_ids station_effect"
    ),
        # 2.0: the progress cards lie face down, the start cards are dealt unseen, the hubs not yet built
        # are drawn unseen (two never are); each shows its size but the start cards
        deck=hidden(count("deck_count")),
        start_cards=SECRET,
        hubs=hidden(count("hubs_hidden")),
        # the discard pile holds the card each player put away at the start unseen ("discards a card"):
        # only its size is shown; the cards discarded in play are named in the move list
        discard=hidden(count("discard_count")),
    ),
    declare(Mat, (
        "fuel bucks tech columns storage contamination beside drives missions completed developments "
        "dice used stations planets_waiting planets_settled outposts hub_missions hub_bonus_waiting"
    ),
        # 5.0: a player's hand is his own: the others see how many cards he holds
        hand=owners(count("hand_count")),
        owner=lambda mat, state, i: state.players[i] if i is not None else None,
    ),
    declare(Die, "colour face"),
    declare(Taken, (
        "colour face space acts_as card bonus points action_points bought bonus_done research_done "
        "action_done supplementary_done ended portals flown landed_hidden space_done"
    )),
    declare(Pending, "kind colour count player"),
    declare(Hex, "q r"),
    declare(Figure, "player kind hex outpost"),
], [
    # which start card a player receives is hidden; its text's public part (what shows on the mat)
    declare(ev.StartCardDealt, "player", card=hidden(marked("card")),
            text=hidden(told("text", lambda text, e: words.record(e).split(": ", 1)[1]))),
    # the two cards a player keeps at the start, and the one he puts away, are hidden
    declare(ev.StartChosen, "player shift upgrade resources", keep=hidden(marked("keep"), inline=True),
            discard=hidden(marked("discard"), inline=True)),
    declare(ev.StartingPlayerChosen, "player"),
    declare(ev.SetupDieRolled, "colour face"),
    declare(ev.BridgeSetUp, "spaces"),
    declare(ev.HubRevealed, "turn hub"),
    declare(ev.DieTaken, "player colour face bonus space acts_as card points action_points"),
    declare(ev.Contaminated, "player on_spaces beside why"),
    declare(ev.ContaminationRemoved, "player count"),
    declare(ev.TrackChanged, "player fuel bucks why"),
    declare(ev.BonusTaken, "player fuel bucks"),
    declare(ev.ActionPointsBought, "player points"),
    declare(ev.ActionPointsAdded, "player points"),
    declare(ev.ResourcesPlaced, "player cubes"),
    declare(ev.ResourcesRemoved, "player cubes"),
    declare(ev.TechUpgraded, "player colours"),
    declare(ev.TechShifted, "player colours"),
    declare(ev.DieActionDone, "player action used forfeited"),
    declare(ev.ResearchDone, "player what"),
    declare(ev.CardsRequested, "player count discard"),
    declare(ev.CardDrawn, "player", card=hidden(marked("card"))),  # which card a player draws
    declare(ev.DeckReshuffled, "cards"),
    declare(ev.CardDiscarded, "player card"),
    declare(ev.CardPlayed, "player card side text"),
    declare(ev.EffectWaiting, "player kind colour count"),
    declare(ev.EffectResolved, "player"),
    declare(ev.DrivesBought, "player count"),
    declare(ev.DrivesGained, "player count"),
    declare(ev.DriveUpgraded, "player slot"),
    declare(ev.SupplementaryDone, "player what"),
    declare(ev.TurnEnded, "player"),
    declare(ev.Refilled, "colour face"),
    declare(ev.GameTurnEnded, "turn next_start"),
    declare(ev.TurnEndStarted, "order"),
    declare(ev.PlayerClosed, "player"),
    declare(ev.PlanetSettled, "player planet fuel bucks"),
    declare(ev.TilesPlaced, "placement"),
    declare(ev.PlanetsDealt, "hexes"),
    declare(ev.PlanetTurned, "player hex"),
    declare(ev.PlanetRevealed, "hex planet text"),
    declare(ev.PortalsActivated, "player slot returned"),
    declare(ev.ShipFlown, "player path jumps cost bought"),
    declare(ev.PlanetColonized, "player hex planet"),
    declare(ev.PlanetDeclined, "player hex planet vp"),
    declare(ev.StationBuilt, "player hex card"),
    declare(ev.MissionCompleted, "player hex card hub bonus"),
    declare(ev.OutpostBuilt, "player hex outpost"),
    declare(ev.HubBonusTaken, "player hub outpost"),
    declare(ev.SpaceActionDone, "player what"),
])
# what a card a player receives shows anyone who did not see the seed: a card, or a card and what
# else a player keeps
REVEALING = (ev.StartCardDealt, ev.CardDrawn, ev.HubRevealed, ev.PlanetRevealed)
FORETOLD = (ev.StartingPlayerChosen, ev.SetupDieRolled, ev.BridgeSetUp, ev.Refilled, ev.TilesPlaced,
            ev.PlanetsDealt, ev.DeckReshuffled)


class Observation(Base):
    declared = DECLARED

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

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        # every viewer reads the same words: they never name a card a player receives or keeps at the
        # start, nor one drawn (the move list's "card (hidden)"); a card played or discarded in play is public
        parts = [words.since(e, actor, before) for e in events]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def draw_text(self, seen: State, viewer: Viewer) -> str:
        return render.render(seen, viewer)

    def draw_svg(self, seen: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(seen, viewer, last=last, size=size)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, REVEALING) or (seeded and isinstance(event, FORETOLD))
