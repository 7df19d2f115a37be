"""What the other players did since a seat last acted, in words, near the top of its page (issue
31): "Bob flew H0 H14 (range 1) and colonized the yellow planet 10 at H14", in the words of the
record (issue 41: each event said once, core/<game>/words.py), which every viewer reads through
``replay.seen``; a hidden card or draw is never named in them (tests/fairness compares them too)."""

from __future__ import annotations

import html
import re

from solrec.core.observe import Viewer
from solrec.replay.log import Log
from solrec.replay.seen import seen
from solrec.server.pages import fragment
from solrec.server.views import view

from ..pictures.helpers import fixture_log


def after_move(path: str, move: int) -> Log:
    """The fixture's game as it stood after its ``move``-th command."""
    log = fixture_log(path)
    end = log.steps()[move - 1][-1].seq + 1
    return Log(log.game_id, log.header, log.rows[:end])


def since(log: Log, player: str) -> list[str]:
    """The sentences of the seat page's "since your last move", as a person reads them."""
    found = re.search(r'<section class="since".*?</section>', fragment(view(log, Viewer.of(player, reveal=player is None))), re.S)
    assert found, "the seat's page says nothing of what happened"
    items = re.findall(r"<li>(.*?)</li>", found.group(0), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", i)).split()) for i in items]


def test_solarius_mission_a_flight_and_a_colony_are_told_in_words():
    told = since(after_move("solarius-mission/space-portal-flight-and-outposts-entered.jsonl", 24), "Marion")
    assert told == [
        "Chance turned the wheel and rolled brown2 onto the -1 space.",
        "Tom took the black3 die (bonus +0) onto the standard space for 3 action points, gained 3 fuel (black die action), "
        "returned 2x turquoise I and gained 1 fuel (exchange) and paid 6 fuel (extra range) and flew H0 H5 H16 F11 F2 "
        "(range 4: 1 from the drives, 3 bought with fuel).",
        "Chance turned up the turquoise planet 20 at F2 (turquoise 1 VP, tech_value at_least 3 colour turquoise).",
        "Tom colonized the turquoise planet 20 at F2 and ended the turn.",
    ]


def test_solari_the_other_sides_moves_and_its_roll_are_told_in_words():
    told = since(after_move("solari/two-players-dice-entered.jsonl", 6), "Ann")
    assert told == ["Chance rolled 6-6 for Saturn.",
                    "Bob moved Saturn's blocker from 66 to 06 with the 6 and moved Saturn's comet 2 from 64 to 04 with the 6."]


def test_soli2_the_pouch_draw_and_the_placement_are_told_in_words():
    told = since(after_move("soli2/duel-pouch-standard.jsonl", 4), "Ann")
    assert told == ["Chance drew a black marble from the pouch.", "Bob placed a black marble on d2."]


def test_solo_dice_the_roll_is_told_in_words():
    assert since(after_move("solo-dice/worked-example.jsonl", 3), "Ann") == ["Chance rolled 5 5 6 4 3."]
    moves = seen(after_move("solo-dice/worked-example.jsonl", 2), Viewer.seat("Ann")).moves
    assert moves[-1].said == "paired 6+1 and 5+5, leaving 5"


def test_solar_solitaire_the_turned_card_is_told_and_the_shuffle_names_no_card():
    assert since(after_move("solar-solitaire/won-seeded.jsonl", 5), "Solo") == ["Chance turned up 0-1-3."]
    assert since(after_move("solar-solitaire/won-seeded.jsonl", 3), "Solo") == ["Chance turned up 1-2-1 and put 1-2-1 on the waste heap."]
    first = seen(after_move("solar-solitaire/won-seeded.jsonl", 1), Viewer.seat("Solo")).moves[0]
    assert first.said == "shuffled the deck (40 cards, face down) and dealt the launch pads pad0=0-1-0 pad1=3-0-3 pad2=0-3-3 pad3=0-2-2"


def test_the_referee_and_a_spectator_read_the_last_move_in_words():
    log = after_move("soli2/duel-pouch-standard.jsonl", 4)
    for page in (fragment(view(log, Viewer.referee())), fragment(view(log, Viewer.table()))):
        assert "Bob</bdi> placed a black marble on d2." in page


def test_a_card_drawn_or_kept_is_never_named_in_the_words_a_seat_or_the_table_reads():
    for path in ("solarius-mission/space-two-players-seeded.jsonl", "solarius-mission/three-players-chosen-start-seeded.jsonl",
                 "solarius-mission/two-players-start-cards-seeded.jsonl"):
        log = fixture_log(path)
        referee = seen(log, Viewer.referee()).moves
        hidden = [k for k, m in enumerate(referee) if m.command.startswith(("card ", "start-card ", "start shift"))]
        assert hidden, path
        for viewer in [Viewer.table(), *map(Viewer.seat, log.header.players)]:
            moves = seen(log, viewer).moves
            for k in hidden:
                # a number in the referee's command (the card) appears nowhere in what this viewer reads of it
                cards = set(re.findall(r"\b\d+\b", referee[k].command.split(" keep ")[-1] if "keep" in referee[k].command
                                       else referee[k].command))
                said = moves[k].said
                assert said and not cards & set(re.findall(r"\b\d+\b", said)), (path, viewer, referee[k].command, said)
                assert moves[k].said == referee[k].said  # the words are the same for every viewer


def test_in_the_middle_of_its_turn_a_seat_still_reads_what_came_before_it():
    log = after_move("solari/two-players-dice-entered.jsonl", 8)  # Ann has made the first of her two moves
    assert since(log, "Ann") == [
        "Chance rolled 6-6 for Saturn.",
        "Bob moved Saturn's blocker from 66 to 06 with the 6 and moved Saturn's comet 2 from 64 to 04 with the 6.",
        "Chance rolled 1-4 for Uranus.",
    ]
    assert "before your turn" in fragment(view(log, Viewer.seat("Ann")))
