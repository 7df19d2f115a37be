"""The fixed action numbering of a game (docs/ai.md, "Actions"): the contract each game's numbering
fulfils, in its package's ``bots.py`` (``BotHooks.codec``).

An action id names one command of the game, the same id in every position of every game with the
same options and players: the id is the command's place in the game's ``universe``, a list fixed by
the game and its options alone. A position's legal actions are the ids of its legal commands
(``Game.legal_commands``). Where two commands do the same (Solo Dice: ``6+1 5+5 5`` and
``1+6 5+5 5``) they share one id, the canonical ``key`` of both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .game import Command


class Codec:
    """A game's action numbering: ``universe`` (every action's key, in id order) and ``key`` (a
    command's key); ``listed(state)`` gives the commands a position offers (``legal_commands``)."""

    def __init__(self, universe: Sequence[Hashable], key: Callable[[Command], Hashable],
                 listed: Callable[[Any], Sequence[Command] | None], text: Callable[[Hashable], str]):
        self.universe = tuple(universe)
        self.index = {k: i for i, k in enumerate(self.universe)}
        if len(self.index) != len(self.universe):
            raise AssertionError("an action universe names a command twice")
        self.key = key
        self.listed = listed
        self._text = text

    @property
    def size(self) -> int:
        return len(self.universe)

    def action(self, command: Command) -> int:
        """The id of ``command`` (KeyError: a command outside the numbering)."""
        return self.index[self.key(command)]

    def legal(self, state: Any) -> dict[int, Command]:
        out: dict[int, Command] = {}
        for command in self.listed(state) or ():
            out.setdefault(self.action(command), command)
        return dict(sorted(out.items()))

    def text(self, action: int) -> str:
        return self._text(self.universe[action])

    def split(self, command: Command) -> list[Command]:
        """A recorded command as the numbered commands that do the same, in order (itself, but where a
        game numbers a canonical subset: Solarius Mission's large exchanges, its ``numbering.py``)."""
        return [command]


def same(command: Command) -> Hashable:
    """A command as its own key (a numbering where no two commands do the same)."""
    return command


def listing(game: Any, universe: Sequence[Command]) -> Codec:
    """The numbering of a game whose every command is listed in ``universe``, each its own key, its
    action string the command in the game's notation."""
    return Codec(universe, same, game.legal_commands, lambda c: game.format(c))
