"""``solrec svg`` and ``solrec html``: a position as an SVG picture, a whole game as a self-contained
HTML replay page (or two games side by side with ``--diff``).

Hidden information follows ``show``: what players at the table cannot see stays out unless
``--reveal``. Output goes to stdout, or to ``-o FILE`` (written only once the whole page is built, so
bad input writes nothing; then "wrote FILE (N commands, SIZE)"). On a terminal, ``html`` shows its
progress on stderr. A game longer than the page's bound (``replay.html.MAX_EVENTS``) is refused
before its log is read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import AsPlayer, Db, GameId, command, viewer, workflows
from .errors import Unsupported

Output = Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")]
Reveal = Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see (an audit after the game).")]


def _write(text: str, output: Path | None) -> None:
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@command("svg")
def svg_cmd(
    game_id: GameId,
    at: Annotated[int | None, typer.Option("--at", help="Position (number of events); default the end.")] = None,
    reveal: Reveal = False,
    as_: AsPlayer = None,
    output: Output = None,
    db: Db = None,
) -> None:
    """Draw the position as a standalone SVG picture, the last command's changes highlighted."""
    from solrec.replay.log import check_position, load, state_at

    log = load(workflows().open_store(db), game_id)
    game = log.game
    player = viewer(log, as_, reveal)
    position = check_position(log, at)
    state = state_at(log, position)
    last = None
    if position:
        # the events of the command that led here (up to the position, which may fall inside one):
        # decoded again, not replayed (``state_at`` has decoded them on its way, so they decode)
        seen = 0
        for group in log.steps():
            if seen + len(group) >= position:
                last = log.codec.decode_rows(group[: position - seen])
                break
            seen += len(group)
    picture = game.svg(state, reveal=reveal, last=last) if player is None else game.svg_as(state, player, last=last)
    if picture is None:
        raise Unsupported(f"{game.title} has no picture yet")
    _write(picture, output)


@command("html")
def html_cmd(
    game_id: GameId,
    diff: Annotated[str | None, typer.Option("--diff", metavar="ID_B", help="Show this game beside ID, the first divergence marked.")] = None,
    reveal: Reveal = False,
    as_: AsPlayer = None,
    output: Output = None,
    db: Db = None,
) -> None:
    """Write a self-contained HTML replay of the game (no network: inline CSS, JS and SVG)."""
    from solrec.replay.html import check_size, diff_page, page
    from solrec.replay.log import load

    store = workflows().open_store(db)
    ids = [game_id] + ([] if diff is None else [diff])
    check_size(sum(store.game_row(gid)["events"] for gid in ids))  # up front, from the games rows alone
    logs = [load(store, gid) for gid in ids]
    player = viewer(logs[0], as_, reveal)
    commands = sum(len(log.steps()) for log in logs)

    def build(progress=None) -> str:
        if diff is None:
            return page(logs[0], reveal=reveal, player=player, progress=progress)
        return diff_page(logs[0], logs[1], reveal=reveal, progress=progress)

    if sys.stderr.isatty():
        with typer.progressbar(length=commands, label=f"drawing {' and '.join(log.game_id for log in logs)}",
                               file=sys.stderr) as bar:
            text = build(bar.update)
    else:
        text = build()
    _write(text, output)
    if output is not None:
        typer.echo(f"wrote {output} ({commands} command{'' if commands == 1 else 's'}, {_size(len(text.encode()))})")


def _size(count: int) -> str:
    """A file's size for people: 812 bytes, 41.3 kB, 2.1 MB."""
    if count < 1000:
        return f"{count} bytes"
    return f"{count / 1000:.1f} kB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"
