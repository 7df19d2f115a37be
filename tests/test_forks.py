"""Variations (`solrec fork`, issue 23): a line branches instead of erasing; the fork knows its
parent and where it branched; records carry forks (`export --with-forks`) and `import` restores them."""

from __future__ import annotations

import json

from .conftest import FIXTURES

DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"
PARENT = "solari-disputed"


def hashes(cli, gid: str) -> list[str]:
    return [e["hash"] for e in cli.json("log", gid)["events"]]


def test_the_fixture_restores_a_game_and_its_two_forks(cli):
    data = cli.json("import", str(DISPUTED))
    assert data["id"] == PARENT and data["forks"] == [f"{PARENT}.void", f"{PARENT}.other"]
    assert cli.json("validate", "--all")["valid"] == 3


def test_a_forks_chain_is_its_parents_up_to_the_fork(cli):
    cli.run("import", str(DISPUTED))
    assert hashes(cli, f"{PARENT}.void")[:11] == hashes(cli, PARENT)[:11]
    assert hashes(cli, f"{PARENT}.void")[11] != hashes(cli, PARENT)[11]


def test_fork_starts_an_ordinary_game_that_records_its_parent(cli):
    cli.run("import", str(DISPUTED))
    data = cli.json("fork", PARENT, "--at", "10")  # after move 10: position 13
    assert (data["id"], data["parent"], data["forked_after"], data["forked_at"], data["position"]) == (
        f"{PARENT}.1", PARENT, 10, 13, 13)
    assert hashes(cli, f"{PARENT}.1") == hashes(cli, PARENT)[:13]
    cli.run("play", f"{PARENT}.1", "--actor", "chance", "roll 1 1")
    assert cli.json("validate", f"{PARENT}.1")["valid"] == 1


def test_a_fork_after_a_move_the_game_does_not_have_is_refused(cli):
    cli.run("import", str(DISPUTED))
    result = cli.run("fork", PARENT, "--at", "47", expect=2)
    assert "move 47 is outside the game (0, the set-up, to 46)" in result.stderr
    assert "--id" not in result.stderr and not any(g["id"].endswith(".1") for g in cli.json("list"))


def test_a_seeded_fork_continues_the_same_seed(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "5", "--id", "s")
    cli.run("play", "s", "6+4 3+5 1")
    fork = cli.json("fork", "s", "--at", "2")
    # the chance due after move 2 (position 2) draws what it drew in the parent: the same position, the same seed
    assert fork["position"] == 3 and hashes(cli, "s.1") == hashes(cli, "s")


def test_list_tree_shows_forks_beneath_their_parent(cli):
    cli.run("import", str(DISPUTED))
    lines = cli.run("list", "--tree").stdout.splitlines()
    assert lines[1].startswith(PARENT + " ")
    assert lines[2].startswith(f"  {PARENT}.void ") and lines[2].endswith(f"(fork of {PARENT} after move 9)")
    assert lines[3].startswith(f"  {PARENT}.other ") and lines[3].endswith(f"(fork of {PARENT} after move 21)")
    rows = cli.json("list", "--tree")
    assert rows[1]["fork"] == {"of": PARENT, "at": 11, "move": 9} and rows[0]["fork"] is None


def test_diff_against_the_parent_names_the_common_prefix(cli):
    cli.run("import", str(DISPUTED))
    result = cli.run("diff", PARENT, f"{PARENT}.void", expect=1).stdout
    assert f"{PARENT}.void is a fork of {PARENT} after move 9: they share the first 11 events" in result
    data = cli.json("diff", f"{PARENT}.void", PARENT, expect=1)
    assert data["fork"] == {"parent": PARENT, "fork": f"{PARENT}.void", "position": 11, "move": 9}
    assert (data["position"], data["move"]) == (12, 10)


def test_export_with_forks_then_import_round_trips(cli, tmp_path):
    cli.run("import", str(DISPUTED))
    out = tmp_path / "tree.jsonl"
    cli.run("export", PARENT, "--with-forks", "-o", str(out))
    other = cli.db.with_name("other.db")
    cli.db, here = other, cli.db
    cli.run("import", str(out))
    assert cli.run("export", PARENT, "--with-forks").stdout == out.read_text()
    cli.db = here


def test_export_without_forks_is_the_game_alone(cli):
    cli.run("import", str(DISPUTED))
    lines = cli.run("export", PARENT).stdout.splitlines()
    assert len(lines) == 47 and all("fork" not in json.loads(line) for line in lines)


def test_a_fork_record_whose_prefix_differs_from_its_parent_is_refused(cli, tmp_path):
    lines = DISPUTED.read_text().splitlines()
    assert '"at": 11' in lines[47]
    lines[47] = lines[47].replace('"at": 11', '"at": 13')  # the void fork claims two more events of its parent
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    result = cli.run("import", str(bad), expect=2)
    assert 'line 48: its first 13 events are not those of "solari-disputed"' in result.stderr
    assert not cli.db.exists()


def test_delete_of_a_game_with_forks_names_them_and_keeps_them(cli):
    cli.run("import", str(DISPUTED))
    refused = cli.run("delete", PARENT, expect=2).stderr
    assert f"its forks {PARENT}.void, {PARENT}.other stay games of their own: add --yes" in refused
    assert cli.json("delete", PARENT, "--yes")["forks_kept"] == [f"{PARENT}.void", f"{PARENT}.other"]
    assert all(r["fork"] is None for r in cli.json("list", "--tree"))


def test_rename_keeps_the_fork_relation(cli):
    cli.run("import", str(DISPUTED))
    cli.run("rename", PARENT, "p")
    assert cli.json("list", "--tree")[1]["fork"] == {"of": "p", "at": 11, "move": 9}


def test_undo_says_fork_keeps_the_line(cli):
    assert "solrec fork ID --at MOVE" in " ".join(cli.run("undo", "--help").stdout.split())
