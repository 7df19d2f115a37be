"""Helpers for the SOLI2 tests: positions drawn as diagrams, and commands played through the table."""

from __future__ import annotations

import attrs
import pytest

from solrec.core.play import make_header
from solrec.core.registry import get_game
from solrec.core.soli2 import board as B
from solrec.core.soli2.state import JUMPING, State

GAME = get_game("soli2")
DUEL_PLAYERS = ("Ann", "Bob")  # Ann plays black (listed first), Bob white
SOLO = ("Sara",)


@pytest.fixture
def game():
    return GAME


def new(mode: str = "duel", fill: str = "pouch", objective: str = "standard", players=None) -> State:
    if players is None:
        players = DUEL_PLAYERS if mode == "duel" else SOLO
    options = {"mode": mode, "fill": fill, "objective": objective}
    header = make_header(GAME, players, options, "entered")
    return GAME.setup(GAME.Options(**dict(header.options)), header.players)


def diagram(text: str) -> str:
    """A board from 7 lines of 7 marks (b, w, .), rank 7 first; spaces are ignored."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    assert len(rows) == 7 and all(len(r) == 7 for r in rows), rows
    return "".join(rows)


def position(text: str, mode: str = "duel", turn: int = 0, objective: str = "standard") -> State:
    """A jumping-phase position with the board given as a diagram."""
    state = new(mode, objective=objective)
    flat = diagram(text)
    removed = (24 - flat.count("b"), 24 - flat.count("w"))
    return attrs.evolve(
        state, board=B.rows(flat), phase=JUMPING, turn=turn, pouch=(0, 0), placements=48, removed=removed
    )


def decide(state: State, text: str):
    return GAME.decide(state, GAME.parse(text, state))


def play(state: State, *texts: str) -> State:
    for text in texts:
        for event in decide(state, text):
            state = GAME.evolve(state, event)
    return state


def events_of(state: State, text: str) -> list:
    return list(decide(state, text))


def fill_board(state: State, flat: str, chance_first: bool = True) -> State:
    """Fill an empty duel board (pouch) so that it shows ``flat``: the marks in reading order, drawn and
    placed alternately (the empty pocket is left out)."""
    for i, mark in enumerate(flat):
        if mark == B.EMPTY:
            continue
        color = B.COLOR_OF_MARK[mark]
        state = play(state, f"draw {color}", f"place {B.name(i)}")
    return state
