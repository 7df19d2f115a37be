"""The fuzz suite of issue 8: hostile `play` commands and `import` records for every game, and
tampered databases. Every run is checked by ``Hostile.run``: never exit 3, never a traceback, a
refusal is one line, and a refusal leaves the database exactly as it was.

Bounded for `make test`; the same properties run far longer under `make test-slow`.
"""

from __future__ import annotations

import functools
import json
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solrec.core.play import initial_state, make_header
from solrec.core.registry import get_game
from solrec.events.codec import pack

from .helpers import FIXTURES, TALLY, Hostile, every_game, fingerprint, rechain, record_of
from .test_decoding import msgpackable

FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))

HOSTILE_TEXT = [
    "", " ", ";", ";;", "\x1b[31m", "\n", "\r\n", "\x00", "\udcff", "\ud800", "-", "--", "-x", "--db", "--help",
    "9" * 30, str(2**64), "-1", "0", "é", "🎲", "a" * 300, "'", '"', "\\", "%s", "{}", "[]", "null", "NaN",
]
hostile_words = st.sampled_from(HOSTILE_TEXT) | st.text(max_size=12)


@functools.cache
def notation_words(gid: str) -> tuple[str, ...]:
    """Words of the game's own notation: every legal command at the start, split into words."""
    game = get_game(gid)
    header = make_header(game, [], seed=1)
    state = initial_state(game, header)
    legal = game.legal_commands(state) or ()
    words = {w for c in legal[:200] for w in game.format(c).split()}
    return tuple(sorted(words)) + ("roll", "place", "jump", "black", "white", "d4", "pad0", "waste", "6+1", "1-2-3")


def command_text(gid: str) -> st.SearchStrategy[str]:
    word = st.sampled_from(notation_words(gid)) | hostile_words
    return st.lists(word, min_size=0, max_size=6).map(" ".join)


# -- play ---------------------------------------------------------------------------------------------
def _play_db(gid: str) -> tuple[Hostile, list[str]]:
    cli = Hostile(Path(tempfile.mkdtemp()) / "play.db")
    ids = []
    for chance in ("--entered", "--seed=3"):
        result = cli.run("new", gid, chance, "--json")
        ids.append(json.loads(result.stdout)["id"])
    return cli, ids


def _play(gid: str, data) -> None:
    cli, ids = _play_db(gid) if gid not in _PLAY else _PLAY[gid]
    _PLAY[gid] = (cli, ids)
    gid_arg = data.draw(st.sampled_from(ids) | hostile_words)
    words = data.draw(st.lists(command_text(gid), min_size=1, max_size=3))
    extra = data.draw(st.sampled_from([[], ["--actor", "chance"], ["--actor", "Player 1"], ["--json"]])
                      | st.lists(hostile_words, max_size=2))
    cli.run("play", gid_arg, *words, *extra, kind="play commands")


_PLAY: dict[str, tuple[Hostile, list[str]]] = {}


@pytest.mark.parametrize("gid", every_game())
@FAST
@given(data=st.data())
def test_fuzz_play(gid, data):
    _play(gid, data)


@pytest.mark.slow
@pytest.mark.parametrize("gid", every_game())
@LONG
@given(data=st.data())
def test_fuzz_play_long(gid, data):
    _play(gid, data)


# -- import -------------------------------------------------------------------------------------------
hostile_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | hostile_words,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_words, inner, max_size=3),
    max_leaves=8,
)


def _mutate(lines: list[str], data) -> str:
    lines = list(lines)
    how = data.draw(st.sampled_from(["field", "drop", "duplicate", "swap", "truncate", "insert", "nest", "as-is"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if how == "field":
        obj = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(obj) + ["id", "seed", "events", "hashes", "unknown"]))
        obj[key] = data.draw(hostile_json)
        lines[i] = json.dumps(obj)
    elif how == "drop":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "swap" and len(lines) > 1:
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "truncate":
        lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
    elif how == "insert":
        lines.insert(i, data.draw(hostile_words | hostile_json.map(json.dumps)))
    elif how == "nest":
        depth = data.draw(st.sampled_from([10, 5000, 100_000]))
        lines[i] = "[" * depth + "]" * depth
    return "\n".join(lines) + "\n"


@functools.cache
def _records(gid: str) -> tuple[tuple[str, ...], ...]:
    out = []
    for path in record_of(gid):
        out.append(tuple(path.read_text().splitlines()))
    return tuple(out)


_IMPORT: dict[str, Hostile] = {}


def _import(gid: str, data) -> None:
    cli = _IMPORT.get(gid) or Hostile(Path(tempfile.mkdtemp()) / "import.db")
    _IMPORT[gid] = cli
    lines = list(data.draw(st.sampled_from(_records(gid))))
    text = _mutate(lines, data)
    extra = data.draw(st.sampled_from([[], ["--id", "x"], ["--json"]]) | st.lists(hostile_words, max_size=1).map(
        lambda w: ["--id", *w] if w else []))
    cli.run("import", "-", *extra, input=text, kind="import records")


@pytest.mark.parametrize("gid", every_game())
@FAST
@given(data=st.data())
def test_fuzz_import(gid, data):
    _import(gid, data)


@pytest.mark.slow
@pytest.mark.parametrize("gid", every_game())
@LONG
@given(data=st.data())
def test_fuzz_import_long(gid, data):
    _import(gid, data)


def test_a_refused_import_on_a_missing_database_leaves_no_file(tmp_path):
    cli = Hostile(tmp_path / "none.db")
    for gid in every_game():
        for path in record_of(gid):
            bad = path.read_text().replace('"command": "', '"command": "zz ', 1)
            assert cli.run("import", "-", input=bad).exit_code == 2
    assert list(tmp_path.iterdir()) == []


# -- tampered databases ------------------------------------------------------------------------------
TEMPLATE_RECORDS = [
    "solo-dice/worked-example.jsonl", "soli2/classic-solitaire.jsonl", "soli2/duel-pure-skill.jsonl",
    "solar-solitaire/won-seeded.jsonl", "solari/worked-example-1235-to-target.jsonl",
    "solari/two-against-two-greedy-to-36-seeded.jsonl",
]


@functools.cache
def _template() -> bytes:
    """A database with a recorded game of every game (the shortest fixtures), as bytes."""
    path = Path(tempfile.mkdtemp()) / "template.db"
    cli = Hostile(path)
    for name in TEMPLATE_RECORDS:
        cli.run("import", str(FIXTURES / name))
    copy = path.with_name("copy.db")
    src, dst = sqlite3.connect(path), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    return copy.read_bytes()


EVENT_COLUMNS = ["game_id", "seq", "step", "actor", "command", "type", "version", "payload", "hash", "time", "head"]
GAME_COLUMNS = ["id", "game", "rules", "options", "chance", "seed", "players", "created", "genesis", "events",
                "head", "scores", "outcome"]
sql_text = hostile_words.map(lambda s: s.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
sql_value = (st.none() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | sql_text
             | st.binary(max_size=20) | st.sampled_from(["[]", "{}", '{"x": 1}', "[1,", '["Ann"]', "seeded"]))


def _tamper(data) -> tuple[Path, str, bool]:
    path = Path(tempfile.mkdtemp()) / "tampered.db"
    path.write_bytes(_template())
    conn = sqlite3.connect(path)
    ids = [r[0] for r in conn.execute("select id from games order by id")]
    gid = data.draw(st.sampled_from(ids))
    n = conn.execute("select count(*) from events where game_id = ?", [gid]).fetchone()[0]
    seq = data.draw(st.integers(0, max(n - 1, 0)))
    how = data.draw(st.sampled_from(
        ["event column", "game column", "delete event", "delete last", "hostile payload", "swap payloads",
         "duplicate event", "delete game", "payload from another type"]))
    attacker = data.draw(st.booleans())  # recompute the unkeyed chain and the games row afterwards
    where = (gid, seq)
    if how == "event column":
        col = data.draw(st.sampled_from(EVENT_COLUMNS))
        try:
            conn.execute(f"update events set {col} = ? where game_id = ? and seq = ?", [data.draw(sql_value), *where])
        except sqlite3.Error:
            pass
    elif how == "game column":
        col = data.draw(st.sampled_from(GAME_COLUMNS))
        try:
            conn.execute(f"update games set {col} = ? where id = ?", [data.draw(sql_value), gid])
        except sqlite3.Error:
            pass
    elif how == "delete event":
        conn.execute("delete from events where game_id = ? and seq = ?", where)
    elif how == "delete last":
        conn.execute("delete from events where game_id = ? and seq = ?", [gid, n - 1])
    elif how == "hostile payload":
        conn.execute("update events set payload = ? where game_id = ? and seq = ?",
                     [pack(data.draw(msgpackable)), *where])
    elif how == "swap payloads":
        other = data.draw(st.integers(0, max(n - 1, 0)))
        a = conn.execute("select payload, type from events where game_id = ? and seq = ?", where).fetchone()
        b = conn.execute("select payload, type from events where game_id = ? and seq = ?", [gid, other]).fetchone()
        if a and b:
            conn.execute("update events set payload = ?, type = ? where game_id = ? and seq = ?", [*b, *where])
            conn.execute("update events set payload = ?, type = ? where game_id = ? and seq = ?", [*a, gid, other])
    elif how == "duplicate event":
        conn.execute("update events set seq = seq + 1000000 where game_id = ? and seq > ?", where)
        conn.execute("insert into events (game_id, seq, step, actor, command, type, version, payload, hash, time, head)"
                     " select game_id, seq + 1, step, actor, command, type, version, payload, hash,"
                     " time, head from events where game_id = ? and seq = ?", where)
        conn.execute("update events set seq = seq - 1000000 + 1 where game_id = ? and seq > 1000000", [gid])
    elif how == "delete game":
        conn.execute("delete from games where id = ?", [gid])
    elif how == "payload from another type":
        tag = data.draw(st.sampled_from(sorted({t.TYPE for g in every_game() for t in get_game(g).event_types})))
        conn.execute("update events set type = ? where game_id = ? and seq = ?", [tag, *where])
    conn.commit()
    conn.close()
    if attacker and how not in ("delete game",):
        try:
            rechain(path, gid)
        except Exception:  # the attacker's own tool may choke on what they did; the file stays as is
            pass
    TALLY[f"tampering: {how}"] += 1
    return path, gid, attacker


def _tampered(data) -> None:
    path, gid, _ = _tamper(data)
    command: tuple[str, ...]
    cli = Hostile(path)
    before = fingerprint(path)
    TALLY["tampered databases"] += 1
    validate = cli.run("validate", "--all", kind="tampered: validate")
    show = cli.run("show", gid, kind="tampered: show")
    command = data.draw(st.sampled_from([("score", gid), ("replay", gid), ("log", gid), ("export", gid, "--events"),
                                         ("legal", gid), ("diff", gid, gid), ("play", gid, "x"), ("list",)]))
    cli.run(*command, kind="tampered: other commands")
    assert fingerprint(path) == before, "a reading command changed a tampered database"
    if validate.exit_code == 1:
        TALLY["tampering detected by validate"] += 1
    if show.exit_code == 1:
        TALLY["tampering detected by show"] += 1
        assert validate.exit_code == 1, "show refused a game that validate found valid"


@FAST
@given(data=st.data())
def test_fuzz_tampered_databases(data):
    _tampered(data)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_fuzz_tampered_databases_long(data):
    _tampered(data)


def test_every_tampering_that_changes_a_game_is_detected_by_validate():
    """Without a key, what validate cannot see is exactly what docs/security.md says: an attacker's
    recomputed chain over events the rules accept. Everything else is caught."""
    rng = random.Random(8)
    cli_db = Path(tempfile.mkdtemp()) / "t.db"
    cli_db.write_bytes(_template())
    cli = Hostile(cli_db)
    ids = [g["id"] for g in json.loads(cli.run("validate", "--all", "--json").stdout)["games"]]
    for gid in ids:
        conn = sqlite3.connect(cli_db)
        n = conn.execute("select count(*) from events where game_id = ?", [gid]).fetchone()[0]
        seq = rng.randrange(n)
        move = conn.execute("select step from events where game_id = ? and seq = ?", [gid, seq]).fetchone()[0] + 1
        conn.execute("update events set payload = ? where game_id = ? and seq = ?", [pack({"x": 1}), gid, seq])
        conn.commit()
        conn.close()
        result = cli.run("validate", gid)
        assert result.exit_code == 1 and f"INVALID at move {move}" in result.stdout
        rechain(cli_db, gid)
        result = cli.run("validate", gid)
        assert result.exit_code == 1 and f"INVALID at move {move}" in result.stdout
