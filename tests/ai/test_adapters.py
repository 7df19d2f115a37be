"""The games as the field's tools see them (docs/ai.md): OpenSpiel's, PettingZoo's and Gymnasium's own
conformance suites, every fixture and simulated games replayed through the action numbering, and the
adapters' observations equal for games a seat cannot tell apart."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import pyspiel  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from solrec.ai import spiel  # noqa: E402
from solrec.ai.envs import make_env  # noqa: E402
from solrec.ai.replay import through_actions  # noqa: E402
from solrec.ai.table import table_of  # noqa: E402
from solrec.core.play import make_header  # noqa: E402
from solrec.core.registry import get_game  # noqa: E402
from solrec.events.record import decide_record  # noqa: E402
from solrec.replay.simulate import game_seed, player_rng, simulate  # noqa: E402

from ..conftest import FIXTURES  # noqa: E402
from ..fairness.pairs import pairs  # noqa: E402

ADAPTED = ("solo-dice", "soli2", "solari", "solar-solitaire", "solarius-mission")
HOUSE_2016 = {"components": "house-2016"}  # the set without the map (no flights)

# Settings that keep random games short in `make test` (Solari to 36 with dice runs to thousands of
# partial moves): the slow checks play the default options too.
SHORT: list[tuple[str, dict, int]] = [
    ("solo-dice", {}, 0),
    ("soli2", {}, 0),
    ("soli2", {"fill": "pure-skill"}, 0),
    ("soli2", {"mode": "soli2-solitaire"}, 0),
    ("soli2", {"mode": "classic-solitaire"}, 0),
    ("solari", {"source": "dominoes-hidden"}, 0),
    ("solari", {"source": "dominoes-open"}, 0),
    ("solari", {"source": "dominoes-free", "target": 4}, 3),
    ("solari", {"target": 3}, 0),
    ("solar-solitaire", {}, 0),
    ("solar-solitaire", {"waste_takes_free_moves": "yes"}, 0),
    ("solarius-mission", {}, 2),
    ("solarius-mission", {"start": "choose"}, 3),
]
FULL: list[tuple[str, dict, int]] = [("solari", {}, 0), ("solari", {}, 4), ("solari", {"teams": True}, 4),
                                     ("solarius-mission", {}, 4), ("solarius-mission", HOUSE_2016, 2)]


def _options(gid: str, options: dict) -> dict:
    """A component set by its name also takes its digest (the game checks the two agree)."""
    if gid == "solarius-mission" and "components" in options:
        from solrec.core.solarius_mission import loading

        return {**options, "components_digest": loading.builtin(options["components"]).digest}
    return options


def _id(case: tuple[str, dict, int]) -> str:
    gid, options, n = case
    return gid + "".join(f"-{k}={v}" for k, v in options.items()) + (f"-{n}p" if n else "")


# -- OpenSpiel ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", SHORT, ids=_id)
def test_openspiel_random_sim_test_with_serialisation(case):
    gid, options, n = case
    sims = 1 if gid == "solarius-mission" else 2  # a Solarius Mission game is some thousand steps
    pyspiel.random_sim_test(spiel.load(gid, _options(gid, options), n), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("case", SHORT + FULL, ids=_id)
def test_openspiel_random_sim_test_many(case):
    gid, options, n = case
    pyspiel.random_sim_test(spiel.load(gid, _options(gid, options), n), num_sims=20 if gid != "solari" else 3,
                            serialize=False, verbose=False)


def test_every_game_is_registered_with_its_options_as_parameters():
    for gid, short in spiel.SHORT_NAMES.items():
        assert short in pyspiel.registered_names()
    game = pyspiel.load_game("solrec_solari", {"source": "dominoes-hidden", "players": 3})
    assert game.num_players() == 3
    assert game.table.options["source"] == "dominoes-hidden"
    assert str(pyspiel.load_game(str(game))) == str(game)


def test_chance_outcomes_are_the_true_probabilities():
    """A die is six outcomes of 1/6; the pouch's first marble one of 48 (24 black, 24 white)."""
    state = spiel.load("solo-dice").new_initial_state()
    assert state.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    state = spiel.load("soli2").new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 48 and all(p == 1 / 48 for _, p in outcomes)


def test_solarius_mission_chance_draws_from_what_is_left():
    """A progress card drawn is one of the deck's cards, each as likely: as many outcomes as cards."""
    import random

    from solrec.ai.table import Table
    from solrec.core.solarius_mission.state import phase

    table = Table("solarius-mission", {}, ["Ann", "Bob"])
    position, rng, draws = table.initial(), random.Random(4), 0
    while table.to_act(position).actor is not None and draws < 5:
        outlook = table.to_act(position)
        if outlook.actor == "chance":
            if phase(position.state) in ("deal", "card") and not position.draws:
                assert outlook.outcomes == len(position.state.deck)
                draws += 1
            position = table.draw(position, rng.randrange(outlook.outcomes))
        else:
            legal = table.legal(position)
            position = table.play(position, legal[rng.choice(list(legal))])
    assert draws == 5


# -- Solarius Mission's numbering (core/solarius_mission/numbering.py) ------------------------------------
def test_solarius_mission_numbering_is_fixed_and_spells_each_command_back():
    import random

    from solrec.ai.table import Table

    one = Table("solarius-mission", {}, ["Ann", "Bob"])
    two = Table("solarius-mission", {}, ["Ann", "Bob", "Cid"])
    assert one.codec.size == two.codec.size  # the component set fixes the numbering, not the players
    position, rng, seen = one.initial(), random.Random(9), 0
    while one.to_act(position).actor is not None and seen < 150:
        outlook = one.to_act(position)
        if outlook.actor == "chance":
            position = one.draw(position, rng.randrange(outlook.outcomes))
            continue
        legal = one.legal(position)
        for action, command in legal.items():
            assert one.codec.action(command) == action
            back = one.codec.command(action)
            if type(back).__name__ != "Fly":  # a flight is named by its end hex and portal payment
                assert one.codec.action(back) == action
                assert one.game.decide(position.state, back)  # the decoded command is the legal one
        position = one.play(position, legal[rng.choice(list(legal))])
        seen += 1


def test_a_large_exchange_is_the_same_as_its_small_ones():
    """003 9.2 d.1: resources of total value V give V // 2 fuel and SpaceBucks; split into groups of at
    most three cubes (all even but one), the groups give the same."""
    from solrec.core.solarius_mission import commands as c
    from solrec.core.solarius_mission.numbering import split_exchange

    cubes = (("black", 1), ("black", 1), ("black", 1), ("black", 3), ("brown", 2), ("yellow", 3), ("yellow", 3))
    whole = c.ExchangeResources(cubes, 3, 4)  # value 1+1+1+3+2+3+3 = 14: 7 units
    parts = split_exchange(whole)
    assert all(len(p.cubes) <= 3 for p in parts)
    assert sorted(x for p in parts for x in p.cubes) == sorted(cubes)
    assert sum(p.fuel for p in parts) == 3 and sum(p.bucks for p in parts) == 4
    assert all(p.fuel + p.bucks == sum(col for _, col in p.cubes) // 2 >= 1 for p in parts)


# -- PettingZoo and Gymnasium -------------------------------------------------------------------------
@pytest.mark.parametrize("case", SHORT, ids=_id)
def test_pettingzoo_api_test_and_seed_test(case):
    gid, options, n = case
    options = _options(gid, options)
    players = None if not n else [f"P{i}" for i in range(n)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_env(gid, options, players), num_cycles=30)
        seed_test(lambda: make_env(gid, options, players), num_cycles=30)


def test_the_same_seed_plays_the_same_game_in_pettingzoo():
    def play(seed):
        env = make_env("soli2")
        env.reset(seed=seed)
        env.action_space(env.agent_selection).seed(seed)
        moves = []
        for agent in env.agent_iter(400):
            obs, _, done, _, _ = env.last()
            action = None if done else int(env.action_space(agent).sample(obs["action_mask"]))
            moves.append(action)
            env.step(action)
        return moves, env.table.scores(env.position)

    assert play(3) == play(3)
    assert play(3) != play(4)


# -- the same games through the actions -----------------------------------------------------------------
FIXTURE_FILES = sorted(p for gid in ADAPTED for p in (FIXTURES / gid).glob("*.jsonl"))


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_replayed_through_the_actions_ends_alike(path):
    header, steps, state, _ = decide_record(path.read_text(encoding="utf-8"))
    game = get_game(header.game)
    table, position = through_actions(header, steps)
    assert table.scores(position) == dict(game.score(state).totals)
    assert game.outcome(position.state) == game.outcome(state)


def _simulated(case: tuple[str, dict, int], index: int):
    gid, options, n = case
    game = get_game(gid)
    players = None if not n else [f"P{i}" for i in range(n)]
    header = make_header(game, players, _options(gid, options), seed=game_seed(33, index))
    steps, state = simulate(game, header, player_rng(33, index))
    return game, header, steps, state


def _replays_alike(case, index):
    game, header, steps, state = _simulated(case, index)
    table, position = through_actions(header, steps)
    assert table.scores(position) == dict(game.score(state).totals)
    assert game.outcome(position.state) == game.outcome(state)
    outcome = game.outcome(state)
    returns = dict(zip(header.players, table.returns(position)))
    if len(header.players) > 1:  # docs/ai.md, "Returns": +1 each winner, -1 the others, 0 all in a draw
        assert returns == {p: (1.0 if p in outcome.winners else -1.0) if outcome.winners else 0.0 for p in header.players}
    else:
        assert -1.0 <= returns[header.players[0]] <= 1.0
        assert (returns[header.players[0]] == 1.0) == (outcome.result == "won")


@pytest.mark.parametrize("case", SHORT, ids=_id)
def test_simulated_games_replayed_through_the_actions_end_alike(case):
    for index in range(3):
        _replays_alike(case, index)


@pytest.mark.slow
@pytest.mark.parametrize("case", SHORT + FULL, ids=_id)
def test_200_simulated_games_replayed_through_the_actions_end_alike(case):
    for index in range(200 if case[0] != "solari" or case[1] else 20):
        _replays_alike(case, index)


def test_solitaire_returns_are_the_normalised_scores():
    from solrec.core.registry import bot_hooks

    def solitaire_return(game_id: str, result: str, score: int) -> float:
        hook = bot_hooks(game_id).solitaire_return
        assert hook is not None
        return hook(result, score)

    assert solitaire_return("solo-dice", "scored", -2000) == -1.0
    assert solitaire_return("solo-dice", "scored", 1000) == 1.0
    assert solitaire_return("solo-dice", "scored", -500) == 0.0
    assert solitaire_return("solar-solitaire", "won", 4) == 1.0
    assert solitaire_return("solar-solitaire", "lost", 2) == -0.5
    assert solitaire_return("soli2", "won", 1) == 1.0
    assert solitaire_return("soli2", "lost", 48) == -1.0


# -- fair: what a seat cannot tell apart, the adapters do not tell apart ----------------------------------
FAIR_SETUPS = ["solar-solitaire-seeded", "solar-solitaire-entered", "solari-dominoes-hidden", "solari-dice",
               "soli2-pouch", "solo-dice", "solarius-mission-2-cards", "solarius-mission-3-choose",
               "solarius-mission-4-cards"]


@pytest.mark.parametrize("setup", FAIR_SETUPS)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=__import__("hypothesis").strategies.data())
def test_observations_and_information_states_equal_for_games_a_seat_cannot_tell_apart(setup, data):
    pair = data.draw(pairs(setup))
    table = table_of(pair.header_a)
    a = table.follow(pair.steps_a)
    b = table_of(pair.header_b).follow(pair.steps_b)
    assert table.observation_string(a, pair.seat) == table.observation_string(b, pair.seat)
    assert table.information_state_string(a, pair.seat) == table.information_state_string(b, pair.seat)
    assert list(table.legal(a)) == list(table.legal(b)) or table.to_act(a).actor != pair.seat
