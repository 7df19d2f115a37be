"""Records in and out: `export`, `import`, `simulate`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import Db, GameId, GameName, Hiding, Json, command, emit, load_log, plural, say_notices, workflows
from .errors import HiddenInformation
from .impact import Dbs


@command("export")
def export_cmd(
    game_id: GameId,
    events: Annotated[bool, typer.Option("--events", help="Add each command's events and hashes.")] = False,
    with_forks: Annotated[bool, typer.Option("--with-forks", help="Add its forks' records after it (docs/record-format.md).")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Export a running game whose record holds what the players cannot see.")] = False,
    db: Dbs = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record's metadata as JSON (with its lines unless --output).")] = False,
) -> None:
    """Write the game as a JSON Lines record (docs/record-format.md).

    With several databases (--db repeated, or a folder of shards) the game is found in whichever holds it.
    """
    from solrec.events.notes import checked
    from solrec.events.record import export_lines
    from solrec.replay.log import state_at

    from .impact import files_of

    files = files_of(db)
    path = next((p for p in files if workflows().open_store(p).has_game(game_id)), files[0])
    log = load_log(path, game_id)
    hiding = Hiding(log, state_at(log), reveal)
    if hiding.on and any(hiding.command(r.command) != r.command for r in log.rows):
        raise HiddenInformation(
            f"{game_id} is still running and its record holds what the players cannot see "
            "(a seeded deck's order): add --reveal to export it anyway"
        )
    store = workflows().open_store(path)  # its forks are in the same file
    comments = checked(store, game_id).notes
    lines = list(export_lines(game_id, log.header, log.rows, with_events=events, notes=comments))
    meta: dict[str, Any] = {"id": game_id, "game": log.header.game, "commands": len(lines) - 1, "events": len(log.rows)}
    if with_forks:
        from solrec.events.forks import descendants

        meta["forks"] = []
        for fork, parent, position in descendants(store, game_id):
            flog = load_log(path, fork)
            fhiding = Hiding(flog, state_at(flog), reveal)
            if fhiding.on and any(fhiding.command(r.command) != r.command for r in flog.rows):
                raise HiddenInformation(f"{fork} (a fork of {game_id}) is still running and its record holds what the"
                                        " players cannot see: add --reveal to export it anyway")
            flines = list(export_lines(fork, flog.header, flog.rows, events, checked(store, fork).notes))
            head = json.loads(flines[0])
            head["fork"] = {"of": parent, "at": position}
            lines += [json.dumps(head), *flines[1:]]
            meta["forks"].append(fork)
    text = "\n".join(lines) + "\n"
    if output is not None:
        output.write_text(text, encoding="utf-8")
        emit(as_json, {**meta, "output": str(output)},
             f"exported {game_id} to {output}: {plural(meta['commands'], 'command')}, {plural(meta['events'], 'event')}")
    elif as_json:
        emit(True, {**meta, "lines": [json.loads(line) for line in lines]}, "")
    else:
        say_notices()
        typer.echo(text, nl=False)


def file_id(file: str) -> str:
    """An id from a record file's name: ``disputed-with-forks.jsonl`` -> ``disputed-with-forks``."""
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(file).stem).strip("-.")[:60]


@command("import")
def import_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A JSON Lines record, or - for stdin.")],
    game_id: Annotated[str | None, typer.Option("--id", help="Store under this id (default: the record's, else the file's "
                                                             "name, made unique; its forks are named under it).")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Decide every command of a record in turn, as live play would, and store the game."""
    from solrec.events.notes import read as read_notes

    session = workflows()
    session.check_id_given(game_id)
    text = session.read_record(file)
    store = session.open_store(db, create=True)
    stored = session.import_all(store, text, game_id, None if file == "-" else file_id(file))
    gid, steps = stored[0]
    events = sum(len(s.events) for s in steps)
    data: dict[str, Any] = {"id": gid, "commands": len(steps), "events": events}
    message = f"imported {gid}: {plural(len(steps), 'command')}, {plural(events, 'event')}"
    kept = len(read_notes(store, gid).notes)
    if kept:
        data["notes"] = kept
        message += f", {plural(kept, 'comment')}"
    if len(stored) > 1:
        data["forks"] = [fork for fork, _ in stored[1:]]
        message += f"; and its {plural(len(stored) - 1, 'fork')}: {', '.join(data['forks'])}"
    emit(as_json, data, message)


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

    session = workflows()
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
