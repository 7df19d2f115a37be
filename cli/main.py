"""The ``solrec`` command line (Typer).

Exit codes: 0 fine; 1 a validation or stored-data problem was found, or ``diff`` found the logs
differ; 2 bad input (a one-line reason on stderr, nothing written); 3 an internal error (a bug:
please report it); 130 interrupted (Ctrl-C). No traceback and no boxed panel reaches the user. With
``--json`` an error is also a JSON object on stdout: ``{"error": {"code", "kind", "reason"}}``.

The CLI is typed once per move, so start-up is kept cheap: only Typer and the kernel's error types
are imported here; each command imports what it uses, and the registry imports only the game used.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from solrec.core.errors import CorruptLog, InvalidSetup, SolrecError

from . import params
from .guard import check_arguments, one_line

params.install()

EXIT_OK, EXIT_PROBLEM, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
VERSION = "0.1.0"

# The error's class -> the "kind" of a JSON error object (the first match along the class's MRO).
_KINDS = {
    "CorruptLog": "stored-data",
    "AmbiguousCommand": "ambiguous",
    "InvalidCommand": "invalid",
    "IllegalCommand": "illegal",
    "WrongActor": "wrong-actor",
    "InvalidSetup": "invalid-setup",
    "InvalidRecord": "invalid-record",
    "UnknownGameId": "unknown-id",
    "ConcurrencyConflict": "conflict",
    "NotASolrecDatabase": "not-a-database",
    "StoreError": "store",
    "SimulationError": "simulation",
}
_LONG_QUOTE = re.compile(r"(?<!\w)'(?:[^'\\]|\\.){60,}'(?!\w)|(?<!\w)\"(?:[^\"\\]|\\.){60,}\"(?!\w)")
_MAX_LINE = 400


def _shorten_quotes(message: str) -> str:
    """An overlong input quoted in a reason is quoted shortened, so the reason stays one short line."""
    def cut(match: re.Match[str]) -> str:
        quoted = match.group(0)
        return f"{quoted[:40]}...{quoted[0]} ({len(quoted) - 2} characters)"

    message = _LONG_QUOTE.sub(cut, " ".join(message.split()))
    return message if len(message) <= _MAX_LINE else message[: _MAX_LINE - 3] + "..."


def refuse(message: str, code: int, kind: str, as_json: bool) -> None:
    """The one line on stderr (and, with --json, the error object on stdout); then exit."""
    message = _shorten_quotes(one_line(message))
    if as_json:
        typer.echo(json.dumps({"error": {"code": code, "kind": kind, "reason": message}}, ensure_ascii=False))
    typer.echo(f"solrec: {message}", err=True)
    raise typer.Exit(code)


def _kind(err: BaseException) -> str:
    for cls in type(err).__mro__:
        if cls.__name__ in _KINDS:
            return _KINDS[cls.__name__]
    return "refused"


class SolrecGroup(TyperGroup):
    """What Typer itself rejects (an unknown option, a non-integer ``--at``, ``--games 0``) is one
    line and exit 2 as well, never a boxed panel; Ctrl-C is exit 130."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        from typer._click import exceptions as click_errors

        argv = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in argv
        try:
            try:
                rv = super().main(args=argv, prog_name=prog_name or "solrec", complete_var=complete_var,
                                  standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
                code = rv if isinstance(rv, int) else EXIT_OK
            except click_errors.UsageError as err:
                if type(err).__name__ == "NoArgsIsHelpError":  # bare `solrec`: the help, not a refusal
                    typer.echo(err.format_message())
                    raise typer.Exit(EXIT_OK) from None
                where = err.ctx.command_path if err.ctx is not None else "solrec"
                message = err.format_message().rstrip(".")
                message = message[:1].lower() + message[1:]
                refuse(f"{message} (see '{where} --help')", EXIT_BAD_INPUT, "usage", as_json)
            except typer.Abort:
                refuse("interrupted", EXIT_INTERRUPTED, "interrupted", as_json)
            except click_errors.ClickException as err:
                refuse(err.format_message(), err.exit_code, "usage", as_json)
            except KeyboardInterrupt:
                refuse("interrupted", EXIT_INTERRUPTED, "interrupted", as_json)
        except typer.Exit as done:
            code = done.exit_code
        if standalone_mode:
            sys.exit(code)
        return code


def _version(value: bool) -> None:
    if value:
        typer.echo(f"solrec {VERSION}")
        raise typer.Exit(EXIT_OK)


app = typer.Typer(
    name="solrec",
    cls=SolrecGroup,
    help="Record, replay, validate and explain games of Solari, Solar Solitaire, SOLI2, Solarius Mission and Solo Dice.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags shown as flags, and no rich import on the common path
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_version, help="Print the version and exit.")
    ] = False,
) -> None:
    """Record, replay, validate and explain games of Solari, Solar Solitaire, SOLI2, Solarius Mission and Solo Dice.

    Positions count events applied: 0 is the set-up position. Exit codes: 0 fine, 1 a problem found
    (or the logs differ), 2 bad input, 3 a bug, 130 interrupted.
    """


def complete_game_id(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the ids of the games stored in the database (--db, SOLREC_DB or the default)."""
    import sqlite3

    from solrec.events.store import default_db_path

    db = ctx.params.get("db") or default_db_path()
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = conn.execute("select id from games where id like ? order by id", [incomplete + "%"]).fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []
    return [r[0] for r in rows]


def complete_game_name(incomplete: str) -> list[str]:
    from solrec.core.registry import game_ids

    return [g for g in game_ids() if g.startswith(incomplete)]


Db = Annotated[
    Path | None,
    typer.Option("--db", envvar="SOLREC_DB", help="SQLite database (default: ~/.local/share/solrec/solrec.db)."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text (errors too, as {\"error\": ...}).")]
GameId = Annotated[str, typer.Argument(metavar="ID", help="A stored game's id (see `solrec list`).",
                                       autocompletion=complete_game_id)]
GameName = Annotated[str, typer.Argument(metavar="GAME", help="A game, see `solrec games`.",
                                         autocompletion=complete_game_name)]
Reveal = Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see while the game runs.")]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    refuse(message, code, "stored-data" if code == EXIT_PROBLEM else "refused", False)


def handled(func: Callable) -> Callable:
    """Turn every error into one line on stderr (and a JSON object with --json) and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json", False))
        try:
            check_arguments(kwargs.values())
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except CorruptLog as err:
            refuse(f"stored data problem: {err}", EXIT_PROBLEM, "stored-data", as_json)
        except SolrecError as err:
            refuse(str(err), EXIT_BAD_INPUT, _kind(err), as_json)
        except OSError as err:
            reason = f"{err.strerror or err}: {getattr(err, 'filename', '') or ''}".rstrip(": ")
            refuse(reason, EXIT_BAD_INPUT, "io", as_json)
        except KeyboardInterrupt:
            refuse("interrupted", EXIT_INTERRUPTED, "interrupted", as_json)
        except RecursionError:
            refuse("the input is nested too deeply", EXIT_BAD_INPUT, "refused", as_json)
        except Exception as err:  # a bug: still no traceback, but a distinct code
            refuse(f"internal error ({type(err).__name__}: {err}); please report it", EXIT_INTERNAL, "internal", as_json)

    return wrapper


def command(*args: Any, **kwargs: Any) -> Callable:
    def register(func: Callable) -> Callable:
        return app.command(*args, **kwargs)(handled(func))

    return register


def emit(as_json: bool, data: Any, text: str) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 event``, ``3 events``; ``many`` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _session():
    from . import session

    return session


def _steps_data(game, steps) -> list[dict]:
    """What live output shows of the steps just played: public notation only (nothing hidden)."""
    return [
        {"actor": s.actor, "command": game.public_notation(s.command), "events": [game.describe_event(e) for e in s.events]}
        for s in steps
    ]


def _steps_text(game, steps) -> str:
    return "\n".join(f"{d['actor']}: {d['command']}  ->  " + "; ".join(d["events"]) for d in _steps_data(game, steps))


def _status(log, state=None) -> dict[str, Any]:
    from solrec.replay.log import state_at

    game = log.game
    state = state_at(log) if state is None else state
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


def _load(db: Path | None, game_id: str):
    from solrec.replay.log import load

    return load(_session().open_store(db), game_id)


class Hiding:
    """Whether a reading command hides what the players cannot see: while the game runs and without
    ``--reveal``. After the game ends everything may be shown."""

    def __init__(self, log, final_state, reveal: bool):
        self.game = log.game
        self.on = not reveal and self.game.outcome(final_state) is None

    def command(self, text: str) -> str:
        return self.game.public_command_text(text) if self.on else text

    def event(self, event, plain: dict) -> dict:
        return self.game.public_event(event, plain) if self.on else plain

    def state(self, plain: dict) -> dict:
        return self.game.public(plain) if self.on else plain


# -- commands ------------------------------------------------------------------------------------


@command("games")
def games_cmd(db: Db = None, as_json: Json = False) -> None:
    """List the games solrec knows, with their options."""
    from solrec.core.options import describe_options
    from solrec.core.registry import games as registered_games

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
        noun = "player" if d["players"] == [1, 1] else "players"
        lines.append(f"{d['id']:<18} {d['title']} ({span} {noun}, rules {d['rules']}, text {d['rule_text']})")
        for o in d["options"]:
            choices = f" [{'|'.join(map(str, o['choices']))}]" if o["choices"] else ""
            lines.append(f"    {o['name']}={o['default']}{choices}  {o['help']}")
    emit(as_json, data, "\n".join(lines))


@command("new")
def new_cmd(
    game: GameName,
    player: Annotated[list[str] | None, typer.Option("--player", "-p", metavar="NAME", help="A player, in seating order (repeat the option).")] = None,
    seed: Annotated[int | None, typer.Option(help="Draw chance from this seed (default: a random seed, recorded).")] = None,
    entered: Annotated[bool, typer.Option("--entered", help="Chance is typed in from a real table.")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="KEY=VALUE setup option (see `solrec games`).")] = None,
    game_id: Annotated[str | None, typer.Option("--id", help="The new game's id (default: GAME-N).")] = None,
    components: Annotated[Path | None, typer.Option("--components", help="A component set (folder or TOML file) for a game whose components are data.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Start a game (seeded chance by default, with a random seed unless --seed)."""
    from solrec.core.options import split_assignments

    session = _session()
    options = split_assignments(option or [])
    session.check_id_given(game_id)
    if components is not None:
        from .components import options_for

        options.update(options_for(game, components))
    store = session.open_store(db, create=True)
    gid, steps, log = session.new_game(store, game, player or [], options, seed, entered, game_id)
    status = _status(log)
    data = {**status, "header": log.header.as_dict(), "steps": _steps_data(log.game, steps)}
    text = f"created {gid} ({log.game.title}, chance {log.header.chance}"
    text += f", seed {log.header.seed})" if log.header.seed is not None else ")"
    if steps:
        text += "\n" + _steps_text(log.game, steps)
    emit(as_json, data, text + "\n" + _status_text(status))


class PlayCommand(TyperCommand):
    """``play --help`` ends with every game's notation and two examples (the games are imported only
    when the help is asked for)."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        from solrec.core.registry import games as registered_games

        formatter.write_paragraph()
        formatter.write_text("Notation of each game (`solrec legal ID` lists the legal commands):")
        with formatter.indentation():
            for g in registered_games().values():
                formatter.write_paragraph()
                formatter.write_text(f"{g.id}: {g.notation_help or 'see `solrec legal ID`'}")
                for example in g.notation_examples[:2]:
                    formatter.write_text(f"  e.g. solrec play ID '{example}'")


@command("play", cls=PlayCommand)
def play_cmd(
    game_id: GameId,
    words: Annotated[list[str], typer.Argument(metavar="COMMAND...", help="A command in the game's notation; several are separated by ';'.")],
    actor: Annotated[str | None, typer.Option("--actor", help="Refuse unless this player (or 'chance') is to act.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Play commands in the game's notation as whoever is to act (chance included)."""
    session = _session()
    texts = [t.strip() for t in " ".join(words).split(";") if t.strip()]
    store = session.open_store(db)
    steps, log, state = session.play_commands(store, game_id, texts, actor)
    status = _status(log, state)
    emit(as_json, {**status, "steps": _steps_data(log.game, steps)}, _steps_text(log.game, steps) + "\n" + _status_text(status))


@command("legal")
def legal_cmd(game_id: GameId, db: Db = None, as_json: Json = False) -> None:
    """List every legal command of whoever is to act."""
    from solrec.core.game import CHANCE
    from solrec.replay.log import state_at

    log = _load(db, game_id)
    game = log.game
    state = state_at(log)
    to_act = game.to_act(state)
    legal = game.legal_commands(state)
    commands = None if legal is None else [game.format(c) for c in legal]
    data = {"id": game_id, "position": len(log.rows), "to_act": to_act, "enumerable": legal is not None, "commands": commands}
    if to_act is None:
        text = "the game is over: no legal command"
    elif commands is None:
        who = "chance" if to_act == CHANCE else to_act
        text = f"{who} is to act; the choices here are not enumerable"
        if to_act == CHANCE and log.header.chance != "entered":
            text += " (chance acts from the seed)"
        forms = list(game.command_forms(state)) if to_act != CHANCE else []
        if forms:
            data["forms"] = forms
            text += "; the command forms:\n" + "\n".join(f"  {f}" for f in forms)
    else:
        text = f"{to_act} to act, {plural(len(commands), 'legal command')}:\n" + "\n".join(f"  {c}" for c in commands)
    if to_act is not None and to_act != CHANCE:
        fields, lines = game.legal_details(state)  # e.g. where a flight can end and what is possible there
        data.update(fields)
        text += "".join(f"\n{line}" for line in lines)
    emit(as_json, data, text)


@command("show")
def show_cmd(
    game_id: GameId,
    at: Annotated[int | None, typer.Option("--at", help="Position (events applied, 0 = the set-up); default the end.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Render the state at a position."""
    from solrec.events.codec import to_plain
    from solrec.replay.log import check_position, state_at

    log = _load(db, game_id)
    game = log.game
    position = check_position(log, at)
    state = state_at(log, position)
    outcome = game.outcome(state)
    data: dict[str, Any] = {
        "id": game_id,
        "position": position,
        "to_act": game.to_act(state),
        "text": game.render(state, reveal),
        "scores": dict(game.score(state).totals),
        "outcome": outcome.as_dict() if outcome else None,
    }
    if as_json:  # the plain state is for scripts only: text output does not pay for it
        data["state"] = to_plain(state) if reveal else game.public(to_plain(state))
    emit(as_json, data, f"{game_id} at position {position}\n{data['text']}")


@command("log")
def log_cmd(game_id: GameId, reveal: Reveal = False, db: Db = None, as_json: Json = False) -> None:
    """List the stored events with their commands and hashes.

    POS is the position after the event (events applied); CMD numbers the commands. While the game
    runs, what the players cannot see (a seeded deck's order) is hidden unless --reveal.
    """
    from solrec.events.codec import to_plain
    from solrec.replay.log import state_at

    log = _load(db, game_id)
    game = log.game
    events = log.events()
    hiding = Hiding(log, state_at(log), reveal)
    data: dict[str, Any] = {
        "id": game_id,
        "header": log.header.as_dict(),
        "events": [
            {
                "position": r.seq + 1, "seq": r.seq, "step": r.step, "actor": r.actor,
                "command": hiding.command(r.command), "type": r.type, "version": r.version,
                "data": hiding.event(e, to_plain(e)), "text": game.describe_event(e), "hash": r.hash, "time": r.time,
            }
            for r, e in zip(log.rows, events)
        ],
    }
    lines = [f"{game_id}: {json.dumps(log.header.as_dict())}",
             f"{'POS':>5} {'CMD':>4}  {'ACTOR':<10} {'COMMAND':<22} EVENT  HASH"]
    for item in data["events"]:
        lines.append(
            f"{item['position']:>5} {item['step']:>4}  {item['actor']:<10} {item['command']:<22} {item['text']}  {item['hash'][:12]}"
        )
    emit(as_json, data, "\n".join(lines))


@command("score")
def score_cmd(
    game_id: GameId,
    at: Annotated[int | None, typer.Option("--at", help="Position (events applied, 0 = the set-up); default the end.")] = None,
    explain_: Annotated[bool, typer.Option("--explain", help="Every line of the score sheet with its rule.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Print the scores (and the outcome once the game is over)."""
    from solrec.replay.explain import explain, format_explanation

    data = explain(_load(db, game_id), at)
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
    game_id: GameId,
    to: Annotated[int | None, typer.Option("--to", help="Stop at this position (events applied).")] = None,
    reveal: Reveal = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Replay the log command by command, with the scores after each, then show the state.

    POS is the position after the command (events applied). While the game runs, what the players
    cannot see is hidden unless --reveal.
    """
    from solrec.replay.log import check_position, state_at, walk

    log = _load(db, game_id)
    game = log.game
    end = check_position(log, to)
    steps: list[dict[str, Any]] = []
    state, position = state_at(log, 0), 0
    final = None
    for group, events, after in walk(log):
        final = after
        if position >= end:
            continue
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
    hiding = Hiding(log, state if final is None else final, reveal)
    for s in steps:
        s["command"] = hiding.command(s["command"])
    outcome = game.outcome(state)
    data: dict[str, Any] = {"id": game_id, "position": position, "steps": steps, "text": game.render(state, not hiding.on),
                            "scores": dict(game.score(state).totals), "outcome": outcome.as_dict() if outcome else None}
    lines = [f"{'POS':>5}  ACTOR: COMMAND  ->  EVENTS  [SCORES]"] + [
        f"{s['position']:>5}  {s['actor']}: {s['command']}  ->  {'; '.join(s['events'])}  "
        + " ".join(f"[{p} {t}]" for p, t in s["scores"].items())
        for s in steps
    ]
    emit(as_json, data, "\n".join(lines + ["", data["text"]]))


@command("diff")
def diff_cmd(
    a: Annotated[str, typer.Argument(metavar="ID_A", help="A stored game's id.", autocompletion=complete_game_id)],
    b: Annotated[str, typer.Argument(metavar="ID_B", help="Another stored game's id.", autocompletion=complete_game_id)],
    reveal: Reveal = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Where two logs first differ: events side by side, and the difference of states and score sheets.

    Exits 1 when the logs differ (like diff(1)), 0 when they hold the same events and headers.
    """
    from solrec.replay.diff import diff as diff_logs
    from solrec.replay.diff import format_diff
    from solrec.replay.log import load

    store = _session().open_store(db)
    result = diff_logs(load(store, a), load(store, b), reveal=reveal)
    emit(as_json, result, format_diff(result))
    if not result["identical"]:
        raise typer.Exit(EXIT_PROBLEM)


@command("validate")
def validate_cmd(
    ids: Annotated[list[str] | None, typer.Argument(metavar="[ID]...", help="Stored games' ids.", autocompletion=complete_game_id)] = None,
    all_: Annotated[bool, typer.Option("--all", help="Validate every game in the database.")] = False,
    components: Annotated[
        Path | None, typer.Option("--components", help="Re-decide under this component set; report the first changed command.")
    ] = None,
    db: Db = None,
    as_json: Json = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, help="Worker processes for --all (default: every CPU; 1 for a small database)."),
    ] = None,
) -> None:
    """Check hash chains, re-decide every command under the current rules, recompute the scores.

    With --all on a terminal a progress bar runs on stderr; the summary counts valid and invalid
    games, by game.
    """
    if all_ and ids:
        raise InvalidSetup("name games or use --all, not both")
    if not all_ and not ids:
        raise InvalidSetup("name the games to validate, or use --all")
    if components is not None:
        from .components import validate_under

        validate_under(components, ids or [], all_, db, as_json)
        return
    session = _session()
    store = session.open_store(db)
    if all_ and not as_json and sys.stderr.isatty():
        with typer.progressbar(length=len(store.game_ids()), label="validating", file=sys.stderr) as bar:
            verdicts = session.validate_games(store, None, bar.update, jobs)
    else:
        verdicts = session.validate_games(store, None if all_ else list(ids or []), jobs=jobs)
    bad = [v for v in verdicts if not v.ok]
    by_game: dict[str, dict[str, int]] = {}
    for v in verdicts:
        counts = by_game.setdefault(v.game, {"valid": 0, "invalid": 0})
        counts["valid" if v.ok else "invalid"] += 1
    data = {"valid": len(verdicts) - len(bad), "invalid": len(bad), "by_game": by_game,
            "games": [{"id": v.game_id, **v.as_dict()} for v in verdicts]}
    lines = [v.line() for v in (bad if len(verdicts) > 50 else verdicts)]
    if len(by_game) > 1:
        lines += [f"  {g}: {c['valid']} valid, {c['invalid']} invalid" for g, c in sorted(by_game.items())]
    lines.append(f"{len(verdicts) - len(bad)} valid, {len(bad)} invalid")
    emit(as_json, data, "\n".join(lines))
    if bad:
        raise typer.Exit(EXIT_PROBLEM)


@command("export")
def export_cmd(
    game_id: GameId,
    events: Annotated[bool, typer.Option("--events", help="Add each command's events and hashes.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Export a running game whose record holds what the players cannot see.")] = False,
    db: Db = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record's metadata as JSON (with its lines unless --output).")] = False,
) -> None:
    """Write the game as a JSON Lines record (docs/record-format.md)."""
    from solrec.events.record import export_lines
    from solrec.replay.log import state_at

    log = _load(db, game_id)
    hiding = Hiding(log, state_at(log), reveal)
    if hiding.on and any(hiding.command(r.command) != r.command for r in log.rows):
        raise InvalidSetup(
            f"{game_id} is still running and its record holds what the players cannot see "
            "(a seeded deck's order): add --reveal to export it anyway"
        )
    lines = list(export_lines(game_id, log.header, log.rows, with_events=events))
    text = "\n".join(lines) + "\n"
    meta: dict[str, Any] = {"id": game_id, "game": log.header.game, "commands": len(lines) - 1, "events": len(log.rows)}
    if output is not None:
        output.write_text(text, encoding="utf-8")
        emit(as_json, {**meta, "output": str(output)},
             f"exported {game_id} to {output}: {plural(meta['commands'], 'command')}, {plural(meta['events'], 'event')}")
    elif as_json:
        emit(True, {**meta, "lines": [json.loads(line) for line in lines]}, "")
    else:
        typer.echo(text, nl=False)


@command("import")
def import_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A JSON Lines record, or - for stdin.")],
    game_id: Annotated[str | None, typer.Option("--id", help="Store under this id (default: the record's, else GAME-N).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Decide every command of a record in turn, as live play would, and store the game."""
    session = _session()
    session.check_id_given(game_id)
    text = session.read_record(file)
    store = session.open_store(db, create=True)
    gid, steps = session.import_text(store, text, game_id)
    events = sum(len(s.events) for s in steps)
    emit(as_json, {"id": gid, "commands": len(steps), "events": events},
         f"imported {gid}: {plural(len(steps), 'command')}, {plural(events, 'event')}")


@command("simulate")
def simulate_cmd(
    game: GameName,
    count: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
    player: Annotated[list[str] | None, typer.Option("--player", "-p", metavar="NAME", help="A player, in seating order (repeat the option).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="KEY=VALUE setup option.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Play games between random legal players and record every one; then a summary of them."""
    from solrec.core.options import split_assignments
    from solrec.core.registry import get_game

    session = _session()
    options = split_assignments(option or [])
    get_game(game)
    store = session.open_store(db, create=True)
    if as_json or not sys.stderr.isatty():
        ids, summary = session.simulate_games(store, game, count, seed, player or [], options)
    else:
        with typer.progressbar(length=count, label=f"simulating {game}", file=sys.stderr) as bar:
            ids, summary = session.simulate_games(store, game, count, seed, player or [], options, bar.update)
    data = {"game": game, "games": len(ids), "ids": ids, "summary": summary}
    span = f"{ids[0]} .. {ids[-1]}" if len(ids) > 1 else ids[0]
    emit(as_json, data, f"recorded {plural(len(ids), f'simulated {game} game')}: {span}\n" + session.summary_text(summary))


def run() -> None:
    """Console entry point. Typer builds every command's parameters on each call; when the call
    names one command, only that one is built (start-up: the CLI is typed once per move)."""
    import os

    word = sys.argv[1] if len(sys.argv) > 1 else ""
    completing = any(k.startswith("_SOLREC") and k.endswith("_COMPLETE") for k in os.environ)
    named = [c for c in app.registered_commands if c.name == word]
    if named and not completing:
        app.registered_commands = named
    app()


from . import components as components_cli  # noqa: E402,F401
from . import manage, pictures, seal, solve  # noqa: E402,F401  (they register their commands on app)

if __name__ == "__main__":  # pragma: no cover - `python -m solrec.cli.main`: run the one registered app
    from solrec.cli.main import run as _run

    _run()
