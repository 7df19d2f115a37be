"""The referee's link survives a restart (issue 31): its token is kept in the database as a hash,
so a new server on the same database accepts it; a new referee's link stops the old one. Seat links
carry the address players reach when the server listens beyond loopback."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from solrec.events.store import Store
from solrec.server import seats
from solrec.server.app import create_app

from .conftest import csrf_of


def server(db, **kwargs) -> TestClient:
    return TestClient(create_app(db, None, b"k" * 32, **kwargs), raise_server_exceptions=False)


def keep(db, token: str) -> None:
    store = Store(db, create=True)
    try:
        seats.keep_referee_token(store, token)
    finally:
        store.close()


def test_the_referees_link_opens_the_referees_pages_after_a_restart(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "the-referees-kept-token")
    for _ in range(2):  # two servers one after the other on the same database: a restart
        with server(db) as client:
            r = client.get("/?token=the-referees-kept-token", follow_redirects=False)
            assert r.status_code == 303
            assert client.get("/").status_code == 200


def test_a_new_referees_link_stops_the_old_one(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "old-token")
    keep(db, "new-token")
    with server(db) as client:
        assert client.get("/?token=old-token", follow_redirects=False).status_code == 403
        assert client.get("/?token=new-token", follow_redirects=False).status_code == 303


def test_the_database_keeps_only_the_referees_tokens_hash(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "secret-referee-token")
    assert b"secret-referee-token" not in db.read_bytes()
    store = Store(db)
    try:
        assert seats.referee_link_made(store) is not None
    finally:
        store.close()


def test_seat_links_carry_the_address_players_reach(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "t")
    with server(db, reachable="http://192.168.1.20:8000") as client:
        client.get("/?token=t")
        form = client.get("/new?game=soli2").text
        r = client.post("/new", data={"csrf": csrf_of(form), "game": "soli2", "chance": "seeded", "seed": "1",
                                      "players": "Ann\nBob", "id": "g"}, follow_redirects=False)
        assert r.status_code == 303
        page = client.get("/g/g").text
        links = client.post("/g/g/seats", data={"csrf": csrf_of(page)}).text
        assert 'href="http://192.168.1.20:8000/g/g/seat/' in links


def test_serve_prints_the_link_the_first_time_and_says_it_still_works_after(monkeypatch, tmp_path):
    import re

    import uvicorn
    from typer.testing import CliRunner

    from solrec.cli.main import app

    from .conftest import free_port

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    runner = CliRunner()
    db = str(tmp_path / "x.db")
    first = runner.invoke(app, ["serve", "--db", db, "--port", str(free_port())])
    token = re.findall(r"/\?token=(\S{32})", first.stdout)
    assert first.exit_code == 0 and len(token) == 1
    again = runner.invoke(app, ["serve", "--db", db, "--port", str(free_port())])
    assert again.exit_code == 0 and "still opens the referee's pages" in again.stdout and "token=" not in again.stdout
    with server(tmp_path / "x.db") as client:
        assert client.get(f"/?token={token[0]}", follow_redirects=False).status_code == 303
    renewed = runner.invoke(app, ["serve", "--db", db, "--port", str(free_port()), "--new-referee-link"])
    assert re.findall(r"/\?token=(\S{32})", renewed.stdout) != token
    with server(tmp_path / "x.db") as client:
        assert client.get(f"/?token={token[0]}", follow_redirects=False).status_code == 403


def test_two_servers_behind_one_address_each_keep_their_own_referee_cookie(tmp_path):
    """Cookies are not told apart by port or path: behind one public address (docs/scaling.md) each
    server names the referee's cookie by its own referee link, so signing in to one signs out none."""
    first, second = tmp_path / "shard-1.db", tmp_path / "shard-2.db"
    keep(first, "first-referee")
    keep(second, "second-referee")
    with server(first) as a, server(second) as b:
        a.get("/?token=first-referee")
        b.get("/?token=second-referee")
        jar = {**dict(a.cookies), **dict(b.cookies)}  # one browser holding both servers' cookies
        assert len(jar) == 2
        for client in (a, b):
            client.cookies.clear()
            for name, value in jar.items():
                client.cookies.set(name, value)
            assert client.get("/").status_code == 200  # each still finds its own referee


def test_a_restarted_server_names_the_referees_cookie_as_before(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "kept")
    with server(db) as client:
        client.get("/?token=kept")
        (name,) = dict(client.cookies)
    with server(db) as client:  # no token given at start: the name comes from the kept link
        client.cookies.set(name, "kept")
        assert client.get("/").status_code == 200


def test_seat_links_carry_the_public_address_given(tmp_path):
    db = tmp_path / "club.db"
    keep(db, "t")
    with server(db, reachable="https://club.example", hosts={"127.0.0.1", "club.example"}) as client:
        client.headers["host"] = "club.example"  # as the proxy hands it on
        client.get("/?token=t")
        form = client.get("/new?game=soli2").text
        r = client.post("/new", data={"csrf": csrf_of(form), "game": "soli2", "chance": "seeded", "seed": "1",
                                      "players": "Ann\nBob", "id": "g"}, follow_redirects=False)
        assert r.status_code == 303
        links = client.post("/g/g/seats", data={"csrf": csrf_of(client.get("/g/g").text)}).text
        assert 'href="https://club.example/g/g/seat/' in links


@pytest.mark.parametrize("url, reason", [
    ("ftp://club.example", "not an http:// or https:// address"),
    ("https://", "not an http:// or https:// address"),
    ("https://club.example/t1", "more than an origin"),
    ("https://club.example/?x=1", "more than an origin"),
    ("https://club.example:99999", "not an address"),
    ("https://clüb.example", "not a plain host name"),
])
def test_serve_refuses_a_public_url_that_is_not_an_origin_in_one_line(tmp_path, url, reason):
    from ..conftest import Cli

    out = Cli(tmp_path / "x.db").run("serve", "--public-url", url, "--port", "1", expect=2)
    assert reason in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


def test_serve_with_a_public_url_prints_seat_links_base_and_accepts_its_host(monkeypatch, tmp_path):
    import logging

    import uvicorn
    from typer.testing import CliRunner

    from solrec.cli.main import app

    from .conftest import free_port
    ran: list[object] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: ran.append(self.config.app.app))  # inside SecurityHeaders
    # serve points logging at the stderr it is given; the runner's is closed after this test
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "x.db"), "--port", str(free_port()),
                                      "--public-url", "https://Club.Example:8443/"])
    assert result.exit_code == 0, result.output
    (built,) = ran
    state = built.state.server
    assert state.reachable == "https://club.example:8443"
    assert "club.example" in state.hosts and "127.0.0.1" in state.hosts
