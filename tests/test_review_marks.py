"""A reviewed move shows its mark and estimated loss wherever the move list is shown (issue 33: `solrec
review`'s comments "shown on the replay page and the move list"): the CLI's `log`, the replay page and
the server's move list; a bot's move is marked as a bot's (replay/marks.py)."""

from __future__ import annotations

import re

import pytest

from solrec.core.observe import Viewer
from solrec.replay.marks import BOT_AUTHOR, REVIEWER, MoveMark, bot_note_text, move_marks

from .conftest import FIXTURES

RECORD = FIXTURES / "review" / "soli2" / "duel-planted-blunder.jsonl"
BLUNDER = "blunder: estimated loss 0.39 against f2-f4 (bot greedy)"


def test_a_review_comment_marks_its_move_with_the_mark_and_the_loss():
    marks = move_marks([(111, REVIEWER, "??", BLUNDER), (12, "Ann", "??", "estimated loss 0.9, says Ann")])
    assert marks == {111: MoveMark("??", 0.39)}  # only "solrec review" speaks for the review
    assert marks[111].review() == "?? -0.39"


def test_a_bots_move_is_marked_by_the_comment_solrec_serve_writes():
    marks = move_marks([(7, BOT_AUTHOR, "", bot_note_text("mcts:simulations=50")), (7, REVIEWER, "?!", "inaccuracy: estimated loss 0.12 against x")])
    assert marks[7] == MoveMark("?!", 0.12, "mcts:simulations=50")


def test_the_reviewer_named_by_marks_is_the_one_review_writes():
    pytest.importorskip("pyspiel")
    from solrec.ai.records import REVIEWER as written

    assert written == REVIEWER


@pytest.fixture
def reviewed(cli):
    gid = cli.json("import", str(RECORD))["id"]
    from solrec.events import notes
    from solrec.events.store import Store

    store = Store(cli.db)
    notes.add(store, gid, 111, REVIEWER, "??", BLUNDER)  # what `solrec review --bot greedy` stores (tests/ai)
    store.close()
    return gid


def test_log_shows_a_reviewed_moves_mark_and_loss_on_its_line(cli, reviewed):
    out = cli.run("log", reviewed).stdout
    head = out.splitlines()[1]
    assert "MARK" in head.split()
    line = next(x for x in out.splitlines() if x.lstrip().startswith("111 "))
    assert "a6-a4" in line and "?? -0.39" in line
    data = cli.json("log", reviewed)
    assert data["marks"] == [{"move": 111, "position": 111, "mark": "??", "loss": 0.39, "bot": None}]


def test_log_of_an_unreviewed_game_has_no_mark_column(cli):
    gid = cli.json("import", str(RECORD))["id"]
    assert "MARK" not in cli.run("log", gid).stdout.splitlines()[1].split()
    assert cli.json("log", gid)["marks"] == []


def test_the_replay_page_carries_the_mark_and_loss_of_the_reviewed_move(cli, reviewed):
    from solrec.events.store import Store
    from solrec.replay.html import _Tables, page, replay_data
    from solrec.replay.log import load

    store = Store(cli.db)
    log = load(store, reviewed)
    store.close()
    steps = replay_data(log, _Tables())["steps"]
    assert [(s["number"], s["review"]) for s in steps if "review" in s] == [(111, "?? -0.39")]
    text = page(log)
    assert '"review":"?? -0.39"' in text
    assert 'el("span", "review", s.review)' in text  # the move list draws it beside the command


def test_the_servers_move_list_shows_the_mark_and_loss(cli, reviewed):
    pytest.importorskip("starlette")
    from solrec.events.store import Store
    from solrec.replay.log import load
    from solrec.server.pages import fragment
    from solrec.server.views import view

    store = Store(cli.db)
    log = load(store, reviewed)
    store.close()
    for who in (None, "Bob"):
        html = fragment(view(log, Viewer.of(who, reveal=who is None)))
        item = re.search(r'<li data-position="111" data-move="111".*?</li>', html, re.S).group(0)
        assert '<span class="review" title="solrec review: ?? (estimated loss 0.39)">?? -0.39</span>' in item
