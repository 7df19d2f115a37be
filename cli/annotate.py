"""``solrec note``: comments on positions, with an author, a time and a referee's mark.

Comments never change the game: they are not events and not in its hash chain, but they keep their
own chain (events/notes.py), which ``validate`` checks and a seal covers.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .app import Db, GameId, Json, command, emit, load_log, workflows
from .errors import UsageRefused


def default_author() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in this environment
        return "unknown"


def command_ends(log) -> list[int]:
    """The positions a comment can be on: the set-up (0) and the end of each command."""
    ends, position = [0], 0
    for group in log.steps():
        position += len(group)
        ends.append(position)
    return ends


def check_command_end(log, position: int, verb: str) -> int:
    """``position`` when a command ends there (or it is the set-up); refused otherwise, naming the
    nearest positions that are (``verb``: what the user wanted to do there)."""
    from solrec.core.errors import InvalidSetup

    ends = command_ends(log)
    if position in ends:
        return position
    if not 0 <= position <= ends[-1]:
        raise InvalidSetup(f"position {position} is outside the log (0 to {ends[-1]})")
    raise InvalidSetup(
        f"position {position} lies inside a command's events: {verb} {max(e for e in ends if e < position)} or"
        f" {min(e for e in ends if e > position)} (where a command ends)"
    )


@command("note")
def note_cmd(
    game_id: GameId,
    text: Annotated[str | None, typer.Argument(metavar="TEXT", help="The comment (leave out to list the comments).")] = None,
    at: Annotated[int | None, typer.Option("--at", help="The position it comments on (events applied); default the last.")] = None,
    by: Annotated[str | None, typer.Option("--by", help="Its author (default: your user name).")] = None,
    mark: Annotated[str | None, typer.Option("--mark", help="A mark: ! ? !! ?? !? ?! disputed ruled.")] = None,
    delete: Annotated[int | None, typer.Option("--delete", help="Delete comment N instead (its number in the list).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Comment on a position, with an optional referee's mark; without TEXT, list the comments.

    Comments are not part of the game: they never change its events or hashes. A "ruled" comment is
    what a referee writes when settling a dispute: its text cites the rule.
    """
    from solrec.events import notes

    if text is not None and not text.strip():
        raise UsageRefused("the comment is empty: give its text (or leave TEXT out and give --mark alone)")
    log = load_log(db, game_id)
    store = workflows().open_store(db)
    if delete is not None:
        if text is not None or mark is not None or at is not None or by is not None:
            raise UsageRefused("--delete N takes no text, --at, --by or --mark")
        gone = notes.delete(store, game_id, delete)
        emit(as_json, {"id": game_id, "deleted": gone.as_dict()}, f"{game_id}: deleted comment {gone.line()}")
        return
    if text is None and mark is None:
        if at is not None or by is not None:
            raise UsageRefused("give the comment's TEXT (or a --mark)")
        stored = notes.checked(store, game_id).notes
        lines = [f"{n.position:>5}  {n.line()}" for n in stored] or [f"{game_id}: no comments"]
        emit(as_json, {"id": game_id, "notes": [n.as_dict() for n in stored]}, "\n".join(lines))
        return
    position = len(log.rows) if at is None else check_command_end(log, at, "comment on")
    note = notes.add(store, game_id, position, default_author() if by is None else by, notes.check_mark(mark), text or "")
    data: dict[str, Any] = {"id": game_id, "note": note.as_dict()}
    emit(as_json, data, f"{game_id}: comment {note.line()} on position {position}")
