"""``solrec fork``: a variation that branches instead of erasing (``undo`` erases)."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import (
    Db,
    GameId,
    Json,
    after_move,
    command,
    emit,
    load_log,
    plural,
    status_of,
    status_text,
    workflows,
)


@command("fork")
def fork_cmd(
    game_id: GameId,
    at: Annotated[int, typer.Option("--at", metavar="MOVE", help="The move the variation branches after (0 = the set-up).")],
    new_id: Annotated[str | None, typer.Option("--id", help="The fork's id (default: ID.N, the first N free).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Start a variation: a new game with the same header and the moves up to move N.

    The commands are decided again, so the fork's hash chain is the game's up to that position; it
    records where it came from (`list --tree`, `diff`). A seeded game goes on from the same seed.
    Then it is an ordinary game: play it, score it, diff it against its parent.
    """
    from solrec.replay.log import position_of_move

    session = workflows()
    session.check_id_given(new_id)
    log = load_log(db, game_id)
    position = position_of_move(log, at)
    store = session.open_store(db)
    gid, steps = session.fork_game(store, log, position, new_id)
    fork = load_log(db, gid)
    status = status_of(fork)
    events = len(fork.rows)
    data = {**status, "parent": game_id, "forked_after": at, "forked_at": position, "commands": len(steps), "events": events}
    emit(as_json, data, f"forked {gid} from {game_id} {after_move(at)}: {plural(len(steps), 'move')},"
                        f" {plural(events, 'event')}\n{status_text(status)}")
