"""No accidental endings (issue 31): every command that ends the game, and every command a seat
could not take back (it shows what was hidden, or seeded chance draws next: ``manage.seat_refusal``),
is asked about before the page sends it. The server marks them in the page's choices (``ends``,
``final``); table.js asks (tests/serve/test_phone_taps.py, test_keyboard.py in Chromium)."""

from __future__ import annotations

import json
import re

import pytest

from solrec.cli.manage import seat_refusal
from solrec.core.observe import Viewer
from solrec.replay.log import Log
from solrec.server.pages import fragment
from solrec.server.views import ENDS, FINAL, view

from ..pictures.helpers import FIXTURE_FILES, fixture_log


def choices_of(page: str) -> list[dict]:
    found = re.search(r'data-choices="([^"]*)"', page)
    import html

    return json.loads(html.unescape(found.group(1))) if found else []


def before_the_last_command(path) -> tuple[Log, str, str]:
    log = fixture_log(path)
    groups = log.steps()
    last = [g for g in groups if g[0].actor != "chance"][-1]
    return Log(log.game_id, log.header, log.rows[:last[0].seq]), last[0].actor, last[0].command


ENDED_BY_A_LISTED_COMMAND = {
    "solo-dice/worked-example", "soli2/duel-pouch-standard", "soli2/classic-solitaire", "solari/two-players-dice-entered",
    "solar-solitaire/won-seeded", "solarius-mission/space-four-players-seeded",
}


@pytest.mark.parametrize("name", sorted(ENDED_BY_A_LISTED_COMMAND))
def test_the_command_that_ends_the_game_is_asked_about(name):
    path = next(p for p in FIXTURE_FILES if f"{p.parent.name}/{p.stem}" == name)
    log, actor, command = before_the_last_command(path)
    for player in (actor, None):  # the seat, and the referee
        v = view(log, Viewer.of(player, reveal=player is None))
        assert dict(v.asks).get(command) == ENDS, (name, player, command)
        flagged = [c for c in choices_of(fragment(v)) if c["command"] == command]
        assert flagged and flagged[0].get("ends") is True


def test_resign_is_always_asked_about_and_a_seeded_stock_turn_cannot_be_taken_back():
    log = fixture_log("solar-solitaire/won-seeded.jsonl")
    log = Log(log.game_id, log.header, log.rows[:log.steps()[0][-1].seq + 1])  # after the shuffle and deal
    asks = dict(view(log, Viewer.seat("Solo")).asks)
    assert asks == {"turn": FINAL, "resign": ENDS}
    assert dict(view(log, Viewer.referee()).asks) == {"resign": ENDS}  # the referee may take back anything


def test_what_the_page_calls_final_is_what_the_seat_could_not_take_back():
    """Played, each listed command marked ``final`` is refused a seat's take-back, and each unmarked
    one is not (one that ends the game aside)."""
    for name in ("solo-dice/worked-example.jsonl", "soli2/duel-pouch-standard.jsonl", "soli2/duel-pure-skill.jsonl",
                 "solarius-mission/space-two-players-seeded.jsonl"):
        log = fixture_log(name)
        groups = log.steps()
        k = next(i for i, g in enumerate(groups) if g[0].actor != "chance" and i > 3)
        cut = Log(log.game_id, log.header, log.rows[:groups[k][0].seq])
        actor = groups[k][0].actor
        v = view(cut, Viewer.of(actor, reveal=actor is None))
        marked = dict(v.asks)
        assert v.choices is not None
        for c in v.choices.commands[:12]:
            if marked.get(c.command) == ENDS:
                continue
            refused = seat_refusal(_played(cut, actor, c.command), actor) is not None
            assert refused == (marked.get(c.command) == FINAL), (name, c.command, marked.get(c.command))


def _played(log: Log, actor: str, text: str) -> Log:
    """``log`` with ``text`` played by ``actor`` and the seeded chance it calls for."""
    from solrec.core.play import advance_chance, decide_as, fold
    from solrec.events.envelope import chain_rows, codec_for
    from solrec.replay.log import from_rows, state_at

    game, header = log.game, log.header
    state = state_at(log)
    step = decide_as(game, header, state, len(log.rows), actor, game.parse(text, state))
    state = fold(game, state, step.events)
    chance, _, _ = advance_chance(game, header, state, len(log.rows) + len(step.events))
    rows = chain_rows(codec_for(game), log.rows[-1].hash, len(log.rows), log.rows[-1].step + 1, [step, *chance])
    return from_rows(log.game_id, header, (*log.rows, *rows))
