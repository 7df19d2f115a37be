"""Balance runs (``solrec balance``, docs/balance.md): the same games played under two option sets.

A ``Plan`` names the game, its seats, the bots, one or two option sets, the run's seed and the cap on
a game's length. Game ``k`` of every set is **paired**: it is played with the chance seed
``game_seed(seed, k)``, the bots' seed ``bot_seed(seed, k)`` and the same seating of the bots (the
bots given rotated by ``k`` places, so that each bot sits at each seat equally often), so a
difference between the sets is the options', not the dice's. ``play_game`` is a pure function of the
plan and ``k``; ``run`` plays ``range(games)`` on one core, ``jobs`` processes or a Dask cluster and
hands back the ``Played`` results in the order of ``k`` whatever ran them, so the report is the same
byte for byte everywhere.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

import attrs

from solrec.core.errors import SolrecError
from solrec.core.game import CHANCE, Game
from solrec.core.play import SEEDED, Header, Step, advance_chance, initial_state, make_header, play
from solrec.core.registry import get_game
from solrec.core.words import quoted

from .bots import Bot, BotError, BotSpec, make_bot, move_seed, parse_bot
from .metrics import SCORE, Trace, game_measures, mcts_evaluator, packed
from .records import SIMULATOR, bot_seed
from .stats import line_kind

BALANCER = "solrec balance"
# Not a bot of ai/bots.py: the game's own random player, as `solrec simulate` plays (``Game.sample_command``),
# no table needed; it draws as the game draws, where the ``random`` bot is uniform over the
# adapter's action numbering (in Solarius Mission most of those are exchanges; its sampler plays the
# phase's own commands and exchanges now and then). The one kind a game without an action numbering has.
SAMPLER = "sampler"
DEFAULT_BOT = "greedy"
MAX_MOVES = 100_000  # a game still running after this many moves is counted as stuck
GAMES_PER_BATCH = 16
RETRIES = 3


@attrs.frozen
class Plan:
    """What a balance run plays: picklable, shipped whole to every worker."""

    game: str
    players: tuple[str, ...]
    bots: tuple[BotSpec, ...]  # one per seat, or one for every seat; rotated by the game's number
    sets: tuple[tuple[tuple[str, Any], ...], ...]  # each set's options, every default filled (make_header)
    seed: int = 0
    max_moves: int = MAX_MOVES
    keep: bool = False  # hand back each game's steps (``--keep``)
    tabled: bool = True  # False: the game has no action numbering (``Table``): its sampler plays
    evaluator: str = "score"  # the positions' evaluation of Ludii's measures: "score" (the lead) or "mcts[:SETTINGS]"

    def seating(self, k: int) -> tuple[BotSpec, ...]:
        """The bot at each seat in game ``k``: the bots given, rotated ``k`` places."""
        n = len(self.players)
        bots = self.bots if len(self.bots) == n else self.bots * n
        shift = k % n
        return tuple(bots[(s - shift) % n] for s in range(n))

    def header(self, which: int, k: int) -> Header:
        """Game ``k``'s header under set ``which``, its bot seats named (``Header.bots``), as
        ``simulate --player NAME=bot:KIND`` records them: a kept game says in its hashed header who played it."""
        bots = {p: str(b) for p, b in zip(self.players, self.seating(k))}
        return make_header(get_game(self.game), self.players, dict(self.sets[which]), SEEDED, game_seed(self.seed, k),
                           bots=bots)


def game_seed(seed: int, k: int) -> int:
    from solrec.replay.simulate import game_seed as simulate_seed

    return simulate_seed(seed, k)


@attrs.frozen
class Played:
    """One game of a balance run, as the statistics read it (small: a run holds millions)."""

    k: int
    which: int  # 0: the first option set, 1: --against
    moves: int  # the record's lines (chance's included): the one move number of docs/architecture.md
    events: int
    scores: tuple[int, ...]  # per seat
    wins: tuple[float, ...]  # per seat: 1 alone, 1/n shared by n winners (partners win together: 1 each), else 0
    result: str  # won, drawn, lost, scored; stuck
    ending: str  # in the game's words (Game.ending), or why it stuck
    lines: tuple[tuple[str, int], ...]  # points per score-line kind (the rule it cites), all seats together
    bots: tuple[str, ...]  # the bot at each seat
    steps: tuple[Step, ...] | None = attrs.field(default=None, eq=False, repr=False)  # with keep only
    note: str = ""
    metrics: tuple[tuple[str, float | None], ...] = ()  # Ludii's measures of this game (ai/metrics.py)


def refusal(plan: Plan) -> str | None:
    """Why the plan cannot be played (a one-line reason), or None: every set's set-up is checked and
    every bot kind is available for the game."""
    game = get_game(plan.game)
    for which in range(len(plan.sets)):
        try:
            plan.header(which, 0)
        except SolrecError as err:
            return f"{'--against' if which else 'the options'}: {err}"
    if plan.evaluator != SCORE:
        try:
            spec = parse_bot(plan.evaluator)
        except BotError as err:
            return f"--evaluator: {err}"
        if spec.kind != "mcts":
            return f"--evaluator is {SCORE} or mcts[:SETTINGS], not {quoted(plan.evaluator)}"
        if not plan.tabled:
            return f"--evaluator mcts: {game.id} has no action numbering for the mcts bot (docs/ai.md)"
    if not plan.tabled and any(b.kind != SAMPLER for b in plan.bots):
        return (f"{game.id} has no bots yet (no action numbering: docs/ai.md); "
                f"give --bot {SAMPLER}, the game's own random player")
    for which in range(len(plan.sets)) if plan.tabled else ():
        from .table import table_of

        table = table_of(plan.header(which, 0))
        for spec in {b for b in plan.bots if b.kind != SAMPLER}:
            try:
                make_bot(spec).ready(table)  # the learned bot: a model for this game and set
            except BotError as err:
                return str(err)
    return None


def has_table(game_id: str, options: dict[str, Any], players: Sequence[str]) -> bool:
    from .table import Table

    try:
        Table(game_id, options, players)
    except ValueError as err:
        if "no action numbering" in str(err):
            return False
        raise
    return True


def play_game(plan: Plan, which: int, k: int) -> Played:
    """Game ``k`` of option set ``which``, to its end (or to ``max_moves``: stuck)."""
    game = get_game(plan.game)
    header = plan.header(which, k)
    seating = plan.seating(k)
    bseed = bot_seed(plan.seed, k)
    rng = random.Random(f"solrec-players:{plan.seed}:{k}")
    names = [str(b) for b in seating]
    note = "; ".join(f"{p} is the bot {b}" for p, b in zip(header.players, names)) + f" (bot seed {bseed}; balance game {k + 1})"
    trace = Trace(game, header.players)
    steps, state, stuck = _play(game, header, plan, seating, bseed, rng, trace)
    sheet = game.score(state)
    totals = dict(sheet.totals)
    outcome = None if stuck else game.outcome(state)
    players = header.players
    winners = outcome.winners if outcome is not None else ()
    if winners and len(players) > 1 and len(winners) > 1 and not _partners(game, state, winners):
        share = 1.0 / len(winners)
    else:
        share = 1.0
    wins = tuple(share if p in winners else 0.0 for p in players)
    lines: dict[str, int] = {}
    for line in sheet.lines:
        kind = line_kind(line.rule)
        lines[kind] = lines.get(kind, 0) + line.points
    return Played(
        k, which, len(steps), sum(len(s.events) for s in steps), tuple(totals.get(p, 0) for p in players), wins,
        "stuck" if stuck else outcome.result if outcome is not None else "stuck",
        f"stuck: {stuck}" if stuck else game.ending(state) or "", tuple(sorted(lines.items())),
        tuple(names), tuple(steps) if plan.keep else None, note,
        packed(game_measures(trace.trajectory(len(steps), winners, bool(stuck), outcome is not None and outcome.result == "drawn"))))


def _partners(game: Game, state: Any, winners: Sequence[str]) -> bool:
    """Whether several winners won together as partners (each wins), not shared a victory."""
    return bool(getattr(getattr(state, "opts", None), "teams", False))


def _play(game: Game, header: Header, plan: Plan, seating: Sequence[BotSpec], bseed: int,
          rng: random.Random, trace: Trace | None = None) -> tuple[list[Step], Any, str]:
    """As ``records.play_bots``: each seat by its bot through the table as live play, a ``sampler``
    seat by the game's own sampler (``simulate``'s players; no table needed). Returns the
    steps, the last state and why the game stuck ("" when it ended): not over after ``max_moves``,
    or a bot or the game refusing to go on (counted, not raised: a balance run reports them). ``trace``
    is told each position and each player move's legal-move count (Ludii's measures: ai/metrics.py);
    it reads and never changes what is played."""
    state = initial_state(game, header)
    steps, state, at = advance_chance(game, header, state, 0)
    bots: dict[str, Bot | None] = {p: None if spec.kind == SAMPLER else _bot(spec) for p, spec in zip(header.players, seating)}
    table = position = None
    evaluating = trace is not None and plan.evaluator != SCORE
    if plan.tabled and (any(bots.values()) or evaluating):
        from .table import table_of

        table = table_of(header)
        position = table.follow(steps)
    if trace is not None:
        if evaluating and table is not None:
            trace.evaluate = mcts_evaluator(table, parse_bot(plan.evaluator), bseed)
        trace.position(state, position)
    while (actor := game.to_act(state)) is not None:
        if actor == CHANCE:
            return steps, state, "chance is to act with no draw"
        if len(steps) >= plan.max_moves:
            return steps, state, f"not over after {plan.max_moves} moves"
        try:
            choices = _choices(game, state, table, position) if trace is not None else None
            bot = bots[actor]
            if bot is not None and table is not None and position is not None:
                command = bot.decide(table, position, actor, move_seed(bseed, position.moves)).command
            else:
                command = game.sample_command(state, rng)
            new, state, at = play(game, header, state, at, actor, command)
        except (SolrecError, BotError, NotImplementedError) as err:
            return steps, state, f"{actor} could not move: {err}"
        steps.extend(new)
        if table is not None and position is not None:
            position = table.follow(new, position)
        if trace is not None:
            trace.move(actor, choices)
            trace.position(state, position)
    return steps, state, ""


def _choices(game: Game, state: Any, table: Any, position: Any) -> int | None:
    """The mover's legal moves: the game's own list (``Game.legal_commands``), whoever plays, so a
    measure does not depend on the bot; else the action numbering's; None where neither counts them."""
    try:
        legal = game.legal_commands(state)
        if legal is None and table is not None and position is not None:
            return len(table.legal(position))
    except (SolrecError, ValueError, NotImplementedError):
        return None
    return None if legal is None else len(legal)


_BOTS: dict[BotSpec, Bot] = {}


def _bot(spec: BotSpec) -> Bot:
    bot = _BOTS.get(spec)
    if bot is None:
        bot = _BOTS[spec] = make_bot(spec)
    return bot


def play_batch(plan: Plan, ks: Sequence[int]) -> list[tuple[Played, ...]]:
    """Games ``ks`` of every set: for each ``k`` its game under each set, in set order."""
    return [tuple(play_game(plan, which, k) for which in range(len(plan.sets))) for k in ks]


def batches(games: int, workers: int, size: int | None = None) -> list[list[int]]:
    """``range(games)`` cut into runs of consecutive numbers: small enough that every worker is kept
    busy to the end and a lost one costs little, large enough that shipping them costs little; or of
    ``size`` games (a sequential test's batch: it looks at the games batch by batch)."""
    if size is None:
        size = max(1, min(GAMES_PER_BATCH, games // max(1, workers * 4) or 1))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def run(plan: Plan, games: int, jobs: int = 1, cluster: str | None = None,
        progress: Callable[[int], Any] | None = None, size: int | None = None) -> Generator[tuple[Played, ...], None, None]:
    """Every game of the plan, ``k`` = 0 .. games-1 in that order (each a tuple, one per set), played
    here, on ``jobs`` processes or on the Dask cluster at ``cluster``; ``progress(n)`` told as games end.
    A few batches (of ``size`` games, else as ``batches`` cuts them) run ahead of the one handed back,
    no more: a caller that stops reading (a sequential test that has decided) leaves little played in vain."""
    if cluster is not None:
        yield from _run_cluster(plan, games, cluster, progress, size)
        return
    if jobs <= 1 or games <= 1:
        for k in range(games):
            done = play_batch(plan, [k])[0]
            if progress is not None:
                progress(1)
            yield done
        return
    from concurrent.futures import Future, ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    parts = deque(batches(games, jobs, _task(size, jobs)))
    running: deque[Future[list[tuple[Played, ...]]]] = deque()
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        try:
            while parts or running:
                while parts and len(running) < _window(size, jobs):
                    running.append(pool.submit(play_batch, plan, parts.popleft()))
                part = running.popleft().result()
                if progress is not None:
                    progress(len(part))
                yield from part
        finally:
            for future in running:  # the caller stopped reading: what has not started never starts
                future.cancel()


def _task(look: int | None, workers: int) -> int | None:
    """Games a task plays: for a sequential test a look's batch shared among the workers (so a look
    is ready as soon as the workers together have played it), else as ``batches`` cuts them."""
    return None if look is None else max(1, look // max(1, workers))


def _window(look: int | None, workers: int) -> int:
    """Tasks in flight: four a worker; for a sequential test two a worker, about two looks ahead, so
    at most a look's games are played in vain once it decides."""
    return workers * (4 if look is None else 2)


def _run_cluster(plan: Plan, games: int, address: str, progress: Callable[[int], Any] | None,
                 size: int | None = None) -> Iterator[tuple[Played, ...]]:
    """The batches submitted to the cluster, a few per worker in flight; a failed or lost batch
    submitted again (at most ``RETRIES`` times); results yielded in the order of ``k``."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SolrecError("--cluster needs Dask distributed: pip install 'solrec[cluster]'") from None
    with Client(address, timeout="10s") as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        plan_future = client.scatter(plan, broadcast=True)
        todo: deque[list[int]] = deque(batches(games, workers, _task(size, workers)))
        window = _window(size, workers)
        running: dict[Any, list[int]] = {}
        attempts: dict[int, int] = {}
        finished: dict[int, tuple[Played, ...]] = {}
        pending = as_completed()
        next_k = 0

        def submit(part: list[int]) -> None:
            future = client.submit(play_batch, plan_future, part, pure=False)
            running[future] = part
            pending.add(future)

        while todo and len(running) < window:
            submit(todo.popleft())
        for future in pending:
            part = running.pop(future)
            if future.status != "finished":
                tries = attempts[part[0]] = attempts.get(part[0], 0) + 1
                if tries > RETRIES:
                    future.result()  # raises the worker's error
                submit(part)
                continue
            for k, done in zip(part, future.result()):
                finished[k] = done
            del future
            if progress is not None:
                progress(len(part))
            while todo and len(running) < window:
                submit(todo.popleft())
            while next_k in finished:
                yield finished.pop(next_k)
                next_k += 1


def parse_bots(texts: Sequence[str], players: int) -> tuple[BotSpec, ...]:
    """``--bot`` as given: none (every seat the default bot), one (every seat), or one per seat; a
    bot of ai/bots.py, or ``sampler`` (the game's own random player)."""
    if not texts:
        return (parse_bot(DEFAULT_BOT),)
    if len(texts) not in (1, players):
        raise BotError(f"give one --bot for every seat or one per seat ({players}), not {len(texts)}")
    return tuple(BotSpec(SAMPLER) if t.strip() == SAMPLER else parse_bot(t) for t in texts)


def kept_note(played: Played) -> tuple[int, str, str, str, str]:
    """The first comment of a kept game (position 0, by "solrec balance"): its bots and seeds; the
    same for a game's pair under the other set, so an unchanged game is kept byte for byte alike."""
    return (0, BALANCER, "", "", played.note)


__all__ = ["BALANCER", "Plan", "Played", "SIMULATOR", "parse_bots", "play_game", "refusal", "run"]
