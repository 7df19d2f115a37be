"""An old or foreign database cannot run code or fill the disk (issue 21): the whole file is checked
before anything is written to it, a migration included, and what is not solrec's is one verdict
(exit 1); stored text that is not UTF-8 is damaged data where it is, not a failed file."""

from __future__ import annotations

import gc

import pytest

from solrec.cli.main import app

from .helpers import as_schema, fingerprint, small_disk, sql, two_games

READERS = [("list",), ("show", "ok"), ("validate", "--all"), ("play", "ok", "roll 1 1 1 1 1")]


@pytest.fixture
def cli(tmp_path):
    return two_games(tmp_path / "solrec.db")


def verdict(cli, *args):
    """The CLI's answer, without ``Hostile``'s byte comparison: a file whose text is not UTF-8 cannot
    be dumped, and its bytes change when a connection an earlier run left open checkpoints."""
    result = cli.runner.invoke(app, [*args, "--db", str(cli.db)])
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.stderr, (args, result.stderr)
    return result


def refused_unchanged(cli, *args) -> str:
    """Exit 1 with one line, and the file exactly as it was (nothing migrated, nothing fired)."""
    before = fingerprint(cli.db)
    result = cli.run(*args)
    assert result.exit_code == 1, (args, result.stdout, result.stderr)
    assert fingerprint(cli.db) == before
    return result.stderr


# -- objects and clauses solrec never makes, in every schema, refused before a migration writes -----
FOREIGN = {
    # fired by the migration's updates before the trigger check (issue 21: an 11 GB WAL)
    "a trigger on events": (
        "create trigger t after update on events begin update games set players = '[\"Eve\"]'; end", 'trigger ("t")',
    ),
    "a trigger on games": ("create trigger t before insert on games begin select 1; end", 'trigger ("t")'),
    "a unique index": ("create unique index u on events(game_id, seq, hash)", 'index ("u")'),
    "an index": ("create index i on games(created)", 'index ("i")'),
    "a table": ("create table sink (x blob)", 'table ("sink")'),
    "a view": ("create view v as select * from games, events, events", 'view ("v")'),
    "a column": ("alter table games add column note text", 'not the one solrec makes ("note"'),
    "a default": ("alter table games add column x text default 'x'", 'not the one solrec makes ("x"'),
    "a column of another type": (
        "drop view if exists game_list && alter table games drop column seed && alter table games add column seed text",
        'its column "seed" is declared "TEXT"',
    ),
    "a stored generated column": (
        "drop view if exists game_list && drop view if exists event_log && drop table games"
        " && create table games (id text primary key, game text not null, rules text not null, options text not null,"
        " chance text not null, seed integer, players text not null, created text not null, genesis text not null,"
        " events integer not null, head text not null, scores text, outcome text,"
        " junk blob as (zeroblob(1000000)) stored)",
        "is not the one solrec makes",
    ),
}


@pytest.mark.parametrize("schema", [1, 2, 3])
@pytest.mark.parametrize("damage", sorted(FOREIGN))
def test_what_solrec_never_makes_is_refused_before_anything_is_written(cli, schema, damage):
    statements, reason = FOREIGN[damage]
    if schema < 3:
        as_schema(cli.db, schema)
    sql(cli.db, *statements.split(" && "))
    for args in READERS:
        assert reason in refused_unchanged(cli, *args)


def test_a_check_on_a_head_column_a_schema_2_file_should_not_have_is_refused(cli):
    """Issue 21: the migration kept a pre-existing ``head`` column and its CHECK failed every
    command, ``list`` included, with exit 3."""
    as_schema(cli.db, 2, "alter table events add column head blob check (head is null)")
    for args in READERS:
        assert 'the events table is not the one solrec makes ("head" in its definition)' in refused_unchanged(cli, *args)


def test_a_unique_index_on_the_data_of_a_schema_1_file_is_refused(cli):
    """Issue 21: the migration's ``update events set data`` broke a unique index on it: exit 3."""
    as_schema(cli.db, 1, "alter table events add column data text", "create unique index d on events(data)")
    for args in READERS:
        assert 'the events table is not the one solrec makes ("data" in its definition)' in refused_unchanged(cli, *args)


@pytest.mark.parametrize("schema", [1, 2])
def test_a_missing_column_of_an_old_file_is_one_verdict(cli, schema):
    """Issue 21: the migration read a column the file lacked and failed with exit 2."""
    as_schema(cli.db, schema, "drop view if exists event_log", "alter table events drop column actor")
    for args in READERS:
        assert 'the events table lacks the column "actor"' in refused_unchanged(cli, *args)


def test_a_migration_that_cannot_complete_leaves_the_file_byte_for_byte(cli, monkeypatch):
    as_schema(cli.db, 1)
    gc.collect()  # the connections earlier runs in this process left open: closed, so the file is all in one
    sql(cli.db, "VACUUM")  # no free page left for the migration to fill
    sql(cli.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    before = cli.db.read_bytes()
    small_disk(monkeypatch, 0)
    result = cli.runner.invoke(app, ["upgrade", "--db", str(cli.db)])
    assert result.exit_code == 2 and "the disk is full; nothing was written" in result.stderr, result.stderr
    monkeypatch.undo()
    assert cli.db.read_bytes() == before
    assert "migrated from solrec schema 1" in cli.run("upgrade").stdout  # and the next upgrade migrates it


# -- text that is not UTF-8 is damaged where it is ------------------------------------------------------
@pytest.mark.parametrize("schema", [2, 3])
@pytest.mark.parametrize("column", ["actor", "command", "type"])
def test_a_text_not_utf8_in_one_row_damages_that_game_only(cli, schema, column):
    """Issue 21: one row's actor, command or type not UTF-8 gave exit 2 for the whole file."""
    if schema == 2:
        as_schema(cli.db, 2)
    sql(cli.db, f"update events set {column} = cast(x'ff41' as text) where game_id = 'we' and seq = 1")
    assert cli.run("list").exit_code == 0
    assert cli.run("show", "ok").exit_code == 0
    assert cli.run("validate", "ok").exit_code == 0
    result = cli.run("validate", "--all")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any(line.startswith("ok: valid") for line in lines)
    (we,) = [line for line in lines if line.startswith("we:")]
    # schema 3 reads the hashed head (its browsing column is wrong: move 2); schema 2 had no head to read
    assert we.startswith("we: INVALID at move 2:" if schema == 3 else "we: INVALID at position 2:"), we
    if schema == 2:  # no head was packed from it: the row is damaged for every reader
        result = verdict(cli, "show", "we")
        assert result.exit_code == 1 and "at position 2: its head" in result.stderr, result.stderr


def test_a_payload_stored_as_text_not_utf8_is_damaged_at_its_own_position(cli):
    """Issue 21: readers gave exit 2 and ``validate`` put it at position 0."""
    sql(cli.db, "update events set payload = cast(x'93ff00' as text) where game_id = 'we' and seq = 3")
    result = verdict(cli, "show", "we")
    assert result.exit_code == 1 and "at position 4: the payload is not stored bytes" in result.stderr, result.stderr
    assert 'we: INVALID at position 4: game "we" at position 4: the payload is not stored bytes' in verdict(cli, "validate", "we").stdout
    listing = verdict(cli, "validate", "--all")
    assert "we: INVALID at position 4" in listing.stdout and "ok: valid" in listing.stdout
    assert cli.run("show", "ok").exit_code == 0
