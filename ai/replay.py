"""A recorded game played again through the adapters' actions (the conformance check of docs/ai.md):
every player command by its action id among the legal ones, every seeded chance command by the
chance outcomes that make it (``table.chance_draws``), an entered game's chance as typed."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from solrec.core.game import CHANCE, Command
from solrec.core.play import SEEDED, Header
from solrec.core.words import quoted

from .table import Position, Table, chance_draws, table_of


class Mismatch(AssertionError):
    pass


def _applied(before: Position, after: Position) -> list[Command]:
    """The commands applied from ``before`` to ``after``, in order."""
    out = []
    p: Position | None = after
    while p is not None and p.state is not before.state:  # a draw's positions share its state
        if p.command is not None:
            out.append(p.command)
        p = p.parent
    return out[::-1]


def through_actions(header: Header, steps: Sequence[Any], table: Table | None = None) -> tuple[Table, Position]:
    """The final position of a recorded game (``header``, ``steps``: ``core.play.Step``) reached
    through the adapters' numbering. Mismatch where a recorded command has no legal action."""
    table = table or table_of(header)
    seeded = header.chance == SEEDED
    start = table.follow(())
    position = table.settle(start) if seeded else start
    auto: deque[Command] = deque(_applied(start, position))  # chance the table applied by itself (no draw)
    events = 0  # the log position each chance step is drawn at
    for step in steps:
        before = position
        if step.actor == CHANCE and auto:
            if auto.popleft() != step.command:
                raise Mismatch(f"the table applied another chance command than the record's {quoted(step.command)}")
        elif step.actor == CHANCE and seeded:
            assert header.seed is not None
            made, draws = chance_draws(table.game, position.state, header.seed, events)
            if made != step.command:
                raise Mismatch(f"the seed draws {quoted(made)}, the record has {quoted(step.command)}")
            for outcome in draws:
                position = table.draw(position, outcome)
            auto.extend(_applied(before, position)[1:])
        elif step.actor == CHANCE:
            position = table.give_chance(position, step.command)
        else:
            if auto:
                raise Mismatch("the table applied chance the record does not have")
            parts = table.codec.split(step.command)
            for part in parts:
                legal = table.legal(position)
                try:
                    action = table.codec.action(part)
                except KeyError:
                    raise Mismatch(f"{quoted(table.game.format(part))} has no action id") from None
                if action not in legal:
                    raise Mismatch(f"{quoted(table.game.format(part))} (action {action}) is not among the legal actions")
                position = table.play(position, legal[action], settle=seeded)
            auto.extend(_applied(before, position)[len(parts):])  # the parts, then chance applied after
        events += len(step.events)
    if auto:
        raise Mismatch("the table applied chance the record does not have")
    return table, position
