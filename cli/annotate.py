"""``solrec comment`` (``note`` is its older name): comments on moves, with an author, a time and a
referee's mark.

Comments never change the game: they are not events and not in its hash chain, but they keep their
own chain (events/notes.py), which ``validate`` checks and a seal covers.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from solrec.workflows.undo import check_command_end, command_ends  # noqa: F401 - shared with the server

from .app import Db, GameId, Json, command, emit, load_log, note_dict, workflows
from .errors import UsageRefused


def default_author() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in this environment
        return "unknown"


def comment_cmd(
    game_id: GameId,
    text: Annotated[str | None, typer.Argument(metavar="TEXT", help="The comment (leave out to list the comments).")] = None,
    at: Annotated[int | None, typer.Option("--at", metavar="MOVE",
                                           help="The move it comments on: the state after move N (0 = the set-up); "
                                                "default the last.")] = None,
    by: Annotated[str | None, typer.Option("--by", help="Its author (default: your user name).")] = None,
    mark: Annotated[str | None, typer.Option("--mark", help="A mark: ! ? !! ?? !? ?! disputed ruled.")] = None,
    delete: Annotated[int | None, typer.Option("--delete", help="Delete comment N instead (its number in the list).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Comment on a move, with an optional referee's mark; without TEXT, list the comments.

    Comments are not part of the game: they never change its events or hashes. A "ruled" comment is
    what a referee writes when settling a dispute: its text cites the rule. `note` is the same command.
    """
    from solrec.events import notes
    from solrec.replay.disputes import AUTOMATIC, is_automatic
    from solrec.replay.log import move_at, position_of_move

    if text is not None and not text.strip():
        # the same words as the server's refusal (a mark alone, with no TEXT, is still a comment)
        raise UsageRefused("the comment is empty: give its text")
    if text is not None and is_automatic(text):
        raise UsageRefused(f"a comment opening with {AUTOMATIC.strip()} is one solrec writes itself: reword its start")
    log = load_log(db, game_id)
    store = workflows().open_store(db)
    if delete is not None:
        if text is not None or mark is not None or at is not None or by is not None:
            raise UsageRefused("--delete N takes no text, --at, --by or --mark")
        gone = notes.delete(store, game_id, delete)
        emit(as_json, {"id": game_id, "deleted": note_dict(gone, log.rows)}, f"{game_id}: deleted comment {gone.line()}")
        return
    if text is None and mark is None:
        if at is not None or by is not None:
            raise UsageRefused("give the comment's TEXT (or a --mark)")
        stored = notes.checked(store, game_id).notes
        lines = [f"{move_at(log.rows, n.position):>5}  {n.line()}" for n in stored] or [f"{game_id}: no comments"]
        emit(as_json, {"id": game_id, "notes": [note_dict(n, log.rows) for n in stored]}, "\n".join(lines))
        return
    position = position_of_move(log, at)
    move = move_at(log.rows, position)
    note = notes.add(store, game_id, position, default_author() if by is None else by, notes.check_mark(mark), text or "")
    data: dict[str, Any] = {"id": game_id, "note": note_dict(note, log.rows)}
    emit(as_json, data, f"{game_id}: comment {note.line()} on {'the set-up' if move == 0 else f'move {move}'}")


command("comment")(comment_cmd)
command("note", hidden=True, help="The same as `comment` (its older name).")(comment_cmd)
