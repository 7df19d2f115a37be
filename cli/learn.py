"""``solrec train``: the learned bot's model trained (docs/ai.md, "Training the learned bot"). The
training is ``solrec.ai.learn`` (the ``learn`` extra: torch and sb3-contrib), imported only here, when
the command runs; this module checks the input first (nothing written on a refusal) and says the
progress on stderr."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.words import quoted

from .app import GameName, Json, command, emit
from .errors import UsageRefused

DEFAULT_OPPONENT = "greedy"


def _extra() -> Any:
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401

        import solrec.ai.learn as learn
    except ImportError as err:
        raise UsageRefused(f"train needs the learn extra (pip install 'solrec[learn]'): {err}") from None
    return learn


@command("train")
def train_cmd(
    game_name: GameName,
    steps: Annotated[int, typer.Option("--steps", min=1, max=1_000_000_000, help="Train to this many moves of the learner in all (ppo: rounded up to whole rollouts of 1,024; afterstate: to the end of the game that reaches it); a re-run with more goes on.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE.zip", help="The model file, written after every checkpoint; where it holds this run's model, training goes on from it.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1, help="The run's seed: the same seed, the same model.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="A setup option of the game (repeat the option).")] = None,
    players: Annotated[int | None, typer.Option("--players", min=1, help="How many players (default: the game's own count).")] = None,
    opponent: Annotated[str | None, typer.Option("--opponent", metavar="KIND[:SETTINGS]", help=f"The bot at the other seats of a game of several players (default {DEFAULT_OPPONENT}); the learner's seat is drawn per game.")] = None,
    hidden: Annotated[str, typer.Option("--hidden", metavar="N,N", help="The widths of the network's hidden layers.")] = "128,128",
    shaping: Annotated[bool, typer.Option("--shaping/--no-shaping", help="Reward the change of the greedy value at every move (the same best play; default) or the result alone.")] = True,
    method: Annotated[str, typer.Option("--method", metavar="ppo|afterstate", help="ppo: sb3-contrib's MaskablePPO learns a policy (default); afterstate: torch learns a value of the position each move leaves, by TD(lambda), and the bot plays the move it rates highest (a duel by self-play unless --opponent is given).")] = "ppo",
    as_json: Json = False,
) -> None:
    """Train the learned bot (bot policy:model=FILE) for one seat of GAME from its observation tensor:
    sb3-contrib's MaskablePPO on the CPU, one thread, the other seats played by --opponent; or with
    --method afterstate a value of the position each move leaves, by TD(lambda) on torch, a duel by
    self-play. Progress on stderr; the model file is written after every checkpoint, and the same
    command run again goes on from it (to more --steps). Deterministic for a seed."""
    from solrec.core.options import parse_options, split_assignments
    from solrec.core.play import SEEDED, make_header
    from solrec.core.registry import get_game

    game = get_game(game_name)
    base = split_assignments(option or [])
    default = tuple(game.default_players_for(parse_options(game.Options, dict(base))))
    names = default if players is None or players == len(default) else tuple(f"Player {i}" for i in range(1, players + 1))
    header = make_header(game, names, dict(base), SEEDED, 0)  # refuses a bad set-up (exit 2)
    try:
        widths = tuple(int(w) for w in hidden.split(","))
    except ValueError:
        raise UsageRefused(f"--hidden {quoted(hidden)}: layer widths as N,N (e.g. 128,128)") from None
    if method not in ("ppo", "afterstate"):
        raise UsageRefused(f"--method {quoted(method)}: ppo or afterstate")
    if len(names) == 1 and opponent is not None:
        raise UsageRefused(f"--opponent: {game.id} with these options is a solitaire, it has no other seat")
    learn = _extra()
    from solrec.ai.bots import BotError, parse_bot
    from solrec.ai.table import table_of

    try:
        table_of(header)
    except ValueError as err:
        raise UsageRefused(str(err)) from None
    bot = ""
    if len(names) > 1 and method == "afterstate" and opponent in (None, learn.SELF):
        bot = learn.SELF
    elif len(names) > 1:
        if opponent == learn.SELF:
            raise UsageRefused("--opponent self: self-play is for --method afterstate")
        try:
            bot = str(parse_bot(opponent or DEFAULT_OPPONENT))
        except BotError as err:
            raise UsageRefused(f"--opponent: {err}") from None
    given = {k: v for k, v in header.options_dict().items() if k in base}
    run = learn.Run(game.id, tuple(sorted(header.options_dict().items())), header.players, seed, bot, widths, shaping, method)
    try:
        learn.check(run, out)
    except learn.TrainError as err:
        raise UsageRefused(str(err)) from None
    words = ["solrec", "train", game.id, *[a for k, v in sorted(given.items()) for a in ("--option", f"{k}={v}")]]
    if players is not None:
        words += ["--players", str(players)]
    if len(names) > 1:
        words += ["--opponent", bot]
    if widths != (128, 128):
        words += ["--hidden", ",".join(map(str, widths))]
    if not shaping:
        words.append("--no-shaping")
    if method != "ppo":
        words += ["--method", method]
    words += ["--steps", learn.STEPS, "--seed", str(seed), "--out", str(out)]
    said = shlex.join(words)

    def progress(line: str) -> None:
        typer.echo(f"solrec train: {line}", err=True)

    progress(said.replace(learn.STEPS, str(steps)))
    try:
        meta = learn.train(run, steps, out, said, progress)
    except learn.TrainError as err:
        raise UsageRefused(str(err)) from None
    emit(as_json, meta, f"{out}: {meta['game']} trained to {meta['steps']:,} steps (seed {meta['seed']}); "
                        f"play it as bot policy:model={out}")
