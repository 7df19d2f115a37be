"""Undo keeps the record of opinion (issue 43, item 6): a take-back that would remove moves carrying
comments is refused unless asked to drop them, and says which; the ruling a take-back past what had
been shown leaves names the referee or solrec, never the operating-system user, and is marked as
automatic, so the disputes can be listed without it. `svg -o` says what it wrote."""

from __future__ import annotations

import getpass

from solrec.cli.guard import one_line
from solrec.replay.disputes import AUTOMATIC, is_automatic


def seeded_with_a_comment(cli) -> None:
    """The walkthrough's game: Ann's selection at move 2, a question on it, the roll it brought at move 3."""
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    cli.run("play", "g", "5+5 1+1 3")
    cli.run("comment", "g", "--at", "2", "--by", "Ref", "--mark", "?", "why keep the 1s?")


def test_a_take_back_across_a_commented_move_is_refused_naming_the_moves_and_their_comments(cli):
    seeded_with_a_comment(cli)
    log, comments = cli.json("log", "g"), cli.json("comment", "g")
    result = cli.run("undo", "g", "--steps", "2", expect=2)
    reason = one_line(result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1
    assert "taking back moves 2-3 would drop 1 comment on move 2" in reason and "--drop-comments" in reason
    assert cli.json("log", "g") == log and cli.json("comment", "g") == comments  # nothing written


def test_the_comments_on_several_moves_are_counted_move_by_move(cli):
    seeded_with_a_comment(cli)
    cli.run("comment", "g", "--at", "3", "--by", "Ref", "a good roll")
    cli.run("comment", "g", "--at", "3", "--by", "Bob", "indeed")
    reason = one_line(cli.run("undo", "g", "--steps", "2", expect=2).stderr)
    assert "would drop 3 comments (move 2: 1, move 3: 2)" in reason


def test_drop_comments_takes_the_moves_back_and_says_which_comments_went(cli):
    seeded_with_a_comment(cli)
    text = cli.run("undo", "g", "--steps", "2", "--drop-comments").stdout
    assert "took back 2 moves (2 events): move 2 Ann: 5+5 1+1 3; move 3 chance: roll" in text
    assert "dropped 1 comment on move 2" in text
    assert [c["text"] for c in cli.json("comment", "g")["notes"]] == [
        AUTOMATIC + "taken back past what had been shown (rolled): Ann: 5+5 1+1 3; chance: roll 5 3 1 5 4"]


def test_a_take_back_of_uncommented_moves_needs_no_flag(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "e")
    cli.run("play", "e", "roll 6 1 5 5 5; 6+1 5+5 5")
    cli.run("comment", "e", "--at", "1", "a fine roll")  # on the move that stays
    assert cli.json("undo", "e")["notes_dropped"] == []
    assert len(cli.json("comment", "e")["notes"]) == 1


def test_the_automatic_ruling_names_solrec_or_the_referee_never_the_os_user(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    cli.run("play", "g", "5+5 1+1 3")
    ruled = cli.json("undo", "g", "--steps", "2")["ruled"]
    assert ruled["by"] == "solrec" != getpass.getuser() and ruled["mark"] == "ruled" and is_automatic(ruled["text"])
    cli.run("play", "g", "5+5 1+1 3")
    assert cli.json("undo", "g", "--steps", "2", "--by", "Ref")["ruled"]["by"] == "Ref"
    cli.run("play", "g", "5+5 1+1 3")
    for name, why in (("", "give a name"), ("two\nlines", "on one line")):  # refused before anything is taken back
        assert why in one_line(cli.run("undo", "g", "--steps", "2", "--by", name, expect=2).stderr)
    assert cli.json("show", "g")["move"] == 3


def test_list_marked_no_automatic_leaves_the_automatic_rulings_out(cli):
    seeded_with_a_comment(cli)
    cli.run("comment", "g", "--at", "1", "--by", "Ref", "--mark", "disputed", "was it a 5?")
    cli.run("undo", "g", "--steps", "2", "--drop-comments")
    every = cli.json("list", "--marked")
    assert [(d["mark"], d["automatic"]) for d in every] == [("ruled", True), ("disputed", False)]
    assert [d["text"] for d in cli.json("list", "--marked", "--no-automatic")] == ["was it a 5?"]
    assert "1 marked comment" in cli.run("list", "--marked", "--no-automatic").stdout
    assert "--marked" in one_line(cli.run("list", "--no-automatic", expect=2).stderr)


def test_a_person_cannot_write_a_comment_that_reads_as_automatic(cli):
    cli.run("new", "solo-dice", "-p", "Ann", "--entered", "--id", "e")
    result = cli.run("comment", "e", AUTOMATIC + "ruled for Ann", expect=2)
    assert "solrec writes itself" in one_line(result.stderr) and cli.json("comment", "e")["notes"] == []


def test_svg_to_a_file_says_what_it_wrote(cli, tmp_path):
    cli.run("new", "solo-dice", "-p", "Ann", "--seed", "7", "--id", "g")
    picture = tmp_path / "g.svg"
    said = cli.run("svg", "g", "-o", str(picture)).stdout
    assert said.startswith(f"wrote {picture} (after move 1, ") and "<svg" in picture.read_text()
