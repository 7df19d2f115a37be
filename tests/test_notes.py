"""Comments on positions (`solrec note`, issue 23): kept beside a game, never in it; their own hash
chain, checked by `validate`; covered by a seal; carried by the record format."""

from __future__ import annotations

import json
import sqlite3

import pytest

from solrec.events import notes
from solrec.events.envelope import genesis_hash
from solrec.events.schema import NOTES_TABLES, TABLES
from solrec.events.store import Store

from .conftest import FIXTURES

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"
KEY = "club referee secret"


@pytest.fixture
def annotated(cli):
    """The Solari game with comments on five positions, one disputed and one ruled."""
    cli.run("import", str(DISPUTED))
    return cli


def sql(cli, statement: str, *params) -> None:
    conn = sqlite3.connect(cli.db)
    conn.execute(statement, params)
    conn.commit()
    conn.close()


# -- the record format --------------------------------------------------------------------------


def test_the_worked_example_keeps_its_six_notes_through_import_and_export(cli):
    data = cli.json("import", str(WORKED))
    assert data["notes"] == 6
    assert cli.run("export", data["id"]).stdout == WORKED.read_text(encoding="utf-8")


def test_a_record_note_is_a_comment_on_the_position_after_its_command(cli):
    cli.run("import", str(WORKED), "--id", "a")
    listed = cli.json("note", "a")["notes"]
    assert [(n["position"], n["text"][:6], n["by"], n["mark"]) for n in listed][:2] == [
        (2, "fig. 3", "", None), (3, "fig. 4", "", None)]


def test_a_record_without_notes_exports_unchanged(cli, tmp_path):
    plain = tmp_path / "plain.jsonl"
    lines = [json.loads(line) for line in WORKED.read_text().splitlines() if line.strip()]
    plain.write_text("\n".join(json.dumps({k: v for k, v in line.items() if k != "note"}) for line in lines) + "\n")
    assert cli.run("import", str(plain)).stdout.strip() == "imported solo-dice-worked-example: 26 commands, 26 events"
    assert cli.run("export", "solo-dice-worked-example").stdout == plain.read_text()


def test_the_annotated_solari_game_round_trips_with_authors_times_marks_and_forks(annotated):
    assert annotated.run("export", "solari-disputed", "--with-forks").stdout == DISPUTED.read_text(encoding="utf-8")


def test_comments_on_the_set_up_travel_in_the_header(cli, tmp_path):
    cli.run("import", str(WORKED), "--id", "a")
    cli.run("note", "a", "--at", "0", "--by", "Ann", "before the first roll")
    header = json.loads(cli.run("export", "a").stdout.splitlines()[0])
    assert [n["text"] for n in header["notes"]] == ["before the first roll"]
    record = tmp_path / "a.jsonl"
    cli.run("export", "a", "-o", str(record))
    cli.run("import", str(record), "--id", "b")
    assert cli.run("export", "b").stdout.replace('"id": "b"', '"id": "a"') == record.read_text()


def test_a_record_comment_with_an_unknown_mark_is_refused_naming_its_line(cli, tmp_path):
    lines = WORKED.read_text().splitlines()
    bad = json.loads(lines[2])
    bad["notes"] = [{"text": "x", "mark": "??!"}]
    lines[2] = json.dumps(bad)
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines))
    result = cli.run("import", str(record), expect=2)
    assert 'line 3: mark "??!"' in result.stderr and not cli.db.exists()


# -- solrec note ----------------------------------------------------------------------------------


def test_a_comment_defaults_to_the_last_position_and_names_its_author(cli):
    cli.run("import", str(WORKED), "--id", "a")
    note = cli.json("note", "a", "--by", "Ref", "--mark", "ruled", "the 8th 3 ends it")["note"]
    assert (note["position"], note["by"], note["mark"], note["n"]) == (26, "Ref", "ruled", 7) and note["time"]


def test_a_comment_never_changes_the_game(cli):
    cli.run("import", str(WORKED), "--id", "a")
    before = cli.json("log", "a")["events"]
    cli.run("note", "a", "--at", "4", "a comment")
    assert cli.json("log", "a")["events"] == before


def test_a_comment_is_on_a_move_there_is_no_position_inside_one(annotated):
    # Solari's moves of several events: --at names the move, the comment sits after its last event
    steps = annotated.json("replay", "solari-disputed")["steps"]
    many = next(s for k, s in enumerate(steps) if s["position"] - (steps[k - 1]["position"] if k else 0) > 1)
    note = annotated.json("comment", "solari-disputed", "--at", str(many["move"]), "x")["note"]
    assert (note["move"], note["position"]) == (many["move"], many["position"])
    assert "move 47 is outside the game" in annotated.run("note", "solari-disputed", "--at", "47", "x", expect=2).stderr


def test_an_unknown_mark_is_refused(cli):
    cli.run("import", str(WORKED), "--id", "a")
    assert "use one of !, ?, !!" in cli.run("note", "a", "--mark", "!!!", "x", expect=2).stderr


def test_deleting_a_comment_keeps_the_others_valid(annotated):
    annotated.run("note", "solari-disputed", "--delete", "2")
    assert [n["n"] for n in annotated.json("note", "solari-disputed")["notes"]] == [1, 3, 4, 5, 6]
    assert annotated.json("validate", "solari-disputed")["valid"] == 1


def test_comments_show_in_log_replay_and_show(annotated):
    log = annotated.run("log", "solari-disputed").stdout
    assert "#2 [disputed] Bob: the comet went 06-00" in log and "#3 [ruled] Referee:" in log
    replay = annotated.json("replay", "solari-disputed")
    assert [n["mark"] for s in replay["steps"] for n in s["notes"]] == ["!?", "disputed", "ruled", None, None, "?"]
    shown = annotated.json("show", "solari-disputed", "--at", "10")  # after move 10: position 13
    assert [n["mark"] for n in shown["notes"]] == ["disputed", "ruled"]
    assert len(annotated.json("log", "solari-disputed")["notes"]) == 6


def test_list_marked_lists_the_disputes_newest_first_at_their_moves(annotated):
    annotated.run("import", str(WORKED), "--id", "plain")
    annotated.run("comment", "plain", "--at", "3", "--mark", "??", "--by", "Ref", "why?")
    found = annotated.json("list", "--marked")
    assert [(d["id"], d["move"], d["mark"]) for d in found] == [
        ("plain", 3, "??"), ("solari-disputed", 21, "?"), ("solari-disputed", 10, "ruled"),
        ("solari-disputed", 10, "disputed")]
    assert [d["text"] for d in annotated.json("list", "--marked", "--mark", "disputed")] == [found[-1]["text"]]
    assert annotated.run("list", "--marked").stdout.splitlines()[0] == "plain move 3 #7 [??] Ref: why?"
    assert [g["id"] for g in annotated.json("list", "--mark", "ruled")] == ["solari-disputed"]
    assert annotated.json("list", "--mark", "!!") == []


def test_diff_ignores_comments_unless_asked(annotated):
    annotated.run("import", str(DISPUTED), "--id", "copy")
    annotated.run("note", "copy", "--delete", "3")
    assert annotated.json("diff", "solari-disputed", "copy")["identical"] is True
    result = annotated.json("diff", "solari-disputed", "copy", "--notes", expect=1)
    assert "fork" not in result
    assert result["identical"] is False and result["notes"][0]["position"] == 13


def test_undo_with_drop_comments_drops_the_comments_on_the_positions_taken_back(annotated):
    undone = annotated.json("undo", "solari-disputed", "--steps", "30", "--drop-comments")
    assert undone["position"] == 20
    assert [n["position"] for n in undone["notes_dropped"]] == [24, 27]
    assert [n["position"] for n in annotated.json("note", "solari-disputed")["notes"]] == [2, 13, 13, 18]
    assert annotated.json("validate", "solari-disputed")["valid"] == 1


def test_rename_and_delete_take_the_comments_along(annotated):
    annotated.run("rename", "solari-disputed", "r")
    assert len(annotated.json("note", "r")["notes"]) == 6
    annotated.run("delete", "r", "--yes")
    conn = sqlite3.connect(annotated.db)
    assert conn.execute("select count(*) from notes where game_id = 'r'").fetchone()[0] == 0
    assert conn.execute("select count(*) from note_heads where game_id = 'r'").fetchone()[0] == 0


# -- tampering ------------------------------------------------------------------------------------


def verdict(cli) -> dict:
    return cli.json("validate", "solari-disputed", expect=None)["games"][0]


def test_an_edited_comment_is_detected(annotated):
    sql(annotated, "update notes set text = 'the move is void' where game_id = 'solari-disputed' and n = 3")
    v = verdict(annotated)
    assert not v["ok"] and v["position"] == 13 and "comment 3 was edited" in v["reason"]


def test_a_deleted_comment_is_detected(annotated):
    sql(annotated, "delete from notes where game_id = 'solari-disputed' and n = 2")
    assert "comment 3 was edited, or comments were dropped" in verdict(annotated)["reason"]


def test_a_deleted_last_comment_is_detected(annotated):
    sql(annotated, "delete from notes where game_id = 'solari-disputed' and n = 6")
    assert "records 6 comments but 5 are stored" in verdict(annotated)["reason"]


def test_reordered_comments_are_detected(annotated):
    sql(annotated, "update notes set n = 99 where game_id = 'solari-disputed' and n = 2")
    sql(annotated, "update notes set n = 2 where game_id = 'solari-disputed' and n = 3")
    sql(annotated, "update notes set n = 3 where game_id = 'solari-disputed' and n = 99")
    assert not verdict(annotated)["ok"]


def test_a_moved_comment_is_detected(annotated):
    sql(annotated, "update notes set position = 2 where game_id = 'solari-disputed' and n = 3")
    assert "comment 3 was edited" in verdict(annotated)["reason"]


def test_reading_commands_refuse_damaged_comments(annotated):
    sql(annotated, "update notes set mark = '!!' where game_id = 'solari-disputed' and n = 1")
    result = annotated.run("log", "solari-disputed", expect=1)
    assert "stored data problem" in result.stderr and "comment 1" in result.stderr


def test_validate_all_checks_comments(annotated):
    sql(annotated, "update notes set text = 'x' where game_id = 'solari-disputed' and n = 1")
    assert annotated.json("validate", "--all", expect=1)["invalid"] == 1


# -- seals ----------------------------------------------------------------------------------------


def recompute_comment_chain(cli) -> None:
    """What an attacker without the key can do: chain the comments again and fix their head."""
    store = Store(cli.db)
    stored = notes.read(store, "solari-disputed")
    start = notes.genesis(genesis_hash(store.header("solari-disputed")))
    chained = notes.chain(start, stored.notes)
    store.close()
    for c in chained:
        sql(cli, "update notes set hash = ? where game_id = 'solari-disputed' and n = ?", c.hash, c.n)
    sql(cli, "update note_heads set notes = ?, head = ? where game_id = 'solari-disputed'",
        len(chained), chained[-1].hash if chained else start)


def test_without_a_seal_a_recomputed_comment_chain_goes_undetected(annotated):
    sql(annotated, "update notes set text = 'the move is void' where game_id = 'solari-disputed' and n = 3")
    recompute_comment_chain(annotated)
    assert verdict(annotated)["ok"]


def test_a_sealed_games_comments_are_covered_by_its_seal(annotated, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", KEY)
    assert annotated.json("seal", "solari-disputed")["sealed"][0]["notes"] == 6
    assert verdict(annotated)["sealed"] == "verified"
    sql(annotated, "update notes set text = 'the move is void' where game_id = 'solari-disputed' and n = 3")
    recompute_comment_chain(annotated)
    v = verdict(annotated)
    assert not v["ok"] and "first 6 comments are not the ones that were sealed" in v["reason"]


def test_a_seal_stripped_of_its_comments_does_not_verify(annotated, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", KEY)
    annotated.run("seal", "solari-disputed")
    sql(annotated, "delete from notes where game_id = 'solari-disputed'")
    sql(annotated, "delete from note_heads where game_id = 'solari-disputed'")
    assert "does not verify" in verdict(annotated)["reason"]


def test_a_comment_added_after_sealing_is_not_covered_but_keeps_the_seal(annotated, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", KEY)
    annotated.run("seal", "solari-disputed")
    annotated.run("note", "solari-disputed", "later")
    assert verdict(annotated)["ok"]


def test_deleting_a_sealed_comment_breaks_the_seal(annotated, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", KEY)
    annotated.run("seal", "solari-disputed")
    annotated.run("note", "solari-disputed", "--delete", "6")
    assert "sealed with 6 comments but 5 are stored" in verdict(annotated)["reason"]


def test_a_seal_made_before_comments_existed_still_verifies(cli, monkeypatch):
    from solrec.events import seal as seals

    monkeypatch.setenv("SOLREC_KEY", KEY)
    cli.run("import", str(WORKED), "--id", "a")
    store = Store(cli.db)
    row = store.game_row("a")
    seals.put_seal(store, "a", row["events"], row["head"], seals.mac(KEY.encode(), "a", row["events"], row["head"]))
    store.close()
    assert cli.json("validate", "a")["games"][0]["sealed"] == "verified"


# -- the file -------------------------------------------------------------------------------------


def test_the_comment_tables_are_what_the_store_declares(annotated):
    conn = sqlite3.connect(annotated.db)
    for table in NOTES_TABLES:
        assert {r[1] for r in conn.execute(f"pragma table_info({table})")} == set(TABLES[table].columns)


def test_a_database_without_comment_tables_still_opens(cli):
    cli.run("import", str(WORKED), "--id", "a")
    conn = sqlite3.connect(cli.db)
    assert "notes" in {r[0] for r in conn.execute("select name from sqlite_master")}
    conn.execute("drop table notes")
    conn.execute("drop table note_heads")
    conn.commit()
    assert cli.json("validate", "a")["valid"] == 1


def test_the_comment_chain_starts_from_the_header_not_from_the_genesis_column(annotated):
    """Reading commands and validate agree: an edited genesis column breaks neither (nothing reads it)."""
    sql(annotated, "update games set genesis = 0 where id = 'solari-disputed'")
    assert annotated.run("show", "solari-disputed").exit_code == 0
    assert verdict(annotated)["ok"]


def test_a_comment_table_of_another_shape_is_refused_as_a_foreign_file(cli):
    cli.run("import", str(WORKED), "--id", "a")
    sql(cli, "alter table notes add column extra text")
    result = cli.run("validate", "a", expect=1)
    assert "the notes table is not the one solrec makes" in result.stderr
