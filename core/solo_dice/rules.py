"""Solo Dice rules: what a roll and a selection may be, and the events they produce."""

from __future__ import annotations

from collections import Counter

from ..errors import IllegalCommand
from ..game import Choice, Choices, Field, Form
from .commands import Choose, Roll
from .events import PairsChosen, Rolled
from .state import FACES, MAX_LEFTOVER_NUMBERS, State, evolve


def _dice_text(dice) -> str:
    return " ".join(map(str, dice))


def _or_list(numbers) -> str:
    numbers = [str(n) for n in sorted(numbers)]
    if len(numbers) == 1:
        return numbers[0]
    return ", ".join(numbers[:-1]) + " or " + numbers[-1]


def _and_list(numbers) -> str:
    numbers = [str(n) for n in sorted(numbers)]
    if len(numbers) == 1:
        return numbers[0]
    return ", ".join(numbers[:-1]) + " and " + numbers[-1]


def forced_leftovers(state: State, roll: tuple[int, ...]) -> frozenset[int] | None:
    """The leftover numbers allowed for this roll, or None when any die may be left (no limit yet,
    or a free throw)."""
    if len(state.opened) < MAX_LEFTOVER_NUMBERS:
        return None
    # 004: "if you already have three numbers open on the right, you must always leave one of these"
    rolled_open = frozenset(state.opened) & frozenset(roll)
    return rolled_open or None


def is_free_throw(state: State, roll: tuple[int, ...]) -> bool:
    # 004: "If you don't roll any of your three numbers, you may leave any die unused ... free throw"
    return len(state.opened) >= MAX_LEFTOVER_NUMBERS and not (frozenset(state.opened) & frozenset(roll))


def decide_roll(state: State, command: Roll) -> tuple[Rolled, ...]:
    if state.roll is not None:
        raise IllegalCommand(f"the dice {_dice_text(state.roll)} are still waiting for two pairs and a leftover")
    if len(command.dice) != 5:
        raise IllegalCommand(f"a roll is five dice, not {len(command.dice)}")
    bad = [d for d in command.dice if d not in FACES]
    if bad:
        raise IllegalCommand(f"a die shows 1 to 6, not {bad[0]}")
    return (Rolled(tuple(command.dice)),)


def decide_choose(state: State, command: Choose) -> tuple[PairsChosen, ...]:
    roll = state.roll
    if roll is None:
        raise IllegalCommand("roll the dice first")
    if sorted(command.dice) != sorted(roll):  # the same five dice, in any order
        raise IllegalCommand(
            f"the two pairs and the leftover must be exactly the five dice rolled ({_dice_text(roll)}), "
            f"not {_dice_text(command.dice)}"
        )
    allowed = forced_leftovers(state, roll)
    if allowed is not None and command.leftover not in allowed:
        open_text = _and_list(state.opened)
        raise IllegalCommand(
            f"with {open_text} open you must leave a {_or_list(allowed)}, not a {command.leftover}"
        )
    return (PairsChosen(command.first, command.second, command.leftover, is_free_throw(state, roll)),)


def legal_choices(state: State) -> tuple[Choose, ...]:
    """Every distinct selection for the waiting roll: up to 5 leftover dice x 3 pairings."""
    roll = state.roll
    if roll is None:
        return ()
    allowed = forced_leftovers(state, roll)
    seen: set = set()
    out: list[Choose] = []
    for i, leftover in enumerate(roll):
        if allowed is not None and leftover not in allowed:
            continue
        a, b, c, d = roll[:i] + roll[i + 1 :]
        for first, second in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            key = (leftover, frozenset(Counter([tuple(sorted(first)), tuple(sorted(second))]).items()))
            if key in seen:
                continue
            seen.add(key)
            out.append(Choose(first, second, leftover))
    return tuple(out)


# -- at the table: what to click (``solrec serve``) ----------------------------------------------
def leave(face: int) -> str:
    """The step that sets a die aside as the leftover: the ``data-spot`` of every rolled die showing it."""
    return f"leave {face}"


def chance_choices(state: State) -> tuple[Form, ...]:
    """At an entered table the roll is a form: one face per die."""
    faces = tuple(map(str, FACES))
    fields = tuple(Field(f"die{k}", faces) for k in range(1, 6))
    return (Form("roll", "roll " + " ".join(f"{{{f.name}}}" for f in fields), fields, "roll 3 1 6 2 5",
                 "the five dice as rolled"),)


def choices(state: State, actor: str) -> Choices:
    """A selection is the leftover die, then the two pairs of the other four; beside it the sums it
    marks and what it does to the score."""
    from .notation import format as write
    from .scoring import score

    before = score(state).total(state.player)
    listed = []
    for command in legal_choices(state):
        (event,) = decide_choose(state, command)
        after = score(evolve(state, event)).total(state.player)
        pairs, _, _ = write(command).rpartition(" ")
        free = ", free throw" if event.free_throw else ""
        detail = f"sums {sum(command.first)} and {sum(command.second)}{free}: score {after - before:+d}"
        listed.append(Choice(write(command), (leave(command.leftover), pairs), "choose", detail))
    return Choices(actor, tuple(listed))
