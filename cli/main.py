"""The ``solrec`` command line (Typer).

Exit codes: 0 fine; 1 a validation or stored-data problem was found; 2 bad input (a one-line reason
on stderr, nothing written); 3 an internal error (a bug: please report it). No traceback reaches
the user.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError
from solrec.core.game import CHANCE
from solrec.core.options import describe_options, split_assignments
from solrec.core.registry import games as registered_games
from solrec.core.registry import get_game
from solrec.events.codec import to_plain
from solrec.events.record import export_lines
from solrec.replay.diff import diff as diff_logs
from solrec.replay.diff import format_diff
from solrec.replay.explain import explain, format_explanation
from solrec.replay.log import check_position, load, state_at, walk

from . import session
from .guard import OneLineGroup, check_arguments, one_line

EXIT_OK, EXIT_PROBLEM, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    name="solrec",
    help="Record, replay, validate and explain games of Solari, Solar Solitaire, SOLI2, Solarius Mission and Solo Dice.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=OneLineGroup,
)

Db = Annotated[
    Path | None,
    typer.Option("--db", envvar="SOLREC_DB", help="SQLite database (default: ~/.local/share/solrec/solrec.db)."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    typer.echo(f"solrec: {one_line(message)}", err=True)
    raise typer.Exit(code)


def handled(func: Callable) -> Callable:
    """Turn every error into one line on stderr and an exit code; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            check_arguments(kwargs.values())
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except CorruptLog as err:
            fail(f"stored data problem: {err}", EXIT_PROBLEM)
        except SolrecError as err:
            fail(str(err), EXIT_BAD_INPUT)
        except OSError as err:
            fail(f"{err.strerror or err}: {getattr(err, 'filename', '') or ''}".rstrip(": "), EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            fail("interrupted", EXIT_BAD_INPUT)
        except RecursionError:
            fail("the input is nested too deeply", EXIT_BAD_INPUT)
        except Exception as err:  # a bug: still no traceback, but a distinct code
            fail(f"internal error ({type(err).__name__}: {err}); please report it", EXIT_INTERNAL)

    return wrapper


def command(*args: Any, **kwargs: Any) -> Callable:
    def register(func: Callable) -> Callable:
        return app.command(*args, **kwargs)(handled(func))

    return register


def emit(as_json: bool, data: Any, text: str) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def _steps_data(game, steps) -> list[dict]:
    """What live output shows of the steps just played: public notation only (nothing hidden)."""
    return [
        {"actor": s.actor, "command": game.public_notation(s.command), "events": [game.describe_event(e) for e in s.events]}
        for s in steps
    ]


def _steps_text(game, steps) -> str:
    return "\n".join(f"{d['actor']}: {d['command']}  ->  " + "; ".join(d["events"]) for d in _steps_data(game, steps))


def _status(log) -> dict[str, Any]:
    game = log.game
    state = state_at(log)
    outcome = game.outcome(state)
    return {
        "id": log.game_id,
        "game": game.id,
        "position": len(log.rows),
        "to_act": game.to_act(state),
        "scores": dict(game.score(state).totals),
        "outcome": outcome.as_dict() if outcome else None,
    }


def _status_text(status: dict[str, Any]) -> str:
    if status["outcome"]:
        return f"{status['id']}: game over. {status['outcome']['reason']}"
    return f"{status['id']}: position {status['position']}, {status['to_act']} to act"


# -- commands ------------------------------------------------------------------------------------


@command("games")
def games_cmd(db: Db = None, as_json: Json = False) -> None:
    """List the games solrec knows, with their options."""
    data: list[dict[str, Any]] = [
        {
            "id": g.id,
            "title": g.title,
            "rules": g.rules_version,
            "rule_text": g.rule_text,
            "players": [g.min_players, g.max_players],
            "options": describe_options(g.Options),
        }
        for g in registered_games().values()
    ]
    lines = []
    for d in data:
        span = d["players"][0] if d["players"][0] == d["players"][1] else f"{d['players'][0]}-{d['players'][1]}"
        plural = "" if d["players"] == [1, 1] else "s"
        lines.append(f"{d['id']:<18} {d['title']} ({span} player{plural}, rules {d['rules']}, text {d['rule_text']})")
        for o in d["options"]:
            choices = f" [{'|'.join(map(str, o['choices']))}]" if o["choices"] else ""
            lines.append(f"    {o['name']}={o['default']}{choices}  {o['help']}")
    emit(as_json, data, "\n".join(lines))


@command("new")
def new_cmd(
    game: Annotated[str, typer.Argument(help="Game id, see `solrec games`.")],
    player: Annotated[list[str] | None, typer.Option("--player", "-p", help="A player, in seating order.")] = None,
    seed: Annotated[int | None, typer.Option(help="Draw chance from this seed.")] = None,
    entered: Annotated[bool, typer.Option("--entered", help="Chance is typed in from a real table.")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="KEY=VALUE setup option.")] = None,
    game_id: Annotated[str | None, typer.Option("--id", help="The new game's id.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Start a game (seeded chance by default, with a random seed unless --seed)."""
    options = split_assignments(option or [])
    store = session.open_store(db, create=True)
    gid, steps, log = session.new_game(store, game, player or [], options, seed, entered, game_id)
    status = _status(log)
    data = {**status, "header": log.header.as_dict(), "steps": _steps_data(log.game, steps)}
    text = f"created {gid} ({log.game.title}, chance {log.header.chance}"
    text += f", seed {log.header.seed})" if log.header.seed is not None else ")"
    if steps:
        text += "\n" + _steps_text(log.game, steps)
    emit(as_json, data, text + "\n" + _status_text(status))


@command("play")
def play_cmd(
    game_id: Annotated[str, typer.Argument(metavar="ID")],
    words: Annotated[list[str], typer.Argument(metavar="COMMAND...", help="A command in the game's notation; several are separated by ';'.")],
    actor: Annotated[str | None, typer.Option("--actor", help="Refuse unless this player (or 'chance') is to act.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Play commands in the game's notation as whoever is to act (chance included)."""
    texts = [t.strip() for t in " ".join(words).split(";") if t.strip()]
    store = session.open_store(db)
    steps, log = session.play_commands(store, game_id, texts, actor)
    status = _status(log)
    emit(as_json, {**status, "steps": _steps_data(log.game, steps)}, _steps_text(log.game, steps) + "\n" + _status_text(status))


@command("legal")
def legal_cmd(game_id: Annotated[str, typer.Argument(metavar="ID")], db: Db = None, as_json: Json = False) -> None:
    """List every legal command of whoever is to act."""
    log = load(session.open_store(db), game_id)
    game = log.game
    state = state_at(log)
    to_act = game.to_act(state)
    legal = game.legal_commands(state)
    commands = None if legal is None else [game.format(c) for c in legal]
    data = {"id": game_id, "to_act": to_act, "enumerable": legal is not None, "commands": commands}
    if to_act is None:
        text = "the game is over: no legal command"
    elif commands is None:
        who = "chance" if to_act == CHANCE else to_act
        text = f"{who} is to act; the choices here are not enumerable"
        if to_act == CHANCE and log.header.chance != "entered":
            text += " (chance acts from the seed)"
    else:
        text = f"{to_act} to act, {len(commands)} legal:\n" + "\n".join(f"  {c}" for c in commands)
    emit(as_json, data, text)


@command("show")
def show_cmd(
    game_id: Annotated[str, typer.Argument(metavar="ID")],
    at: Annotated[int | None, typer.Option("--at", help="Position (number of events); default the end.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Render the state at a position."""
    log = load(session.open_store(db), game_id)
    game = log.game
    position = check_position(log, at)
    state = state_at(log, position)
    plain = to_plain(state)
    outcome = game.outcome(state)
    data: dict[str, Any] = {
        "id": game_id,
        "position": position,
        "to_act": game.to_act(state),
        "state": plain if reveal else game.public(plain),
        "text": game.render(state, reveal),
        "scores": dict(game.score(state).totals),
        "outcome": outcome.as_dict() if outcome else None,
    }
    emit(as_json, data, f"{game_id} at position {position}\n{data['text']}")


@command("log")
def log_cmd(game_id: Annotated[str, typer.Argument(metavar="ID")], db: Db = None, as_json: Json = False) -> None:
    """List the stored events with their commands and hashes."""
    log = load(session.open_store(db), game_id)
    game = log.game
    events = log.events()
    data: dict[str, Any] = {
        "id": game_id,
        "header": log.header.as_dict(),
        "events": [
            {
                "seq": r.seq, "step": r.step, "actor": r.actor, "command": r.command, "type": r.type,
                "version": r.version, "data": to_plain(e), "text": game.describe_event(e), "hash": r.hash,
                "time": r.time,
            }
            for r, e in zip(log.rows, events)
        ],
    }
    lines = [f"{game_id}: {json.dumps(log.header.as_dict())}"]
    for item in data["events"]:
        lines.append(
            f"{item['seq']:>5} {item['step']:>4}  {item['actor']:<10} {item['command']:<22} {item['text']}  {item['hash'][:12]}"
        )
    emit(as_json, data, "\n".join(lines))


@command("score")
def score_cmd(
    game_id: Annotated[str, typer.Argument(metavar="ID")],
    at: Annotated[int | None, typer.Option("--at", help="Position (number of events); default the end.")] = None,
    explain_: Annotated[bool, typer.Option("--explain", help="Every line of the score sheet with its rule.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Print the scores (and the outcome once the game is over)."""
    log = load(session.open_store(db), game_id)
    data = explain(log, at)
    if not explain_:
        data = {k: v for k, v in data.items() if k != "lines"}
    if explain_:
        text = format_explanation(data)
    else:
        text = "\n".join(f"{p}: {t}" for p, t in data["scores"].items())
        if data["outcome"]:
            text += f"\n{data['outcome']['reason']}"
    emit(as_json, data, text)


@command("replay")
def replay_cmd(
    game_id: Annotated[str, typer.Argument(metavar="ID")],
    to: Annotated[int | None, typer.Option("--to", help="Stop after this many events.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Replay the log command by command, with the scores after each, then show the state."""
    log = load(session.open_store(db), game_id)
    game = log.game
    end = check_position(log, to)
    steps: list[dict[str, Any]] = []
    state, position = state_at(log, 0), 0
    for group, events, after in walk(log):
        if position >= end:
            break
        take = min(len(events), end - position)
        if take < len(events):
            after = state_at(log, position + take)
        position += take
        state = after
        steps.append(
            {
                "position": position, "actor": group[0].actor, "command": group[0].command,
                "events": [game.describe_event(e) for e in events[:take]],
                "scores": dict(game.score(state).totals),
            }
        )
    outcome = game.outcome(state)
    data: dict[str, Any] = {"id": game_id, "position": position, "steps": steps, "text": game.render(state),
            "scores": dict(game.score(state).totals), "outcome": outcome.as_dict() if outcome else None}
    lines = [
        f"{s['position']:>5}  {s['actor']}: {s['command']}  ->  {'; '.join(s['events'])}  "
        + " ".join(f"[{p} {t}]" for p, t in s["scores"].items())
        for s in steps
    ]
    emit(as_json, data, "\n".join(lines + ["", data["text"]]))


@command("diff")
def diff_cmd(
    a: Annotated[str, typer.Argument(metavar="ID_A")],
    b: Annotated[str, typer.Argument(metavar="ID_B")],
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Where two logs first differ: events side by side, and the difference of states and score sheets."""
    store = session.open_store(db)
    result = diff_logs(load(store, a), load(store, b))
    emit(as_json, result, format_diff(result))


@command("validate")
def validate_cmd(
    ids: Annotated[list[str] | None, typer.Argument(metavar="[ID]...")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Validate every game in the database.")] = False,
    db: Db = None,
    as_json: Json = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, help="Worker processes for --all (default: every CPU; 1 for a small database)."),
    ] = None,
) -> None:
    """Check hash chains, re-decide every command under the current rules, recompute the scores."""
    if all_ and ids:
        raise InvalidSetup("name games or use --all, not both")
    if not all_ and not ids:
        raise InvalidSetup("name the games to validate, or use --all")
    store = session.open_store(db)
    verdicts = session.validate_games(store, None if all_ else list(ids or []), jobs)
    bad = [v for v in verdicts if not v.ok]
    data = {"valid": len(verdicts) - len(bad), "invalid": len(bad), "games": [v.as_dict() for v in verdicts]}
    lines = [v.line() for v in verdicts] if len(verdicts) <= 50 or bad else []
    if len(verdicts) > 50:
        lines = [v.line() for v in bad]
    lines.append(f"{len(verdicts) - len(bad)} valid, {len(bad)} invalid")
    emit(as_json, data, "\n".join(lines))
    if bad:
        raise typer.Exit(EXIT_PROBLEM)


@command("export")
def export_cmd(
    game_id: Annotated[str, typer.Argument(metavar="ID")],
    events: Annotated[bool, typer.Option("--events", help="Add each command's events and hashes.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    db: Db = None,
) -> None:
    """Write the game as a JSON Lines record (docs/record-format.md)."""
    store = session.open_store(db)
    log = load(store, game_id)
    text = "\n".join(export_lines(game_id, log.header, log.rows, with_events=events)) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@command("import")
def import_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A JSON Lines record, or - for stdin.")],
    game_id: Annotated[str | None, typer.Option("--id", help="Store under this id.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Decide every command of a record in turn, as live play would, and store the game."""
    text = session.read_record(file)
    store = session.open_store(db, create=True)
    gid, steps = session.import_text(store, text, game_id)
    events = sum(len(s.events) for s in steps)
    emit(as_json, {"id": gid, "commands": len(steps), "events": events}, f"imported {gid}: {len(steps)} commands, {events} events")


@command("simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="Game id.")],
    count: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
    player: Annotated[list[str] | None, typer.Option("--player", "-p")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="KEY=VALUE setup option.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Play games between random legal players and record every one."""
    options = split_assignments(option or [])
    get_game(game)
    store = session.open_store(db, create=True)
    if as_json or not sys.stderr.isatty():
        ids = session.simulate_games(store, game, count, seed, player or [], options)
    else:
        with typer.progressbar(length=count, label=f"simulating {game}", file=sys.stderr) as bar:
            ids = session.simulate_games(store, game, count, seed, player or [], options, bar.update)
    data = {"game": game, "games": len(ids), "ids": ids}
    span = f"{ids[0]} .. {ids[-1]}" if len(ids) > 1 else ids[0]
    emit(as_json, data, f"recorded {len(ids)} simulated {game} games: {span}")


def run() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    run()
from . import seal, solve  # noqa: E402,F401
