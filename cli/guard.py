"""What stands between the command line and solrec: every refusal is one line, every argument text.

Click prints usage errors (an unknown option such as ``-x``, a missing argument) as a box of several
lines; solrec prints one line and exits 2 like any other bad input. Arguments that are not valid
Unicode (lone surrogates from undecodable bytes) are refused before any command sees them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import typer
from typer._click import exceptions as click  # Typer carries its own copy of click
from typer.core import TyperGroup

from solrec.core.errors import InvalidCommand

EXIT_BAD_INPUT = 2
MAX_ARGUMENT = 10_000  # characters of one argument: a command, a name or an id is far shorter


def one_line(message: str) -> str:
    """The message on one line: newlines, ESC and other control characters shown escaped."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def _texts(values: Iterable[Any]) -> Iterable[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))


def check_arguments(values: Iterable[Any]) -> None:
    """Refuse argument text that is not valid Unicode or absurdly long, and numbers beyond 64 bits."""
    values = list(values)
    for value in values:
        if type(value) is int and not -(2**63) <= value < 2**63:
            raise InvalidCommand(f"{str(value)[:30]}... is not a whole number of at most 64 bits")
    for text in _texts(values):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidCommand(f"the argument {one_line(text[:40])!r} is not valid UTF-8 text") from None
        if len(text) > MAX_ARGUMENT:
            raise InvalidCommand(f"an argument of {len(text)} characters is too long (at most {MAX_ARGUMENT})")


class OneLineGroup(TyperGroup):
    """The solrec command group: usage errors become one line on stderr and exit 2."""

    def main(  # type: ignore[override]
        self, args: Any = None, prog_name: str | None = None, standalone_mode: bool = True, **kwargs: Any
    ) -> Any:
        try:
            rv = super().main(args=args, prog_name=prog_name, standalone_mode=False, **kwargs)
        except click.NoArgsIsHelpError as err:
            err.show()  # `solrec` alone: the help, as before
            sys.exit(err.exit_code)
        except click.ClickException as err:
            hint = ""
            ctx = getattr(err, "ctx", None)
            if isinstance(err, click.UsageError) and ctx is not None:
                hint = f" (see '{ctx.command_path} --help')"
            typer.echo(f"solrec: {one_line(err.format_message())}{hint}", err=True)
            sys.exit(err.exit_code)
        except typer.Abort:
            typer.echo("solrec: interrupted", err=True)
            sys.exit(EXIT_BAD_INPUT)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)
