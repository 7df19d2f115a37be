"""Build Solo Dice positions directly from the rulebook's words."""

from __future__ import annotations

from solrec.core import CHANCE, decide_as, fold, initial_state, make_header
from solrec.core.solo_dice import SoloDice
from solrec.core.solo_dice.notation import parse

GAME = SoloDice()
HEADER = make_header(GAME, ["Ann"], chance="entered")


def position(*commands: str):
    """The state after typing these commands in turn (rolls as chance, selections as Ann)."""
    state = initial_state(GAME, HEADER)
    n = 0
    for text in commands:
        command = parse(text)
        actor = CHANCE if command.chance else "Ann"
        step = decide_as(GAME, HEADER, state, n, actor, command)
        state = fold(GAME, state, step.events)
        n += len(step.events)
    return state


def total(state) -> int:
    return GAME.score(state).total("Ann")
