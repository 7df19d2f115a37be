"""Moves in words on the served pages (issue 43 item 3), without a browser: every command a seat may
choose carries the game's words for its button (``Game.command_words``) beside its notation, for all
five games; a jump says where the marble lands and which marble it removes, and names the removed
pocket for the board; the new-game form explains each option in a sentence of the rulebook; a page's
header counts the options the game records, not the other lines of its set-up."""

from __future__ import annotations

import html
import json
import re

import pytest

from solrec.core.options import describe_options
from solrec.core.registry import GAMES, get_game
from solrec.replay.log import walk
from solrec.server.views import view

from ..conftest import rule_text
from ..pictures.helpers import FIXTURE_FILES, FIXTURE_IDS, fixture_log

RULE_TEXTS = {game_id: get_game(game_id).rule_text for game_id in GAMES}


def offered(page: str) -> list[dict]:
    found = re.search(r'data-choices="([^"]*)"', page)
    return json.loads(html.unescape(found.group(1))) if found else []


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=FIXTURE_IDS)
def test_every_command_offered_to_the_one_to_act_is_said_in_the_games_words(path):
    from solrec.core.observe import Viewer

    REFEREE = Viewer.referee()
    log = fixture_log(path)
    positions = sorted({0, len(log.rows) // 3, len(log.rows) // 2, len(log.rows) - 1})
    checked = 0
    for at in positions:
        v = view(log, REFEREE, at)
        if v.choices is None:
            continue
        words = dict(v.words)
        for c in v.choices.commands:
            said = words.get(c.command)
            assert said and said != c.command, c.command  # in words, never the notation again
            checked += 1
    assert checked or all(view(log, REFEREE, at).choices is None for at in positions)


def test_a_jump_says_where_the_marble_lands_and_what_it_removes():
    game = get_game("soli2")
    log = next(fixture_log(p) for p in FIXTURE_FILES if "soli2/duel" in str(p))
    state = next(after for group, _, after in walk(log) if game.to_act(after) != "chance" and after.phase == "jumping")
    choices = game.choices(state)
    jump = choices.commands[0]
    start, end = jump.steps
    (taken,) = jump.takes
    said = game.command_words(game.parse(jump.command, state), state)
    assert said == f"jump the {state.at(start)} marble from {start} over {taken} to {end}, removing the {state.at(taken)} marble on {taken}"


def test_a_die_of_the_bridge_is_said_in_words_before_its_action_is_picked():
    game = get_game("solarius-mission")
    log = next(fixture_log(p) for p in FIXTURE_FILES if "space-three-players-seeded" in str(p))
    state = next(after for group, _, after in walk(log)
                 if any(c.group == "take" for c in game.choices(after).commands))
    take = next(c for c in game.choices(state).commands if c.group == "take")
    colour, rest = re.match(r"([a-z]+)(.+)@", take.steps[0]).groups()
    assert take.said[0].startswith(f"the {colour} ") and take.said[0].endswith(" space") and " die on the " in take.said[0]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_options_rule_sentence_is_quoted_from_the_games_rule_text(game_id):
    text = " ".join(rule_text(RULE_TEXTS[game_id]).split())
    source = RULE_TEXTS[game_id][:3]
    for o in describe_options(get_game(game_id).Options):
        if "rule" in o:
            cited, _, sentence = o["rule"].partition(": ")
            assert cited == source and " ".join(sentence.strip('"').split()) in text, o["name"]


def test_the_new_game_form_explains_each_solarius_mission_option_in_a_sentence_of_the_rulebook(table):
    page = table.page("/new?game=solarius-mission")
    for name in ("start", "station_effect", "hub_adjacency", "outpost_doubles", "network"):
        field = re.search(rf'<span class="name">{name}</span>.*?</label>', page, re.S)
        assert field, name
        rule = re.search(r'<span class="rule">\u201c(.+?)\u201d <span class="source">\(rule text 003\)</span>', field.group(0))
        assert rule and len(rule.group(1).split()) >= 8, name
    assert "scoring reading S3 (9.2 B II.4):" not in page  # the reading named after the explanation, not as its label


def test_a_page_header_counts_the_options_the_game_records(table):
    gid, seats, device = table.seated("soli2")
    assert "· 3 options</summary>" in table.page(f"/g/{gid}")  # not chance, seed and rules besides
    assert "· 3 options</summary>" in device.get(seats["Ann"]).text
    dice = table.start("solo-dice", ["Ann"])
    page = table.page(f"/g/{dice}")
    assert " options</summary>" not in page and "· set-up</summary>" in page


def test_a_seats_buttons_carry_each_command_in_words_beside_its_notation(table):
    gid, seats, device = table.seated("soli2")
    choices = offered(device.get(seats["Ann"]).text)
    assert choices and all(c["words"].startswith("place a ") and c["words"].endswith(c["steps"][-1]) for c in choices)
