"""Issue 22's Done-when: a 2-player seeded game and a 2-player entered game played start to end
through the CLI as a table would — every player's command chosen from `legal --json` only (a flight
by its destination alone, `fly HEX`), the entered chance typed from the forms `legal` names — with
the hexes by their labels everywhere; the transcripts pinned."""

from __future__ import annotations

import json
import re

import pytest

AXIAL = re.compile(r"(?<![\w.])-?\d+,-?\d+(?![\w.])")  # a hex written q,r (never shown to a table)
TILES = "tiles A0 B0 C0 D0 E0 F0"
DOING = ("mission", "build", "colonize")


def choose(legal: dict) -> str:
    """A player's command, from `legal --json` alone: fly to a hex where something can be done (by its
    destination) and do it, with an outpost where one is offered; take fuel for the flights; otherwise
    the first listed command that is neither an exchange, a pass nor a forfeit of the die's points."""
    ends = [e for e in legal.get("flight_ends", ()) if any(t.split()[0] in DOING for t in e["then"])]
    if ends:
        return ends[0]["destination"]
    listed = legal["commands"] if legal["commands"] is not None else legal["listed"]
    doing = [c for c in listed if c.split()[0] in DOING and "outpost" in c] or [c for c in listed if c.split()[0] in DOING]
    if doing:
        return doing[0]
    if "fuel" in listed:
        return "fuel"
    return next((c for c in listed if not c.startswith("exchange") and c not in ("pass", "resources")), listed[0])


def chance_candidates(form: str) -> list[str]:
    """What a table could type for the chance `legal` expects, in a fixed order (the first accepted is played)."""
    word = form.split()[0]
    if word == "tiles":
        return [TILES]
    if word == "first":
        return [form.split("e.g. ")[1]]
    if word == "roll":
        bag = re.search(r"in the bag: ([^)]*)\)", form)
        assert bag is not None
        colours = [part.split()[0] for part in bag.group(1).split(", ")]
        return [f"roll {colour} {face}" for face in ("3", "*", "2", "*+1", "1") for colour in colours]
    if word == "hub":
        letters = re.search(r"X one of ([A-F, ]+) \(", form)
        assert letters is not None
        return [f"hub {x}" for x in letters.group(1).split(", ")]
    numbers = {"start-card": 4, "card": 32, "planet": 36}[word]
    return [f"{word} {n}" for n in range(1, numbers + 1)]


def play_through(cli, game: str) -> list[str]:
    transcript: list[str] = []
    for _ in range(4000):
        legal = cli.json("legal", game)
        if legal["to_act"] is None:
            return transcript
        if legal["to_act"] == "chance":
            for candidate in chance_candidates(legal["chance_forms"][0]):
                result = cli.run("play", game, candidate, "--json", expect=None)
                if result.exit_code == 0:
                    break
                assert result.exit_code == 2, result.stderr
            else:
                pytest.fail(f"no chance command accepted for {legal['chance_forms']}")
        else:
            result = cli.run("play", game, choose(legal), "--json")
        for step in json.loads(result.stdout)["steps"]:
            transcript.append(f"{step['actor']}: {step['command']}  ->  " + "; ".join(step["events"]))
    pytest.fail("the game did not end")


@pytest.mark.slow  # about 500 CLI calls
def test_a_seeded_two_player_game_is_played_to_its_end_from_legal_alone(cli, snapshot):
    cli.run("new", "solarius-mission", "--seed", "22", "-p", "Marion", "-p", "Tom", "--id", "s")
    transcript = play_through(cli, "s")
    assert any(line.startswith(("Marion: fly ", "Tom: fly ")) for line in transcript)
    assert not [line for line in transcript if AXIAL.search(line)]
    assert cli.json("show", "s")["to_act"] is None
    assert transcript == snapshot


@pytest.mark.slow
def test_an_entered_two_player_game_is_played_to_its_end_from_legal_alone(cli, snapshot):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "e")
    transcript = play_through(cli, "e")
    assert any(" flew " in line for line in transcript)
    assert not [line for line in transcript if AXIAL.search(line)]
    assert cli.json("validate", "e")["valid"]
    assert transcript == snapshot
