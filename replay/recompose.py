"""Re-decide a recorded game under other setup options (another component set, say) and report the
first command whose events change: "which of our recorded games does the real glossary alter?".

The recorded commands are decided again from the header with the options replaced (seeded chance
re-derived from the same seed); the hash chain and the recorded score are not checked here, that
is ``validate``'s job.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.play import decide_as, initial_state

from .log import Log
from .validate import Verdict


def revalidate(log: Log, options: Mapping[str, Any]) -> Verdict:
    header = log.header
    game = log.game
    merged = {**header.options_dict(), **options}
    other = attrs.evolve(header, options=tuple(sorted(merged.items())))

    def changed(position: int, reason: str) -> Verdict:
        return Verdict(log.game_id, game.id, False, len(log.rows), header.rules, game.rules_version, position, reason)

    try:
        state = initial_state(game, other)
    except SolrecError as err:
        return changed(0, f"the options no longer set up the game: {err}")
    codec = log.codec
    position = 0
    for group in log.steps():
        first = group[0]
        try:
            recorded = tuple(codec.decode(r.type, r.version, r.payload) for r in group)
        except CorruptLog as err:
            return changed(first.seq + 1, str(err))  # the position its first event leads to, as validate
        try:
            command = game.parse(first.command, state)
            step = decide_as(game, other, state, position, first.actor, command)
        except SolrecError as err:
            return changed(first.seq + 1, f"{first.actor} {first.command!r} is refused: {err}")
        if step.events != recorded:
            got = "; ".join(game.describe_event(e) for e in step.events)
            had = "; ".join(game.describe_event(e) for e in recorded)
            return changed(first.seq + 1, f"{first.actor} {first.command!r} now yields [{got}] but the log has [{had}]")
        for event in step.events:
            state = game.evolve(state, event)
        position += len(group)
    return Verdict(log.game_id, game.id, True, len(log.rows), header.rules, game.rules_version)
