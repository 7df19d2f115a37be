"""What each viewer sees of Solar Solitaire: the one place this game hides anything.

Hidden from the player: the face-down stockpile's order (a seeded or typed shuffle's order "is
recorded, but show reveals only what a player at the table sees"): its size only. The pictures show
the player the top of each pile and the stock's back; the referee every pile whole and the stock in
turning order. A deal and a turned card show what was face down. Every field of the state and of
every event is declared below (``DECLARED``); the game is refused if one is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..declared import Declaration, count, declare, hidden, marked, told
from ..game import Command, Event
from ..observe import Observation as Base
from ..observe import Viewer, phrases
from . import render, words
from .commands import Shuffle
from .events import (
    ChoiceWaiting,
    DealRefused,
    Dealt,
    EmergencyOff,
    EmergencyOn,
    Lost,
    Moved,
    Played,
    Resigned,
    Shuffled,
    TurnAsked,
    Turned,
    Wasted,
    Won,
)
from .state import State

DECLARED = Declaration(State, [
    declare(State, (
        "player own_pad_rocket waste_takes_free_moves deals pads stations waste stock_known asked hand "
        "choice emergency result searched"
    ),
        # the stockpile lies face down: its size only
        stock=hidden(count("stock_count")),
    ),
], [
    # the seeded shuffle's order is the face-down stockpile: only its size is public
    declare(Shuffled, order=hidden(told("cards", lambda order, e: len(order)), marked("order"), inline=True)),
    declare(Dealt, "pads"),
    declare(DealRefused, "rocket pad own"),
    declare(TurnAsked, ""),
    declare(Turned, "card"),
    declare(Played, "card pad source"),
    declare(Wasted, "card"),
    declare(ChoiceWaiting, "card pads source"),
    declare(Moved, "card source target"),
    declare(EmergencyOn, "rockets"),
    declare(EmergencyOff, ""),
    declare(Won, ""),
    declare(Lost, "stranded positions"),
    declare(Resigned, ""),
])


class Observation(Base):
    declared = DECLARED

    def command(self, command: Command, state: Any, viewer: Viewer) -> str:
        if isinstance(command, Shuffle) and not viewer.sees_all:
            return f"shuffle ({len(command.order)} cards, order hidden)"
        return self.game.format(command) if state is None else self.game.format_at(command, state)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        # a shuffle's order is the face-down stockpile: never named but to the referee (nor here)
        parts = [words.since(e, actor) for e in events]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def draw_text(self, seen: State, viewer: Viewer) -> str:
        return render.render(seen, viewer)

    def draw_svg(self, seen: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(seen, viewer, last=last, size=size)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        return isinstance(event, (Dealt, Turned))
