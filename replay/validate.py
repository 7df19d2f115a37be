"""Validate a recorded game under the current rules.

Checks, in order, stopping at the first problem: the hash chain; the recorded event count and head;
each recorded command, parsed and decided again by the current rules (seeded chance re-derived from
the seed), must yield exactly the recorded events; the score and outcome recomputed at the end must
equal those recorded. This is how a rule change shows which recorded games it affects.
"""

from __future__ import annotations

from typing import Any

import attrs

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.play import decide_as, initial_state
from solrec.core.registry import get_game
from solrec.events.envelope import check_chain

from .log import Log


@attrs.frozen
class Verdict:
    game_id: str
    game: str
    ok: bool
    events: int
    rules_recorded: str
    rules_current: str
    position: int | None = None  # the event where the first problem lies
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def line(self) -> str:
        rules = f"rules {self.rules_recorded}" + (
            f" (validated under current {self.rules_current})" if self.rules_recorded != self.rules_current else ""
        )
        if self.ok:
            return f"{self.game_id}: valid ({self.game}, {self.events} event{'' if self.events == 1 else 's'}, {rules})"
        return f"{self.game_id}: INVALID at event {self.position}: {self.reason} ({self.game}, {rules})"


def validate(log: Log) -> Verdict:
    header = log.header
    try:
        game = get_game(header.game)
    except SolrecError as err:
        return Verdict(log.game_id, header.game, False, len(log.rows), header.rules, "?", 0, str(err))

    def fail(position: int, reason: str) -> Verdict:
        return Verdict(log.game_id, game.id, False, len(log.rows), header.rules, game.rules_version, position, reason)

    broken = check_chain(header, log.rows)
    if broken is not None:
        return fail(broken.seq, broken.reason)
    rec = log.recorded
    if rec is not None:
        if rec["events"] != len(log.rows):
            return fail(len(log.rows), f"the game records {rec['events']} events but its log holds {len(log.rows)}")
        if log.rows and rec["head"] != log.rows[-1].hash:
            return fail(len(log.rows) - 1, "the last event is not the one the game records (rows were dropped)")

    codec = log.codec
    try:
        state = initial_state(game, header)
    except SolrecError as err:
        return fail(0, f"the header no longer sets up a game: {err}")
    position = 0
    for group in log.steps():
        first = group[0]
        try:
            recorded_events = [codec.decode(r.type, r.version, r.payload) for r in group]
        except CorruptLog as err:
            return fail(first.seq, str(err))
        try:
            command = game.parse(first.command, state)
            step = decide_as(game, header, state, position, first.actor, command)
        except SolrecError as err:
            return fail(first.seq, f"{first.actor} {first.command!r} is refused now: {err}")
        if step.events != tuple(recorded_events):
            got = "; ".join(game.describe_event(e) for e in step.events)
            had = "; ".join(game.describe_event(e) for e in recorded_events)
            return fail(first.seq, f"{first.command!r} now yields [{got}] but the log has [{had}]")
        for event in step.events:
            state = game.evolve(state, event)
        position += len(group)

    if rec is not None:
        sheet = game.score(state)
        outcome = game.outcome(state)
        if rec["scores"] is not None and rec["scores"] != dict(sheet.totals):
            return fail(position, f"the recorded score {rec['scores']} differs from the recomputed {dict(sheet.totals)}")
        recomputed_outcome = outcome.as_dict() if outcome else None
        if rec["outcome"] != recomputed_outcome:
            return fail(position, f"the recorded outcome {rec['outcome']} differs from the recomputed {recomputed_outcome}")
    return Verdict(log.game_id, game.id, True, len(log.rows), header.rules, game.rules_version)
