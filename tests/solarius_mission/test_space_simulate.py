"""The random player flies, settles, builds and completes missions: statistics over seeded games
(the same games `solrec simulate --seed 0` records; the 100-game runs are slow)."""

from __future__ import annotations

import pytest

from solrec.core.play import make_header
from solrec.replay.simulate import game_seed, player_rng, simulate

from .helpers import GAME


def statistics(players: int, games: int) -> dict[str, float]:
    """Share of player turns with a flight; planets (colonies), stations and missions per player."""
    turns = flights = 0
    kinds = {"colony": 0, "station": 0, "mission": 0, "outpost": 0}
    for i in range(games):
        header = make_header(GAME, [f"P{k}" for k in range(players)], {}, "seeded", game_seed(0, i))
        steps, final = simulate(GAME, header, player_rng(0, i))
        turns += sum(1 for s in steps if s.notation.startswith("take "))
        flights += sum(1 for s in steps if s.notation.startswith("fly "))
        for f in final.figures:
            kinds[f.kind] += 1
            kinds["outpost"] += f.outpost
    per = games * players
    return {"flight_share": flights / turns, **{k: v / per for k, v in kinds.items()}}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_few_simulated_games_fly_and_put_every_kind_of_figure_in_space(players):
    s = statistics(players, 3)
    assert s["flight_share"] > 0.3
    assert s["colony"] > 0 and s["station"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_hundred_simulated_games_fly_settle_build_and_complete_missions(players):
    s = statistics(players, 100)
    print(f"{players} players, 100 games: " + ", ".join(f"{k} {v:.2f}" for k, v in s.items()))
    assert s["flight_share"] > 0.4
    assert s["colony"] > 1.5 and s["station"] > 0.5 and s["mission"] > 0.1 and s["outpost"] > 0.3
