"""Bot seats and hints in `solrec serve` (issue 33, "Where people meet them"; docs/ai.md): the referee
seats a bot at any seat of any game, new or running; it plays its turns in the server (a pool of
workers, off the event loop), from what its seat sees, deterministic for its seed; its moves are
marked as a bot's; a restart keeps it seated and playing. A seat's "hint" button asks the bot what
it would play, unless the referee switched hints off for the game. Every wait is for a condition,
with a generous bound."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="bot seats need the ai extra (pip install 'solrec[ai]')")

from solrec.events import notes  # noqa: E402
from solrec.events.store import Store  # noqa: E402
from solrec.replay.marks import BOT_AUTHOR  # noqa: E402
from solrec.server import bots  # noqa: E402

from .conftest import Table, csrf_of, make_client, position_of  # noqa: E402

BOUND = float(__import__("os").environ.get("BOT_BOUND", "180"))  # seconds: a bot's game on two busy cores (a worker process starts, then plays)
QUICK = "simulations=16,rollout=4"


def wait_for(what: str, done: Callable[[], Any], bound: float = BOUND) -> Any:
    deadline = time.monotonic() + bound
    while True:
        got = done()
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {bound:.0f} s for {what}"
        time.sleep(0.05)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Table]:
    """A server whose bots think in a thread pool (quick to start; the process pool is tested below)."""
    db = tmp_path / "serve.db"
    with make_client(db, bot_processes=False, bot_poll=0.05, hint_bot="mcts:" + QUICK) as client:
        yield Table(db, client)


def seat_bot(table: Table, gid: str, player: str, kind: str, settings: str = "", seed: str = "", status: int = 303) -> str:
    page = table.page(f"/g/{gid}")
    r = table.client.post(f"/g/{gid}/bots", data={"csrf": csrf_of(page), "player": player, "kind": kind,
                                                   "settings": settings, "seed": seed}, follow_redirects=False)
    assert r.status_code == status, (r.status_code, r.text[:300])
    return r.text


def player_moves(table: Table, gid: str) -> list[tuple[int, str, str]]:
    """(position after, actor, command) of every player command."""
    log = table.log(gid)
    out = []
    for group in log.steps():
        if group[0].actor != "chance":
            out.append((group[-1].seq + 1, group[0].actor, group[0].command))
    return out


def over(table: Table, gid: str) -> bool:
    from solrec.replay.log import state_at

    log = table.log(gid)
    return log.game.to_act(state_at(log)) is None


def bot_notes(table: Table, gid: str) -> list[notes.Note]:
    store = Store(table.db)
    try:
        return [n for n in notes.checked(store, gid).notes if n.by == BOT_AUTHOR]
    finally:
        store.close()


# -- seating ----------------------------------------------------------------------------------------------
def test_bots_seated_on_the_new_game_form_play_a_soli2_duel_to_its_end(served):
    gid = served.start("soli2", ["Ann=bot:random", "Bob=bot:greedy"], options={"mode": "duel"})
    wait_for("the bots' game to end", lambda: over(served, gid))
    moves = player_moves(served, gid)
    marked = {n.position: n.text for n in bot_notes(served, gid)}
    # every move is marked as its bot's, at the position after it
    assert {p: f"played by the bot {'random' if a == 'Ann' else 'greedy'}" for p, a, _ in moves} == marked
    page = served.page(f"/g/{gid}")
    assert page.count('<span class="bot" title="played by the bot greedy">bot</span>') == sum(a == "Bob" for _, a, _ in moves)
    assert served.log(gid).header.players == ("Ann", "Bob")  # the names, without their bots
    assert served.log(gid).header.bots == (("Ann", "random"), ("Bob", "greedy"))  # as simulate records them
    from ..conftest import Cli

    cli = Cli(served.db)
    listed = cli.json("log", gid)["marks"]  # the CLI's move list marks them too
    assert {m["position"]: m["bot"] for m in listed} == {p: "random" if a == "Ann" else "greedy" for p, a, _ in moves}
    assert cli.json("validate", gid)["valid"] == 1  # an ordinary game: replayed and validated as any other


def test_a_bot_seated_in_a_running_game_plays_that_seats_turn(served):
    gid = served.start("soli2", ["Ann", "Bob"], seed=7, options={"mode": "duel"})
    first = re.search(r'data-choices="([^"]*)"', served.page(f"/g/{gid}"))
    assert first
    seat_bot(served, gid, "Ann", "mcts", QUICK, "11")
    wait_for("the bot's first move", lambda: player_moves(served, gid))
    (_, actor, _), = player_moves(served, gid)
    assert actor == "Ann"
    page = served.page(f"/g/{gid}")
    assert "<bdi>Ann</bdi> is the bot mcts:rollout=4,simulations=16" in page
    assert 'class="bot"' in page


def test_a_bots_move_and_its_mark_are_one_write_never_a_move_stored_unmarked(served, monkeypatch):
    gid = served.start("soli2", ["Ann", "Bob"], seed=7, options={"mode": "duel"})
    refused = []

    def failing_mark(*args: Any, **kwargs: Any) -> None:
        refused.append(args[1])
        raise OSError("the disk refused the mark")

    monkeypatch.setattr(notes, "add", failing_mark)
    seat_bot(served, gid, "Ann", "random", "", "11")
    wait_for("the bot to try its move", lambda: refused)
    assert player_moves(served, gid) == [] and bot_notes(served, gid) == []  # the move went with its mark
    monkeypatch.undo()
    wait_for("the bot's move, marked, once the mark can be written", lambda: bot_notes(served, gid))
    ((position, actor, _),) = player_moves(served, gid)
    assert actor == "Ann" and [n.position for n in bot_notes(served, gid)] == [position]


def test_a_bot_plays_its_seed_the_same_move_in_the_same_position(tmp_path):
    """Deterministic for its seed: the same game, the same bot and seed, the same moves."""
    played = []
    for k in range(2):
        db = tmp_path / f"s{k}.db"
        with make_client(db, bot_processes=False, bot_poll=0.05) as client:
            table = Table(db, client)
            gid = table.start("soli2", ["Ann", "Bob"], seed=5, options={"mode": "duel"})
            seat_bot(table, gid, "Ann", "mcts", QUICK, "99")
            seat_bot(table, gid, "Bob", "greedy", "", "3")
            wait_for("ten moves", lambda: len(player_moves(table, gid)) >= 10)
            seat_bot(table, gid, "Ann", "person")
            seat_bot(table, gid, "Bob", "person")
            played.append([m[1:] for m in player_moves(table, gid)][:10])
    assert played[0] == played[1]


def test_a_bots_move_is_the_one_its_seat_would_be_hinted_with_its_seed(served):
    gid = served.start("soli2", ["Ann", "Bob"], seed=9, options={"mode": "duel"})
    expected = bots.think(str(served.db), gid, "Ann", "mcts:" + QUICK, 42)  # what the bot sees: Ann's view
    seat_bot(served, gid, "Ann", "mcts", QUICK, "42")
    wait_for("the bot's move", lambda: player_moves(served, gid))
    assert player_moves(served, gid)[0][2] == expected.command


@pytest.mark.parametrize(("form", "reason"), [
    ({"player": "Ann", "kind": "alphazero"}, 'unknown bot kind "alphazero"'),
    ({"player": "Ann", "kind": "mcts", "settings": "depth=3"}, "is not KEY=VALUE with a known key"),
    ({"player": "Ann", "kind": "mcts", "settings": "simulations=many"}, "simulations is a int"),
    ({"player": "Zed", "kind": "random"}, '"Zed" is not a player of'),
    ({"player": "chance", "kind": "random"}, '"chance" is not a player of'),
    ({"player": "Ann", "kind": "random", "seed": "twelve"}, "a bot's seed is a whole number"),
    ({"player": "Ann", "kind": "policy", "settings": "model=/no/such/model.zip"}, "policy: no model file"),
])
def test_bad_bot_seats_are_refused_in_one_line_and_nothing_is_stored(served, form, reason):
    gid = served.start("soli2", ["Ann", "Bob"], options={"mode": "duel"})
    page = served.page(f"/g/{gid}")
    r = served.client.post(f"/g/{gid}/bots", data={"csrf": csrf_of(page), "settings": "", "seed": "", **form})
    assert r.status_code == 400 and reason in r.text and "\n" not in r.text.strip(), r.text
    store = Store(served.db)
    assert bots.bots_of(store, gid) == {}
    store.close()


def test_a_bot_is_refused_at_a_finished_game_and_on_the_new_game_form_when_misspelt(served):
    gid = served.start("solo-dice", ["Sol=bot:random"])
    wait_for("the bot's game to end", lambda: over(served, gid))
    r = served.client.post(f"/g/{gid}/bots", data={"csrf": csrf_of(served.page(f"/g/{gid}")), "player": "Sol",
                                                   "kind": "greedy", "settings": "", "seed": ""})
    assert r.status_code == 400 and "the game is over" in r.text
    form = served.page("/new?game=soli2")
    before = Store(served.db).list_games()
    r = served.client.post("/new", data={"csrf": csrf_of(form), "game": "soli2", "chance": "seeded", "seed": "",
                                         "id": "", "players": "Ann=bot:wizard\nBob", "option.mode": "duel"})
    assert r.status_code == 400 and 'unknown bot kind "wizard"' in html.unescape(r.text)
    assert len(Store(served.db).list_games()) == len(before)  # no game made


def test_only_the_referee_seats_a_bot_and_a_bots_seat_link_plays_nothing(served):
    gid, links, device = served.seated("soli2", options={"mode": "duel"})
    page = device.get(links["Ann"]).text
    r = device.post(f"/g/{gid}/bots", data={"csrf": csrf_of(page), "player": "Ann", "kind": "random"})
    assert r.status_code == 403
    seat_bot(served, gid, "Bob", "random")
    # Ann plays; then Bob's bot answers, and Bob's link cannot play for it
    served.play(links["Ann"], re.search(r'"command":"([^"]+)"', device.get(links["Ann"]).text.replace("&quot;", '"')).group(1), device)
    wait_for("the bot's answer", lambda: len(player_moves(served, gid)) >= 2)
    seat_bot(served, gid, "Bob", "greedy")
    # Bob's link was revoked when the bot took his seat (issue 42): a new link for him plays nothing either
    assert device.get(links["Bob"]).status_code == 404
    bob = served.seat_links(gid)["Bob"]
    page = device.get(bob).text
    at, version = position_of(page)
    r = device.post(f"{bob}/play", data={"command": "x", "at": at, "version": version, "csrf": csrf_of(page)})
    assert r.status_code == 400 and "a bot plays Bob's seat" in r.text


def test_a_restarted_server_keeps_its_bots_seated_and_playing(tmp_path):
    """The bot seat is stored; a restart resumes it, here in a worker process (the server's default)."""
    db = tmp_path / "serve.db"
    with make_client(db, bot_poll=0.05) as client:
        table = Table(db, client)
        gid = table.start("soli2", ["Ann", "Bob"], seed=2, options={"mode": "duel"})
        seat_bot(table, gid, "Bob", "greedy", "", "8")
    from solrec.workflows.games import play_commands

    store = Store(db)
    log = table.log(gid)
    from solrec.replay.log import state_at

    first = log.game.legal_commands(state_at(log))[0]
    play_commands(store, gid, [log.game.format(first)])  # Ann plays from the command line, the server down
    store.close()
    with make_client(db, bot_poll=0.05) as client:  # the bot resumes: Bob answers
        table = Table(db, client)
        table.page("/")
        wait_for("the resumed bot's move", lambda: [m for m in player_moves(table, gid) if m[1] == "Bob"])
        assert 'class="bot"' in table.page(f"/g/{gid}")


# -- hints --------------------------------------------------------------------------------------------------
def hint(client: Any, base: str) -> Any:
    page = client.get(base).text
    at, version = position_of(page)
    return client.post(f"{base}/hint", data={"at": at, "version": version, "csrf": csrf_of(page)})


def test_a_seat_to_act_gets_a_hint_and_nothing_is_played(served):
    gid, links, device = served.seated("soli2", options={"mode": "duel"})
    page = device.get(links["Ann"]).text
    assert '<button type="button" class="hint">hint</button>' in page
    assert 'class="hint"' not in device.get(links["Bob"]).text  # not Bob's turn
    r = hint(device, links["Ann"])
    assert r.status_code == 200 and r.text.startswith("the bot suggests place "), r.text
    assert "estimate" in r.text and "bot mcts:rollout=4,simulations=16" in r.text
    assert player_moves(served, gid) == []
    expected = bots.think(str(served.db), gid, "Ann", "mcts:" + QUICK, bots.HINT_SEED)
    assert r.text == expected.hint_text()
    assert hint(device, links["Bob"]).status_code == 400  # not to act


def test_the_referee_switches_hints_off_per_game_and_it_survives_a_restart(served, tmp_path):
    gid, links, device = served.seated("soli2", options={"mode": "duel"})
    other, other_links, _ = served.seated("soli2", options={"mode": "duel"})
    page = served.page(f"/g/{gid}")
    r = served.client.post(f"/g/{gid}/hints", data={"csrf": csrf_of(page), "hints": "off"}, follow_redirects=False)
    assert r.status_code == 303
    assert "hints for the seats are off" in served.page(f"/g/{gid}")
    assert 'class="hint"' not in device.get(links["Ann"]).text
    r = hint(device, links["Ann"])
    assert r.status_code == 400 and "the referee switched hints off" in r.text
    assert hint(device, other_links["Ann"]).status_code == 200  # another game's hints stay on
    r = device.post(f"/g/{gid}/hints", data={"csrf": csrf_of(device.get(links['Ann']).text), "hints": "on"})
    assert r.status_code == 403  # a seat switches nothing
    with make_client(served.db, bot_processes=False) as client:  # stored: a restart keeps it off
        assert hint(client, links["Ann"]).status_code == 400


def test_a_bots_seat_gets_no_hint_even_by_post(served):
    gid, _, device = served.seated("soli2", options={"mode": "duel"})
    seat_bot(served, gid, "Bob", "greedy", "", "4")
    links = served.seat_links(gid)  # a link made while the bot sits at Bob's seat (Ann is to act: it waits)
    page = device.get(links["Bob"]).text
    assert 'class="hint"' not in page  # its page shows no button
    at, version = position_of(page)
    r = device.post(f"{links['Bob']}/hint", data={"at": at, "version": version, "csrf": csrf_of(page)})
    assert r.status_code == 400 and "a bot plays Bob's seat" in r.text, r.text


def test_a_hint_in_flight_when_the_referee_switches_hints_off_is_refused(served, monkeypatch):
    import concurrent.futures
    import threading

    gid, links, device = served.seated("soli2", options={"mode": "duel"})
    server = served.client.app.app.state.server
    thinking, switched = threading.Event(), threading.Event()
    real = server.runner.ask

    def held(*args: Any) -> concurrent.futures.Future:  # the thought returned only once the switch is made
        inner, outer = real(*args), concurrent.futures.Future()

        def later() -> None:
            thinking.set()
            switched.wait(BOUND)
            outer.set_result(inner.result())

        threading.Thread(target=later, daemon=True).start()
        return outer

    monkeypatch.setattr(server.runner, "ask", held)
    answer: dict[str, Any] = {}
    asking = threading.Thread(target=lambda: answer.update(r=hint(device, links["Ann"])))
    asking.start()
    assert thinking.wait(BOUND)
    page = served.page(f"/g/{gid}")
    assert served.client.post(f"/g/{gid}/hints", data={"csrf": csrf_of(page), "hints": "off"},
                              follow_redirects=False).status_code == 303
    switched.set()
    asking.join(BOUND)
    assert answer["r"].status_code == 400 and "the referee switched hints off" in answer["r"].text


@pytest.mark.parametrize("hint_bot", ["greedy", "mcts:" + QUICK])
def test_hints_are_the_same_for_positions_the_seat_cannot_tell_apart(tmp_path, hint_bot):
    """tests/fairness/pairs.py: two games one seat cannot tell apart (other seeds, hidden cards, another
    deck order) give that seat the same hint, byte for byte, from two servers; and a bot seated there
    the same move, whatever its seed."""
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st

    from solrec.server import seats

    from ..fairness.pairs import GAME_ID, pairs, store_pair

    token = "the-seat-token-of-the-hint-tests-0001"
    setups = st.sampled_from(["soli2-pouch", "solar-solitaire-seeded", "solo-dice", "solari-dominoes-hidden"])
    count = [0]

    @settings(max_examples=12, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                     HealthCheck.function_scoped_fixture])
    @given(setups.flatmap(pairs))
    def check(pair: Any) -> None:
        from solrec.replay.log import state_at

        assume(pair.a.game.to_act(state_at(pair.a)) == pair.seat)
        count[0] += 1
        folder = tmp_path / f"pair{count[0]}"
        folder.mkdir()
        answers = []
        dbs = store_pair(pair, folder)
        # a bot seated there, with its own seed, plays the same move in both (what the runner asks)
        moves = [bots.think(str(db), GAME_ID, pair.seat, hint_bot, 2**40 + count[0]) for db in dbs]
        assert (moves[0].command, moves[0].estimate) == (moves[1].command, moves[1].estimate)
        for db in dbs:
            store = Store(db)
            kept, seats.new_token = seats.new_token, lambda: token
            try:
                seats.make_links(store, GAME_ID, (pair.seat,))
            finally:
                seats.new_token = kept
                store.close()
            with make_client(db, referee=False, bot_processes=False, hint_bot=hint_bot) as client:
                answers.append(hint(client, f"/g/{GAME_ID}/seat/{token}"))
        assert answers[0].status_code == answers[1].status_code == 200
        assert answers[0].text == answers[1].text

    check()
    assert count[0] >= 3


def test_serve_refuses_a_misspelt_hint_bot_in_one_line_before_serving(tmp_path):
    from ..conftest import Cli

    out = Cli(tmp_path / "x.db").run("serve", "--hint-bot", "mcts:depth=2", "--port", "1", expect=2)
    assert '--hint-bot: bot mcts: "depth=2" is not KEY=VALUE' in out.stderr and out.stderr.count("\n") == 1
    assert not (tmp_path / "x.db").exists()


def test_a_game_the_bots_cannot_play_refuses_a_bot_and_offers_no_hint(served):
    """Solarius Mission until the ai extra numbers its actions (docs/ai.md): the bot seat refused in one
    line, no hint button; once adapted, both work as in every other game."""
    gid, links, device = served.seated("solarius-mission", players=("Ann", "Bob"))
    header = served.log(gid).header
    to_act = [p for p, path in links.items() if '<section class="act">' in device.get(path).text]
    page = device.get(links[to_act[0]]).text if to_act else ""
    assert ('<button type="button" class="hint">' in page) == (bool(to_act) and bots.adapted(header))
    if not bots.adapted(header):
        text = seat_bot(served, gid, "Ann", "random", status=400)
        assert "action numbering" in text and "\n" not in text.strip()


def test_a_bot_whose_worker_process_died_plays_on_in_a_new_one(tmp_path):
    import os
    import signal

    db = tmp_path / "serve.db"
    with make_client(db, bot_poll=0.05) as client:
        table = Table(db, client)
        gid = table.start("soli2", ["Ann", "Bob"], seed=4, options={"mode": "duel"})
        seat_bot(table, gid, "Ann", "greedy", "", "1")
        wait_for("the bot's first move", lambda: player_moves(table, gid))
        runner = client.app.app.state.server.runner
        for process in list(runner._pool._processes.values()):  # the workers this test's server started
            os.kill(process.pid, signal.SIGKILL)
        wait_for("the workers gone", lambda: all(not p.is_alive() for p in list(runner._pool._processes.values())))
        table.play(f"/g/{gid}", re.search(r"&quot;command&quot;:&quot;([^&]+)&quot;", table.page(f"/g/{gid}")).group(1))
        wait_for("the bot's next move, in a new worker", lambda: sum(a == "Ann" for _, a, _ in player_moves(table, gid)) >= 2)
