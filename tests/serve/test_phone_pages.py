"""Every page of ``solrec serve`` on a phone (390x844) and at a desk (1280x800), in Chromium (issue
31): the games list, the new-game form, and per game a seat mid-game and at the end, the referee's
page and a spectator's. No page scrolls sideways; a seat's actions start within the first screen
when it is its turn; axe-core finds no serious or critical violation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solrec.events.store import Store

from ..pictures import browser, phone
from ..pictures.serve_screenshots import ready_of, show, table_pages
from .conftest import REFEREE, LiveServer


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[Any, str, list[tuple[str, str, str, bool]], list[dict]]]:
    phone.require_axe()
    db = Path(tmp_path_factory.mktemp("phone")) / "serve.db"
    store = Store(db)
    pages = table_pages(store)
    store.close()
    with LiveServer(db, 2) as server, browser.session(1280, 900) as driver:
        driver.get(f"{server.url}/?token={REFEREE}")
        yield driver, server.url, pages, driver.get_cookies()


def visit(site, name: str, game: str, size: tuple[int, int]) -> Any:
    driver, url, pages, cookies = site
    found = [p for p in pages if p[0] == name and p[1] == game]
    assert found, f"no {name} page for {game or 'the server'}"
    _, _, path, referee = found[0]
    driver.delete_all_cookies()  # a seat's device holds only its link
    if referee:
        for cookie in cookies:
            driver.add_cookie(cookie)
    phone.viewport(driver, size)
    show(driver, url + path, ready_of(name))
    return driver


PAGES = [("games", "")] + [(name, game) for game in ("solo-dice", "soli2", "solar-solitaire", "solari", "solarius-mission")
                           for name in ("seat", "seat-end", "referee", "spectator", "new-game")]


@pytest.mark.parametrize("name, game", PAGES, ids=[f"{n}-{g}" if g else n for n, g in PAGES])
def test_no_page_scrolls_sideways_on_a_phone_or_a_desk(site, name, game):
    for size in (phone.PHONE, phone.DESKTOP):
        driver = visit(site, name, game, size)
        assert phone.sideways(driver) == 0, f"{name} {game} at {size[0]} px scrolls sideways"


@pytest.mark.parametrize("name, game", PAGES, ids=[f"{n}-{g}" if g else n for n, g in PAGES])
def test_no_page_has_a_serious_accessibility_violation(site, name, game):
    for size in (phone.PHONE, phone.DESKTOP):
        driver = visit(site, name, game, size)
        assert phone.serious(driver) == [], f"{name} {game} at {size[0]} px"


@pytest.mark.parametrize("game", ["solo-dice", "soli2", "solar-solitaire", "solari", "solarius-mission"])
def test_a_seat_to_act_sees_whose_turn_the_score_and_its_actions_in_the_first_screen(site, game):
    driver = visit(site, "seat", game, phone.PHONE)
    height = phone.PHONE[1]
    for selector in (".status", ".since", ".totals", "section.act"):
        top = phone.top_of(driver, selector)
        assert top is not None and top < height, f"{selector} starts at {top} px on {game}'s seat"
