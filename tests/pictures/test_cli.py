"""``solrec svg`` and ``solrec html`` on a stored game, and the picture examples of docs/replay.md."""

from __future__ import annotations

import re
import shlex
import shutil
import xml.etree.ElementTree as ET

from solrec.replay.log import state_at, walk

from ..conftest import FIXTURES, ROOT
from .helpers import fixture_log


def imported(cli, path: str) -> str:
    return cli.json("import", str(FIXTURES / path))["id"]


def test_svg_draws_the_final_position_with_the_last_command_highlighted(cli):
    gid = imported(cli, "soli2/duel-pouch-standard.jsonl")
    log = fixture_log("soli2/duel-pouch-standard.jsonl")
    *_, (_, last, state) = walk(log)
    out = cli.run("svg", gid).stdout
    assert out == log.game.svg(state, last=last)
    ET.fromstring(out.encode())


def test_svg_after_a_move_highlights_all_its_events(cli):
    gid = imported(cli, "solari/worked-example-1235-to-target.jsonl")
    log = fixture_log("solari/worked-example-1235-to-target.jsonl")
    events = log.events()
    # the third move (62-52) gives three events: its step, the move's scoring, the game's end
    assert [(r.step, r.type) for r in log.rows[2:]] == [(2, "stepped"), (2, "move-scored"), (2, "game-ended")]
    out = cli.run("svg", gid, "--at", "3").stdout
    assert out == log.game.svg(state_at(log, 5), last=events[2:5])
    assert "#7ccf6a" in out  # the squares the move scored are tinted


def test_svg_writes_a_file_and_reveal_shows_what_the_table_cannot_see(cli, tmp_path):
    gid = imported(cli, "solar-solitaire/won-seeded.jsonl")
    target = tmp_path / "pos.svg"
    assert cli.run("svg", gid, "--at", "10", "-o", str(target)).stdout.startswith(f"wrote {target} (after move 10, ")
    hidden = target.read_text(encoding="utf-8")
    revealed = cli.run("svg", gid, "--at", "10", "--reveal").stdout
    assert "turning order" not in hidden and "turning order" in revealed


def test_svg_refuses_a_position_outside_the_log_and_writes_nothing(cli, tmp_path):
    gid = imported(cli, "solo-dice/worked-example.jsonl")
    target = tmp_path / "pos.svg"
    result = cli.run("svg", gid, "--at", "999", "-o", str(target), expect=2)
    assert "move 999 is outside the game" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not target.exists()
    assert "no game" in cli.run("svg", "nope", expect=2).stderr


def test_html_writes_one_self_contained_page(cli, tmp_path):
    gid = imported(cli, "solo-dice/worked-example.jsonl")
    target = tmp_path / "game.html"
    cli.run("html", gid, "-o", str(target))
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "default-src 'none'" in html
    assert html == cli.run("html", gid).stdout


def test_html_diff_shows_two_games_and_refuses_an_unknown_one(cli, tmp_path):
    a = imported(cli, "soli2/duel-pouch-standard.jsonl")
    b = imported(cli, "soli2/duel-give-away.jsonl")
    html = cli.run("html", a, "--diff", b).stdout
    assert f'"id":"{a}"' in html and f'"id":"{b}"' in html and '"divergence":{' in html
    target = tmp_path / "diff.html"
    cli.run("html", a, "--diff", "nope", "-o", str(target), expect=2)
    assert not target.exists()


def readme_picture_examples() -> list[list[str]]:
    text = (ROOT / "docs" / "replay.md").read_text(encoding="utf-8")
    section = text.split("# Pictures and replay pages", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block
    return [shlex.split(line.split("#", 1)[0]) for line in block.group(1).splitlines() if line.strip()]


def test_the_documented_picture_examples_run(cli, tmp_path, monkeypatch):
    shutil.copytree(FIXTURES, tmp_path / "fixtures")  # the examples run from a checkout's root
    monkeypatch.chdir(tmp_path)
    examples = readme_picture_examples()
    assert examples and all(e[0] == "solrec" for e in examples)
    for args in examples:
        cli.run(*args[1:])
    for name in ("fig3.svg", "audit.svg", "replay.html", "diff.html"):
        assert (tmp_path / name).stat().st_size > 0


def test_svg_draws_a_solarius_mission_position_and_hides_the_hands(cli):
    path = "solarius-mission/two-players-start-cards-seeded.jsonl"
    gid = imported(cli, path)
    log = fixture_log(path)
    out = cli.run("svg", gid, "--at", "60").stdout
    ET.fromstring(out.encode())
    assert "bridge (bonus wheel)" in out and all(p in out for p in log.header.players)
    assert "face down" in out and "hand (revealed)" not in out
    assert "hand (revealed)" in cli.run("svg", gid, "--at", "60", "--reveal").stdout


def test_html_says_what_it_wrote_and_shows_no_progress_when_not_on_a_terminal(cli, tmp_path):
    gid = imported(cli, "soli2/duel-pouch-standard.jsonl")
    target = tmp_path / "game.html"
    result = cli.run("html", gid, "-o", str(target))
    said = re.fullmatch(rf"wrote {re.escape(str(target))} \(134 moves, (\d+\.\d) kB\)\n", result.stdout)
    assert said and abs(float(said.group(1)) * 1000 - target.stat().st_size) <= 50  # the page's size, in kB
    assert result.stderr == ""


def test_html_on_a_damaged_game_gives_the_stored_data_verdict_and_writes_nothing(cli, tmp_path):
    from ..robustness.helpers import edit_command, rechain

    gid = imported(cli, "solo-dice/worked-example.jsonl")
    edit_command(cli.db, gid, 1, "zzz garbage")
    rechain(cli.db, gid)  # the chain recomputed: only reading the command finds the damage
    target = tmp_path / "game.html"
    result = cli.run("html", gid, "-o", str(target), expect=1)
    assert result.stderr.startswith("solrec: stored data problem: ") and '"zzz garbage"' in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not target.exists()
    assert "INVALID" in cli.run("validate", gid, expect=1).stdout  # the same game, the same kind of verdict


def test_the_page_counts_commands_and_positions_as_replay_and_diff_do(cli):
    """One fixture, every surface: the page's command k stands at the position `replay --json` gives
    after command k, with the same actor, command and totals; the diff page marks the position `diff
    --json` gives, in the command `replay --json` puts that event in."""
    from .test_html import embedded

    a = imported(cli, "soli2/duel-pouch-standard.jsonl")
    b = imported(cli, "soli2/duel-give-away.jsonl")
    shown = embedded(cli.run("html", a).stdout)["games"][0]["steps"]
    replayed = cli.json("replay", a)["steps"]
    assert len(shown) == len(replayed) + 1 and shown[0]["position"] == 0
    for k, (page_k, text_k) in enumerate(zip(shown[1:], replayed), start=1):
        assert page_k["number"] == k
        assert (page_k["position"], page_k["actor"], page_k["command"]) == \
            (text_k["position"], text_k["actor"], text_k["command"])
        assert dict(page_k["totals"]) == text_k["scores"]
    divergence = embedded(cli.run("html", a, "--diff", b).stdout)["divergence"]
    first = cli.json("diff", a, b, expect=None)["position"]  # the first position where they differ
    agreed = first - 1
    assert divergence["position"] == first
    for gid, command in zip((a, b), divergence["commands"]):
        # the marked command is the first whose events take the game past the agreed position
        after = [s["position"] for s in cli.json("replay", gid)["steps"]]
        assert command == next(k for k, p in enumerate(after, start=1) if p > agreed)


def test_html_refuses_a_game_over_the_pages_bound_before_reading_its_log(cli, tmp_path, monkeypatch):
    import solrec.replay.log

    gid = imported(cli, "solo-dice/worked-example.jsonl")  # 26 events
    monkeypatch.setattr("solrec.replay.html.MAX_EVENTS", 25)

    def unread(*args, **kwargs):
        raise AssertionError("the log was read")

    monkeypatch.setattr(solrec.replay.log, "load", unread)
    target = tmp_path / "game.html"
    result = cli.run("html", gid, "-o", str(target), expect=2)
    assert "html draws at most 25 events and this page would hold 26" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not target.exists()
    assert "would hold 52" in cli.run("html", gid, "--diff", gid, expect=2).stderr
    monkeypatch.undo()
    cli.run("html", gid, "-o", str(target))  # within the bound: drawn
