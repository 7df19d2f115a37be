"""Seat links that reach the phones (issue 43, item 2): `solrec serve --lan` listens on this machine's
address on the local network and every seat link and QR code carries it; a server on loopback says,
beside the QR codes, that a phone cannot open them and which command serves the network. Nothing
here listens beyond 127.0.0.1: the address is chosen by a pure function, and the command's run is
stopped before uvicorn binds (``check_free`` and ``Server.run`` replaced)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from solrec.cli import serve
from solrec.cli.main import app
from solrec.server import seats
from solrec.server.app import create_app
from solrec.server.qr import qr_svg

from ..conftest import Cli
from .conftest import REFEREE, Table, csrf_of, free_port

NOTICE = "a phone that scans a QR code here cannot open it"


# -- the address chosen -------------------------------------------------------------------------------------
def test_the_lan_address_is_the_first_of_this_machines_that_a_phone_can_reach():
    assert serve.lan_address(["127.0.0.1", "192.168.1.20", "10.0.0.7"]) == "192.168.1.20"
    # the name of the host often resolves to 127.0.1.1 (Debian's /etc/hosts): loopback all the same
    assert serve.lan_address(["127.0.1.1", "172.16.4.2"]) == "172.16.4.2"


def test_the_lan_address_is_never_loopback_unspecified_link_local_or_multicast():
    assert serve.lan_address(["127.0.0.1", "0.0.0.0", "169.254.10.1", "224.0.0.251", "::1", "fe80::1%eth0"]) is None
    assert serve.lan_address([]) is None
    assert serve.lan_address(["not an address", "", "10.1.2.3"]) == "10.1.2.3"


def test_the_lan_address_prefers_ipv4_to_ipv6():
    assert serve.lan_address(["2001:db8::5", "192.168.0.9"]) == "192.168.0.9"
    assert serve.lan_address(["::1", "2001:db8::5"]) == "2001:db8::5"


def test_a_link_names_this_machine_only_on_loopback():
    for link in ("http://127.0.0.1:8000", "http://127.0.1.1:8000/g/x", "http://localhost:8080", "http://[::1]:8000"):
        assert seats.loopback_only(link), link
    for link in ("http://192.168.1.20:8000", "https://club.example", "http://testserver", "http://[2001:db8::5]:80"):
        assert not seats.loopback_only(link), link


def test_the_command_that_serves_the_network_keeps_the_database_and_port_given():
    assert seats.lan_command("/home/ann/.local/share/solrec/solrec.db", "/home/ann/.local/share/solrec/solrec.db", 8000) \
        == "solrec serve --lan"
    assert seats.lan_command("club night.db", "/d/solrec.db", 8080) == "solrec serve --lan --db 'club night.db' --port 8080"


# -- the seat links page -----------------------------------------------------------------------------------
def referee_client(db: Path, base_url: str, **kwargs) -> TestClient:
    from solrec.server.seats import referee_cookie, token_hash

    client = TestClient(create_app(db, REFEREE, b"k" * 32, **kwargs), base_url=base_url, raise_server_exceptions=False)
    client.cookies.set(referee_cookie(token_hash(REFEREE)), REFEREE)
    return client


def links_of(table: Table, gid: str) -> str:
    page = table.page(f"/g/{gid}")
    r = table.client.post(f"/g/{gid}/seats", data={"csrf": csrf_of(page)})
    assert r.status_code == 200, r.text[:300]
    return r.text


def test_seat_links_on_loopback_say_beside_the_qr_codes_that_phones_cannot_open_them(tmp_path):
    db = tmp_path / "club.db"
    with referee_client(db, "http://127.0.0.1:8123") as client:
        table = Table(db, client)
        gid = table.start("soli2", ["Ann", "Bob"], seed=1)
        page = links_of(table, gid)
        notice = re.search(r'<p class="loopback warning" role="note">(.*?)</p>', page)
        assert notice and NOTICE in notice.group(1)
        assert f"<code>solrec serve --lan --db {db} --port 8123</code>" in notice.group(1)
        assert page.index(notice.group(0)) < page.index('<div class="qr">')  # above the codes, on the first screen
        spectators = client.post(f"/g/{gid}/spectators", data={"csrf": csrf_of(table.page(f"/g/{gid}"))}).text
        assert NOTICE in spectators


def test_seat_links_that_carry_the_network_address_say_nothing_of_loopback(tmp_path):
    db = tmp_path / "club.db"
    with referee_client(db, "http://127.0.0.1:8000", reachable="http://192.168.1.20:8000") as client:
        table = Table(db, client)
        gid = table.start("soli2", ["Ann", "Bob"], seed=1)
        page = links_of(table, gid)
        assert 'href="http://192.168.1.20:8000/g/' in page and NOTICE not in page


# -- `solrec serve --lan` ------------------------------------------------------------------------------------
def test_serve_refuses_lan_with_host_in_one_line(tmp_path):
    out = Cli(tmp_path / "x.db").run("serve", "--lan", "--host", "0.0.0.0", "--port", "1", expect=2)
    assert "--lan" in out.stderr and "--host" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


def test_serve_lan_refuses_in_one_line_where_the_machine_has_no_network_address(tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "address_candidates", lambda: ["127.0.0.1", "127.0.1.1"])
    result = CliRunner().invoke(app, ["serve", "--lan", "--db", str(tmp_path / "x.db"), "--port", "1"])
    assert result.exit_code == 2
    assert "no address on a network besides loopback" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


@pytest.fixture
def lan_server(tmp_path, monkeypatch):
    """``solrec serve --lan`` on a machine whose network address is 192.0.2.7 (a documentation address),
    run up to the server's start: the app it built, its uvicorn settings and what it printed."""
    import logging

    import uvicorn

    ran: list = []
    monkeypatch.setattr(serve, "address_candidates", lambda: ["127.0.1.1", "192.0.2.7"])
    monkeypatch.setattr(serve, "check_free", lambda host, port: None)  # nothing binds 192.0.2.7
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: ran.append(self.config))
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    port = free_port()
    result = CliRunner().invoke(app, ["serve", "--lan", "--db", str(tmp_path / "x.db"), "--port", str(port)])
    assert result.exit_code == 0, result.output
    (config,) = ran
    return config, port, result.stdout


def test_serve_lan_listens_on_the_network_address_and_prints_it(lan_server):
    config, port, printed = lan_server
    assert config.host == "192.0.2.7" and config.port == port
    assert f"on the local network at http://192.0.2.7:{port}" in printed
    assert re.search(rf"the referee's link .*: http://192\.0\.2\.7:{port}/\?token=\S{{32}}", printed)


def test_serve_lan_puts_the_network_address_in_every_seat_link_and_qr_code(lan_server, tmp_path):
    config, port, printed = lan_server
    token = re.search(r"/\?token=(\S{32})", printed).group(1)
    built = config.app.app  # inside SecurityHeaders
    assert built.state.server.reachable == f"http://192.0.2.7:{port}"
    # the app as built, asked through the test client (the referee on the machine itself, say)
    with TestClient(config.app, base_url=f"http://127.0.0.1:{port}", raise_server_exceptions=False) as client:
        assert client.get(f"/?token={token}", follow_redirects=False).status_code == 303
        table = Table(tmp_path / "x.db", client)
        gid = table.start("soli2", ["Ann", "Bob"], seed=1)
        page = links_of(table, gid)
    links = re.findall(r'<a class="seat-link" href="([^"]+)"', page)
    assert len(links) == 2 and all(link.startswith(f"http://192.0.2.7:{port}/g/{gid}/seat/") for link in links)
    for player, link in zip(("Ann", "Bob"), links):
        assert qr_svg(link, f"QR code of {player} seat link") in page  # the code is of that very link
    assert NOTICE not in page
