"""Shots (000 and notes.md): simple, aimed, total, self shots, the chaser's aimed shot, partners,
placements on the margin squares and the total shot's reentry."""

from __future__ import annotations

import pytest

from solrec.core.errors import IllegalCommand
from solrec.core.solari import text
from solrec.core.solari.board import MARGIN
from solrec.core.solari.events import Judged

from .helpers import GAME, Table


def refused(table: Table, command: str) -> str:
    with pytest.raises(IllegalCommand) as err:
        table(command)
    return str(err.value)


def judged(t: Table) -> Judged:
    return next(e for e in t.events if isinstance(e, Judged))


def test_landing_on_an_opposing_comet_shoots_it():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44")
    assert t.label(44) == "U1v"
    assert [h.piece.label for h in t.state.held] == ["S1>"]


def test_two_pieces_moved_and_one_shot_is_a_simple_shot():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44", "61-31")
    assert judged(t).kinds == ("simple",) and text.SIMPLE_TWO in judged(t).reasons[0]
    assert t.legal == ["place 04", "place 40", "place 47", "place 74"]


def test_a_simply_shot_comet_keeps_its_facing_on_a_margin_square_of_its_line():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44", "61-31", "place 47")
    assert t.label(47) == "S1>"


def test_a_simple_shot_refuses_a_margin_square_outside_the_line():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44", "61-31")
    reason = refused(t, "place 70")
    assert "may go to 04 40 47 74, not 70" in reason and text.SIMPLE in reason


def test_a_simple_shot_takes_no_facing():
    t = Table("24:U1N,61:U2N,44:S1E,07:S2S")("roll 2 3", "24-44", "61-31")
    assert text.KEEP in refused(t, "place 47 N")


def test_when_the_line_squares_are_taken_any_free_margin_square_will_do():
    t = Table("24:U1N,61:U2N,44:S1E,40:Ud,47:Sd,04:S3N,74:S4N")("roll 2 3", "24-44", "61-31")
    assert "place 70" in t.legal and len(t.legal) == 28 - 4
    t("place 70")
    assert t.label(70) == "S1>"


def test_two_shots_in_one_move_are_two_simple_shots():
    t = Table("24:U1N,44:S1E,47:S2W,07:S3S")("roll 2 3", "24-44", "44-47")
    assert judged(t).kinds == ("simple", "simple") and text.TWO_SHOTS in judged(t).reasons[0]
    t("place 40")
    t("place 17")
    assert (t.label(40), t.label(17)) == ("S1>", "S2<")


def test_one_piece_twice_shooting_one_piece_is_an_aimed_shot_anywhere_on_the_margin():
    t = Table("24:U1N,44:S1E,07:S2S")("roll 2 3", "24-44", "44-14")
    assert judged(t).kinds == ("aimed",) and text.AIMED in judged(t).reasons[0]
    assert len(t.legal) == (28 - 1) * 4
    t("place 70 W")
    assert t.label(70) == "S1<"


def test_an_aimed_shot_comet_needs_a_facing():
    t = Table("24:U1N,44:S1E,07:S2S")("roll 2 3", "24-44", "44-14")
    assert text.AIM_DIR in refused(t, "place 70")


def test_the_aimed_condition_with_a_double_is_a_total_shot():
    t = Table("24:U1N,44:S1E,07:S2S")("roll 2 2", "24-44", "44-64")
    assert judged(t).kinds == ("total",) and text.TOTAL in judged(t).reasons[0]
    assert t.at(44) is None and [p.label for p in t.state.off_board] == ["S1?"]
    assert t.state.mover == "Saturn"


def total_shot_then(**options) -> Table:
    return Table("24:U1N,44:S1E,07:S2S,35:S3N", **options)("roll 2 2", "24-44", "44-64")


def test_the_owner_reenters_in_his_next_move_on_the_square_the_dice_name():
    t = total_shot_then()("roll 3 5")
    assert {c.split()[2] for c in t.legal} == {"35", "53"}
    t("enter 1 53 N")
    assert t.label(53) == "S1^"


def test_the_entering_square_must_be_the_one_the_dice_name():
    t = total_shot_then()("roll 3 5")
    reason = refused(t, "enter 1 44 N")
    assert "name the entering square 35 or 53, not 44" in reason and text.ENTRY_SQUARE in reason


def test_a_double_names_a_single_entering_square():
    t = total_shot_then()("roll 5 5")
    assert {c.split()[2] for c in t.legal} == {"55"}


def test_a_reentering_comet_may_take_any_of_the_four_facings():
    t = total_shot_then()("roll 3 5")
    assert text.ENTRY_DIR in refused(t, "enter 1 53")
    assert sorted(c for c in t.legal if " 53 " in c) == ["enter 1 53 E", "enter 1 53 N", "enter 1 53 S", "enter 1 53 W"]


def test_reentry_is_the_whole_move_by_default():
    t = total_shot_then()("roll 3 5", "enter 1 53 N")
    assert t.state.mover == "Uranus" and t.state.moves_made == (1, 1)


def test_with_reentry_extra_the_player_moves_after_reentering():
    t = total_shot_then(reentry="extra")("roll 3 5", "enter 1 53 N")
    assert t.state.mover == "Saturn" and t.state.left == (3, 5)
    t("53-23", "07-02")
    assert t.state.mover == "Uranus"


def test_reentering_on_an_own_piece_is_a_simple_shot():
    t = total_shot_then()("roll 3 5")
    t("enter 1 35 W")
    assert t.legal == ["place 05", "place 30", "place 37", "place 75"]


def test_reentering_on_an_adverse_comet_is_an_aimed_shot():
    t = total_shot_then()("roll 4 6", "enter 1 64 N")
    assert t.state.held[0].kind == "aimed"
    assert "place 70 S" in t.legal


def test_reentering_on_an_adverse_comet_with_a_double_is_a_new_total_shot():
    t = Table("26:U1N,46:S1E,07:S2S")("roll 2 2", "26-46", "46-66")
    t("roll 6 6", "enter 1 66 N")
    assert [p.label for p in t.state.off_board] == ["U1?"]
    assert t.state.mover == "Uranus"
    assert t.kinds()[-1] == "NumbersSet" or GAME.to_act(t.state) == "chance"


def test_a_self_shot_is_always_simple_and_placed_at_once():
    t = Table("24:U1N,44:U2E,07:S1S")("roll 2 3", "24-44")
    assert t.legal == ["place 04", "place 40", "place 47", "place 74"]


def test_the_self_shot_piece_may_move_in_the_second_partial_move():
    t = Table("24:U1N,44:U2E,07:S1S")("roll 2 3", "24-44", "place 47", "47-17")
    assert t.label(17) == "U2^"
    assert not any(isinstance(e, Judged) for e in t.events)


def test_a_chaser_shoots_always_aimed():
    t = Table("22:Uc,44:S1E,61:U2N,07:S2S")("roll 2 3", "22-44", "61-31")
    assert judged(t).kinds == ("aimed",) and text.CHASER in judged(t).reasons[0]


def test_a_chasers_shot_with_a_double_is_total():
    t = Table("22:Uc,44:S1E,61:U2N,07:S2S")("roll 2 2", "22-44", "61-41")
    assert judged(t).kinds == ("total",)


def test_a_chasers_self_shot_is_still_simple():
    t = Table("22:Uc,44:U1E,07:S1S")("roll 2 3", "22-44")
    assert t.legal == ["place 04", "place 40", "place 47", "place 74"]


def test_a_chaser_can_be_shot_by_the_opponent():
    t = Table("24:U1N,44:Sc,61:U2N,07:S2S")("roll 2 3", "24-44", "61-31")
    assert judged(t).kinds == ("simple",) and t.state.held[0].piece.label == "Sc"


def test_a_partners_comet_is_shot_like_an_opponents():
    t = Table("24:U1N,44:N1E,07:S1S", players=4, teams="on")("roll 2 3", "24-44", "44-14")
    assert judged(t).kinds == ("aimed",)


def test_a_partners_blocker_cannot_be_landed_on():
    t = Table("24:U1N,44:Nb,07:S1S", players=4, teams="on")("roll 2 3")
    assert "Neptune's blocker on 44 cannot be shot" in refused(t, "24-44")


def test_a_placement_when_nothing_waits_is_refused():
    t = Table("24:U1N,07:S1S")("roll 2 3")
    assert "placing on 70 is not possible now" in refused(t, "place 70")


def test_a_reentry_when_nothing_is_off_the_board_is_refused():
    t = Table("24:U1N,07:S1S")("roll 2 3")
    assert "a reentry is not possible now" in refused(t, "enter 1 23 N")


def test_a_reentry_of_a_piece_that_is_not_off_the_board_is_refused():
    t = total_shot_then()("roll 3 5")
    assert 'has no piece "2" off the board' in refused(t, "enter 2 53 N")


def test_reentry_waits_while_every_entering_square_holds_an_opposing_blocker():
    t = Table("24:U1N,44:S1E,07:S2S,35:Ub")("roll 2 2", "24-44", "44-64", "roll 3 3")
    assert "ReentryPostponed" not in t.kinds()  # 33 is free
    t2 = Table("24:U1N,44:S1E,07:S2S,55:Ub")("roll 2 2", "24-44", "44-64", "roll 5 5")
    assert "ReentryPostponed" in t2.kinds() and t2.state.mover == "Saturn"


# --- no margin square free at all (docs/rules/solari.md#no-free-margin-square) ------------------------


def full_orbit(fixed: dict[int, str]) -> str:
    """A 4-player layout with the pieces of ``fixed`` where given and every one of the 28 margin squares
    taken (spare doublers first: they must stand on the margin)."""
    codes = [f"{side}{kind}" for side in "USNJ" for kind in ("1", "2", "3", "4", "5", "6", "c", "b", "d")]
    spare = sorted((c for c in codes if c not in fixed.values()), key=lambda c: not c.endswith("d"))
    pieces = dict(fixed)
    pieces.update(zip((m for m in sorted(MARGIN) if m not in fixed), spare))
    return ",".join(f"{sq:02d}:{code}{'N' if code[1].isdigit() else ''}" for sq, code in sorted(pieces.items()))


def test_with_no_margin_square_free_the_shot_piece_leaves_the_board_and_reenters_next_move():
    t = Table(full_orbit({33: "U1", 43: "S1", 22: "U2"}), players=4)("roll 1 2", "33-43", "22-24")
    assert all(p.label[:2] != "S1" for _, p in t.state.board) and t.label(43) == "U1v"
    assert any("off the board, no margin square being free" in GAME.describe_event(e) for e in t.events)
    t("roll 5 5")  # Saturn's move begins with the reentry, as after a total shot
    assert t.legal == [f"enter 1 55 {f}" for f in "ENSW"]
    t("enter 1 55 N")
    assert t.label(55) == "S1^"


def test_a_self_shot_piece_with_no_margin_square_free_reenters_in_its_owners_next_move():
    t = Table(full_orbit({33: "U1", 43: "U2", 22: "U3"}), players=4)("roll 1 2", "33-43")
    assert [p.number for p in t.state.off_board] == [2]
    t("22-24")
    assert GAME.to_act(t.state) != "Ann" and [p.number for p in t.state.off_board] == [2]


def test_landing_on_the_own_doubler_is_refused_when_no_margin_square_would_be_free_for_it():
    # 000: "The doubler must remain on the margin squares"
    t = Table(full_orbit({33: "U1", 30: "Ud", 22: "U2"}), players=4)("roll 3 1")
    assert "33-30" not in t.legal and "33-34" in t.legal
    with pytest.raises(IllegalCommand, match="no margin square would be free for it"):
        t("33-30")


def test_landing_on_the_own_doubler_from_the_margin_frees_a_square_for_it():
    t = Table(full_orbit({0: "U1", 30: "Ud", 22: "U2"}), players=4)("roll 3 1")
    assert "00-30" in t.legal
    t("00-30")
    assert t.label(30) == "U1v" and t.label(0) == "Ud"  # set on the one free square, 00
