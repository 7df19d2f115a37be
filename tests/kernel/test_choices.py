"""What a page offers to click (``Game.choices``, ``solrec serve``) is exactly what ``legal`` lists.

In positions reached by seeded random play, every game's listed choices are its legal commands, each
written as ``format_at`` and read back by ``parse`` to the same command, none missing, none twice; in
every option setup ``legal`` is checked in, seeded and entered. A step that names a place on the
picture is the ``data-spot`` of an element of that position's SVG. At an entered table's chance step,
each form's example is accepted, and the commands its fields spell out are read by ``parse``.
"""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from solrec.core.errors import IllegalCommand, InvalidCommand
from solrec.core.game import CHANCE, Choice, Choices, Form, Game
from solrec.core.observe import Viewer
from solrec.core.play import advance_chance, initial_state, make_header, play
from solrec.core.registry import games
from tests.kernel.test_legal_agrees_with_decide import ENTERED, SETUPS, position, typed_chance


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_choices_are_the_legal_commands(game_id: str) -> None:
    game = games()[game_id]
    header = make_header(game, game.default_players(), {}, seed=7)
    _, state, position = advance_chance(game, header, initial_state(game, header), 0)
    rng = random.Random(7)
    for _ in range(40):
        actor = game.to_act(state)
        if actor is None:
            break
        check_choices(game, state, game.choices(state))
        assert actor != CHANCE  # seeded chance has acted
        _, state, position = play(game, header, state, position, actor, game.sample_command(state, rng))


# -- the checks ---------------------------------------------------------------------------------------


def check_choices(game: Game, state: Any, choices: Choices) -> None:
    """The listed choices are the legal commands (or, where those are not listed, commands that parse),
    each with steps and a group; no two choices share their steps, and no choice's steps begin another's
    (the page narrows click by click until one choice is left)."""
    actor = game.to_act(state)
    assert choices.actor == actor
    legal = game.legal_commands(state)
    if legal is None:
        assert all(game.parse(c.command, state) for c in choices.commands)
    else:
        assert sorted(game.format_at(c, state) for c in legal) == sorted(c.command for c in choices.commands)
        assert {game.parse(c.command, state) for c in choices.commands} == set(legal)
    for choice in choices.commands:
        assert choice.steps and choice.group and all(choice.steps)
    steps = {c.steps for c in choices.commands}
    assert len(steps) == len(choices.commands), "two choices with the same clicks"
    prefixes = {s[:k] for s in steps for k in range(1, len(s))}
    assert not steps & prefixes, f"a choice's clicks begin another's: {sorted(steps & prefixes)[:3]}"


def spots(picture: str) -> set[str]:
    """The ``data-spot`` names of a picture's elements."""
    return {e.get("data-spot") for e in ET.fromstring(picture.encode()).iter() if e.get("data-spot") is not None}


# The steps each game names as places on its picture (the others are words: a colour, a facing, resign).
PLACES: dict[str, Callable[[Choice], tuple[str, ...]]] = {
    "soli2": lambda c: c.steps[-1:] if c.group == "place" else c.steps,
    "solari": lambda c: {"move": c.steps, "place": c.steps[:1], "enter": c.steps[1:2]}.get(c.group, ()),
    "solar-solitaire": lambda c: c.steps if c.group in ("move", "play", "turn") else (),
    "solo-dice": lambda c: c.steps[:1],
    "solarius-mission": lambda c: c.steps[:1] if c.group in ("take", "fly") else (),
}


def check_places(game: Game, state: Any, choices: Choices) -> None:
    named = {step for choice in choices.commands for step in PLACES[game.id](choice)}
    if named:
        picture = game.observation.svg(state, Viewer.seat(choices.actor)) if choices.actor not in (None, CHANCE) else game.svg(state)
        assert picture is not None
        assert named <= spots(picture), f"{game.id}: steps with no data-spot: {sorted(named - spots(picture))}"


def spelt(form: Form, rng: random.Random, most: int = 40) -> list[str]:
    """The commands a form spells out: every combination of its fields' values, or ``most`` of them."""
    sizes = [len(f.values) for f in form.fields]
    total = 1
    for n in sizes:
        total *= n
    if total <= most:
        picks = list(itertools.product(*(f.values for f in form.fields)))
    else:
        picks = [tuple(rng.choice(f.values) for f in form.fields) for _ in range(most)]
    return [form.template.format(**{f.name: v for f, v in zip(form.fields, pick)}) for pick in picks]


def repeats_a_tile(form: Form, text: str) -> bool:
    """Solarius Mission's tiles form picks a tile per position: picking one tile twice is the one
    spelling the notation refuses (each outer tile lies once; the refusal says so in place)."""
    letters = [word[0] for word in text.split()[1:]]
    return form.group == "tiles" and len(set(letters)) < len(letters)


def check_forms(game: Game, state: Any, choices: Choices, rng: random.Random) -> None:
    """Every form's example is accepted here; every command its fields spell out parses (decide may
    refuse it: a die of a face the bag no longer holds), and its fields offer something."""
    for form in choices.forms:
        assert form.fields and all(f.values for f in form.fields) and form.label
        assert game.decide(state, game.parse(form.example, state)), form.example
        for text in spelt(form, rng):
            try:
                game.parse(text, state)
            except InvalidCommand as e:
                if not repeats_a_tile(form, text):
                    pytest.fail(f"{game.id}: form {form.group!r} spells {text!r}, which does not parse: {e}")


def accepts(game: Game, state: Any, text: str) -> bool:
    try:
        return bool(game.decide(state, game.parse(text, state)))
    except (IllegalCommand, InvalidCommand):
        return False


# -- every setup, seeded and entered ------------------------------------------------------------------

CASES = [(game_id, i) for game_id, setups in sorted(SETUPS.items()) for i in range(len(setups))]


@pytest.mark.parametrize("game_id,setup", CASES, ids=[f"{g}-{i}" for g, i in CASES])
def test_in_every_setup_the_choices_are_the_legal_commands_and_their_places_are_on_the_picture(game_id, setup):
    game = games()[game_id]
    for seed, depth in ((1, 0), (2, 7), (3, 30), (4, 90), (5, 3), (6, 15), (7, 45), (8, 140)):
        _, state, _ = position(game, setup, seed, depth)
        entered = SETUPS[game_id][setup][1].get(ENTERED) == "true"
        choices = game.choices(state, entered)
        check_choices(game, state, choices)
        check_places(game, state, choices)


ENTERED_SETUPS: dict[str, list[tuple[tuple[str, ...], dict[str, str]]]] = {
    "solo-dice": [(("Ann",), {})],
    "soli2": [(("Ann", "Bob"), {}), (("Ann",), {"mode": "soli2-solitaire"})],
    "solar-solitaire": [(("Ann",), {})],
    "solari": [(("Ann", "Bob"), {}), (("Ann", "Bob"), {"source": "dominoes-hidden"}),
               (("Ann", "Bob"), {"source": "dominoes-open"})],
    "solarius-mission": [(("Ann", "Bob"), {"start": "choose"}), (("Ann", "Bob", "Cid"), {})],
}
ENTERED_CASES = [(g, i) for g, setups in sorted(ENTERED_SETUPS.items()) for i in range(len(setups))]


@pytest.mark.parametrize("game_id,setup", ENTERED_CASES, ids=[f"{g}-{i}" for g, i in ENTERED_CASES])
def test_at_an_entered_table_every_chance_step_has_forms_whose_examples_play(game_id, setup):
    """A game typed in from a real table, played to its 120th command: at each chance step the forms
    are there, their examples are accepted and what their fields spell parses; what is typed is an
    outcome the game's own draw could give."""
    game = games()[game_id]
    players, options = ENTERED_SETUPS[game_id][setup]
    header = make_header(game, players, options, "entered", None)
    state, pos = initial_state(game, header), 0
    rng = random.Random(setup)
    chance_steps = 0
    for _ in range(120 if game_id != "solarius-mission" else 60):
        actor = game.to_act(state)
        if actor is None:
            break
        choices = game.choices(state, entered=True)
        if actor == CHANCE:
            chance_steps += 1
            assert choices.actor == CHANCE and choices.forms and not choices.commands
            check_forms(game, state, choices, rng)
            picked = [text for form in choices.forms for text in spelt(form, rng, 10) if accepts(game, state, text)]
            command = game.parse(rng.choice(picked), state) if picked else typed_chance(game, state, rng, pos)
        else:
            check_choices(game, state, choices)
            command = game.sample_command(state, rng)
        _, state, pos = play(game, header, state, pos, actor, command)
    assert chance_steps


@pytest.mark.parametrize("game_id", sorted(games()))
def test_a_seeded_chance_step_offers_nothing_to_pick(game_id):
    """Chance drawn from the seed acts by itself: nothing to pick, nothing of the draw named."""
    game = games()[game_id]
    header = make_header(game, game.default_players(), {}, "seeded", 7)
    state = initial_state(game, header)
    assert game.to_act(state) == CHANCE
    assert game.choices(state) == Choices(CHANCE)

