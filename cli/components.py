"""``solrec components GAME``: a game's component data with provenance; the reading of a component
set from a folder (one TOML file per family) or one TOML file, for ``new`` and ``validate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from solrec.core.errors import InvalidSetup

from .app import Db, GameName, Json, command, emit

MAX_SET_BYTES = 1024 * 1024  # a component set is a document typed in from a glossary; each game bounds it further


def _read(path: Path, budget: int) -> str:
    """A regular file's text, refused unread when it is larger than what is left of the budget."""
    if not path.is_file():
        raise InvalidSetup(f"{path} is not a regular file")
    with path.open("rb") as f:
        data = f.read(budget + 1)
    if len(data) > budget:
        raise InvalidSetup(f"{path}: a component set is at most {MAX_SET_BYTES // 1024} KiB, all its files together")
    return data.decode("utf-8")


def read_set(path: Path) -> tuple[str, dict[str, str]]:
    """The set's name and its TOML texts: per family from a folder, or one file (keyed by its file name)."""
    try:
        if path.is_dir():
            files = sorted(path.glob("*.toml"))
            if not files:
                raise InvalidSetup(f"{path} holds no .toml file")
            texts, budget = {}, MAX_SET_BYTES
            for p in files:
                texts[p.stem] = _read(p, budget)
                budget -= len(texts[p.stem].encode("utf-8"))
            return path.name, texts
        return path.stem, {path.name: _read(path, MAX_SET_BYTES)}
    except UnicodeDecodeError:
        raise InvalidSetup(f"{path} is not UTF-8 text") from None


def named_set(set_: str | None) -> tuple[str | None, dict[str, str] | None]:
    """``--set``: a folder or TOML file read (its name and texts), else a built-in set's name (no texts)."""
    if set_ is not None and (Path(set_).exists() or set_.endswith(".toml") or "/" in set_):
        return read_set(Path(set_))
    return set_, None


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
    data = g.components_listing(*named_set(set_))
    counts = data["counts"]
    lines = [f"{data['game']} component set {data['set']} (digest {data['digest']})"]
    for d in data["data"]:
        value = "" if d["value"] == "record" else " = " + json.dumps(d["value"], ensure_ascii=False)
        lines.append(f"  {d['path']}{value}  [{d['source']}]")
    lines.append(", ".join(f"{counts[k]} {k}" for k in ("stated", "inferred", "house")) + f" ({sum(counts.values())} data)")
    emit(as_json, data, "\n".join(lines))


@command("card")
def card_cmd(
    game: GameName,
    number: Annotated[int, typer.Argument(metavar="N", help="The card's number, as in the game's commands (play N, discard N).")],
    set_: Annotated[str | None, typer.Option("--set", help="The built-in set's name, or a folder/TOML file.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Show one card as it is printed: both sides, costs and effects in words, and its provenance."""
    del db  # no database is read
    from solrec.core.registry import get_game

    g = get_game(game)
    data = g.card(number, *named_set(set_))
    emit(as_json, {k: v for k, v in data.items() if k != "text"}, data["text"])
