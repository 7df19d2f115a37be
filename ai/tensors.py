"""Observation tensors for the field's learners (docs/ai.md, "Observation tensors"): what one seat
sees as a float32 array of a shape fixed by the game, its options and its players.

Built from the seat's declared observation alone (``Observation.seen`` for ``Viewer.seat``, the same
per-seat observation every other surface reads: a field the seat may not see is ``Withheld`` there,
and reading it fails), by the game's encoder (``BotHooks.tensor``, its package's ``tensor.py``): two
positions the seat cannot tell apart give byte-identical tensors. The OpenSpiel, PettingZoo and
Gymnasium adapters and the learned bot all read them here.
"""

from __future__ import annotations

import numpy as np

from solrec.core.errors import InvalidSetup
from solrec.core.tensors import Tensor

from .table import Position, Table


def _encoder(table: Table) -> Tensor:
    tensor = table.hooks.tensor
    if tensor is None:
        raise InvalidSetup(f"{table.game.id}: no observation tensor (docs/ai.md)")
    return tensor


def observation_shape(table: Table) -> tuple[int, ...]:
    """The shape of every observation tensor of ``table``'s game (its options and players)."""
    key = "_tensor_shape"
    shape = table.__dict__.get(key)
    if shape is None:
        shape = table.__dict__[key] = (_encoder(table).size(table.options, table.players),)
    return shape


def observation_tensor(table: Table, position: Position, seat: str) -> np.ndarray:
    """What ``seat`` sees at ``position`` as features (float32, ``observation_shape(table)``); a fresh
    array each call (the caller may write into it). Not kept with the position: a tensor is cheap
    (well under a millisecond) and a game's history holds thousands of positions."""
    seen = table.game.observation.seen(position.state, table.viewers[seat])
    flat = _encoder(table).encode(seen, seat)
    shape = observation_shape(table)
    if len(flat) != shape[0]:
        raise AssertionError(f"{table.game.id}: a tensor of {len(flat)} floats, not {shape[0]}")
    return np.asarray(flat, np.float32).reshape(shape)
