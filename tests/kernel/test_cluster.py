"""A corpus in several files, and on a Dask cluster (issue 24): the results of `--jobs 1`, whatever
the files and the engine. The cluster is a LocalCluster of two in-process workers on 127.0.0.1,
started here (the `cluster` extra, which `make test` installs)."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import attrs
import pytest

from solrec.events.store import Store
from solrec.replay.cluster import map_cluster, map_files
from solrec.replay.corpus import ValidateTask
from solrec.workflows.games import simulate_games

from .test_corpus_and_snapshots import corpus  # noqa: F401  (the damaged corpus fixture)

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")


@pytest.fixture(scope="module")
def address():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def without_retries(text: str) -> dict:
    """A report less what differs between two runs by nature: the retries, and the minute it was made
    (two runs on a busy machine may straddle a minute)."""
    data = json.loads(text)
    data.pop("retried", None)
    if isinstance(data.get("tested"), dict):
        data["tested"].pop("date", None)
    return data


@pytest.mark.parametrize("ship", [False, True], ids=["paths", "ship-rows"])
def test_validate_on_a_cluster_gives_the_verdicts_of_one_job_on_a_corpus_with_every_kind_of_damage(corpus, cli, address, ship):  # noqa: F811
    one = cli.run("validate", "--all", "--json", "--jobs", "1", expect=1).stdout
    args = ["--ship-rows"] if ship else []
    there = cli.run("validate", "--all", "--json", "--cluster", address, *args, expect=1).stdout
    assert without_retries(there) == json.loads(one)
    assert json.loads(there)["retried"] == 0  # reported, as by impact (docs/scaling.md); nothing was lost
    assert json.loads(one)["invalid"] == 8


@pytest.mark.parametrize("ship", [False, True], ids=["paths", "ship-rows"])
def test_impact_on_a_cluster_gives_the_classes_of_one_job_on_a_corpus_with_every_kind_of_damage(corpus, cli, address, ship):  # noqa: F811
    one = cli.run("impact", "--all", "--json", "--jobs", "1", expect=1).stdout
    args = ["--ship-rows"] if ship else []
    there = cli.run("impact", "--all", "--json", "--cluster", address, *args, expect=1).stdout
    assert without_retries(there) == without_retries(one)
    assert json.loads(one)["by_class"]["error"] == 7


def test_shards_hold_the_games_whole_and_validate_as_the_one_file_does(store, cli, tmp_path):
    simulate_games(store, "solo-dice", 7, 3, [], {})
    simulate_games(store, "soli2", 2, 3, [], {})
    folder = tmp_path / "shards"
    out = cli.json("shard", "--into", str(folder), "--games-per-shard", "4")
    assert [p.split("/")[-1] for p in out["shards"]] == ["shard-0001.db", "shard-0002.db", "shard-0003.db"]
    heads = {gid: store.recorded(gid)["head"] for gid in store.game_ids()}
    for path in folder.glob("*.db"):
        shard = Store(path, create=False)
        assert all(shard.recorded(gid)["head"] == heads[gid] for gid in shard.game_ids())  # hashes unchanged
        shard.close()
    whole = cli.json("validate", "--all")
    split = json.loads(cli.runner.invoke(cli_app(), ["validate", "--all", "--json", "--db", str(folder)]).stdout)
    assert sorted(g["id"] for g in split["games"]) == sorted(g["id"] for g in whole["games"]) and split["invalid"] == 0


def test_a_folder_of_shards_and_the_same_files_named_one_by_one_re_play_alike(store, cli, tmp_path):
    simulate_games(store, "solo-dice", 5, 3, [], {})
    folder = tmp_path / "shards"
    cli.json("shard", "--into", str(folder), "--games-per-shard", "2")
    runner, app = cli.runner, cli_app()
    named = [w for p in sorted(folder.glob("*.db")) for w in ("--db", str(p))]
    by_folder = runner.invoke(app, ["impact", "--all", "--json", "--db", str(folder)])
    by_name = runner.invoke(app, ["impact", "--all", "--json", *named])
    assert by_folder.exit_code == by_name.exit_code == 0 and by_folder.stdout == by_name.stdout


def test_shards_are_written_only_into_a_new_or_empty_folder(store, cli, tmp_path):
    simulate_games(store, "solo-dice", 2, 3, [], {})
    folder = tmp_path / "shards"
    cli.json("shard", "--into", str(folder), "--games-per-shard", "1")
    assert "not an empty folder" in cli.run("shard", "--into", str(folder), "--games-per-shard", "1", expect=2).stderr


def cli_app():
    from solrec.cli.main import app

    return app


@attrs.frozen
class FailsOnce:
    """Validation whose first batch fails (a worker lost, say): the marker file says it failed already."""

    marker: str

    def __call__(self, store, game_id, log):
        try:  # made whole or not at all (O_EXCL): of two workers at once, exactly one fails
            Path(self.marker).touch(exist_ok=False)
        except FileExistsError:
            return ValidateTask()(store, game_id, log)
        raise RuntimeError("the worker failed")


def test_a_failed_batch_is_run_again_and_counted(store, db_path, address, tmp_path):
    simulate_games(store, "solo-dice", 4, 3, [], {})
    run = map_cluster(address, [db_path], FailsOnce(str(tmp_path / "marker")))
    assert run.retried == 1 and run.results == map_files([db_path], ValidateTask(), jobs=1).results


def test_list_and_export_read_a_folder_of_shards(store, cli, tmp_path):
    simulate_games(store, "solo-dice", 5, 3, [], {})
    folder = tmp_path / "shards"
    cli.json("shard", "--into", str(folder), "--games-per-shard", "2")
    runner, app = cli.runner, cli_app()
    listed = json.loads(runner.invoke(app, ["list", "--json", "--db", str(folder)]).stdout)
    assert sorted(r["id"] for r in listed) == sorted(store.game_ids())
    exported = runner.invoke(app, ["export", "solo-dice-5", "--db", str(folder)])
    assert exported.exit_code == 0 and exported.stdout == cli.run("export", "solo-dice-5").stdout


@attrs.frozen
class DiesOnce:
    """``task`` (validation or impact), but the first batch to start waits for its worker process to
    be killed: it writes the process id for the test to kill, and waits (bounded) to die."""

    task: object
    folder: str

    def __call__(self, store, game_id, log):
        import os
        import time

        try:  # made whole or not at all (O_EXCL): of two workers at once, exactly one waits to die
            Path(self.folder, "claimed").touch(exist_ok=False)
        except FileExistsError:
            return self.task(store, game_id, log)
        Path(self.folder, "pid.tmp").write_text(str(os.getpid()))
        Path(self.folder, "pid.tmp").rename(Path(self.folder, "pid"))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.05)  # the worker being killed, not the test, waits here
        raise RuntimeError("the worker was not killed")


@pytest.fixture(scope="module")
def worker_processes():
    """Two worker processes (nannies restart a killed one) on 127.0.0.1."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster


def kill_when_ready(folder: Path) -> threading.Thread:
    """Kill the worker process whose id appears in ``folder``/pid, once it does (bounded wait)."""

    def kill() -> None:
        pid = folder / "pid"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not pid.exists():
            time.sleep(0.02)
        if pid.exists():
            os.kill(int(pid.read_text()), signal.SIGKILL)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("kind", ["validate", "impact"])
def test_a_batch_whose_worker_is_killed_mid_run_is_run_again_and_counted(store, db_path, worker_processes, tmp_path, kind):
    """Issue 32: the scheduler runs a lost worker's batch again by itself; `retried` counts it, and the
    results are those of `--jobs 1`."""
    from solrec.replay.impact import ImpactTask

    simulate_games(store, "solo-dice", 12, 3, [], {})
    task = ValidateTask() if kind == "validate" else ImpactTask()
    with distributed.Client(worker_processes) as client:
        client.wait_for_workers(2, timeout=120)
    killer = kill_when_ready(tmp_path)
    run = map_cluster(worker_processes.scheduler_address, [db_path], DiesOnce(task, str(tmp_path)))
    killer.join(timeout=10)
    assert (tmp_path / "pid").exists()
    assert run.retried >= 1 and run.results == map_files([db_path], task, jobs=1).results
