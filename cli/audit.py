"""The audit's commands: `show`, `log`, `score`, `replay`, `diff`, `validate`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import (
    EXIT_PROBLEM,
    AsPlayer,
    AtMove,
    Db,
    GameId,
    Hiding,
    Json,
    Reveal,
    after_move,
    colour_on,
    columns,
    command,
    complete_game_id,
    emit,
    load_log,
    note_dict,
    paint,
    viewer,
    workflows,
)
from .errors import UsageRefused
from .impact import Cluster, Dbs, Jobs, ShipRows, cluster_address, files_of, run_corpus, select


@command("show")
def show_cmd(
    game_id: GameId,
    at: AtMove = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="Also show what the players cannot see.")] = False,
    as_: AsPlayer = None,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Render the state after a move (--as NAME: as that player sees it, his own hand included)."""
    from solrec.core.observe import Viewer
    from solrec.replay.log import position_of_move

    log = load_log(db, game_id)
    player = viewer(log, as_, reveal)
    position = position_of_move(log, at)
    data, text = show_output(log, Viewer.of(player, reveal), position, comments_of(db, log), as_json)
    emit(as_json, data, text)


def show_output(log, seer, position: int, comments, as_json: bool) -> tuple[dict[str, Any], str]:
    """What ``show`` prints of ``log`` at ``position`` for the viewer ``seer`` (``replay.seen``): its
    JSON data (the plain state with ``as_json`` only: text output does not pay for it) and its text."""
    from solrec.replay.log import move_at
    from solrec.replay.seen import seen

    look = seen(log, seer, position)
    outcome = look.outcome
    move = move_at(log.rows, position)
    data: dict[str, Any] = {
        "id": log.game_id,
        "move": move,
        "position": position,
        "to_act": look.to_act,
        "text": look.text,
        "scores": dict(look.score.totals),
        "outcome": outcome.as_dict() if outcome else None,
    }
    shown = comments.at(position)
    data["notes"] = [note_dict(c, log.rows) for c in shown]
    if as_json:
        data["state"] = look.observation
    if seer.player is not None:
        data["as"] = seer.player
    if log.header.bots:  # the header's bot seats, only in a game that has them
        data["bots"] = dict(log.header.bots)
    return data, "\n".join([f"{log.game_id} {after_move(move)}", *bot_lines(log.header), data["text"],
                            *(f"  {c.line()}" for c in shown)])


def bot_lines(header) -> list[str]:
    """The header's bot seats, one line each ("Ann: bot mcts:simulations=200"); none without bots."""
    return [f"{player}: bot {bot}" for player, bot in header.bots]


@command("log")
def log_cmd(
    game_id: GameId,
    reveal: Reveal = False,
    as_: AsPlayer = None,
    wide: Annotated[bool, typer.Option("--wide", help="Show every cell whole (commands and events are cut to fit otherwise), "
                                                      "and each event's position (events applied) beside its move.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """List the stored events with their moves, commands and hashes.

    MOVE N is the N-th line of the record (chance lines included), counting from 1: the number every
    command and page uses (show --at N is the state after it). With --wide, POS gives the position
    after each event (events applied), as programs count. While the game runs, what the players
    cannot see (a seeded deck's order) is hidden unless --reveal. --as NAME
    lists what that player may see: no seed and no hashes (a hash chained from the header's seed
    tells the seed to whoever tries seeds). Columns are as wide as their data; a command over 24
    characters or an event over 64 is cut with "…" unless --wide.
    """
    log = load_log(db, game_id)
    player = viewer(log, as_, reveal)
    data, text = log_output(log, reveal, player, comments_of(db, log), wide)
    emit(as_json, data, text)


def log_output(log, reveal: bool, player: str | None, comments, wide: bool = False) -> tuple[dict[str, Any], str]:
    """What ``log`` prints (``Hiding``: the seat's view with ``player``, the table's while the game
    runs, else the referee's): its JSON data and its text."""
    from solrec.events.codec import to_plain
    from solrec.replay.log import state_at
    from solrec.replay.marks import marks_of
    from solrec.replay.seen import header_seen

    game = log.game
    events = log.events()
    hiding = Hiding(log, state_at(log), reveal, player)
    seat = hiding.viewer.is_seat
    # each event in the words of the position it applies to (a hex by its board label)
    befores, state = [], state_at(log, 0)
    for e in events:
        befores.append(state)
        state = game.evolve(state, e)
    header = header_seen(log, hiding.viewer) if seat else log.header.as_dict()
    data: dict[str, Any] = {"id": log.game_id, "header": header, "events": []}
    for r, e, before in zip(log.rows, events, befores):
        item = {
            "move": r.step + 1, "position": r.seq + 1, "seq": r.seq, "step": r.step, "actor": r.actor,
            "command": hiding.command(r.command, before), "type": r.type, "version": r.version,
            "data": hiding.event(e, to_plain(e)),
            "text": game.describe_event_at(e, before) if hiding.described(e) else "", "hash": r.hash, "time": r.time,
        }
        if seat:
            del item["hash"]  # chained from the header, seed included: an oracle for the seed
        data["events"].append(item)
    data["notes"] = [note_dict(c, log.rows) for c in comments.notes]
    events_ = data["events"]
    # the move's number on its first event's line, its further events under it; --wide: every
    # event's position beside it
    moves = ["" if k and i["step"] == events_[k - 1]["step"] else i["move"] for k, i in enumerate(events_)]
    # a review's mark and estimated loss, a bot's move (replay/marks.py): a MARK column on the move's
    # first line, only in a game that has them
    ends = {i["step"]: i["position"] for i in events_}
    found = marks_of(comments.notes)
    marked = {step: found[end] for step, end in ends.items() if end in found}
    data["marks"] = [{"move": step + 1, "position": ends[step], **m.as_dict()} for step, m in sorted(marked.items())]

    def mark_cell(k: int, i: dict[str, Any]) -> tuple[str, ...]:
        if not marked:
            return ()
        m = marked.get(i["step"]) if moves[k] != "" else None
        return (" ".join(filter(None, (m.review(), f"bot {m.bot}" if m.bot else ""))) if m else "",)

    mark_head = ("MARK",) if marked else ()
    hashes = [] if seat else ["HASH"]
    if wide:
        rows = [(i["move"], i["position"], i["actor"], i["command"], *mark_cell(k, i), i["text"],
                 *([] if seat else [i["hash"][:12]])) for k, i in enumerate(events_)]
        table = columns(("MOVE", "POS", "ACTOR", "COMMAND", *mark_head, "EVENT", *hashes), rows, right=(0, 1), wide=True)
    else:
        rows = [(m, i["actor"], i["command"], *mark_cell(k, i), i["text"], *([] if seat else [i["hash"][:12]]))
                for k, (m, i) in enumerate(zip(moves, events_))]
        table = columns(("MOVE", "ACTOR", "COMMAND", *mark_head, "EVENT", *hashes), rows, right=(0,),
                        limits={2: LOG_COMMAND_WIDTH, 3 + len(mark_head): LOG_EVENT_WIDTH})
    out = [f"{log.game_id}: {json.dumps(header)}", table[0]]
    out += [f"{'':>5}  {c.line()}" for c in comments.at(0)]
    for row, line in zip(data["events"], table[1:]):
        out.append(line)
        out += [f"{'':>5}  {c.line()}" for c in comments.at(row["position"])]
    return data, "\n".join(out)


def comments_of(db, log):
    """The comments of a loaded game, refused when they do not hold together (events/notes.py)."""
    from solrec.events.notes import checked

    return checked(workflows().open_store(db), log.game_id)


# What `log` shows of a command and of an event before cutting (the rest with --wide).
LOG_COMMAND_WIDTH, LOG_EVENT_WIDTH = 24, 64


@command("score")
def score_cmd(
    game_id: GameId,
    at: AtMove = None,
    explain_: Annotated[bool, typer.Option("--explain", help="Every line of the score sheet with its rule.")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Print the scores (and the outcome once the game is over)."""
    from solrec.replay.explain import explain, format_explanation
    from solrec.replay.log import position_of_move

    log = load_log(db, game_id)
    data = explain(log, position_of_move(log, at))
    if not explain_:
        data = {k: v for k, v in data.items() if k != "lines"}
    if explain_:
        text = format_explanation(data)
    else:
        text = "\n".join(f"{p}: {paint(str(t), 'score', colour_on())}" for p, t in data["scores"].items())
        if data["outcome"]:
            text += f"\n{data['outcome']['reason']}"
    emit(as_json, data, text)


@command("replay")
def replay_cmd(
    game_id: GameId,
    to: Annotated[int | None, typer.Option("--to", "--at", metavar="MOVE",
                                           help="Stop after this move (0 = the set-up); default the end.")] = None,
    reveal: Reveal = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Replay the log move by move, with the scores after each, then show the state.

    MOVE N is the N-th line of the record (chance lines included). While the game runs, what the
    players cannot see is hidden unless --reveal.
    """
    from solrec.replay.log import position_of_move, state_at, walk

    log = load_log(db, game_id)
    game = log.game
    end = position_of_move(log, to)
    steps: list[dict[str, Any]] = []
    state, position = state_at(log, 0), 0
    final = None
    for group, events, after in walk(log):
        final = after
        if position >= end:
            continue
        position += len(events)
        before, state = state, after
        steps.append(
            {
                "move": group[0].step + 1, "position": position, "actor": group[0].actor, "command": group[0].command,
                "before": before, "events": [game.describe_event_at(e, before) for e in events],
                "scores": dict(game.score(state).totals),
            }
        )
    hiding = Hiding(log, state if final is None else final, reveal)
    comments = comments_of(db, log)
    for s in steps:
        s["command"] = hiding.command(s["command"], s.pop("before"))
        s["notes"] = [note_dict(c, log.rows) for c in comments.at(s["position"])]
    outcome = game.outcome(state)
    data: dict[str, Any] = {"id": game_id, "move": steps[-1]["move"] if steps else 0, "position": position, "steps": steps, "text": game.observation.text(state, hiding.viewer),
                            "scores": dict(game.score(state).totals), "outcome": outcome.as_dict() if outcome else None}
    data["notes"] = [note_dict(c, log.rows) for c in comments.at(0)]
    if log.header.bots:
        data["bots"] = dict(log.header.bots)
    lines = [*bot_lines(log.header), f"{'MOVE':>5}  ACTOR: COMMAND  ->  EVENTS  [SCORES]"]
    lines += [f"{'':>5}  {c.line()}" for c in comments.at(0)]
    for s in steps:
        lines.append(
            f"{s['move']:>5}  {s['actor']}: {s['command']}  ->  {'; '.join(s['events'])}  "
            + " ".join(f"[{p} {t}]" for p, t in s["scores"].items())
        )
        lines += [f"{'':>5}  {c.line()}" for c in comments.at(s["position"])]
    emit(as_json, data, "\n".join(lines + ["", data["text"]]))


@command("diff")
def diff_cmd(
    a: Annotated[str, typer.Argument(metavar="ID_A", help="A stored game's id.", autocompletion=complete_game_id)],
    b: Annotated[str, typer.Argument(metavar="ID_B", help="Another stored game's id.", autocompletion=complete_game_id)],
    reveal: Reveal = False,
    notes: Annotated[bool, typer.Option("--notes", help="Compare the comments too (they are ignored otherwise).")] = False,
    db: Db = None,
    as_json: Json = False,
) -> None:
    """Where two logs first differ: events side by side, and the difference of states and score sheets.

    Exits 1 when the logs differ (like diff(1)), 0 when they hold the same events and headers.
    Comments are not part of a game: --notes compares them too. When one game is a fork of the
    other, the diff says so and where they branched (their common prefix).
    """
    from solrec.replay.diff import diff as diff_logs
    from solrec.replay.diff import format_diff, with_notes
    from solrec.replay.log import load

    store = workflows().open_store(db)
    log_a, log_b = load(store, a), load(store, b)
    result = diff_logs(log_a, log_b, reveal=reveal)
    from solrec.events.forks import common_prefix

    fork = common_prefix(store, a, b)
    if fork is not None:
        from solrec.replay.log import move_at

        parent = log_a if fork["parent"] == a else log_b
        result["fork"] = {**fork, "move": move_at(parent.rows, fork["position"])}
    if notes:
        comments_of(db, log_a), comments_of(db, log_b)  # refused when they do not hold together
        result = with_notes(result, log_a, log_b)
    emit(as_json, result, format_diff(result))
    if not result["identical"]:
        raise typer.Exit(EXIT_PROBLEM)


@command("validate")
def validate_cmd(
    ids: Annotated[list[str] | None, typer.Argument(metavar="ID...", help="Stored games' ids.", autocompletion=complete_game_id)] = None,
    all_: Annotated[bool, typer.Option("--all", help="Validate every game in the database.")] = False,
    components: Annotated[
        Path | None, typer.Option("--components", help="Re-decide under this component set; report the first changed command.")
    ] = None,
    db: Dbs = None,
    as_json: Json = False,
    jobs: Jobs = None,
    cluster: Cluster = None,
    ship_rows: ShipRows = False,
) -> None:
    """Check hash chains, re-decide every command under the current rules, recompute the scores.

    With --all on a terminal a progress bar runs on stderr; the summary counts valid and invalid
    games, by game.
    """
    cluster = cluster_address(cluster)
    select(ids, all_, "validate")
    files = files_of(db)
    retried: int | None = None  # batches run again, on the cluster path only
    if components is not None:
        from .impact import validate_under

        if len(files) > 1 or cluster is not None:
            raise UsageRefused("validate --components re-decides the games of one database: give one --db, no --cluster")
        validate_under(components, ids or [], all_, files[0], as_json)
        return
    session = workflows()
    if len(files) > 1 or cluster is not None:  # a corpus in several files, or on a cluster
        if not all_:
            raise UsageRefused("several databases or --cluster validate --all")
        from solrec.events.seal import key_from
        from solrec.replay.corpus import ValidateTask

        verdicts, retried, orphans = run_corpus(files, ValidateTask(key_from()), jobs, cluster, ship_rows, as_json)
        verdicts += orphans
    elif all_ and not as_json and sys.stderr.isatty():
        store = session.open_store(files[0], missing_ok=True)
        with typer.progressbar(length=len(store.game_ids()), label="validating", file=sys.stderr) as bar:
            verdicts = session.validate_games(store, None, bar.update, jobs)
    else:
        store = session.open_store(files[0], missing_ok=all_)
        verdicts = session.validate_games(store, None if all_ else list(ids or []), jobs=jobs)
    bad = [v for v in verdicts if not v.ok]
    by_game: dict[str, dict[str, int]] = {}
    for v in verdicts:
        counts = by_game.setdefault(v.game, {"valid": 0, "invalid": 0})
        counts["valid" if v.ok else "invalid"] += 1
    data = {"valid": len(verdicts) - len(bad), "invalid": len(bad), "by_game": by_game,
            "games": [v.as_dict() for v in verdicts]}
    lines = [v.line() for v in (bad if len(verdicts) > 50 else verdicts)]
    if len(by_game) > 1:
        lines += [f"  {g}: {c['valid']} valid, {c['invalid']} invalid" for g, c in sorted(by_game.items())]
    lines.append(f"{len(verdicts) - len(bad)} valid, {len(bad)} invalid")
    if retried is not None:  # several files or --cluster: as `impact` reports it (docs/scaling.md)
        data["retried"] = retried
        if retried:
            lines.append(f"{retried} batches retried on the cluster")
    emit(as_json, data, "\n".join(lines))
    if bad:
        raise typer.Exit(EXIT_PROBLEM)
