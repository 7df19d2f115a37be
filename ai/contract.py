"""The bots' contract (docs/ai.md, "Bots"): a bot is named ``KIND[:KEY=VALUE,...]`` (``random``,
``greedy``, ``mcts:simulations=400``, ``policy:model=PATH``), parsed into a ``BotSpec`` (frozen, picklable: what ``simulate``
records in a header and a balance run ships to its workers); a ``Bot`` decides for a seat and gives a
``Decision``: the command it plays, its estimate of the position for that seat (the game's return
scale, -1 to 1) and its value of each legal action it weighed. The kinds are in ``bots.py``, the
search in ``search.py``; both read this module, which reads neither.
"""

from __future__ import annotations

from typing import Any

import attrs

from solrec.core.game import Command
from solrec.core.registry import bot_hooks
from solrec.core.words import quoted

from .table import Position, Table

KINDS = ("random", "greedy", "mcts", "policy")


class BotError(ValueError):
    pass


@attrs.frozen
class BotSpec:
    """A bot's kind and settings, as ``KIND[:KEY=VALUE,...]`` spells it (settings sorted by name)."""

    kind: str
    settings: tuple[tuple[str, int | float | str], ...] = ()

    def __str__(self) -> str:
        if not self.settings:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.settings)

    def get(self, name: str, default: Any) -> Any:
        return dict(self.settings).get(name, default)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "settings": dict(self.settings)}


# The settings each kind takes, with their defaults (the default strength of docs/ai.md).
SETTINGS: dict[str, dict[str, int | float | str]] = {
    "random": {},
    "greedy": {},
    "mcts": {"simulations": 120, "rollout": 8, "uct": 1.4, "samples": 6, "budget": 3_000, "search": "solver",
             "policy": "random", "widening": 0.0},
    # model: the model file (solrec train), "" the model shipped for the game (ai/models/); with an
    # afterstate model, ahead: how many of its best-rated moves it looks a move further after (0: none); in
    # a two-player game that hides nothing instead, width: how many it searches, depth: how many moves deep,
    # mix: the share of the greedy bot's value where the search stops (docs/ai.md, "The learned bot")
    "policy": {"model": "", "ahead": 2, "width": 3, "depth": 3, "mix": 0.5},
}

CHOICES = {"policy": ("random", "sampler")}  # the roll-out policy: uniform legal actions, or the game's sampler


def defaults(kind: str, game_id: str) -> dict[str, int | float | str]:
    """The settings a bot of ``kind`` takes where its spec names none, for ``game_id``: the game's own
    where its hooks have them (``BotHooks.settings``, docs/ai.md "Per-game settings"), else the common
    ones."""
    return {**SETTINGS[kind], **bot_hooks(game_id).settings.get(kind, {})}


def parse_bot(text: str) -> BotSpec:
    """``KIND[:KEY=VALUE,...]`` -> BotSpec (BotError, one line, for anything else)."""
    kind, _, rest = text.strip().partition(":")
    if kind not in KINDS:
        raise BotError(f"unknown bot kind {quoted(kind)} (known: {', '.join(KINDS)})")
    known = SETTINGS[kind]
    settings: dict[str, int | float | str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in known:
            allowed = ", ".join(known) or "none"
            raise BotError(f"bot {kind}: {quoted(part)} is not KEY=VALUE with a known key (keys: {allowed})")
        default = known[key]
        try:
            settings[key] = type(default)(value.strip())
        except ValueError:
            raise BotError(f"bot {kind}: {key} is a {type(default).__name__}, not {quoted(value.strip())}") from None
        if key in CHOICES and settings[key] not in CHOICES[key]:
            raise BotError(f"bot {kind}: {key} is one of {', '.join(CHOICES[key])}, not {quoted(value.strip())}")
        number = settings[key]
        if isinstance(number, (int, float)) and number < 0:
            raise BotError(f"bot {kind}: {key} may not be negative")
    return BotSpec(kind, tuple(sorted(settings.items())))


@attrs.frozen
class Decision:
    """What a bot plays for a seat: the action and its command, the estimate of the position for the
    seat (-1 to 1, the game's return scale), and the value of each legal action it weighed."""

    action: int
    command: Command
    estimate: float
    values: tuple[tuple[int, float], ...] = ()

    def value_of(self, action: int) -> float | None:
        return dict(self.values).get(action)


class Bot:
    spec: BotSpec

    def __init__(self, spec: BotSpec):
        self.spec = spec

    def decide(self, table: Table, position: Position, seat: str, seed: int) -> Decision:
        raise NotImplementedError

    def ready(self, table: Table) -> None:
        """BotError (one line) where the bot cannot play ``table`` (the learned bot: no model for it);
        asked before a run plays anything."""

    @staticmethod
    def _legal(table: Table, position: Position, seat: str) -> dict[int, Command]:
        if table.to_act(position).actor != seat:
            raise BotError(f"{seat} is not to act")
        legal = table.legal(position)
        if not legal:
            raise BotError("no legal action to choose from")
        return legal
