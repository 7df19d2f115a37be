"""Validate a recorded game under the current rules.

Checks, in order, stopping at the first problem: the hash chain; the recorded event count and head;
the seal, when the game was sealed and a key is given; each recorded command, parsed and decided
again by the current rules (seeded chance re-derived from the seed), must yield exactly the recorded
events; the score and outcome recomputed at the end must equal those recorded. This is how a rule
change shows which recorded games it affects.

``validate_stored`` gives a verdict for any stored game, whatever is wrong with its data: one damaged
game never stops the audit of the others.
"""

from __future__ import annotations

from typing import Any

import attrs

from solrec.core import words
from solrec.core.errors import SolrecError
from solrec.core.game import same_outcome
from solrec.core.play import decide_events
from solrec.core.registry import get_game
from solrec.core.words import quoted
from solrec.events import notes
from solrec.events import seal as seals
from solrec.events.envelope import genesis_hash

from .log import MISFITS, Log, integrity, load, misfit, move_at, set_up


@attrs.frozen
class Verdict:
    game_id: str
    game: str
    ok: bool
    events: int
    rules_recorded: str
    rules_current: str
    # where the first problem lies: the position (events applied) whose event is wrong, as ``log``'s
    # POS column shows it (the event stored at seq k leads to position k + 1); a wrong score or
    # outcome lies at the end
    position: int | None = None
    reason: str | None = None
    sealed: str | None = None  # None (no seal), "verified" (under the key given), "unverified" (no key)
    sealed_at: int | None = None  # the position the seal covers (events played since are not covered)
    # the move the problem lies in (move N: the record's N-th line; 0 the set-up), as people count; None
    # where the log could not be read to tell it
    move: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON of a verdict: the game's id is ``id``, as in every other JSON solrec prints."""
        data = attrs.asdict(self)
        return {"id": data.pop("game_id"), **data}

    def line(self) -> str:
        rules = f"rules {self.rules_recorded}" + (
            f" (validated under current {self.rules_current})" if self.rules_recorded != self.rules_current else ""
        )
        if self.ok:
            seal = {"verified": ", seal verified", "unverified": ", sealed (no key to verify)"}.get(self.sealed or "", "")
            if self.sealed and self.sealed_at is not None and self.sealed_at < self.events:
                # a seal covers the log up to its position only (docs/security.md)
                uncovered = self.events - self.sealed_at
                last = "event is" if uncovered == 1 else f"{uncovered} events are"
                seal = f", sealed at position {self.sealed_at} of {self.events}; the last {last} not covered" + (
                    "" if self.sealed == "verified" else " (no key to verify)"
                )
            plural = "" if self.events == 1 else "s"
            return f"{self.game_id}: valid ({self.game}, {self.events} event{plural}, {rules}{seal})"
        where = f"move {self.move}" if self.move is not None else f"position {self.position}"
        return f"{self.game_id}: INVALID at {where}: {self.reason} ({self.game}, {rules})"


def _in_place(rows, position: int) -> bool:
    """Whether the event leading to ``position`` is stored where it belongs (not one missing, whose
    move is then not known)."""
    return position == 0 or (0 < position <= len(rows) and rows[position - 1].seq == position - 1)


def validate(log: Log, key: bytes | None = None) -> Verdict:
    header = log.header
    try:
        game = get_game(header.game)
    except SolrecError as err:
        return Verdict(log.game_id, header.game, False, len(log.rows), header.rules, "?", 0, str(err))

    sealed = None if log.seal is None else ("unverified" if key is None else "verified")
    sealed_at = None if log.seal is None else log.seal["events"]

    def fail(position: int, reason: str) -> Verdict:
        return Verdict(
            log.game_id, game.id, False, len(log.rows), header.rules, game.rules_version, position, reason, sealed,
            sealed_at, move_at(log.rows, position) if _in_place(log.rows, position) else None,
        )

    broken = integrity(log)
    if broken is not None:
        return fail(broken.seq + 1, broken.reason)
    genesis = genesis_hash(header)
    if log.seal is not None and key is not None:
        comments = (log.notes.sealed, [x.hash for x in log.notes.notes], notes.genesis(genesis))
        problem = seals.check(key, log.game_id, log.seal, [r.hash for r in log.rows], genesis, comments)
        if problem is not None:
            return fail(max(0, min(log.seal["events"], len(log.rows))), problem)
    if log.unmirrored is not None:
        return fail(
            log.unmirrored + 1,
            "its browsing columns (seq, step, actor, command, type, version, data) disagree with what its"
            " hash covers: they were edited outside solrec",
        )
    rec = log.recorded

    problem, state = set_up(game, header)
    if problem is not None:
        return fail(0, f"the header no longer sets up a game: {problem}")
    rows = log.rows
    # Where an event does not decode, the commands before it are still checked first, so the verdict
    # names the first problem in log order.
    recorded, undecodable = log.decoded()
    parse, mutators = game.parse, game.mutators
    position, n = 0, len(rows)
    while position < n:  # one command's rows at a time
        first = rows[position]
        end = position + 1
        while end < n and rows[end].step == first.step:
            end += 1
        if undecodable is not None and end > len(recorded):
            return fail(undecodable[0] + 1, str(undecodable[1]))
        try:
            command = parse(first.command, state)
            events = decide_events(game, header, state, position, first.actor, command)
        except SolrecError as err:
            return fail(first.seq + 1, f"{first.actor} {quoted(first.command)} is refused now: {err}")
        recorded_events = tuple(recorded[position:end])
        if events != recorded_events:
            got = "; ".join(game.describe_event(e) for e in events)
            had = "; ".join(game.describe_event(e) for e in recorded_events)
            return fail(first.seq + 1, f"{quoted(first.command)} now yields [{got}] but the log has [{had}]")
        at = position
        try:
            for event in events:  # ``apply``, inlined: validation meets every event of a corpus
                state = mutators[type(event)](state, event)
                at += 1
        except MISFITS as err:
            return fail(rows[at].seq + 1, str(misfit(log.game_id, rows[at].seq, events[at - position], err, rows[at].step)))
        position = end

    if rec is not None:
        sheet = game.score(state)
        outcome = game.outcome(state)
        if rec["scores"] is not None and rec["scores"] != dict(sheet.totals):
            return fail(position, f"the recorded score ({words.scores(rec['scores'])}) differs from the recomputed"
                                  f" ({words.scores(dict(sheet.totals))})")
        recomputed_outcome = outcome.as_dict() if outcome else None
        if not same_outcome(rec["outcome"], recomputed_outcome):
            return fail(position, f"the recorded outcome ({words.outcome(rec['outcome'])}) differs from the recomputed"
                                  f" ({words.outcome(recomputed_outcome)})")
    # the comments last: a problem of the game itself is the one to report first
    broken_notes = notes.problem(genesis, log.notes, len(log.rows))
    if broken_notes is not None:
        return fail(*broken_notes)
    return Verdict(
        log.game_id, game.id, True, len(log.rows), header.rules, game.rules_version, sealed=sealed, sealed_at=sealed_at
    )


def validate_stored(store, game_id: str, key: bytes | None = None) -> Verdict:
    """A verdict for one stored game, whatever is wrong with its stored data."""
    try:
        log = load(store, game_id, verify=False, mirrors=True)
    except SolrecError as err:  # CorruptLog, and UnknownGameId for a games row deleted under us
        game = "?"
        try:
            game = str(store.game_row(game_id).get("game") or "?")
        except SolrecError:
            pass
        seq = getattr(err, "position", None)  # a damaged row names its event (its seq)
        return Verdict(game_id, game, False, 0, "?", "?", seq + 1 if seq is not None else 0, str(err),
                       move=None if seq is not None else 0)
    return validate(log, key)


def orphan_verdicts(store) -> list[Verdict]:
    """Events whose ``games`` row is gone: each such id is an invalid game, not silently skipped."""
    return [
        Verdict(gid, "?", False, n, "?", "?", 0, f"{n} stored events have no games row (orphan events)", move=0)
        for gid, n in store.orphan_events()
    ]
