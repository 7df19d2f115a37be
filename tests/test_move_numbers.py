"""One move number everywhere (issue 30): move N is the N-th line of the record, counting from 1
(a chance line is a move of chance), the set-up is move 0, and ``--at N`` is the state after move N
in every command that takes it. Positions (events applied) stay for programs, beside every move."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from .conftest import FIXTURES

DISPUTED = FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"
MOVE = 10  # the fixture's disputed move: Ann 00-06, the comet straight back


@pytest.fixture
def game(cli):
    cli.run("import", str(DISPUTED), "--id", "disp")
    return cli


def record_line(n: int) -> dict:
    """The record's N-th command line (line 1 is the header)."""
    lines = [json.loads(x) for x in DISPUTED.read_text().split("\n\n")[0].splitlines() if x.strip()]
    return lines[n]


def position_after(cli, move: int) -> int:
    events = cli.json("log", "disp")["events"]
    return max(e["position"] for e in events if e["move"] == move)


def test_move_n_is_the_records_nth_line(game):
    line = record_line(MOVE)
    events = [e for e in game.json("log", "disp")["events"] if e["move"] == MOVE]
    assert events and {(e["actor"], e["command"]) for e in events} == {(line["actor"], line["command"])}
    assert all(e["step"] == MOVE - 1 for e in events)  # the stored command number stays, from 0


def test_every_text_surface_names_the_move_by_its_number(game):
    line = record_line(MOVE)
    log_text = game.run("log", "disp").stdout
    assert re.search(rf"^\s*{MOVE}\s+{line['actor']}\s+{re.escape(line['command'])}\s", log_text, re.M)
    wide = game.run("log", "disp", "--wide").stdout
    assert wide.splitlines()[1].split()[:2] == ["MOVE", "POS"]
    assert re.search(rf"^\s*{MOVE}\s+{position_after(game, MOVE)}\s+{line['actor']}", wide, re.M)
    replay = game.run("replay", "disp", "--to", str(MOVE)).stdout
    assert re.search(rf"^\s*{MOVE}  {line['actor']}: {re.escape(line['command'])}", replay, re.M)
    assert game.run("show", "disp", "--at", str(MOVE)).stdout.startswith(f"disp after move {MOVE}\n")
    assert game.run("score", "disp", "--at", str(MOVE), "--explain").stdout.startswith(f"disp after move {MOVE}\n")
    listed = game.run("comment", "disp").stdout
    assert re.search(rf"^\s*{MOVE}  #2 \[disputed\] Bob:", listed, re.M)
    marked = game.run("list", "--marked").stdout
    assert f"disp move {MOVE} #2 [disputed] Bob:" in marked


def test_every_json_object_naming_a_move_gives_its_position(game):
    position = position_after(game, MOVE)
    shown = game.json("show", "disp", "--at", str(MOVE))
    assert (shown["move"], shown["position"]) == (MOVE, position)
    step = next(s for s in game.json("replay", "disp")["steps"] if s["move"] == MOVE)
    assert step["position"] == position
    note = next(n for n in game.json("comment", "disp")["notes"] if n["mark"] == "disputed")
    assert (note["move"], note["position"]) == (MOVE, position)
    dispute = next(d for d in game.json("list", "--marked") if d["mark"] == "disputed")
    assert (dispute["move"], dispute["position"]) == (MOVE, position)
    assert game.json("score", "disp", "--at", str(MOVE))["move"] == MOVE


def test_a_damaged_row_a_difference_and_an_impact_are_named_by_their_move(game, tmp_path):
    game.run("import", str(DISPUTED), "--id", "copy")
    seq = position_after(game, MOVE) - 1  # the last event of the move
    conn = sqlite3.connect(game.db)
    conn.execute("update events set payload = x'00' where game_id = 'copy' and seq = ?", [seq])
    conn.commit()
    conn.close()
    assert f"copy: INVALID at move {MOVE}" in game.run("validate", "copy", expect=1).stdout
    verdict = game.json("validate", "copy", expect=1)["games"][0]
    assert verdict["move"] == MOVE and verdict["position"] == seq + 1
    changed = tmp_path / "changed.jsonl"
    first = DISPUTED.read_text().split("\n\n")[0]
    lines = first.splitlines()
    header = json.loads(lines[0])
    header.pop("id", None)
    lines[0] = json.dumps(header)
    changed.write_text("\n".join(lines[:MOVE]) + "\n")
    game.run("import", str(changed), "--id", "other")
    other = next(c for c in game.json("legal", "other")["commands"] if c != json.loads(lines[MOVE])["command"])
    game.run("play", "other", other)
    d = game.json("diff", "disp", "other", expect=1)
    assert d["move"] == MOVE and f"the logs first differ at move {MOVE}" in game.run("diff", "disp", "other", expect=1).stdout


def page_data(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))


def test_the_replay_page_steps_move_by_move_and_opens_at_move_n(game, tmp_path):
    out = tmp_path / "p.html"
    assert game.run("html", "disp", "--at", str(MOVE), "-o", str(out)).stdout.startswith(f"wrote {out} (46 moves,")
    data = page_data(out.read_text())["games"][0]
    assert data["start"] == MOVE
    step = data["steps"][MOVE]
    line = record_line(MOVE)
    assert (step["number"], step["position"], step["actor"]) == (MOVE, position_after(game, MOVE), line["actor"])
    assert "#move=" in out.read_text() and "#pos=" in out.read_text()  # an old #pos=N link still opens


def test_at_n_is_the_same_state_in_every_command(game, tmp_path):
    position = position_after(game, MOVE)
    text = game.json("show", "disp", "--at", str(MOVE))["text"]
    assert game.json("replay", "disp", "--to", str(MOVE))["text"] == text
    assert game.json("replay", "disp", "--at", str(MOVE))["position"] == position
    svg = tmp_path / "a.svg"
    game.run("svg", "disp", "--at", str(MOVE), "-o", str(svg))
    page = tmp_path / "a.html"
    game.run("html", "disp", "--at", str(MOVE), "-o", str(page))
    data = page_data(page.read_text())
    frags = data["fragments"]
    runs = data["games"][0]["steps"][MOVE]["svg"]
    drawn = "\n".join(frags[a + i] for a, n in runs for i in range(n))
    assert drawn.strip() == svg.read_text().split("\n", 1)[1].strip()
    fork = game.json("fork", "disp", "--at", str(MOVE), "--id", "f")
    assert (fork["forked_after"], fork["forked_at"], fork["move"]) == (MOVE, position, MOVE)
    assert game.json("show", "f")["text"] == text
    note = game.json("comment", "disp", "--at", str(MOVE), "here")["note"]
    assert (note["move"], note["position"]) == (MOVE, position)
    assert game.json("score", "disp", "--at", str(MOVE))["position"] == position


def test_there_is_no_position_inside_a_move_to_refuse(game):
    refusal = "move 47 is outside the game (0, the set-up, to 46)"
    for command in (("show", "disp"), ("fork", "disp"), ("comment", "disp", "x"), ("replay", "disp")):
        assert game.json(*command, "--at", "47", expect=2)["error"]["reason"] == refusal
    for command in (("svg", "disp"), ("html", "disp")):
        assert refusal in game.run(*command, "--at", "47", expect=2).stderr
    for n in range(0, 47, 5):  # every move has a state after it
        game.run("show", "disp", "--at", str(n))


def test_served_pages_name_the_move_by_the_same_number(game):
    pytest.importorskip("starlette")
    from .serve.conftest import make_client

    with make_client(game.db) as client:
        fragment = client.get(f"/g/disp/view?move={MOVE}").text
        assert f'data-move="{MOVE}"' in fragment and f'data-position="{position_after(game, MOVE)}"' in fragment
        assert f"after move {MOVE}" in fragment
        live = client.get("/g/disp/view").text
        assert re.search(rf'<li data-position="{position_after(game, MOVE)}" data-move="{MOVE}">', live)
        disputes = client.get("/disputes").text
        assert f'href="/g/disp?move={MOVE}#move={MOVE}"' in disputes
