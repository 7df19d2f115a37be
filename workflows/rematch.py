"""A rematch: a finished game played again by the same players with the same options (the referee's
"rematch" button of ``solrec serve``). A workflow on an open ``Store``, like those of ``games.py``."""

from __future__ import annotations

import secrets

import attrs

from solrec.core.errors import SolrecError
from solrec.core.play import SEEDED, advance_chance, initial_state
from solrec.events.store import Store
from solrec.replay.log import Log, state_at

from .games import store_new


class NotOver(SolrecError):
    """A rematch asked of a game still being played."""


def rematch(store: Store, log: Log) -> str:
    """A new game after the finished ``log``: the same players and options under today's rules, a new
    63-bit seed (a game whose chance was entered stays entered); its id (the next free GAME-N)."""
    game, old = log.game, log.header
    if game.to_act(state_at(log)) is not None:
        raise NotOver("the game is not over: a rematch follows a finished game")
    header = attrs.evolve(old, seed=secrets.randbits(63) if old.chance == SEEDED else None,
                          rules=game.rules_version, upcast=())
    state = initial_state(game, header)
    steps, state, _ = advance_chance(game, header, state, 0)
    return store_new(store, game, header, None, steps, state)
