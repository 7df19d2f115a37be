"""`legal` at a chance step of an entered game names the chance command expected now, its format and
an example (issue 22), in every game whose chance can be entered; the example is a command `play`
accepts there."""

from __future__ import annotations

import pytest

ENTERED = {
    "solo-dice": (("Ann",), (), "roll A B C D E: "),
    "soli2": (("Ann", "Bob"), (), "draw COLOUR: "),
    "solari": (("Ann", "Bob"), (), "roll A B: "),
    "solar-solitaire": (("Ann",), (), "deal P0 P1 P2 P3: "),
    "solarius-mission": (("Marion", "Tom"), (), "tiles L0 L0 L0 L0 L0 L0: "),
}


def first_chance_step(cli, game: str) -> dict:
    players, options, _ = ENTERED[game]
    cli.run("new", game, "--entered", *(x for p in players for x in ("-p", p)), *options, "--id", "g")
    for _ in range(60):  # players act (from legal) until chance is to act
        legal = cli.json("legal", "g")
        if legal["to_act"] == "chance":
            return legal
        cli.run("play", "g", (legal["commands"] or legal.get("listed"))[0])
    pytest.fail("chance never came to act")


@pytest.mark.parametrize("game", sorted(ENTERED))
def test_legal_at_an_entered_chance_step_names_the_expected_command_and_its_example_plays(cli, game):
    legal = first_chance_step(cli, game)
    forms = legal["chance_forms"]
    assert forms[0].startswith(ENTERED[game][2]) and "e.g. " in forms[0]
    assert "the chance expected now:" in cli.run("legal", "g").stdout
    cli.run("play", "g", forms[0].split("e.g. ")[1])


def test_hidden_dominoes_name_a_domino_not_played_yet(cli):
    cli.run("new", "solari", "--entered", "-p", "Ann", "-p", "Bob", "-o", "source=dominoes-hidden", "--id", "g")
    (form,) = cli.json("legal", "g")["chance_forms"]
    assert form.startswith("turn A-B: the mover's next domino") and "e.g. turn 1-1" in form
    cli.run("play", "g", form.split("e.g. ")[1])
