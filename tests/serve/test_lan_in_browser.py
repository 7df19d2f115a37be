"""The seat links page of a server on 127.0.0.1, in Chromium at 390x844 and 1280x800 (issue 43, item 2):
the referee makes the links and the first screen says, above the QR codes, that a phone cannot open
them and which command serves the network; no sideways scroll, no serious axe-core violation."""

from __future__ import annotations

import pytest

from solrec.events.store import Store
from solrec.workflows.games import new_game

from ..pictures import phone
from ..pictures.browser import session
from .conftest import REFEREE, LiveServer
from .test_page_script import until


@pytest.fixture(scope="module")
def driver():
    phone.require_axe()
    with session(1100, 900) as d:
        yield d


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
def test_seat_links_made_on_loopback_say_on_the_first_screen_that_phones_cannot_open_them(driver, tmp_path, size):
    db = tmp_path / "club.db"
    store = Store(db)
    new_game(store, "soli2", ["Ann", "Bob"], {}, 3, False, "duel")
    store.close()
    with LiveServer(db, 60) as server:
        phone.viewport(driver, size)
        driver.get(f"{server.url}/?token={REFEREE}")
        driver.get(f"{server.url}/g/duel")
        driver.find_element("css selector", "form.seats button[type=submit]").click()
        notice = until(lambda: driver.find_elements("css selector", ".loopback"), "the seat links page")[0]
        assert "a phone that scans a QR code here cannot open it" in notice.text
        assert f"solrec serve --lan --db {db} --port {server.port}" in notice.text
        box = notice.rect
        assert box["y"] + box["height"] <= size[1]  # on the first screen
        assert box["y"] < driver.find_element("css selector", ".qr").rect["y"]  # above the QR codes
        assert phone.sideways(driver) == 0
        assert phone.serious(driver) == []
