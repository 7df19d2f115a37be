"""Every page on a phone (390x844) and at a desk (1280x800), in Chromium (issue 31): no page
scrolls sideways, and axe-core finds no serious or critical violation. The replay page here; the
pages of ``solrec serve`` in tests/serve/test_phone_pages.py."""

from __future__ import annotations

import pytest

from solrec.replay.html import page

from . import browser, phone
from .helpers import fixture_log
from .screenshots import SHOTS


@pytest.fixture(scope="module")
def driver():
    phone.require_axe()
    with browser.session() as d:
        yield d


@pytest.mark.parametrize("size", [phone.PHONE, phone.DESKTOP], ids=["390x844", "1280x800"])
@pytest.mark.parametrize("game_id", sorted(SHOTS))
def test_the_replay_page_fits_the_width_and_has_no_serious_accessibility_violation(driver, game_id, size, tmp_path):
    path, command = SHOTS[game_id]
    html = tmp_path / f"{game_id}.html"
    html.write_text(page(fixture_log(path)), encoding="utf-8")
    driver.get(html.as_uri())
    phone.viewport(driver, size)
    driver.execute_script("var s = document.getElementById('slider'); s.value = arguments[0];"
                          " s.dispatchEvent(new Event('input'));", command)
    assert phone.sideways(driver) == 0
    assert phone.serious(driver) == []
    board = driver.execute_script("return document.querySelector('.board').getBoundingClientRect().right")
    assert board <= size[0]  # the board fits the width, not cut off
