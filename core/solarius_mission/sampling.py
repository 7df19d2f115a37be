"""Solarius Mission's random player: one command drawn for simulations and the bots' roll-outs."""

from __future__ import annotations

from typing import Any

from ..game import Command
from . import commands as c
from . import space
from .components import COLOURS
from .legal import anytime_commands, phase_commands
from .rules import ANYTIME, settle_options
from .state import (
    State,
    phase,
)

# -- the random player --------------------------------------------------------------------------------------


def sample(state: State, rng: Any) -> Command:
    ph = phase(state)
    main = phase_commands(state)
    if not main:  # e.g. every die on -1 and nothing to pay with: exchange resources first (reading 1)
        mat = state.mats[state.actor]
        cubes = [(col, column) for i, col in enumerate(COLOURS) for column in (3, 2, 1) for _ in range(mat.storage[i][column - 1])]
        values = state.cset.number("mat.storage.values")
        return c.ExchangeResources(tuple(sorted(cubes[:2], key=lambda x: (COLOURS.index(x[0]), x[1]))) if values[cubes[0][1] - 1] < 2
                                   else (cubes[0],), 1, 0)
    if ph in ANYTIME and rng.random() < 0.08:
        extra = anytime_commands(state, False)
        mat = state.mats[state.actor]
        if mat.resources and rng.random() < 0.5:
            cubes = []
            for i, col in enumerate(COLOURS):
                for column in (1, 2, 3):
                    cubes.extend([(col, column)] * rng.randrange(mat.storage[i][column - 1] + 1))
            values = state.cset.number("mat.storage.values")
            units = sum(values[column - 1] for _, column in cubes) // state.cset.number("mat.exchange.value_per_unit")
            if units:
                fuel = rng.randrange(units + 1)
                extra.append(c.ExchangeResources(tuple(cubes), fuel, units - fuel))
        if extra:
            return extra[rng.randrange(len(extra))]
    if ph in ANYTIME and rng.random() < 0.5:
        settles = settle_options(state, state.current, False)
        if settles:
            return c.Settle(settles[rng.randrange(len(settles))])
    if ph == "supplementary" and rng.random() < 0.9:
        prepare = space.sample_prepare(state, rng)
        if prepare is not None:
            return prepare
    if ph == "supplementary" and rng.random() < 0.75:
        flight = space.sample_flight(state, rng)
        if flight is not None:
            return flight
    if ph in ("space", "explore"):
        return space.sample_space(main, rng)
    if ph in ("research", "supplementary") and rng.random() < 0.5:
        mat = state.mats[state.actor]
        missions = [m for m in main if isinstance(m, c.PlayCard) and m.side == "mission"
                    and space.mission_within_storage(state, mat, m.card)]
        if missions:  # missions give the flights a purpose
            return missions[rng.randrange(len(missions))]
    if ph == "after" or (ph == "supplementary" and rng.random() < 0.3):
        return c.EndTurn()
    if ph == "action":
        buys = [m for m in main if isinstance(m, c.BuyActionPoints)]
        acts = [m for m in main if not isinstance(m, c.BuyActionPoints)]
        if buys and rng.random() < 0.1:
            return buys[0]
        # prefer using the points: the largest actions are drawn more often
        acts.sort(key=lambda m: len(getattr(m, "cubes", getattr(m, "colours", ()))))
        if len(acts) > 1 and rng.random() < 0.6:
            return acts[-1 - rng.randrange(min(3, len(acts)))]
        return acts[rng.randrange(len(acts))]
    return main[rng.randrange(len(main))]
