"""`simulate --player NAME=bot:KIND` records the bots in the header (issue 33): `log`, `show`, `replay`
and `export` name them; the games validate and round-trip through export and import."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel")


def test_simulate_records_the_bots_in_the_header_and_the_commands_name_them(cli, tmp_path):
    data = cli.json("simulate", "soli2", "--player", "Ann=bot:greedy", "--player", "Bob=bot:mcts:simulations=8",
                    "--games", "1", "--seed", "4")
    gid = data["ids"][0]
    bots = {"Ann": "greedy", "Bob": "mcts:simulations=8"}
    assert cli.json("log", gid)["header"]["bots"] == bots
    assert cli.json("show", gid)["bots"] == bots
    shown = cli.run("show", gid).stdout.splitlines()
    assert shown[1:3] == ["Ann: bot greedy", "Bob: bot mcts:simulations=8"]
    assert cli.run("replay", gid).stdout.splitlines()[:2] == ["Ann: bot greedy", "Bob: bot mcts:simulations=8"]
    record = tmp_path / "r.jsonl"
    record.write_text(cli.run("export", gid, "--events").stdout)
    assert json.loads(record.read_text().splitlines()[0])["bots"] == bots
    cli.run("delete", gid, "--yes")
    cli.run("import", str(record))
    assert cli.json("log", gid)["header"]["bots"] == bots
    report = cli.json("validate", "--all")
    assert report["valid"] == 1 and report["invalid"] == 0
