"""`solrec balance` (issue 34): paired games under two option sets, their differences with 95%
intervals, the same report wherever it is computed. Known answers: a change that changes nothing,
and three planted effects (Solari to 72, SOLI2's give-away, a component set doubling the planets'
points); at small N here, at N = 1,000 under ``slow``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="the balance extra: pip install -e '.[balance]'")
pytest.importorskip("pyspiel", reason="the ai extra: pip install -e '.[ai]'")

from solrec.cli.main import app  # noqa: E402

RUNNER = CliRunner()


def balance(*args: str, expect: int = 0) -> Any:
    result = RUNNER.invoke(app, ["balance", *args, "--json"])
    assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout)


def diff(report: dict, what: str) -> dict:
    return next(d for d in report["differences"] if d["what"] == what)


def doubled_planets(folder: Path) -> Path:
    """The built-in component set with every planet worth twice its points (a house set)."""
    from solrec.core.solarius_mission import components

    source = Path(components.__file__).parent / "data" / components.BUILTIN
    target = folder / "double-planets"
    shutil.copytree(source, target)
    planets = target / "planets.toml"
    planets.write_text(re.sub(r"^vp = (\d+)$", lambda m: f"vp = {2 * int(m.group(1))}",
                              planets.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    return target


# -- a change that changes nothing ------------------------------------------------------------------------
@pytest.mark.parametrize("game, sets", [
    ("soli2", ["--against", "objective=standard"]),  # an option set to its default
    ("solar-solitaire", ["-o", "waste_takes_free_moves=yes", "--against", "waste_takes_free_moves=yes"]),  # the same set twice
], ids=["default", "same-set"])
def test_a_change_that_changes_nothing_reports_every_interval_holding_zero_and_keeps_identical_records(tmp_path, game, sets):
    db = tmp_path / "kept.db"
    report = balance(game, "--games", "6", "--seed", "3", "--keep", str(db), *sets)
    assert report["change"] == "no change"
    assert report["differences"] and all(d["covers_zero"] for d in report["differences"])
    assert all(d["difference"] == 0 for d in report["differences"])
    assert report["verdict"][-1] == "No difference found: every interval holds 0."
    _kept_pairs_are_identical(db, report)


def _kept_pairs_are_identical(db: Path, report: dict) -> None:
    from solrec.events.notes import read
    from solrec.events.store import Store

    store = Store(db, create=False)
    ids = store.game_ids()
    assert len(ids) == 2 * report["games"] == report["kept"]["games"]
    order = sorted(ids, key=lambda gid: int(gid.rpartition("-")[2]))
    for first, second in zip(order[::2], order[1::2]):
        a, b = store.rows(first), store.rows(second)
        assert [(r.head, r.payload, r.hash) for r in a] == [(r.head, r.payload, r.hash) for r in b]
        assert [n.text for n in read(store, first).notes] == [n.text for n in read(store, second).notes]
    store.close()


def test_the_same_set_twice_reports_every_interval_holding_zero(tmp_path):
    db = tmp_path / "kept.db"
    report = balance("solari", "--games", "2", "--seed", "1", "-o", "target=12", "--against", "target=12",
                     "--keep", str(db))
    assert report["change"] == "no change"
    assert all(d["covers_zero"] and d["difference"] == 0 for d in report["differences"])
    _kept_pairs_are_identical(db, report)


def test_kept_games_replay_and_validate(tmp_path):
    db = tmp_path / "kept.db"
    report = balance("soli2", "--games", "3", "--against", "objective=give-away", "--keep", str(db))
    assert report["kept"]["games"] == 6
    valid = RUNNER.invoke(app, ["validate", "--all", "--db", str(db), "--json"])
    assert valid.exit_code == 0 and json.loads(valid.stdout)["valid"] == 6
    first = report["kept"]["first"][0]
    assert RUNNER.invoke(app, ["replay", first, "--db", str(db)]).exit_code == 0
    # the second set's games re-decided under the first set's options: impact opens them too
    impact = RUNNER.invoke(app, ["impact", "--all", "--db", str(db), "-o", "objective=standard", "--json"])
    assert impact.exit_code in (0, 1) and json.loads(impact.stdout)["games"] == 6


def test_a_kept_game_names_its_bots_in_its_header_as_simulate_does(tmp_path):
    from solrec.events.store import Store
    from solrec.replay.log import load

    db = tmp_path / "kept.db"
    balance("soli2", "--games", "2", "--bot", "greedy", "--bot", "random", "--against", "objective=give-away",
            "--keep", str(db))
    store = Store(db, create=False)
    seatings = {load(store, gid).header.bots for gid in store.game_ids()}
    store.close()
    # seats rotate by the game's number: game 1 Player 1 greedy, game 2 Player 1 random; each under both sets
    assert seatings == {(("Player 1", "greedy"), ("Player 2", "random")), (("Player 1", "random"), ("Player 2", "greedy"))}


# -- planted effects ---------------------------------------------------------------------------------------
def test_solari_to_72_points_lengthens_games():
    report = balance("solari", "--games", "2", "--seed", "2", "--against", "target=72")
    length = diff(report, "length")
    assert length["interval"][0] > 0 and length["relative_interval"][0] > 0
    assert re.match(r"Games last [\d.]+% longer: ", report["verdict"][0])
    assert report["change"] == "target 36 -> 72"


def test_soli2_give_away_turns_the_greedy_bot_from_winner_to_loser_and_says_which_colour_wins_more():
    report = balance("soli2", "--games", "12", "--seed", "1", "--bot", "greedy", "--bot", "random",
                     "--against", "objective=give-away")
    greedy = diff(report, "bot:greedy")
    assert greedy["a"] > 0.5 > greedy["b"] and greedy["interval"][1] < 0  # it keeps marbles, which now lose
    first = diff(report, "win:1")
    (said,) = [f["sentence"] for f in report["findings"] if f["question"] == "first-seat"]
    assert said.startswith(f"The first seat ({report['players'][0]}) wins ")
    (bot,) = [f for f in report["findings"] if f["question"] == "bot:greedy"]
    assert bot["changed"] and bot["sentence"].startswith("The bot greedy wins ")
    assert first["covers_zero"] == (not next(f for f in report["findings"] if f["question"] == "first-seat")["changed"])


def test_a_component_set_doubling_the_planets_points_raises_the_planet_score_lines(tmp_path):
    # the game's own random players settle planets (the adapter's random and greedy bots seldom do)
    report = balance("solarius-mission", "--games", "6", "--seed", "1", "--bot", "sampler",
                     "--against-components", str(doubled_planets(tmp_path)))
    planets = [d for d in report["differences"] if d["what"].startswith("line:") and "successfully settled planet" in d["what"]]
    assert planets and planets[0]["interval"][0] > 0
    assert planets[0]["b"] > 1.5 * planets[0]["a"] > 0


def test_a_game_not_over_after_max_moves_is_counted_stuck_with_its_reason():
    report = balance("soli2", "--games", "3", "--bot", "random", "--max-moves", "10")
    (first,) = report["sets"]
    assert first["stuck"] == 3 and first["length"]["min"] >= 10  # the moves played when it stopped
    assert first["endings"] == [{"ending": "stuck: not over after 10 moves", "games": 3, "share": {"mean": 1.0, "interval": [1.0, 1.0]}}]
    assert "3 games stuck." in report["verdict"]


def test_partners_who_win_together_each_count_a_win_and_four_seats_are_named():
    report = balance("solari", "--players", "4", "-o", "teams=true", "-o", "target=4", "--games", "1", "--bot", "random")
    (first,) = report["sets"]
    assert report["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert sum(seat["win_rate"]["mean"] for seat in first["seats"]) == 2.0  # Uranus+Neptune or Saturn+Jupiter


# -- the same answer everywhere ----------------------------------------------------------------------------
def test_jobs_give_the_report_of_one_core_byte_for_byte():
    args = ["balance", "soli2", "--games", "9", "--seed", "5", "--against", "objective=give-away", "--json"]
    one = RUNNER.invoke(app, [*args, "--jobs", "1"])
    two = RUNNER.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_a_local_cluster_gives_the_report_of_one_core_byte_for_byte():
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    args = ["balance", "soli2", "--games", "10", "--seed", "5", "--bot", "random", "--against", "objective=give-away", "--json"]
    one = RUNNER.invoke(app, args)
    assert one.exit_code == 0, one.stderr
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        there = RUNNER.invoke(app, [*args, "--cluster", cluster.scheduler_address])
    assert there.exit_code == 0, there.stderr
    assert there.stdout == one.stdout


def test_the_page_is_the_same_bytes_each_time_and_asks_for_nothing(tmp_path):
    pytest.importorskip("matplotlib", reason="the balance extra")
    pages = []
    for name in ("a.html", "b.html"):
        balance("soli2", "--games", "4", "--against", "objective=give-away", "--html", str(tmp_path / name))
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]
    text = pages[0].decode()
    assert text.count("<svg") >= 4 and "<script" not in text and "http" not in text.replace("http://www.w3.org/", "")


def test_a_progress_bar_runs_on_stderr_when_it_is_a_terminal(tmp_path):
    import os
    import pty
    import subprocess
    import sys

    main, secondary = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "solrec.cli.main", "balance", "solo-dice", "--games", "3"],
                          stdout=subprocess.PIPE, stderr=secondary, text=True, timeout=120, env=os.environ)
    os.close(secondary)
    bar = os.read(main, 65536).decode()
    os.close(main)
    assert done.returncode == 0 and "playing solo-dice" in bar and "playing" not in done.stdout
    assert "verdict:" in done.stdout


# -- bad input -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, reason", [
    (["soli2", "--games", "2", "--against", "objective=nonsense"], "objective"),
    (["soli2", "--games", "2", "--bot", "clever"], "unknown bot kind"),
    (["soli2", "--games", "2", "--bot", "random", "--bot", "greedy", "--bot", "mcts"], "one per seat"),
    (["soli2", "--games", "2", "--players", "3"], "2 players"),
    (["soli2", "--games", "2", "--jobs", "2", "--cluster", "tcp://127.0.0.1:8786"], "not both"),
    (["soli2", "--games", "2", "--cluster", "udp://x:1"], "tcp"),
    (["soli2", "--games", "0"], "games"),
    (["soli2", "--games", "2", "--html", "/nonexistent/folder/page.html"], "no folder"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, reason):
    db = tmp_path / "kept.db"
    result = RUNNER.invoke(app, ["balance", *args, "--keep", str(db)])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert "\n" not in line and reason in line
    assert not db.exists() and list(tmp_path.iterdir()) == []


def test_a_game_without_action_numbering_is_played_by_its_sampler_and_refuses_the_bots():
    from solrec.ai.balance import Plan, parse_bots, play_game, refusal
    from solrec.ai.bots import parse_bot
    from solrec.core.play import make_header
    from solrec.core.registry import get_game

    header = make_header(get_game("solo-dice"), None, {}, "seeded", 0)
    sampled = Plan("solo-dice", header.players, parse_bots(["sampler"], 1), (header.options,), tabled=False)
    assert refusal(sampled) is None and play_game(sampled, 0, 0).result == "scored"
    greedy = Plan("solo-dice", header.players, (parse_bot("greedy"),), (header.options,), tabled=False)
    assert "give --bot sampler" in (refusal(greedy) or "")


# -- at N = 1,000 ------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_at_1000_games_an_unchanged_option_reports_every_interval_holding_zero(tmp_path):
    report = balance("soli2", "--games", "1000", "--against", "objective=standard", "--bot", "random", "--jobs", "2",
                     "--keep", str(tmp_path / "kept.db"))
    assert all(d["covers_zero"] and d["difference"] == 0 for d in report["differences"])
    _kept_pairs_are_identical(tmp_path / "kept.db", report)


@pytest.mark.slow
def test_at_1000_games_solari_to_72_lengthens_games():
    report = balance("solari", "--games", "1000", "--against", "target=72", "--jobs", "2")
    assert diff(report, "length")["relative_interval"][0] > 0.3


@pytest.mark.slow
def test_at_1000_games_soli2_give_away_turns_the_greedy_bot_into_the_loser():
    report = balance("soli2", "--games", "1000", "--bot", "greedy", "--bot", "random", "--against",
                     "objective=give-away", "--jobs", "2")
    assert diff(report, "bot:greedy")["interval"][1] < 0
    first = diff(report, "win:1")
    (said,) = [f for f in report["findings"] if f["question"] == "first-seat"]
    assert said["changed"] == (not first["covers_zero"])


@pytest.mark.slow
def test_at_1000_games_doubled_planets_raise_the_planet_score_lines(tmp_path):
    report = balance("solarius-mission", "--games", "1000", "--bot", "sampler", "--jobs", "2",
                     "--against-components", str(doubled_planets(tmp_path)))
    planets = [d for d in report["differences"] if d["what"].startswith("line:") and "successfully settled planet" in d["what"]]
    assert planets[0]["interval"][0] > 0
