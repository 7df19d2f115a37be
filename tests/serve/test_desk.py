"""The referee's desk (issue 30): an address for every move, spectator links, the disputes page and
the study page, through HTTP."""

from __future__ import annotations

import re

from ..conftest import FIXTURES
from .conftest import csrf_of, stranger

DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"


def imported(table, path=DISPUTED, gid="disp") -> str:
    from solrec.events.store import Store
    from solrec.workflows.games import import_all

    store = Store(table.db)
    try:
        import_all(store, path.read_text(), gid)
    finally:
        store.close()
    return gid


def spectator_link(table, gid: str) -> str:
    page = table.page(f"/g/{gid}")
    r = table.client.post(f"/g/{gid}/spectators", data={"csrf": csrf_of(page)})
    assert r.status_code == 200, r.text
    found = re.search(r'class="spectator-link" href="http://testserver([^"]+)"', r.text)
    assert found, r.text
    return found.group(1)


def test_a_move_is_opened_by_its_number_and_named_by_it(table):
    gid = imported(table)
    fragment = table.page(f"/g/{gid}/view?move=12")
    log = table.log(gid)
    twelve = [g for g in log.steps()][11]
    assert f'data-position="{twelve[-1].seq + 1}"' in fragment and 'data-move="12"' in fragment
    assert "after move 12" in fragment
    assert '<a href="?move=12#move=12" class="goto"' in fragment  # the page at move 12, with or without the script
    assert "outside the game" in table.page(f"/g/{gid}/view?move=999", status=400)


def test_a_spectator_sees_the_tables_view_live_and_writes_nothing(table):
    gid = table.start("solar-solitaire", ["Solo"], seed=3)
    watch = spectator_link(table, gid)
    device = stranger(table)
    page = device.get(watch)
    assert page.status_code == 200 and "a spectator" in page.text
    def setup(text: str) -> str:  # the game's options, folded under one line (issue 31)
        return text.split('class="options setup"')[1].split("</details>")[0]

    assert "<li>seed " not in setup(page.text) and "<li>seed " in setup(table.page(f"/g/{gid}"))
    from solrec.core.observe import Viewer
    from solrec.replay.seen import seen
    from solrec.server.views import inline_svg

    log = table.log(gid)
    public = inline_svg(seen(log, Viewer.table()).svg())
    assert public in page.text and public not in table.page(f"/g/{gid}")  # the referee's shows the stock
    assert 'class="note"' not in page.text and "choices" not in page.text
    at = re.search(r'data-position="(\d+)"', page.text).group(1)
    assert 'data-head' not in page.text  # no hash of the log: one chained from the seed would tell it
    head = "0" * 64
    for path in ("/play", "/undo", "/note"):
        r = device.post(watch + path, data={"command": "resign", "text": "x", "at": at, "head": head, "csrf": ""})
        assert r.status_code == 403 and "only watches" in r.text
    assert len(table.log(gid).rows) == int(at)
    table.play(f"/g/{gid}", "resign")  # live: the spectator's next view is the new position
    assert "game over" in device.get(watch + "/view").text


def test_a_spectator_link_is_revoked_by_a_new_one_and_by_revoking(table):
    gid = table.start("solo-dice", ["Ann"], seed=1)
    first = spectator_link(table, gid)
    second = spectator_link(table, gid)
    device = stranger(table)
    assert device.get(first).status_code == 404 and device.get(second).status_code == 200
    page = table.page(f"/g/{gid}")
    assert "one is out" in page
    r = table.client.post(f"/g/{gid}/spectators/revoke", data={"csrf": csrf_of(page)}, follow_redirects=False)
    assert r.status_code == 303 and device.get(second).status_code == 404


def test_a_spectator_link_is_no_seat(table):
    gid = table.start("solo-dice", ["Ann"], seed=1, entered=True)
    watch = spectator_link(table, gid)
    token = watch.rsplit("/", 1)[1]
    assert stranger(table).get(f"/g/{gid}/seat/{token}").status_code == 404
    assert "chance" not in table.page(f"/g/{gid}").split("seat links")[1].split("</span>")[0]


def test_the_disputes_page_lists_marked_comments_newest_first_linked_to_their_moves(table):
    gid = imported(table)
    page = table.page("/disputes")
    rows = re.findall(r'<tr class="dispute" data-id="([^"]+)" data-move="(\d+)">', page)
    assert (gid, "10") in rows and (gid, "21") in rows
    assert f'href="/g/{gid}?move=10#move=10"' in page and "disputed" in page
    assert stranger(table).get("/disputes").status_code == 403


def test_the_study_page_has_the_game_and_its_forks_as_chapters(table):
    gid = imported(table)
    page = table.page(f"/g/{gid}/study")
    chapters = re.findall(r'<section class="chapter" id="chapter-(\d)" data-id="([^"]+)"', page)
    assert [c[1] for c in chapters] == ["disp", "disp.void", "disp.other"]
    assert "It leaves" in page and "after move 9" in page and "after move 21" in page
    assert 'href="/static/study.css"' in page and "<style>" not in page
    assert table.client.get("/static/study.css").status_code == 200
    assert stranger(table).get(f"/g/{gid}/study").status_code == 403
