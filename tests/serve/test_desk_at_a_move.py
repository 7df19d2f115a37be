"""The referee's desk at an earlier move (issue 43 item 1), through HTTP: the page at ``?move=N``
says move N in words with its notation, shows its comments and marks, and offers the comment form
for that move; a ruling posted there is the comment ``solrec comment --at N --mark ruled`` stores.
Who may: the referee rules, a seat comments, a spectator reads."""

from __future__ import annotations

import re

from ..conftest import Cli
from .conftest import csrf_of, position_of, stranger
from .test_desk import DISPUTED, imported

RULING = 'the move stands: "When you move one comet twice, he may change direction after the first move."'


def desk_of(page: str) -> str:
    found = re.search(r'<section class="desk".*?</section>', page, re.S)
    assert found, "the page shows no desk"
    return found.group(0)


def form_of(page: str) -> dict[str, str]:
    """The desk form's hidden fields, as the page sends them."""
    form = re.search(r'<form class="ruling".*?</form>', page, re.S)
    assert form, "the desk offers no form"
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))


def notes_of(db, gid: str):
    from solrec.events.notes import read
    from solrec.events.store import Store

    store = Store(db)
    try:
        return read(store, gid).notes
    finally:
        store.close()


def test_the_page_at_a_move_says_the_move_in_words_with_its_comments_and_offers_the_ruling_form(table):
    gid = imported(table)
    desk = desk_of(table.page(f"/g/{gid}?move=10"))
    assert "move 10: <bdi>Ann</bdi> moved Uranus&#x27;s doubler from 00 to 06" in desk
    assert '<small class="notation">(<code>00-06</code>)</small>' in desk
    assert "disputed</span> <span class=\"by\">Bob:</span> the comet went 06-00" in desk
    assert '<span class="nmark">ruled</span>' in desk
    assert '<option value="ruled">ruled</option>' in desk and 'name="csrf"' in desk
    assert 'method="post" action="/g/disp/note"' in desk
    # the fragment the script fetches: the same desk, its form sent by the script (no CSRF value in it)
    fetched = desk_of(table.page(f"/g/{gid}/view?move=10"))
    assert "moved Uranus&#x27;s doubler" in fetched and 'name="csrf"' not in fetched and "action=" not in fetched



def test_at_the_live_position_the_referees_desk_follows_the_actions_and_a_seat_keeps_its_tools_form(table):
    gid, seats, guest = table.seated()
    assert table.play(seats["Ann"], "place d4", guest).status_code == 200
    referee = table.page(f"/g/{gid}")
    desk = desk_of(referee)
    assert "move 3: Chance drew" in desk and '<option value="ruled">ruled</option>' in desk  # the last move: the draw after d4
    assert referee.index('class="refusal"') < referee.index('<section class="desk"')  # after the actions
    assert 'form class="note"' not in referee  # the desk's form is the referee's
    seat = guest.get(seats["Bob"]).text
    assert '<section class="desk"' not in seat and 'form class="note"' in seat
    at, version = position_of(referee)
    assert table.play(seats["Bob"], "place c3", guest).status_code == 200  # the game goes on: the ruling still lands
    r = table.client.post(f"/g/{gid}/note", data={**form_of(referee), "csrf": csrf_of(referee), "text": "d4 stands",
                                                  "mark": "ruled"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{gid}?move=3#move=3"
    assert [(n.position, n.mark) for n in notes_of(table.db, gid)] == [(int(at), "ruled")]


def test_a_ruling_from_the_page_is_stored_as_solrec_comment_at_the_move_marked_ruled_stores_it(table, tmp_path):
    gid = imported(table)
    page = table.page(f"/g/{gid}?move=10")
    r = table.client.post(f"/g/{gid}/note", data={**form_of(page), "csrf": csrf_of(page), "text": RULING, "mark": "ruled"},
                          follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{gid}?move=10#move=10"  # the page again, at the move
    cli = Cli(tmp_path / "cli.db")
    cli.run("import", str(DISPUTED), "--id", gid)
    cli.run("comment", gid, RULING, "--at", "10", "--mark", "ruled", "--by", "referee")
    served, typed = notes_of(table.db, gid), notes_of(cli.db, gid)
    assert [(n.n, n.position, n.by, n.mark, n.text) for n in served] == [(n.n, n.position, n.by, n.mark, n.text) for n in typed]
    assert cli.json("comment", gid)["notes"][-1]["move"] == 10
    # and the page at move 10 shows it with the others
    assert desk_of(table.page(r.headers["location"].split("#")[0])).count('<span class="nmark">ruled</span>') == 2


def test_the_script_sends_the_same_form_and_is_answered_with_the_position(table):
    gid = imported(table)
    fragment = table.page(f"/g/{gid}/view?move=10")
    fields = {k: v for k, v in form_of(fragment).items() if k != "page"}
    r = table.client.post(f"/g/{gid}/note", data={**fields, "csrf": csrf_of(table.page(f"/g/{gid}")), "text": "seen"})
    assert r.status_code == 200 and r.text == fields["at"]
    assert notes_of(table.db, gid)[-1].position == int(fields["at"])


def test_a_ruling_at_an_earlier_move_stands_while_the_game_goes_on_and_not_over_a_take_back(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    assert table.play(f"/g/{gid}", "place d4").status_code == 200
    page = table.page(f"/g/{gid}?move=2")  # move 1: chance drew the first marble
    form = {**form_of(page), "csrf": csrf_of(page), "mark": "ruled"}
    assert table.play(f"/g/{gid}", "place d5").status_code == 200  # the game goes on meanwhile
    r = table.client.post(f"/g/{gid}/note", data={**form, "text": "d4 stands"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert [(n.position, n.mark) for n in notes_of(table.db, gid)] == [(int(form["at"]), "ruled")]
    live = table.page(f"/g/{gid}")
    at, version = position_of(live)
    assert table.client.post(f"/g/{gid}/undo", data={"at": at, "version": version, "csrf": csrf_of(live)}).status_code == 200
    live = table.page(f"/g/{gid}")
    at, version = position_of(live)
    assert table.client.post(f"/g/{gid}/undo", data={"at": at, "version": version, "csrf": csrf_of(live)}).status_code == 200
    assert table.play(f"/g/{gid}", "place e4").status_code == 200  # move 2 is another move now
    before = notes_of(table.db, gid)
    r = table.client.post(f"/g/{gid}/note", data={**form, "text": "d4 stands"}, follow_redirects=False)
    assert r.status_code == 409 and "the position changed" in r.text
    assert notes_of(table.db, gid) == before


def test_a_seat_comments_on_an_earlier_move_but_only_the_referee_rules(table):
    gid, seats, guest = table.seated()
    assert table.play(seats["Ann"], "place d4", guest).status_code == 200
    assert table.play(seats["Bob"], "place c3", guest).status_code == 200
    page = guest.get(f"{seats['Bob']}?move=2").text
    desk = desk_of(page)
    assert "move 2: <bdi>Ann</bdi> placed" in desk and 'name="mark"' not in desk
    assert f'action="{seats["Bob"]}/note"' in desk
    form = {**form_of(page), "csrf": csrf_of(page)}
    r = guest.post(f"{seats['Bob']}/note", data={**form, "text": "I claim this", "mark": "ruled"})
    assert r.status_code == 403 and "only the referee rules" in r.text
    r = guest.post(f"{seats['Bob']}/note", data={**form, "text": "was d4 legal?", "mark": "disputed"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{seats['Bob']}?move=2#move=2"
    assert [(n.by, n.mark, n.text) for n in notes_of(table.db, gid)] == [("Bob", "disputed", "was d4 legal?")]


def test_a_spectator_reads_the_desk_and_has_no_form(table):
    from .test_desk import spectator_link

    gid = imported(table)
    watch = spectator_link(table, gid)
    desk = desk_of(stranger(table).get(f"{watch}?move=10").text)
    assert "moved Uranus&#x27;s doubler" in desk and "the comet went 06-00" in desk and "<form" not in desk
