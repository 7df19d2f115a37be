"""The ``solrec`` app and what every command module shares: the error contract, the parameter
types, the output helpers. Every command module imports this one; ``main`` only wires them.

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

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.words import quoted

from . import params
from .guard import check_arguments, one_line, shown, shown_json

params.install()

EXIT_OK, EXIT_PROBLEM, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
VERSION = "0.1.0"

# The error's class -> the "kind" of a JSON error object (the first match along the class's MRO).
# docs/output.md lists every kind with when it occurs; tests/test_error_kinds.py provokes each.
_KINDS = {
    "UsageRefused": "usage",
    "NothingToUndo": "nothing-to-undo",
    "ChanceStays": "chance-stays",
    "CommentsStay": "comments-stay",
    "Declined": "declined",
    "HiddenInformation": "hidden",
    "Unsupported": "unsupported",
    "Unreadable": "io",
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
# (a rule sentence cited as ``003: "..."`` is the game's own words, quoted whole: never cut)
_LONG_QUOTE = re.compile(r"(?<!\w)'(?:[^'\\]|\\.){60,}'(?!\w)|(?<!\w)(?<!\d{3}: )\"(?:[^\"\\]|\\.){60,}\"(?!\w)")
_MAX_LINE = 400


def _shorten_quotes(message: str) -> str:
    """An overlong input quoted in a reason is quoted shortened, so the reason stays one short line."""
    def cut(match: re.Match[str]) -> str:
        quoted = match.group(0)
        return f"{quoted[:40]}...{quoted[0]} ({len(quoted) - 2} characters)"

    message = _LONG_QUOTE.sub(cut, " ".join(message.split()))
    return message if len(message) <= _MAX_LINE else message[: _MAX_LINE - 3] + "..."


# -- colour: only on a terminal, never when piped, with --json or under NO_COLOR (no-color.org) -----
_STYLES = {"header": "1", "refusal": "1;31", "to-act": "1;33", "score": "1;32"}


def colour_on(err: bool = False) -> bool:
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stderr if err else sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


_MARK: list[str] = []  # a token no stored text can hold, made on first use: where a style begins and ends


def _mark() -> str:
    if not _MARK:
        import os

        _MARK.append("~" + os.urandom(8).hex() + "~")
    return _MARK[0]


def paint(text: str, style: str, on: bool) -> str:
    """``text`` in the terminal style ``style`` (header, refusal, to-act, score) when ``on``. The style
    is marked, not written: ``styled`` writes it after the text is escaped (``emit``), so no stored
    text can drive the terminal, and the marks themselves are never escaped away."""
    if not (on and text):
        return text
    mark = _mark()
    return f"{mark}{_STYLES[style]}{mark}{text}{mark}0{mark}"


def styled(text: str) -> str:
    """``text`` with ``paint``'s marks written as the terminal's escape sequences."""
    if not _MARK or _MARK[0] not in text:
        return text
    mark = _MARK[0]
    parts = text.split(mark)  # text, style, text, style, ...: a style sits between two marks
    return "".join(part if k % 2 == 0 else f"\033[{part}m" for k, part in enumerate(parts))


def refuse(message: str, code: int, kind: str, as_json: bool) -> None:
    """The one line on stderr (and, with --json, the error object on stdout); then exit."""
    _NOTICES.clear()
    message = _shorten_quotes(one_line(message))
    if as_json:
        typer.echo(json.dumps({"error": {"code": code, "kind": kind, "reason": message}}, ensure_ascii=False))
    typer.echo(styled(paint(f"solrec: {message}", "refusal", not as_json and colour_on(err=True))), err=True)
    raise typer.Exit(code)


def _kind(err: BaseException) -> str:
    for cls in type(err).__mro__:
        if cls.__name__ in _KINDS:
            return _KINDS[cls.__name__]
    return "refused"


# Click quotes what it names as Python does ('shw'); solrec quotes as the record format does ("shw").
_CLICK_QUOTED = re.compile(r"(?<![\w'])'([^'\n]*)'(?![\w'])")


def _click_quotes(message: str) -> str:
    return _CLICK_QUOTED.sub(lambda m: quoted(m.group(1)), message)


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
                refuse(f"{_click_quotes(message)} (see {where} --help)", EXIT_BAD_INPUT, "usage", as_json)
            except typer.Abort:
                refuse("interrupted", EXIT_INTERRUPTED, "interrupted", as_json)
            except click_errors.ClickException as err:
                refuse(_click_quotes(err.format_message()), err.exit_code, "usage", as_json)
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
GameName = Annotated[str, typer.Argument(metavar="GAME", help="A game, by the id `solrec games` lists (e.g. solo-dice).",
                                         autocompletion=complete_game_name)]
AtMove = Annotated[
    int | None,
    typer.Option("--at", metavar="MOVE", help="After move N (the N-th line of the record, chance lines included; 0 = the "
                                               "set-up); default the end."),
]
Reveal = Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see while the game runs.")]
AsPlayer = Annotated[str | None, typer.Option("--as", metavar="NAME", help="Show what this player may see: the table and his own hand, nothing of the other hands or the deck.")]


def viewer(log, name: str | None, reveal: bool) -> str | None:
    """``--as NAME``: a player of the game, and not together with ``--reveal`` (the referee's whole view)."""
    from solrec.core.errors import InvalidCommand

    if name is None:
        return None
    if reveal:
        raise InvalidCommand("--as shows one player's view and --reveal the referee's whole view: give one of them")
    if name not in log.header.players:
        raise InvalidCommand(f"{quoted(name)} is not a player of this game ({', '.join(log.header.players)})")
    return name


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    refuse(message, code, "stored-data" if code == EXIT_PROBLEM else "usage", False)


def handled(func: Callable) -> Callable:
    """Turn every error into one line on stderr (and a JSON object with --json) and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json", False))
        _NOTICES.clear()
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
            refuse("the input is nested too deeply", EXIT_BAD_INPUT, "invalid", as_json)
        except Exception as err:  # a bug: still no traceback, but a distinct code
            refuse(f"internal error ({type(err).__name__}: {err}); please report it", EXIT_INTERNAL, "internal", as_json)

    return wrapper


class SolrecCommand(TyperCommand):
    """Help in plain words: arguments by their metavar (``ID``, ``[ID]...``), never a Python type
    (``<str>``, ``{ID}``), and the summary in ``solrec --help`` whole (the docstring's first
    sentence), never cut with "..."."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(self.argument_usage(param))
        return pieces

    @staticmethod
    def argument_usage(param: Any) -> str:
        name = param.metavar or param.name.upper()
        if param.nargs != 1 and not name.endswith("..."):
            name += "..."
        return name if param.required else f"[{name}]"

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                arguments.append((self.argument_usage(param), getattr(param, "help", None) or ""))
            else:
                record = param.get_help_record(ctx)
                if record is not None:
                    options.append(self.plain_option(param, *record))
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)

    @staticmethod
    def plain_option(param: Any, names: str, text: str) -> tuple[str, str]:
        """``--at POS`` rather than ``--at <int>``; "at least 1" rather than ``x>=1``."""
        def metavar(match: re.Match[str]) -> str:
            kind = match.group(1)
            if kind.startswith("int"):
                return "N"
            if kind == "path":
                return "PATH"
            return (param.opts[-1].lstrip("-") if param.opts else param.name).upper().replace("-", "_")

        names = re.sub(r"<([^<>]*)>", metavar, names)
        text = re.sub(r"(-?\d+)<=x<=(-?\d+)", r"\1 to \2", text)
        text = re.sub(r"x>=(-?\d+)", r"at least \1", text)
        text = re.sub(r"x<=(-?\d+)", r"at most \1", text)
        return names, text

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return self.short_help
        first = (self.help or "").strip().split("\n\n")[0]
        return " ".join(first.split())


def command(*args: Any, **kwargs: Any) -> Callable:
    kwargs.setdefault("cls", SolrecCommand)

    def register(func: Callable) -> Callable:
        return app.command(*args, **kwargs)(handled(func))

    return register


# Lines said on stderr once the command answers (what a --db folder skipped): a command that is
# refused says only its one line.
_NOTICES: list[str] = []


def notice(line: str) -> None:
    _NOTICES.append(line)


def say_notices() -> None:
    for line in _NOTICES:
        typer.echo(shown(f"solrec: {line}"), err=True)
    _NOTICES.clear()


def emit(as_json: bool, data: Any, text: str) -> None:
    say_notices()
    typer.echo(shown_json(json.dumps(data, indent=2, ensure_ascii=False)) if as_json else styled(shown(text)))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 event``, ``3 events``; ``many`` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def workflows():
    """The store-backed workflows (cli/session.py, over workflows/games.py), imported when a command first needs them."""
    from . import session

    return session


def steps_data(game, steps, before=None, viewer=None) -> list[dict]:
    """What live output shows of the steps just played, as ``viewer`` (default: the table) may see
    them (``replay.seen``): nothing hidden; given ``before`` (the state before the first), each
    command and event in the words of its position (a hex by its board label)."""
    from solrec.core.observe import Viewer
    from solrec.replay.seen import seen_steps

    return seen_steps(game, steps, before, Viewer.table() if viewer is None else viewer)


def steps_text(game, steps, before=None) -> str:
    return "\n".join(f"{d['actor']}: {d['command']}  ->  " + "; ".join(d["events"]) for d in steps_data(game, steps, before))


def status_of(log, state=None) -> dict[str, Any]:
    from solrec.replay.log import moves_of, state_at

    game = log.game
    state = state_at(log) if state is None else state
    outcome = game.outcome(state)
    return {
        "id": log.game_id,
        "game": game.id,
        "move": moves_of(log),
        "position": len(log.rows),
        "to_act": game.to_act(state),
        "scores": dict(game.score(state).totals),
        "outcome": outcome.as_dict() if outcome else None,
    }


def status_text(status: dict[str, Any]) -> str:
    if status["outcome"]:
        return f"{status['id']}: game over. {paint(status['outcome']['reason'], 'score', colour_on())}"
    return f"{status['id']}: {after_move(status['move'])}, {paint(str(status['to_act']), 'to-act', colour_on())} to act"


def after_move(move: int) -> str:
    """``after move 12``; ``at the set-up`` for move 0."""
    return "at the set-up" if move == 0 else f"after move {move}"


def note_dict(note, rows) -> dict[str, Any]:
    """A comment as JSON names it: its move (people's count) beside its position (programs')."""
    from solrec.replay.log import move_at

    return {**note.as_dict(), "move": move_at(rows, note.position)}


def columns(header: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[int] = (),
            limits: dict[int, int] | None = None, wide: bool = False) -> list[str]:
    """A table whose columns are as wide as their data; a cell over its column's limit (``limits``:
    index -> characters) is cut with an ellipsis unless ``wide``. Columns in ``right`` align right."""
    limits = {} if wide or limits is None else limits
    cells = [[str(c) for c in row] for row in rows]
    for row in cells:
        for i, limit in limits.items():
            if len(row[i]) > limit:
                row[i] = row[i][: limit - 1] + "…"
    widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(header)]

    def line(row: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        return "  ".join(parts).rstrip()

    return [paint(line(header), "header", colour_on())] + [line(row) for row in cells]


def load_log(db: Path | None, game_id: str):
    from solrec.replay.log import load

    return load(workflows().open_store(db), game_id)


class Hiding:
    """What a reading command shows (``replay.seen``): a seat's view with ``--as NAME``; else, while
    the game runs and without ``--reveal``, the table's; after the game ends everything (the referee's)."""

    def __init__(self, log, final_state, reveal: bool, player: str | None = None):
        from solrec.core.observe import Viewer

        self.game = log.game
        if player is not None:
            self.viewer = Viewer.seat(player)
        elif reveal or self.game.outcome(final_state) is not None:
            self.viewer = Viewer.referee()
        else:
            self.viewer = Viewer.table()
        self.on = not self.viewer.sees_all

    def command(self, text: str, state: Any = None) -> str:
        """A stored command's text as shown; with ``state`` (the position it was played in) in the words
        of that position (a hex by its board label)."""
        from solrec.replay.seen import seen_command

        if state is not None:
            return seen_command(self.game, text, state, self.viewer)
        return self.game.observation.command_text(text, self.viewer)

    def event(self, event, plain: dict) -> dict | None:
        return self.game.observation.event(event, plain, self.viewer).data

    def described(self, event) -> bool:
        from solrec.replay.seen import seen_event

        return seen_event(self.game, event, self.viewer).described

    def state(self, state, plain: dict) -> dict:
        return self.game.observation.state(state, plain, self.viewer)
