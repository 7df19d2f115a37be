"""``solrec components GAME``: a game's component data with provenance; the reading of a component
set from a folder (one TOML file per family) or one TOML file, for ``new`` and ``validate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from solrec.core.errors import InvalidSetup

from .app import Db, GameName, Json, command, emit


def read_set(path: Path) -> tuple[str, dict[str, str]]:
    """The set's name and its TOML texts: per family from a folder, or one file (keyed by its file name)."""
    try:
        if path.is_dir():
            files = sorted(path.glob("*.toml"))
            if not files:
                raise InvalidSetup(f"{path} holds no .toml file")
            return path.name, {p.stem: p.read_text(encoding="utf-8") for p in files}
        return path.stem, {path.name: path.read_text(encoding="utf-8")}
    except UnicodeDecodeError:
        raise InvalidSetup(f"{path} is not UTF-8 text") from None


def options_for(game_id: str, path: Path) -> dict[str, str]:
    name, texts = read_set(path)
    from solrec.core.registry import get_game

    return get_game(game_id).components_options(name, texts)


@command("components")
def components_cmd(
    game: GameName,
    set_: Annotated[str | None, typer.Option("--set", help="The built-in set's name, or a folder/TOML file.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """List a game's component data with provenance and the counts of stated / inferred / house data."""
    del db  # no database is read: the data ships with the game or comes from --set
    from solrec.core.registry import get_game

    g = get_game(game)
    if set_ is not None and (Path(set_).exists() or set_.endswith(".toml") or "/" in set_):
        name, texts = read_set(Path(set_))
        data = g.components_listing(name, texts)
    else:
        data = g.components_listing(set_, None)
    counts = data["counts"]
    lines = [f"{data['game']} component set {data['set']} (digest {data['digest']})"]
    for d in data["data"]:
        value = "" if d["value"] == "record" else " = " + json.dumps(d["value"], ensure_ascii=False)
        lines.append(f"  {d['path']}{value}  [{d['source']}]")
    lines.append(", ".join(f"{counts[k]} {k}" for k in ("stated", "inferred", "house")) + f" ({sum(counts.values())} data)")
    emit(as_json, data, "\n".join(lines))


def validate_under(path: Path, ids: list[str], all_: bool, db: Path | None, as_json: bool) -> None:
    """``validate --components FILE``: per game, the first command whose events change under the set
    (``impact --components`` told as validate tells it; with --all, games without component data are
    not concerned)."""
    from .app import EXIT_PROBLEM, workflows
    from .impact import component_options, kinds_of, run_impact

    store = workflows().open_store(db)
    selected = None if all_ else ids
    options = component_options(path, kinds_of(store, selected))
    impacts = run_impact(store, selected, options, 1, as_json)
    results = [
        {"id": i.game_id, "changed": i.changed, "position": i.position, "reason": i.reason}
        for i in impacts if i.game in options or i.kind == "error"
    ]
    changed = [r for r in results if r["changed"]]
    name = read_set(path)[0]
    data = {"set": name, "games": results, "changed": len(changed), "unchanged": len(results) - len(changed)}
    lines = [
        f"{r['id']}: changes at event {r['position']}: {r['reason']}" if r["changed"] else f"{r['id']}: unchanged"
        for r in results
    ]
    lines.append(f"{len(results) - len(changed)} unchanged, {len(changed)} changed under component set {name}")
    emit(as_json, data, "\n".join(lines))
    if changed:
        raise typer.Exit(EXIT_PROBLEM)
