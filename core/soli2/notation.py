"""SOLI2 notation: chance ``draw black`` / ``draw white``; placements ``place d4`` (the marble drawn)
and ``place white d4`` (pure skill); jumps ``d2-d4``; ``pass`` (refused: passes are automatic)."""

from __future__ import annotations

import re

from ..errors import InvalidCommand
from ..words import quoted
from .commands import Draw, Jump, Pass, Place

HELP = (
    "write 'draw black' or 'draw white' (chance), 'place d4' or 'place white d4' (pure skill), "
    "or a jump as 'd2-d4'"
)
_SQ = r"([a-z]\d+)"
_DRAW = re.compile(r"^draw\s+(black|white)$")
_PLACE = re.compile(rf"^place\s+(?:(black|white)\s+)?{_SQ}$")
_JUMP = re.compile(rf"^(?:jump\s+)?{_SQ}\s*-\s*{_SQ}$")
_POCKET = re.compile(r"^[a-g][1-7]$")


def _pocket(text: str, square: str) -> str:
    if not _POCKET.match(square):
        raise InvalidCommand(f"{quoted(text)}: {square} is not a pocket (files a-g, ranks 1-7)")
    return square


def parse(text: str) -> Draw | Place | Jump | Pass:
    words = " ".join(text.strip().lower().split())
    if words == "pass":
        return Pass()
    if m := _DRAW.match(words):
        return Draw(m.group(1))
    if m := _PLACE.match(words):
        return Place(_pocket(text, m.group(2)), m.group(1))
    if m := _JUMP.match(words):
        return Jump(_pocket(text, m.group(1)), _pocket(text, m.group(2)))
    raise InvalidCommand(f"{quoted(text)} is not SOLI2 notation: {HELP}")


def format(command: Draw | Place | Jump | Pass) -> str:
    if isinstance(command, Draw):
        return f"draw {command.color}"
    if isinstance(command, Place):
        return f"place {command.color} {command.square}" if command.color else f"place {command.square}"
    if isinstance(command, Jump):
        return f"{command.start}-{command.end}"
    return "pass"
