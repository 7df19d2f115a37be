"""Step 4, the end: won as soon as all four rockets stand; lost when the stock is used up and no
sequence of moves frees another stranded rocket (proven by an exhaustive search)."""

from __future__ import annotations

from solrec.core.solar_solitaire import proof
from solrec.core.solar_solitaire.cards import ALL_CARDS
from solrec.core.solar_solitaire.events import EmergencyOff, Lost, Moved, Resigned, Wasted, Won
from solrec.core.solar_solitaire.piles import piles_of

from .helpers import GAME, Table, events_of, make_state

# A hand-built deal: each rocket's pad card matches it; 3-3-3 comes first and goes to the waste
# heap, 3-0-3 is forced onto pad3, and the cascade launches 3-3-3 from the waste heap.
WON_PADS = ("0-0-1", "1-1-2", "2-2-3", "2-0-3")
WON_STOCK = ("3-3-3", "3-0-3", "0-0-0", "1-1-1", "2-2-2")

# A deal written out card by card that is lost when the player only makes the forced plays: 3-3-3 is
# buried in the waste heap and, with the stock used up, no rescue exists (the old exhaustive search
# visited 95 positions; the cheap proof needs none).
LOST_ORDER = (
    "0-0-1 1-1-2 2-2-3 2-0-3 3-3-3 0-0-0 0-1-3 1-2-1 1-0-3 3-1-3 0-1-0 0-1-1 2-0-2 0-0-2 0-1-2 3-0-3 "
    "2-2-2 2-1-2 0-3-2 0-2-1 2-1-3 1-1-1 1-1-3 1-3-2 3-2-3 1-3-3 1-2-2 0-3-3 2-3-3 1-3-1 0-3-0 2-3-2 "
    "1-0-2 1-2-3 0-0-3 0-2-2 0-3-1 0-2-3 0-2-0 1-0-1"
).split()


def turn_all(t: Table) -> None:
    """Turn until the game ends, making only the forced plays (the lowest pad when there is a choice)."""
    while GAME.to_act(t.state) is not None:
        if t.state.choice:
            t.cmd(f"play pad{t.state.choice[0]}")
        else:
            t.cmd("turn")
            t.cmd(f"card {t.state.stock[0]}")


def test_a_hand_built_deal_is_won_the_moment_all_four_rockets_stand():
    t = Table()
    t.cmd("deal " + " ".join(WON_PADS))
    for card in WON_STOCK[:-1]:
        t.cmd("turn")
        assert Won() not in t.cmd(f"card {card}")
    t.cmd("turn")
    events = t.cmd("card 2-2-2")
    assert events[-1] == Won()
    assert t.state.result == "won" and len(t.state.stock) == 31
    outcome = GAME.outcome(t.state)
    assert outcome.winner == "Player 1" and outcome.reason.startswith("won: all four rockets stand on their launch pads")
    assert GAME.score(t.state).total("Player 1") == 4


def test_a_hand_built_deal_is_lost_with_the_number_of_positions_searched():
    t = Table()
    t.cmd("shuffle " + " ".join(LOST_ORDER))
    turn_all(t)
    last = t.steps[-1].events
    assert last[-1] == Lost(("3-3-3",), 0)
    assert t.state.result == "lost" and t.state.searched == 0
    reason = GAME.outcome(t.state).reason
    assert "no sequence of moves frees another stranded rocket (proven without a search" in reason
    assert "stranded: 3-3-3: it lies in the waste heap under" in reason
    assert GAME.outcome(t.state).winner is None


def _rest(*placed):
    return tuple(c for c in ALL_CARDS if c not in placed)


def test_a_loss_only_visible_after_a_cycle_of_free_moves():
    # 0-0-3 can go from pad1 to station0 and back for ever; nothing else moves, so 3-3-3 stays buried
    pads = (("0-0-1", "0-0-0"), ("2-0-3", "0-0-3"), ("1-3-1",), ("1-2-2",))
    placed = [c for p in pads for c in p] + ["3-3-3", "1-1-3"]
    t = Table(state=make_state(pads, waste=(*_rest(*placed), "3-3-3"), stock=("1-1-3",)))
    t.cmd("turn")
    events = t.cmd("card 1-1-3")
    assert Wasted("1-1-3") in events
    # only the topmost stranded rocket, 1-1-3's neighbour 3-3-3, can be freed first; no card it may
    # land on can ever top pad3, so the proof needs no search (the old one visited 2 positions)
    assert events[-1] == Lost(("1-1-1", "2-2-2", "3-3-3"), 0)
    assert GAME.legal_commands(t.state) == ()


def test_the_game_goes_on_after_the_last_card_while_a_rescue_exists():
    pads = (("0-0-1", "0-0-0"), ("1-1-2", "1-1-1"), ("2-2-3", "2-2-2"), ("2-0-3", "3-0-3"))
    placed = [c for p in pads for c in p] + ["3-3-3", "0-3-0", "0-2-0"]
    t = Table(state=make_state(pads, waste=(*_rest(*placed), "3-3-3", "0-3-0"), stock=("0-2-0",)))
    t.cmd("turn")
    events = t.cmd("card 0-2-0")
    assert not events_of(Lost, events) and GAME.to_act(t.state) == "Solo"
    assert t.refused("turn") == "the stockpile is used up: it is gone through only once"
    t.cmd("move waste station0")
    t.cmd("move waste station0")
    assert t.cmd("move waste pad3") == [Moved("3-3-3", "waste", "pad3"), EmergencyOff(), Won()]


def test_a_player_following_the_rescue_found_at_the_last_card_needs_no_further_search(monkeypatch):
    # issue 24: re-deciding a game asks the loss proof after every move once the stock is used up;
    # a move along a rescue already found cannot lead to a loss, so it is not searched again
    pads = (("0-0-1", "0-0-0"), ("1-1-2", "1-1-1"), ("2-2-3", "2-2-2"), ("2-0-3", "3-0-3"))
    placed = [c for p in pads for c in p] + ["3-3-3", "0-3-0", "0-2-0"]
    t = Table(state=make_state(pads, waste=(*_rest(*placed), "3-3-3", "0-3-0"), stock=("0-2-0",)))
    searched = []
    search = proof.rescue
    search.cache_clear()
    proof._NOT_LOST.clear()
    monkeypatch.setattr(proof, "rescue", lambda piles, onto_waste: searched.append(piles) or search(piles, onto_waste))
    t.cmd("turn")
    t.cmd("card 0-2-0")
    assert searched == [piles_of(t.state)]
    found, _, line = search(searched[0], False)
    assert found and len(line) > 1
    for move in line:
        t.cmd(move)
    assert t.state.result == "won" and len(searched) == 1


def test_free_moves_may_go_round_a_cycle_after_the_last_card():
    pads = (("0-0-1", "0-0-0"), ("1-1-2", "1-1-1"), ("2-2-3", "2-2-2"), ("2-0-3", "3-0-3"))
    placed = [c for p in pads for c in p] + ["3-3-3", "0-3-0", "0-2-0"]
    state = make_state(pads, waste=(*_rest(*placed), "3-3-3", "0-3-0"), stock=("0-2-0",), waste_takes_free_moves=True)
    t = Table(state=state)
    t.cmd("turn")
    t.cmd("card 0-2-0")
    start = t.state
    assert t.cmd("move waste station0") == [Moved("0-2-0", "waste", "station0")]
    assert t.cmd("move station0 waste") == [Moved("0-2-0", "station0", "waste")]  # 0-2-0 matches 0-3-0
    assert t.state == start and GAME.to_act(t.state) == "Solo"


def test_resigning_ends_the_game_and_says_where_each_stranded_rocket_lies():
    t = Table()
    t.cmd("deal " + " ".join(WON_PADS))
    t.cmd("turn")
    t.cmd("card 3-3-3")
    assert t.cmd("resign") == [Resigned()]
    outcome = GAME.outcome(t.state)
    assert outcome.winner is None
    assert outcome.reason == (
        "resigned. rockets on their pads: none; stranded: 0-0-0: it is in the stockpile; "
        "1-1-1: it is in the stockpile; 2-2-2: it is in the stockpile; 3-3-3: it is the top of the waste heap"
    )


def test_the_game_is_over_after_the_end():
    t = Table()
    t.cmd("deal " + " ".join(WON_PADS))
    t.cmd("resign")
    assert GAME.to_act(t.state) is None and GAME.legal_commands(t.state) == ()
