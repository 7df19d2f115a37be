"""Test helpers: a table to play commands on, and hand-built positions."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.play import fold, initial_state, make_header, play
from solrec.core.registry import get_game
from solrec.core.solar_solitaire.cards import ALL_CARDS
from solrec.core.solar_solitaire.state import EMPTY4, State

GAME = get_game("solar-solitaire")


class Table:
    """A game in progress: ``cmd`` plays one command as whoever is to act and returns its events
    (seeded chance acting after it included)."""

    def __init__(self, chance: str = "entered", seed: int | None = None, state: State | None = None, **options):
        self.header = make_header(GAME, None, options, chance, seed)
        self.state = state if state is not None else initial_state(GAME, self.header)
        self.position = 0
        self.steps = []
        if chance == "seeded" and state is None:
            from solrec.core.play import advance_chance

            steps, self.state, self.position = advance_chance(GAME, self.header, self.state, 0)
            self.steps.extend(steps)

    def cmd(self, text: str) -> list:
        actor = GAME.to_act(self.state)
        command = GAME.parse(text, self.state)
        steps, self.state, self.position = play(GAME, self.header, self.state, self.position, actor, command)
        self.steps.extend(steps)
        return [e for s in steps for e in s.events]

    def refused(self, text: str) -> str:
        before = self.state
        with pytest.raises(IllegalCommand) as err:
            self.cmd(text)
        assert self.state == before
        return str(err.value)

    def replayed(self) -> State:
        return fold(GAME, initial_state(GAME, self.header), [e for s in self.steps for e in s.events])


def make_state(
    pads, waste=(), stations=EMPTY4, stock=None, stock_known=False, player="Solo", hand=None, choice=(),
    waste_takes_free_moves=False,
):
    """A hand-built position; the stock defaults to every other card (unknown order)."""
    pads = tuple(tuple(p) for p in pads)
    stations = tuple(tuple(s) for s in stations)
    waste = tuple(waste)
    used = [c for p in pads for c in p] + [c for s in stations for c in s] + list(waste) + ([hand] if hand else [])
    assert len(used) == len(set(used)), "a card appears twice"
    if stock is None:
        stock = tuple(c for c in ALL_CARDS if c not in used)
    state = State(
        player=player, deals=1, pads=pads, stations=stations, waste=waste, stock=tuple(stock),
        stock_known=stock_known, hand=hand, choice=tuple(choice), waste_takes_free_moves=waste_takes_free_moves,
    )
    return attrs.evolve(state, emergency=bool(state.stranded))


def events_of(kind, events):
    return [e for e in events if isinstance(e, kind)]
