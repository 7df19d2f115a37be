"""The table's commands: `games`, `new`, `play`, `legal`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .app import (
    AsPlayer,
    Db,
    GameId,
    GameName,
    Json,
    SolrecCommand,
    command,
    emit,
    load_log,
    plural,
    status_of,
    status_text,
    steps_data,
    steps_text,
    viewer,
    workflows,
)
from .errors import UsageRefused


def rule_text_name(file: str) -> str:
    """A rule text as people name it: ``004_917d94bb7d3af918.txt`` (number, digest) is text ``004``."""
    number = file.split("_", 1)[0]
    return number if number.isdigit() else file


@command("games")
def games_cmd(db: Db = None, as_json: Json = False) -> None:
    """List the games solrec knows, with their options."""
    from solrec.core import words
    from solrec.core.options import describe_options
    from solrec.core.registry import games as registered_games

    data: list[dict[str, Any]] = [
        {
            "id": g.id,
            "title": g.title,
            "rules": g.rules_version,
            "rule_text": g.rule_text,
            "players": [g.min_players, g.max_players],
            "options": describe_options(g.Options),
        }
        for g in registered_games().values()
    ]
    lines = []
    for d in data:
        span = d["players"][0] if d["players"][0] == d["players"][1] else f"{d['players'][0]}-{d['players'][1]}"
        noun = "player" if d["players"] == [1, 1] else "players"
        lines.append(f"{d['id']:<18} {d['title']} ({span} {noun}, rules {d['rules']}, rule text {rule_text_name(d['rule_text'])})")
        for o in d["options"]:
            choices = f" [{'|'.join(map(words.value, o['choices']))}]" if o["choices"] else ""
            lines.append(f"    {o['name']}={words.value(o['default'])}{choices}  {o['help']}")
    emit(as_json, data, "\n".join(lines))


@command("new")
def new_cmd(
    game: GameName,
    player: Annotated[list[str] | None, typer.Option("--player", "-p", metavar="NAME", help="A player, in seating order (repeat the option).")] = None,
    seed: Annotated[int | None, typer.Option(help="Draw chance from this seed (default: a random seed, recorded).")] = None,
    entered: Annotated[bool, typer.Option("--entered", help="Chance is typed in from a real table.")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="KEY=VALUE setup option (see `solrec games`).")] = None,
    game_id: Annotated[str | None, typer.Option("--id", help="The new game's id (default: GAME-N).")] = None,
    components: Annotated[Path | None, typer.Option("--components", help="A component set (folder or TOML file) for a game whose components are data.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Start a game (seeded chance by default, with a random seed unless --seed)."""
    from solrec.core.options import split_assignments

    session = workflows()
    options = split_assignments(option or [])
    session.check_id_given(game_id)
    if components is not None:
        from .components import options_for

        options.update(options_for(game, components))
    store = session.open_store(db, create=True)
    gid, steps, log = session.new_game(store, game, player or [], options, seed, entered, game_id)
    status = status_of(log)
    data = {**status, "header": log.header.as_dict(), "steps": steps_data(log.game, steps)}
    text = f"created {gid} ({log.game.title}, chance {log.header.chance}"
    text += f", seed {log.header.seed})" if log.header.seed is not None else ")"
    if steps:
        text += "\n" + steps_text(log.game, steps)
    emit(as_json, data, text + "\n" + status_text(status))


class PlayCommand(SolrecCommand):
    """``play --help`` ends with every game's notation and two examples (the games are imported only
    when the help is asked for)."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        from solrec.core.registry import games as registered_games

        formatter.write_paragraph()
        formatter.write_text("Notation of each game (`solrec legal ID` lists the legal commands):")
        with formatter.indentation():
            for g in registered_games().values():
                formatter.write_paragraph()
                formatter.write_text(f"{g.id}: {g.notation_help or 'see `solrec legal ID`'}")
                for example in g.notation_examples[:2]:
                    formatter.write_text(f"  e.g. solrec play ID '{example}'")


@command("play", cls=PlayCommand)
def play_cmd(
    game_id: GameId,
    words: Annotated[list[str] | None, typer.Argument(metavar="COMMAND", help="A command in the game's notation; several are separated by ';'. None: the terminal mode, a prompt that reads one command a line.")] = None,
    actor: Annotated[str | None, typer.Option("--actor", help="Refuse unless this player (or 'chance') is to act.")] = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Play commands in the game's notation as whoever is to act (chance included); with no command,
    a prompt reads them one a line (position, whose turn, the legal commands, Tab completion, undo,
    show, help, quit) until the game ends or input ends."""
    session = workflows()
    if not words:
        from .prompt import run

        if as_json or actor is not None:
            raise UsageRefused("the terminal mode (play with no command) takes neither --json nor --actor")
        run(session.open_store(db), game_id)
        return
    texts = [t.strip() for t in " ".join(words).split(";") if t.strip()]
    store = session.open_store(db)
    steps, log, state, before = session.play_commands(store, game_id, texts, actor)
    status = status_of(log, state)
    emit(as_json, {**status, "steps": steps_data(log.game, steps, before)},
         steps_text(log.game, steps, before) + "\n" + status_text(status))


@command("legal")
def legal_cmd(game_id: GameId, as_: AsPlayer = None, db: Db = None, as_json: Json = False) -> None:
    """List every legal command of whoever is to act (--as NAME: only when NAME is to act, since a
    player's commands name his own cards)."""
    log = load_log(db, game_id)
    player = viewer(log, as_, False)
    data, text = legal_output(log, player)
    emit(as_json, data, text)


def legal_output(log, player: str | None) -> tuple[dict[str, Any], str]:
    """What ``legal`` prints: the legal commands of whoever is to act (``player``: only when that
    player is to act; ``replay.seen``), its JSON data and its text."""
    from solrec.core.errors import WrongActor
    from solrec.core.game import CHANCE
    from solrec.core.observe import Viewer
    from solrec.replay.seen import seen

    game = log.game
    # without --as, the one who runs `legal` is told every command of whoever is to act
    look = seen(log, Viewer.referee() if player is None else Viewer.seat(player))
    to_act = look.to_act
    if player is not None and to_act != player:
        raise WrongActor(f"{player} is not to act ({'nobody' if to_act is None else to_act} is): "
                         "the legal commands of another player would name his hand")
    state = look.state_for_rules()
    legal = look.legal
    commands = None if legal is None else [look.format(c) for c in legal]
    data = {"id": log.game_id, "position": len(log.rows), "to_act": to_act, "enumerable": legal is not None, "commands": commands}
    if to_act is None:
        text = "the game is over: no legal command"
    elif commands is None:
        who = "chance" if to_act == CHANCE else to_act
        text = f"{who} is to act; the choices here are not enumerable"
        if to_act == CHANCE and log.header.chance != "entered":
            text += " (chance acts from the seed)"
        forms = list(game.command_forms(state)) if to_act != CHANCE else []
        if forms:
            data["forms"] = forms
            text += "; the command forms:\n" + "\n".join(f"  {f}" for f in forms)
    else:
        text = f"{to_act} to act, {plural(len(commands), 'legal command')}:\n" + "\n".join(f"  {c}" for c in commands)
    if to_act == CHANCE and log.header.chance == "entered":
        expected = list(game.chance_forms(state))  # what the table types now, with an example
        if expected:
            data["chance_forms"] = expected
            text += "\nthe chance expected now:\n" + "\n".join(f"  {f}" for f in expected)
    if to_act is not None and to_act != CHANCE:
        fields, lines = game.legal_details(state)  # e.g. where a flight can end and what is possible there
        data.update(fields)
        text += "".join(f"\n{line}" for line in lines)
    return data, text

