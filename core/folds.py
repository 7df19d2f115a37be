"""The last command's folds, remembered: what ``decide`` folded is not folded again.

``decide`` folds each event into its working state as it makes it; ``validate``, ``impact`` and
``play`` then fold the very events ``decide`` returned onto the very state it decided from: the same
folds again. A game that remembers its last command's folds (state before, event, state after) gets
back the state already made for a fold of those same objects: the same answer, as every mutator is
pure. Matched by identity (the objects are held here, so no id is reused while remembered); any
other fold is made as usual. Only the last command is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class RememberedFolds:
    def __init__(self) -> None:
        self._done: dict[int, tuple[Any, object, Any]] = {}

    def forget(self) -> None:
        """A new command is being decided: the last one's folds are let go."""
        self._done = {}  # a new map, not cleared: a fold reading the old one meanwhile stays whole

    def remember(self, before: Any, event: object, after: Any) -> None:
        self._done[id(event)] = (before, event, after)

    def recalling(self, mutators: Mapping[type, Callable[[Any, Any], Any]]) -> dict[type, Callable[[Any, Any], Any]]:
        """The game's mutators (``Game.mutators``), each handing back a remembered fold's state."""
        return {kind: self._recalling(mutate) for kind, mutate in mutators.items()}

    def _recalling(self, mutate: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def fold(state: Any, event: Any) -> Any:
            done = self._done.get(id(event))
            if done is not None and done[0] is state and done[1] is event:
                return done[2]
            return mutate(state, event)

        fold.__name__ = fold.__qualname__ = mutate.__name__
        return fold
