"""Observation tensors (docs/ai.md, "Observation tensors"): a game's features of what one seat sees,
as a flat tuple of floats of a size fixed by the game, its options and its players.

A game's encoder (its package's ``tensor.py``, offered by its hooks: ``BotHooks.tensor``) reads only
the seat's observed state (``Observation.seen`` for ``Viewer.seat``: every field the seat may not see
is ``Withheld``, and reading one fails), so a tensor holds nothing the seat's other surfaces do not
show: fair by construction. Pure Python; ``solrec.ai.tensors`` turns the floats into numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs


@attrs.frozen
class Tensor:
    """A game's observation tensor: ``size(options, players)`` its length for a game of those options
    and players (fixed for the whole game); ``encode(seen, seat)`` the features of ``seen`` (the state
    as ``seat`` sees it, ``Observation.seen``), exactly ``size`` floats."""

    size: Callable[[Mapping[str, Any], Sequence[str]], int]
    encode: Callable[[Any, str], tuple[float, ...]]


class Features:
    """Floats added in a fixed order: one-hot choices, counts scaled to 0..1, flags."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def one_hot(self, index: int | None, size: int) -> None:
        """``size`` slots, 1 at ``index`` (clipped into range); all 0 for None."""
        slots = [0.0] * size
        if index is not None:
            slots[min(max(index, 0), size - 1)] = 1.0
        self.values.extend(slots)

    def scaled(self, value: float, top: float) -> None:
        """``value / top``, clipped to 0..1."""
        self.values.append(min(max(value / top, 0.0), 1.0))

    def flag(self, value: bool) -> None:
        self.values.append(1.0 if value else 0.0)

    def flags(self, values: Iterable[bool]) -> None:
        self.values.extend(1.0 if v else 0.0 for v in values)

    def counts(self, values: Iterable[float], top: float) -> None:
        for v in values:
            self.scaled(v, top)

    def done(self) -> tuple[float, ...]:
        return tuple(self.values)
