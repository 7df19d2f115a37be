"""What the read path refuses, the write path refuses first (issue 20, "What the docs claim, the code
keeps"): each bound a reader keeps, checked both ways on one value. Stored behind solrec's back, the
value is refused by the reader (a stored-data verdict); handed to the writer, it is refused before
anything is written (exit 2 from the CLI), so no game is ever written that no reader can open.

The bounds a reader keeps, and where: the games row's texts (``MAX_TEXT``) and its options' values
(text, true/false, a whole number of at most 64 bits) in ``events/store.py``; each event row's head
(``MAX_HEAD``), payload (``MAX_PAYLOAD``) and browsing texts (``MAX_TEXT``) in ``events/store.py``; an
event's type, shape and domain (``check``) in ``events/codec.py``; the header's players (``MAX_NAME``,
printable), options, chance, seed (64 bits) and rules version (``MAX_RULES``, printable), checked by
``make_header`` in ``core/play.py``, which reading
(``replay/log.py``'s ``set_up``) and writing (new, import, play, simulate) both call. A row's ``data``
(``MAX_DATA``) is at most six characters per payload byte, so no payload within its bound exceeds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from solrec.core.errors import SolrecError
from solrec.core.play import MAX_RULES, Step
from solrec.core.solo_dice.events import Rolled
from solrec.events.codec import pack
from solrec.events.store import MAX_HEAD, MAX_PAYLOAD, MAX_TEXT, Store
from solrec.replay.log import load
from solrec.replay.validate import validate_stored

from .helpers import FIXTURES, Hostile, codec, fingerprint, rechain, sql

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
HEADER = {"solrec": 1, "game": "solo-dice", "players": ["Ann"], "chance": "entered"}


@attrs.frozen
class Bound:
    name: str
    stored: Callable[[Path], None]  # puts the value in game 'we' behind solrec's back
    written: Callable[[Path, Hostile], Any]  # hands the value to solrec's write path


def _header(store: Store):
    return store.header("we")


def _store_create(db: Path, **changes: Any) -> None:
    store = Store(db)
    header = attrs.evolve(_header(store), **changes)
    store.create_game("new", header, codec("solo-dice"))


def _store_append(db: Path, notation: str, event: Any, actor: str = "chance") -> None:
    """A new game with one command (what import writes, in one transaction with its game)."""
    store = Store(db)
    step = Step(actor, None, notation, (event,))  # type: ignore[arg-type]
    store.create_game("new", _header(store), codec("solo-dice"), [step])


def _import(cli: Hostile, db: Path, **header: Any):
    record = db.parent / "record.jsonl"
    record.write_text(json.dumps({**HEADER, **header}) + "\n", encoding="utf-8")
    return cli.run("import", str(record), "--id", "new")


BIG_ROLL = Rolled(tuple([6] * (MAX_PAYLOAD + 1)))

BOUNDS = [
    Bound(
        "a games text over MAX_TEXT (options)",
        lambda db: sql(db, "update games set options = ? where id = 'we'", params=(json.dumps({"o": "x" * MAX_TEXT}),)),
        lambda db, cli: _store_create(db, options=(("o", "x" * MAX_TEXT),)),
    ),
    Bound(
        "an option value beyond 64 bits",
        lambda db: sql(db, """update games set options = '{"x": 100000000000000000000000000000}' where id = 'we'"""),
        lambda db, cli: _store_create(db, options=(("x", 10**29),)),
    ),
    Bound(
        "a rules version over MAX_RULES",
        lambda db: (sql(db, "update games set rules = ? where id = 'we'", params=("1" * (MAX_RULES + 1),)),
                    rechain(db, "we")),
        lambda db, cli: _import(cli, db, rules="1" * 100_000),
    ),
    Bound(
        "a rules version with a control character",
        lambda db: (sql(db, "update games set rules = ? where id = 'we'", params=("\0",)), rechain(db, "we")),
        lambda db, cli: _import(cli, db, rules="\0"),
    ),
    Bound(
        "a seed beyond 64 bits",
        lambda db: sql(db, "update games set seed = 1e20 where id = 'we'"),  # SQLite keeps it as a fraction
        lambda db, cli: _import(cli, db, chance="seeded", seed=2**64),
    ),
    Bound(
        "a chance mode neither seeded nor entered",
        lambda db: sql(db, "update games set chance = 'dice' where id = 'we'"),
        lambda db, cli: _import(cli, db, chance="dice"),
    ),
    Bound(
        "a player name over MAX_NAME",
        lambda db: (sql(db, "update games set players = ? where id = 'we'", params=(json.dumps(["A" * 41]),)),
                    rechain(db, "we")),
        lambda db, cli: _import(cli, db, players=["A" * 41]),
    ),
    Bound(
        "an event payload over MAX_PAYLOAD",
        lambda db: sql(db, f"update events set payload = zeroblob({MAX_PAYLOAD + 1}) where game_id = 'we' and seq = 3"),
        lambda db, cli: _store_append(db, "roll", BIG_ROLL),
    ),
    Bound(
        "an event head over MAX_HEAD",
        lambda db: sql(db, f"update events set head = zeroblob({MAX_HEAD + 1}) where game_id = 'we' and seq = 3"),
        lambda db, cli: _store_append(db, "r" * (MAX_HEAD + 1), Rolled((6, 6, 6, 6, 6))),
    ),
    Bound(
        "a browsing text over MAX_TEXT (command)",
        lambda db: (sql(db, "update events set command = ? where game_id = 'we' and seq = 3", params=("r" * (MAX_TEXT + 1),)),
                    rechain(db, "we")),
        lambda db, cli: _store_append(db, "r" * (MAX_TEXT + 1), Rolled((6, 6, 6, 6, 6))),
    ),
    Bound(
        "an event outside the game (its check)",
        lambda db: (sql(db, "update events set payload = ? where game_id = 'we' and seq = 0",
                        params=(pack({"dice": [7, 7, 7, 7, 7]}),)), rechain(db, "we")),
        lambda db, cli: _store_append(db, "roll 7 7 7 7 7", Rolled((7, 7, 7, 7, 7))),
    ),
]


@pytest.mark.parametrize("bound", BOUNDS, ids=[b.name for b in BOUNDS])
def test_the_write_path_refuses_what_the_read_path_refuses(tmp_path, bound):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("import", str(WORKED), "--id", "we")
    before = fingerprint(cli.db)
    try:
        result = bound.written(cli.db, cli)
    except SolrecError as err:  # the store's refusal (the CLI's exit 2)
        assert "nothing was written" in str(err), err
    else:
        assert result is not None and result.exit_code == 2, "the writer took a value its reader refuses"
    assert fingerprint(cli.db) == before

    bound.stored(cli.db)
    verdict = validate_stored(Store(cli.db), "we")
    assert not verdict.ok, verdict


def test_a_value_at_its_bound_is_written_and_reads_back(tmp_path):
    """The writer is not stricter than the reader: a command of exactly MAX_TEXT characters is
    written, read back, and its browsing column agrees with its head."""
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("import", str(WORKED), "--id", "we")
    _store_append(cli.db, "r" * MAX_TEXT, Rolled((6, 6, 6, 6, 6)))
    store = Store(cli.db)
    log = load(store, "new", mirrors=True)
    assert log.rows[0].command == "r" * MAX_TEXT and log.unmirrored is None


def test_an_append_is_checked_like_a_new_game(tmp_path):
    """``play`` appends through the same check as ``new`` and ``import``: refused, the log is unchanged."""
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--entered", "--id", "g")
    before = fingerprint(cli.db)
    step = Step("chance", None, "roll 7 7 7 7 7", (Rolled((7, 7, 7, 7, 7)),))  # type: ignore[arg-type]
    with pytest.raises(SolrecError, match="the event at move 1 would not read back .*not a die face.*nothing was written"):
        store = Store(cli.db)
        store.append("g", 0, load(store, "g").head, codec("solo-dice"), [step])
    assert fingerprint(cli.db) == before
