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

from solrec.core.errors import SolrecError
from solrec.workflows.undo import comments_text, seat_refusal, shown_by, take_back  # noqa: F401 - undo's work, shared with the server

from .app import Db, GameId, Json, columns, command, emit, plural
from .errors import Declined, UsageRefused
from .impact import Dbs


@command("list")
def list_cmd(
    game: Annotated[str | None, typer.Option("--game", help="Only games of this kind (see `solrec games`).")] = None,
    over: Annotated[bool, typer.Option("--over", help="Only games that are over.")] = False,
    running: Annotated[bool, typer.Option("--running", help="Only games still running.")] = False,
    marked: Annotated[bool, typer.Option("--marked", help="The disputes instead: every comment marked disputed, ruled, ? "
                                                          "or ?? (or --mark's), newest first, at its move.")] = False,
    mark: Annotated[str | None, typer.Option("--mark", help="Only games with a comment of this mark (e.g. disputed).")] = None,
    no_automatic: Annotated[bool, typer.Option("--no-automatic", help="With --marked: leave out the comments solrec wrote "
                                                                      "itself (the ruling kept by a take-back).")] = False,
    tree: Annotated[bool, typer.Option("--tree", help="Each game with its forks beneath it (see `solrec fork`).")] = False,
    db: Dbs = None,
    as_json: Json = False,
) -> None:
    """List the stored games: id, game, players, created, events, status and scores.

    With several databases (--db repeated, or a folder of shards) their games one file after another.
    """
    from solrec.events import notes
    from solrec.events.forks import all_links

    from .impact import files_of
    from .session import open_store

    if over and running:
        raise UsageRefused("choose --over or --running, not both")
    if no_automatic and not marked:
        raise UsageRefused("--no-automatic leaves automatic comments out of --marked: add --marked")
    wanted = notes.check_mark(mark) or None
    stores = [open_store(path, missing_ok=True) for path in files_of(db)]
    if marked:
        from solrec.replay.disputes import DISPUTE_MARKS, disputes, line

        found = [d for d in disputes(stores, DISPUTE_MARKS if wanted is None else (wanted,), with_automatic=not no_automatic)
                 if (game is None or d["game"] == game)]
        emit(as_json, found, "\n".join([*map(line, found), plural(len(found), "marked comment")]))
        return
    with_marks = set().union(*(notes.games_marked(s, wanted) for s in stores)) if mark else None
    rows = []
    for r in (game_row for store in stores for game_row in store.list_games()):
        status = "running" if r["outcome"] is None else "over"
        if (game is not None and r["game"] != game) or (over and status != "over") or (running and status != "running"):
            continue
        if with_marks is not None and r["id"] not in with_marks:
            continue
        rows.append({
            "id": r["id"], "game": r["game"], "players": json.loads(r["players"]), "created": r["created"],
            "events": r["events"], "status": status, "scores": json.loads(r["scores"]) if r["scores"] else None,
        })
    depth: dict[str, int] = {}
    if tree:
        links: dict[str, tuple[str, int]] = {}
        for store in stores:
            links.update(all_links(store))
        rows, depth = as_tree(links, rows)
        from solrec.replay.log import load, move_at

        for r in rows:  # a fork's branching point as people count it: the move it branches after
            if r["fork"]:
                try:
                    parent = next(load(s, r["fork"]["of"]) for s in stores if s.has_game(r["fork"]["of"]))
                    r["fork"]["move"] = move_at(parent.rows, r["fork"]["at"])
                except (StopIteration, SolrecError):
                    r["fork"]["move"] = None
    table = [
        ("  " * depth.get(r["id"], 0) + r["id"], r["game"], r["events"], r["status"], r["created"][:19],
         ", ".join(f"{p} {r['scores'][p]}" if r["scores"] and p in r["scores"] else p for p in r["players"])
         + (f" (fork of {r['fork']['of']} after move {r['fork']['move']})" if tree and r["fork"] else ""))
        for r in rows
    ]
    lines = columns(("ID", "GAME", "EVENTS", "STATUS", "CREATED", "PLAYERS AND SCORES"), table, right=(2,))
    lines.append(plural(len(rows), "game"))
    emit(as_json, rows, "\n".join(lines))


def as_tree(links: dict[str, tuple[str, int]], rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The listed games ordered as a tree (``links``: fork -> parent, position): each after its
    parent, forks indented (depth per id); each row gains ``fork``: {"of", "at"} or None."""
    listed = {r["id"] for r in rows}
    kids: dict[str, list[dict[str, Any]]] = {}
    roots = []
    for r in rows:
        link = links.get(r["id"])
        r["fork"] = {"of": link[0], "at": link[1]} if link else None
        if link and link[0] in listed:
            kids.setdefault(link[0], []).append(r)
        else:
            roots.append(r)
    out: list[dict[str, Any]] = []
    depth: dict[str, int] = {}

    def visit(r: dict[str, Any], d: int) -> None:
        out.append(r)
        depth[r["id"]] = d
        for k in sorted(kids.get(r["id"], []), key=lambda x: (x["fork"]["at"], x["id"])):
            visit(k, d + 1)

    for r in roots:
        visit(r, 0)
    return out, depth


@command("delete")
def delete_cmd(
    game_id: GameId,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Delete a stored game and its events (asks first unless --yes).

    Its forks stay, as games of their own (no longer linked to it); the question names them."""
    from solrec.events.forks import children

    from .session import open_store

    store = open_store(db)
    row = store.game_row(game_id)
    forks = [f for f, _ in children(store, game_id)]
    also = (f"; its {'fork' if len(forks) == 1 else 'forks'} {', '.join(forks)}"
            f" {'stays a game' if len(forks) == 1 else 'stay games'} of {'its' if len(forks) == 1 else 'their'} own") if forks else ""
    if not yes:
        if not sys.stdin.isatty():
            raise UsageRefused(f"deleting {game_id} cannot be undone{also}: add --yes to confirm")
        if not typer.confirm(f"delete {game_id} ({row['game']}, {plural(row['events'], 'event')}){also}?", err=True):
            raise Declined("nothing deleted")
    store.delete_game(game_id)
    data: dict[str, Any] = {"id": game_id, "deleted": True, "events": row["events"]}
    if forks:
        data["forks_kept"] = forks
    emit(as_json, data, f"deleted {game_id}" + (f"; kept its forks {', '.join(forks)}" if forks else ""))


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
    steps: Annotated[int, typer.Option("--steps", min=1, help="How many moves to take back (chance's included).")] = 1,
    drop_comments: Annotated[bool, typer.Option("--drop-comments", help="Take back moves that carry comments, and drop "
                                                                        "the comments with them (without it, refused).")] = False,
    by: Annotated[str, typer.Option("--by", help="The referee's name on the ruling kept when the take-back passes what "
                                                "had been shown.")] = "solrec",
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Take back the last command(s), as players at the table do: their events leave the log.

    The line taken back is gone; to keep it and try another, `solrec fork ID --at MOVE` starts a
    variation instead. Moves that carry comments are taken back only with --drop-comments (the
    comments go with them). In a seeded game the chance that followed a command goes only with it:
    taking back chance alone is refused, since the seed would draw the same again. Chance drawn at
    the set-up stays. A take-back past what had been shown (a roll, a card) is kept as an automatic
    comment marked ruled, by --by (default solrec).
    """
    from solrec.events.notes import check_text

    from .session import open_store

    if not by.strip():
        raise UsageRefused("--by names the referee the ruling is kept under: give a name")
    check_text("", by)
    # the person at the terminal is the table's referee: a take-back past what had been shown is kept
    # as an automatic comment marked ruled, as the served referee's is (docs/security.md)
    data = take_back(open_store(db), game_id, steps, ruling=by, drop_comments=drop_comments)
    taken = data["taken_back"]
    text = f"took back {plural(len(taken), 'move')} ({plural(data['events'], 'event')}): " + "; ".join(
        f"move {t['move']} {t['actor']}: {t['command']}" for t in taken
    )
    if data["notes_dropped"]:
        text += "\ndropped " + comments_text([c["move"] for c in data["notes_dropped"]])
    if "ruled" in data:
        text += f"\nkept a comment marked ruled, by {data['ruled']['by']}: {data['ruled']['text']}"
    del data["events"]
    where = "at the set-up" if data["move"] == 0 else f"after move {data['move']}"
    emit(as_json, data, text + f"\n{game_id}: {where}, {data['to_act']} to act")


@command("upgrade")
def upgrade_cmd(db: Db = None, as_json: Json = False) -> None:
    """Migrate a database an older solrec wrote to this solrec's schema, in place.

    Every other command reads an older file as it is (through a private copy) and writes nothing to
    it; the first command that records something migrates it too. Hashes, seals and exports stay the
    same. A file of the current schema is left as it is.
    """
    from solrec.events import database
    from solrec.events import store as stores

    SCHEMA_VERSION = stores.SCHEMA_VERSION
    database.announce = None  # said on stdout, below
    store = stores.Store(db if db is not None else stores.default_db_path(), create=False, writing=True)
    was = store.upgrade()
    data = {"db": str(store.path), "schema": SCHEMA_VERSION, "was": was if was is not None else SCHEMA_VERSION,
            "migrated": was is not None}
    text = (f"{store.path}: migrated from solrec schema {was} to schema {SCHEMA_VERSION}" if was is not None
            else f"{store.path}: already solrec schema {SCHEMA_VERSION}; nothing to do")
    emit(as_json, data, text)
