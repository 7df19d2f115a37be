"""Solo Dice notation: chance ``roll 6 1 5 5 5``; the player ``6+1 5+5 5`` (two pairs, then the leftover)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import InvalidCommand
from ..words import quoted
from .commands import Choose, Roll

_DIE = r"([1-6])"
_CHOOSE = re.compile(rf"^{_DIE}\s*\+\s*{_DIE}\s+{_DIE}\s*\+\s*{_DIE}\s+{_DIE}$")
HELP = "write a roll as 'roll 6 1 5 5 5' and a selection as '6+1 5+5 5' (two pairs, then the leftover die)"


# Notation is read and written once per command on every validation: a text always means the same
# (immutable) command here, whatever the position, so both directions are remembered: enough texts
# for every roll (6**5) and the selections a corpus makes of them.
@lru_cache(maxsize=1 << 16)
def parse(text: str) -> Roll | Choose:
    words = text.strip().lower()
    if words.startswith("roll"):
        dice = words[4:].replace(",", " ").split()
        if len(dice) != 5 or not all(d in "123456" and len(d) == 1 for d in dice):
            raise InvalidCommand(f"{quoted(text)}: a roll is five dice from 1 to 6, e.g. 'roll 6 1 5 5 5'")
        return Roll(tuple(int(d) for d in dice))
    match = _CHOOSE.match(words)
    if not match:
        raise InvalidCommand(f"{quoted(text)} is not Solo Dice notation: {HELP}")
    a, b, c, d, e = (int(g) for g in match.groups())
    return Choose((a, b), (c, d), e)


@lru_cache(maxsize=1 << 16)
def format(command: Roll | Choose) -> str:
    if isinstance(command, Roll):
        return "roll " + " ".join(map(str, command.dice))
    (a, b), (c, d) = command.first, command.second
    return f"{a}+{b} {c}+{d} {command.leftover}"
