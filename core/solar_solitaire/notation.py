"""Solar Solitaire notation.

Chance: ``shuffle c1 ... c40`` (the deck, top first), ``deal 1-2-3 0-0-1 2-3-2 0-1-1`` (pads 0 to 3),
``card 1-2-3``. The player: ``turn``, ``play pad2``, ``move FROM TO`` (``waste``, ``pad0``-``pad3``,
``station0``-``station3``), ``resign``. A card may be written either way round (``3-2-1`` is
``1-2-3``); it is written back in canonical form, smaller end first.
"""

from __future__ import annotations

from functools import lru_cache

from ..errors import InvalidCommand
from ..words import quoted
from .cards import PADS, PLACES, read_card
from .commands import Card, Deal, Move, Play, Resign, Shuffle, Turn

HELP = (
    "commands are 'turn', 'play pad2', 'move waste pad1' (places: waste, pad0-pad3, station0-station3) "
    "and 'resign'; chance gives 'deal a-b-c a-b-c a-b-c a-b-c', 'card a-b-c' or 'shuffle' with all 40 cards"
)


def _place(word: str) -> str:
    if word not in PLACES:
        raise InvalidCommand(f"{quoted(word)} is not a place: {', '.join(PLACES)}")
    return word


@lru_cache(maxsize=1024)
def parse(text: str):
    """The command a text names (commands are frozen: one text's command is shared). A game's
    notation uses a few dozen texts, read again for every command ``validate`` re-decides."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise InvalidCommand(f"no command given: {HELP}")
    head, rest = words[0], words[1:]
    if head == "turn" and not rest:
        return Turn()
    if head == "resign" and not rest:
        return Resign()
    if head == "play" and len(rest) == 1:
        if rest[0] not in PADS:
            raise InvalidCommand(f"{quoted(rest[0])} is not a launch pad: pad0, pad1, pad2 or pad3")
        return Play(PADS.index(rest[0]))
    if head == "move" and len(rest) == 2:
        return Move(_place(rest[0]), _place(rest[1]))
    if head == "card" and len(rest) == 1:
        return Card(read_card(rest[0]))
    if head == "deal":
        if len(rest) != 4:
            raise InvalidCommand("a deal names four cards, pads 0 to 3, e.g. 'deal 1-2-3 0-0-1 2-3-2 0-1-1'")
        return Deal(tuple(read_card(w) for w in rest))
    if head == "shuffle":
        return Shuffle(tuple(read_card(w) for w in rest))
    raise InvalidCommand(f"{quoted(text)} is not Solar Solitaire notation: {HELP}")


def format(command) -> str:
    if isinstance(command, Turn):
        return "turn"
    if isinstance(command, Resign):
        return "resign"
    if isinstance(command, Play):
        return f"play {PADS[command.pad]}"
    if isinstance(command, Move):
        return f"move {command.source} {command.target}"
    if isinstance(command, Card):
        return f"card {command.card}"
    if isinstance(command, Deal):
        return "deal " + " ".join(command.pads)
    if isinstance(command, Shuffle):
        return "shuffle " + " ".join(command.order)
    raise TypeError(f"not a Solar Solitaire command: {command!r}")
