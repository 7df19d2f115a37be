"""`solrec hint` and `solrec review`, and the bot seats of `solrec simulate` (the ai extra: docs/ai.md)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from solrec.core.words import quoted

from .app import Db, GameId, Json, command, emit, load_log, workflows
from .errors import UsageRefused

BotOption = Annotated[str, typer.Option("--bot", metavar="KIND[:SETTINGS]", help="The bot: random, greedy, mcts or policy (the learned bot), with KEY=VALUE settings (docs/ai.md).")]
SeedOption = Annotated[int, typer.Option("--seed", help="The bot's seed: the same seed, the same answer.")]


def _ai() -> Any:
    """solrec.ai, or a one-line refusal where the ai extra is not installed."""
    try:
        import solrec.ai.bots  # noqa: F401
        import solrec.ai.records as records
    except ImportError as err:
        raise UsageRefused(f"bots need the ai extra (pip install 'solrec[ai]'): {err}") from None
    return records


def _spec(text: str) -> Any:
    from solrec.ai.bots import BotError, parse_bot

    try:
        return parse_bot(text)
    except BotError as err:
        raise UsageRefused(str(err)) from None


def simulate_bot_games(store, game_name: str, count: int, seed: int, players: list[str], options: dict[str, str],
                       progress=None) -> tuple[list[str], dict[str, Any], dict[str, str]]:
    """``simulate`` with bot seats (``--player NAME=bot:KIND``): each game played by its bots through
    the table as live play, the bots recorded in the header (``Header.bots``) and, with their seed, in a
    first comment by "solrec simulate"."""
    from solrec.core.play import SEEDED, make_header
    from solrec.core.registry import get_game
    from solrec.events import notes
    from solrec.events.envelope import codec_for
    from solrec.replay.simulate import game_seed, player_rng

    from .session import result_of, summarize

    records = _ai()
    from solrec.ai.bots import BotError, make_bot

    try:
        names, specs = records.bots_of(players)
    except BotError as err:
        raise UsageRefused(str(err)) from None
    game = get_game(game_name)
    make_header(game, names, options, SEEDED, game_seed(seed, 0))  # refuse a bad setup before writing
    unknown = [n for n in specs if n not in make_header(game, names, options, SEEDED, 0).players]
    if unknown:
        raise UsageRefused(f"bot seat {quoted(unknown[0])} is not a player of the game")
    try:
        from solrec.ai.table import table_of

        table_of(make_header(game, names, options, SEEDED, 0))
    except ValueError as err:
        raise UsageRefused(str(err)) from None
    codec = codec_for(game)
    bots = {name: make_bot(spec) for name, spec in specs.items()}
    try:
        for bot in bots.values():
            bot.ready(table_of(make_header(game, names, options, SEEDED, 0)))  # the learned bot: a model for it
    except BotError as err:
        raise UsageRefused(str(err)) from None
    ids, results = [], []
    for index in range(count):
        header = make_header(game, names, options, SEEDED, game_seed(seed, index),
                             bots={name: str(spec) for name, spec in specs.items()})
        bseed = records.bot_seed(seed, index)
        steps, state = records.play_bots(game, header, bots, bseed, player_rng(seed, index))
        scores, outcome = result_of(game, state)
        store.create_game(None, header, codec, steps, scores, outcome)
        gid = store.last_created
        notes.add_many(store, gid, records.bot_notes(specs, bseed))
        ids.append(gid)
        results.append((scores, outcome, len(steps), sum(len(s.events) for s in steps)))
        if progress is not None:
            progress(1)
    return ids, summarize(game.id, results), {name: str(spec) for name, spec in specs.items()}


@command("hint")
def hint_cmd(
    game_id: GameId,
    name: Annotated[str, typer.Option("--as", metavar="NAME", help="The player to act, whose view the bot reads.")],
    bot: BotOption = "mcts",
    seed: SeedOption = 0,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """The bot's suggested command for NAME, from what NAME sees, with its estimate (-1 lost .. +1 won)."""
    records = _ai()
    from solrec.ai.bots import BotError

    log = load_log(db, game_id)
    if name not in log.header.players:
        raise UsageRefused(f"{quoted(name)} is not a player of {game_id}")
    try:
        found = records.hint(log, name, _spec(bot), seed)
    except (BotError, ValueError) as err:
        raise UsageRefused(str(err)) from None
    emit(as_json, {"id": game_id, **found.as_dict()},
         f"{game_id}: {name} might play {found.command} (estimate {found.estimate:+.2f}, bot {found.bot})")


@command("review")
def review_cmd(
    game_id: GameId,
    bot: BotOption = "mcts",
    seed: SeedOption = 0,
    store_notes: Annotated[bool, typer.Option("--store/--no-store", help="Store the marks as comments by \"solrec review\".")] = True,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Weigh every player's move by the bot, from that player's view at that moment: the estimated loss
    against the bot's best move, marked ?! (>= 0.1), ? (>= 0.2), ?? (>= 0.3) and stored as comments."""
    records = _ai()
    from solrec.ai.bots import BotError
    from solrec.events import notes

    log = load_log(db, game_id)
    spec = _spec(bot)
    try:
        weighed = records.review(log, spec, seed)
    except (BotError, ValueError) as err:
        raise UsageRefused(str(err)) from None
    marked = [w for w in weighed if w.mark]
    stored = 0
    if store_notes and marked:
        store = workflows().open_store(db)
        if any(n.by == records.REVIEWER for n in notes.checked(store, game_id).notes):
            raise UsageRefused(f"{game_id} was reviewed already (its comments by {quoted(records.REVIEWER)}); "
                               "delete them first or use --no-store")
        for w in marked:
            notes.add(store, game_id, w.position, records.REVIEWER, w.mark, w.text(str(spec)))
            stored += 1
    lines = [f"{w.number:>4}. {w.actor}: {w.played}{w.mark}  ({w.text(str(spec))})" for w in marked]
    summary = f"{game_id}: {len(weighed)} moves weighed by the bot {spec}, {len(marked)} marked"
    summary += f", {stored} comments stored" if stored else ""
    emit(as_json, {"id": game_id, "bot": str(spec), "seed": seed, "moves": [w.as_dict() for w in weighed],
                   "stored": stored}, "\n".join([summary, *lines]))
