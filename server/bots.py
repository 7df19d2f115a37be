"""Bot seats and hints of ``solrec serve`` (docs/ai.md, "Bot seats and hints").

The referee seats a bot (``KIND[:SETTINGS]``: random, greedy, mcts) at a player's seat of any game,
new or running. The ``bots`` table (``schema.TABLES["bots"]``) keeps it with its seed, so a restart keeps
it seated and the server resumes it. When its turn comes, ``BotRunner`` (one thread, off the event
loop) hands the move to a pool of worker processes (``think``: the log read in the worker, the bot
asked through ``solrec.ai`` for that seat, from what that seat sees), then plays the command as that
player against the head it was decided on (a position that moved meanwhile is thought again), and
marks it with a comment by "solrec bot" (``replay/marks.py``): the move lists show it as a bot's. A
bot is deterministic for its seed: the move at a position is the bot's for (seed, player commands so
far), as ``solrec hint --bot KIND --seed SEED`` would give it. The seed is the referee's only (a
seat that knew it could ask the bot what it would play with each hand it might hold).

A seat's "hint" button asks ``hint`` (the same worker pool): the suggested command and its estimate
for that seat, from what it sees, by the server's hint bot with seed 0 (what ``solrec hint ID --as
NAME`` answers), so two games the seat cannot tell apart give it the same hint. The referee switches
hints off per game (``table_settings``: ``hints`` = ``off``); the server then refuses them.

This module is imported by the worker processes: it imports the server, Starlette and the ai extra
only inside the functions that need them.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

from solrec.core.errors import SolrecError
from solrec.events.store import Store, now

log = logging.getLogger("solrec.serve")

PERSON = "person"  # the referee's choice that unseats a bot: a person plays the seat again
KINDS = ("random", "greedy", "mcts", "policy")
HINT_BOT = "mcts"  # the hint button's bot, at its default strength
HINT_SEED = 0  # as ``solrec hint``'s default: the hint depends on nothing but what the seat sees


class BotRefused(ValueError):
    """A bot seat or a hint refused, with a one-line reason."""


# -- what the database keeps -------------------------------------------------------------------------------
def _objects(store: Store) -> dict[str, str]:
    return store.objects() if store.exists else {}


def bots_of(store: Store, game_id: str) -> dict[str, tuple[str, int]]:
    """The bots seated in a game: player -> (bot, seed)."""
    if "bots" not in _objects(store):
        return {}
    rows = store.query("select player, bot, seed from bots where game_id = ? order by player", [game_id])
    return {str(p): (str(b), int(s)) for p, b, s in rows}


def games_with_bots(store: Store) -> list[str]:
    if "bots" not in _objects(store):
        return []
    return [str(g) for (g,) in store.query("select distinct game_id from bots order by game_id", [])]


def check_bot(kind: str, settings: str = "") -> str:
    """``KIND`` and its settings (``KEY=VALUE,...``) as the bot's one spelling, or BotRefused."""
    try:
        from solrec.ai.bots import BotError, parse_bot
    except ImportError as err:
        raise BotRefused(f"bots need the ai extra (pip install 'solrec[ai]'): {err}") from None
    text = kind.strip() + (":" + settings.strip() if settings.strip() else "")
    try:
        return str(parse_bot(text))
    except BotError as err:
        raise BotRefused(str(err)) from None


def players_and_bots(text: str) -> tuple[list[str], dict[str, str]]:
    """The new-game form's players, one a line; ``NAME=bot:KIND[:SETTINGS]`` seats a bot there (as
    ``simulate --player`` spells it): the names, and each bot seat's bot (checked)."""
    players: list[str] = []
    seated: dict[str, str] = {}
    for line in filter(None, (x.strip() for x in text.splitlines())):
        name, eq, rest = line.partition("=")
        if eq and rest.strip().startswith("bot:"):
            kind, _, settings = rest.strip()[len("bot:"):].partition(":")
            name = name.strip()
            seated[name] = check_bot(kind, settings)
            players.append(name)
        else:
            players.append(line)
    return players, seated


def check_table(game: Any, players: Any, options: Any, bots: Iterable[str] = ()) -> None:
    """A bot can sit at this game: the ai extra is installed and adapts it (its table and action
    numbering: ``solrec.ai.table.table_of``); and each of ``bots`` can play it (the learned bot: a
    model for it, ``Bot.ready``)."""
    import importlib.util

    from solrec.core.play import SEEDED, make_header

    if importlib.util.find_spec("pyspiel") is None:
        raise BotRefused("bots need the ai extra (pip install 'solrec[ai]')")

    try:
        from solrec.ai.table import table_of
    except ImportError as err:
        raise BotRefused(f"bots need the ai extra (pip install 'solrec[ai]'): {err}") from None
    try:
        table = table_of(make_header(game, list(players), dict(options), SEEDED, 0))
    except ValueError as err:
        raise BotRefused(str(err).splitlines()[0]) from None
    if bots:
        from solrec.ai.bots import BotError, make_bot

        for bot in bots:
            try:
                make_bot(bot).ready(table)
            except BotError as err:
                raise BotRefused(str(err)) from None


_ADAPTED: dict[tuple[str, str, tuple[str, ...]], bool] = {}


def adapted(header: Any) -> bool:
    """Whether a bot can play this game (``check_table``): the seats' hint button shows only there.
    Remembered per game, options and players (the ai extra's table module imports no OpenSpiel)."""
    key = (header.game, repr(sorted(header.options_dict().items())), tuple(header.players))
    if key not in _ADAPTED:
        try:
            from solrec.core.registry import get_game

            check_table(get_game(header.game), header.players, header.options_dict())
            _ADAPTED[key] = True
        except (BotRefused, SolrecError, ValueError):
            _ADAPTED[key] = False
        if len(_ADAPTED) > 256:
            _ADAPTED.pop(next(iter(_ADAPTED)))
    return _ADAPTED[key]


def seat_bot(store: Store, game_id: str, player: str, bot: str, seed: int | None = None) -> int:
    """Seat ``bot`` (checked: ``check_bot``) at ``player``'s seat; its seed (random unless given). The
    seat's link, if one was made, is revoked with it: a person seated again gets a new one."""
    seed = secrets.randbits(63) if seed is None else seed
    with store.transaction() as conn:
        store.create_table("bots")
        conn.execute("insert or replace into bots (game_id, player, bot, seed, created) values (?,?,?,?,?)",
                     [game_id, player, bot, seed, now()])
        if "seats" in _objects(store):  # the person's seat link stops working (its open pages end at once)
            conn.execute("delete from seats where game_id = ? and player = ?", [game_id, player])
    return seed


def unseat_bot(store: Store, game_id: str, player: str) -> bool:
    if "bots" not in _objects(store):
        return False
    with store.transaction() as conn:
        return conn.execute("delete from bots where game_id = ? and player = ?", [game_id, player]).rowcount > 0


def hints_on(store: Store, game_id: str) -> bool:
    if "table_settings" not in _objects(store):
        return True
    rows = store.query("select value from table_settings where game_id = ? and key = 'hints'", [game_id])
    return not any(v == "off" for (v,) in rows)


def set_hints(store: Store, game_id: str, on: bool) -> None:
    with store.transaction() as conn:
        store.create_table("table_settings")
        conn.execute("insert or replace into table_settings (game_id, key, value) values (?, 'hints', ?)",
                     [game_id, "on" if on else "off"])


# -- in a worker process -----------------------------------------------------------------------------------
@attrs.frozen
class Thought:
    """A bot's answer at a stored position: the position (events, head) it read, the command for the
    seat in the game's words, its estimate (-1 lost .. +1 won, for that seat) and the bot."""

    events: int
    head: str
    command: str
    estimate: float
    bot: str

    def hint_text(self) -> str:
        """What the seat's page shows (from the command and estimate alone: the same for two games the
        seat cannot tell apart)."""
        return f"the bot suggests {self.command} (estimate {self.estimate:+.2f} for you, bot {self.bot})"


def think(db: str, game_id: str, player: str, bot: str, seed: int) -> Thought:
    """The bot's command for ``player`` at the end of the stored game, from what the seat sees
    (``solrec.ai.records.hint``). Run in a worker process: reads the file, writes nothing."""
    from solrec.ai.bots import BotError, parse_bot
    from solrec.ai.records import hint
    from solrec.replay.log import load

    store = Store(Path(db))
    try:
        log_ = load(store, game_id)
        try:
            found = hint(log_, player, parse_bot(bot), seed)
        except (BotError, ValueError) as err:
            raise BotRefused(str(err).splitlines()[0] if str(err) else "the bot found no move") from None
        return Thought(len(log_.rows), log_.head, found.command, found.estimate, found.bot)
    finally:
        store.close()


def _warm() -> bool:
    """Load the ai extra in a worker once, before its first move is asked of it."""
    import solrec.ai.records  # noqa: F401

    return True


def whose_turn(log_: Any) -> str | None:
    from solrec.replay.log import state_at

    return log_.game.to_act(state_at(log_))


# -- the runner ------------------------------------------------------------------------------------------
Play = Callable[[str, str, str, tuple[int, str]], int]  # (game, player, command, expected) -> the move's end position


_CLAIMED: dict[str, int] = {}  # database file -> the descriptor holding this process's lock on it
_CLAIMING = threading.Lock()


def _claim(db: Path) -> bool:
    import fcntl

    key = os.path.realpath(db)
    with _CLAIMING:
        if key in _CLAIMED:
            return True
        try:
            fd = os.open(key, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        _CLAIMED[key] = fd
        return True


class BotRunner:
    """Plays the bot seats of one server's database: a thread that looks at the games with bots when
    poked (a write, a bot seated, the start) or every ``poll`` seconds (a command played from the CLI),
    asks the pool for the move of every bot to act (at most one per seat at a time), and plays the
    answers through ``play`` (the server's head-checked write). Hints go to the same pool."""

    def __init__(self, db: Path, play: Play, *, workers: int = 1, processes: bool = True, poll: float = 1.0,
                 asking: Callable[[], Store | None] | None = None):
        self.db = db
        self.asking = asking  # the calling thread's kept store, if it has one (``_asking_store``)
        self.play = play
        self.workers = workers
        self.processes = processes
        self.poll = poll
        self._pool: concurrent.futures.Executor | None = None
        self._thread: threading.Thread | None = None
        self._poke = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._asked: dict[tuple[str, str], concurrent.futures.Future[Thought]] = {}
        self._looked: dict[str, tuple[int, str]] = {}  # each game's (events, head) when it was last looked at
        self._dirty: set[str] = set()  # games poked since the last round began: looked at again whatever their row
        self.moves = 0  # bot moves played (for tests and the log)
        self._bots_asked = -float("inf")  # when the file was last asked whether any game has bots

    # the pool and the thread start on first need: a server without bots runs neither
    def pool(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._pool is None:
                if self.processes:
                    import multiprocessing

                    # spawn: a fresh interpreter (the server runs threads; forking one is unsafe)
                    self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
                else:
                    self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="solrec-bot")
                for _ in range(self.workers):
                    self._pool.submit(_warm)
            return self._pool

    def claim(self) -> bool:
        """Whether this process plays the bots: with ``serve --workers N`` each process has a runner
        (for the hints), and the one process holding a BSD lock on the database file plays the bot
        seats, so a bot's move is thought once, not N times. SQLite locks with POSIX locks, which BSD
        locks do not touch; the lock is the process's (its runners share it) until it exits, and then
        another process's next look takes it over."""
        return _claim(self.db)

    def start(self) -> None:
        if not self.claim():
            return
        with self._lock:
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._run, name="solrec-bots", daemon=True)
                self._thread.start()
        self._poke.set()

    def poke(self, game_id: str | None = None) -> None:
        """A game may have moved: look again (started if a game has bots)."""
        if game_id is not None:
            with self._lock:
                self._dirty.add(game_id)
        if self._thread is None:
            # no bot seated yet: the file is asked at most every ``poll`` seconds (a play costs no
            # query), at once when this server seats one (``seated``) or at the start
            now = time.monotonic()
            if game_id is not None and now < self._bots_asked + self.poll:
                return
            self._bots_asked = now
            try:
                if self.db.exists() and games_with_bots(self._asking_store()):
                    self.start()
            except (SolrecError, sqlite3.Error):
                self._bots_asked = -float("inf")  # busy (the loop's connection never waits): asked at the next poke
            return
        self._poke.set()

    def _asking_store(self) -> Store:
        """The store ``poke`` asks through: the caller's own (``asking``: the server's event loop keeps
        one), else one opened for the question (opening one cost as much CPU as a play's page: at one
        table, a play a second, it was opened for nearly every play)."""
        kept = self.asking() if self.asking is not None else None
        return kept if kept is not None else Store(self.db)

    def expect(self) -> None:
        """A bot was seated through this server: the next poke asks the file at once."""
        self._bots_asked = -float("inf")

    def close(self) -> None:
        self._stop.set()
        self._poke.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def ask(self, game_id: str, player: str, bot: str, seed: int) -> concurrent.futures.Future[Thought]:
        try:
            return self.pool().submit(think, str(self.db), game_id, player, bot, seed)
        except concurrent.futures.BrokenExecutor:  # a worker died (killed, out of memory): a new pool
            with self._lock:
                self._pool = None
            return self.pool().submit(think, str(self.db), game_id, player, bot, seed)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._poke.wait(self.poll)
            self._poke.clear()
            if self._stop.is_set():
                return
            try:
                self._round()
            except Exception:  # a fault in one round must not stop the bots for good
                log.exception("the bot seats' round failed; trying again")

    def _round(self) -> None:
        from solrec.core.errors import SolrecError
        from solrec.replay.log import load

        # a game poked while this round runs is in the next round's set: a bot seated meanwhile is
        # never missed for a row this round read before it
        with self._lock:
            dirty, self._dirty = self._dirty, set()
        store = Store(self.db)
        try:
            for game_id in games_with_bots(store):
                for (gid, player), future in list(self._asked.items()):
                    if gid == game_id and future.done():
                        del self._asked[gid, player]
                        self._answer(gid, player, bots_of(store, game_id).get(player), future)
                seated = bots_of(store, game_id)
                found = store.query("select events, head from games where id = ?", [game_id])
                row = (int(found[0][0]), str(found[0][1])) if found else None
                if row is None or (self._looked.get(game_id) == row and game_id not in dirty):
                    continue
                try:
                    log_ = load(store, game_id)
                    actor = whose_turn(log_)
                except SolrecError:
                    continue
                self._looked[game_id] = row
                if actor in seated and (game_id, actor) not in self._asked:
                    bot, seed = seated[actor]
                    future = self.ask(game_id, actor, bot, seed)
                    future.add_done_callback(lambda _: self._poke.set())
                    self._asked[game_id, actor] = future
        finally:
            store.close()

    def _answer(self, game_id: str, player: str, seated: tuple[str, int] | None, future: concurrent.futures.Future[Thought]) -> None:
        from solrec.core.errors import SolrecError
        from solrec.events.store import ConcurrencyConflict

        # a bot that found no move, or whose move was refused, is not asked again at the same
        # position (its answer would be the same): only once the game moves
        try:
            thought = future.result()
        except concurrent.futures.CancelledError:
            return
        except concurrent.futures.BrokenExecutor:
            self._looked.pop(game_id, None)  # its worker died: asked again, of a new pool
            return
        except Exception as err:
            log.warning("the bot of %s in %s found no move: %s", player, game_id, err)
            return
        if seated is None or seated[0] != thought.bot:
            self._looked.pop(game_id, None)
            return  # unseated (or another bot seated) while it thought
        try:
            self.play(game_id, player, thought.command, (thought.events, thought.head))
            self.moves += 1
            self._looked.pop(game_id, None)
        except ConcurrencyConflict:
            self._looked.pop(game_id, None)  # the game moved meanwhile: thought again at the next round
        except SolrecError as err:
            log.warning("the bot of %s in %s: its move %r was refused: %s", player, game_id, thought.command, err)
        except Exception as err:  # the write failed (a full or failing disk): nothing stored, so asked again
            self._looked.pop(game_id, None)
            log.warning("the bot of %s in %s: its move could not be stored (%s); asked again", player, game_id, err)
