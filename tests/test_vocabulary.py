"""Every surface speaks one language (issues 20 and 30): one number for a move, no Python in what
people read, one JSON vocabulary, one word for comments, and no claim the code does not keep."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from solrec.core import words

from .conftest import FIXTURES, ROOT

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"
PYTHON_REPRS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\['|\{'")


def sql(db, statement: str, params=()) -> None:
    conn = sqlite3.connect(db)
    conn.execute(statement, params)
    conn.commit()
    conn.close()


# -- one number for a move ------------------------------------------------------------------------


@pytest.fixture
def damaged(cli):
    """The worked example three times: untouched, with one damaged row (seq 3), with a changed score."""
    for gid in ("we", "row", "score"):
        cli.run("import", str(WORKED), "--id", gid)
    sql(cli.db, "update events set command = 'roll 6 6 6 6 6' where game_id = 'row' and seq = 3")
    sql(cli.db, """update games set scores = '{"Ann": 9999}' where id = 'score'""")
    return cli


def log_move(cli, gid: str, seq: int) -> int:
    """The MOVE column of ``log``'s line for the event stored at ``seq`` (the worked example: one event
    a move), and its JSON, which agree, with the position beside it."""
    rows = [line for line in cli.run("log", gid).stdout.splitlines()[2:] if not line.lstrip().startswith("#")]
    line = rows[seq]  # comment lines (``#N ...``) sit under their move's event
    data = cli.json("log", gid)["events"][seq]
    assert data["seq"] == seq and int(line.split()[0]) == data["move"] and data["position"] == seq + 1
    return data["move"]


def test_a_damaged_row_is_reported_at_the_move_log_shows_for_it(damaged):
    move = log_move(damaged, "we", 3)
    assert move == 4  # the event stored at seq 3 is the fourth line of the record
    text = damaged.run("validate", "row", expect=1).stdout
    verdict = damaged.json("validate", "row", expect=1)["games"][0]
    assert f"row: INVALID at move {move}:" in text and (verdict["move"], verdict["position"]) == (move, 4)


def test_a_wrong_score_is_reported_at_the_last_move(damaged):
    last = log_move(damaged, "we", 25)
    assert last == 26
    text = damaged.run("validate", "score", expect=1).stdout
    verdict = damaged.json("validate", "score", expect=1)["games"][0]
    assert f"score: INVALID at move {last}:" in text and verdict["move"] == last


def test_diff_reports_the_first_differing_move_as_log_shows_it(cli, tmp_path):
    changed = tmp_path / "changed.jsonl"
    changed.write_text(WORKED.read_text().replace('"command": "6+1 6+1 1"', '"command": "6+6 1+1 1"'))
    cli.run("import", str(WORKED), "--id", "a")
    cli.run("import", str(changed), "--id", "b")
    seq = next(e["seq"] for e in cli.json("log", "a")["events"] if e["command"] == "6+1 6+1 1")
    move = log_move(cli, "a", seq)
    data = cli.json("diff", "a", "b", expect=1)
    text = cli.run("diff", "a", "b", expect=1).stdout
    assert (data["move"], data["position"]) == (move, seq + 1) and data["reason"] == f"the logs first differ at move {move}"
    assert f"the logs first differ at move {move}; they agree up to move {move - 1}" in text


def test_at_means_after_move_n_in_every_command_that_takes_it(cli):
    for command in ("show", "score", "svg", "html", "fork", "comment", "note", "replay"):
        assert "--at" in cli.run(command, "--help").stdout, command
        help_text = " ".join(cli.run(command, "--help").stdout.split())
        assert "MOVE" in help_text and "position" not in help_text.split("--at", 1)[1][:200], command


def test_the_documentation_and_the_record_format_say_move_n(cli):
    # the README's sections live in docs/ now (issue 41): output.md says what move N is
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    readme = " ".join(" ".join(p.read_text() for p in pages).split())
    record = " ".join((ROOT / "docs" / "record-format.md").read_text().split())
    for text in (readme, record):
        assert "move n is the n-th line of the record" in text.replace("**", "").lower()
    assert "solrec comment" in readme and "solrec note ID" not in readme
    assert "CMD numbers them as stored, from 0" not in readme and "#pos=N" in readme  # old links still open


def test_a_comment_is_one_word_and_an_empty_one_is_refused_alike(cli):
    cli.run("import", str(WORKED), "--id", "we")
    assert cli.run("note", "we", "--at", "2", "still an alias").stdout.startswith("we: comment #7")
    from typer.testing import CliRunner

    from solrec.cli.main import app

    helps = CliRunner().invoke(app, ["--help"]).stdout
    assert re.search(r"^\s+comment\s", helps, re.M) and not re.search(r"^\s+note\s", helps, re.M)
    for empty in ("", "   "):
        assert cli.json("comment", "we", empty, expect=2)["error"]["reason"] == "the comment is empty: give its text"
    pytest.importorskip("starlette")
    from .serve.conftest import csrf_of, make_client, position_of

    with make_client(cli.db) as client:
        page = client.get("/g/we").text
        at, head = position_of(page)
        r = client.post("/g/we/note", data={"text": " ", "at": at, "head": head, "csrf": csrf_of(page)})
        assert r.status_code == 400 and r.text == "the comment is empty: give its text"


def test_imported_ids_say_what_they_are(cli, tmp_path):
    plain = tmp_path / "club-final.jsonl"
    lines = WORKED.read_text().splitlines()
    header = json.loads(lines[0])
    header.pop("id", None)
    plain.write_text("\n".join([json.dumps(header), *lines[1:]]))
    assert [cli.json("import", str(plain))["id"] for _ in range(3)] == ["club-final", "club-final-2", "club-final-3"]
    forks = cli.json("import", str(FIXTURES / "annotated" / "solari" / "disputed-with-forks.jsonl"), "--id", "disp")
    assert forks["forks"] == ["disp.void", "disp.other"]


def test_games_name_their_rule_text_readably(cli):
    text = cli.run("games").stdout
    assert "rule text 004)" in text and ".txt" not in text


# -- no Python in what people read ---------------------------------------------------------------


def test_values_are_written_in_the_record_formats_words():
    assert [words.value(v) for v in (None, True, False, 3, "pouch")] == ["null", "true", "false", "3", "pouch"]
    assert words.value(["Ann"]) == "Ann" and words.value(["Ann", "Bob"]) == "Ann and Bob"
    assert words.value(["Ann", "Bob", "Cid"]) == "Ann, Bob and Cid"
    assert words.value({"Ann": 9999}) == "Ann 9999"
    assert words.value("true") == '"true"' and words.value("a, b") == '"a, b"'  # quoted where bare is ambiguous
    assert words.value("") == '""' and words.value([1, 2]) == "[1, 2]"


def test_diff_shows_header_values_without_python(cli):
    cli.run("import", str(FIXTURES / "soli2" / "duel-pouch-standard.jsonl"), "--id", "duel")
    cli.run("import", str(FIXTURES / "soli2" / "classic-solitaire.jsonl"), "--id", "solo")
    text = cli.run("diff", "duel", "solo", expect=1).stdout
    assert "header players: Ann and Bob | Sara" in text and "header options.mode: duel | classic-solitaire" in text


def test_diff_shows_an_option_one_header_lacks_as_null():
    from solrec.replay.diff import format_diff

    d = {"ids": ["a", "b"], "header": [{"path": "options.fill", "a": None, "b": "pouch"}],
         "identical": False, "position": None, "reason": "the logs hold the same events (their headers differ)"}
    assert "header options.fill: null | pouch" in format_diff(d)


def test_validate_shows_a_wrong_score_without_python(damaged):
    text = damaged.run("validate", "score", expect=1).stdout
    assert "the recorded score (Ann 9999) differs from the recomputed (Ann -150)" in text


def test_games_shows_option_values_in_the_record_formats_words(cli):
    text = cli.run("games").stdout
    assert "teams=false" in text and "teams=False" not in text


def every_text_output(cli, tmp_path) -> dict[str, str]:
    """The text output of every reading and writing command on fixtures (one game of each)."""
    out: dict[str, str] = {}

    def run(*args: str, expect: int | None = None) -> None:
        result = cli.run(*args, expect=expect)
        out[" ".join(args)] = result.stdout + result.stderr

    for path in sorted(FIXTURES.glob("*/*.jsonl")):
        gid = f"{path.parent.name}-{path.stem}"[:80]
        run("import", str(path), "--id", gid)
    ids = [g["id"] for g in cli.json("list")]
    run("games")
    run("list")
    for gid in ids:
        for command in (("show",), ("log",), ("score", "--explain"), ("score",), ("replay",), ("legal",)):
            run(*command, gid)
    run("validate", "--all")
    run("diff", ids[0], ids[1])
    run("diff", "soli2-duel-pouch-standard", "soli2-classic-solitaire")
    run("export", ids[0], "--output", str(tmp_path / "out.jsonl"))
    for game in ("solo-dice", "soli2", "solar-solitaire", "solari"):
        run("simulate", game, "--games", "2")
    run("new", "solo-dice", "-p", "Ann", "--seed", "1", "--id", "fresh")
    run("undo", "fresh")
    sql(cli.db, """update games set scores = '{"Ann": 9999}' where id = 'solo-dice-worked-example'""")
    run("validate", "solo-dice-worked-example")
    return out


def test_no_text_output_shows_a_python_value(cli, tmp_path):
    leaks = {cmd: PYTHON_REPRS.findall(text) for cmd, text in every_text_output(cli, tmp_path).items()}
    assert {cmd: found for cmd, found in leaks.items() if found} == {}


# -- one JSON vocabulary -------------------------------------------------------------------------


def test_validate_and_diff_name_games_by_id(cli):
    cli.run("import", str(WORKED), "--id", "a")
    cli.run("import", str(WORKED), "--id", "b")
    verdict = cli.json("validate", "a")["games"][0]
    assert verdict["id"] == "a" and "game_id" not in verdict
    data = cli.json("diff", "a", "b")
    assert data["ids"] == ["a", "b"] and "a" not in data and "b" not in data


def test_a_team_win_has_one_winners_field(cli):
    cli.run("import", str(FIXTURES / "solari" / "two-against-two-dice-seeded.jsonl"), "--id", "teams")
    outcome = cli.json("score", "teams")["outcome"]
    assert "winner" not in outcome and outcome["result"] == "won" and len(outcome["winners"]) == 2


@pytest.mark.parametrize(
    "fixture, said",
    [
        ("solo-dice/worked-example.jsonl", "result: Ann scored -150;"),
        ("soli2/classic-solitaire.jsonl", "result: Sara lost;"),
        ("solar-solitaire/won-seeded.jsonl", "result: Solo won;"),
        ("solar-solitaire/lost-entered.jsonl", "result: Solo lost;"),
    ],
)
def test_a_solo_game_is_won_or_lost_or_scored(cli, fixture, said):
    cli.run("import", str(FIXTURES / fixture), "--id", "g")
    text = cli.run("score", "g", "--explain").stdout
    assert said in text and "nobody" not in text


def test_simulated_solo_games_are_summed_up_as_won_lost_or_scored(cli):
    text = cli.run("simulate", "solo-dice", "--games", "3").stdout
    assert "results: scored 3" in text and "nobody" not in text
    assert cli.json("simulate", "solo-dice", "--games", "2")["summary"]["results"] == {"scored": 2}


def test_a_resigned_game_has_its_result_explained(cli):
    cli.run("new", "solar-solitaire", "-p", "Solo", "--seed", "3", "--id", "deal-3")
    cli.run("play", "deal-3", "resign")
    text = cli.run("score", "deal-3", "--explain").stdout
    assert "result: Solo lost; resigned" in text and "no score lines yet" not in text


def test_listing_nothing_on_a_fresh_install_is_not_an_error(tmp_path, monkeypatch):
    # a fresh install reads its default database, not yet made, as empty (a --db naming no file is refused:
    # tests/test_missing_database.py)
    import json

    from typer.testing import CliRunner

    from solrec.cli.main import app

    monkeypatch.delenv("SOLREC_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runner = CliRunner()
    assert runner.invoke(app, ["list"]).stdout.strip().endswith("0 games")
    assert json.loads(runner.invoke(app, ["list", "--json"]).stdout) == []
    assert json.loads(runner.invoke(app, ["validate", "--all", "--json"]).stdout) == {
        "valid": 0, "invalid": 0, "by_game": {}, "games": []}
    assert runner.invoke(app, ["games"]).exit_code == 0
    assert not (tmp_path / "data").exists()


# -- notes: kept as comments, and said so (tests/test_notes.py) ---------------------------------


def test_import_says_how_many_comments_it_kept(cli):
    assert cli.run("import", str(WORKED), "--id", "a").stdout.strip() == "imported a: 26 commands, 26 events, 6 comments"
    assert cli.json("import", str(WORKED), "--id", "b")["notes"] == 6


def test_a_record_without_notes_imports_as_before(cli, tmp_path):
    plain = tmp_path / "plain.jsonl"
    lines = [json.loads(line) for line in WORKED.read_text().splitlines() if line.strip()]
    plain.write_text("\n".join(json.dumps({k: v for k, v in line.items() if k != "note"}) for line in lines))
    assert cli.run("import", str(plain), "--id", "a").stdout.strip() == "imported a: 26 commands, 26 events"
    assert cli.json("import", str(plain), "--id", "b") == {"id": "b", "commands": 26, "events": 26}


def test_an_outcome_stored_before_result_existed_still_validates(cli):
    """Databases written before the one-field outcome hold "winner" beside "winners" and no "result"."""
    cli.run("import", str(FIXTURES / "soli2" / "duel-pouch-standard.jsonl"), "--id", "duel")
    outcome = cli.json("score", "duel")["outcome"]
    older = {"winner": outcome["winners"][0], **{k: v for k, v in outcome.items() if k != "result"}}
    sql(cli.db, "update games set outcome = ? where id = 'duel'", [json.dumps(older)])
    assert cli.json("validate", "duel")["valid"] == 1
    sql(cli.db, "update games set outcome = ? where id = 'duel'", [json.dumps({**older, "winner": "Nobody"})])
    assert "the recorded outcome" in cli.run("validate", "duel", expect=1).stdout


def test_a_refused_option_value_is_named_in_the_record_formats_words(cli, tmp_path):
    lines = (FIXTURES / "solari" / "two-against-two-dice-seeded.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["options"]["teams"] = None
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(header), *lines[1:]]))
    reason = cli.json("import", str(bad), expect=2)["error"]["reason"]
    assert "option teams is on or off, not null" in reason
