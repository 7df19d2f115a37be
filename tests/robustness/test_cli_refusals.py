"""Issue 29's command-line cases: what exited 3 (a bug by the project's contract) is a one-line
refusal, exit 2, with nothing written; a ``--db`` folder says what it skipped and why, and refuses a
shard named twice. Every run goes through ``Hostile.run``: exit 0/1/2 only, no traceback, one line on
a refusal, the database unchanged after one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from solrec.core.solarius_mission import components as comp

from .helpers import FIXTURES, SOLREC, Hostile, two_games

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"

# -- --cluster: an address Dask cannot parse ----------------------------------------------------------
BAD_ADDRESSES = {
    "nonsense": "nonsense", "empty": "", "an open IPv6 bracket": "tcp://[::1", "tls": "tls://127.0.0.1:8786",
    "a file": "file:///etc/passwd", "inproc": "inproc://x", "300 letters": "tcp://" + "a" * 300,
    "300 letters and a port": "tcp://" + "a" * 300 + ":8786", "port 0": "tcp://127.0.0.1:0",
    "port over 65535": "tcp://127.0.0.1:65536", "a port that is no number": "tcp://127.0.0.1:x",
    "not IPv6 in brackets": "tcp://[nope]:8786", "no host": "tcp://:8786",
}


@pytest.mark.parametrize("command", ["validate", "impact"])
@pytest.mark.parametrize("address", list(BAD_ADDRESSES.values()), ids=list(BAD_ADDRESSES))
def test_a_cluster_address_dask_cannot_parse_is_refused_in_one_line(tmp_path, command, address):
    cli = two_games(tmp_path / "solrec.db")
    result = cli.run(command, "--all", "--cluster", address, kind="cluster address")
    assert result.exit_code == 2
    assert "is not a scheduler's address" in result.stderr and "tcp://HOST:PORT" in result.stderr


def test_the_address_is_refused_before_any_database_is_read(tmp_path):
    cli = Hostile(tmp_path / "missing.db")
    result = cli.run("validate", "--all", "--cluster", "inproc://x")
    assert result.exit_code == 2 and "tcp:// only" in result.stderr and not cli.db.exists()


def test_a_well_formed_address_is_taken_as_dask_reads_it():
    from solrec.cli.impact import cluster_address

    assert cluster_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert cluster_address("tcp://scheduler.example:8786") == "tcp://scheduler.example:8786"
    assert cluster_address("tcp://[::1]:8786") == "tcp://[::1]:8786"
    assert cluster_address(None) is None


# -- a component set's number written in base 16, 8 or 2 ------------------------------------------------
HUGE = {
    "hexadecimal": "0x" + "f" * 5000,
    "octal": "0o" + "7" * 5000,
    "binary": "0b" + "1" * 15000,
    "hexadecimal with underscores": "0x" + "_".join(["ffff"] * 1250),
}


def huge_set(tmp_path: Path, literal: str) -> Path:
    folder = tmp_path / "huge"
    shutil.copytree(comp.DATA_DIR / comp.BUILTIN, folder)
    mat = folder / "mat.toml"
    body = mat.read_text(encoding="utf-8")
    assert "maximum = 10" in body
    mat.write_text(body.replace("maximum = 10", f"maximum = {literal}", 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("literal", list(HUGE.values()), ids=list(HUGE))
def test_a_number_of_more_than_4300_digits_in_any_base_is_refused_as_not_valid_toml(tmp_path, literal):
    folder = huge_set(tmp_path, literal)
    cli = Hostile(tmp_path / "solrec.db")
    for args in (
        ("new", "solarius-mission", "--components", str(folder), "--seed", "1"),
        ("components", "solarius-mission", "--set", str(folder)),
    ):
        result = cli.run(*args, kind="component literal")
        assert result.exit_code == 2, args
        assert "mat.toml is not valid TOML: a number of more than 4300 digits" in result.stderr, args
    assert not cli.db.exists()
    cli.run("new", "solarius-mission", "--seed", "1", "--id", "m")
    result = cli.run("validate", "m", "--components", str(folder), kind="component literal")
    assert result.exit_code == 2 and "a number of more than 4300 digits" in result.stderr


def test_a_long_hexadecimal_number_under_the_bound_is_refused_by_the_schema_in_one_line(tmp_path):
    folder = huge_set(tmp_path, "0x" + "f" * 3000)
    result = Hostile(tmp_path / "solrec.db").run("components", "solarius-mission", "--set", str(folder))
    assert result.exit_code == 2 and "mat.track.maximum: is 1..20, not a number of 3613 digits" in result.stderr


# -- a --db folder ------------------------------------------------------------------------------------
def shards(tmp_path: Path) -> Path:
    """A folder of two shards (the worked example in each, under two ids)."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, game_id in (("a.db", "we-a"), ("b.db", "we-b")):
        Hostile(folder / name).run("import", str(WORKED), "--id", game_id)
    return folder


def entries(folder: Path) -> dict[str, str]:
    """What may sit in a folder of shards beside them, each named *.db: name -> why it is skipped."""
    os.mkfifo(folder / "fifo.db")
    (folder / "folder.db").mkdir()
    (folder / "zero.db").symlink_to("/dev/zero")
    (folder / "loop.db").symlink_to("loop.db")
    (folder / "nowhere.db").symlink_to("absent")
    (folder / "empty.db").write_bytes(b"")
    return {"fifo.db": "a FIFO", "folder.db": "a folder", "zero.db": "a device (through a symbolic link)",
            "loop.db": "a symbolic link that loops", "nowhere.db": "a symbolic link to nothing",
            "empty.db": "an empty file (it holds no game)"}


READERS = [("list", "--json"), ("validate", "--all", "--json"), ("impact", "--all", "--json"), ("export", "we-b")]


@pytest.mark.parametrize("args", READERS, ids=[a[0] for a in READERS])
def test_a_folder_skips_what_is_not_a_database_saying_what_and_why(tmp_path, args):
    folder = shards(tmp_path)
    plain = Hostile(folder).run(*args)
    why = entries(folder)
    # a subprocess with a bound: a FIFO opened would wait for a writer for ever
    done = subprocess.run([*SOLREC, *args, "--db", str(folder)], capture_output=True, text=True, timeout=300)
    assert done.returncode == plain.exit_code == 0, done.stderr
    assert done.stdout == plain.stdout  # the same games, as if only the shards were there
    skipped = done.stderr.strip().splitlines()
    assert len(skipped) == len(why), skipped
    for name, reason in why.items():
        assert any(line.startswith(f"solrec: skipped {folder / name}: {reason}") for line in skipped), (name, skipped)


def test_an_empty_shard_holds_no_game_in_list_validate_and_impact_alike(tmp_path):
    folder = shards(tmp_path)
    (folder / "c.db").write_bytes(b"")
    cli = Hostile(folder)
    assert len(json.loads(cli.run("list", "--json").stdout)) == 2
    assert '"valid": 2' in cli.run("validate", "--all", "--json").stdout
    assert '"games": 2' in cli.run("impact", "--all", "--json").stdout
    alone = Hostile(folder / "c.db")  # named alone, as in a folder: no game
    assert alone.run("list", "--json").stdout.strip() == "[]"
    assert '"valid": 0' in alone.run("validate", "--all", "--json").stdout
    assert '"games": 0' in alone.run("impact", "--all", "--json").stdout
    assert (folder / "c.db").read_bytes() == b""


def test_a_folder_holding_only_what_is_skipped_is_refused_in_one_line(tmp_path):
    folder = tmp_path / "nothing"
    folder.mkdir()
    os.mkfifo(folder / "fifo.db")
    done = subprocess.run([*SOLREC, "validate", "--all", "--db", str(folder)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "holds no .db file" in done.stderr


def twice(folder: Path) -> dict[str, list[str]]:
    (folder.parent / "link.db").symlink_to(folder / "a.db")
    os.link(folder / "a.db", folder.parent / "hard.db")
    return {
        "the folder twice": [str(folder), str(folder)],
        "a shard and its folder": [str(folder), str(folder / "a.db")],
        "two spellings": [str(folder / "a.db"), str(folder / "." / ".." / folder.name / "a.db")],
        "a symbolic link": [str(folder / "a.db"), str(folder.parent / "link.db")],
        "a hard link": [str(folder / "a.db"), str(folder.parent / "hard.db")],
    }


@pytest.mark.parametrize("command", [("list",), ("validate", "--all"), ("impact", "--all"), ("export", "we-a")])
def test_a_shard_named_twice_is_refused_in_one_line(tmp_path, command):
    folder = shards(tmp_path)
    cli = Hostile(folder / "a.db")
    for case, paths in twice(folder).items():
        args = [a for p in paths[1:] for a in ("--db", p)]
        result = cli.run(*command, *args, db=Path(paths[0]))
        assert result.exit_code == 2, case
        assert "name each shard once (its games would count twice)" in result.stderr, case


# -- an empty comment ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", " ", "\t\n"], ids=["empty", "a space", "blank"])
def test_an_empty_comment_is_refused_as_the_server_refuses_one(tmp_path, text):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("import", str(WORKED), "--id", "we")
    result = cli.run("note", "we", text)
    assert result.exit_code == 2 and "the comment is empty" in result.stderr


def test_a_mark_alone_is_still_a_comment(tmp_path):
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("import", str(WORKED), "--id", "we")
    assert cli.run("note", "we", "--mark", "disputed").exit_code == 0


@pytest.mark.parametrize("args", [("validate", "we-a"), ("impact", "we-a"), ("validate", "--all", "--components", "house-2016")],
                         ids=["validate one game", "impact one game", "validate --components"])
def test_a_refusal_on_a_folder_with_skipped_entries_is_still_its_one_line(tmp_path, args):
    folder = shards(tmp_path)
    entries(folder)
    done = subprocess.run([*SOLREC, *args, "--db", str(folder)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "skipped" not in done.stderr


@pytest.mark.parametrize("command", [("list",), ("validate", "--all"), ("impact", "--all"), ("show", "g"), ("upgrade",)])
def test_a_fifo_named_as_the_database_is_refused_unopened(tmp_path, command):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    done = subprocess.run([*SOLREC, *command, "--db", str(fifo)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.strip() == f"solrec: {fifo} is not a regular file, so it cannot hold a solrec database"
