"""Every refusal tells the truth about what was written (issue 42, item 6): a command stopped
part-way by a full disk has written all of it or nothing; a component set whose content is a
built-in set's is that set, whatever its file is called; a write refused for lack of permission
leaves nothing beside the file that would change what its owner may do."""

from __future__ import annotations

import os
import re
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ..conftest import Cli
from ..test_read_only import _nobody, beside

SOLREC = [sys.executable, "-c", "from solrec.cli.main import run; run()"]
KEY = "a referee's key of 32 characters"


def dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def sealed_in(db: Path) -> tuple[list[str], list[str]]:
    """The games with a seal, and those whose comments' head a seal covers (``note_heads``)."""
    conn = sqlite3.connect(db)
    try:
        tables = {r[0] for r in conn.execute("select name from sqlite_master")}
        seals = [r[0] for r in conn.execute("select game_id from seals order by game_id")] if "seals" in tables else []
        heads = [r[0] for r in conn.execute("select game_id from note_heads where sealed_head is not null order by game_id")
                 ] if "note_heads" in tables else []
        return seals, heads
    finally:
        conn.close()


@pytest.mark.parametrize("limit_kib", [16, 32, 64])
def test_seal_all_on_a_full_disk_says_exactly_which_games_it_sealed(tmp_path, monkeypatch, limit_kib):
    db = tmp_path / "club.db"
    Cli(db).run("simulate", "solo-dice", "--games", "5", "--seed", "1")
    assert db.stat().st_size > limit_kib * 1024  # the case: a 64 KiB limit on a ~100 KiB file
    before = dump(db)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_kib * 1024, limit_kib * 1024))

    result = subprocess.run([*SOLREC, "seal", "--all", "--db", str(db)], capture_output=True, text=True, timeout=300,
                            preexec_fn=limit, env={**os.environ, "SOLREC_KEY": KEY})
    assert "Traceback" not in result.stderr
    seals, heads = sealed_in(db)
    assert heads == seals  # a game is sealed whole (its comments' head with its seal) or not at all
    if result.returncode == 0:  # every seal fit: each game sealed, as it says
        assert result.stdout.strip().endswith("5 sealed, 0 not sealed") and len(seals) == 5
        return
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    said = re.search(r"sealed (\d) of 5 games \(([^)]*)\); then .*: the others are not sealed", result.stderr)
    if said is None:  # stopped before the first seal: nothing at all was written, no table made
        assert "sealed" not in result.stderr and dump(db) == before
        return
    assert int(said[1]) == len(seals) and said[2].split(", ") == seals
    monkeypatch.setenv("SOLREC_KEY", KEY)
    checked = Cli(db).run("validate", "--all", expect=None)  # what was sealed verifies under the key
    assert checked.exit_code == 0 and checked.stdout.strip().endswith("5 valid, 0 invalid")


def toml_value(value: object) -> str:
    """A value as TOML (inline), to write a set's plain data out as one file."""
    import json

    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def written_out(builtin: str, target: Path) -> Path:
    """The built-in set as one TOML file of its families (as a person writes it out from the set)."""
    import tomllib

    from solrec.core.solarius_mission import components, loading

    folder = components.DATA_DIR / builtin
    raw = loading.parse_texts(builtin, {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.toml")})
    raw.pop("name")
    text = "".join(f"{toml_value(k)} = {toml_value(v)}\n" for k, v in raw.items())
    assert tomllib.loads(text) == raw
    target.write_text(text, encoding="utf-8")
    return target


def test_a_component_set_file_equal_to_the_built_in_set_is_that_set_under_any_name(tmp_path):
    from solrec.core.solarius_mission.components import BUILTIN, DATA_DIR

    db = tmp_path / "mission.db"
    Cli(db).run("simulate", "solarius-mission", "--games", "1", "--seed", "1")
    folder = tmp_path / "my set"
    shutil.copytree(DATA_DIR / BUILTIN, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for games, given in enumerate((written_out(BUILTIN, tmp_path / "anything.toml"), folder), start=1):
        # a process of its own: the built-in set not loaded before the file (as a person's command)
        run = [*SOLREC, "impact", "--all", "--components", str(given), "--db", str(db)]
        impact = subprocess.run(run, capture_output=True, text=True, timeout=300)
        assert impact.returncode == 0, impact.stdout + impact.stderr
        counts = f"{games} same, 0 events, 0 scores, 0 outcome, 0 unplayable, 0 error ({games} game{'s' * (games > 1)})"
        assert impact.stdout.strip().endswith(counts)
        made = subprocess.run([*SOLREC, "new", "solarius-mission", "-p", "Ann", "-p", "Bob", "--seed", "3",
                               "--components", str(given), "--id", f"from-{games}", "--db", str(db)],
                              capture_output=True, text=True, timeout=300)
        assert made.returncode == 0, made.stderr
    conn = sqlite3.connect(db)
    try:
        recorded = {gid: opts for gid, opts in conn.execute("select id, options from games where id like 'from-%'")}
    finally:
        conn.close()
    for options in recorded.values():  # recorded as the built-in set: its name and digest, no content
        assert f'"components": "{BUILTIN}"' in options and '"components_data": ""' in options
    assert Cli(db).run("validate", "--all").stdout.strip().endswith("3 valid, 0 invalid")


def test_a_write_refused_for_lack_of_permission_leaves_the_owner_free_to_write(tmp_path):
    """A 0644 database in a folder anyone may write: another user's refused write leaves no ``-wal`` or
    ``-shm`` of his beside it, so the owner's own next write goes through."""
    nobody = _nobody()
    if nobody is None:
        pytest.skip("needs root, setpriv and a checkout the user nobody may read, to run solrec as two users")
    owner = [nobody[0], "--reuid=4242", "--regid=4242", "--clear-groups"]
    folder = Path(tempfile.mkdtemp(prefix="solrec-shared-"))
    try:
        os.chmod(folder, 0o777)  # a shared folder: anyone may make files in it
        db = folder / "club.db"
        Cli(db).run("simulate", "solo-dice", "--games", "2", "--seed", "1")
        os.chown(db, 4242, 4242)
        os.chmod(db, stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)
        before = db.read_bytes()
        env = {**os.environ, "HOME": str(folder), "TMPDIR": "/tmp"}

        def as_user(prefix: list[str], *args: str) -> subprocess.CompletedProcess:
            return subprocess.run([*prefix, *SOLREC, *args, "--db", str(db)], capture_output=True, text=True,
                                  timeout=300, cwd=folder, env=env)

        for args in [("rename", "solo-dice-1", "mine"), ("comment", "solo-dice-1", "mine now"),
                     ("delete", "solo-dice-2", "--yes")]:
            refused = as_user(nobody, *args)
            assert refused.returncode == 2 and "read-only" in refused.stderr, (args, refused.stderr)
            assert "nothing was written" in refused.stderr
            assert db.read_bytes() == before and beside(db) == [], (args, beside(db))
        for args in [("list",), ("show", "solo-dice-1"), ("validate", "--all")]:  # reads leave nothing either
            assert as_user(nobody, *args).returncode == 0, args
            assert beside(db) == [], (args, beside(db))
        renamed = as_user(owner, "rename", "solo-dice-1", "kept")
        assert renamed.returncode == 0, renamed.stderr
        assert "kept" in as_user(owner, "list").stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)
