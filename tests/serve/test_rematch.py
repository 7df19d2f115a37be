"""A finished game offers a rematch and a new game (issue 31): the referee's rematch starts the same
game again with the same players and options and a new seed (an entered game stays entered); a
seat is told the referee can; nothing of the kind shows before the end."""

from __future__ import annotations

import re

from solrec.replay.log import state_at

from .conftest import Table, csrf_of, position_of, stranger


def finished(table: Table, *, entered: bool = False) -> str:
    gid = table.start("solar-solitaire", ["Ann"], seed=None, entered=entered,
                      options={"own_pad_rocket": "redeal", "waste_takes_free_moves": "yes"})
    if entered:
        assert table.play(f"/g/{gid}", "deal 1-2-3 0-0-1 2-3-2 0-1-1").status_code == 200
    r = table.play(f"/g/{gid}", "resign")
    assert r.status_code == 200, r.text
    return gid


def rematch(table: Table, gid: str, client=None):
    client = client or table.client
    page = client.get(f"/g/{gid}").text
    at, version = position_of(page)
    return client.post(f"/g/{gid}/rematch", data={"at": at, "version": version, "csrf": csrf_of(page)})


def test_a_finished_game_offers_the_referee_a_rematch_and_a_new_game(table: Table):
    gid = finished(table)
    page = table.page(f"/g/{gid}")
    again = re.search(r'<div class="again">.*?</div>', page, re.S)
    assert again and 'class="rematch"' in again.group(0) and 'href="/#start"' in again.group(0)
    assert 'id="start"' in table.page("/")  # where "new game" leads: the list of games to start


def test_the_rematch_has_the_same_players_and_options_and_a_new_seed(table: Table):
    gid = finished(table)
    r = rematch(table, gid)
    assert r.status_code == 200, r.text
    new = r.text.strip()
    assert new and new != gid
    old_log, new_log = table.log(gid), table.log(new)
    old, fresh = old_log.header, new_log.header
    assert (fresh.game, fresh.players, fresh.options_dict(), fresh.chance) == (old.game, old.players, old.options_dict(), old.chance)
    assert fresh.seed is not None and fresh.seed != old.seed
    assert new_log.game.to_act(state_at(new_log)) == "Ann"
    assert "Ann to act" in table.page(f"/g/{new}")


def test_an_entered_games_rematch_stays_entered(table: Table):
    gid = finished(table, entered=True)
    r = rematch(table, gid)
    assert r.status_code == 200, r.text
    fresh = table.log(r.text.strip()).header
    assert fresh.chance == "entered" and fresh.seed is None and fresh.options_dict() == table.log(gid).header.options_dict()


def test_no_rematch_before_the_end_nor_from_a_seat(table: Table):
    gid = table.start("solar-solitaire", ["Ann"])
    assert 'class="again"' not in table.page(f"/g/{gid}")
    assert rematch(table, gid).status_code == 400
    links = table.seat_links(finished(table))
    device = stranger(table)
    seat_page = device.get(links["Ann"]).text
    assert "The referee can start a rematch or a new game." in seat_page and 'class="rematch"' not in seat_page
    at, version = position_of(seat_page)
    r = device.post(f"{links['Ann']}/rematch", data={"at": at, "version": version, "csrf": csrf_of(seat_page)})
    assert r.status_code in (403, 404, 405)
