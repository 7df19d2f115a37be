"""Setup: typed options with defaults, players, chance modes; refusals are InvalidSetup."""

from __future__ import annotations

import attrs
import pytest

from solrec.core import InvalidSetup, make_header
from solrec.core.options import describe_options, option, parse_options, split_assignments
from solrec.core.registry import get_game


@attrs.frozen
class Example:
    mode: str = option("duel", "how to play", choices=("duel", "solo"))
    target: int = option(36, "points to win")
    joker: bool = option(False, "6-6 plays as anything")


def test_defaults_fill_every_option():
    assert parse_options(Example, {}) == Example(mode="duel", target=36, joker=False)


def test_text_values_are_read_by_type():
    assert parse_options(Example, {"mode": "solo", "target": "20", "joker": "on"}) == Example(mode="solo", target=20, joker=True)


@pytest.mark.parametrize(
    "raw,reason",
    [
        ({"mode": "trio"}, 'option mode is one of duel, solo, not "trio"'),
        ({"target": "many"}, 'option target takes a whole number, not "many"'),
        ({"joker": "maybe"}, 'option joker is on or off, not "maybe"'),
        ({"colour": "red"}, 'unknown option "colour" (this game\'s options: joker, mode, target)'),
    ],
)
def test_bad_options_are_refused_with_a_reason(raw, reason):
    with pytest.raises(InvalidSetup) as err:
        parse_options(Example, raw)
    assert str(err.value) == reason


def test_options_schema_is_plain_data():
    assert describe_options(Example)[0] == {
        "name": "mode", "type": "str", "default": "duel", "choices": ["duel", "solo"], "help": "how to play",
    }


def test_key_value_words():
    assert split_assignments(["a=1", "b = x"]) == {"a": "1", "b": "x"}
    with pytest.raises(InvalidSetup, match="KEY=VALUE"):
        split_assignments(["novalue"])


def test_header_records_rules_version_options_and_chance():
    game = get_game("solo-dice")
    header = make_header(game, ["Ann"], {}, "seeded", 7)
    assert header.as_dict() == {"game": "solo-dice", "players": ["Ann"], "chance": "seeded", "seed": 7,
                                "options": {}, "rules": game.rules_version}


@pytest.mark.parametrize(
    "players,chance,seed,reason",
    [
        (["Ann", "Bob"], "seeded", 1, "Solo Dice is played by 1 player, not 2"),
        (["chance"], "seeded", 1, '"chance" is the name of chance, not a player name'),
        ([" Ann"], "seeded", 1, 'player name " Ann" is empty or has surrounding spaces'),
        (["Ann"], "dice", 1, 'chance is "seeded" or "entered", not "dice"'),
        (["Ann"], "seeded", None, "a seeded game needs a seed"),
    ],
)
def test_bad_setups_are_refused(players, chance, seed, reason):
    with pytest.raises(InvalidSetup) as err:
        make_header(get_game("solo-dice"), players, {}, chance, seed)
    assert str(err.value) == reason


def test_unknown_game():
    with pytest.raises(InvalidSetup, match='unknown game "chess"'):
        get_game("chess")
