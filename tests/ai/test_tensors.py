"""Observation tensors and what OpenSpiel's own algorithms need (docs/ai.md, "Observation tensors",
"OpenSpiel"): a tensor of a fixed shape for every seat of every game, built from the seat's
observation (twin positions: byte-identical tensors); ``rl_environment`` stepping every game;
``ISMCTSBot`` playing the games that hide something through ``resample_from_infostate``; games and
states that pickle; the one-player games registered with Gymnasium; PettingZoo's Dict spaces."""

from __future__ import annotations

import pickle
import random
import warnings

import attrs
import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
import pyspiel  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts  # noqa: E402

from solrec.ai import spiel  # noqa: E402
from solrec.ai.envs import gymnasium_ids, make_env  # noqa: E402
from solrec.ai.search import ScoreEvaluator  # noqa: E402
from solrec.ai.table import Table, table_of  # noqa: E402
from solrec.ai.tensors import observation_shape, observation_tensor  # noqa: E402
from solrec.core.game import CHANCE  # noqa: E402

from ..fairness.pairs import pairs  # noqa: E402
from .test_adapters import SHORT, _id, _options  # noqa: E402

# one option set of each game, short games
EACH: list[tuple[str, dict, int]] = [("solo-dice", {}, 0), ("soli2", {}, 0), ("solari", {"source": "dominoes-hidden"}, 0),
                                     ("solar-solitaire", {}, 0), ("solarius-mission", {}, 2)]


def _table(case: tuple[str, dict, int]) -> Table:
    gid, options, n = case
    return Table(gid, _options(gid, options), None if not n else [f"P{i}" for i in range(n)])


# -- the tensors -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", SHORT, ids=_id)
def test_every_seat_sees_a_tensor_of_the_games_one_shape_scaled_0_to_1(case):
    table = _table(case)
    shape = observation_shape(table)
    rng = random.Random(7)
    position = table.initial()
    for _ in range(40):
        for seat in table.players:
            tensor = observation_tensor(table, position, seat)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0
        outlook = table.to_act(position)
        if outlook.actor is None:
            break
        if outlook.actor == CHANCE:
            position = table.draw(position, rng.randrange(outlook.outcomes))
        else:
            legal = table.legal(position)
            position = table.play(position, legal[rng.choice(list(legal))])


def test_the_tensor_follows_the_play():
    table = Table("soli2")
    position = table.initial()
    before = observation_tensor(table, position, table.players[0])
    position = table.draw(position, 0)  # a marble from the pouch
    assert not np.array_equal(before, observation_tensor(table, position, table.players[0]))


def test_another_players_hand_is_its_size_only_and_the_seats_own_hand_is_seen():
    # Solarius Mission 5.0: "a player's hand is his own"; the others see how many cards he holds
    table = _table(("solarius-mission", {}, 2))
    rng = random.Random(1)
    position = table.initial()
    while not position.state.mats[1].hand or table.to_act(position).actor == CHANCE:
        outlook = table.to_act(position)
        if outlook.actor == CHANCE:
            position = table.draw(position, rng.randrange(outlook.outcomes))
        else:
            legal = table.legal(position)
            position = table.play(position, legal[rng.choice(list(legal))])
    mats = list(position.state.mats)
    other = attrs.evolve(position.state, mats=(mats[0], attrs.evolve(mats[1], hand=tuple(reversed(sorted(
        set(position.state.deck) | set(mats[1].hand))))[: len(mats[1].hand)])))
    assert other.mats[1].hand != position.state.mats[1].hand
    swapped = attrs.evolve(position, state=other, cache={})
    seat, holder = table.players
    assert observation_tensor(table, swapped, seat).tobytes() == observation_tensor(table, position, seat).tobytes()
    assert observation_tensor(table, swapped, holder).tobytes() != observation_tensor(table, position, holder).tobytes()


FAIR_SETUPS = ["solar-solitaire-seeded", "solar-solitaire-entered", "solari-dominoes-hidden", "solari-dice",
               "soli2-pouch", "solo-dice", "solarius-mission-2-cards", "solarius-mission-3-choose",
               "solarius-mission-4-cards"]


@pytest.mark.parametrize("setup", FAIR_SETUPS)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_two_positions_a_seat_cannot_tell_apart_give_byte_identical_tensors(setup, data):
    pair = data.draw(pairs(setup))
    a = table_of(pair.header_a).follow(pair.steps_a)
    table_b = table_of(pair.header_b)
    b = table_b.follow(pair.steps_b)
    table = table_of(pair.header_a)
    assert observation_tensor(table, a, pair.seat).tobytes() == observation_tensor(table_b, b, pair.seat).tobytes()


# -- OpenSpiel ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", EACH, ids=_id)
def test_openspiel_states_give_the_tensor_with_the_games_shapes(case):
    gid, options, n = case
    game = spiel.load(gid, _options(gid, options), n)
    table = game.table
    shape = list(observation_shape(table))
    assert game.observation_tensor_shape() == shape and game.information_state_tensor_shape() == shape
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for p in range(game.num_players()):
        seat = table.players[p]
        expected = observation_tensor(table, state.position, seat)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), expected)
        assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), expected)


@pytest.mark.parametrize("case", EACH, ids=_id)
def test_rl_environment_steps_in_every_game(case):
    gid, options, n = case
    env = rl_environment.Environment(spiel.load(gid, _options(gid, options), n), seed=3)
    size = observation_shape(_table(case))[0]
    rng = random.Random(3)
    step = env.reset()
    for _ in range(60):
        if step.last():
            break
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert env.observation_spec()["info_state"] == (size,)


def _ismcts_game(case: tuple[str, dict, int], seed: int) -> list[float]:
    gid, options, n = case
    game = spiel.load(gid, _options(gid, options), n)
    table = game.table
    rng = np.random.RandomState(seed)
    # OpenSpiel's own bot, no resampler given: it asks the state (resample_from_infostate)
    bot = ismcts.ISMCTSBot(game, ScoreEvaluator(table, 2, rng), 1.4, 4, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))
    return state.returns()


def test_ismcts_plays_a_game_of_solar_solitaire():
    returns = _ismcts_game(("solar-solitaire", {}, 0), 5)
    assert len(returns) == 1 and -1.0 <= returns[0] <= 1.0


def test_ismcts_plays_a_game_of_solarius_mission():
    returns = _ismcts_game(("solarius-mission", {}, 2), 5)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0], [1.0, 1.0])


def test_resample_from_infostate_keeps_what_the_seat_sees_and_redraws_the_hidden_cards():
    game = spiel.load("solarius-mission", {}, 2)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or state.move_number() < 30:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(0, sampler) for _ in range(4)]
    assert {str(w.position.state.mats[1].hand) for w in worlds} != {str(state.position.state.mats[1].hand)} or \
        len(state.position.state.mats[1].hand) == 0
    for world in worlds:
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.observation_tensor(0) == state.observation_tensor(0)


@pytest.mark.parametrize("case", EACH, ids=_id)
def test_games_and_states_pickle(case):
    gid, options, n = case
    game = spiel.load(gid, _options(gid, options), n)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_type().short_name == game.get_type().short_name
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        if state.is_terminal():
            break
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() or copy.move_number() == state.move_number()
    assert str(copy) == str(state)
    if not state.is_chance_node() and not state.is_terminal():
        assert copy.legal_actions() == state.legal_actions()
        p = state.current_player()
        assert copy.information_state_string(p) == state.information_state_string(p)


# -- Gymnasium and PettingZoo -----------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", sorted(gymnasium_ids()))
def test_gymnasium_make_for_each_registered_id_and_check_env(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(env_id)
        check_env(env.unwrapped, skip_render_check=True)
        observation, info = env.reset(seed=1)
    assert env.observation_space.contains(observation)
    assert info["action_mask"].sum() > 0 and env.unwrapped.action_masks().any()


def test_the_ids_are_the_one_player_games():
    assert sorted(gymnasium_ids()) == ["solrec/solar-solitaire-v0", "solrec/soli2-classic-v0", "solrec/soli2-solitaire-v0",
                                       "solrec/solo-dice-v0"]


def test_the_text_stays_available_as_info():
    env = gymnasium.make("solrec/soli2-classic-v0", text=True)
    _, info = env.reset(seed=0)
    table = env.unwrapped.table
    assert info["observation_text"] == table.observation_string(env.unwrapped.position, table.players[0])
    aec = make_env("soli2", text=True)
    aec.reset(seed=0)
    assert aec.infos[aec.agent_selection]["observation_text"].startswith("{")


@pytest.mark.parametrize("case", EACH, ids=_id)
def test_pettingzoo_observes_the_tensor_and_the_action_mask(case):
    # api_test and seed_test with these spaces: test_adapters.py, every option set
    gid, options, n = case
    env = make_env(gid, _options(gid, options), None if not n else [f"P{i}" for i in range(n)])
    space = env.observation_space(env.possible_agents[0])
    assert space["observation"] == gymnasium.spaces.Box(0.0, 1.0, observation_shape(env.table), np.float32)
    env.reset(seed=1)
    agent = env.agent_selection
    seen = env.observe(agent)
    assert space.contains(seen) and seen["action_mask"].sum() == len(env.table.legal(env.position))
    assert np.array_equal(seen["observation"], observation_tensor(env.table, env.position, agent))


@pytest.mark.parametrize("setup", FAIR_SETUPS)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_two_positions_a_seat_cannot_tell_apart_give_the_afterstate_bot_the_same_inputs(setup, data):
    """What an afterstate model reads of each move's afterstate (``policy.after_features``: the seat's
    tensor and the legal actions it may know there) is the same in both games, move by move."""
    from solrec.ai.policy import after_features
    from solrec.ai.seat import look

    pair = data.draw(pairs(setup))
    table_a, table_b = table_of(pair.header_a), table_of(pair.header_b)
    a, b = table_a.follow(pair.steps_a), table_b.follow(pair.steps_b)
    if table_a.game.to_act(a.state) != pair.seat:
        a, b = _to_the_seat(table_a, a, table_b, b, pair.seat)
        if a is None:
            return  # the game ends before the seat moves again: no afterstate to rate
    legal_a, legal_b = table_a.legal(a), table_b.legal(b)
    assert legal_a.keys() == legal_b.keys()
    for action in legal_a:
        after_a = after_features(table_a, look(table_a, a, legal_a[action]), pair.seat)
        after_b = after_features(table_b, look(table_b, b, legal_b[action]), pair.seat)
        assert after_a.tobytes() == after_b.tobytes()


def _to_the_seat(table_a, a, table_b, b, seat):
    """Both games played on alike (the same action ids; chance the same outcome) until the seat is to act."""
    for _ in range(400):
        actor = table_a.game.to_act(a.state)
        if actor is None or table_b.game.to_act(b.state) is None:
            return None, None
        if actor == seat:
            return a, b
        if actor == CHANCE:
            outlook_a, outlook_b = table_a.to_act(a), table_b.to_act(b)
            if outlook_a.outcomes != outlook_b.outcomes:
                return None, None
            a, b = table_a.draw(a, 0), table_b.draw(b, 0)
            continue
        legal_a, legal_b = table_a.legal(a), table_b.legal(b)
        common = sorted(legal_a.keys() & legal_b.keys())
        if not common:
            return None, None
        a, b = table_a.play(a, legal_a[common[0]]), table_b.play(b, legal_b[common[0]])
    return None, None
