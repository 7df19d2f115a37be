"""Managing stored games: ``list``, ``delete``, ``rename``, ``undo``.

``list`` reads only the ``games`` table (no event is decoded, no game imported). ``undo`` is the
table's "take back": it removes the last command's events, as if it had never been played. In a
seeded game, chance that followed a command was drawn because of it, so such chance goes only with
the command that caused it (``--steps`` counts commands, chance's included); chance drawn at the
set-up is never taken back.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from .app import Db, GameId, Json, columns, command, emit, plural
from .errors import ChanceStays, Declined, NothingToUndo, UsageRefused
from .impact import Dbs


@command("list")
def list_cmd(
    game: Annotated[str | None, typer.Option("--game", help="Only games of this kind (see `solrec games`).")] = None,
    over: Annotated[bool, typer.Option("--over", help="Only games that are over.")] = False,
    running: Annotated[bool, typer.Option("--running", help="Only games still running.")] = False,
    db: Dbs = None,
    as_json: Json = False,
) -> None:
    """List the stored games: id, game, players, created, events, status and scores.

    With several databases (--db repeated, or a folder of shards) their games one file after another.
    """
    from .impact import files_of
    from .session import open_store

    if over and running:
        raise UsageRefused("choose --over or --running, not both")
    rows = []
    for r in (game_row for path in files_of(db) for game_row in open_store(path, missing_ok=True).list_games()):
        status = "running" if r["outcome"] is None else "over"
        if (game is not None and r["game"] != game) or (over and status != "over") or (running and status != "running"):
            continue
        rows.append({
            "id": r["id"], "game": r["game"], "players": json.loads(r["players"]), "created": r["created"],
            "events": r["events"], "status": status, "scores": json.loads(r["scores"]) if r["scores"] else None,
        })
    table = [
        (r["id"], r["game"], r["events"], r["status"], r["created"][:19],
         ", ".join(f"{p} {r['scores'][p]}" if r["scores"] and p in r["scores"] else p for p in r["players"]))
        for r in rows
    ]
    lines = columns(("ID", "GAME", "EVENTS", "STATUS", "CREATED", "PLAYERS AND SCORES"), table, right=(2,))
    lines.append(plural(len(rows), "game"))
    emit(as_json, rows, "\n".join(lines))


@command("delete")
def delete_cmd(
    game_id: GameId,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Delete a stored game and its events (asks first unless --yes)."""
    from .session import open_store

    store = open_store(db)
    row = store.game_row(game_id)
    if not yes:
        if not sys.stdin.isatty():
            raise UsageRefused(f"deleting {game_id} cannot be undone: add --yes to confirm")
        if not typer.confirm(f"delete {game_id} ({row['game']}, {plural(row['events'], 'event')})?", err=True):
            raise Declined("nothing deleted")
    store.delete_game(game_id)
    emit(as_json, {"id": game_id, "deleted": True, "events": row["events"]}, f"deleted {game_id}")


@command("rename")
def rename_cmd(
    game_id: GameId,
    new_id: Annotated[str, typer.Argument(metavar="NEW", help="The new id (letters, digits, '.', '_', '-').")],
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Give a stored game another id (its log and hashes are unchanged)."""
    from .session import open_store

    open_store(db).rename_game(game_id, new_id)
    emit(as_json, {"id": new_id, "was": game_id}, f"renamed {game_id} to {new_id}")


@command("undo")
def undo_cmd(
    game_id: GameId,
    steps: Annotated[int, typer.Option("--steps", min=1, help="How many commands to take back (chance's included).")] = 1,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Take back the last command(s), as players at the table do: their events leave the log.

    In a seeded game the chance that followed a command goes only with it: taking back chance alone
    is refused, since the seed would draw the same again. Chance drawn at the set-up stays.
    """
    from solrec.core.game import CHANCE
    from solrec.replay.log import Log, load, state_at

    from .session import open_store, result_of

    store = open_store(db)
    log = load(store, game_id)
    groups = log.steps()
    seeded = log.header.chance == "seeded"
    setup = 0  # the set-up's seeded chance: the commands before the first player's command
    if seeded:
        while setup < len(groups) and groups[setup][0].actor == CHANCE:
            setup += 1
    takeable = len(groups) - setup
    if takeable == 0:
        raise NothingToUndo(f"{game_id}: nothing to take back (no command has been played)")
    if steps > takeable:
        raise NothingToUndo(f"{game_id}: only {plural(takeable, 'command')} can be taken back, not {steps}")
    first = groups[len(groups) - steps]
    if seeded and first[0].actor == CHANCE:
        cause = len(groups) - steps
        while groups[cause][0].actor == CHANCE:
            cause -= 1
        need = len(groups) - cause
        raise ChanceStays(
            f"{game_id}: chance's {log.game.public_command_text(first[0].command)!r} comes from the seed because of "
            f"{groups[cause][0].actor}'s {groups[cause][0].command!r}; take that back too (--steps {need})"
        )
    keep = first[0].seq
    kept = Log(game_id, log.header, log.rows[:keep])
    state = state_at(kept)
    scores, outcome = result_of(log.game, state)
    store.truncate(game_id, len(log.rows), log.head, keep, scores, outcome)
    public = log.game.public_command_text
    taken = [{"actor": g[0].actor, "command": public(g[0].command), "events": len(g)} for g in groups[len(groups) - steps:]]
    data: dict[str, Any] = {"id": game_id, "position": keep, "to_act": log.game.to_act(state), "taken_back": taken}
    text = f"took back {plural(len(taken), 'command')} ({plural(len(log.rows) - keep, 'event')}): " + "; ".join(
        f"{t['actor']}: {t['command']}" for t in taken
    )
    emit(as_json, data, text + f"\n{game_id}: position {keep}, {data['to_act']} to act")
