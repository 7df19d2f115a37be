"""A live stream asked with ``view=1`` (as the page script asks) sends each change after it opened
as a ``view`` event: the viewer's new fragment itself, the very bytes its ``.../view`` gives, its
version as the event's id; the page then makes no request of its own. It opens on the plain message
naming the version the page has just loaded, and the mover's stream does not send again the view
its command's answer carried. A real server on 127.0.0.1 (the stream must be open while another
device plays), each read bounded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx

from .conftest import LiveServer, Table, position_of
from .test_live_server import TIMEOUT, new_game, referee_client


def events(lines: Iterator[str]) -> Iterator[tuple[str, str | None, str]]:
    """A stream's events as a browser's EventSource reads them: (type, id, data)."""
    kind, said, data = "message", None, []
    for line in lines:
        if not line:
            if data:
                yield kind, said, "\n".join(data)
            kind, said, data = "message", None, []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            kind = value
        elif field == "id":
            said = value
        elif field == "data":
            data.append(value)


def test_another_seats_play_reaches_the_stream_as_the_bytes_its_view_gives(tmp_path: Path, monkeypatch):
    from solrec.server import live
    from solrec.server.state import ServerState

    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        table = Table(served.db, client)
        seats = table.seat_links(gid)
        with httpx.Client(base_url=served.url, timeout=TIMEOUT) as ann, httpx.Client(base_url=served.url, timeout=TIMEOUT) as bob:
            with bob.stream("GET", f"{seats['Bob']}/live?view=1") as r:
                sent = events(r.iter_lines())
                assert next(sent)[0] == "message"  # it opens on the version the page has just loaded
                made: list[tuple] = []
                with monkeypatch.context() as m:
                    kept, fragment = ServerState.kept_fragment, live.page_shown
                    m.setattr(ServerState, "kept_fragment", lambda self, g, p: made.append((g, p)) or kept(self, g, p))
                    m.setattr(live, "page_shown", lambda server, g, v, *a, **k: made.append((g, v.player)) or fragment(server, g, v, *a, **k))
                    assert table.play(seats["Ann"], "place d4", ann, view="1").status_code == 200
                    kind, said, data = next(sent)
                    made = [a for a in made if a == (gid, "Bob")]  # Ann's own page, fetched before her command, aside
                assert made == []  # the page the play made for Bob's seat, kept with the game's row: no query
            fetched = bob.get(f"{seats['Bob']}/view").text
            assert (kind, said, data) == ("view", position_of(fetched)[1], fetched)


def test_the_movers_stream_does_not_send_again_the_view_its_answer_carried(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        table = Table(served.db, client)
        seats = table.seat_links(gid)
        with httpx.Client(base_url=served.url, timeout=TIMEOUT) as ann:
            with ann.stream("GET", f"{seats['Ann']}/live?view=1") as r:
                sent = events(r.iter_lines())
                next(sent)
                answer = table.play(seats["Ann"], "place d4", ann, view="1").text
                kind, said, data = next(sent)
            assert (kind, said) == ("message", position_of(answer)[1])  # the page shows it already


def test_the_referees_stream_asking_for_views_sends_the_referees_view(tmp_path: Path):
    with LiveServer(tmp_path / "serve.db", live_seconds=60) as served, referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        with referee_client(served.url) as desk, desk.stream("GET", f"/g/{gid}/live?view=1") as r:
            sent = events(r.iter_lines())
            next(sent)
            assert Table(served.db, client).play(f"/g/{gid}", "place d4").status_code == 200
            kind, _, data = next(sent)
        assert (kind, data) == ("view", client.get(f"/g/{gid}/view").text)


def test_a_view_event_has_a_data_line_for_each_line_of_the_fragment_at_any_of_sses_line_ends():
    from solrec.server.live import view_event

    fragment = '<div class="state" data-position="3" data-version="ab12">\nx\r\ny\rz</div>'
    assert view_event(fragment, "ab12") == ('event: view\nid: ab12\ndata: <div class="state" data-position="3" data-version="ab12">\n'
                                            "data: x\ndata: y\ndata: z</div>\n\n")
    assert list(events(iter(view_event("<div class=\"state\" data-position=\"3\" data-version=\"ab12\">\n</div>", "ab12").splitlines() + [""]))) \
        == [("view", "ab12", '<div class="state" data-position="3" data-version="ab12">\n</div>')]


def test_a_fragment_is_kept_with_its_version_so_the_stream_reads_no_html():
    """A fragment and the version it shows travel together (``Fragment``, ``ViewCache``): a damaged
    game's reason has no version, and is no view event."""
    from solrec.core.observe import Viewer
    from solrec.server.state import Fragment, ViewCache

    cache = ViewCache(2)
    cache.keep_version("g-1", (3, "h"), Viewer.seat("Ann"), "ab12")
    cache.keep_fragment("g-1", (3, "h"), Viewer.seat("Ann"), Fragment("<div>x</div>", "ab12"))
    assert cache.fragment("g-1", (3, "h"), Viewer.seat("Ann")) == Fragment("<div>x</div>", "ab12")
    assert cache.version("g-1", (4, "i"), Viewer.seat("Ann")) is None  # another position: nothing kept for it
    assert Fragment('<p class="reason">this game\'s stored data is damaged</p>', None).version is None
