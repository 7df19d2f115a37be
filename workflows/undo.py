"""Take-backs and the positions a page may write at, shared by the CLI (``undo``, ``comment``) and
the server: what a seat may take back (``seat_refusal``), the take-back itself against the head it
was decided on (``take_back``), and a move's end (``check_command_end``)."""

from __future__ import annotations

from typing import Any

from solrec.core.errors import InvalidSetup
from solrec.core.words import plural, quoted

from .errors import ChanceStays, CommentsStay, NothingToUndo


def command_ends(log) -> list[int]:
    """The positions a comment can be on: the set-up (0) and the end of each move."""
    from solrec.replay.log import move_ends

    return move_ends(log)


def check_command_end(log, position: int, verb: str) -> int:
    """``position`` when a move ends there (or it is the set-up): what a page posts, the game's end."""
    if position not in command_ends(log):
        raise InvalidSetup(f"the page shows no move's end to {verb}: reload the page")
    return position


def shown_by(log: Any, groups: list[list[Any]]) -> list[str]:
    """What the commands of ``groups`` (the last ones of ``log``) showed that was hidden before: the
    type of each revealing event (``Game.reveals``), with seeded chance drawn after a player's command counted too (the
    seed drew it because of that command; taking both back would let the command be tried again
    knowing the draw). Empty: nothing was shown."""
    from solrec.core.game import CHANCE
    from solrec.replay.log import replay_of

    if not groups:
        return []
    events = replay_of(log).events(groups[-1][-1].seq + 1)
    seeded = log.header.chance == "seeded"
    shown: list[str] = []
    for group in groups:
        chance = seeded and group[0].actor == CHANCE
        for row in group:
            event = events[row.seq]
            if chance or log.game.reveals(event, seeded):
                shown.append(getattr(event, "TYPE", type(event).__name__))
    return shown


def seat_refusal(log: Any, player: str) -> str | None:
    """Why ``player``'s seat may not take back the last command now, in one line; None: it may.
    A seat takes back only its own last command, only while no one else has acted since (chance
    entered by the referee is someone else acting), and never one whose events showed what was hidden
    before (a card drawn or turned, a tile, a pouch draw, a seeded roll after it): taking that back
    would let the seat look and then choose again. The referee may take back anything."""
    from functools import partial

    from solrec.core.game import CHANCE
    from solrec.core.observe import Viewer
    from solrec.replay.log import state_at
    from solrec.replay.seen import seen_text

    groups = log.steps()
    seeded = log.header.chance == "seeded"
    last = len(groups)
    while seeded and last > 0 and groups[last - 1][0].actor == CHANCE:
        last -= 1  # seeded chance after a command: drawn because of it
    if last == 0:
        return f"{log.game_id}: nothing to take back (no command has been played)"
    actor = groups[last - 1][0].actor
    if actor != player:
        return (f"{log.game_id}: the last command is {actor}'s, not {player}'s: a seat takes back only its own last "
                "command, while no one else has acted since (the referee may take back anything)")
    shown = shown_by(log, groups[last - 1:])
    if shown:
        row = groups[last - 1][0]
        text = seen_text(log.game, row.command, Viewer.seat(player), partial(state_at, log, row.seq))
        return (f"{log.game_id}: {player}'s {quoted(text)} showed what was hidden before it ({_shown_text(shown)}): "
                "a seat cannot take it back (the referee may)")
    return None


def _shown_text(shown: list[str]) -> str:
    counts: dict[str, int] = {}
    for kind in shown:
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(kind if n == 1 else f"{kind} x{n}" for kind, n in counts.items())


def _moves_text(log: Any, steps: int) -> str:
    """``taking back move 7``, ``taking back moves 6-7``: the last ``steps`` moves of ``log``."""
    last = log.rows[-1].step + 1
    return f"taking back move {last}" if steps == 1 else f"taking back moves {last - steps + 1}-{last}"


def comments_text(moves: list[int]) -> str:
    """``1 comment on move 2``, ``3 comments (move 2: 1, move 3: 2)``: comments, by the move each is on."""
    counts: dict[int, int] = {}
    for move in moves:
        counts[move] = counts.get(move, 0) + 1
    if len(counts) == 1:
        return f"{plural(len(moves), 'comment')} on move {moves[0]}"
    return f"{plural(len(moves), 'comment')} (" + ", ".join(f"move {m}: {n}" for m, n in sorted(counts.items())) + ")"


def take_back(store, game_id: str, steps: int | None = 1, expected: tuple[int, str] | None = None,
              by: str | None = None, ruling: str | None = None, drop_comments: bool = False) -> dict[str, Any]:
    """``undo``'s work: take back the last ``steps`` commands, against the head they were decided on
    (``expected``: position and head hash, as a page showed them). ``steps`` None: the last command
    with the seeded chance that followed it (the table's "take back" button). ``by``: a seat of
    ``solrec serve`` taking back: refused unless ``seat_refusal`` allows it. ``ruling``: the name a
    take-back past what was shown is kept under, as an automatic comment marked ``ruled`` (the
    served referee's, or the CLI's ``undo --by``, "solrec" by default). Comments on the moves taken
    back are the record of opinion: a take-back that would remove them is refused (CommentsStay,
    naming the moves) unless ``drop_comments``. Returns what ``undo --json`` prints, with
    ``events`` (how many went)."""
    from functools import partial

    from solrec.core.game import CHANCE
    from solrec.core.observe import Viewer
    from solrec.events.store import ConcurrencyConflict
    from solrec.replay.log import Log, load, move_at, replay_of, state_at
    from solrec.replay.seen import seen_said, seen_text

    from .games import result_of

    log = load(store, game_id)
    if expected is not None and expected != (len(log.rows), log.head):
        raise ConcurrencyConflict(f"game {quoted(game_id)}: the position changed (the log now has {len(log.rows)} events); nothing was taken back")
    groups = log.steps()
    seeded = log.header.chance == "seeded"
    setup = 0  # the set-up's seeded chance: the commands before the first player's command
    if seeded:
        while setup < len(groups) and groups[setup][0].actor == CHANCE:
            setup += 1
    takeable = len(groups) - setup
    if steps is None:
        steps = 1
        while seeded and steps < takeable and groups[len(groups) - steps][0].actor == CHANCE:
            steps += 1
    if takeable == 0:
        raise NothingToUndo(f"{game_id}: nothing to take back (no command has been played)")
    if steps > takeable:
        raise NothingToUndo(f"{game_id}: only {plural(takeable, 'command')} can be taken back, not {steps}")
    first = groups[len(groups) - steps]
    if by is not None:
        refusal = seat_refusal(log, by)
        if refusal is not None:
            raise NothingToUndo(refusal)
    if seeded and first[0].actor == CHANCE:
        cause = len(groups) - steps
        while groups[cause][0].actor == CHANCE:
            cause -= 1
        need = len(groups) - cause
        raise ChanceStays(
            f"{game_id}: chance's {quoted(log.game.observation.command_text(first[0].command, Viewer.table()))} comes from the seed because of "
            f"{groups[cause][0].actor}'s {quoted(groups[cause][0].command)}; take that back too (--steps {need})"
        )
    keep = first[0].seq
    on_gone = [n for n in log.notes.notes if n.position > keep]
    if on_gone and not drop_comments:
        raise CommentsStay(f"{game_id}: {_moves_text(log, steps)} would drop {comments_text([move_at(log.rows, n.position) for n in on_gone])}: "
                           f"add --drop-comments to drop {'it' if len(on_gone) == 1 else 'them'} with the moves "
                           "(`solrec fork` first keeps the line and its comments)")
    kept = Log(game_id, log.header, log.rows[:keep])
    state = state_at(kept)
    scores, outcome = result_of(log.game, state)
    store.truncate(game_id, len(log.rows), log.head, keep, scores, outcome)
    from solrec.events.notes import drop_after

    dropped = drop_after(store, game_id, keep, len(log.rows))  # comments on positions that are gone go with them
    gone = groups[len(groups) - steps:]
    replayed = replay_of(log)
    # each command as the table reads it (replay.seen): what anyone reading the answer may read; and
    # what its actor did, in the game's words as the table sees them (``said``)
    taken = [{"move": g[0].step + 1, "actor": g[0].actor,
              "command": seen_text(log.game, g[0].command, Viewer.table(), partial(state_at, log, g[0].seq)),
              "said": seen_said(log.game, g[0].actor, g[0].command, replayed.events(g[-1].seq + 1)[g[0].seq:g[-1].seq + 1],
                                replayed.state_at(g[0].seq), Viewer.table()),
              "events": len(g)} for g in gone]
    out = {"id": game_id, "move": kept.rows[-1].step + 1 if kept.rows else 0, "position": keep, "to_act": log.game.to_act(state), "taken_back": taken,
           "notes_dropped": [{**c.as_dict(), "move": move_at(log.rows, c.position)} for c in dropped],
           "events": len(log.rows) - keep}
    shown = shown_by(log, gone) if ruling is not None else []
    if ruling is not None and shown:
        # what had been shown, in the table's words only (a comment is every seat's to read): the
        # commands as the table reads them and the kinds of what they showed, never a hidden value
        from solrec.events import notes
        from solrec.replay.disputes import automatic

        what = "; ".join(f"{t['actor']}: {t['command']}" for t in taken)
        text = automatic(f"taken back past what had been shown ({_shown_text(shown)}): {what}")
        out["ruled"] = notes.add(store, game_id, keep, ruling, "ruled", text[:notes.MAX_NOTE]).as_dict()
    return out
