"""`simulate` commits its games in batches and counts its ids on (issue 32): what it records is what
one write per game recorded before, byte for byte, and a killed run leaves only whole games."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from solrec.core.play import SEEDED, make_header
from solrec.core.registry import get_game
from solrec.events import codec_for
from solrec.events.store import Store
from solrec.replay.simulate import game_seed, player_rng, simulate
from solrec.workflows.games import simulate_games

SOLREC = [sys.executable, "-c", "from solrec.cli.main import run; run()"]


def recorded(path: Path) -> str:
    """A digest of everything a run records but the times: ids, headers, counts, heads, scores,
    outcomes, and every event's row (position, command, type, payload, ``data``, hash, head)."""
    conn = sqlite3.connect(path)
    digest = hashlib.sha256()
    for row in conn.execute("select id, game, rules, options, chance, seed, players, genesis, events, head, scores,"
                            " outcome from games order by rowid"):
        digest.update(repr(row).encode())
    for row in conn.execute("select game_id, seq, step, actor, command, type, version, payload, hash, data, head"
                            " from events order by rowid"):
        digest.update(repr(row).encode())
    conn.close()
    return digest.hexdigest()


def one_write_per_game(store: Store, game: str, seed: int, indices: range) -> list[str]:
    """What ``simulate`` did before issue 32: each game of the run its own ``create_game`` under a new id."""
    kind = get_game(game)
    ids = []
    for index in indices:
        header = make_header(kind, [], {}, SEEDED, game_seed(seed, index))
        steps, state = simulate(kind, header, player_rng(seed, index))
        outcome = kind.outcome(state)
        store.create_game(None, header, codec_for(kind), steps, dict(kind.score(state).totals),
                          outcome.as_dict() if outcome else None)
        ids.append(store.last_created)
    return ids


def test_simulate_records_byte_for_byte_what_it_recorded_before_batches(tmp_path):
    """Digests taken from `simulate` as it was before issue 32 (one write per game), seed 7."""
    pinned = {
        ("solo-dice", 300): "ac7d17e5ce5d1d55d914a93938c65fcaf4d7b1f7a26dde44669f6694d6f80adb",
        ("soli2", 10): "482484193b88937693f117d8d74aeeb75ba242f1dbfa2eacd47e49b07afb0f6b",
    }
    # the players the digests were taken with: the default names before issue 31 ("Player 1", ...)
    players = {"solo-dice": ["Solo"], "soli2": ["Black", "White"]}
    for (game, count), digest in pinned.items():
        path = tmp_path / f"{game}.db"
        store = Store(path)
        ids, _ = simulate_games(store, game, count, 7, players[game], {}, batch_games=64)
        store.close()
        assert ids == [f"{game}-{n}" for n in range(1, count + 1)]
        assert recorded(path) == digest


def test_batches_take_the_ids_and_store_the_bytes_one_write_per_game_does_after_other_writes(tmp_path):
    """The next id is one past the largest GAME-N, whoever stored it: games already in the file (one
    renamed), and a game another connection stores between two batches."""
    kind = get_game("solo-dice")
    paths = [tmp_path / "batched.db", tmp_path / "one-by-one.db"]
    for path in paths:
        store = Store(path)
        one_write_per_game(store, "solo-dice", 3, range(2))
        store.rename_game("solo-dice-2", "solo-dice-40")
        store.close()
    store, other = Store(paths[0]), Store(paths[0])
    seen = []

    def another_writer(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:  # between the second and the third batch
            other.create_game("solo-dice-90", make_header(kind, [], {}, SEEDED, 1), codec_for(kind))

    ids, _ = simulate_games(store, "solo-dice", 20, 5, [], {}, another_writer, batch_seconds=1e9, batch_games=4)
    store.close()
    other.close()
    assert seen == [4] * 5
    assert ids == [f"solo-dice-{n}" for n in [*range(41, 49), *range(91, 103)]]
    reference = Store(paths[1])
    one_write_per_game(reference, "solo-dice", 5, range(8))
    reference.create_game("solo-dice-90", make_header(kind, [], {}, SEEDED, 1), codec_for(kind))
    one_write_per_game(reference, "solo-dice", 5, range(8, 20))
    reference.close()
    assert recorded(paths[0]) == recorded(paths[1])


def test_the_next_id_is_counted_on_only_while_nothing_else_wrote(store):
    kind = get_game("solo-dice")
    header = make_header(kind, [], {}, SEEDED, 1)
    store.create_game(None, header, codec_for(kind))
    store.create_game("solo-dice-7", header, codec_for(kind))  # a write of this store's own
    store.create_game(None, header, codec_for(kind))
    assert store.last_created == "solo-dice-8"
    store.rename_game("solo-dice-8", "solo-dice-30")
    store.create_game(None, header, codec_for(kind))
    assert store.last_created == "solo-dice-31"


def test_ids_are_scanned_for_once_per_run_not_per_game_or_batch(store, monkeypatch):
    """Issue 32: `last_game_number` read every id for each new game (5.2 ms at 10k games, 9.7 ms at
    20k); now once, then counted on."""
    scans = []
    original = Store.last_game_number
    monkeypatch.setattr(Store, "last_game_number", lambda self, game: scans.append(game) or original(self, game))
    ids, _ = simulate_games(store, "solo-dice", 60, 1, [], {}, batch_seconds=1e9, batch_games=5)
    assert len(ids) == 60 and scans == ["solo-dice"]


def test_a_killed_simulate_leaves_whole_games_only(tmp_path):
    """Killed once its first batch is on disk (waited for, not slept on): every stored game is a whole
    game of the run, ids one after another, and `validate --all` finds them all valid."""
    db = tmp_path / "solrec.db"
    proc = subprocess.Popen([*SOLREC, "simulate", "solo-dice", "--games", "1000000", "--seed", "5", "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and stored_games(db) < 1:
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait()
    count = stored_games(db)
    assert count >= 1
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("select id from games order by rowid")]
    assert ids == [f"solo-dice-{n}" for n in range(1, count + 1)]
    assert conn.execute("select count(*) from games where outcome is null").fetchone()[0] == 0
    last = conn.execute("select head from games where id = ?", [ids[-1]]).fetchone()[0]
    conn.close()
    kind = get_game("solo-dice")
    header = make_header(kind, [], {}, SEEDED, game_seed(5, count - 1))
    steps, _ = simulate(kind, header, player_rng(5, count - 1))
    from solrec.events.envelope import chain_rows, genesis_hash

    assert chain_rows(codec_for(kind), genesis_hash(header), 0, 0, steps)[-1].hash == last
    check = subprocess.run([*SOLREC, "validate", "--all", "--db", str(db)], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.strip().endswith(f"{count} valid, 0 invalid"), check.stdout


def stored_games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return conn.execute("select count(*) from games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:  # the schema not written yet
        return 0
