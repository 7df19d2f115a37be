"""The Space Dominoes deck: 40 cards of three sections with 0-3 pips, and when two cards match.

A card is written ``a-b-c``; ``c-b-a`` names the same card (a 180-degree turn). The stored,
canonical form puts the smaller end first (``a <= c``): ``3-2-1`` is stored as ``1-2-3``.
"""

from __future__ import annotations

from ..errors import InvalidCommand
from ..words import quoted

ROCKETS: tuple[str, ...] = ("0-0-0", "1-1-1", "2-2-2", "3-3-3")  # the rockets of pads 0..3
PADS: tuple[str, ...] = ("pad0", "pad1", "pad2", "pad3")
STATIONS: tuple[str, ...] = ("station0", "station1", "station2", "station3")
WASTE = "waste"
PLACES: tuple[str, ...] = (WASTE, *PADS, *STATIONS)

ALL_CARDS: tuple[str, ...] = tuple(
    f"{a}-{b}-{c}" for a in range(4) for b in range(4) for c in range(4) if a <= c
)


def sections(card: str) -> tuple[int, int, int]:
    return int(card[0]), int(card[2]), int(card[4])


def canonical(a: int, b: int, c: int) -> str:
    return f"{a}-{b}-{c}" if a <= c else f"{c}-{b}-{a}"


# every way a card may be written (either way round) -> its canonical form: a card is read by one
# look-up (the notation reads one or more per command, validate every command of a corpus)
_WRITTEN: dict[str, str] = {
    f"{a}-{b}-{c}": canonical(a, b, c) for a in range(4) for b in range(4) for c in range(4)
}


def read_card(text: str) -> str:
    """A card in either orientation, returned in canonical form (InvalidCommand if malformed)."""
    card = _WRITTEN.get(text.strip())
    if card is None:
        raise InvalidCommand(f"{quoted(text)} is not a Space Domino: write three sections of 0-3 pips, e.g. 1-2-3")
    return card


def matches(x: str, y: str) -> bool:
    """Two different cards match when, turning either if needed, two of three sections agree."""
    if x == y:
        return False
    a, b = sections(x), sections(y)
    same = sum(p == q for p, q in zip(a, b))
    turned = sum(p == q for p, q in zip(a, b[::-1]))
    return max(same, turned) >= 2


def is_rocket(card: str) -> bool:
    return card in ROCKETS


def rocket_pad(card: str) -> int | None:
    return ROCKETS.index(card) if card in ROCKETS else None


def is_symmetric(card: str) -> bool:
    return card[0] == card[4]


def place_index(place: str) -> tuple[str, int]:
    """("waste", 0), ("pad", n) or ("station", n)."""
    found = _PLACE_INDEX.get(place)
    if found is None:
        return "station", STATIONS.index(place)  # ValueError: not a place
    return found


_PLACE_INDEX: dict[str, tuple[str, int]] = {
    WASTE: (WASTE, 0), **{p: ("pad", n) for n, p in enumerate(PADS)}, **{s: ("station", n) for n, s in enumerate(STATIONS)}
}
