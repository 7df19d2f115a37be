"""The store-backed workflows both the CLI and the server call: start, play, import, fork, simulate
and validate games on an open ``Store``. No printing and no argument parsing (the CLI's glue is
cli/session.py); the server imports this without the CLI."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from solrec.core import words
from solrec.core.errors import IllegalCommand, InvalidCommand, SolrecError
from solrec.core.game import Game
from solrec.core.play import ENTERED, SEEDED, Header, Step, advance_chance, initial_state, make_header, play
from solrec.core.registry import get_game
from solrec.core.words import quoted
from solrec.events.codec import EventCodec
from solrec.events.envelope import codec_for
from solrec.events.record import InvalidRecord
from solrec.events.store import (
    ConcurrencyConflict,
    Store,
    StoreError,
    UnknownGameId,
    check_game_id,
)
from solrec.replay.log import Log, load, state_at

from .errors import UsageRefused


def result_of(game: Game, state: Any) -> tuple[dict, dict | None]:
    sheet = game.score(state)
    outcome = game.outcome(state)
    return dict(sheet.totals), (outcome.as_dict() if outcome else None)


def store_new(store: Store, game: Game, header: Header, game_id: str | None, steps: list[Step], state: Any) -> str:
    """Store a new game; without an id it takes the next free GAME-N, chosen inside the write."""
    scores, outcome = result_of(game, state)
    store.create_game(game_id, header, codec_for(game), steps, scores, outcome)
    assert store.last_created is not None
    return store.last_created


def new_game(
    store: Store,
    game_name: str,
    players: list[str],
    options: dict[str, str],
    seed: int | None,
    entered: bool,
    game_id: str | None,
    bots: dict[str, str] | None = None,
) -> tuple[str, list[Step], Log]:
    """A new game stored with its opening chance; ``bots``: the seats a bot plays from the start,
    recorded in the hashed header (``Header.bots``) as ``simulate`` records them."""
    game = get_game(game_name)
    if game_id is not None:
        check_game_id(game_id)
    if entered and seed is not None:
        raise UsageRefused("choose --seed or --entered, not both")
    chance = ENTERED if entered else SEEDED
    if chance == SEEDED and seed is None:
        import secrets  # here, not at start-up: only `new` without a seed needs it

        seed = secrets.randbits(63)
    header = make_header(game, players, options, chance, seed, bots=bots)
    state = initial_state(game, header)
    steps, state, _ = advance_chance(game, header, state, 0)
    gid = store_new(store, game, header, game_id, steps, state)
    return gid, steps, load(store, gid)


def play_commands(
    store: Store, game_id: str, texts: Iterable[str], actor: str | None = None, expected: tuple[int, str] | None = None,
    log: Log | None = None,
) -> tuple[list[Step], Log, Any, Any]:
    """Decide each command text in turn; append them all in one transaction, or nothing. Returns the
    steps, the log with them appended, the state after them and the state before them. ``expected``
    (position, head hash): the position the commands were chosen at (a page a player clicked on);
    refused (ConcurrencyConflict) when the log has moved on since. ``log``: the game as just loaded
    (a server keeps its states); the append checks it is still the stored head."""
    log = load(store, game_id) if log is None else log
    played = decide_commands(log, texts, actor, expected)
    return played.steps, played.append(store), played.state, played.before


@attrs.frozen
class Played:
    """Commands decided on a log, not yet stored: ``append`` stores them against the log's head."""

    log: Log  # the log they were decided on
    steps: list[Step]
    state: Any  # after them
    before: Any
    scores: dict
    outcome: dict | None

    def append(self, store: Store) -> Log:
        """Store the steps (head-checked: ConcurrencyConflict when the game moved on); the log after
        them (its recorded count and head, and its comments, carried on)."""
        log = self.log
        rows = store.append(log.game_id, len(log.rows), log.head, codec_for(log.game), self.steps, self.scores, self.outcome)
        return self.after(rows)

    def after(self, rows: Sequence[Any]) -> Log:
        log = self.log
        new_rows = log.rows + tuple(rows)
        recorded = None if log.recorded is None else {
            **log.recorded, "events": len(new_rows), "head": new_rows[-1].hash if new_rows else log.head,
            "scores": self.scores, "outcome": self.outcome}
        return attrs.evolve(log, rows=new_rows, recorded=recorded)


def decide_commands(log: Log, texts: Iterable[str], actor: str | None = None,
                    expected: tuple[int, str] | None = None) -> Played:
    """Decide each command text in turn on ``log`` (pure: nothing is read or written); ``Played.append``
    stores them. ``expected``: as ``play_commands``."""
    game_id = log.game_id
    if expected is not None and expected != (len(log.rows), log.head):
        raise ConcurrencyConflict(f"game {quoted(game_id)}: the position changed (the log now has {len(log.rows)} events); nothing was written")
    game, header = log.game, log.header
    state = before = state_at(log)
    position = len(log.rows)
    steps: list[Step] = []
    for text in texts:
        to_act = game.to_act(state)
        if to_act is None:
            raise IllegalCommand("the game is over")
        who = actor if actor is not None else to_act
        command = game.parse(text, state)
        new, state, position = play(game, header, state, position, who, command)
        steps.extend(new)
    if not steps:
        raise InvalidCommand("no command given")
    scores, outcome = result_of(game, state)
    return Played(log, steps, state, before, scores, outcome)


def import_text(store: Store, text: str, game_id: str | None) -> tuple[str, list[Step]]:
    """Decide a record and store its game, then its comments. A file of several records (``export
    --with-forks``) stores each, and its forks' relations; the first is returned (``import_all``)."""
    return import_all(store, text, game_id)[0]


def import_all(store: Store, text: str, game_id: str | None, name: str | None = None) -> list[tuple[str, list[Step]]]:
    """Decide every record of ``text``, then store each: the first under ``game_id`` when given,
    else under its record's id when free, else under ``name`` (its file's name) made unique, else
    the next GAME-N; a fork under its record's id when free, or, when its parent was stored under
    another id than its record's (``--id X``), under the parent's new id (``X.void`` for a fork
    ``old.void`` of ``old``)."""
    from solrec.events import forks
    from solrec.events import notes as comments
    from solrec.events.envelope import chain_rows, genesis_hash
    from solrec.events.record import RecordNote, decide_record, fork_of, split_records

    if game_id is not None:
        check_game_id(game_id)
    decided = []
    hashes: dict[str, list[str]] = {}  # a record's id in the file -> its chain (forks only)
    sections = split_records(text)
    for index, (offset, section) in enumerate(sections):
        found: list[RecordNote] = []
        header, steps, state, proposed = decide_record("\n" * offset + section, found)
        link = fork_of(section, offset + 1) if index else None
        if len(sections) > 1:
            chain = [r.hash for r in chain_rows(codec_for(get_game(header.game)), genesis_hash(header), 0, 0, steps)]
            if link is not None:
                parent = hashes.get(link[0])
                if parent is None:
                    raise InvalidRecord(f"line {offset + 1}: a fork of {quoted(link[0])}, which no record before it is")
                if link[1] > min(len(parent), len(chain)) or parent[: link[1]] != chain[: link[1]]:
                    raise InvalidRecord(f"line {offset + 1}: its first {link[1]} events are not those of {quoted(link[0])}")
            if proposed is not None:
                hashes[proposed] = chain
        decided.append((header, steps, state, proposed, found, link))
    out: list[tuple[str, list[Step]]] = []
    ids: dict[str, str] = {}  # a record's id in the file -> its stored id
    for index, (header, steps, state, proposed, found, link) in enumerate(decided):
        if proposed is not None and not _ID_OK(proposed):
            proposed = None  # a record's proposed id is only a suggestion
        wanted = game_id if index == 0 and game_id is not None else proposed
        gid = wanted if wanted is not None and (index == 0 and game_id is not None or not store.has_game(wanted)) else None
        if link is not None and ids.get(link[0], link[0]) != link[0]:  # its parent was stored under a new id
            tail = proposed[len(link[0]) + 1:] if proposed and proposed.startswith(link[0] + ".") else None
            gid = unique_id(store, f"{ids[link[0]]}.{tail}" if tail else None, f"{ids[link[0]]}.")
        elif gid is None and index == 0 and proposed is None and name:
            gid = unique_id(store, name, f"{name}-")
        gid = store_new(store, get_game(header.game), header, gid, steps, state)
        comments.add_many(store, gid, found)
        if proposed is not None:
            ids[proposed] = gid
        if link is not None:
            forks.link(store, gid, ids[link[0]], link[1])
        out.append((gid, steps))
    return out


def unique_id(store: Store, wanted: str | None, prefix: str) -> str | None:
    """``wanted`` when it is a free, well-formed id; else ``PREFIX2``, ``PREFIX3``... (for a fork,
    ``PARENT.1``...), the first free; None (the next GAME-N) when none is well formed."""
    if wanted is not None and _ID_OK(wanted) and not store.has_game(wanted):
        return wanted
    n = 1 if prefix.endswith(".") else 2
    while store.has_game(f"{prefix}{n}"):
        n += 1
    return f"{prefix}{n}" if _ID_OK(f"{prefix}{n}") else None


def fork_game(store: Store, parent: Log, position: int, game_id: str | None) -> tuple[str, list[Step]]:
    """A new game from the parent's header and its commands up to ``position`` (a command's end),
    each decided again as live play would, so its chain is the parent's up to there; a seeded game
    goes on from the same seed (chance due at ``position`` draws what it drew in the parent). Then
    the relation is recorded (events/forks.py)."""
    from solrec.core.play import decide_as, fold
    from solrec.events import forks

    game, header = parent.game, parent.header
    state = initial_state(game, header)
    steps: list[Step] = []
    at = 0
    for group in parent.steps():
        if at >= position:
            break
        step = decide_as(game, header, state, at, group[0].actor, game.parse(group[0].command, state))
        state = fold(game, state, step.events)
        at += len(step.events)
        steps.append(step)
    more, state, _ = advance_chance(game, header, state, at)
    gid = store_new(store, game, header, game_id if game_id is not None else fork_id(store, parent.game_id),
                    steps + more, state)
    rows = store.rows(gid)
    if [r.hash for r in rows[:position]] != [r.hash for r in parent.rows[:position]]:
        store.delete_game(gid)
        raise UsageRefused(f"{parent.game_id}'s moves up to position {position} no longer give its events; not forked")
    forks.link(store, gid, parent.game_id, position)
    return gid, steps + more


def fork_id(store: Store, parent: str) -> str | None:
    """``PARENT.N``, the first N free; None (the next GAME-N) when that would be too long an id."""
    n = 1
    while store.has_game(f"{parent}.{n}"):
        n += 1
    candidate = f"{parent}.{n}"
    return candidate if _ID_OK(candidate) else None


# ``simulate`` commits its games in batches: one disk sync for many games instead of one per game
# (issue 32: 10,000 Solo Dice games waited 507 s on syncs for 42 s of deciding). A batch is committed
# whole once it holds this much work, so a killed run loses at most the batch it was deciding, never
# part of a game.
BATCH_SECONDS = 1.0  # of deciding: a killed run loses at most about this much work
BATCH_GAMES = 1_000
BATCH_EVENTS = 50_000  # the rows held in memory meanwhile


def simulate_games(
    store: Store,
    game_name: str,
    count: int,
    seed: int,
    players: list[str],
    options: dict[str, str],
    progress=None,
    batch_seconds: float = BATCH_SECONDS,
    batch_games: int = BATCH_GAMES,
) -> tuple[list[str], dict[str, Any]]:
    """Simulate and record ``count`` games; returns their ids and a summary of them. The games are
    committed in batches (``Store.create_games``), each under the next free ``GAME-N`` chosen inside
    its write, so concurrent runs never take the same id; what is stored is exactly what one write
    per game would store."""
    import time

    from solrec.events.store import NewGame
    from solrec.replay.simulate import game_seed, player_rng, simulate

    game = get_game(game_name)
    codec: EventCodec = codec_for(game)
    ids: list[str] = []
    results = []
    make_header(game, players, options, SEEDED, game_seed(seed, 0))  # refuse a bad setup before writing
    batch: list[NewGame] = []
    events = 0
    started = time.monotonic()
    for index in range(count):
        header = make_header(game, players, options, SEEDED, game_seed(seed, index))
        steps, state = simulate(game, header, player_rng(seed, index))
        scores, outcome = result_of(game, state)
        batch.append(NewGame(header, steps, scores, outcome))
        events += sum(len(s.events) for s in steps)
        results.append((scores, outcome, len(steps), sum(len(s.events) for s in steps)))
        if (index + 1 == count or len(batch) >= batch_games or events >= BATCH_EVENTS
                or time.monotonic() - started >= batch_seconds):
            ids += _store_batch(store, codec, batch, ids, count)
            if progress is not None:
                progress(len(batch))
            batch, events, started = [], 0, time.monotonic()
    return ids, summarize(game.id, results)


def _store_batch(store: Store, codec: EventCodec, batch: list[Any], done: list[str], count: int) -> list[str]:
    """Commit a batch of simulated games; where that fails, the games one by one, so that as many are
    kept as fit (a full disk) and the refusal names the game it stopped at (issue 21)."""
    try:
        return store.create_games(batch, codec)
    except StoreError:
        pass
    ids: list[str] = []
    for game in batch:
        try:
            store.create_game(None, game.header, codec, game.steps, game.scores, game.outcome)
        except StoreError as err:
            kept = done + ids
            if not kept:
                raise
            # The games before are kept: say which (issue 21).
            reason = str(err).removesuffix("; nothing was written")
            raise type(err)(
                f"{reason} at game {len(kept) + 1} of {count}: kept the {len(kept)} recorded before it "
                f"({id_span(kept)}); nothing more was written"
            ) from None
        assert store.last_created is not None
        ids.append(store.last_created)
    return ids


def id_span(ids: list[str]) -> str:
    """Game ids ``GAME-N`` numbered one after another as ``first .. last``, other ids listed."""
    numbers = [gid.rpartition("-")[2] for gid in ids]
    prefixes = {gid.rpartition("-")[0] for gid in ids}
    if len(ids) > 1 and len(prefixes) == 1 and all(n.isdigit() for n in numbers):
        if [int(n) for n in numbers] == list(range(int(numbers[0]), int(numbers[0]) + len(ids))):
            return f"{ids[0]} .. {ids[-1]}"
    return ", ".join(ids)


def summarize(game: str, results: list[tuple[dict, dict | None, int, int]]) -> dict[str, Any]:
    """Per game type: how the games ended (``results``: won, drawn, lost, scored), who won them
    (``winners``: a player, or partners or sharers together), mean and range of every player's
    score, mean length."""
    n = len(results)
    winners: dict[str, int] = {}
    ended: dict[str, int] = {}
    scores: dict[str, list[int]] = {}
    for totals, outcome, _, _ in results:
        result = (outcome or {}).get("result", "running")
        ended[result] = ended.get(result, 0) + 1
        won = (outcome or {}).get("winners") or []
        if won:
            key = words.names(won)
            winners[key] = winners.get(key, 0) + 1
        for player, total in totals.items():
            scores.setdefault(player, []).append(total)
    return {
        "game": game,
        "games": n,
        "results": dict(sorted(ended.items(), key=lambda kv: (-kv[1], kv[0]))),
        "winners": dict(sorted(winners.items(), key=lambda kv: (-kv[1], kv[0]))),
        "scores": {
            p: {"mean": round(sum(v) / len(v), 2), "min": min(v), "max": max(v)} for p, v in scores.items()
        },
        "mean_commands": round(sum(r[2] for r in results) / n, 1) if n else 0,
        "mean_events": round(sum(r[3] for r in results) / n, 1) if n else 0,
    }


def summary_text(summary: dict[str, Any]) -> str:
    n = summary["games"]
    lines = [f"{summary['game']}: {n} game{'' if n == 1 else 's'}, "
             f"{summary['mean_commands']} commands and {summary['mean_events']} events on average"]
    ended = summary["results"]
    if set(ended) - {"won", "drawn"}:  # solo games: won or lost, or scored (the scores follow)
        lines.append("  results: " + ", ".join(f"{result} {count}" for result, count in ended.items()))
    else:
        won = [f"{who} {count}" for who, count in summary["winners"].items()]
        lines.append(f"  won by: {', '.join(won) if won else 'nobody'}"
                     + (f"; drawn {ended['drawn']}" if ended.get("drawn") else ""))
    for player, s in summary["scores"].items():
        lines.append(f"  {player}: mean score {s['mean']}, from {s['min']} to {s['max']}")
    return "\n".join(lines)


def _ID_OK(game_id: str) -> bool:
    try:
        check_game_id(game_id)
        return True
    except SolrecError:
        return False


def validate_games(store: Store, ids: list[str] | None, progress=None, jobs: int | None = 1) -> list[Any]:
    """A verdict per game (``ids`` None: every game, and every id whose events lost their games row).
    ``--all`` streams the corpus over ``jobs`` worker processes (None: as many as pay off)."""
    from solrec.events.seal import key_from
    from solrec.replay.corpus import validate_corpus
    from solrec.replay.validate import orphan_verdicts, validate_stored

    key = key_from()
    if ids is None:  # validate_corpus reads in one snapshot (on several jobs, one per worker)
        return validate_corpus(store, None, jobs, key, progress) + orphan_verdicts(store)
    with store.snapshot():  # every verdict of one moment
        orphans = {v.game_id: v for v in orphan_verdicts(store)}
        verdicts = []
        for gid in ids:
            if gid in orphans:
                verdicts.append(orphans[gid])
            elif not store.has_game(gid):
                raise UnknownGameId(f"no game {quoted(gid)} in {store.path}")
            else:
                verdicts.append(validate_stored(store, gid, key))
        return verdicts
