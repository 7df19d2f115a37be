"""Solarius Mission at the table (``solrec serve``): each legal command as clicks, the forms of what is
too many to list (the resource exchanges) and of what chance names at an entered table."""

from __future__ import annotations

import itertools
from typing import Any

from ..errors import IllegalCommand
from ..game import Choice, Choices, Command, Field, Form
from ..words import quoted
from . import commands as c
from . import space
from .components import COLOURS
from .legal import anytime_commands, legal_commands, notation_format, phase_commands
from .rules import ANYTIME, decide, die_step, revealable
from .state import (
    State,
    phase,
    roman,
)

# -- at the table: what to click (``solrec serve``) -------------------------------------------------------


def choice_of(state: State, cmd: Command, board: Any) -> Choice:
    """One command as clicks: a die then its action; a flight by its destination hex (its cost
    beside it); a station or a mission by its card, then the payment; a card then its side; a start by
    the cards kept, then the shifted and the upgraded tech die; an exchange by what is given, then what
    is got; the rest one click, under its first word."""
    text = notation_format(cmd, board)
    head, _, rest = text.partition(" ")
    if isinstance(cmd, c.Take):
        return Choice(text, (die_step(cmd.colour, cmd.face, cmd.bonus), rest.partition(" ")[2]), "take",
                      said=(die_words(cmd.colour, cmd.face, cmd.bonus),))
    if isinstance(cmd, c.Fly):
        return Choice(text, (space.format_hex(state, cmd.path[-1]),), "fly", space.describe_cost(state, cmd))
    if isinstance(cmd, (c.Build, c.CompleteMission)):
        card, _, payment = rest.partition(" ")
        what = f"station {card}" if isinstance(cmd, c.Build) else f"mission {card}"
        return Choice(text, (what, payment) if payment else (what,), head)
    if isinstance(cmd, c.PlayCard):
        return Choice(text, (f"card {cmd.card}", cmd.side), head)
    if isinstance(cmd, c.ChooseStart):
        return Choice(text, ("keep " + " ".join(map(str, cmd.keep)), f"shift {cmd.shift}", f"upgrade {cmd.upgrade}"), head)
    if isinstance(cmd, (c.ExchangeForResource, c.ExchangeResources)):
        given, _, got = rest.partition(" for ")
        return Choice(text, (given, f"for {got}"), head)
    return Choice(text, (text,), head)


def die_words(colour: str, face: str, bonus: int) -> str:
    """A die on the bridge in words, for its button ("the yellow 2 die on the -1 space"; 003 6.0: a
    star brings the tech die's value)."""
    shown = {"*": "star", "*+1": "star+1"}.get(face, face)
    return f"the {colour} {shown} die on the {bonus:+d} space".replace("+0 space", "0 space")


def chance_choices(state: State) -> tuple[Form, ...]:
    return (chance_form(state),)


def choices(state: State, actor: str) -> Choices:
    """The actor's commands as clicks (``choice_of``); where the resource exchanges are too many to list
    (``LIMIT``), the other commands still listed and the exchanges as a form. At an entered table's
    chance step, a form of what chance names (``chance_form``)."""
    board = state.board if state.placement else None
    listed = legal_commands(state)
    forms: tuple[Form, ...] = ()
    if listed is None:
        listed = (*phase_commands(state), *(anytime_commands(state, False) if phase(state) in ANYTIME else ()))
        forms = (exchange_form(state),) if phase(state) in ANYTIME else ()
    return Choices(actor, tuple(choice_of(state, cmd, board) for cmd in listed), forms)


def exchange_form(state: State) -> Form:
    """Resources exchanged for fuel and SpaceBucks (003 9.2 d.1), picked row by row: the cubes of each
    row the player has, then how the value is taken."""
    mat = state.mats[state.actor]
    values = state.cset.number("mat.storage.values")
    fields = []
    for i, colour in enumerate(COLOURS):
        counts = mat.storage[i]
        if not any(counts):
            continue
        picks = [" ".join((colour, *(roman(k + 1) for k, n in enumerate(taken) for _ in range(n))))
                 for taken in itertools.product(*(range(n + 1) for n in counts)) if any(taken)]
        fields.append(Field(colour, ("", *picks)))
    per = state.cset.number("mat.exchange.value_per_unit")
    owned = [(colour, k + 1) for i, colour in enumerate(COLOURS) for k, n in enumerate(mat.storage[i]) for _ in range(n)]
    units = range(sum(values[column - 1] for _, column in owned) // per + 1)
    fields += [Field("fuel", tuple(map(str, units))), Field("bucks", tuple(map(str, units)))]
    template = "exchange " + " ".join(f"{{{f.name}}}" for f in fields[:-2]) + " for fuel {fuel} bucks {bucks}"
    given: list[tuple[str, int]] = []  # the example: the most valuable cubes, until they buy one unit
    for cube in sorted(owned, key=lambda cube: -values[cube[1] - 1]):
        given.append(cube)
        if sum(values[column - 1] for _, column in given) >= per:
            break
    worth = sum(values[column - 1] for _, column in given) // per
    example = c.ExchangeResources(tuple(sorted(given, key=lambda cube: (COLOURS.index(cube[0]), cube[1]))), worth, 0)
    return Form("exchange", template, tuple(fields), notation_format(example),
                "resources given for fuel and SpaceBucks: their value // 2 (003 9.2 d.1)")


def _accepts(state: State, cmd: Command) -> bool:
    try:
        return bool(decide(state, cmd))
    except IllegalCommand:
        return False


def chance_form(state: State) -> Form:
    """What chance names now, as parts to pick, each from what the table may know: every start card or
    progress card of the set (never the deck's content), the players, the colours in the bag (its counts
    are public) and the faces, the hubs not built yet, the outer tiles and their turns, the planets not
    seen yet of the colours still to turn. The example is the first pick ``decide`` accepts."""
    ph = phase(state)
    cset = state.cset
    fields: tuple[Field, ...]
    if ph == "start-card":
        template, fields = "start-card {card}", (Field("card", tuple(map(str, sorted(cset.start_cards)))),)
        label = f"the start card {state.players[state.dealt]} receives"
    elif ph in ("deal", "card"):
        template, fields = "card {card}", (Field("card", tuple(map(str, sorted(cset.progress_cards)))),)
        taker = state.players[state.dealt] if ph == "deal" and state.dealt < len(state.players) else state.current
        label = f"the progress card {taker} draws"
    elif ph == "first-player":
        template, fields, label = "first {player}", (Field("player", state.players),), "the starting player"
    elif ph in ("bridge", "refill"):
        colours = tuple(col for col, k in zip(COLOURS, state.bag) if k)
        faces = tuple(dict.fromkeys(cset.number("dice.action_dice.faces")))
        template, fields = "roll {colour} {face}", (Field("colour", colours), Field("face", faces))
        label = "the die drawn from the bag and its face"
    elif ph == "hub":
        unbuilt = tuple(h for h in cset.number("dice.hubs.letters") if h not in state.hubs_built)
        template, fields = "hub {hub}", (Field("hub", unbuilt),)
        label = f"the commercial hub turned for game turn {state.turn + 1}"
    elif ph == "tiles":
        from .board import OUTER

        fields = tuple(f for k in range(1, len(OUTER) + 1)
                       for f in (Field(f"tile{k}", OUTER, once=True), Field(f"turn{k}", tuple("012345"))))
        template = "tiles " + " ".join(f"{{tile{k}}}{{turn{k}}}" for k in range(1, len(OUTER) + 1))
        label = "the outer tiles clockwise from the top, each with its turn"
    else:
        assert ph == "reveal"
        planets = tuple(map(str, sorted(p for ids in revealable(state).values() for p in ids)))
        template, fields, label = "planet {planet}", (Field("planet", planets),), "the planet turned face up"
    return Form(ph, template, fields, _first_accepted(state, template, fields), label)


def _first_accepted(state: State, template: str, fields: tuple[Field, ...]) -> str:
    """The first command the fields spell (each field's values in order, the last varying fastest) that
    ``decide`` accepts; tiles are spelt as placed around the centre in order, each once."""
    from .notation import parse

    if template.startswith("tiles"):
        return "tiles A0 B0 C0 D0 E0 F0"
    for pick in itertools.product(*(f.values for f in fields)):
        text = template.format(**{f.name: v for f, v in zip(fields, pick)})
        if _accepts(state, parse(text, state)):
            return text
    raise AssertionError(f"no {quoted(template)} is accepted")  # chance always has an outcome
