"""Solarius Mission through the CLI: simulate and validate for 2, 3, 4 players, legal, show, entered chance."""

from __future__ import annotations

import pytest

PLAYERS = {2: ("-p", "Marion", "-p", "Tom"), 3: ("-p", "A", "-p", "B", "-p", "C"), 4: ("-p", "A", "-p", "B", "-p", "C", "-p", "D")}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_games_validate(cli, players):
    cli.simulate_and_validate("solarius-mission", 6, *PLAYERS[players])


@pytest.mark.parametrize("start", ["cards", "choose"])
def test_simulated_games_validate_with_either_start(cli, start):
    cli.simulate_and_validate("solarius-mission", 4, *PLAYERS[3], "-o", f"start={start}")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_hundred_simulated_games_validate(cli, players):
    cli.simulate_and_validate("solarius-mission", 100, *PLAYERS[players])


def entered(cli) -> None:
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    cli.run("play", "g", "tiles A0 B0 C0 D0 E0 F0; start-card 1; start-card 2; first Marion; roll black 3; roll yellow 2; roll turquoise 1; roll brown *; hub B")


def test_an_entered_game_takes_chance_from_the_table(cli):
    entered(cli)
    out = cli.json("play", "g", "take black@-1 standard; bonus fuel -1; fuel")
    assert out["to_act"] == "Marion"
    assert "Marion took the bridge bonus and paid 1 fuel" in [e for s in out["steps"] for e in s["events"]]
    shown = cli.json("show", "g")["state"]["mats"][0]
    assert shown["fuel"] == 1 + 3 and shown["hand_count"] == 2 and "hand" not in shown


def test_live_output_hides_the_start_cards(cli):
    cli.run("new", "solarius-mission", "--seed", "3", "-p", "Marion", "-p", "Tom", "--id", "s")
    out = cli.json("new", "solarius-mission", "--seed", "3", "-p", "Marion", "-p", "Tom", "--id", "s2")
    commands = [s["command"] for s in out["steps"]]
    assert "start-card (hidden)" in commands and not any(c.startswith("start-card ") and c[-1].isdigit() for c in commands)
    events = " ".join(e for s in out["steps"] for e in s["events"])
    assert "a start card: shift" in events and "cards" not in events.replace("progress cards", "")
    assert "deck" not in cli.json("show", "s")["state"]


def test_legal_lists_the_commands_of_the_phase(cli):
    entered(cli)
    out = cli.json("legal", "g")
    assert out["enumerable"] and "take black3@-1 standard" in out["commands"]
    assert "exchange fuel 1 bucks 1 for black I" in out["commands"]


def test_a_refused_command_names_the_rule_and_writes_nothing(cli):
    entered(cli)
    before = cli.json("show", "g")["position"]
    result = cli.run("play", "g", "take yellow2@-1 standard", expect=2)
    assert "no die yellow2 lies on the space with bonus -1" in result.stderr
    assert cli.json("show", "g")["position"] == before


def test_score_explain_lists_every_category(cli):
    cli.json("simulate", "solarius-mission", "--games", "1", "--seed", "2", *PLAYERS[2])
    text = cli.run("score", "solarius-mission-1", "--explain").stdout
    for what in ("settled planet", "not settled", "colour sets", "space station", "unfulfilled mission",
                 "figures next to built hubs", "tech dice on a VP side", "column IV or V", "full storage columns",
                 "fuel", "SpaceBucks", "beside the mat", "network majority"):
        assert what in text


# -- space: the map (part 2) ------------------------------------------------------------------------------


def position(cli, game: str) -> int:
    return cli.json("show", game)["position"]


@pytest.mark.parametrize(
    "tiles, reason",
    [
        ("tiles A0 C3 B1 F5 D2 G4", '"G4": the outer tiles are A, B, C, D, E, F'),
        ("tiles A0 C3 B1 F5 D2 A4", "tile A is named 2 times; each outer tile lies once"),
        ("tiles A0 C3 B1 F5 D2 E9", '"E9": a tile\'s rotation is 0-5'),
        ("tiles A0 C3 B1", "tiles names the 6 outer tiles"),
    ],
)
def test_bad_tiles_typed_at_the_table_are_refused_and_nothing_is_written(cli, tiles, reason):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    before = position(cli, "g")
    result = cli.run("play", "g", tiles, expect=2)
    assert reason in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert position(cli, "g") == before == 0


def test_a_bad_hex_in_a_command_is_refused_with_its_reason():
    from solrec.core.errors import InvalidCommand
    from solrec.core.solarius_mission.board import parse_hex

    with pytest.raises(InvalidCommand, match='"Q7" is not a hex'):
        parse_hex("Q7")


def test_an_entered_game_types_the_tiles_and_show_draws_the_map(cli):
    entered(cli)
    shown = cli.run("show", "g").stdout
    assert "tiles clockwise from the top: A turned 0, B turned 0" in shown
    assert "ships: Marion H0, Tom H0" in shown and "planets face down (20):" in shown
    assert "hubs built: B at B0" in shown


def test_a_seeded_game_places_the_tiles_by_itself(cli):
    out = cli.json("new", "solarius-mission", "--seed", "11", "-p", "Marion", "-p", "Tom", "--id", "s")
    first = out["steps"][0]
    assert first["command"].startswith("tiles ") and len(first["command"].split()) == 7
    assert any("planets face down" in e for e in first["events"])


def test_legal_at_an_entered_chance_step_names_the_command_expected_with_an_example(cli):
    cli.run("new", "solarius-mission", "--entered", "-p", "Marion", "-p", "Tom", "--id", "g")
    assert cli.json("legal", "g")["chance_forms"] == [
        "tiles L0 L0 L0 L0 L0 L0: per position clockwise from the top, an outer tile's letter A-F and its turn 0-5; "
        "e.g. tiles A0 C3 B1 F5 D2 E4"]
    cli.run("play", "g", "tiles A0 B0 C0 D0 E0 F0; start-card 1")
    text = cli.run("legal", "g").stdout
    assert "the chance expected now:\n  start-card N: the start card Tom receives, N one of 1-4; e.g. start-card 2" in text
    cli.run("play", "g", "start-card 2; first Marion")
    (form,) = cli.json("legal", "g")["chance_forms"]
    assert form.startswith("roll COLOUR FACE: the die drawn from the bag (in the bag: black 3, yellow 3, turquoise 3, brown 3)")
    # each example is a command play accepts here
    cli.run("play", "g", form.split("e.g. ")[1])


def test_card_shows_a_progress_card_as_printed_numbered_as_in_the_commands(cli):
    out = cli.json("card", "solarius-mission", "5")
    assert out["card"] == 5 and out["mission"]["cost"] == ["black 2 II", "yellow 2"] and out["mission"]["vp"] == 5
    assert out["mission"]["cost_words"] == ["2 black cubes of value 2 (column II)", "yellow cubes of total value 2"]
    assert out["development"]["permanent"] == ["+1 action points for black dice"] and out["source"].startswith("house:")
    text = cli.run("card", "solarius-mission", "5").stdout
    assert text.startswith("progress card 5 (set house-2016b)\n  mission: costs black 2 II + yellow 2 = ")
    assert "there is no progress card 33" in cli.run("card", "solarius-mission", "33", expect=2).stderr
    assert "has no cards to show" in cli.run("card", "solari", "1", expect=2).stderr
