"""Non-interference through ``solrec serve``: two games one seat cannot tell apart (the same public
history; another seed, other hands, another deck order, other future chance: ``tests/fairness/pairs.py``)
give that seat byte-identical answers from the server, under the same server secret and game id:
every status line, header and body of its page and fragments at every position, its live stream
(plain, and asked for views: a view it sends is its fragment's bytes, with its version as the id),
the answers to its legal and illegal writes, its take-back and comment, and its 404, 400 and 409
answers.

Two apps over two databases, one per game of the pair, asked the same requests by the same seat link
(Starlette's TestClient: no socket). This rules out, at once, every way a seat could learn what it
may not see from what the server sends it: a hash of the log (the old ``data-head``), a count, an
error's wording, a take-back's answer. At least 200 pairs per setup in ``make test``; 10,000 with
``make test-slow``."""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.events import store as stores
from solrec.events.envelope import codec_for
from solrec.server import seats
from solrec.server.app import create_app

from ..fairness.pairs import GAME_ID, SETUPS, Pair, pairs
from .conftest import REFEREE, TestClient, csrf_of

KEY = b"the server's secret, the same for both games of a pair"
TOKEN = "the-seat-token-of-the-fairness-tests-0001"
SEAT = f"/g/{GAME_ID}/seat/{TOKEN}"
# 100 pairs a setup in make test, beside the kernel's 100 (tests/fairness); the 10,000 in make test-slow
FAST = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
SLOW = settings(max_examples=10_000, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
VERSION = re.compile(r'data-version="([0-9a-f]+)"')
# the databases in memory where the machine has a memory file system: thousands of games written and
# read in a few minutes, with none of the disk's syncs (what is tested is the bytes, not the disk)
MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Twin:
    """One database per game of a pair, reused from pair to pair (a game replaced under the same id is
    far cheaper than a new file); a new app on it for each pair (no state kept from the last)."""

    def __init__(self, folder: Path, name: str):
        self.db = folder / f"{name}.db"
        self.store = stores.Store(self.db, create=True)

    def hold(self, pair: Pair, header: Any, steps: Any) -> TestClient:
        from solrec.core.play import initial_state
        from solrec.workflows.games import result_of

        game = pair.a.game
        state = initial_state(game, header)
        for step in steps:
            for e in step.events:
                state = game.evolve(state, e)
        scores, outcome = result_of(game, state)
        if self.store.has_game(GAME_ID):
            self.store.delete_game(GAME_ID)
        self.store.create_game(GAME_ID, header, codec_for(game), list(steps), scores, outcome)
        seats.make_links(self.store, GAME_ID, (pair.seat,))  # the token: TOKEN (``fixed_times``)
        # a live stream of no lifetime: its first messages, then it ends (the page would reconnect)
        app = create_app(self.db, REFEREE, KEY, live_seconds=0, poll_seconds=0.01, quiet_poll_seconds=0.01)
        return TestClient(app, raise_server_exceptions=False)


@contextmanager
def fixed_times() -> Iterator[None]:
    """Every time stored is one (comments carry theirs) and the seat's token is ``TOKEN``."""
    now, token = stores.now, seats.new_token
    stores.now, seats.new_token = (lambda: "2026-01-01T00:00:00.000+00:00"), (lambda: TOKEN)
    try:
        yield
    finally:
        stores.now, seats.new_token = now, token


def received(r: Any) -> bytes:
    """Every byte the seat gets: the status line, the headers in order, the body."""
    head = f"{r.status_code} {r.reason_phrase}\n".encode() + b"".join(k + b": " + v + b"\n" for k, v in r.headers.raw)
    return head + b"\n" + r.content


def ask(clients: tuple[TestClient, TestClient], method: str, path: str, **kwargs: Any) -> tuple[bytes, Any]:
    """The same request to both servers; the answers must be the same bytes."""
    a, b = (getattr(c, method)(path, **kwargs) for c in clients)
    assert received(a) == received(b), f"{method.upper()} {path} {kwargs.get('data', '')}: the seat can tell the games apart"
    return received(a), a


def write(clients: tuple[TestClient, TestClient], verb: str, page: str, **fields: str) -> Any:
    at = re.search(r'data-position="(\d+)"', page)
    version = VERSION.search(page)
    assert at and version
    data = {"at": at.group(1), "version": version.group(1), "csrf": csrf_of(page), **fields}
    return ask(clients, "post", f"{SEAT}/{verb}", data=data)[1]


SURFACES = ("the live stream", "an earlier position", "a wrong link", "a position past the end", "a stale write", "an illegal command",
            "a comment", "a take-back", "a legal command")


def every_answer(pair: Pair, surfaces: tuple[str, ...], at: int, choice: int) -> None:
    """What the seat receives of the pair's two games, asked alike: its page, and ``surfaces`` (``at``: the earlier position it looks back at, every one when None; ``choice``:
    which of its choices it plays, where it is to act)."""
    with tempfile.TemporaryDirectory(dir=MEMORY) as folder, fixed_times():
        first, second = Twin(Path(folder), "a"), Twin(Path(folder), "b")
        try:
            with first.hold(pair, pair.header_a, pair.steps_a) as a, second.hold(pair, pair.header_b, pair.steps_b) as b:
                both = (a, b)
                end = pair.positions
                page = ask(both, "get", SEAT)[1].text
                if "the live stream" in surfaces:  # plain, and as table.js asks for it (it opens on the same message)
                    ask(both, "get", f"{SEAT}/live")
                    ask(both, "get", f"{SEAT}/live?view=1")
                if "an earlier position" in surfaces:
                    for k in range(end + 1) if at is None else (at % (end + 1),):
                        ask(both, "get", f"{SEAT}?at={k}")
                        ask(both, "get", f"{SEAT}/view?at={k}")
                    ask(both, "get", f"{SEAT}/view")
                if "a wrong link" in surfaces:  # its 404 page
                    ask(both, "get", f"{SEAT}x")
                if "a position past the end" in surfaces:
                    ask(both, "get", f"{SEAT}/view?at={end + 1}")
                if "a stale write" in surfaces:  # its 409
                    ask(both, "post", f"{SEAT}/play", data={"at": str(end), "version": "0" * 32, "csrf": csrf_of(page),
                                                              "command": "pass"})
                if "an illegal command" in surfaces:
                    write(both, "play", page, command="fly to the moon")
                if "a comment" in surfaces:  # and the page that shows it
                    write(both, "note", page, text="a fair question")
                    page = ask(both, "get", SEAT)[1].text
                if "a take-back" in surfaces and write(both, "undo", page).status_code == 200:
                    page = ask(both, "get", SEAT)[1].text  # taken alike: the page after it
                box = re.search(r'data-choices="([^"]*)"', page)
                if "a legal command" in surfaces and box:
                    # the answer to a command of its own (what follows it is new chance, which the
                    # two games draw differently by design: the pair ends there)
                    commands = [c["command"] for c in json.loads(html.unescape(box.group(1)))]
                    if commands:
                        answer = write(both, "play", page, command=commands[choice % len(commands)])
                        assert answer.status_code == 200, answer.text
        finally:
            first.store.close()
            second.store.close()


@pytest.mark.parametrize("setup", sorted(SETUPS))
@FAST
@given(data=st.data())
def test_a_seat_receives_the_same_bytes_from_two_games_it_cannot_tell_apart(setup, data):
    # each pair: the seat's page, and one more of what it can ask, drawn (200 pairs a setup: each
    # kind asked of some 20 pairs); ``make test-slow`` asks everything of every pair
    pair = data.draw(pairs(setup), "pair")
    surface = data.draw(st.sampled_from(SURFACES), "surface")
    every_answer(pair, (surface,), data.draw(st.integers(0, 10_000), "at"), data.draw(st.integers(0, 1_000), "choice"))


@pytest.mark.slow
@pytest.mark.parametrize("setup", sorted(SETUPS))
@SLOW
@given(data=st.data())
def test_a_seat_receives_the_same_bytes_from_ten_thousand_pairs(setup, data):
    # every kind of request of every pair; the earlier positions looked back at: one drawn per pair
    # (asking all of them of every pair cost some 0.2-0.4 s a pair, an hour a setup; 10,000 pairs ask
    # every position of their lengths many times over)
    pair = data.draw(pairs(setup), "pair")
    every_answer(pair, SURFACES, data.draw(st.integers(0, 10_000), "at"), data.draw(st.integers(0, 1_000), "choice"))
