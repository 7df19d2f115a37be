"""``solrec svg`` and ``solrec html``: a position as an SVG picture, a whole game as a self-contained
HTML replay page (or two games side by side with ``--diff``).

Hidden information follows ``show``: what players at the table cannot see stays out unless
``--reveal``. Output goes to stdout, or to ``-o FILE`` (written only once the whole page is built, so
bad input writes nothing; then "wrote FILE (N moves, SIZE)", and for ``svg`` "wrote FILE (after
move N, SIZE)"). On a terminal, ``html`` shows its
progress on stderr. A game longer than the page's bound (``replay.html.MAX_EVENTS``) is refused
before its log is read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import AsPlayer, AtMove, Db, GameId, command, viewer, workflows
from .errors import Unsupported, UsageRefused

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
    at: AtMove = None,
    reveal: Reveal = False,
    as_: AsPlayer = None,
    output: Output = None,
    db: Db = None,
) -> None:
    """Draw the state after a move as a standalone SVG picture, the move's changes highlighted."""
    from solrec.core.observe import Viewer
    from solrec.replay.log import load, position_of_move
    from solrec.replay.seen import seen

    log = load(workflows().open_store(db), game_id)
    game = log.game
    player = viewer(log, as_, reveal)
    position = position_of_move(log, at)
    picture = seen(log, Viewer.of(player, reveal), position).svg()  # the move's events highlighted
    if picture is None:
        raise Unsupported(f"{game.title} has no picture yet")
    _write(picture, output)
    if output is not None:
        from solrec.replay.log import move_at

        from .app import after_move

        typer.echo(f"wrote {output} ({after_move(move_at(log.rows, position))}, {_size(len(picture.encode()))})")


@command("html")
def html_cmd(
    game_id: GameId,
    diff: Annotated[str | None, typer.Option("--diff", metavar="ID_B", help="Show this game beside ID, the first divergence marked.")] = None,
    at: Annotated[int | None, typer.Option("--at", metavar="MOVE", help="Open after this move (default: the end of a finished game, else the set-up).")] = None,
    with_forks: Annotated[bool, typer.Option("--with-forks", help="Also write its forks' pages, linked, into the folder -o DIR/.")] = False,
    study: Annotated[bool, typer.Option("--study", help="One printable page of the game with its forks as chapters and its "
                                                        "comments at their moves.")] = False,
    reveal: Reveal = False,
    as_: AsPlayer = None,
    output: Output = None,
    db: Db = None,
) -> None:
    """Write a self-contained HTML replay of the game (no network: inline CSS, JS and SVG).

    The page lists the moves beside the board (click one to go there) with their comments and marks;
    the address ends in #move=N, the move shown, so a link opens that move (an older #pos=N link
    opens the move that position lies in). --study writes one page of the game with its forks as
    chapters and its comments inline, to print."""
    from solrec.replay.html import check_size, diff_page, page
    from solrec.replay.log import load, position_of_move

    store = workflows().open_store(db)
    if study:
        if diff is not None or with_forks or at is not None or as_ is not None:
            raise UsageRefused("--study is one page of the game and its forks: not with --diff, --with-forks, --at or --as")
        _write_study(store, game_id, reveal, output)
        return
    if with_forks:
        if diff is not None:
            raise UsageRefused("--with-forks writes one page per game: not with --diff")
        if output is None:
            raise UsageRefused("--with-forks writes a page per game: give the folder with -o DIR/")
        if as_ is not None:
            raise UsageRefused("--with-forks draws the pages as the table sees them: not with --as")
        _write_tree(store, game_id, at, reveal, output)
        return
    if at is not None and diff is not None:
        raise UsageRefused("--at opens one game's page: not with --diff")
    ids = [game_id] + ([] if diff is None else [diff])
    check_size(sum(store.game_row(gid)["events"] for gid in ids))  # up front, from the games rows alone
    logs = [load(store, gid) for gid in ids]
    player = viewer(logs[0], as_, reveal)
    position = None if at is None else position_of_move(logs[0], at)
    commands = sum(len(log.steps()) for log in logs)

    def build(progress=None) -> str:
        if diff is None:
            return page(logs[0], reveal=reveal, player=player, progress=progress, at=position)
        return diff_page(logs[0], logs[1], reveal=reveal, progress=progress)

    if sys.stderr.isatty():
        with typer.progressbar(length=commands, label=f"drawing {' and '.join(log.game_id for log in logs)}",
                               file=sys.stderr) as bar:
            text = build(bar.update)
    else:
        text = build()
    _write(text, output)
    if output is not None:
        typer.echo(f"wrote {output} ({commands} move{'' if commands == 1 else 's'}, {_size(len(text.encode()))})")


def _write_study(store, game_id: str, reveal: bool, output: Path | None) -> None:
    """``html --study``: the game and its forks as chapters of one page."""
    from solrec.events.forks import descendants
    from solrec.replay.html import check_size
    from solrec.replay.log import load
    from solrec.replay.study import chapters_of, study_page

    check_size(sum(store.game_row(gid)["events"] for gid in [game_id] + [f for f, _, _ in descendants(store, game_id)]))
    chapters = chapters_of(store, game_id, load)
    text = study_page(chapters, reveal=reveal)
    _write(text, output)
    if output is not None:
        typer.echo(f"wrote {output} (the game and {len(chapters) - 1} variation{'' if len(chapters) == 2 else 's'},"
                   f" {_size(len(text.encode()))})")


def _write_tree(store, game_id: str, at: int | None, reveal: bool, folder: Path) -> None:
    """The game's page and each fork's, as DIR/ID.html, linked both ways at the positions they branch
    from. Every page is built before any is written."""
    from solrec.events.forks import descendants
    from solrec.replay.html import check_size, page
    from solrec.replay.log import load, move_at, position_of_move

    if folder.exists() and not folder.is_dir():
        raise UsageRefused(f"{folder} is not a folder: --with-forks writes one page per game into -o DIR/")
    tree = descendants(store, game_id)
    ids = [game_id] + [f for f, _, _ in tree]
    check_size(max(store.game_row(gid)["events"] for gid in ids))
    parents = {f: (p, position) for f, p, position in tree}
    pages = {}
    for gid in ids:
        log = load(store, gid)
        opening = position_of_move(log, at) if gid == game_id and at is not None else None
        forks = [{"id": f, "at": position, "href": f"{f}.html#move={move_at(log.rows, position)}"}
                 for f, p, position in tree if p == gid]
        parent = parents.get(gid)
        links = {"forks": forks,
                 "parent": None if parent is None else {"id": parent[0], "at": parent[1],
                                                        "href": f"{parent[0]}.html#move={move_at(log.rows, parent[1])}"}}
        pages[gid] = page(log, reveal=reveal, at=opening, links=links)
    folder.mkdir(parents=True, exist_ok=True)
    for gid, text in pages.items():
        (folder / f"{gid}.html").write_text(text, encoding="utf-8")
    total = sum(len(t.encode()) for t in pages.values())
    typer.echo(f"wrote {len(pages)} pages to {folder}: {', '.join(f'{gid}.html' for gid in pages)} ({_size(total)})")


def _size(count: int) -> str:
    """A file's size for people: 812 bytes, 41.3 kB, 2.1 MB."""
    if count < 1000:
        return f"{count} bytes"
    return f"{count / 1000:.1f} kB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"
