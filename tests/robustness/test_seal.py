"""`solrec seal`: an HMAC of a game's head hash under the referee's key, verified by validate when the
key is present (issue 8, "Tamper evidence beyond the chain"; docs/security.md)."""

from __future__ import annotations

import json

import pytest

from .helpers import FIXTURES, Hostile, rechain, sql

WORKED = FIXTURES / "solo-dice" / "worked-example.jsonl"


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.delenv("SOLREC_KEY", raising=False)
    monkeypatch.delenv("SOLREC_KEY_FILE", raising=False)
    h = Hostile(tmp_path / "solrec.db")
    h.run("import", str(WORKED), "--id", "we")
    h.run("import", str(WORKED), "--id", "other")
    return h


def drop_last_command_and_fix_games(cli, gid: str, comments: bool = False) -> None:
    """The attack the chain alone cannot see: drop the last command, recompute the chain and games."""
    sql(cli.db, f"delete from events where game_id = '{gid}' and step = (select max(step) from events"
                f" where game_id = '{gid}')")
    rechain(cli.db, gid)
    sql(cli.db, f"update games set scores = null, outcome = null where id = '{gid}'")
    if comments:  # the record's comments (one is on the last position) go too, head and all
        sql(cli.db, f"delete from notes where game_id = '{gid}'")
        sql(cli.db, f"delete from note_heads where game_id = '{gid}'")


def test_without_a_seal_a_dropped_last_command_with_games_adjusted_goes_undetected(cli):
    """The threat model's stated limit: documented, and pinned so that a change to it is noticed."""
    drop_last_command_and_fix_games(cli, "we", comments=True)
    assert cli.run("validate", "we").exit_code == 0


def test_a_sealed_game_validates_with_the_key(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    out = cli.run("seal", "we", "--json")
    sealed = json.loads(out.stdout)["sealed"]
    assert [s["id"] for s in sealed] == ["we"] and len(sealed[0]["mac"]) == 64
    assert "we: valid (solo-dice, 26 events, rules 1, seal verified)" in cli.run("validate", "we").stdout


def test_a_seal_catches_a_dropped_last_command_with_games_adjusted(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    cli.run("seal", "we")
    drop_last_command_and_fix_games(cli, "we")
    result = cli.run("validate", "we")
    assert result.exit_code == 1
    assert "it was sealed at 26 events but its log now holds 25" in result.stdout


def test_a_seal_catches_a_rechained_edit(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    cli.run("seal", "--all")
    sql(cli.db, "update events set command = 'roll 6 6 6 6 6' where game_id = 'we' and seq = 0")
    rechain(cli.db, "we")
    assert "are not the ones that were sealed" in cli.run("validate", "we").stdout


def test_a_forged_seal_does_not_verify(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    cli.run("seal", "we")
    drop_last_command_and_fix_games(cli, "we")
    # the attacker moves the seal to the new head, but cannot compute its HMAC without the key
    sql(cli.db, "update seals set events = 25, head = (select head from games where id = 'we') where game_id = 'we'")
    assert "does not verify under this key" in cli.run("validate", "we").stdout


def test_another_key_does_not_verify(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    cli.run("seal", "we")
    monkeypatch.setenv("SOLREC_KEY", "guess")
    assert "does not verify under this key" in cli.run("validate", "we").stdout


def test_a_key_file(cli, tmp_path, monkeypatch):
    key = tmp_path / "referee.key"
    key.write_text("a long random key\n")
    cli.run("seal", "we", "--key-file", str(key))
    monkeypatch.setenv("SOLREC_KEY_FILE", str(key))
    assert "seal verified" in cli.run("validate", "we").stdout
    monkeypatch.setenv("SOLREC_KEY_FILE", str(tmp_path / "missing.key"))
    assert "key file" in cli.run("validate", "we").stderr


def test_without_the_key_a_seal_is_shown_but_not_verified(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "club referee secret")
    cli.run("seal", "we")
    monkeypatch.delenv("SOLREC_KEY")
    assert "we: valid (solo-dice, 26 events, rules 1, sealed (no key to verify))" in cli.run("validate", "we").stdout


def test_a_seal_of_part_of_the_log_says_which_part_it_covers(tmp_path, monkeypatch):
    """Events played after sealing are not covered: "seal verified" alone would claim the whole log."""
    monkeypatch.setenv("SOLREC_KEY", "k")
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--entered", "--id", "g")
    cli.run("play", "g", "roll 6 1 5 5 5")
    cli.run("play", "g", "6+1 5+5 5")
    cli.run("seal", "g")
    cli.run("play", "g", "roll 6 1 5 5 5")
    cli.run("play", "g", "6+1 5+5 5")
    result = cli.run("validate", "g")
    assert result.exit_code == 0
    assert "sealed at position 2 of 4; the last 2 events are not covered" in result.stdout
    assert "seal verified" not in result.stdout
    assert cli.run("validate", "g", "--json").stdout.count('"sealed_at": 2') == 1


DAMAGED_SEALS = [("mac", "é", 26), ("mac", "ab", 26), ("mac", "0" * 63 + "G", 26), ("mac", "", 26),
                 ("head", "not a hash", 26), ("events", -5, 0)]


@pytest.mark.parametrize(("column", "value", "position"), DAMAGED_SEALS, ids=[f"{c}={v!r}" for c, v, _ in DAMAGED_SEALS])
def test_a_stored_seal_that_is_not_an_hmac_is_a_verdict(cli, monkeypatch, column, value, position):
    monkeypatch.setenv("SOLREC_KEY", "k")
    cli.run("seal", "we")
    sql(cli.db, f"update seals set {column} = ? where game_id = 'we'", params=(value,))
    result = cli.run("validate", "--all")
    assert result.exit_code == 1 and f"we: INVALID at move {position}: its stored seal is damaged" in result.stdout
    assert "other: valid" in result.stdout
    assert cli.run("seal", "we").exit_code == 1  # not sealed again over a damaged seal


def test_seal_needs_a_key_and_a_valid_game(cli, monkeypatch):
    assert "no key" in cli.run("seal", "we").stderr
    monkeypatch.setenv("SOLREC_KEY", "k")
    assert cli.run("seal", "nope").exit_code == 2
    assert cli.run("seal").exit_code == 2
    sql(cli.db, "update events set command = 'x' where game_id = 'we' and seq = 0")
    result = cli.run("seal", "--all")
    assert result.exit_code == 1
    assert "we: not sealed: INVALID at move 1" in result.stdout and "other: sealed at 26 events" in result.stdout


def test_a_damaged_seals_table_is_a_verdict(cli, monkeypatch):
    monkeypatch.setenv("SOLREC_KEY", "k")
    cli.run("seal", "we")
    sql(cli.db, "update seals set mac = x'00' where game_id = 'we'")
    result = cli.run("validate", "--all")
    assert result.exit_code == 1 and "its seal is not of its type" in result.stdout


def test_the_log_sealed_is_the_log_validated_though_a_command_lands_meanwhile(tmp_path, monkeypatch):
    """A command stored between validating a game and reading it to seal is not sealed unvalidated."""
    from solrec.cli import session
    from solrec.events import Store

    monkeypatch.setenv("SOLREC_KEY", "k")
    cli = Hostile(tmp_path / "solrec.db")
    cli.run("new", "solo-dice", "--entered", "--id", "g")
    cli.run("play", "g", "roll 6 1 5 5 5")
    validated = session.validate_games

    def validate_then_someone_plays(store, ids, *args, **kwargs):
        verdicts = validated(store, ids, *args, **kwargs)
        other = Store(cli.db)  # another device at the table, on its own connection
        session.play_commands(other, "g", ["6+1 5+5 5", "roll 6 1 5 5 5"])
        other.close()
        return verdicts

    monkeypatch.setattr(session, "validate_games", validate_then_someone_plays)
    sealed = json.loads(cli.run("seal", "g", "--json").stdout)["sealed"]
    assert sealed[0]["events"] == 1
    monkeypatch.setattr(session, "validate_games", validated)
    assert "sealed at position 1 of 3" in cli.run("validate", "g").stdout
