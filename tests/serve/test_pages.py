"""``solrec serve`` at the HTTP level: starting, playing, refusing, who may see and do what."""

from __future__ import annotations

import re
import sqlite3

from solrec.server.app import CSP
from solrec.server.seats import referee_cookie, token_hash

from .conftest import REFEREE, csrf_of, make_client, position_of, stranger


# -- starting a game ---------------------------------------------------------------------------------
def test_the_new_game_form_lists_each_option_with_its_help_and_allowed_values(table):
    page = table.page("/new?game=soli2")
    assert 'name="option.mode"' in page
    for value in ("duel", "classic-solitaire", "soli2-solitaire"):
        assert f'<option value="{value}"' in page
    assert "duel: two players, black (first listed) and white" in page
    assert 'value="seeded"' in page and 'value="entered"' in page


def test_the_new_game_form_of_solarius_mission_offers_its_component_set(table):
    page = table.page("/new?game=solarius-mission")
    assert re.search(r'name="components" value="house-2016b"', page)
    assert 'name="option.components_digest"' not in page  # derived from the set, never typed


def test_a_game_started_from_the_form_is_stored_with_its_players_options_and_seed(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=42, options={"objective": "give-away"})
    log = table.log(gid)
    assert log.header.players == ("Ann", "Bob")
    assert log.header.seed == 42
    assert log.header.options_dict()["objective"] == "give-away"


def test_a_game_started_with_another_component_set_records_its_name_and_digest(table):
    gid = table.start("solarius-mission", ["Ann", "Bob"], seed=1, options={})
    assert table.log(gid).header.options_dict()["components"] == "house-2016b"
    page = table.page("/new?game=solarius-mission")
    r = table.client.post("/new", data={"csrf": csrf_of(page), "game": "solarius-mission", "players": "Ann\nBob",
                                        "chance": "seeded", "seed": "1", "components": "house-2016"}, follow_redirects=False)
    assert r.status_code == 303
    options = table.log(r.headers["location"].rsplit("/", 1)[1]).header.options_dict()
    assert options["components"] == "house-2016" and options["components_digest"] != "bf84d9107590e30b"


def test_a_refused_set_up_shows_its_reason_in_the_form_and_stores_nothing(table):
    page = table.page("/new?game=soli2")
    r = table.client.post("/new", data={"csrf": csrf_of(page), "game": "soli2", "players": "Ann\nAnn", "chance": "seeded"})
    assert r.status_code == 400
    assert "player names must differ" in r.text
    assert not table.db.exists() or not sqlite3.connect(table.db).execute(
        "select count(*) from sqlite_master where name = 'games'").fetchone()[0] or not sqlite3.connect(
        table.db).execute("select count(*) from games").fetchone()[0]


def test_an_entered_game_started_from_the_form_has_no_seed(table):
    gid = table.start("solo-dice", ["Solo"], entered=True)
    log = table.log(gid)
    assert log.header.chance == "entered" and log.header.seed is None


# -- playing -----------------------------------------------------------------------------------------
def test_a_command_posted_by_the_player_to_act_is_stored(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    seats = table.seat_links(gid)
    before = len(table.log(gid).rows)
    r = table.play(seats["Ann"], "place d4", stranger(table))
    assert r.status_code == 200, r.text
    log = table.log(gid)
    assert r.text == "stored" and len(log.rows) > before  # a seat is told no position: it may hang on chance
    assert "place d4" in [row.command for row in log.rows]


def test_a_refused_command_answers_400_with_its_one_line_reason_and_stores_nothing(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    before = table.log(gid).rows
    r = table.play(f"/g/{gid}", "fly to the moon")
    assert r.status_code == 400
    assert r.text and "\n" not in r.text and "Traceback" not in r.text
    assert table.log(gid).rows == before


def test_a_seat_cannot_play_when_another_player_is_to_act(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    seats = table.seat_links(gid)
    before = table.log(gid).rows
    r = table.play(seats["Bob"], "place d4", stranger(table))
    assert r.status_code == 400
    assert "Ann is to act, not Bob" in r.text
    assert table.log(gid).rows == before


def test_a_seat_sees_its_choices_only_when_its_player_is_to_act(table):
    gid, seats, guest = table.seated()
    assert 'id="choices"' in guest.get(seats["Ann"]).text
    assert 'id="choices"' not in guest.get(seats["Bob"]).text


def test_a_command_decided_on_a_position_that_changed_answers_409_and_stores_nothing(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    page = table.page(f"/g/{gid}")
    at, head = position_of(page)
    assert table.play(f"/g/{gid}", "place d4").status_code == 200
    rows = table.log(gid).rows
    r = table.client.post(f"/g/{gid}/play", data={"command": "place d5", "at": at, "version": head, "csrf": csrf_of(page)})
    assert r.status_code == 409
    assert "the position changed" in r.text
    assert table.log(gid).rows == rows


def test_the_referee_enters_chance_in_an_entered_game(table):
    gid = table.start("solo-dice", ["Solo"], entered=True)
    page = table.page(f"/g/{gid}")
    assert "<bdi>chance</bdi> to play" in page
    form = re.search(r'<form class="pick" data-template="([^"]+)"', page)
    if form:  # the game's forms: the first value of each field
        command = form.group(1)
        for name, first in re.findall(r'<select name="([^"]+)"><option value="([^"]+)"', page):
            command = command.replace("{" + name + "}", first)
    else:  # the game names what the table types (chance_forms), with an example
        command = re.search(r"e\.g\. (roll [1-6 ]+)<", page).group(1).strip()
    r = table.play(f"/g/{gid}", command)
    assert r.status_code == 200, r.text
    assert table.log(gid).rows[0].actor == "chance"


def test_a_seat_cannot_enter_chance(table):
    gid = table.start("solo-dice", ["Solo"], entered=True)
    seats = table.seat_links(gid)
    guest = stranger(table)
    assert 'class="pick"' not in guest.get(seats["Solo"]).text
    r = table.play(seats["Solo"], "roll 1 2 3 4 5", guest)
    assert r.status_code == 400
    assert not table.log(gid).rows


def test_take_back_by_the_seat_whose_command_was_last(table):
    # pure skill: no pouch, so placing a marble shows nothing that was hidden
    gid, seats, guest = table.seated(options={"fill": "pure-skill"})
    start = len(table.log(gid).rows)
    assert table.play(seats["Ann"], "place black d4", guest).status_code == 200
    bob = guest.get(seats["Bob"]).text
    assert 'class="undo"' not in bob
    at, version = position_of(bob)
    r = guest.post(f"{seats['Bob']}/undo", data={"at": at, "version": version, "csrf": csrf_of(bob)})
    assert r.status_code == 400 and "not Bob's" in r.text and "\n" not in r.text
    ann = guest.get(seats["Ann"]).text
    assert 'class="undo"' in ann
    at, version = position_of(ann)
    r = guest.post(f"{seats['Ann']}/undo", data={"at": at, "version": version, "csrf": csrf_of(ann)})
    assert r.status_code == 200, r.text
    assert len(table.log(gid).rows) == start


def test_a_seat_cannot_take_back_its_command_once_another_player_has_acted(table):
    gid, seats, guest = table.seated(options={"fill": "pure-skill"})
    assert table.play(seats["Ann"], "place black d4", guest).status_code == 200
    assert table.play(seats["Bob"], "place white d5", guest).status_code == 200
    rows = table.log(gid).rows
    ann = guest.get(seats["Ann"]).text
    assert 'class="undo"' not in ann
    at, version = position_of(ann)
    r = guest.post(f"{seats['Ann']}/undo", data={"at": at, "version": version, "csrf": csrf_of(ann)})
    assert r.status_code == 400 and "the last command is Bob's, not Ann's" in r.text and "\n" not in r.text
    assert table.log(gid).rows == rows


def test_a_seat_cannot_take_back_a_command_after_which_the_pouch_drew(table):
    gid, seats, guest = table.seated()  # the pouch: a marble is drawn after every placement
    assert table.play(seats["Ann"], "place d4", guest).status_code == 200
    rows = table.log(gid).rows
    ann = guest.get(seats["Ann"]).text
    assert 'class="undo"' not in ann
    at, version = position_of(ann)
    r = guest.post(f"{seats['Ann']}/undo", data={"at": at, "version": version, "csrf": csrf_of(ann)})
    assert r.status_code == 400 and "showed what was hidden" in r.text and "\n" not in r.text
    assert table.log(gid).rows == rows


def test_the_referees_take_back_past_a_draw_is_kept_as_a_ruled_comment(table):
    from solrec.events.notes import read
    from solrec.events.store import Store

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    start = len(table.log(gid).rows)
    assert table.play(f"/g/{gid}", "place d4").status_code == 200
    page = table.page(f"/g/{gid}")
    at, version = position_of(page)
    r = table.client.post(f"/g/{gid}/undo", data={"at": at, "version": version, "csrf": csrf_of(page)})
    assert r.status_code == 200, r.text
    assert len(table.log(gid).rows) == start
    (note,) = read(Store(table.db), gid).notes
    assert (note.by, note.mark, note.position) == ("referee", "ruled", start)
    assert "had been shown (drawn)" in note.text and "Ann: place d4" in note.text


def test_a_comment_posted_on_the_position_is_stored_with_its_author(table):
    from solrec.events.notes import read
    from solrec.events.store import Store

    gid, seats, guest = table.seated()
    page = guest.get(seats["Bob"]).text
    at, head = position_of(page)
    r = guest.post(f"{seats['Bob']}/note", data={"text": "nice <b>start</b>", "at": at, "version": head, "csrf": csrf_of(page)})
    assert r.status_code == 200, r.text
    (note,) = read(Store(table.db), gid).notes
    assert (note.by, note.text, note.position) == ("Bob", "nice <b>start</b>", int(at))
    assert "nice &lt;b&gt;start&lt;/b&gt;" in guest.get(seats["Ann"]).text


def test_the_referee_marks_a_comment(table):
    from solrec.events.notes import read
    from solrec.events.store import Store

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    page = table.page(f"/g/{gid}")
    assert '<option value="disputed">' in page
    at, head = position_of(page)
    r = table.client.post(f"/g/{gid}/note", data={"text": "d4 was legal", "mark": "ruled", "at": at, "version": head,
                                                  "csrf": csrf_of(page)})
    assert r.status_code == 200, r.text
    (note,) = read(Store(table.db), gid).notes
    assert (note.by, note.mark) == ("referee", "ruled")


def test_the_referee_forks_a_variation_at_the_position(table):
    from solrec.events.forks import all_links
    from solrec.events.store import Store

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    assert table.play(f"/g/{gid}", "place d4").status_code == 200
    page = table.page(f"/g/{gid}")
    at, head = position_of(page)
    r = table.client.post(f"/g/{gid}/fork", data={"at": at, "version": head, "csrf": csrf_of(page)})
    assert r.status_code == 200, r.text
    assert all_links(Store(table.db))[r.text] == (gid, int(at))


# -- tokens ------------------------------------------------------------------------------------------
def test_every_page_needs_a_token_even_on_loopback(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    guest = stranger(table)
    for path in ("/", "/new?game=soli2", f"/g/{gid}", f"/g/{gid}/view", f"/g/{gid}/live"):
        r = guest.get(path)
        assert r.status_code == 403, path
        assert "Ann" not in r.text and "d4" not in r.text
    assert guest.post(f"/g/{gid}/play", data={"command": "place d4", "at": "0", "version": "0", "csrf": "x"}).status_code == 403


def test_the_referee_link_sets_an_httponly_strict_cookie_and_leaves_the_token_out_of_the_address(table):
    guest = stranger(table)
    r = guest.get(f"/?token={REFEREE}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert guest.get("/").status_code == 200
    assert stranger(table).get("/?token=guess").status_code == 403


def test_a_wrong_token_shows_the_same_page_as_an_unknown_game(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    other = table.start("soli2", ["Cid", "Dan"], seed=4)
    seats = table.seat_links(gid)
    token = seats["Ann"].rsplit("/", 1)[1]
    guest = stranger(table)
    answers = [
        guest.get(f"/g/{gid}/seat/{token[:-1]}{'y' if token.endswith('x') else 'x'}"),  # its last letter changed
        guest.get(f"/g/{other}/seat/{token}"),  # a token of another game
        guest.get(f"/g/no-such-game/seat/{token}"),
        guest.get(f"/g/{gid}/seat/{token}x/view"),
    ]
    assert {r.status_code for r in answers} == {404}
    assert len({r.text for r in answers}) == 1
    assert not any(word in answers[0].text for word in ("Ann", "Bob", "Cid", gid))


def test_a_new_seat_link_revokes_the_old_one(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    old = table.seat_links(gid)["Ann"]
    new = table.seat_links(gid)["Ann"]
    guest = stranger(table)
    assert guest.get(old).status_code == 404
    assert guest.get(new).status_code == 200


def test_seat_tokens_are_stored_only_as_hashes(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    seats = table.seat_links(gid)
    data = table.db.read_bytes()
    for path in seats.values():
        assert path.rsplit("/", 1)[1].encode() not in data


def test_a_database_with_seat_links_still_opens_with_its_whole_file_check(table):
    from solrec.events.store import Store

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    table.seat_links(gid)
    Store(table.db).close()  # the seats table is one the check knows


def test_deleting_a_game_drops_its_seat_links(table):
    from solrec.events.store import Store

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    link = table.seat_links(gid)["Ann"]
    Store(table.db).delete_game(gid)
    table.start("soli2", ["Ann", "Bob"], seed=3, game_id=gid)  # a new game under the same id
    assert stranger(table).get(link).status_code == 404


# -- cross-site requests -----------------------------------------------------------------------------
def test_a_post_without_or_with_a_wrong_csrf_value_is_refused_and_stores_nothing(table):
    gid, seats, guest = table.seated()
    page = guest.get(seats["Ann"]).text
    at, head = position_of(page)
    rows = table.log(gid).rows
    for csrf in (None, "0" * 64, csrf_of(table.page(f"/g/{gid}"))):  # none, a guess, the referee's
        data = {"command": "place d4", "at": at, "version": head}
        if csrf is not None:
            data["csrf"] = csrf
        r = guest.post(f"{seats['Ann']}/play", data=data)
        assert r.status_code == 403, r.text
    assert table.log(gid).rows == rows


def test_a_post_from_another_origin_is_refused_even_with_the_right_values(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    page = table.page(f"/g/{gid}")
    at, head = position_of(page)
    rows = table.log(gid).rows
    data = {"command": "place d4", "at": at, "version": head, "csrf": csrf_of(page)}
    assert table.client.post(f"/g/{gid}/play", data=data, headers={"origin": "http://evil.example"}).status_code == 403
    assert table.client.post(f"/g/{gid}/play", data=data, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert table.client.post(f"/g/{gid}/play", data=data, headers={"sec-fetch-site": "same-site"}).status_code == 403
    assert table.log(gid).rows == rows


def test_a_form_sent_from_the_servers_own_page_is_accepted_as_a_browser_sends_it(table):
    # with the pages' no-referrer policy, a browser sends a form's Origin as "null"
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    page = table.page(f"/g/{gid}")
    at, head = position_of(page)
    data = {"command": "place d4", "at": at, "version": head, "csrf": csrf_of(page)}
    r = table.client.post(f"/g/{gid}/play", data=data, headers={"origin": "null", "sec-fetch-site": "same-origin"})
    assert r.status_code == 200, r.text


def test_a_loopback_server_answers_only_to_loopback_host_names(tmp_path):
    client = make_client(tmp_path / "x.db", referee=False, hosts={"127.0.0.1", "localhost"})
    assert client.get("/", headers={"host": "evil.example"}).status_code == 421
    assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 403  # past the check: no token


# -- headers, escaping, faults -----------------------------------------------------------------------
def test_every_response_carries_the_content_security_policy(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    seat = table.seat_links(gid)["Ann"]
    page = table.page(f"/g/{gid}")
    at, head = position_of(page)
    responses = [
        table.client.get("/"), table.client.get(f"/g/{gid}"), table.client.get(f"/g/{gid}/view"),
        table.client.get(f"/g/{gid}/live"), table.client.get(seat), table.client.get("/static/table.js"),
        table.client.get("/static/table.css"), table.client.get("/nowhere"), stranger(table).get("/"),
        table.client.post(f"/g/{gid}/play", data={"command": "nonsense", "at": at, "version": head, "csrf": csrf_of(page)}),
    ]
    for r in responses:
        assert r.headers["content-security-policy"] == CSP, r.url
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert "unsafe-inline" not in CSP


def test_pages_hold_no_inline_script_or_style(table):
    gid = table.start("solarius-mission", ["Ann", "Bob"], seed=3)
    for page in (table.page("/"), table.page(f"/g/{gid}"), table.page("/new?game=soli2")):
        assert not re.search(r"<script(?![^>]*\bsrc=)", page)
        assert "<style" not in page and " style=" not in page and " on" + "click=" not in page


def test_a_player_named_like_a_script_shows_as_text_on_every_page(table):
    evil = "<script>alert(1)</script>"
    gid = table.start("soli2", ["Ann", evil], seed=3)
    seats = table.seat_links(gid)
    guest = stranger(table)
    assert table.play(seats["Ann"], "place d4", guest).status_code == 200
    pages = [table.page("/"), table.page(f"/g/{gid}"), table.page(f"/g/{gid}/view"), guest.get(seats["Ann"]).text,
             guest.get(seats[evil]).text, guest.get(f"{seats[evil]}/view").text]
    for page in pages:
        assert evil not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_name_in_right_to_left_letters_is_isolated_as_text(table):
    name = "שרה 2"
    gid = table.start("soli2", ["Ann", name], seed=3)
    page = table.page(f"/g/{gid}")
    assert f"<bdi>{name}</bdi>" in page


def test_a_name_with_a_bidi_override_is_refused_with_the_character_shown_escaped(table):
    page = table.page("/new?game=soli2")
    r = table.client.post("/new", data={"csrf": csrf_of(page), "game": "soli2", "players": "Ann\nB\u202eob", "chance": "seeded"})
    assert r.status_code == 400
    assert "\u202e" not in r.text and "\\u202e" in r.text


def test_a_damaged_game_shows_its_validate_verdict_instead_of_a_board(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    assert table.play(f"/g/{gid}", "place d4").status_code == 200
    conn = sqlite3.connect(table.db)
    with conn:
        conn.execute("delete from events where game_id = ? and seq = (select max(seq) from events where game_id = ?)", [gid, gid])
    conn.close()
    page = table.page(f"/g/{gid}")
    assert "damaged" in page and "the event is missing" in page and "<svg" not in page
    assert "Traceback" not in page


def test_an_internal_error_is_a_one_line_page_never_a_traceback(table, monkeypatch):
    from solrec.server import state as server

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    monkeypatch.setattr(server, "view", broken)
    r = table.client.get(f"/g/{gid}")
    assert r.status_code == 500
    assert "Traceback" not in r.text and "a bug" not in r.text and "internal error" in r.text
    assert r.headers["content-security-policy"] == CSP


def test_the_live_stream_carries_only_the_position_number(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    seat = table.seat_links(gid)["Ann"]
    r = stranger(table).get(f"{seat}/live")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    data = [line for line in r.text.splitlines() if line.startswith("data:")]
    assert data == [f"data: {len(table.log(gid).rows)}"]


def test_the_script_and_style_are_served_by_the_server_itself(table):
    js = table.client.get("/static/table.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert "http" not in re.sub(r"//.*", "", js.text)  # no address of another server in the code
    assert table.client.get("/static/table.css").status_code == 200
    assert table.client.get("/static/../app.py").status_code == 404


def test_live_streams_are_bounded_in_number(tmp_path):
    from .conftest import Table

    with make_client(tmp_path / "x.db", max_live=0) as client:
        gid = Table(tmp_path / "x.db", client).start("soli2", ["Ann", "Bob"], seed=3)
        r = client.get(f"/g/{gid}/live")
        assert r.status_code == 503 and "too many live pages" in r.text


def test_a_live_stream_ends_after_its_lifetime(table):
    import time

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    start = time.monotonic()
    r = table.client.get(f"/g/{gid}/live")  # the table's streams live 0.3 s
    assert r.status_code == 200 and time.monotonic() - start < 10
    assert r.text.startswith("retry: ")  # the page's EventSource reconnects after it


def test_a_position_that_is_not_a_whole_number_is_refused_in_one_line(table):
    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    for at in ("²", "-1", "1e3", "9" * 13):
        r = table.client.get(f"/g/{gid}/view?at={at}")
        assert r.status_code == 400, at
    page = table.page(f"/g/{gid}")
    r = table.client.post(f"/g/{gid}/play", data={"command": "place d4", "at": "²", "version": "x", "csrf": csrf_of(page)})
    assert r.status_code == 400
    assert table.client.get(f"/g/{gid}/view?at=999").status_code == 400


# -- what a seat receives: no hash of the log; versions; a typed seed ---------------------------------
def test_a_seats_page_carries_an_opaque_version_and_no_hash_of_the_log(table):
    gid, seats, guest = table.seated()
    log = table.log(gid)
    page = guest.get(seats["Ann"]).text
    assert "data-head" not in page
    assert not any(row.hash[:12] in page for row in log.rows)
    assert 'data-version="' in page
    assert f'data-head="{log.head}"' in table.page(f"/g/{gid}")  # the referee sees everything


def test_a_version_is_the_viewers_own_and_a_write_naming_another_is_refused(table):
    gid, seats, guest = table.seated()
    ann, bob = guest.get(seats["Ann"]).text, guest.get(seats["Bob"]).text
    assert position_of(ann)[1] != position_of(bob)[1]  # another viewer, another version
    at, bobs = position_of(bob)
    rows = table.log(gid).rows
    r = guest.post(f"{seats['Ann']}/play", data={"command": "place d4", "at": at, "version": bobs, "csrf": csrf_of(ann)})
    assert r.status_code == 409 and "the position changed" in r.text
    assert table.log(gid).rows == rows


def test_a_seats_version_is_the_same_while_nothing_it_sees_changes(table):
    gid, seats, guest = table.seated()
    before = position_of(guest.get(seats["Ann"]).text)
    page = table.page(f"/g/{gid}")
    at, version = position_of(page)
    note = {"text": "a comment is not a move", "at": at, "version": version, "csrf": csrf_of(page)}
    assert table.client.post(f"/g/{gid}/note", data=note).status_code == 200
    assert position_of(guest.get(seats["Ann"]).text) == before  # a comment makes no write of hers stale
    assert table.play(seats["Ann"], "place d4", guest).status_code == 200
    assert position_of(guest.get(seats["Ann"]).text) != before


def test_the_referee_is_warned_of_a_seed_anyone_may_guess(table):
    typed = table.start("soli2", ["Ann", "Bob"], seed=4242)
    random_seed = table.start("soli2", ["Ann", "Bob"])
    assert "anyone who knows or guesses it can foresee every draw" in table.page(f"/g/{typed}")
    assert "foresee" not in table.page(f"/g/{random_seed}") or table.log(random_seed).header.seed < 2**48
    seat = table.seat_links(typed)["Ann"]
    assert "foresee" not in stranger(table).get(seat).text  # a seat is told nothing of the seed, its size neither
    assert "foresee every draw" in table.page("/new?game=soli2")  # the form says it beside the seed


def test_the_host_check_is_exact(tmp_path):
    client = make_client(tmp_path / "x.db", referee=False, hosts={"127.0.0.1", "localhost"})
    for host in ("127.0.0.1:8000@evil", "127.0.0.1:8000, evil.example", "127.0.0.1:80a", "127.0.0.1:8000/x", ""):
        assert client.get("/", headers={"host": host}).status_code == 421, host
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 403  # past the check: no token


def test_a_viewer_over_its_bound_of_live_streams_is_told_so_and_none_of_its_pages_is_closed(tmp_path):
    import asyncio

    from solrec.server.app import create_app

    from .conftest import REFEREE, Table

    db = tmp_path / "x.db"
    with make_client(db) as client:
        gid = Table(db, client).start("soli2", ["Ann", "Bob"], seed=3)
    app = create_app(db, REFEREE, b"k" * 32, live_seconds=30, poll_seconds=0.05, quiet_poll_seconds=0.05, live_per_viewer=2, max_live=3)

    async def scenario() -> list[bytes]:
        # three streams of the referee, one after another, each read to its first message
        sent: list[list[bytes]] = [[], [], []]
        done = [asyncio.Event(), asyncio.Event(), asyncio.Event()]
        tasks = []
        for k in range(3):
            async def receive() -> dict:
                await asyncio.sleep(3600)
                return {"type": "http.disconnect"}

            async def send(message: dict, k: int = k) -> None:
                if message["type"] == "http.response.body":
                    sent[k].append(message.get("body", b""))
                    if not message.get("more_body", False):
                        done[k].set()

            scope = {"type": "http", "method": "GET", "path": f"/g/{gid}/live", "raw_path": f"/g/{gid}/live".encode(),
                     "query_string": b"", "headers": [(b"host", b"testserver"), (b"cookie", f"{referee_cookie(token_hash(REFEREE))}={REFEREE}".encode())],
                     "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1), "root_path": "",
                     "http_version": "1.1"}
            tasks.append(asyncio.create_task(app(scope, receive, send)))
            while not any(b"data:" in chunk for chunk in sent[k]):
                await asyncio.sleep(0.01)
        await asyncio.wait_for(done[2].wait(), 20)  # the third was told it is not kept live, and ended
        assert not done[0].is_set() and not done[1].is_set()  # the viewer's own pages stay open
        for t in tasks:
            t.cancel()
        return [b"".join(s) for s in sent]

    first, second, third = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert b"data: " in first and b"data: " in second
    assert third.startswith(b"event: refused\ndata: this link has 2 live pages open here already")


def test_the_ruled_comment_of_a_take_back_past_a_draw_names_no_hidden_card(table):
    import random

    from solrec.events.notes import read
    from solrec.events.store import Store
    from solrec.replay.log import state_at

    gid = table.start("solarius-mission", ["Ann", "Bob"], seed=77)
    rng = random.Random(3)
    for _ in range(40):  # the referee plays for both, drawing where it can, until a draw is the last command
        log = table.log(gid)
        groups = [g for g in log.steps() if g[0].actor != "chance"]
        if groups and groups[-1][0].command == "draw":
            break
        game, state = log.game, state_at(log)
        legal = [game.format_at(c, state) for c in game.legal_commands(state) or ()]
        command = next((c for c in legal if "research" in c or c == "draw"), None) or game.format_at(game.sample_command(state, rng), state)
        assert table.play(f"/g/{gid}", command).status_code == 200
    drawn = [e.card for e in table.log(gid).events() if type(e).__name__ == "CardDrawn"]
    assert drawn
    page = table.page(f"/g/{gid}")
    at, version = position_of(page)
    assert table.client.post(f"/g/{gid}/undo", data={"at": at, "version": version, "csrf": csrf_of(page)}).status_code == 200
    (note,) = read(Store(table.db), gid).notes
    assert note.mark == "ruled" and "sm-card-drawn" in note.text and ": draw" in note.text
    assert not re.search(r"card \d", note.text), note.text  # every seat reads comments


def test_what_another_process_writes_shows_on_the_next_page_the_kept_log_is_read_again(table):
    """The server keeps the logs it showed; a command or a comment written by another process (the
    command line) changes the game's stamp, and the next page shows it."""
    from solrec.events import notes
    from solrec.events.store import Store
    from solrec.replay.log import load
    from solrec.workflows.games import play_commands

    gid = table.start("soli2", ["Ann", "Bob"], seed=3)
    before = table.page(f"/g/{gid}/view")
    other = Store(table.db)
    try:
        play_commands(other, gid, ["place d4"])
        notes.add(other, gid, len(load(other, gid).rows), "Cid", "", "a comment from the command line")
    finally:
        other.close()
    after = table.page(f"/g/{gid}/view")
    assert after != before and "place d4" in after and "a comment from the command line" in after
