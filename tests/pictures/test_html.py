"""The replay page (``replay/html.py``): one self-contained file whose embedded data is the engine's
view after every command; hidden information stays out unless revealed; two logs side by side with
their first divergence."""

from __future__ import annotations

import json
import re

import pytest

from solrec.replay.html import diff_page, page
from solrec.replay.log import walk

from .helpers import FIXTURE_FILES, FIXTURE_IDS, fixture_log

ONE_PER_GAME = [
    "solo-dice/worked-example.jsonl",
    "soli2/duel-give-away.jsonl",
    "solar-solitaire/won-seeded.jsonl",
    "solari/two-against-two-dice-seeded.jsonl",
]


def embedded(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def svg_of(data: dict, runs: list) -> str:
    return "\n".join(data["fragments"][first + i] for first, count in runs for i in range(count))


@pytest.mark.parametrize("path", ONE_PER_GAME)
def test_the_page_holds_the_engines_view_after_every_command(path):
    log = fixture_log(path)
    game = log.game
    data = embedded(page(log))
    steps = data["games"][0]["steps"]
    walked = list(walk(log))
    assert len(steps) == len(walked) + 1 and steps[0]["number"] == 0 and steps[0]["position"] == 0
    position = 0
    for k, (group, events, state) in enumerate(walked, start=1):
        position += len(group)
        shown = steps[k]
        assert shown["number"] == k and shown["position"] == position and shown["actor"] == group[0].actor
        assert shown["events"] == [game.describe_event(e) for e in events]
        sheet = game.score(state)
        assert shown["totals"] == [[p, t] for p, t in sheet.totals]
        assert [data["lines"][i] for i in shown["lines"]] == [[ln.player, ln.points, ln.what, ln.rule] for ln in sheet.lines]
        expected = game.svg(state, last=events).split("\n", 1)[1].rstrip("\n")  # without the XML declaration
        assert svg_of(data, shown["svg"]) == expected


def test_the_page_is_self_contained_and_forbids_every_request():
    html = page(fixture_log("solari/two-players-dice-entered.jsonl"))
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"\b(src|href)\s*=", html)
    assert not re.search(r"url\(|@import|fetch\(|XMLHttpRequest|WebSocket", html)
    # the only address in the file is the SVG namespace, which is a name, not a request
    assert set(re.findall(r"https?://[\w./-]+", html)) <= {"http://www.w3.org/2000/svg"}


def test_seeded_shuffle_order_and_seed_stay_hidden_unless_revealed():
    log = fixture_log("solar-solitaire/won-seeded.jsonl")
    shuffle = log.rows[0].command  # "shuffle <40 cards>"
    assert shuffle.startswith("shuffle ") and len(shuffle.split()) == 41
    hidden = page(log)
    order = " ".join(shuffle.split()[1:])
    assert order not in hidden and '"seed"' not in hidden
    assert embedded(hidden)["games"][0]["steps"][1]["command"] == "shuffle (40 cards, order hidden)"
    revealed = page(log, reveal=True)
    assert order in revealed and '"seed"' in revealed


def test_what_repeats_is_stored_once():
    log = fixture_log("solari/three-players-dominoes-free-entered.jsonl")
    data = embedded(page(log))
    steps = data["games"][0]["steps"]
    total_lines = sum(count for s in steps for _, count in s["svg"])
    assert len(data["fragments"]) < total_lines / 5
    assert len(set(map(tuple, data["lines"]))) == len(data["lines"])


def test_diff_page_shows_both_logs_and_marks_the_first_divergence():
    a = fixture_log("soli2/duel-pouch-standard.jsonl")
    full = fixture_log("soli2/duel-pouch-standard.jsonl")
    # b: the same game cut after 100 commands; the logs first differ at the 101st command's first event
    b = type(full)("cut", full.header, tuple(r for r in full.rows if r.step < 100))
    data = embedded(diff_page(a, b))
    assert [g["id"] for g in data["games"]] == ["duel-pouch-standard", "cut"]
    d = data["divergence"]
    first = next(r.seq for r in a.rows if r.step == 100)
    assert d["position"] == first + 1 and d["reason"] == "the logs first differ at move 101"
    assert d["commands"] == [101, 101]  # a's 101st command; b has ended after its 100th


def test_diff_page_of_identical_logs_says_so():
    a = fixture_log("solo-dice/worked-example.jsonl")
    data = embedded(diff_page(a, a))
    assert data["divergence"]["position"] is None and "commands" not in data["divergence"]
    assert data["divergence"]["reason"] == "the logs hold the same events"


def test_a_game_of_a_few_hundred_steps_stays_well_under_a_few_megabytes():
    from solrec.core.play import make_header
    from solrec.core.registry import get_game
    from solrec.events.envelope import chain_rows, codec_for, genesis_hash
    from solrec.replay.log import from_rows
    from solrec.replay.simulate import game_seed, player_rng, simulate

    game = get_game("solari")
    header = make_header(game, None, {"target": 0, "moves": 60}, "seeded", game_seed(1, 0), None)
    steps, _ = simulate(game, header, player_rng(1, 0))
    assert len(steps) >= 400
    html = page(from_rows("long", header, chain_rows(codec_for(game), genesis_hash(header), 0, 0, steps)))
    assert len(html.encode()) < 1_000_000  # measured 0.43 MB (bench/bench_html_size.py)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=FIXTURE_IDS)
def test_every_fixture_builds_a_page_with_the_set_up_and_every_command(path):
    log = fixture_log(path)
    for reveal in (False, True):
        data = embedded(page(log, reveal=reveal))
        assert len(data["games"][0]["steps"]) == len(log.steps()) + 1


def test_progress_is_told_once_per_command_drawn():
    log = fixture_log("solo-dice/worked-example.jsonl")
    told: list[int] = []
    page(log, progress=told.append)
    assert told == [1] * len(log.steps())
    told.clear()
    diff_page(log, log, progress=told.append)
    assert len(told) == 2 * len(log.steps())


def test_a_stored_command_that_does_not_read_where_it_stands_is_a_stored_data_verdict():
    from solrec.core.errors import CorruptLog

    log = fixture_log("solo-dice/worked-example.jsonl")
    rows = list(log.rows)
    rows[1] = rows[1]._replace(command="zzz garbage")  # as if stored so, its chain recomputed
    damaged = type(log)(log.game_id, log.header, tuple(rows))
    with pytest.raises(CorruptLog, match=r'move 2 \("zzz garbage"\) does not read where it stands'):
        page(damaged)
    page(damaged, reveal=True)  # revealed, the command is shown as stored: nothing to read


def test_a_log_over_the_pages_bound_is_refused(monkeypatch):
    from solrec.core.errors import InvalidSetup

    log = fixture_log("solo-dice/worked-example.jsonl")
    monkeypatch.setattr("solrec.replay.html.MAX_EVENTS", len(log.rows) - 1)
    with pytest.raises(InvalidSetup, match=f"at most {len(log.rows) - 1} events and this page would hold {len(log.rows)}"):
        page(log)
    monkeypatch.setattr("solrec.replay.html.MAX_EVENTS", len(log.rows))
    assert embedded(page(log))["games"][0]["steps"]
