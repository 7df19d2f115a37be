"""Random legal players: whole games decided through the same table as live play (pure)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from solrec.core.errors import SolrecError
from solrec.core.game import CHANCE, Game
from solrec.core.play import Header, Step, advance_chance, initial_state, play


class SimulationError(SolrecError):
    pass


def game_seed(seed: int, index: int) -> int:
    """The chance seed of the index-th simulated game of a run (a 63-bit number)."""
    return int.from_bytes(hashlib.sha256(f"solrec-simulate:{seed}:{index}".encode()).digest()[:8], "big") >> 1


def player_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"solrec-players:{seed}:{index}")


def simulate(game: Game, header: Header, rng: random.Random, max_steps: int = 1_000_000) -> tuple[list[Step], Any]:
    """Play a seeded game to its end with random legal choices. Returns every step and the final state."""
    if header.chance != "seeded":
        raise SimulationError("simulation draws chance from a seed; entered chance needs a person at a table")
    state = initial_state(game, header)
    steps, state, position = advance_chance(game, header, state, 0)
    while (actor := game.to_act(state)) is not None:
        if actor == CHANCE or len(steps) > max_steps:
            raise SimulationError(f"{game.id}: the simulated game stalled at position {position}")
        command = game.sample_command(state, rng)
        new, state, position = play(game, header, state, position, actor, command)
        steps.extend(new)
    return steps, state
