"""What a player clicks at the table (``Game.choices``, ``solrec serve``): a die on the bridge, then
its action; a flight by the hex it ends on, its cost beside it; a station or a mission by its card,
then the payment; the resource exchanges as a form where they are too many to list. The person reading
the table picks what chance names from what the table may know: never the deck, a hand or the hubs
put back unseen."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs

from solrec.core.game import CHANCE
from solrec.core.observe import Viewer
from solrec.core.solarius_mission import legal, rules, space
from solrec.core.solarius_mission.components import COLOURS

from .helpers import GAME, OPENING, Table
from .test_space import fly, flying, planet_hex


def spots(picture: str) -> set[str]:
    return {e.get("data-spot") for e in ET.fromstring(picture).iter() if e.get("data-spot")}


def test_a_die_is_taken_by_clicking_it_then_its_action():
    t = Table()
    choices = GAME.choices(t.state)
    takes = {c.command: c.steps for c in choices.commands if c.group == "take"}
    assert takes["take black3@-1 standard"] == ("black3@-1", "standard")
    assert takes["take black3@-1 transform yellow"] == ("black3@-1", "transform yellow")
    dice = {steps[0] for steps in takes.values()}
    assert dice == {"black3@-1", "yellow2@0", "brown*@1", "turquoise1@1"}
    assert dice <= spots(GAME.observation.svg(t.state, Viewer.seat("Marion")))


def test_a_flight_is_the_hex_it_ends_on_with_its_cost_beside_it():
    t = flying(drives=(), fuel=5)  # range 1: two steps buy one point for 2 fuel
    flights = [c for c in GAME.choices(t.state).commands if c.group == "fly"]
    by_hex = {c.steps: c for c in flights}
    assert len(by_hex) == len(flights) == len(space.flights(t.state))  # one flight per hex
    h8 = by_hex[("H8",)]
    assert h8.command == "fly H0 H1 H8" and h8.detail == "range 2 of 1, 1 bought for 2 fuel"
    assert {c.steps[0] for c in flights} <= spots(GAME.observation.svg(t.state, Viewer.seat("Marion")))


def test_a_card_is_played_by_the_card_then_its_side():
    t = Table()
    t.do("take yellow2@0 research")
    plays = {c.command: c.steps for c in GAME.choices(t.state).commands if c.group == "play"}
    card = t.mat().hand[0]
    assert plays[f"play {card} mission"] == (f"card {card}", "mission")


def test_exchanges_too_many_to_list_are_a_form_and_the_rest_still_clicks():
    t = Table()
    t.set_mat(storage=((3, 3, 2), (3, 3, 2), (2, 2, 1), (1, 1, 1)))
    assert GAME.legal_commands(t.state) is None  # the exchanges: more than LIMIT
    choices = GAME.choices(t.state)
    (form,) = choices.forms
    assert [f.name for f in form.fields] == [*COLOURS, "fuel", "bucks"]
    assert form.fields[0].values[:3] == ("", "black III", "black III III")
    assert GAME.decide(t.state, GAME.parse(form.example, t.state))
    listed = {c.command for c in choices.commands}
    assert listed == {GAME.format_at(c, t.state) for c in legal.phase_commands(t.state) + legal.anytime_commands(t.state, False)}
    picked = form.template.format(black="black I I", yellow="", turquoise="turquoise II", brown="", fuel="1", bucks="1")
    assert GAME.decide(t.state, GAME.parse(picked, t.state))


def at_chance(*commands: str) -> Table:
    t = Table(opening=commands)
    assert GAME.to_act(t.state) == CHANCE
    return t


def test_a_card_drawn_is_picked_from_every_card_of_the_set_whatever_the_deck_holds():
    t = Table()
    t.do("take yellow2@0 research", "draw")
    assert GAME.to_act(t.state) == CHANCE
    (form,) = GAME.choices(t.state, entered=True).forms
    everything = tuple(map(str, sorted(t.state.cset.progress_cards)))
    assert form.template == "card {card}" and form.fields[0].values == everything
    other = attrs.evolve(t.state, deck=t.state.deck[1:])
    (same,) = GAME.choices(other, entered=True).forms
    assert same.fields == form.fields
    assert GAME.decide(t.state, GAME.parse(form.example, t.state))


def test_a_hub_is_picked_from_those_not_built_whatever_the_hidden_hubs_are():
    t = at_chance(*OPENING[:-1])
    (form,) = GAME.choices(t.state, entered=True).forms
    letters = tuple(t.state.cset.number("dice.hubs.letters"))
    assert form.template == "hub {hub}" and form.fields[0].values == letters
    (same,) = GAME.choices(attrs.evolve(t.state, hubs=t.state.hubs[::-1][:2]), entered=True).forms
    assert same.fields == form.fields


def test_a_die_drawn_is_a_colour_still_in_the_bag_and_a_face():
    t = at_chance(*OPENING[:3])
    (form,) = GAME.choices(t.state, entered=True).forms
    assert form.template == "roll {colour} {face}"
    assert form.fields[0].values == tuple(col for col, k in zip(COLOURS, t.state.bag) if k)
    assert form.fields[1].values == ("1", "2", "3", "*", "*+1")


def test_the_start_cards_and_the_first_player_are_picked_from_the_set_and_the_players():
    t = at_chance()
    (form,) = GAME.choices(t.state, entered=True).forms
    assert form.fields[0].values == tuple(map(str, sorted(t.state.cset.start_cards)))
    t.do(form.example, "start-card 2")
    (form,) = GAME.choices(t.state, entered=True).forms
    assert (form.template, form.fields[0].values) == ("first {player}", ("Marion", "Tom"))


def test_the_tiles_are_a_letter_and_a_turn_per_position():
    t = Table(opening=None, tiles=None)
    (form,) = GAME.choices(t.state, entered=True).forms
    assert len(form.fields) == 12 and form.fields[0].values == ("A", "B", "C", "D", "E", "F")
    assert form.fields[1].values == tuple("012345")
    picked = form.template.format(**{f.name: f.values[k // 2 if f.name.startswith("tile") else 3]
                                     for k, f in enumerate(form.fields)})
    assert picked == "tiles A3 B3 C3 D3 E3 F3"
    t.do(picked)


def test_a_planet_turned_is_one_not_seen_yet_of_a_colour_still_to_turn():
    t = flying()
    fly(t, planet_hex(t))
    assert t.phase == "reveal"
    (form,) = GAME.choices(t.state, entered=True).forms
    turnable = sorted(p for ids in rules.revealable(t.state).values() for p in ids)
    assert form.template == "planet {planet}" and form.fields[0].values == tuple(map(str, turnable))
    assert len(turnable) > 1  # which planet lies there face down is not told
    t.do(form.example)
    assert t.phase == "explore"
