"""A SOLI2 duel played in Chromium against a bot seat to its end (issue 33, "Done when"): the referee
seats the bot with the form on the game's page, Ann plays by clicks and by the hints she asks for,
the bot answers in the server (its worker process); the game ends, every bot move is marked as the
bot's, Ann's hinted moves are stored as she played them, and the screenshots are made at 390x844
and 1280x800 (tests/pictures/bot_duel.py; ``make pictures`` writes them to docs/pictures)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="bot seats need the ai extra (pip install 'solrec[ai]')")

from solrec.events import notes  # noqa: E402
from solrec.events.store import Store  # noqa: E402
from solrec.replay.marks import BOT_AUTHOR  # noqa: E402

from ..pictures import png  # noqa: E402
from ..pictures.bot_duel import play_against_bot  # noqa: E402
from ..pictures.browser import session  # noqa: E402


@pytest.fixture(scope="module")
def driver():
    with session(1280, 900) as d:
        yield d


def test_ann_plays_a_whole_soli2_duel_in_chromium_against_a_bot_seat(driver, tmp_path):
    db = tmp_path / "serve.db"
    played = play_against_bot(driver, db, tmp_path)
    assert played["over"], "the duel ended"
    assert not played["severe"], played["severe"]
    log = played["log"]
    moves = [(g[0].actor, g[0].command, g[-1].seq + 1) for g in log.steps() if g[0].actor != "chance"]
    assert [c for a, c, _ in moves if a == "Ann"] == played["ann"]
    assert len(played["hints"]) >= 3 and set(played["hints"]) <= set(played["ann"])
    store = Store(db)
    marked = {n.position for n in notes.checked(store, "duel").notes if n.by == BOT_AUTHOR}
    store.close()
    assert marked == {p for a, _, p in moves if a == "Bob"} and marked, "every bot move marked as the bot's"
    sizes = sorted({png.Image(p.read_bytes()).width for p in played["shots"]})
    assert sizes == [390, 1280], sizes
