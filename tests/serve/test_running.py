"""How ``solrec serve``'s process runs under uvicorn (server/running.py): its main loop turns once a
second, and a signal to stop wakes it at once."""

from __future__ import annotations

import gc
import signal
import threading
import time

from .conftest import free_port

WAIT = 30.0  # seconds: a generous bound on a loaded machine, never a measured delay


def until(check, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT} s: {what}"
        time.sleep(0.02)


def test_a_signal_to_stop_wakes_the_quiet_main_loop_and_the_server_ends(tmp_path):
    import uvicorn

    from solrec.server.app import create_app
    from solrec.server.running import GC_THRESHOLDS, QuietServer

    before = gc.get_threshold()
    server = QuietServer(uvicorn.Config(create_app(tmp_path / "x.db", None), host="127.0.0.1", port=free_port(),
                                        lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    try:
        thread.start()
        until(lambda: server.started and hasattr(server, "_solrec_stop"), "the server started")
        assert gc.get_threshold() == GC_THRESHOLDS  # ``tune_gc``: the collector tuned for a long-lived process
        loop, stop = server._solrec_stop
        server.handle_exit(signal.SIGINT, None)  # as the signal handler calls it
        until(stop.is_set, "the main loop woken")
        thread.join(WAIT)
        assert not thread.is_alive()
    finally:
        server.should_exit = True
        thread.join(WAIT)
        gc.set_threshold(*before)
        gc.unfreeze()


def test_workers_give_uvicorns_own_server_the_quiet_main_loop(monkeypatch):
    import uvicorn.server

    from solrec.server.running import _quiet_main_loop, quieten

    monkeypatch.setattr(uvicorn.server.Server, "main_loop", uvicorn.server.Server.main_loop)  # undone after the test
    quieten()
    assert uvicorn.server.Server.main_loop is _quiet_main_loop


def test_solrec_serve_runs_the_apps_lifespan_and_its_shutdown_closes_the_bots(tmp_path, monkeypatch):
    """``solrec serve`` hands uvicorn the app's lifespan (issue 41): start-up once (the bots resumed),
    and at shutdown the bots' runner closed."""
    from typer.testing import CliRunner

    from solrec.cli.main import app
    from solrec.server import bots
    from solrec.server.running import QuietServer

    from .conftest import LiveServer

    seen: dict[str, object] = {}
    monkeypatch.setattr(QuietServer, "run", lambda self, *a, **k: seen.update(lifespan=self.config.lifespan))
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "a.db"), "--port", str(free_port())])
    assert result.exit_code == 0, result.output
    assert seen == {"lifespan": "on"}

    closed: list[bool] = []
    real = bots.BotRunner.close
    monkeypatch.setattr(bots.BotRunner, "close", lambda self: closed.append(True) or real(self))
    with LiveServer(tmp_path / "b.db"):
        assert closed == []
    assert closed == [True]
