"""Positions you can point at (issue 23), in headless Chromium: a finished game opens at its end,
``#move=N`` opens move N (an old ``#pos=N`` the move it lies in) and moving updates it, the move list beside the board goes where it is
clicked and keeps the current move highlighted and in view, comments and marks appear at their
positions, and the pages of a game's forks link to each other. Nothing is requested from the network."""

from __future__ import annotations

import pytest

from ..conftest import FIXTURES
from . import browser
from .test_browser import text

DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"
PARENT = "solari-disputed"


@pytest.fixture(scope="module")
def driver():
    with browser.session() as d:
        yield d


@pytest.fixture
def pages(cli, tmp_path):
    cli.run("import", str(DISPUTED))
    folder = tmp_path / "pages"
    out = cli.run("html", PARENT, "--with-forks", "-o", str(folder)).stdout
    assert out.startswith("wrote 3 pages to")
    return folder


def open_page(driver, uri: str) -> None:
    browser.requests(driver), browser.console(driver)  # start both logs afresh
    driver.get(uri)


def no_request_but(driver, *files) -> None:
    requested = [u.split("#")[0] for u in browser.requests(driver)]
    assert set(requested) <= {f.as_uri() for f in files}
    assert [m for m in browser.console(driver) if m["level"] in ("SEVERE", "ERROR")] == []


def fragment(driver) -> str:
    return driver.execute_script("return location.hash")


def test_a_finished_game_opens_at_its_end_and_says_so_in_its_address(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri())
    assert text(driver, "stepinfo") == "move 46 of 46"
    assert fragment(driver) == "#move=46"
    no_request_but(driver, target)


def test_the_fragment_opens_a_move_and_moving_updates_it(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#move=10")
    assert text(driver, "status").startswith("after move 10")
    assert text(driver, "command") == "00-06"
    driver.find_element("id", "next").click()
    assert fragment(driver) == "#move=11" and text(driver, "status").startswith("after move 11")
    driver.execute_script("location.hash = '#move=2'")
    assert text(driver, "status").startswith("after move 2;")
    no_request_but(driver, target)


def test_an_old_position_link_opens_the_move_it_lies_in(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#pos=13")  # the end of move 10
    assert text(driver, "stepinfo") == "move 10 of 46" and fragment(driver) == "#move=10"
    driver.execute_script("location.hash = '#pos=12'")  # inside move 10 (its first event leads to 12)
    assert text(driver, "stepinfo") == "move 10 of 46"
    no_request_but(driver, target)


def test_clicking_a_move_shows_it_highlighted_and_in_view(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#move=0")
    driver.find_element("id", "move10").click()
    assert text(driver, "stepinfo") == "move 10 of 46" and text(driver, "command") == "00-06"
    assert driver.find_element("id", "move10").get_attribute("class") == "current"
    assert driver.find_elements("css selector", "#moves li.current") == [driver.find_element("id", "move10")]
    driver.find_element("id", "last").click()
    in_view = driver.execute_script(
        "var m = document.getElementById('moves'), li = m.querySelector('li.current');"
        " return li.offsetTop >= m.scrollTop && li.offsetTop + li.offsetHeight <= m.scrollTop + m.clientHeight;")
    assert in_view and driver.find_element("id", "move46").get_attribute("class") == "current"
    no_request_but(driver, target)


def test_comments_and_marks_appear_at_their_positions(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#move=10")
    notes = text(driver, "notes")
    assert "disputed Bob: the comet went 06-00 and straight back 00-06" in notes
    assert "ruled Referee: the move stands" in notes
    assert driver.find_element("css selector", "#move10 .marks").text == "disputed ruled"
    assert driver.find_element("css selector", "#move2 .marks").text == "!?"
    driver.find_element("id", "next").click()
    assert text(driver, "notes") == ""
    no_request_but(driver, target)


def test_variations_link_to_the_forks_pages_and_back(driver, pages):
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#move=9")  # position 11, where the fork branches
    link = driver.find_element("css selector", "#variations a")
    assert link.text == f"{PARENT}.void"
    link.click()
    assert driver.current_url.endswith(f"{PARENT}.void.html#move=9")
    assert text(driver, "status").startswith("after move 9")
    back = driver.find_element("css selector", "#variations a")
    assert back.text == PARENT and "a variation of" in text(driver, "variations")
    no_request_but(driver, target, pages / f"{PARENT}.void.html")


def test_html_at_opens_the_page_after_that_move(driver, cli, tmp_path):
    cli.run("import", str(DISPUTED))
    target = tmp_path / "at.html"
    cli.run("html", PARENT, "--at", "14", "-o", str(target))
    open_page(driver, target.as_uri())
    assert text(driver, "status").startswith("after move 14") and fragment(driver) == "#move=14"
    no_request_but(driver, target)


def test_a_screenshot_of_the_disputed_position(driver, pages, tmp_path):
    """The picture a referee sends: the move list, the comments and the board after move 10."""
    target = pages / f"{PARENT}.html"
    open_page(driver, target.as_uri() + "#move=10")
    shot = tmp_path / "disputed.png"
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    import os
    import shutil

    keep = os.environ.get("SOLREC_SCREENSHOTS")
    if keep:
        shutil.copy(shot, os.path.join(keep, "disputed.png"))


# -- the page's data, without a browser ------------------------------------------------------------


def payload(html: str) -> dict:
    import json
    import re

    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))


def test_a_running_game_opens_at_the_set_up_and_at_opens_the_command_ending_there():
    from solrec.replay.html import page

    from .helpers import fixture_log

    log = fixture_log("solo-dice/worked-example.jsonl")
    running = type(log)("r", log.header, log.rows[:5])
    assert payload(page(running))["games"][0]["start"] == 0
    assert payload(page(log))["games"][0]["start"] == len(log.steps())
    assert payload(page(log, at=3))["games"][0]["start"] == 3


def test_html_with_forks_needs_a_folder(cli, tmp_path):
    cli.run("import", str(DISPUTED))
    assert "give the folder with -o DIR/" in cli.run("html", PARENT, "--with-forks", expect=2).stderr
