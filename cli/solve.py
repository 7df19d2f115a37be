"""``solrec solve``: ask a game's solver (game-agnostic; a game offers one through ``Game.solve`` and
``Game.survey``).

- ``solrec solve ID``: from the current position of a stored game, can it still be won, and how. An
  answer derived from what the players cannot see (a seeded deck's order) reveals it, so it follows
  the rule of the hidden information itself: while the game runs, only with ``--reveal``; without it
  the answer rests on what the players see (the game's solver decides what that allows).
- ``solrec solve GAME --deals N --seed S``: a survey of N seeded deals of a registered game.

The one argument is read as a registered game name when ``--deals`` is given, otherwise as the id of
a stored game. ``--seed`` without ``--deals``, and ``--reveal`` with it, are refused. Exit codes: 0 answered (whatever the
verdict, "undecided" included), 2 bad input (unknown id or game, a game without a solver).
"""

from __future__ import annotations

import sys
import time
from typing import Annotated

import typer

from .app import Db, Json, command, emit
from .errors import Unsupported, UsageRefused

DEFAULT_BUDGET = 100_000


def _percent(n: int, of: int) -> str:
    return f"{100 * n / of:.1f}%" if of else "-"


@command("solve")
def solve_cmd(
    target: Annotated[str, typer.Argument(metavar="ID|GAME", help="A stored game's id, or with --deals a game name.")],
    deals: Annotated[int | None, typer.Option("--deals", min=1, help="Survey this many seeded deals of GAME.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the survey (with --deals; default 0).")] = None,
    budget: Annotated[int, typer.Option("--budget", min=1, help="Node budget: positions searched per deal or position.")] = DEFAULT_BUDGET,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="Let the solver use what the players cannot see while the game runs (a seeded deck's order).",
    )] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Can this game still be won (and how)? With --deals: how many seeded deals can be won."""
    if deals is None:
        if seed is not None:
            raise UsageRefused("--seed chooses the deals of a survey: give --deals N too")
        _solve_one(target, budget, reveal, db, as_json)
    else:
        if reveal:
            raise UsageRefused("--reveal is for a stored game: a survey's solver always knows its deals' stock order")
        _survey(target, deals, seed or 0, budget, as_json)


def _solve_one(game_id: str, budget: int, reveal: bool, db, as_json: bool) -> None:
    from solrec.core.observe import Viewer
    from solrec.replay.log import load, state_at

    from . import session

    log = load(session.open_store(db), game_id)
    game = log.game
    state = state_at(log)
    started = time.perf_counter()
    report = game.solve(state, budget, Viewer.of(None, reveal))
    seconds = time.perf_counter() - started
    if report is None:
        raise Unsupported(f"{game.title} has no solver")
    data = {"id": game_id, "game": game.id, "position": len(log.rows), **report.as_dict(), "seconds": round(seconds, 3)}
    lines = [
        f"{game_id} after move {log.rows[-1].step + 1 if log.rows else 0}: {report.verdict} "
        f"({report.positions} positions searched, budget {report.budget})"
    ]
    if report.note:
        lines.append(report.note)
    if report.verdict == "undecided":
        lines.append("the node budget ran out before an answer: try a larger --budget")
    if report.line:
        lines.append(f"winning line ({len(report.line)} commands):")
        lines.extend(f"  {c}" for c in report.line)
    emit(as_json, data, "\n".join(lines))


def _survey(game_name: str, deals: int, seed: int, budget: int, as_json: bool) -> None:
    from solrec.core.registry import get_game

    game = get_game(game_name)
    started = time.perf_counter()
    if as_json or not sys.stderr.isatty():
        data = game.survey(deals, seed, budget, None)
    else:
        with typer.progressbar(length=deals, label=f"solving {game.id} deals", file=sys.stderr) as bar:
            data = game.survey(deals, seed, budget, bar.update)
    seconds = time.perf_counter() - started
    if data is None:
        raise Unsupported(f"{game.title} has no solver")
    data = {**data, "seconds": round(seconds, 3),
            "positions_per_second": round(data.get("positions", 0) / seconds) if seconds > 0 else None}
    n = data["deals"]
    lines = [
        f"{game.id}: {n} seeded deals from seed {seed}, node budget {budget} per deal",
        f"  winnable with perfect play:   {data['winnable']:>6} ({_percent(data['winnable'], n)})",
        f"  proven unwinnable:            {data['unwinnable']:>6} ({_percent(data['unwinnable'], n)})",
        f"  undecided (budget ran out):   {data['undecided']:>6} ({_percent(data['undecided'], n)})",
        f"  won by the forced plays alone:{data['forced_won']:>6} ({_percent(data['forced_won'], n)})",
        f"  won by the greedy player:     {data['greedy_won']:>6} ({_percent(data['greedy_won'], n)})",
        f"  positions searched: {data['positions']} in {seconds:.1f} s",
    ]
    undecided = [r for r in data.get("rows", []) if r["verdict"] == "undecided"]
    if undecided:
        lines.append("  undecided deals (solrec new " + game.id + " --seed S): "
                     + " ".join(str(r["seed"]) for r in undecided[:20]) + (" ..." if len(undecided) > 20 else ""))
    if data.get("note"):
        lines.append(data["note"])
    emit(as_json, data, "\n".join(lines))
