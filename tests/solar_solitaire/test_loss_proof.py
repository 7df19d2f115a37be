"""The loss proof (001: "You lose when the final stockpile card is turned and there's no way to free
any rockets stranded in the waste heap."): complete, and in agreement with a plain exhaustive search."""

from __future__ import annotations

import pytest

from solrec.core.solar_solitaire import proof, solver
from solrec.core.solar_solitaire.cards import ALL_CARDS, PLACES
from solrec.core.solar_solitaire.piles import (
    INDEX,
    ROCKET_PAD,
    emergency,
    free_moves,
    launched,
    move_top,
    piles_of,
)

from . import reference_proof
from .helpers import GAME, Table, make_state


def _forced_play_ending(index: int, waste: str):
    state = solver.deal_position(GAME, solver.deal_seed(0, index), {"waste_takes_free_moves": waste})
    piles = piles_of(state)
    for card in state.stock:
        piles = solver.place_turned(piles, INDEX[card])[0][1]
    return piles


def _every_reachable_position(piles, onto_waste: bool, limit: int) -> bool | None:
    """The reference: breadth-first over every free move, no reduction; any rocket reaching its pad."""
    seen = {piles}
    frontier = [piles]
    while frontier:
        nxt = []
        for node in frontier:
            for src, dst in free_moves(node, onto_waste):
                if 1 <= dst <= 4 and ROCKET_PAD[node[src][-1]] >= 0:
                    return True
                child = move_top(node, src, dst)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
                    if len(seen) > limit:
                        return None
        frontier = nxt
    return False


@pytest.mark.parametrize("waste", ["no", "yes"])
def test_the_proof_agrees_with_a_search_of_every_reachable_position(waste):
    compared = 0
    for index in range(40):
        piles = _forced_play_ending(index, waste)
        if not emergency(piles):
            continue
        expected = _every_reachable_position(piles, waste == "yes", 20_000)
        if expected is None:
            continue  # too large for the plain search
        assert proof.rescue(piles, waste == "yes")[0] == expected, index
        compared += 1
    assert compared >= 30


def test_a_rescue_found_frees_the_topmost_stranded_rocket():
    for index in range(40):
        piles = _forced_play_ending(index, "no")
        found, _, line = proof.rescue(piles, False)
        if found:
            standing = sum(launched(piles, p) for p in range(4))
            for move in line:
                _, src, dst = move.split()
                assert (PLACES.index(src), PLACES.index(dst)) in free_moves(piles, False)
                piles = move_top(piles, PLACES.index(src), PLACES.index(dst))
            assert sum(launched(piles, p) for p in range(4)) == standing + 1
            return
    raise AssertionError("no rescue among the endings")


def test_every_card_the_rocket_may_land_on_buried_under_a_launched_rocket_is_a_loss_without_a_search():
    # the game: rockets 0, 1, 2 launched, 3-3-3 in the waste heap under two cards, and all
    # six cards 3-3-3 may land on (3-0-3, 3-1-3, 3-2-3, 0-3-3, 1-3-3, 2-3-3) under the launched 2-2-2;
    # the other cards can shuffle between the piles for a long time
    carriers = ("3-0-3", "3-1-3", "3-2-3", "0-3-3", "1-3-3", "2-3-3")
    pads = (("0-0-1", "0-0-0"), ("1-1-2", "1-1-1"), ("2-2-3", *carriers, "2-2-2"), ("1-0-3", "1-0-2", "1-2-2"))
    on_pads = [c for p in pads for c in p]
    rest = [c for c in ALL_CARDS if c not in on_pads and c != "3-3-3"]
    waste = (*rest[:-3], "3-3-3", *rest[-3:-1])
    t = Table(state=make_state(pads, waste=waste, stock=(rest[-1],)))
    t.cmd("turn")
    events = t.cmd(f"card {rest[-1]}")
    assert t.state.result == "lost" and t.state.searched == 0, events


def test_a_loss_the_cheap_proofs_cannot_settle_is_proven_by_the_search():
    piles = _forced_play_ending(49, "no")
    assert not proof.hopeless(piles, False)
    found, positions, line = proof.rescue(piles, False)
    assert found is False and positions > 0 and line == ()


# A forced-play ending from a seeded 500-game simulation (own_pad_rocket=redeal, seed 1) whose free
# moves reach millions of positions: the unbounded search grew past 8 GB.
_VAST = (
    b' \n\x15\'"\x1b\r\x13\x10\x18\x00\x19\x01\x12\x0b\x16', b'\x1a\x11\x17\t\x08\x04\x06\x05\x14',
    b'\x0f\x0c\x0e\x02\x1c', b'#\x1d!&$\x03\x07%', b'\x1e\x1f', b'', b'', b'', b'',
)


def test_a_search_past_its_budget_is_no_verdict():
    found, positions, line = proof.rescue(_VAST, False, 2_000)
    assert found is None and positions > 2_000 and line == ()


def test_no_loss_is_declared_when_the_search_is_undecided(monkeypatch):
    from solrec.core.solar_solitaire import rules

    monkeypatch.setattr(proof, "rescue", lambda piles, onto_waste: (None, 250_001, ()))
    assert rules.loss_search(_VAST, False) == (None, 250_001)


@pytest.mark.slow
def test_the_vast_ending_stops_at_the_budget():
    found, positions, _ = proof.rescue(_VAST, False)
    assert found is None and proof.BUDGET < positions <= proof.BUDGET + 40  # one position's children at most


def _a_rescue_line(onto_waste: bool):
    """The positions of the first rescue the proof finds at the end of a forced-play game."""
    waste = "yes" if onto_waste else "no"
    for index in range(40):
        piles = _forced_play_ending(index, waste)
        found, _, line = proof.rescue(piles, onto_waste)
        if found and len(line) > 2:
            positions = [piles]
            for move in line[:-1]:
                _, src, dst = move.split()
                positions.append(move_top(positions[-1], PLACES.index(src), PLACES.index(dst)))
            return positions
    raise AssertionError("no rescue among the endings")


@pytest.mark.parametrize("onto_waste", [False, True])
def test_every_position_on_a_rescue_found_is_known_not_lost(onto_waste):
    proof._NOT_LOST.clear()
    proof.rescue.cache_clear()
    positions = _a_rescue_line(onto_waste)
    assert all(proof.known_not_lost(p, onto_waste) for p in positions)
    assert not proof.known_not_lost(positions[0], not onto_waste)  # the other reading is another question


def test_a_position_a_free_move_leads_back_to_a_rescue_from_is_known_not_lost():
    proof._NOT_LOST.clear()
    proof.rescue.cache_clear()
    positions = _a_rescue_line(False)
    on_line = set(positions)
    for node in positions:
        for src, dst in free_moves(node, False):
            off = move_top(node, src, dst)
            if off not in on_line and (dst, src) in free_moves(off, False) and move_top(off, dst, src) == node:
                assert (proof.reduced(off), False) not in proof._NOT_LOST
                assert proof.known_not_lost(off, False)
                assert reference_proof.rescue(off, False)[0] is not False  # the proof as it was agrees
                return
    raise AssertionError("no free move off the line that can be taken back")
