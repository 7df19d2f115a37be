"""A seat's page asks for its new view with its command's answer (``view=1``), and a seat's live
message names the version it now sees (its ``id``): the page fetches nothing it already shows. The
answer is the very bytes its ``.../view`` gives; nothing in either is what the seat may not see.
(A stream sending the views themselves: ``test_live_views.py``.)"""

from __future__ import annotations

import re

from .conftest import position_of, stranger


def test_a_command_asking_for_its_view_is_answered_with_the_bytes_the_seat_would_fetch(table):
    gid, seats, guest = table.seated()
    r = table.play(seats["Ann"], "place d4", guest, view="1")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert r.text == guest.get(f"{seats['Ann']}/view").text
    assert len(table.log(gid).rows) > 1  # stored


def test_a_command_not_asking_for_its_view_is_answered_as_before(table):
    gid, seats, guest = table.seated()
    r = table.play(seats["Ann"], "place d4", guest)
    assert (r.status_code, r.text) == (200, "stored")


def test_the_referee_asking_for_the_view_gets_the_referees_view(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    r = table.play(f"/g/{gid}", "place d4", view="1")
    assert r.status_code == 200, r.text
    assert r.text == table.client.get(f"/g/{gid}/view").text


def test_a_refused_command_asking_for_its_view_stores_nothing_and_says_why(table):
    gid, seats, guest = table.seated()
    rows = table.log(gid).rows
    r = table.play(seats["Ann"], "nonsense", guest, view="1")
    assert r.status_code == 400
    assert "<" not in r.text  # a reason, not a page
    assert table.log(gid).rows == rows


def test_a_seats_live_message_names_the_version_its_page_shows(table):
    gid, seats, guest = table.seated()
    live = guest.get(f"{seats['Ann']}/live").text
    _, version = position_of(guest.get(f"{seats['Ann']}/view").text)
    count = len(table.log(gid).rows)
    assert f"id: {version}\ndata: {count}\n\n" in live


def test_the_referees_live_message_names_no_version(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    live = table.client.get(f"/g/{gid}/live").text
    assert re.search(r"^data: \d+$", live, re.M)
    assert "id:" not in live


def test_two_seats_of_an_open_game_get_one_picture_drawn_once(table, monkeypatch):
    from solrec.core.registry import get_game

    gid, seats, guest = table.seated()
    bob = stranger(table)
    drawn = []
    looks = type(get_game("soli2").observation)  # every surface draws through the observation's draw_svg
    draw = looks.draw_svg
    monkeypatch.setattr(looks, "draw_svg", lambda self, seen, viewer, **kw: drawn.append(seen) or draw(self, seen, viewer, **kw))
    ann_view = guest.get(f"{seats['Ann']}/view").text
    bob_view = bob.get(f"{seats['Bob']}/view").text
    board = re.compile(r"<svg.*</svg>", re.S)
    assert board.search(ann_view).group(0) == board.search(bob_view).group(0)  # type: ignore[union-attr]
    assert len(drawn) == 1


def test_a_stored_command_whose_view_cannot_be_made_is_answered_stored_not_refused(table, monkeypatch):
    from solrec.core.errors import SolrecError
    from solrec.server import writes
    from solrec.server.state import ServerState

    def fails(*args, **kwargs):
        raise SolrecError("the view could not be made")

    gid, seats, guest = table.seated()
    rows = len(table.log(gid).rows)
    monkeypatch.setattr(ServerState, "prepare", lambda self, log_, mover=None: None)
    monkeypatch.setattr(writes, "page_shown", fails)
    r = table.play(seats["Ann"], "place d4", guest, view="1")
    assert (r.status_code, r.text) == (200, "stored")  # the page then fetches its view (table.js)
    assert len(table.log(gid).rows) > rows



def test_a_stream_not_asking_for_views_sends_only_the_position(table):
    gid, seats, guest = table.seated()
    sent = [line for line in guest.get(f"{seats['Ann']}/live").text.splitlines() if line.startswith(("data:", "event:"))]
    assert sent == [f"data: {len(table.log(gid).rows)}"]


def test_a_stream_asking_for_views_opens_on_the_message_naming_the_version_the_page_just_loaded(table):
    gid, seats, guest = table.seated()
    _, version = position_of(guest.get(f"{seats['Ann']}/view").text)
    live = guest.get(f"{seats['Ann']}/live?view=1").text
    assert f"id: {version}\ndata: {len(table.log(gid).rows)}\n\n" in live
    assert "event: view" not in live
