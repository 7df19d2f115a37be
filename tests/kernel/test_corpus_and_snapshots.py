"""Corpus validation on several cores gives the verdicts of one core; snapshots give the states of the fold."""

from __future__ import annotations

import random

import attrs
import pytest

from solrec.events import pack
from solrec.events.store import Store
from solrec.replay.corpus import final_states, shards, stream_logs, validate_corpus
from solrec.replay.log import Replay, fold, load, state_at, states
from solrec.replay.validate import validate_stored
from solrec.workflows.games import import_text, simulate_games

from ..conftest import FIXTURES

FIXTURE_FILES = sorted(FIXTURES.glob("*/*.jsonl"))


@pytest.fixture
def corpus(store: Store) -> Store:
    """Games of three kinds, some of them damaged in different ways, and orphan events."""
    simulate_games(store, "solo-dice", 12, 3, [], {})
    simulate_games(store, "soli2", 3, 3, [], {})
    simulate_games(store, "solar-solitaire", 3, 3, [], {})
    conn = store.db.conn
    conn.execute("update events set payload = ? where game_id = 'solo-dice-2' and seq = 5", [pack({"dice": [6] * 5})])
    conn.execute("delete from events where game_id = 'solo-dice-4' and seq = 3")
    conn.execute("update events set payload = x'c1' where game_id = 'solo-dice-6' and seq = 1")  # not msgpack
    conn.execute("update events set actor = 7 where game_id = 'solo-dice-8' and seq = 2")  # not text
    conn.execute("update games set options = '[' where id = 'soli2-2'")  # a header that does not decode
    conn.execute("update games set scores = '{\"Player 1\": 1}' where id = 'solo-dice-10'")
    conn.execute("delete from events where game_id = 'solar-solitaire-3'")  # a game without events
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("delete from games where id = 'solo-dice-12'")  # its events are orphans now
    return store


def test_the_corpus_stream_gives_the_verdicts_of_validating_game_by_game(corpus):
    ids = corpus.game_ids()
    one_by_one = [validate_stored(corpus, gid) for gid in ids]
    assert validate_corpus(corpus, None, jobs=1) == one_by_one
    assert [v.ok for v in one_by_one].count(False) == 7


def test_validate_with_two_jobs_gives_the_verdicts_of_one_job_in_game_id_order(corpus):
    one = validate_corpus(corpus, None, jobs=1)
    assert validate_corpus(corpus, None, jobs=2) == one
    assert [v.game_id for v in one] == corpus.game_ids()


def test_validate_all_jobs_2_prints_the_json_and_exit_code_of_jobs_1(corpus, cli):
    one = cli.run("validate", "--all", "--json", "--jobs", "1", expect=1)
    two = cli.run("validate", "--all", "--json", "--jobs", "2", expect=1)
    default = cli.run("validate", "--all", "--json", expect=1)
    assert one.stdout == two.stdout == default.stdout
    assert '"orphan events"' not in one.stdout and "orphan events" in one.stdout


def test_a_valid_corpus_validates_the_same_on_two_jobs(cli):
    for game in ("solo-dice", "soli2"):
        cli.run("simulate", game, "--games", "5", "--seed", "2")
    one, two = cli.json("validate", "--all", "--jobs", "1"), cli.json("validate", "--all", "--jobs", "2")
    assert one == two and one["invalid"] == 0 and one["valid"] == 10


def test_jobs_below_one_is_bad_input(cli):
    cli.run("simulate", "solo-dice", "--games", "1", "--seed", "2")
    result = cli.run("validate", "--all", "--jobs", "0", expect=2)
    assert result.stderr.count("\n") == 1


def test_shards_are_contiguous_runs_of_the_sorted_ids_covering_each_once():
    ids = [f"g-{i}" for i in range(50)]
    random.Random(1).shuffle(ids)
    sizes = {gid: (500 if gid == "g-7" else 10) for gid in ids}
    parts = shards(ids, sizes, 8)
    assert [gid for part in parts for gid in part] == sorted(ids)
    assert 1 < len(parts) <= 8


def test_the_stream_reads_each_game_as_load_does_but_for_the_times(corpus):
    for mirrors in (False, True):
        for gid, log in stream_logs(corpus, corpus.game_ids(), mirrors):
            if log is not None:
                loaded = load(corpus, gid, verify=False, mirrors=mirrors)
                assert log == attrs.evolve(loaded, rows=tuple(row._replace(time="") for row in loaded.rows))


def test_final_states_are_the_folds_of_the_verified_logs(store):
    ids, _ = simulate_games(store, "solo-dice", 5, 9, [], {})
    assert dict(final_states(store, ids)) == {gid: fold(load(store, gid)) for gid in ids}


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_state_at_every_position_through_snapshots_equals_the_full_fold(store, path):
    gid, _ = import_text(store, path.read_text(), None)
    log = load(store, gid)
    n = len(log.rows)
    folds = [fold(log, at) for at in range(n + 1)]
    assert list(states(log)) == folds
    replay = Replay(log, every=7)
    order = list(range(n + 1))
    random.Random(n).shuffle(order)  # jumps back and forth, across and within snapshot spans
    for at in order:
        assert replay.state_at(at) == folds[at]
    assert [state_at(log, at) for at in reversed(range(n + 1))] == folds[::-1]


def test_a_damaged_event_is_refused_through_snapshots_as_by_the_fold(store):
    gid = simulate_games(store, "solo-dice", 1, 4, [], {})[0][0]
    store.db.conn.execute("update events set payload = ? where game_id = ? and seq = 9", [pack({"dice": [9] * 5}), gid])
    log = load(store, gid, verify=False)
    with pytest.raises(Exception) as folded:
        fold(log, 12)
    with pytest.raises(type(folded.value)) as snapped:
        Replay(log).state_at(12)
    assert str(snapped.value) == str(folded.value)
    assert Replay(log).state_at(9) == fold(log, 9)


def test_a_scattered_subset_gives_the_verdicts_of_validating_game_by_game(corpus):
    ids = corpus.game_ids()
    subset = [ids[i] for i in (0, 3, 5, 9, 13, 16)]  # damaged games among them
    assert validate_corpus(corpus, subset, jobs=1) == [validate_stored(corpus, gid) for gid in subset]


def test_a_scattered_subset_reads_only_its_games(store):
    """Issue 32: a subset reads about what a block of as many games reads, not every game between its
    first and its last. Counted in SQLite's virtual machine steps (what it reads), not in time."""
    simulate_games(store, "solo-dice", 400, 3, [], {})
    ids = sorted(store.game_ids())

    def steps(subset: list[str]) -> int:
        count = 0

        def tick() -> int:
            nonlocal count
            count += 1
            return 0

        store.conn.set_progress_handler(tick, 100)
        try:
            validate_corpus(store, subset, jobs=1)
        finally:
            store.conn.set_progress_handler(None, 100)
        return count

    block, scattered = steps(ids[100:120]), steps(ids[::20])
    assert scattered < 2 * block
    assert steps(ids) > 10 * scattered  # what reading every game between them costs
