"""The poller of a ``solrec serve`` process (``ServerState.poll``) is for the writes of other
connections (the CLI, another ``--workers`` process): this process's own wake their streams at once.
It looks every second while no other connection writes, and every ``poll_seconds`` for a while after
one did, so a quiet table's server is not woken three times a second for nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solrec.server.state import AWAKE, ServerState

from .conftest import LiveServer
from .test_live_server import TIMEOUT, new_game, referee_client, stored_commands


def test_a_quiet_server_looks_for_other_connections_writes_every_second(tmp_path: Path):
    server = ServerState.make(tmp_path / "x.db", None, poll_seconds=0.3, quiet_poll_seconds=1.0)
    assert server.poll_interval(1000.0) == 1.0


def test_after_another_connection_wrote_the_poller_looks_at_its_quick_pace_for_a_while(tmp_path: Path):
    server = ServerState.make(tmp_path / "x.db", None, poll_seconds=0.3, quiet_poll_seconds=1.0)
    server.others_wrote = 1000.0
    assert server.poll_interval(1000.0 + AWAKE - 1) == 0.3
    assert server.poll_interval(1000.0 + AWAKE) == 1.0


def test_a_stream_started_beside_a_write_is_looked_at_at_the_quick_pace(tmp_path: Path):
    server = ServerState.make(tmp_path / "x.db", None, poll_seconds=0.3, quiet_poll_seconds=1.0)
    server.recheck = True
    assert server.poll_interval(1000.0) == 0.3


def test_a_command_line_write_reaches_a_quiet_servers_stream_and_quickens_its_poller(tmp_path: Path):
    db = tmp_path / "serve.db"
    with LiveServer(db, live_seconds=60, poll_seconds=0.05, quiet_poll_seconds=0.5) as served, \
            referee_client(served.url) as client:
        gid = new_game(client, "soli2", "Ann\nBob", 3)
        state = served.app.app.state.server
        events = len(stored_commands(db, gid))
        with client.stream("GET", f"/g/{gid}/live") as r:
            data = (line[5:].strip() for line in r.iter_lines() if line.startswith("data:"))
            assert next(data) == str(events)
            assert state.others_wrote == -float("inf")  # the server's own write (the new game) does not count
            subprocess.run([sys.executable, "-m", "solrec.cli.main", "play", gid, "place d4", "--db", str(db)],
                           check=True, capture_output=True, timeout=TIMEOUT)
            assert int(next(data)) > events
        assert state.others_wrote > -float("inf")


def test_the_pollers_turns_fall_due_with_the_main_loops_on_whole_periods():
    from solrec.server.state import aligned

    assert aligned(10.25, 1.0) == 0.75
    assert aligned(10.999, 1.0) == pytest.approx(1.001)  # due now, or as good as: the next one, never a spin
    assert aligned(12.0, 1.0) == 1.0
    assert 10.1 + aligned(10.1, 0.3) == pytest.approx(10.2)  # the quick pace's turns too: 34 x 0.3
