"""The fixed action numbering of each game (docs/ai.md, "Actions").

An action id names one command of the game, the same id in every position of every game with the
same options and players: the id is the command's place in the game's ``universe``, a list fixed by
the game and its options alone. A position's legal actions are the ids of its legal commands
(``Game.legal_commands``). Where two commands do the same (Solo Dice: ``6+1 5+5 5`` and
``1+6 5+5 5``) they share one id, the canonical ``key`` of both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from solrec.core.game import Command

if TYPE_CHECKING:
    from .table import Table


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
        game numbers a canonical subset: Solarius Mission's large exchanges, ``mission.py``)."""
        return [command]


def _same(command: Command) -> Hashable:
    return command


def codec_for(table: Table) -> Codec:
    game = table.game
    listed = game.legal_commands
    gid = game.id
    if gid == "solo-dice":
        return _solo_dice(table)
    if gid == "soli2":
        from solrec.core.soli2 import board as B
        from solrec.core.soli2 import commands as s2

        soli2: list[Command] = [s2.Place(sq) for sq in B.SQUARES]
        soli2 += [s2.Place(sq, colour) for sq in B.SQUARES for colour in B.COLORS]
        soli2 += [s2.Jump(B.SQUARES[i], B.SQUARES[to]) for i in range(B.POCKETS) for _, to in B.JUMPS[i]]
        soli2.append(s2.Pass())
        return Codec(soli2, _same, listed, lambda c: game.format(c))  # type: ignore[arg-type]
    if gid == "solari":
        from solrec.core.solari.board import FACINGS
        from solrec.core.solari.commands import Domino, Enter, Place, Step
        from solrec.core.solari.state import DOMINOES

        squares = [r * 10 + c for r in range(8) for c in range(8)]
        solari: list[Command] = [Domino(d) for d in DOMINOES]
        solari += [Step(f, t) for f in squares for t in squares if f != t]
        solari += [Place(sq, facing) for sq in squares for facing in (None, *FACINGS)]
        solari += [Enter(piece, sq, facing) for piece in "123456cbd" for sq in squares for facing in (None, *FACINGS)]
        return Codec(solari, _same, listed, lambda c: game.format(c))  # type: ignore[arg-type]
    if gid == "solar-solitaire":
        from solrec.core.solar_solitaire.cards import PLACES
        from solrec.core.solar_solitaire.commands import Move, Play, Resign, Turn

        solitaire: list[Command] = [Turn(), Resign(), *(Play(p) for p in range(4))]
        solitaire += [Move(s, t) for s in PLACES for t in PLACES if s != t]
        return Codec(solitaire, _same, listed, lambda c: game.format(c))  # type: ignore[arg-type]
    if gid == "solarius-mission":
        # payments, exchanges and flights: a numbering of its own (ai/mission.py, docs/ai.md)
        from .mission import codec

        return codec(table)
    raise ValueError(f"{gid}: no action numbering (docs/ai.md)")


def _solo_dice(table: Table) -> Codec:
    """Solo Dice: a selection is its leftover die and its two pairs, each pair's dice in rising order,
    the pairs in rising order: 6 x 231 = 1,386 actions (the order the dice are written in does not
    change what is set aside)."""
    from solrec.core.solo_dice.commands import Choose

    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    universe = [(left, p, q) for left in range(1, 7) for i, p in enumerate(pairs) for q in pairs[i:]]

    def key(command: Command) -> Hashable:
        assert isinstance(command, Choose)
        p, q = sorted((tuple(sorted(command.first)), tuple(sorted(command.second))))
        return (command.leftover, p, q)

    def text(k: Hashable) -> str:
        left: int
        p: tuple[int, int]
        q: tuple[int, int]
        left, p, q = k  # type: ignore[misc]
        return f"{p[0]}+{p[1]} {q[0]}+{q[1]} {left}"

    return Codec(universe, key, table.game.legal_commands, text)
