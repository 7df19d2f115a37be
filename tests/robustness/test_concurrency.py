"""Many hands on one database (issue 21): every read sees one snapshot, every write names the head it
was decided against.

The interleavings are reproduced deterministically: the command under test runs here, and at the
moment named (after it read, before it writes) another process changes the game. The parallel run
then plays and reads from several processes at once and checks what must hold whatever the timing.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from solrec.cli.main import app
from solrec.events.store import Store

from .helpers import FIXTURES, SOLREC

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
CHANGED = "the game changed: replay and try again"


def other_process(db: Path, *commands: tuple[str, ...]) -> None:
    """Run ``commands`` as another process would (each must succeed)."""
    for args in commands:
        done = subprocess.run([*SOLREC, *args, "--db", str(db)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (args, done.stdout, done.stderr)


def interleave(monkeypatch, method: str, change: Callable[[], None]) -> list[int]:
    """Make ``Store.<method>`` run ``change`` once, first: the moment between deciding and writing (or
    between two reads). Returns a list that counts how often ``change`` ran."""
    original = getattr(Store, method)
    ran: list[int] = []

    def patched(self, *args, **kwargs):
        if not ran:
            ran.append(1)
            change()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Store, method, patched)
    return ran


def run(db: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--db", str(db)])


def commands(db: Path, game_id: str = "g") -> list[str]:
    store = Store(db, create=False)
    try:
        return [r.command for r in store.rows(game_id)]
    finally:
        store.close()


@pytest.fixture
def entered(tmp_path) -> Path:
    """A Solo Dice game whose chance is typed in, after its first roll."""
    db = tmp_path / "solrec.db"
    assert run(db, "new", "solo-dice", "--id", "g", "--entered").exit_code == 0
    assert run(db, "play", "g", "roll 6 1 5 5 5").exit_code == 0
    return db


# -- writers write against the head they decided on ---------------------------------------------------
def test_a_play_decided_before_the_game_changed_is_refused_though_the_length_is_the_same(entered, monkeypatch):
    """Issue 21's first race: A decides ``6+1 5+5 5`` on the roll 6 1 5 5 5; meanwhile B takes the
    roll back and rolls 2 2 2 2 2. The log has the same length, another head: A is refused."""
    ran = interleave(monkeypatch, "append", lambda: other_process(entered, ("undo", "g"), ("play", "g", "roll 2 2 2 2 2")))
    result = run(entered, "play", "g", "6+1 5+5 5", "--json")
    assert ran and result.exit_code == 2, (result.stdout, result.stderr)
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "conflict" and CHANGED in error["reason"]
    monkeypatch.undo()
    assert commands(entered) == ["roll 2 2 2 2 2"]
    assert run(entered, "validate", "g").exit_code == 0


def test_a_stale_undo_never_takes_back_a_command_it_did_not_see(entered, monkeypatch):
    """Issue 21's second race: A decides to take back the roll 6 1 5 5 5; meanwhile B takes it back
    and rolls 3 3 3 3 3, acknowledged. A's undo would remove B's roll: it is refused."""
    ran = interleave(monkeypatch, "truncate", lambda: other_process(entered, ("undo", "g"), ("play", "g", "roll 3 3 3 3 3")))
    result = run(entered, "undo", "g")
    assert ran and result.exit_code == 2 and CHANGED in result.stderr, (result.stdout, result.stderr)
    monkeypatch.undo()
    assert commands(entered) == ["roll 3 3 3 3 3"]


def test_a_play_after_another_writer_moved_on_is_refused(entered, monkeypatch):
    ran = interleave(monkeypatch, "append", lambda: other_process(entered, ("play", "g", "6+1 5+5 5")))
    result = run(entered, "play", "g", "6+1 5+5 5")
    assert ran and result.exit_code == 2 and CHANGED in result.stderr
    monkeypatch.undo()
    assert commands(entered) == ["roll 6 1 5 5 5", "6+1 5+5 5"]


# -- readers see a snapshot, not a moment between two writes ------------------------------------------
# Each reader, and the read inside it that a write from another process lands before
READS = {
    "show": (("show", "g"), "rows_of_read_game"),
    "validate": (("validate", "g"), "rows_of_read_game"),
    "export": (("export", "g"), "rows_of_read_game"),
    "validate --all": (("validate", "--all"), "stream_rows"),
    "play": (("play", "g", "6+1 5+5 5"), "rows_of_read_game"),
}


@pytest.mark.parametrize("reader", sorted(READS))
def test_a_write_between_two_reads_of_one_command_is_not_half_seen(entered, monkeypatch, reader):
    """Issue 21: ``load`` read the games row, then the events; a write landing between them gave
    "stored data problem: ... records 1 events but its log holds 2" on an undamaged database."""
    args, moment = READS[reader]
    ran = interleave(monkeypatch, moment, lambda: other_process(entered, ("play", "g", "6+1 5+5 5")))
    result = run(entered, *args)
    assert ran
    if reader == "play":  # it read the game before the other play: its own is refused, not misread
        assert result.exit_code == 2 and CHANGED in result.stderr, (result.stdout, result.stderr)
    else:
        assert result.exit_code == 0, (result.stdout, result.stderr)
    monkeypatch.undo()
    assert commands(entered)[:2] == ["roll 6 1 5 5 5", "6+1 5+5 5"]
    assert run(entered, "validate", "--all").exit_code == 0


# -- processes playing and reading at once ------------------------------------------------------------
READERS = [("show", "g"), ("validate", "g"), ("validate", "--all"), ("list",), ("export", "g"), ("log", "g")]


def _writer(db: str, plays: int, seed: int) -> dict[str, Any]:
    """Play ``plays`` legal commands of whoever is to act, each decided on the log as just read."""
    from solrec.replay.log import load, state_at

    runner, rng = CliRunner(), random.Random(seed)
    acknowledged, refused, problems = [], 0, []
    for _ in range(plays):
        store = Store(db, create=False)
        try:
            log = load(store, "g")
            legal = log.game.legal_commands(state_at(log))
        finally:
            store.close()
        if not legal:
            break  # the game is over
        text = log.game.format(rng.choice(legal))
        result = runner.invoke(app, ["play", "g", text, "--json", "--db", db])
        if result.exit_code == 0:
            data = json.loads(result.stdout)
            acknowledged.append((data["position"] - sum(len(s["events"]) for s in data["steps"]), text))
        elif result.exit_code == 2:
            refused += 1  # the game changed (or the roll did): an honest refusal
        else:
            problems.append((text, result.exit_code, result.stderr))
    return {"acknowledged": acknowledged, "refused": refused, "problems": problems}


def _reader(db: str, reads: int, offset: int) -> dict[str, Any]:
    runner = CliRunner()
    problems = []
    for i in range(reads):
        args = READERS[(i + offset) % len(READERS)]
        result = runner.invoke(app, [*args, "--db", db])
        if result.exit_code != 0:
            problems.append((args, result.exit_code, result.stdout[-300:], result.stderr))
    return {"problems": problems}


def race(db: Path, writers: int, plays: int, readers: int, reads: int) -> None:
    assert run(db, "new", "solo-dice", "--id", "g", "--seed", "7").exit_code == 0
    assert run(db, "import", str(WORKED), "--id", "we").exit_code == 0
    context = multiprocessing.get_context("spawn")  # no connection crosses a fork
    with context.Pool(writers + readers) as pool:
        jobs = [pool.apply_async(_writer, (str(db), plays, seed)) for seed in range(writers)]
        jobs += [pool.apply_async(_reader, (str(db), reads, offset)) for offset in range(readers)]
        results = [job.get(timeout=300) for job in jobs]
    assert [r["problems"] for r in results] == [[]] * len(results)  # no false verdict, no exit 3
    store = Store(db, create=False)
    rows = store.rows("g")
    store.close()
    played = sorted((r.seq, r.command) for r in rows if r.actor != "chance")
    acknowledged = sorted(a for r in results[:writers] for a in r["acknowledged"])
    assert played == acknowledged  # every acknowledged command stored once, where it was acknowledged
    assert acknowledged
    assert run(db, "validate", "--all").exit_code == 0  # no impossible log


def test_processes_playing_and_reading_one_game_see_no_false_verdict_and_lose_nothing(tmp_path):
    race(tmp_path / "solrec.db", writers=2, plays=6, readers=2, reads=10)


@pytest.mark.slow
def test_many_processes_playing_and_reading_one_game_for_longer(tmp_path):
    race(tmp_path / "solrec.db", writers=4, plays=40, readers=4, reads=150)
