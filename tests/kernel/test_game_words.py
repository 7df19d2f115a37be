"""Each game's words (core/<game>/words.py, issue 41): every event said once, for the record and in
the past tense for "since your last move", and every command said in words for a button, beside its
notation. Walked over every recorded fixture: no event or command of a game falls back to its class name."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from solrec.core.observe import Observation, Viewer
from solrec.core.play import initial_state
from solrec.core.registry import GAMES, get_game
from solrec.replay.log import walk

from ..pictures.helpers import FIXTURE_FILES, FIXTURE_IDS, fixture_log


def words_of(game):
    return importlib.import_module(f"solrec.core.{GAMES[game.id][0].split('.')[0]}.words")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_game_has_one_words_module_that_its_game_and_observation_read(game_id):
    game = get_game(game_id)
    words = words_of(game)
    for name in ("record", "since", "command"):
        assert callable(getattr(words, name)), name
    observation = importlib.import_module(type(game.observation).__module__)
    assert "words" in vars(observation)  # the observation's "since your last move" reads the same module
    assert "game" not in vars(observation)  # and never the game module (no import circle)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=FIXTURE_IDS)
def test_every_recorded_command_and_event_is_worded(path):
    log = fixture_log(path)
    game = log.game
    before = initial_state(game, log.header)
    for group, events, after in walk(log):
        command = game.parse(group[0].command, before)
        said = game.command_words(command, before)
        assert said and said != type(command).__name__, group[0].command
        for event in events:
            line = game.describe_event_at(event, before)
            assert line and line != type(event).__name__ and not line.startswith(f"{event.TYPE}("), event
        before = after


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=FIXTURE_IDS)
def test_the_record_and_since_your_last_move_say_each_event_in_the_same_words(path):
    # the record's line is the actor's name and the words; "since your last move" the words alone
    # after the command's actor ("then Ann ..." for another's), or nothing (a detail left to the move list)
    log = fixture_log(path)
    game = log.game
    before = initial_state(game, log.header)
    for group, events, after in walk(log):
        actor, command = group[0].actor, game.parse(group[0].command, before)
        left_out = Observation.said(game.observation, actor, command, [], before, Viewer.table())
        for event in events:
            line = game.describe_event_at(event, before)
            told = game.observation.said(actor, command, [event], before, Viewer.table())
            assert told == left_out or told in (line, f"then {line}") or line.endswith(f" {told}"), (line, told)
        before = after


def test_a_button_says_the_command_in_words_beside_its_notation():
    mission = get_game("solarius-mission")
    take = mission.parse("take yellow2@-1 standard")
    assert mission.command_words(take) == "take the yellow 2 die from the -1 space onto the standard space"
    assert mission.format(take) == "take yellow2@-1 standard"
    solitaire = get_game("solar-solitaire")
    assert solitaire.command_words(solitaire.parse("move waste pad1")) == "move the top card of waste from waste to pad1"
    assert get_game("solo-dice").command_words(get_game("solo-dice").parse("6+1 5+5 5")) == "pair 6+1 and 5+5, leaving 5"


def _siblings(package: str) -> dict[str, set[str]]:
    """Each module of a game's package and the modules of the same package it imports (anywhere in
    it, a function's own import too), read from its source."""
    folder = Path(importlib.import_module(package).__file__).parent
    out: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        out[path.stem] = found
    return out


@pytest.mark.parametrize("game_id", list(GAMES))
def test_neither_the_words_nor_the_observation_import_the_game_module(game_id):
    package = "solrec.core." + GAMES[game_id][0].split(".")[0]
    imports = _siblings(package)
    for start in ("words", "observation"):
        reached, todo = set(), [start]
        while todo:
            module = todo.pop()
            if module not in reached:
                reached.add(module)
                todo.extend(imports.get(module, ()))
        assert "game" not in reached, f"{package}.{start} imports {package}.game: the circle is back"
