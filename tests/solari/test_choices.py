"""What a player clicks at the table (``Game.choices``, ``solrec serve``): a piece's square, then where
it goes; a shot piece's margin square (an aimed comet's facing last); a reentry's piece, square and
facing; a free domino. The person reading the table picks the dice or the domino turned."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from solrec.core import CHANCE

from .helpers import GAME, Table


def clicks(t: Table) -> dict[str, tuple[str, ...]]:
    return {c.command: c.steps for c in GAME.choices(t.state).commands}


def spots(picture: str) -> set[str]:
    return {e.get("data-spot") for e in ET.fromstring(picture).iter() if e.get("data-spot")}


def test_a_partial_move_is_the_pieces_square_then_its_destination():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3")
    choices = GAME.choices(t.state)
    assert choices.actor == "Ann" and {c.group for c in choices.commands} == {"move"}
    assert clicks(t)["24-44"] == ("24", "44")
    assert {c.steps[0] for c in choices.commands} == {"24", "61"}  # Uranus's pieces, nothing of Saturn's


def test_every_square_is_a_spot_named_as_the_notation_names_it():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3")
    assert spots(GAME.svg(t.state)) == {f"{r}{c}" for r in range(8) for c in range(8)}


def test_a_simply_shot_piece_is_placed_by_clicking_its_margin_square():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44", "61-31")
    assert clicks(t) == {"place 04": ("04",), "place 40": ("40",), "place 47": ("47",), "place 74": ("74",)}
    assert {c.group for c in GAME.choices(t.state).commands} == {"place"}


def test_an_aimed_shot_comet_is_placed_on_its_square_then_given_its_facing():
    t = Table("24:U1N,44:S1E,07:S2S")("roll 2 3", "24-44", "44-14")
    assert clicks(t)["place 70 W"] == ("70", "facing W")
    assert len([s for s in clicks(t).values() if s[0] == "70"]) == 4


def test_a_reentry_is_the_piece_then_its_square_then_a_comets_facing():
    t = Table("24:U1N,44:S1E,07:S2S,35:S3N")("roll 2 2", "24-44", "44-64", "roll 3 5")
    choices = GAME.choices(t.state)
    assert {c.group for c in choices.commands} == {"enter"}
    assert clicks(t)["enter 1 53 N"] == ("comet 1", "53", "facing N")


def test_a_free_domino_is_clicked_by_itself():
    t = Table(source="dominoes-free")
    choices = GAME.choices(t.state)
    assert {c.group for c in choices.commands} == {"domino"} and len(choices.commands) == 21
    assert clicks(t)["domino 3-5"] == ("3-5",)


def test_the_dice_are_picked_at_an_entered_table():
    t = Table()
    assert GAME.to_act(t.state) == CHANCE
    (form,) = GAME.choices(t.state, entered=True).forms
    assert form.template == "roll {a} {b}" and [f.values for f in form.fields] == [tuple("123456")] * 2
    assert GAME.decide(t.state, GAME.parse(form.example))


def test_the_domino_turned_is_one_the_mover_has_not_played():
    t = Table(source="dominoes-hidden")("turn 3-5")
    t(next(c.command for c in GAME.choices(t.state).commands))
    while GAME.to_act(t.state) != CHANCE:
        t(GAME.choices(t.state).commands[0].command)
    (form,) = GAME.choices(t.state, entered=True).forms
    assert form.template == "turn {domino}" and len(form.fields[0].values) == 21  # Bob has played none yet
    t(form.example)
    while GAME.to_act(t.state) != CHANCE:
        t(GAME.choices(t.state).commands[0].command)
    (form,) = GAME.choices(t.state, entered=True).forms
    assert "3-5" not in form.fields[0].values and len(form.fields[0].values) == 20  # Ann's 3-5 lies face up


def test_an_open_deal_is_each_domino_in_its_place():
    t = Table(source="dominoes-open")
    (form,) = GAME.choices(t.state, entered=True).forms
    assert form.template.startswith("deal Uranus {d1} {d2}") and len(form.fields) == 21
    assert GAME.decide(t.state, GAME.parse(form.example))
