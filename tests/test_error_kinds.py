"""Every refusal's ``kind`` describes it, and every kind docs/output.md lists can occur: one test per
kind, provoking it through the CLI and reading the JSON error (issue 20)."""

from __future__ import annotations

import json
import re
import sqlite3
import types

import pytest

from solrec.cli import manage, session
from solrec.workflows import games

from .conftest import FIXTURES, ROOT, Cli

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
SOLARIUS = FIXTURES / "solarius-mission" / "four-players-entered.jsonl"


def kind_of(cli: Cli, *args: str, code: int = 2, input: str | None = None) -> str:
    result = cli.run(*args, "--json", expect=code, input=input)
    error = json.loads(result.stdout.splitlines()[-1])["error"]  # (a prompt's echoed answer comes before)
    assert error["code"] == code and result.stderr.splitlines()[-1].endswith(f"solrec: {error['reason']}")
    return error["kind"]


@pytest.fixture
def dice(cli):
    """A seeded Solo Dice game whose set-up roll is drawn, Ann to act."""
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "5", "--id", "g")
    return cli


def first_legal(cli: Cli, gid: str) -> str:
    return cli.json("legal", gid)["commands"][0]


def test_kind_usage(cli):
    assert kind_of(cli, "list", "--over", "--running") == "usage"
    assert kind_of(cli, "show", "g", "--at", "two") == "usage"  # what the argument parser rejects too


def test_kind_invalid(dice):
    assert kind_of(dice, "play", "g", "six and one") == "invalid"


def test_kind_ambiguous(cli, tmp_path):
    # two black dice with different faces on the bridge space -1: "black@-1" names neither
    record = tmp_path / "bridge.jsonl"
    record.write_text("".join(SOLARIUS.read_text().splitlines(keepends=True)[:6]))
    cli.run("import", str(record), "--id", "sm")
    cli.run("play", "sm", "roll black 3; roll black *+1; roll brown 1; roll brown 1; hub D")
    assert kind_of(cli, "play", "sm", "take black@-1 standard") == "ambiguous"


def test_kind_illegal(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "e")
    assert kind_of(cli, "play", "e", "roll 6 1 5 5 5; 6+1 5+5 4") == "illegal"


def test_kind_wrong_actor(dice):
    assert kind_of(dice, "play", "g", first_legal(dice, "g"), "--actor", "chance") == "wrong-actor"


def test_kind_invalid_setup(cli):
    assert kind_of(cli, "new", "chess") == "invalid-setup"


def test_kind_invalid_record(cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert kind_of(cli, "import", str(bad)) == "invalid-record"


def test_kind_unknown_id(dice):
    assert kind_of(dice, "show", "nope") == "unknown-id"


def test_kind_conflict(dice, monkeypatch):
    """Another writer plays between this command's read and its write: nothing is written."""
    load, raced = games.load, []

    def racing(store, game_id, *args, **kwargs):
        log = load(store, game_id, *args, **kwargs)
        if not raced:
            raced.append(game_id)
            other = session.open_store(dice.db)
            session.play_commands(other, game_id, [first_legal(dice, game_id)], None)
            other.close()
        return log

    monkeypatch.setattr(games, "load", racing)
    assert kind_of(dice, "play", "g", first_legal(dice, "g")) == "conflict"


def test_kind_not_a_database(cli, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 200)
    assert kind_of(Cli(text), "list") == "not-a-database"


def test_kind_store(cli):
    # a reading command that names a game, on a fresh install: there is no database yet
    assert kind_of(cli, "show", "g") == "store" and not cli.db.exists()


def test_kind_stored_data(cli):
    cli.run("import", str(WORKED), "--id", "we")
    conn = sqlite3.connect(cli.db)
    conn.execute("update events set payload = substr(payload, 1, 2) where game_id = 'we' and seq = 3")
    conn.commit()
    conn.close()
    assert kind_of(cli, "show", "we", code=1) == "stored-data"


def test_kind_io(cli):
    assert kind_of(cli, "import", str(FIXTURES / "solo-dice")) == "io"  # a directory, not a record file


def test_kind_nothing_to_undo(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "e")
    assert kind_of(cli, "undo", "e") == "nothing-to-undo"


def test_kind_chance_stays(dice):
    dice.run("play", "g", first_legal(dice, "g"))  # the seed then rolls for Ann
    assert kind_of(dice, "undo", "g") == "chance-stays"


def test_kind_comments_stay(dice):
    dice.run("play", "g", first_legal(dice, "g"))
    dice.run("comment", "g", "--at", "2", "a question")
    assert kind_of(dice, "undo", "g", "--steps", "2") == "comments-stay"


def test_kind_declined(dice, monkeypatch):
    monkeypatch.setattr(manage, "sys", types.SimpleNamespace(stdin=types.SimpleNamespace(isatty=lambda: True)))
    assert kind_of(dice, "delete", "g", input="n\n") == "declined"
    assert dice.json("show", "g")["id"] == "g"


def test_kind_hidden(cli):
    cli.run("new", "solar-solitaire", "-p", "Solo", "--seed", "3", "--id", "deal")
    assert kind_of(cli, "export", "deal") == "hidden"


def test_kind_unsupported(dice):
    assert kind_of(dice, "solve", "g") == "unsupported"


def test_kind_interrupted(dice, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "play_commands", interrupted)
    assert kind_of(dice, "play", "g", "x", code=130) == "interrupted"


def test_kind_internal(dice, monkeypatch):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(session, "play_commands", bug)
    assert kind_of(dice, "play", "g", "x", code=3) == "internal"


def test_the_documentation_lists_exactly_the_kinds_tested_here():
    readme = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    table = readme[readme.index("| kind | when |"):]
    listed = re.findall(r"^\| `([a-z-]+)` \|", table[: table.index("\n\n")], flags=re.M)
    tested = sorted(name[len("test_kind_"):].replace("_", "-") for name in globals() if name.startswith("test_kind_"))
    assert sorted(listed) == tested
