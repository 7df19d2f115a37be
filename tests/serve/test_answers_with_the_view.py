"""A seat's page asks for its new view with its command's answer (``view=1``), and its live stream
sends the view itself (``.../live?view=1``: a ``view`` event); a plain live message names the version
the seat now sees (its ``id``): the page fetches nothing it already shows. The answer and the event
are the very bytes its ``.../view`` gives; nothing in either is what the seat may not see."""

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
    from solrec.core.soli2.game import Soli2

    gid, seats, guest = table.seated()
    bob = stranger(table)
    drawn = []
    svg = Soli2.svg
    monkeypatch.setattr(Soli2, "svg", lambda self, state, **kw: drawn.append(state) or svg(self, state, **kw))
    ann_view = guest.get(f"{seats['Ann']}/view").text
    bob_view = bob.get(f"{seats['Bob']}/view").text
    board = re.compile(r"<svg.*</svg>", re.S)
    assert board.search(ann_view).group(0) == board.search(bob_view).group(0)  # type: ignore[union-attr]
    assert len(drawn) == 1


def test_a_stored_command_whose_view_cannot_be_made_is_answered_stored_not_refused(table, monkeypatch):
    from solrec.core.errors import SolrecError
    from solrec.server import app
    from solrec.server.state import ServerState

    def fails(*args, **kwargs):
        raise SolrecError("the view could not be made")

    gid, seats, guest = table.seated()
    rows = len(table.log(gid).rows)
    monkeypatch.setattr(ServerState, "prepare", lambda self, log_, mover=None: None)
    monkeypatch.setattr(app, "page_fragment", fails)
    r = table.play(seats["Ann"], "place d4", guest, view="1")
    assert (r.status_code, r.text) == (200, "stored")  # the page then fetches its view (table.js)
    assert len(table.log(gid).rows) > rows


def events(stream: str) -> list[tuple[str, str | None, str]]:
    """A live stream's events as a browser's EventSource reads them: (type, id, data)."""
    out = []
    for block in stream.split("\n\n"):
        kind, said, data = "message", None, []
        for line in block.split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                kind = value
            elif field == "id":
                said = value
            elif field == "data":
                data.append(value)
        if data:
            out.append((kind, said, "\n".join(data)))
    return out


def test_a_seats_stream_asking_for_views_sends_the_bytes_its_view_gives(table):
    gid, seats, guest = table.seated()
    table.play(seats["Bob"], "place d4", stranger(table))  # not Ann's own command: her page did not ask for this view
    sent = events(guest.get(f"{seats['Ann']}/live?view=1").text)
    fetched = guest.get(f"{seats['Ann']}/view").text
    _, version = position_of(fetched)
    assert sent == [("view", version, fetched)]


def test_a_seats_stream_sends_its_kept_view_without_making_it_again(table, monkeypatch):
    from solrec.server import app

    gid, seats, guest = table.seated()
    table.play(seats["Bob"], "place d4", stranger(table), view="1")
    fetched = guest.get(f"{seats['Ann']}/view").text  # made and kept (as a play keeps the watching seats')
    made = []
    fragment = app.page_fragment
    monkeypatch.setattr(app, "page_fragment", lambda *a, **k: made.append(a) or fragment(*a, **k))
    sent = events(guest.get(f"{seats['Ann']}/live?view=1").text)
    assert [(kind, data) for kind, _, data in sent] == [("view", fetched)]
    assert made == []  # read on the event loop (``kept_fragment``), no worker thread's page


def test_a_stream_not_asking_for_views_sends_only_the_position(table):
    gid, seats, guest = table.seated()
    sent = events(guest.get(f"{seats['Ann']}/live").text)
    assert [(kind, data) for kind, _, data in sent] == [("message", str(len(table.log(gid).rows)))]


def test_the_referees_stream_asking_for_views_sends_the_referees_view(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    sent = events(table.client.get(f"/g/{gid}/live?view=1").text)
    fetched = table.client.get(f"/g/{gid}/view").text
    assert [(kind, data) for kind, _, data in sent] == [("view", fetched)]


def test_a_damaged_games_stream_sends_the_plain_message_not_a_view(table):
    import sqlite3

    gid, seats, guest = table.seated()
    table.play(seats["Ann"], "place d4", guest)
    conn = sqlite3.connect(table.db)
    with conn:
        conn.execute("delete from events where game_id = ? and seq = (select max(seq) from events where game_id = ?)", [gid, gid])
    conn.close()
    sent = events(guest.get(f"{seats['Ann']}/live?view=1").text)
    assert sent and all(kind == "message" for kind, _, _ in sent)


def test_a_seats_stream_sends_the_page_its_play_made_without_a_query(table, monkeypatch):
    from solrec.server import app
    from solrec.server.state import ServerState

    gid, seats, guest = table.seated()
    answer = table.play(seats["Ann"], "place d4", guest, view="1").text  # the play made Ann's page, kept with its row
    asked = []
    monkeypatch.setattr(ServerState, "kept_fragment", lambda self, *a: asked.append(a))
    monkeypatch.setattr(app, "page_fragment", lambda *a, **k: asked.append(a))
    sent = events(guest.get(f"{seats['Ann']}/live?view=1").text)
    assert [(kind, data) for kind, _, data in sent] == [("view", answer)]
    assert asked == []
