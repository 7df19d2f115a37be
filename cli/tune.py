"""``solrec tune``: which options give games the measure asked for (docs/tune.md). The search is
``solrec.ai.tune`` (Optuna, the ``tune`` extra), each trial a balance run of one set
(``solrec.ai.balance``); this module checks the input, keeps the study in a SQLite file beside the
database (a re-run of the same question resumes it) and writes the report."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.errors import InvalidSetup
from solrec.core.words import quoted

from .app import Db, GameName, Json, command, emit, plural
from .balance import Cluster
from .errors import UsageRefused
from .impact import cluster_address

STUDY_SUFFIX = ".tune.sqlite"  # the study's file: the database's path with this added


def _extra() -> None:
    try:
        import numpy  # noqa: F401
        import optuna  # noqa: F401

        import solrec.ai.balance  # noqa: F401
    except ImportError as err:
        raise UsageRefused(f"tune needs the tune extra (pip install 'solrec[tune]'): {err}") from None


def study_path(db: Path) -> Path:
    return db.with_name(db.name + STUDY_SUFFIX)


@command("tune")
def tune_cmd(
    game_name: GameName,
    vary: Annotated[list[str], typer.Option("--vary", metavar="KEY=LO..HI", help="An option to search and its range (repeat): whole numbers where both bounds are, else real numbers.")],
    trials: Annotated[int, typer.Option("--trials", min=1, max=100_000, help="Option sets tried, in all (a re-run resumes the study and tries the rest).")],
    games_per_trial: Annotated[int, typer.Option("--games-per-trial", min=1, max=1_000_000, help="Games played by each trial (game k of every trial with the same seeds).")],
    target: Annotated[str | None, typer.Option("--target", metavar="METRIC=VALUE", help="Come as close as possible to this value of a measure (length, first-seat, or one of Ludii's measures).")] = None,
    minimize: Annotated[str | None, typer.Option("--minimize", metavar="METRIC", help="Make this measure as small as possible.")] = None,
    players: Annotated[int | None, typer.Option("--players", min=1, help="How many players (default: the game's own count).")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", metavar="KIND[:SETTINGS]", help="The bot of every seat, or one per seat (as balance); default greedy.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="A setup option every trial keeps (repeat the option).")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", min=1, max=1024, help="Worker processes on this machine playing each trial's games (default 1).")] = None,
    cluster: Cluster = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole study: the same seed, the same trials and report.")] = 0,
    max_moves: Annotated[int, typer.Option("--max-moves", min=1, help="A game not over after this many moves is counted as stuck.")] = 100_000,
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE", help="Write the trials as one self-contained page with plots.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Search option ranges (--vary) for the set whose bot games come closest to --target METRIC=VALUE
    or make --minimize METRIC smallest (Optuna). Each trial plays --games-per-trial games, paired with
    every other trial's; the best set is reported with its measured value and 95% interval. The
    study is kept beside the database (DB.tune.sqlite) and a re-run resumes it."""
    from solrec.core.options import parse_options, split_assignments
    from solrec.core.play import SEEDED, make_header
    from solrec.core.registry import get_game

    _extra()
    import attrs

    from solrec.ai import balance, tune
    from solrec.ai.bots import BotError

    address = cluster_address(cluster)
    if address is not None and jobs is not None:
        raise UsageRefused("give --jobs N or --cluster ADDRESS, not both")
    jobs = jobs or 1
    game = get_game(game_name)
    base = split_assignments(option or [])
    try:
        varies = [tune.parse_vary(v) for v in vary]
    except tune.TuneError as err:
        raise UsageRefused(str(err)) from None
    keys = {f.name for f in attrs.fields(game.Options)}
    for v in varies:
        if v.key not in keys:
            raise UsageRefused(f"--vary: {game.id} has no option {quoted(v.key)} (solrec games lists them)")
    if len({v.key for v in varies}) != len(varies):
        raise UsageRefused("--vary names an option twice")
    default = tuple(game.default_players_for(parse_options(game.Options, dict(base))))
    names = default if players is None or players == len(default) else tuple(f"Player {i}" for i in range(1, players + 1))
    try:
        goal = tune.parse_goal(target, minimize, len(names))
    except tune.TuneError as err:
        raise UsageRefused(str(err)) from None
    for v in varies:  # each bound a set the game takes (with the other ranges at their low ends)
        for end in (v.low, v.high):
            trial = {**base, **{w.key: tune.option_text(tune._plain(w.low, w.integer)) for w in varies},
                     v.key: tune.option_text(tune._plain(end, v.integer))}
            try:
                make_header(game, names, trial, SEEDED, 0)
            except InvalidSetup as err:
                raise InvalidSetup(f"--vary {v.key}: {err}") from None
    try:
        bots = balance.parse_bots(bot or [], len(names))
    except BotError as err:
        raise UsageRefused(str(err)) from None
    first = make_header(game, names, {**base, **{v.key: tune.option_text(tune._plain(v.low, v.integer)) for v in varies}},
                        SEEDED, 0)
    tabled = balance.has_table(game.id, first.options_dict(), names)
    if not tabled and not bot:
        bots = (balance.BotSpec(balance.SAMPLER),)
    probe = balance.Plan(game.id, tuple(names), bots, (first.options,), seed, max_moves, False, tabled)
    why = balance.refusal(probe)
    if why is not None:
        raise UsageRefused(why)
    if html is not None and not html.parent.is_dir():
        raise InvalidSetup(f"no folder {html.parent} to write {html.name} in")
    if html is not None and html.is_dir():
        raise InvalidSetup(f"{html} is a folder, not a file to write the page to")
    given = db is not None or bool(os.environ.get("SOLREC_DB"))
    if db is None:
        from solrec.events.store import default_db_path

        db = Path(default_db_path())
    if db.is_dir():
        raise InvalidSetup(f"--db {db} is a folder, not a database file")
    if not db.parent.is_dir():
        if given:
            raise InvalidSetup(f"no folder {db.parent} to keep the study in")
        db.parent.mkdir(parents=True, exist_ok=True)  # the default database's folder, as the store makes it

    inputs = {"game": game.id, "players": list(names), "bots": [str(b) for b in bots], "options": dict(sorted(base.items())),
              "vary": [v.as_dict() for v in varies], "goal": goal.as_dict(), "games_per_trial": games_per_trial,
              "seed": seed, "max_moves": max_moves}
    name = tune.study_name(inputs)
    path = study_path(db)
    study, done = _open_study(path, name, varies, trials, seed)
    grid = tune.grid_of(varies, trials)
    wanted = trials if grid is None else min(trials, _grid_size(grid))  # a grid: each of its sets once

    def run(plan: Any, games: int) -> Any:
        return balance.run(plan, games, jobs, address)

    def objective(trial: Any) -> float:
        values = tune.suggest(trial, varies)
        options = {**base, **{k: tune.option_text(v) for k, v in values.items()}}
        header = make_header(game, names, options, SEEDED, 0)
        plan = balance.Plan(game.id, tuple(names), bots, (header.options,), seed, max_moves, False, tabled)
        measured = tune.measure_of(plan, games_per_trial, goal, run)
        score = goal.objective(measured["value"])
        for key, value in measured.items():
            trial.set_user_attr(key, value)
        trial.set_user_attr("options", values)
        return score

    import optuna

    for number in range(done, wanted):
        study.sampler = tune.sampler(varies, trials, seed, number)
        if grid is not None:
            study.enqueue_trial(tune.grid_point(grid, number))
        study.optimize(objective, n_trials=1, catch=())
        last = study.trials[-1]
        _progress(number + 1, wanted, last, goal)
    finished = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE][:wanted]
    history = [_trial_entry(i, t) for i, t in enumerate(finished)]
    best = min(history, key=lambda h: (float("inf") if h["objective"] is None else h["objective"], h["trial"]))
    data: dict[str, Any] = {
        **{k: inputs[k] for k in ("game", "players", "bots", "options", "vary", "goal", "games_per_trial", "seed", "max_moves")},
        "trials": wanted, "sampler": "grid" if grid is not None else "tpe",
        "study": {"name": name, "storage": str(path), "resumed_from": done},
        "best": best, "history": history,
    }
    if html is not None:
        from solrec.ai.tune_page import page

        html.write_text(page(data), encoding="utf-8")
        data["wrote"] = str(html)
    emit(as_json, data, "\n".join(report_lines(data)))


def _grid_size(grid: dict[str, list[int]]) -> int:
    size = 1
    for values in grid.values():
        size *= len(values)
    return size


def _open_study(path: Path, name: str, varies: Any, trials: int, seed: int) -> tuple[Any, int]:
    """The study named ``name`` in the SQLite file at ``path`` (made if new): its trials finished so
    far; a trial a stopped run left running is marked failed, so it is tried again."""
    import logging
    import warnings

    import optuna

    from solrec.ai import tune

    optuna.logging.set_verbosity(logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    storage = optuna.storages.RDBStorage(f"sqlite:///{path}")
    study = optuna.create_study(study_name=name, storage=storage, direction="minimize", load_if_exists=True,
                                sampler=tune.sampler(varies, trials, seed, 0))
    for t in study.get_trials(deepcopy=False):
        if t.state == optuna.trial.TrialState.RUNNING:
            storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    done = sum(1 for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE)
    return study, done


def _trial_entry(index: int, trial: Any) -> dict[str, Any]:
    attrs_ = trial.user_attrs
    objective = trial.value
    return {"trial": index + 1, "options": dict(attrs_["options"]), "value": attrs_["value"], "interval": attrs_["interval"],
            "objective": None if objective is None or objective == float("inf") else round(float(objective), 4),
            "length": attrs_["length"], "first_seat": attrs_["first_seat"]}


def _progress(number: int, wanted: int, trial: Any, goal: Any) -> None:
    options = ", ".join(f"{k}={v}" for k, v in trial.user_attrs.get("options", {}).items())
    value = trial.user_attrs.get("value")
    typer.echo(f"trial {number}/{wanted}: {options} -> {goal.metric} {'n/a' if value is None else f'{value:g}'}",
               err=True)
    sys.stderr.flush()


def report_lines(data: dict[str, Any]) -> list[str]:
    goal = data["goal"]
    aim = f"{goal['metric']} = {goal['target']:g}" if "target" in goal else f"{goal['metric']} as small as possible"
    ranges = ", ".join(f"{v['key']} {v['low']}..{v['high']}" for v in data["vary"])
    lines = [f"{data['game']} tune: {aim}; {ranges}; {plural(data['trials'], 'trial')} ({data['sampler']}) of "
             f"{plural(data['games_per_trial'], 'game')}; {', '.join(data['players'])}; bots {', '.join(data['bots'])}; "
             f"seed {data['seed']}"]
    best = data["best"]
    chosen = ", ".join(f"{k}={v}" for k, v in best["options"].items())
    iv = best["interval"]
    lines.append(f"best: {chosen} (trial {best['trial']}): {goal['metric']} {_num(best['value'])}"
                 + (f" [{iv[0]:g}, {iv[1]:g}]" if iv else ""))
    lines.append("== trials (value, 95% interval)")
    for h in data["history"]:
        iv = h["interval"]
        lines.append(f"  {h['trial']}: " + ", ".join(f"{k}={v}" for k, v in h["options"].items())
                     + f" -> {_num(h['value'])}" + (f" [{iv[0]:g}, {iv[1]:g}]" if iv else ""))
    lines.append(f"study {data['study']['name']} in {data['study']['storage']}"
                 + (f" (resumed after {plural(data['study']['resumed_from'], 'trial')})" if data["study"]["resumed_from"] else ""))
    if "wrote" in data:
        lines.append(f"wrote {data['wrote']}")
    return lines


def _num(x: Any) -> str:
    return "n/a" if x is None else f"{x:g}"
