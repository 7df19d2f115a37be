"""What each viewer sees of Solari: the whole board. With hidden dominoes a player's dominoes lie
face down, but which is turned next is not in any state (the seed foretells it, shown to the referee
alone by ``replay.seen``; an entered game's table turns it); the referee's picture lists the unplayed
ones (render.py), which anyone can count. A domino turned face up shows what was hidden; a roll and
an open set's deal were foretold by a seed. Every field is declared public below (``DECLARED``): a
field nobody declared refuses the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..declared import Declaration, declare
from ..game import Command, Event
from ..observe import Open, Viewer, phrases
from . import render, words
from .board import Piece
from .events import (
    Dealt,
    Entered,
    Forfeited,
    GameEnded,
    Judged,
    MoveScored,
    NumberLost,
    NumbersSet,
    Placed,
    ReentryPostponed,
    SetAside,
    Stepped,
)
from .scoring import Unit
from .state import Held, Options, Partial, ScoredMove, State

DECLARED = Declaration(State, [
    declare(State, (
        "opts players sides board off_board turn moves_made dealt played numbers how joker left partials "
        "entered held entry_done move_done before scored ended"
    )),
    declare(Options, (
        "sides teams version chasers blockers doublers joker source target moves layout reentry "
        "full_sequence_and_orientation partials_per_row unchanged_row_full_unit partner_doubler diminished"
    )),
    declare(Piece, "side kind number facing"),
    declare(Partial, "kind number frm to distance shot"),
    declare(Held, "piece square by kind own"),
    declare(ScoredMove, "side move_no units"),
    declare(Unit, "side kind squares full value doubled points why rule"),
], [
    declare(Dealt, "side order"),
    declare(NumbersSet, "side numbers how joker"),
    declare(Stepped, "side piece frm to distance shot"),
    declare(Entered, "side piece square shot shot_kind"),
    declare(ReentryPostponed, "side reason"),
    declare(Judged, "kinds reasons"),
    declare(Placed, "piece square kind"),
    declare(Forfeited, "side reason"),
    declare(NumberLost, "side number"),
    declare(MoveScored, "side move_no units"),
    declare(GameEnded, "reason"),
    declare(SetAside, "piece shot_on kind"),
])


class Observation(Open):
    declared = DECLARED
    foretold = (Dealt,)

    def said(self, actor: str, command: Command, events: Sequence[Event], before: Any, viewer: Viewer) -> str:
        parts = [words.since(e, actor) for e in events]
        return phrases(parts) or super().said(actor, command, events, before, viewer)

    def reveals(self, event: Event, seeded: bool = True) -> bool:
        if isinstance(event, NumbersSet):  # a face-down domino turned up; a seeded roll
            return event.how == "turned" or (seeded and event.how == "rolled")
        return super().reveals(event, seeded)

    def draw_text(self, seen: State, viewer: Viewer) -> str:
        return render.render(seen, viewer)

    def draw_svg(self, seen: State, viewer: Viewer, *, last: Sequence[Event] | None = None, size: int | None = 400) -> str:
        return render.svg(seen, viewer, last=last, size=size)
