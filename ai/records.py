"""Bots at the recorder: games played by bots through the same table as live play (``simulate
--player NAME=bot:KIND``), a hint for a seat of a stored game, and a review of every move of one
(docs/ai.md, "Hints and reviews"). Pure: the CLI stores what these return."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from solrec.core.game import CHANCE, Game
from solrec.core.play import Header, Step, advance_chance, initial_state, play
from solrec.core.words import quoted

from .bots import Bot, BotSpec, Decision, make_bot, move_seed
from .table import Position, Table, table_of

BOT_PREFIX = "bot:"
REVIEWER = "solrec review"
SIMULATOR = "solrec simulate"
# Lichess's thresholds on the loss of winning chances (its reviews: inaccuracy, mistake, blunder), on
# the adapters' return scale (-1 lost .. +1 won): a loss of at least 0.3 is a blunder.
THRESHOLDS = (("??", 0.3, "blunder"), ("?", 0.2, "mistake"), ("?!", 0.1, "inaccuracy"))


def split_player(text: str) -> tuple[str, BotSpec | None]:
    """``NAME`` or ``NAME=bot:KIND[:SETTINGS]`` (``--player``)."""
    from .bots import parse_bot

    name, eq, rest = text.partition("=")
    if not eq:
        return text, None
    if not rest.startswith(BOT_PREFIX):
        from .bots import BotError

        raise BotError(f"--player {quoted(text)}: a bot seat is NAME=bot:KIND[:SETTINGS] (KIND: random, greedy, mcts, policy)")
    return name, parse_bot(rest[len(BOT_PREFIX):])


def bot_seed(seed: int, index: int) -> int:
    """The bots' seed of the index-th game of a run (not its chance seed, which no seat knows)."""
    return int.from_bytes(hashlib.sha256(f"solrec-bots:{seed}:{index}".encode()).digest()[:8], "big") >> 1


def play_bots(game: Game, header: Header, bots: Mapping[str, Bot], seed: int, rng: random.Random,
              max_steps: int = 1_000_000) -> tuple[list[Step], Any]:
    """A seeded game to its end, the seats in ``bots`` played by their bots (each from what its seat
    sees), the others by ``game.sample_command`` with ``rng`` (as ``simulate``). Through
    ``core.play.play``: the steps are what live play records."""
    table = table_of(header)
    state = initial_state(game, header)
    steps, state, position_no = advance_chance(game, header, state, 0)
    position = table.follow(steps)
    while (actor := game.to_act(state)) is not None:
        if actor == CHANCE or len(steps) > max_steps:
            raise RuntimeError(f"{game.id}: the game stalled at position {position_no}")
        if actor in bots:
            command = bots[actor].decide(table, position, actor, move_seed(seed, position.moves)).command
        else:
            command = game.sample_command(state, rng)
        new, state, position_no = play(game, header, state, position_no, actor, command)
        steps.extend(new)
        position = table.follow(new, position)
    return steps, state


def bot_notes(bots: Mapping[str, BotSpec], seed: int) -> list[tuple[int, str, str, str, str]]:
    """The comment a bot game starts with (position 0, by ``solrec simulate``): who is which bot."""
    if not bots:
        return []
    who = "; ".join(f"{name} is the bot {spec}" for name, spec in bots.items())
    return [(0, SIMULATOR, "", "", f"{who} (bot seed {seed})")]


# -- a stored game, as positions ------------------------------------------------------------------------
def positions(log: Any) -> tuple[Table, list[tuple[Position, Any]]]:
    """Every command of a stored log with the position before it: (position, group of rows)."""
    from solrec.replay.log import replay_of

    table = table_of(log.header)
    replay = replay_of(log)
    position = table.follow(())
    out = []
    for group in log.steps():
        first = group[0]
        before = replay.state_at(first.seq)
        command = table.game.parse(first.command, before)
        out.append((position, group))
        position = table.follow([Step(first.actor, command, first.command, ())], position)
    out.append((position, None))
    return table, out


def at_end(log: Any) -> tuple[Table, Position]:
    table, all_positions = positions(log)
    return table, all_positions[-1][0]


@attrs.frozen
class Hint:
    seat: str
    command: str
    estimate: float
    bot: str

    def as_dict(self) -> dict[str, Any]:
        return {"as": self.seat, "command": self.command, "estimate": round(self.estimate, 3), "bot": self.bot}


def hint(log: Any, seat: str, spec: BotSpec, seed: int) -> Hint:
    """The bot's suggestion for ``seat`` at the end of ``log``, from what the seat sees."""
    from .bots import BotError

    table, position = at_end(log)
    if table.to_act(position).actor != seat:
        raise BotError(f"{seat} is not to act")
    decision = make_bot(spec).decide(table, position, seat, move_seed(seed, position.moves))
    return Hint(seat, table.game.format_at(decision.command, position.state), decision.estimate, str(spec))


@attrs.frozen
class Weighed:
    """One player command weighed: where it was played, its loss against the bot's best, its mark."""

    number: int  # the command's number among the log's commands (1, 2, ...)
    position: int  # the position after it (events applied): where its comment goes
    actor: str
    played: str
    best: str
    loss: float
    mark: str
    # whether the stored comment, which every seat reads, may name the better move: only where the
    # table saw all that its player saw (a better move may name a card in the player's hand)
    named: bool = True

    def text(self, spec: str) -> str:
        name = next((n for m, _, n in THRESHOLDS if m == self.mark), "")
        lead = f"{name}: " if name else ""
        if not self.named:
            return f"{lead}estimated loss {self.loss:.2f} (bot {spec}; the better move is not named: it may show what only {self.actor} saw)"
        return f"{lead}estimated loss {self.loss:.2f} against {self.best} (bot {spec})"

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "position": self.position, "actor": self.actor, "played": self.played,
                "best": self.best, "loss": round(self.loss, 3), "mark": self.mark or None, "named": self.named}


def mark_of(loss: float) -> str:
    for mark, at_least, _ in THRESHOLDS:
        if loss >= at_least - 1e-9:
            return mark
    return ""


def review(log: Any, spec: BotSpec, seed: int) -> list[Weighed]:
    """Every player command of ``log`` weighed by the bot from its player's view at that moment: the
    value of the bot's best action less the value of the one played, both on the return scale: the
    greedy bot's own values (exact: the immediate change); for a searching bot both actions valued
    again by ``played_value`` with the same roll-outs."""
    table, all_positions = positions(log)
    bot = make_bot(spec)
    out = []
    for number, (position, group) in enumerate(all_positions[:-1], start=1):
        actor = group[0].actor
        if actor == CHANCE:
            continue
        legal = table.legal(position)
        if len(legal) < 2:
            continue  # a forced command weighs nothing
        command = table.game.parse(group[0].command, position.state)
        played = table.codec.action(command)
        decision: Decision = bot.decide(table, position, actor, move_seed(seed, position.moves))
        values = dict(decision.values)
        if spec.kind == "greedy" and values:
            # the greedy bot weighs every legal action exactly (its immediate change)
            best_action = max(values, key=lambda a: (values[a], a == decision.action))
            loss = max(0.0, values[best_action] - values[played])
        else:
            # a search's values of rarely visited actions are noisy, and its choice may be one of several
            # alike: the move played, the bot's choice and the greedy bot's best three are valued again
            # alike, by the same roll-outs (common random numbers), and the best of them is the reference
            greedy = make_bot("greedy").decide(table, position, actor, move_seed(seed, position.moves))
            top = [a for a, _ in sorted(greedy.values, key=lambda av: (-av[1], av[0]))[:REVIEW_CANDIDATES]]
            candidates = sorted({played, decision.action, *top})
            weighed = {a: played_value(table, position, actor, legal[a], seed) for a in candidates}
            best_action = max(candidates, key=lambda a: (weighed[a], a == decision.action, a == played))
            loss = max(0.0, weighed[best_action] - weighed[played])
        out.append(Weighed(number, group[-1].seq + 1, actor, table.game.format_at(command, position.state),
                           table.game.format_at(legal[best_action], position.state), loss, mark_of(loss),
                           _table_saw_all(log, group[0].seq)))
    return out


def _table_saw_all(log: Any, at: int) -> bool:
    """Whether the table (what every seat sees) observed the whole state at position ``at``: then a
    review's comment may name the better move there (comments are shown to every seat)."""
    from solrec.core.observe import Viewer
    from solrec.replay.seen import seen

    return bool(seen(log, Viewer.table(), at).observation == seen(log, Viewer.referee(), at).observation)


# A searching bot's review (docs/ai.md, "Review"): the candidates valued again are the move played, the
# bot's choice and the greedy bot's best REVIEW_CANDIDATES; each by REVIEW_ROLLOUTS roll-outs of
# REVIEW_DEPTH random moves, then the score. Measured on the planted blunder of
# fixtures/review/soli2 (loss 0.39 by the exact immediate change): 16 roll-outs of 8 moves estimated it
# 0.23-0.26 (the random moves wash a lead out), 64 of 4 moves 0.39.
REVIEW_CANDIDATES = 3
REVIEW_ROLLOUTS = 64
REVIEW_DEPTH = 4


def played_value(table: Table, position: Position, seat: str, command: Any, seed: int,
                 rollouts: int = REVIEW_ROLLOUTS, depth: int = REVIEW_DEPTH) -> float:
    """A move's value for ``seat``: the mean of ``rollouts`` roll-outs of ``depth`` random moves after
    it, then the score, as the ``mcts`` bot values its leaves (from the seat's resampled view); the
    same seed, the same roll-outs (for every move weighed at one position)."""
    import numpy as np

    from .bots import resample
    from .search import ScoreEvaluator, _seed32
    from .spiel import SolrecState, game_for

    rng = random.Random(f"solrec-review:{seed}:{position.moves}")
    evaluator = ScoreEvaluator(table, depth, np.random.RandomState(_seed32(seed, f"review:{position.moves}")))
    seat_index = table.players.index(seat)
    total = 0.0
    for _ in range(rollouts):
        world = resample(table, position, seat, rng)
        after = table.play(world, command)
        total += float(evaluator.evaluate(SolrecState(game_for(table), after))[seat_index])
    return total / rollouts


def bots_of(players: Sequence[str]) -> tuple[list[str], dict[str, BotSpec]]:
    names, bots = [], {}
    for text in players:
        name, spec = split_player(text)
        names.append(name)
        if spec is not None:
            bots[name] = spec
    return names, bots
