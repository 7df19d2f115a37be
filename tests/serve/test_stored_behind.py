"""A running server notices a stored game changed behind its back (issue 42, item 4): before a write
it compares the game's stored rows with the log it holds, and a payload edited in place or a row
deleted (which leave the games row and the last event as they were) is refused with the stored-data
verdict the command line gives (exit 1 there, 409 here), nothing stored; a seat is told only that the
game is damaged (the verdict may quote a command it may not see)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from solrec.core.errors import CorruptLog
from solrec.events.store import Store
from solrec.replay.log import load

from .conftest import Table, csrf_of, position_of


def edit_a_payload(db, gid: str) -> None:
    with sqlite3.connect(db) as conn:  # a byte changed in place, the hash chain left as it was
        payload = conn.execute("select payload from events where game_id = ? and seq = 1", [gid]).fetchone()[0]
        edited = payload[:-1] + bytes([payload[-1] ^ 1])
        conn.execute("update events set payload = ? where game_id = ? and seq = 1", [edited, gid])


def delete_a_row(db, gid: str) -> None:
    with sqlite3.connect(db) as conn:  # an event from the middle: the games row and the last event unchanged
        conn.execute("delete from events where game_id = ? and seq = 1", [gid])


def cli_verdict(table: Table, gid: str) -> str:
    store = Store(table.db)
    try:
        with pytest.raises(CorruptLog) as err:
            load(store, gid)
        return f"stored data problem: {err.value}"
    finally:
        store.close()


def played(table: Table, gid: str, links: dict[str, str], device) -> None:
    """Two commands, so that the game has rows before its last."""
    assert table.play(links["Ann"], "place d4", device).status_code == 200
    assert table.play(links["Bob"], "place e5", device).status_code == 200


@pytest.mark.parametrize("change", [edit_a_payload, delete_a_row], ids=["edited payload", "deleted row"])
def test_a_comment_on_a_game_changed_behind_the_server_is_refused_with_the_stored_data_verdict(
        table: Table, change: Callable) -> None:
    gid, links, device = table.seated()
    played(table, gid, links, device)
    page = table.page(f"/g/{gid}")  # the server holds the log, verified, and shows it
    at, version = position_of(page)
    change(table.db, gid)
    r = table.client.post(f"/g/{gid}/note", data={"text": "a comment", "at": at, "version": version, "csrf": csrf_of(page)})
    assert (r.status_code, r.text) == (409, cli_verdict(table, gid).replace("\n", " "))
    with sqlite3.connect(table.db) as conn:  # nothing stored: no comment
        kept = {n for (n,) in conn.execute("select name from sqlite_master where type = 'table'")}
        assert "notes" not in kept or conn.execute("select count(*) from notes where game_id = ?", [gid]).fetchone()[0] == 0


@pytest.mark.parametrize("change", [edit_a_payload, delete_a_row], ids=["edited payload", "deleted row"])
def test_a_seats_command_on_a_game_changed_behind_the_server_is_refused_naming_no_command(
        table: Table, change: Callable) -> None:
    gid, links, device = table.seated()
    played(table, gid, links, device)
    page = device.get(links["Ann"]).text
    at, version = position_of(page)
    change(table.db, gid)
    r = device.post(f"{links['Ann']}/play", data={"command": "place c3", "at": at, "version": version, "csrf": csrf_of(page)})
    assert r.status_code == 409 and r.text == ("stored data problem: this game's stored data is damaged; the referee's "
                                               "page shows validate's verdict")
    with sqlite3.connect(table.db) as conn:  # nothing stored
        assert conn.execute("select count(*) from events where game_id = ? and command = 'place c3'", [gid]).fetchone()[0] == 0
