"""Solari notation, typed while watching a real board (docs/rules/solari.md, "Notation").

- chance: ``roll 3 5`` (dice), ``turn 3-5`` (hidden domino), ``deal Uranus 1-1 2-6 ...`` (open set)
- the mover: ``domino 3-5`` (free dominoes), ``25-55`` (one partial move, optionally with the piece:
  ``U3 25-55``, ``Uc 22-55``), ``place 70`` / ``place 70 N`` (a shot piece onto a margin square,
  with a facing for an aimed shot's comet), ``enter 3 25 N`` / ``enter c 25`` (reentry after a
  total shot: the piece, the square, the comet's facing)
"""

from __future__ import annotations

import functools
import re

from ..errors import InvalidCommand
from ..words import quoted
from .board import COMET, SIDES
from .commands import Deal, Domino, Enter, Place, Roll, Step, Turn
from .layout import CODE_KIND

HELP = (
    "write 'roll 3 5', 'turn 3-5', 'deal Uranus 1-1 1-2 ...', 'domino 3-5', a partial move '25-55' "
    "(or 'U3 25-55'), 'place 70 N' or 'enter 3 25 N'"
)
_SQ = r"([0-7][0-7])"
_DOM = re.compile(r"^([1-6])\s*[-/]\s*([1-6])$")
_STEP = re.compile(rf"^(?:([unsj])(?:([1-6])|([cbd]))\s+)?{_SQ}\s*-\s*{_SQ}$")
_PLACE = re.compile(rf"^place\s+{_SQ}(?:\s+([nesw]))?$")
_ENTER = re.compile(rf"^enter\s+([1-6]|[cbd])\s+{_SQ}(?:\s+([nesw]))?$")


def _domino(word: str, original: str) -> tuple[int, int]:
    m = _DOM.match(word)
    if not m:
        raise InvalidCommand(f"{quoted(original)}: a domino is written like 3-5 (two numbers from 1 to 6)")
    return (int(m.group(1)), int(m.group(2)))


def _side(word: str, original: str) -> str:
    for side in SIDES:
        if word.lower() in (side.lower(), side[0].lower()):
            return side
    raise InvalidCommand(f"{quoted(original)}: {quoted(word)} is not a side (Uranus, Neptune, Saturn, Jupiter)")


def parse(text: str, state=None):
    command, piece = _parsed(text)
    if piece is not None and state is not None:  # 'U3 25-55': the piece named must be on the square
        found = dict(state.board).get(command.frm)
        if found is None or (found.side, found.kind, found.number) != piece[:3]:
            raise InvalidCommand(f"{quoted(text)}: {piece[3]} is not on {command.frm:02d}")
    return command


# Validation parses every recorded command again, and a game's commands repeat ('roll 3 5', '25-55'):
# a text reads the same whatever the state (commands are frozen), save the check of a named piece.
@functools.lru_cache(maxsize=4096)
def _parsed(text: str):
    """The command, and for a partial move naming its piece (side, kind, number, label), else None."""
    original = text
    words = " ".join(text.strip().lower().split())
    if words.startswith("roll"):
        dice = words[4:].replace("-", " ").replace(",", " ").split()
        if len(dice) != 2 or not all(d in ("1", "2", "3", "4", "5", "6") for d in dice):
            raise InvalidCommand(f"{quoted(original)}: a roll is two dice from 1 to 6, e.g. 'roll 3 5'")
        return Roll((int(dice[0]), int(dice[1]))), None
    if words.startswith("turn "):
        return Turn(_domino(words[5:].strip(), original)), None
    if words.startswith("domino "):
        return Domino(_domino(words[7:].strip(), original)), None
    if words.startswith("deal "):
        parts = words[5:].split()
        if not parts:
            raise InvalidCommand(f"{quoted(original)}: write 'deal SIDE' and the 21 dominoes in order")
        side = _side(parts[0], original)
        return Deal(side, tuple(_domino(w, original) for w in parts[1:])), None
    m = _PLACE.match(words)
    if m:
        return Place(int(m.group(1)), m.group(2).upper() if m.group(2) else None), None
    m = _ENTER.match(words)
    if m:
        return Enter(m.group(1), int(m.group(2)), m.group(3).upper() if m.group(3) else None), None
    m = _STEP.match(words)
    if m:
        command = Step(int(m.group(4)), int(m.group(5)))
        if not m.group(1):
            return command, None
        side = _side(m.group(1), original)
        kind = COMET if m.group(2) else CODE_KIND[m.group(3)]
        number = int(m.group(2)) if m.group(2) else 0
        return command, (side, kind, number, f"{side[0]}{m.group(2) or m.group(3)}")
    raise InvalidCommand(f"{quoted(original)} is not Solari notation: {HELP}")


def _sq(sq: int) -> str:
    return f"{sq:02d}"


def format(command) -> str:
    if isinstance(command, Roll):
        return f"roll {command.dice[0]} {command.dice[1]}"
    if isinstance(command, Turn):
        return f"turn {command.domino[0]}-{command.domino[1]}"
    if isinstance(command, Domino):
        return f"domino {command.domino[0]}-{command.domino[1]}"
    if isinstance(command, Deal):
        return f"deal {command.side} " + " ".join(f"{a}-{b}" for a, b in command.order)
    if isinstance(command, Step):
        return f"{_sq(command.frm)}-{_sq(command.to)}"
    if isinstance(command, Place):
        return f"place {_sq(command.square)}" + (f" {command.facing}" if command.facing else "")
    if isinstance(command, Enter):
        return f"enter {command.piece} {_sq(command.square)}" + (f" {command.facing}" if command.facing else "")
    raise TypeError(f"not a Solari command: {command!r}")
