"""Where the numbers come from: two dice (seeded or entered), or each player's 21 dominoes, hidden,
open or free; and the end of the game."""

from __future__ import annotations

import random

import pytest

from solrec.core.chance import SeededDraw
from solrec.core.errors import IllegalCommand, InvalidCommand
from solrec.core.play import advance_chance, initial_state, make_header
from solrec.core.solari import text
from solrec.core.solari.commands import Deal, Roll, Turn
from solrec.core.solari.state import DOMINOES
from solrec.replay.simulate import simulate

from .helpers import GAME, Table, finish_move

ORDER = " ".join(f"{a}-{b}" for a, b in DOMINOES)


def refused(table: Table, command: str) -> str:
    with pytest.raises(IllegalCommand) as err:
        table(command)
    return str(err.value)


def test_the_dice_are_chance_and_roll_two_numbers():
    t = Table()
    assert GAME.to_act(t.state) == "chance"
    t("roll 3 5")
    assert t.state.numbers == (3, 5) and t.state.how == "rolled"
    assert GAME.to_act(t.state) == "Ann"


def test_seeded_dice_come_from_the_seed():
    header = make_header(GAME, ("Ann", "Bob"), {}, "seeded", 11)
    state = initial_state(GAME, header)
    expected = GAME.chance_command(state, SeededDraw(11, 0))
    steps, state, _ = advance_chance(GAME, header, state, 0)
    assert isinstance(expected, Roll) and steps[0].command == expected
    assert state.numbers == expected.dice


def test_a_roll_is_two_dice_from_one_to_six():
    with pytest.raises(InvalidCommand, match="two dice from 1 to 6"):
        GAME.parse("roll 7 1")


def test_dice_are_refused_when_the_game_plays_dominoes():
    t = Table(source="dominoes-hidden")
    with pytest.raises(IllegalCommand, match="not from dice"):
        t("roll 3 5")


def test_hidden_dominoes_are_turned_one_by_one_by_chance():
    t = Table(source="dominoes-hidden")("turn 5-3")
    assert t.state.numbers == (3, 5) and t.state.how == "turned"


def test_a_played_domino_is_removed_from_the_set():
    t = finish_move(finish_move(Table(source="dominoes-hidden")("turn 3-5"))("turn 1-1"))
    reason = refused(t, "turn 3-5")
    assert "already played the domino 3-5" in reason and text.REMOVED in reason


def test_hidden_dominoes_show_no_order():
    t = Table(source="dominoes-hidden")
    assert "21 dominoes face down" in GAME.render(t.state)
    assert GAME.legal_commands(t.state) is None


def test_seeded_hidden_dominoes_draw_an_unplayed_domino():
    t = Table(source="dominoes-hidden")
    command = GAME.chance_command(t.state, SeededDraw(3, 0))
    assert isinstance(command, Turn) and tuple(sorted(command.domino)) in DOMINOES


def test_open_dominoes_are_dealt_face_up_for_each_side_in_turn():
    t = Table(source="dominoes-open")
    assert GAME.to_act(t.state) == "chance"
    assert "Uranus's dominoes are dealt next" in refused(t, f"deal Saturn {ORDER}")
    t(f"deal Uranus {ORDER}")
    assert "a set is the 21 dominoes" in refused(t, "deal Saturn 1-1 1-2")
    t(f"deal Saturn {ORDER}")
    assert t.state.numbers == (1, 1) and t.state.how == "next"  # played left to right, automatically
    assert "Uranus's dominoes, left to right: 1-2 1-3" in GAME.render(t.state)


def test_open_dominoes_are_played_left_to_right():
    t = finish_move(Table(source="dominoes-open")(f"deal Uranus {ORDER}", f"deal Saturn {ORDER}"))
    assert t.state.mover == "Saturn" and t.state.numbers == (1, 1)
    t = finish_move(t)
    assert t.state.mover == "Uranus" and t.state.numbers == (1, 2)


def test_seeded_open_dominoes_deal_a_shuffled_set():
    t = Table(source="dominoes-open")
    command = GAME.chance_command(t.state, SeededDraw(5, 0))
    assert isinstance(command, Deal) and sorted(command.order) == list(DOMINOES)


def test_free_dominoes_let_the_player_choose_any_unplayed_one():
    t = Table(source="dominoes-free")
    assert GAME.to_act(t.state) == "Ann"
    assert len(t.legal) == 21 and "domino 3-5" in t.legal
    t("domino 3-5")
    assert t.state.numbers == (3, 5) and t.state.how == "chosen"
    t = finish_move(finish_move(t)("domino 1-1"))
    assert "domino 3-5" not in t.legal and len(t.legal) == 20
    assert text.FREE in refused(t, "domino 3-5")


def test_with_dominoes_a_game_lasts_21_moves_per_player():
    for source in ("dominoes-hidden", "dominoes-open", "dominoes-free"):
        header = make_header(GAME, ("Ann", "Bob"), {"source": source, "target": "0"}, "seeded", 4)
        _, state = simulate(GAME, header, random.Random(4))
        assert state.moves_made == (21, 21)
        assert "the dominoes ran out after 21 moves" in state.ended


def test_the_game_ends_when_a_side_reaches_the_target_at_the_end_of_a_move():
    t = Table("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S", target=5)("roll 1 1", "72-62", "62-52")
    assert t.state.over and "Uranus reached 5 points (target 5" in t.state.ended
    outcome = GAME.outcome(t.state)
    assert outcome.winner == "Ann" and outcome.ranking == ("Ann", "Bob")


def test_scoring_waits_until_both_partial_moves_are_played():
    t = Table("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S", target=5)("roll 1 1", "72-62")
    assert t.state.scored == () and not t.state.over


def test_a_fixed_number_of_moves_ends_the_game():
    t = Table("24:U1N,07:S1S", moves=1)("roll 2 3", "24-44", "44-14", "roll 1 2", "07-06", "06-04")
    assert t.state.over and "every player made 1 moves" in t.state.ended
    assert GAME.outcome(t.state).winner is None  # 0 - 0: a draw


def test_with_dice_the_game_needs_a_target_or_a_number_of_moves():
    from solrec.core.errors import InvalidSetup

    with pytest.raises(InvalidSetup, match="needs a target or a number of moves"):
        make_header(GAME, ("Ann", "Bob"), {"target": "0"}, "entered")


def test_nothing_is_decided_after_the_end():
    t = Table("24:U1N,07:S1S", moves=1)("roll 2 3", "24-44", "44-14", "roll 1 2", "07-06", "06-04")
    assert GAME.to_act(t.state) is None and GAME.legal_commands(t.state) == ()
    with pytest.raises(IllegalCommand, match="the game is over"):
        GAME.decide(t.state, Roll((1, 2)))


def test_partners_win_together_and_winner_names_the_first_seated():
    # 000: "Either evryone plays for himself or you play two against two." "The scores are counted for both."
    from solrec.events.record import decide_record

    from ..conftest import FIXTURES

    header, _, state, _ = decide_record((FIXTURES / "solari" / "two-against-two-greedy-to-36-seeded.jsonl").read_text())
    outcome = GAME.outcome(state)
    assert len(outcome.winners) == 2
    assert outcome.winner == outcome.winners[0] and outcome.winner in header.players
    assert " and ".join(outcome.winners) + " win" in outcome.reason
    totals = dict(GAME.score(state).totals)
    assert totals[outcome.winners[0]] == totals[outcome.winners[1]] >= 36
