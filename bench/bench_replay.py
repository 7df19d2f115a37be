"""Benchmark (not a test): replay and validation against the storage floor, per game, in one run.

    .venv/bin/python bench/bench_replay.py [--scale 1.0] [--seed 1] [--jobs 2] [--chess-games 200]
    .venv/bin/python bench/bench_replay.py --games solo-dice --db /tmp/corpus.db   # reuse a corpus

For every game (Solo Dice, SOLI2, Solar Solitaire, Solari, Solarius Mission) it simulates a corpus and times, over the
same events:

    (0) floor     every payload read with one SQL query and msgpack-unpacked, nothing else
    (1) decode    the stored rows read and decoded to typed (strict, domain-checked) events
    (2) replay    every game read from the corpus stream, verified (hash chain, count and head) and
                  folded to its final state; (2b) the same game by game, as ``show`` loads one
    (3) validate  every game validated (`validate --all --jobs 1`: every command decided again)
    (4) import    every game exported and imported again into a fresh database

and prints each as a ratio of its time to (0); stage times are this process's CPU time, best of
``--repeat`` rounds of all stages in turn (the machine is shared, see ``clock``). Then validation of the whole store with --jobs 1 and
--jobs N (the speed-up), the time to show every position of the longest game one by one (from zero
each time, and through snapshots), and random legal python-chess games replayed with ``push`` after a
legality check: solrec's replay events/s over chess plies/s. ``chess`` is the bench extra
(``pip install -e '.[bench]'``); without it that line is skipped.

A game added to the registry is measured by adding its id to ``GAMES`` (with a corpus size).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import msgpack

from solrec.core.registry import get_game
from solrec.events import Store
from solrec.events.record import export_lines
from solrec.replay.log import load, state_at
from solrec.workflows.games import import_text, simulate_games

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# game id -> games simulated at --scale 1 (roughly 15k-40k events each; a Solari game is ~5k events)
GAMES: dict[str, int] = {
    "solo-dice": 1000,
    "soli2": 150,
    "solar-solitaire": 120,
    "solari": 6,
    "solarius-mission": 100,
}


def clock(func: Callable[[], object], repeat: int = 1, wall: bool = False) -> float:
    """The best of ``repeat`` runs, in seconds of this process's CPU time (``wall``: elapsed time).

    The 2-core machine is shared with other work: the CPU time a stage takes is what it costs, while
    its elapsed time also counts the time other processes held the core. Speed-ups over several
    processes are elapsed time."""
    now = time.perf_counter if wall else time.process_time
    best = float("inf")
    for _ in range(repeat):
        start = now()
        func()
        best = min(best, now() - start)
    return best


def corpus(path: Path, game: str, count: int, seed: int) -> list[str]:
    store = Store(path)
    ids = [
        gid
        for (gid,) in store.conn.execute(
            "select id from games where game = ? and id not like 'fixture-%' order by id", [game]
        )
    ]
    if not ids:
        start = time.perf_counter()
        made = simulate_games(store, game, count, seed, [], {})
        ids = made[0] if isinstance(made, tuple) else made  # (ids, summary) since issue 12
        print(f"  simulated {len(ids)} {game} games in {time.perf_counter() - start:.1f} s")
    store.close()
    return ids


def floor(path: Path, ids: list[str]) -> None:
    conn = sqlite3.connect(path)
    marks = ",".join("?" * len(ids))
    for (payload,) in conn.execute(f"select payload from events where game_id in ({marks}) order by game_id, seq", ids):
        msgpack.unpackb(payload, raw=False, strict_map_key=False)
    conn.close()


def decode_all(path: Path, ids: list[str]) -> None:
    store = Store(path, create=False)
    for gid in ids:
        load(store, gid, verify=False).events()
    store.close()


def replay_each(path: Path, ids: list[str]) -> None:
    """Game by game, as ``show``/``score`` load one: verified, folded to the end."""
    store = Store(path, create=False)
    for gid in ids:
        state_at(load(store, gid))
    store.close()


def replay_all(path: Path, ids: list[str]) -> None:
    """The corpus streamed (one query per 2,000 games), every log verified, folded to the end."""
    try:
        from solrec.replay.corpus import final_states
    except ImportError:  # before replay/corpus.py
        return replay_each(path, ids)
    store = Store(path, create=False)
    for _ in final_states(store, ids):
        pass
    store.close()


def validate_all(path: Path, ids: list[str], jobs: int = 1) -> None:
    store = Store(path, create=False)
    try:
        from solrec.replay.corpus import validate_corpus
    except ImportError:  # before replay/corpus.py: one game at a time
        from solrec.replay.validate import validate_stored

        verdicts = [validate_stored(store, gid) for gid in ids]
    else:
        verdicts = validate_corpus(store, ids, jobs=jobs)
    bad = [v.game_id for v in verdicts if not v.ok]
    assert not bad, bad
    store.close()


def import_all(path: Path, ids: list[str], target: Path) -> Callable[[], None]:
    store = Store(path, create=False)
    records = ["\n".join(export_lines(gid, store.header(gid), store.rows(gid))) for gid in ids]
    store.close()

    def run() -> None:
        target.unlink(missing_ok=True)
        into = Store(target)
        for text in records:
            import_text(into, text, None)
        into.close()

    return run


def positions(store: Store, game_id: str) -> tuple[int, float, float]:
    """``show --at N`` for every position of one game, one by one (state and its text picture): each
    from zero, as before snapshots (sampled, then scaled: it is quadratic), and through snapshots."""
    log = load(store, game_id)
    game = log.game
    n = len(log.rows)
    try:
        from solrec.replay.log import fold
    except ImportError:  # before snapshots, state_at folded from zero
        fold = state_at
    ats = list(range(0, n + 1, max(1, n // 300)))
    from_zero = clock(lambda: [game.render(fold(log, at)) for at in ats]) * (n + 1) / len(ats)
    try:
        from solrec.replay.log import Replay
    except ImportError:
        try:  # before Replay moved into replay/log.py
            from solrec.replay.snapshots import Replay  # type: ignore[no-redef]
        except ImportError:
            return n, from_zero, float("nan")

    def scrub() -> None:
        replay = Replay(load(store, game_id))  # a fresh load: the snapshots are built inside the timing
        for at in range(n + 1):
            game.render(replay.state_at(at))

    return n, from_zero, clock(scrub)


def longest_fixture(path: Path) -> tuple[str, str]:
    """The fixture with the most events, imported into the corpus: (its file, its game id)."""
    store = Store(path)
    best: tuple[int, str, str] = (-1, "", "")
    for fixture in sorted(FIXTURES.glob("*/*.jsonl")):
        gid = "fixture-" + fixture.parent.name + "-" + fixture.stem
        if not store.has_game(gid):
            import_text(store, fixture.read_text(), gid)
        best = max(best, (len(store.rows(gid)), gid, f"{fixture.parent.name}/{fixture.name}"))
    store.close()
    return best[2], best[1]


def breakdown(path: Path, ids: list[str], repeat: int) -> dict[str, float]:
    """Replay (2) built up part by part, each part's CPU time a multiple of the floor's (best of
    ``repeat`` rounds): where replay's time goes."""
    from solrec.events.store import STREAM_SQL
    from solrec.replay.corpus import stream_logs
    from solrec.replay.log import fold, integrity

    store = Store(path, create=False)
    where = " from events where game_id between ? and ? order by game_id, seq"

    def sql() -> None:
        for _ in store.conn.execute(STREAM_SQL + ", game_id" + where, [ids[0], ids[-1]]):
            pass

    def rows() -> None:
        for _ in store.stream_rows(ids[0], ids[-1]):
            pass

    def logs(upto: int) -> Callable[[], None]:
        def run() -> None:
            for _, log in stream_logs(store, ids):
                assert log is not None
                if upto >= 1:
                    integrity(log)
                if upto == 2:
                    log.events()
                if upto == 3:
                    fold(log)

        return run

    parts: dict[str, Callable[[], object]] = {
        "floor": lambda: floor(path, ids),
        "the rows' columns read (one query)": sql,
        "+ built into rows, types checked": rows,
        "+ games rows, headers, logs": logs(0),
        "+ hash chain, count and head verified": logs(1),
        "+ events decoded": logs(2),
        "+ events decoded and folded (= replay)": logs(3),
    }
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(repeat):
        for name, part in parts.items():
            best[name] = min(best[name], clock(part))
    store.close()
    return {name: t / best["floor"] for name, t in best.items()}


def jobs_run(path: Path, ids: list[str], jobs: int, repeat: int) -> tuple[float, float]:
    """``validate --all --jobs N``: (best elapsed time, CPU time of that run in every process, workers included)."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        before, start = os.times(), time.perf_counter()
        validate_all(path, ids, jobs)
        wall, after = time.perf_counter() - start, os.times()
        cpu = sum(after[:4]) - sum(before[:4])  # user + system, this process and its (reaped) workers
        best = min(best, (wall, cpu))
    return best


def _noop(_: int) -> None:
    return None


def jobs_schedule(path: Path, ids: list[str], jobs: int) -> tuple[float, float, float, float]:
    """The speed-up ``--jobs N`` gets on N free cores, from CPU times, whatever else the machine does:
    every range ``validate_corpus`` would hand a worker validated here in turn, as a worker does it
    (its own connection), its CPU time measured; the ranges dealt in order to whichever worker is free
    first, as the pool does; plus the measured CPU time of starting the pool.
    Returns (CPU time of all ranges, the last worker's finish, the largest range, the pool's start-up)."""
    from concurrent.futures import ProcessPoolExecutor

    from solrec.replay.corpus import SHARDS_PER_JOB, ValidateTask, run_file, shards

    store = Store(path, create=False)
    parts = shards(ids, store.recorded_event_counts(), jobs * SHARDS_PER_JOB)
    store.close()
    costs = [clock(lambda part=part: run_file(str(path), part, ValidateTask())) for part in parts]
    free = [0.0] * jobs
    for cost in costs:  # the pool hands the next range to the first worker to be free
        i = free.index(min(free))
        free[i] += cost
    before = os.times()
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_noop, range(jobs)))
    after = os.times()
    start_up = sum(after[:4]) - sum(before[:4])
    return sum(costs), max(free) + start_up / jobs, max(costs), start_up


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_ceiling(jobs: int) -> float:
    """The speed-up ``jobs`` processes get on pure arithmetic right now: what the shared machine allows."""
    from concurrent.futures import ProcessPoolExecutor

    n = 5_000_000
    start = time.perf_counter()
    for _ in range(jobs):
        _spin(n)
    serial = time.perf_counter() - start
    with ProcessPoolExecutor(jobs) as pool:
        start = time.perf_counter()
        list(pool.map(_spin, [n] * jobs))
        parallel = time.perf_counter() - start
    return serial / parallel


def chess_plies_per_second(games: int, seed: int) -> tuple[int, float] | None:
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    recorded: list[list[chess.Move]] = []
    for _ in range(games):
        board, moves = chess.Board(), []
        while not board.is_game_over(claim_draw=False) and len(moves) < 400:
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            moves.append(move)
        recorded.append(moves)
    plies = sum(len(m) for m in recorded)

    def replay() -> None:
        for moves in recorded:
            board = chess.Board()
            for move in moves:
                if not board.is_legal(move):
                    raise AssertionError(move)
                board.push(move)

    return plies, plies / clock(replay, 3)  # CPU time, as solrec's stages


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="corpus size as a multiple of GAMES")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers for the speed-up line")
    parser.add_argument("--chess-games", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--db", type=Path, help="keep the corpus in this file (reused when it exists)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per stage; the best is kept")
    parser.add_argument("--breakdown", action="store_true", help="also print replay built up part by part")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.db"
        print(f"corpus {path}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
        rows: list[tuple[str, int, int, list[float]]] = []
        replay_rates: dict[str, float] = {}
        all_ids: list[str] = []
        longest: tuple[int, str] = (0, "")
        for game in args.games.split(","):
            get_game(game)
            ids = corpus(path, game, max(1, round(GAMES.get(game, 10) * args.scale)), args.seed)
            all_ids += ids
            conn = sqlite3.connect(path)
            marks = ",".join("?" * len(ids))
            events = conn.execute(f"select count(*) from events where game_id in ({marks})", ids).fetchone()[0]
            for gid, n in conn.execute(
                f"select game_id, count(*) from events where game_id in ({marks}) group by game_id", ids
            ):
                longest = max(longest, (n, gid))
            conn.close()
            stages: list[Callable[[], object]] = [
                lambda: floor(path, ids),
                lambda: decode_all(path, ids),
                lambda: replay_all(path, ids),
                lambda: validate_all(path, ids),
                import_all(path, ids, Path(tmp) / "import.db"),
                lambda: replay_each(path, ids),
            ]
            # Round after round of every stage, the best of each kept: a stretch of other work on the
            # shared machine slows one round of all stages, not every run of one stage (the ratios).
            times = [float("inf")] * len(stages)
            for round_ in range(args.repeat):
                for i, stage in enumerate(stages):
                    if i == 4 and round_:  # import: one run (it writes a database)
                        continue
                    times[i] = min(times[i], clock(stage))
            if args.breakdown:
                for name, ratio in breakdown(path, ids, args.repeat).items():
                    print(f"    {game} {name}: {ratio:.2f}x the floor")
            replay_rates[game] = events / times[2]
            rows.append((game, len(ids), events, times))
            print(f"  {game}: {events:,} events in {len(ids)} games measured")

        print(f"\nload average {os.getloadavg()[0]:.1f} after the stages")
        head = f"{'game':<16}{'games':>6}{'events':>9}  {'(0) floor':>17}"
        head += "".join(f"{h:>22}" for h in ("(1) decode", "(2) replay", "(3) validate", "(4) import"))
        print(head + f"{'validate/replay':>17}{'(2b) replay game by game':>28}")
        for game, n, events, times in rows:
            line = f"{game:<16}{n:>6}{events:>9}  {events / times[0]:>9,.0f} ev/s 1.0x"
            line += "".join(f"{events / t:>12,.0f} ev/s {t / times[0]:>4.1f}x" for t in times[1:5])
            print(line + f"{times[3] / times[2]:>16.2f}x" + f"{events / times[5]:>16,.0f} ev/s {times[5] / times[0]:>4.1f}x")

        runs = {1: jobs_run(path, all_ids, 1, args.repeat), args.jobs: jobs_run(path, all_ids, args.jobs, args.repeat)}
        (one, one_cpu), (many, many_cpu) = runs[1], runs[args.jobs]
        print(
            f"\nvalidate --all over {len(all_ids)} games: --jobs 1 {one:.2f} s, --jobs {args.jobs} {many:.2f} s,"
            f" speed-up {one / many:.2f}x (load average {os.getloadavg()[0]:.1f}; {args.jobs} processes of pure"
            f" arithmetic get {machine_ceiling(args.jobs):.2f}x on this machine right now)"
        )
        print(
            f"  CPU time, all processes: --jobs 1 {one_cpu:.2f} s, --jobs {args.jobs} {many_cpu:.2f} s"
            f" ({many_cpu / one_cpu:.2f}x the work: start-up, forks, the merge); on {args.jobs} free cores the"
            f" speed-up would be {args.jobs * one_cpu / many_cpu:.2f}x less the largest range's tail"
        )

        total, finish, largest, start_up = jobs_schedule(path, all_ids, args.jobs)
        print(
            f"  on {args.jobs} free cores (from CPU times, whatever the load): the ranges cost"
            f" {total:.2f} s in all, the largest {largest:.2f} s, starting the pool {start_up:.3f} s; dealt to"
            f" {args.jobs} workers as the pool deals them, the last finishes at {finish:.2f} s:"
            f" speed-up {total / finish:.2f}x"
        )

        fixture, fixture_id = longest_fixture(path)
        store = Store(path, create=False)
        for what, gid in ((f"the longest fixture ({fixture})", fixture_id), (f"the longest game ({longest[1]})", longest[1])):
            n, zero, snap = positions(store, gid)
            print(
                f"show every position of {what}, {n} events, one by one: from zero {zero:.2f} s,"
                f" through snapshots {snap:.3f} s ({zero / snap:.0f}x)"
            )
        store.close()

        chess_rate = chess_plies_per_second(args.chess_games, args.seed)
        if chess_rate is None:
            print("python-chess is not installed (pip install -e '.[bench]'): no chess comparison")
        else:
            plies, rate = chess_rate
            print(f"python-chess: {plies:,} plies of {args.chess_games} random legal games, is_legal + push: {rate:,.0f} plies/s")
            for game, r in replay_rates.items():
                print(f"  {game:<16} replay {r:>10,.0f} events/s = {r / rate:.2f}x chess plies/s")


if __name__ == "__main__":
    main()
