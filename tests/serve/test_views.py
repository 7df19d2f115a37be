"""What the server keeps between requests gives what a fresh read gives: the states of a log read
again after a command (``Replay.continued``), and each viewer's move list (``views``)."""

from __future__ import annotations

import pytest

from solrec.cli.manage import take_back
from solrec.core.observe import Viewer
from solrec.replay.log import Log, Replay, carry_over, fold, load, state_at
from solrec.server import views
from solrec.workflows.games import new_game, play_commands


def played(store, *commands: str) -> Log:
    gid = new_game(store, "soli2", ["Ann", "Bob"], {}, 3, False, "duel")[0]
    for command in commands:
        play_commands(store, gid, [command])
    return load(store, gid)


def every_state(log: Log) -> list:
    return [fold(log, at) for at in range(len(log.rows) + 1)]


def test_a_replay_continued_on_the_log_with_commands_appended_gives_the_fresh_states(store):
    long = played(store, "place d4", "place d5", "place c3")
    end = long.steps()[-2][-1].seq + 1  # where the last command but one ends
    short = Log(long.game_id, long.header, long.rows[:end])
    replay = Replay(short, every=4)
    replay.state_at(end)
    continued = replay.continued(long)
    assert [continued.state_at(at) for at in range(len(long.rows) + 1)] == every_state(long)


def test_a_replay_continued_on_a_log_taken_back_then_played_otherwise_gives_the_fresh_states(store):
    first = played(store, "place d4", "place d5")
    replay = Replay(first, every=4)
    replay.state_at(len(first.rows))
    take_back(store, first.game_id, None)
    back = load(store, first.game_id)
    replay = replay.continued(back)
    assert [replay.state_at(at) for at in reversed(range(len(back.rows) + 1))] == every_state(back)[::-1]
    play_commands(store, first.game_id, ["place e5"])
    other = load(store, first.game_id)
    assert other.rows[-1].hash != first.rows[-1].hash
    continued = replay.continued(other)
    assert [continued.state_at(at) for at in range(len(other.rows) + 1)] == every_state(other)


def test_a_replay_is_not_continued_on_a_log_that_went_another_way_at_its_end(store):
    first = played(store, "place d4", "place d5")
    replay = Replay(first)
    take_back(store, first.game_id, None)
    play_commands(store, first.game_id, ["place e5"])
    with pytest.raises(ValueError):
        replay.continued(load(store, first.game_id))


def test_a_replay_is_not_continued_on_another_games_log(store):
    one = played(store)
    other = load(store, new_game(store, "soli2", ["Ann", "Bob"], {}, 4, False, "other")[0])
    with pytest.raises(ValueError):
        Replay(one).continued(other)


def test_carry_over_lets_state_at_go_on_from_the_last_log_read(store):
    first = played(store, "place d4")
    state_at(first)
    play_commands(store, first.game_id, ["place d5"])
    second = load(store, first.game_id)
    assert carry_over(first, second)
    assert state_at(second) == fold(second)


@pytest.mark.parametrize("player", [None, "Bob"])
def test_the_move_list_kept_between_reads_is_the_one_made_afresh(store, player):
    log = played(store, "place d4")
    views._MOVES.clear()
    views.view(log, Viewer.of(player, reveal=player is None))
    play_commands(store, log.game_id, ["place d5"])
    take_back(store, log.game_id, None)
    play_commands(store, log.game_id, ["place e5"])
    again = load(store, log.game_id)
    kept = views.view(again, Viewer.of(player, reveal=player is None)).moves
    views._MOVES.clear()
    assert kept == views.view(again, Viewer.of(player, reveal=player is None)).moves
    assert "place e5" in [m.command for m in kept] and "place d5" not in [m.command for m in kept]


def test_a_watching_seats_page_kept_by_a_play_is_the_page_made_afresh(tmp_path):
    """A play makes the new position's page of each seat whose stream watches the game, and the
    seat's fetch is answered with it from the event loop (``kept_fragment``): byte for byte what a
    server that keeps nothing makes, and the version its stream compares is the page's."""
    from solrec.server.state import Stream

    from .conftest import Table, make_client, position_of

    db = tmp_path / "serve.db"
    with make_client(db) as client:
        table = Table(db, client)
        gid, seats, device = table.seated()
        server = client.app.app.state.server
        server.streams.append(Stream("bob's", gid, kind=Viewer.seat("Bob")))  # Bob's stream, as ``live`` counts it
        try:
            assert table.play(seats["Ann"], "place d4", device).status_code == 200
            made = server.kept_fragment(gid, "Bob")
            assert made is not None
            kept = made.html
            assert device.get(f"{seats['Bob']}/view").text == kept
            assert made.version == position_of(kept)[1]  # kept with its version: never read back out of the HTML
        finally:
            server.streams.clear()
        log = table.log(gid)
        assert server.kept_version(gid, (len(log.rows), log.head), Viewer.seat("Bob")) == position_of(kept)[1]
    with make_client(db) as fresh:
        assert fresh.app.app.state.server.kept_fragment(gid, "Bob") is None  # nothing kept: made the ordinary way
        assert fresh.get(f"{seats['Bob']}/view").text == kept
