"""How a server process runs under uvicorn: ``QuietServer``, uvicorn's server waking once a second.

uvicorn's own main loop wakes ten times a second (``await asyncio.sleep(0.1)``) to refresh its date
header, which changes once a second, and to look at its exit flag. Those ten wake-ups were most of
an idle server's CPU (about 2.5 ms of CPU a second on the 2-core machine of docs/scaling.md), which
at one table playing a move a second is as much as the move itself. ``QuietServer`` turns once a
second, and at once when a signal asks it to stop (``handle_exit``), so stopping is no slower.

It also tunes the cyclic garbage collector for a long-lived process (``tune_gc``): Python's default
collects its youngest objects every 700 allocations, and a play allocates thousands, most freed at
once by reference counting; the objects made while starting (modules, functions: most of the heap)
are moved out of the collector's way (``gc.freeze``), so a full collection scans only what the
server keeps (logs, views), not the code.

``solrec serve --workers N``: uvicorn's supervisor makes each process's server itself (its
``Server``), so each process's app factory (``workers.app_from_env``) gives uvicorn's server this
main loop (``quieten``); a signal then stops a process within a second.
"""

from __future__ import annotations

import asyncio
import gc
from types import FrameType

import uvicorn
import uvicorn.server

from .state import aligned

TURN = 1.0  # seconds between the main loop's turns (the date header's own resolution)
# the collector's thresholds: the youngest generation every 20,000 allocations (Python's 700), the
# next every 20 of those, the oldest considered every 10 of those (then only past its own 25% rule)
GC_THRESHOLDS = (20_000, 20, 10)


def tune_gc() -> None:
    """Collect less often, and never scan what starting made (call once the app is built)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def _main_loop(server: uvicorn.Server) -> None:
    stop = asyncio.Event()
    server._solrec_stop = (asyncio.get_running_loop(), stop)  # type: ignore[attr-defined]
    counter = 0
    should_exit = await server.on_tick(counter)
    while not should_exit:
        counter = (counter + 10) % 864000  # uvicorn counts tenths of a second (its date at each 10th)
        try:  # due with the poller's quiet turns (``state.aligned``): one wake of the process for both
            await asyncio.wait_for(stop.wait(), aligned(asyncio.get_running_loop().time(), TURN))
        except TimeoutError:
            pass
        should_exit = await server.on_tick(counter)


async def _quiet_main_loop(server: uvicorn.Server) -> None:
    tune_gc()
    await _main_loop(server)


class QuietServer(uvicorn.Server):
    """uvicorn's server, its main loop turning once a second instead of ten times."""

    async def main_loop(self) -> None:
        await _quiet_main_loop(self)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        kept: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = getattr(self, "_solrec_stop", None)
        if kept is not None and not kept[0].is_closed():
            kept[0].call_soon_threadsafe(kept[1].set)  # from a signal handler: the loop wakes at once


def quieten() -> None:
    """In a ``--workers`` process: uvicorn's server (made by its supervisor) turns once a second."""
    uvicorn.server.Server.main_loop = _quiet_main_loop  # type: ignore[method-assign,assignment]
