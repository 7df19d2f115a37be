"""The learned bot, ``policy`` (docs/ai.md, "The learned bot"), and ``solrec train``: legal moves only,
deterministic, a model file read back as it was trained, training refused on bad input, a short
run that plays better than at random, and resumed training the same as unbroken."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import zipfile
from pathlib import Path

import attrs
import numpy as np
import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner  # noqa: E402

from solrec.ai.bots import make_bot, move_seed, parse_bot  # noqa: E402
from solrec.ai.contract import BotError  # noqa: E402
from solrec.ai.policy import features, load, read_meta, shipped  # noqa: E402
from solrec.ai.table import Table  # noqa: E402
from solrec.cli.main import app  # noqa: E402
from solrec.core.game import CHANCE  # noqa: E402

# the shipped models' set-ups (ai/models/, each trained by the command docs/ai.md gives)
SHIPPED = [("solo-dice", {}), ("soli2", {"mode": "duel"}), ("soli2", {"mode": "soli2-solitaire"}), ("solar-solitaire", {})]


def _game(table: Table, bots: dict, seed: int, check=None):
    rng = random.Random(f"test-policy:{seed}")
    position = table.initial()
    while (outlook := table.to_act(position)).actor is not None:
        if outlook.actor == CHANCE:
            position = table.draw(position, rng.randrange(outlook.outcomes))
            continue
        decision = bots[outlook.actor].decide(table, position, outlook.actor, move_seed(seed, position.moves))
        if check is not None:
            check(table, position, outlook.actor, decision)
        position = table.play(position, decision.command)
        assert position.moves < 2_000
    return position


# -- the bot ------------------------------------------------------------------------------------------------
def test_a_model_is_shipped_for_each_game_the_issue_names():
    trained = {(read_meta(p)["game"], read_meta(p)["options"].get("mode")) for p in shipped()}
    for game, options in SHIPPED:
        assert (game, options.get("mode")) in trained


@pytest.mark.parametrize(("game", "options"), SHIPPED, ids=lambda v: v if isinstance(v, str) else v.get("mode", ""))
def test_the_learned_bot_plays_only_legal_moves(game, options):
    table = Table(game, options)
    bots = {seat: make_bot("policy") if i == 0 else make_bot("greedy") for i, seat in enumerate(table.players)}

    def legal(table, position, seat, decision):
        assert decision.action in table.legal(position)
        assert table.legal(position)[decision.action] == decision.command
        assert -1.0 <= decision.estimate <= 1.0

    assert table.over(_game(table, bots, 1, legal))


@pytest.mark.parametrize(("game", "options"), SHIPPED[:3], ids=["solo-dice", "duel", "soli2-solitaire"])
def test_the_learned_bot_is_deterministic_whatever_its_seed(game, options):
    table = Table(game, options)
    seen = []

    def record(table, position, seat, decision):
        again = make_bot("policy").decide(table, position, seat, 12345)
        assert (again.action, again.estimate) == (decision.action, decision.estimate)
        seen.append(decision.action)

    bots = {seat: make_bot("policy") for seat in table.players}
    _game(table, bots, 3, record)
    replay: list[int] = []
    _game(table, bots, 3, lambda t, p, s, d: replay.append(d.action))
    assert replay == seen


def test_a_policy_bot_is_spelled_with_its_model_file():
    spec = parse_bot("policy:model=/tmp/x.zip")
    assert str(spec) == "policy:model=/tmp/x.zip" and parse_bot(str(spec)) == spec
    with pytest.raises(BotError):
        parse_bot("policy:simulations=3")


def test_a_missing_or_foreign_model_is_refused_in_one_line(tmp_path):
    table = Table("solo-dice")
    position = table.initial()
    while table.to_act(position).actor == CHANCE:
        position = table.draw(position, 0)
    (seat,) = table.players
    with pytest.raises(BotError, match="no model file"):
        make_bot(f"policy:model={tmp_path / 'none.zip'}").decide(table, position, seat, 0)
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(BotError, match="not a solrec model file"):
        make_bot(f"policy:model={tmp_path / 'bad.zip'}").decide(table, position, seat, 0)
    duel = next(p for p in shipped() if read_meta(p)["game"] == "soli2" and read_meta(p)["options"]["mode"] == "duel")
    with pytest.raises(BotError, match="trained on soli2"):
        make_bot(f"policy:model={duel}").decide(table, position, seat, 0)


def test_solrec_help_does_not_import_torch():
    code = "import sys; from solrec.cli.main import app; import solrec.ai.bots; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- training -------------------------------------------------------------------------------------------------
learn = pytest.importorskip("solrec.ai.learn")


def _mean_score(table: Table, bot: str, games: int) -> float:
    (seat,) = table.players
    return statistics.mean(table.scores(_game(table, {seat: make_bot(bot)}, k))[seat] for k in range(games))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """A short Solo Dice run (seconds of CPU): 8 rollouts, 8,192 moves (measured: a mean score of -812
    on the test's 20 deals, where the random bot scores -1,208)."""
    out = tmp_path_factory.mktemp("train") / "solo-dice.zip"
    run = learn.Run("solo-dice", tuple(sorted(Table("solo-dice").options.items())), ("Solo",), seed=7)
    learn.train(run, 8 * learn.ROLLOUT, out, "test", lambda line: None)
    return out


def test_a_trained_model_plays_as_the_library_predicts(tiny):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(tiny, device="cpu")
    net = load(tiny)
    table = Table("solo-dice")
    (seat,) = table.players
    bot = make_bot(f"policy:model={tiny}")

    def same(table, position, seat, decision):
        x = features(table, position, seat)
        mask = np.zeros(table.codec.size, bool)
        mask[list(table.legal(position))] = True
        action, _ = model.predict(x, action_masks=mask, deterministic=True)
        assert int(action) == decision.action
        import torch

        with torch.no_grad():
            logits = model.policy.get_distribution(model.policy.obs_to_tensor(x)[0]).distribution.logits
            value = model.policy.predict_values(model.policy.obs_to_tensor(x)[0])
        mine = net.logits(x)
        mine = mine - mine.max() - np.log(np.exp(mine - mine.max()).sum())  # the library's logits are log-probabilities
        assert np.allclose(mine, logits.numpy()[0], atol=1e-4)
        assert abs(net.state_value(x) - float(value)) < 1e-4

    _game(table, {seat: bot}, 0, same)
    meta = read_meta(tiny)
    assert meta["steps"] == 8 * learn.ROLLOUT and meta["game"] == "solo-dice" and meta["seed"] == 7
    assert {"policy.pth", "data", "solrec.json", "solrec-policy.npz"} <= set(zipfile.ZipFile(tiny).namelist())


def test_a_short_training_run_plays_better_than_at_random(tiny):
    table = Table("solo-dice")
    assert _mean_score(table, f"policy:model={tiny}", 20) > _mean_score(table, "random", 20) + 200


def test_training_resumed_from_its_file_makes_the_model_an_unbroken_run_makes(tmp_path):
    run = learn.Run("soli2", (("fill", "pouch"), ("mode", "soli2-solitaire"), ("objective", "standard")), ("Player 1",), seed=3)
    whole, part = tmp_path / "whole.zip", tmp_path / "part.zip"
    learn.train(run, 2 * learn.ROLLOUT, whole, "test", lambda line: None, chunk=learn.ROLLOUT)
    learn.train(run, learn.ROLLOUT, part, "test", lambda line: None, chunk=learn.ROLLOUT)
    learn.train(run, 2 * learn.ROLLOUT, part, "test", lambda line: None, chunk=learn.ROLLOUT)
    a, b = load(whole), load(part)
    assert read_meta(part)["steps"] == read_meta(whole)["steps"] == 2 * learn.ROLLOUT
    for (wa, ba), (wb, bb) in zip(a.policy + a.value, b.policy + b.value):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)


# -- afterstate learning (--method afterstate) ------------------------------------------------------------------
SOLITAIRE = (("fill", "pouch"), ("mode", "soli2-solitaire"), ("objective", "standard"))


@pytest.fixture(scope="module")
def tiny_afterstate(tmp_path_factory) -> Path:
    """A short SOLI2 solitaire run (seconds of CPU): 4,096 moves (measured: about 23 marbles left on the
    test's 20 deals, where the random bot leaves about 29)."""
    out = tmp_path_factory.mktemp("train") / "soli2.zip"
    run = learn.Run("soli2", SOLITAIRE, ("Solo",), seed=5, method="afterstate")
    learn.train(run, 4_096, out, "test", lambda line: None)
    return out


def _torch_rating(model: Path):
    """The model's network as the learning library holds it (its saved state), rating one afterstate."""
    import io

    import torch

    from solrec.ai.policy import after_features

    saved = torch.load(io.BytesIO(zipfile.ZipFile(model).read(learn.AFTER_STATE)), weights_only=True)
    table = Table("soli2", dict(SOLITAIRE), ("Solo",))
    net = learn._after_net(len(features(table, table.initial(), "Solo")) + table.codec.size, tuple(read_meta(model)["hidden"]))
    net.load_state_dict(saved["net"])

    def rating(table, after, seat):
        if table.over(after):
            return table.returns(after)[0]
        with torch.no_grad():
            return float(net(torch.from_numpy(after_features(table, after, seat))[None, :])[0, 0])

    return rating


def test_an_afterstate_model_plays_the_move_whose_afterstate_its_network_rates_highest(tiny_afterstate):
    from solrec.ai.seat import look

    rating = _torch_rating(tiny_afterstate)
    table = Table("soli2", dict(SOLITAIRE), ("Solo",))
    bot = make_bot(f"policy:model={tiny_afterstate},ahead=0")
    checked = []

    def best(table, position, seat, decision):
        legal = table.legal(position)
        rated = {a: rating(table, look(table, position, c), seat) for a, c in legal.items()}
        assert abs(rated[decision.action] - max(rated.values())) < 1e-4  # the library's network, read back by numpy
        assert dict(decision.values).keys() == legal.keys()
        checked.append(len(legal))

    for seed in range(3):
        _game(table, {"Solo": bot}, seed, best)
    meta = read_meta(tiny_afterstate)
    assert meta["method"] == "afterstate" and meta["steps"] >= 4_096 and checked and max(checked) > 1
    assert {"solrec.json", "solrec-policy.npz", learn.AFTER_STATE} <= set(zipfile.ZipFile(tiny_afterstate).namelist())


def test_looking_ahead_it_plays_the_best_of_its_two_best_moves_by_the_best_move_each_leaves(tiny_afterstate):
    from solrec.ai.seat import look

    rating = _torch_rating(tiny_afterstate)
    table = Table("soli2", dict(SOLITAIRE), ("Solo",))
    bot = make_bot(f"policy:model={tiny_afterstate}")  # ahead=2, the default
    changed = []

    def best(table, position, seat, decision):
        legal = table.legal(position)
        once = {a: rating(table, look(table, position, c), seat) for a, c in legal.items()}
        top = sorted(legal, key=lambda a: (-once[a], a))[:2]
        assert decision.action in top

        def twice(action):
            after = look(table, position, legal[action])
            if table.over(after):
                return once[action]
            return max(rating(table, look(table, after, c), seat) for c in table.legal(after).values())

        assert twice(decision.action) >= max(twice(a) for a in top) - 1e-4
        changed.append(decision.action != top[0])

    for seed in range(3):
        _game(table, {"Solo": bot}, seed, best)
    assert any(changed)  # the look ahead changed a move


def _minimax(table: Table, net, position, seat: str, rating: float, depth: int, mix: float) -> float:
    """The plain minimax value for ``seat``, every move of both players tried, the positions where it
    stops valued by the rating and the greedy bot's value mixed: what the search must find."""
    from solrec.ai.policy import afterstate_values
    from solrec.ai.seat import heuristic

    actor = table.game.to_act(position.state)
    if depth <= 0 or actor not in table.players:
        return (1 - mix) * rating + mix * heuristic(table, position, seat)
    afters: dict = {}
    rated = afterstate_values(table, position, seat, table.legal(position), net.rate, afters)
    values = [rated[a] if table.over(afters[a]) else _minimax(table, net, afters[a], seat, rated[a], depth - 1, mix)
              for a in rated]
    return max(values) if actor == seat else min(values)


def _duel_positions(count: int) -> list:
    """Jumping positions of SOLI2 duels between greedy bots, each with a choice."""
    table = Table("soli2", {"mode": "duel"})
    greedy = make_bot("greedy")
    found: list = []

    def keep(table, position, seat, decision):
        if position.state.phase == "jumping" and len(table.legal(position)) > 1 and len(found) < count:
            found.append((position, seat))

    seed = 0
    while len(found) < count:
        _game(table, {seat: greedy for seat in table.players}, seed, keep)
        seed += 1
    return found


@pytest.mark.parametrize("mix", [0.5, 0.0])
def test_in_a_duel_it_plays_the_best_of_its_three_best_moves_searched_three_moves_deep(mix):
    """Its move, the other player's reply, its next move: the value of the best line for it against the
    reply worst for it (minimax), where the line ends the network's rating mixed half and half with the
    greedy bot's value (``mix``, 0.5 unless given). Values equal to 1e-5 are ties (a position rated alone
    or in a batch may differ in its last bits)."""
    from solrec.ai.policy import afterstate_values

    table = Table("soli2", {"mode": "duel"})
    bot = make_bot("policy" if mix == 0.5 else f"policy:mix={mix}")  # the shipped duel model; width=3, depth=3
    net = bot.net_for(table)
    changed = 0
    for position, seat in _duel_positions(40):
        legal = table.legal(position)
        afters: dict = {}
        once = afterstate_values(table, position, seat, legal, net.rate, afters)
        top = sorted(legal, key=lambda a: (-once[a], a))[:3]
        searched = {a: once[a] if table.over(afters[a]) else _minimax(table, net, afters[a], seat, once[a], 2, mix)
                    for a in top}
        decision = bot.decide(table, position, seat, 0)
        assert decision.action in top
        assert searched[decision.action] >= max(searched.values()) - 1e-5
        assert abs(decision.estimate - max(-1.0, min(1.0, searched[decision.action]))) < 1e-5
        assert dict(decision.values) == pytest.approx(once)  # the values: each move's own rating
        changed += decision.action != top[0]
    assert changed  # the search changed some moves


def test_in_a_duel_depth_one_plays_the_move_it_rates_highest():
    from solrec.ai.policy import afterstate_values

    table = Table("soli2", {"mode": "duel"})
    bot = make_bot("policy:depth=1")
    net = bot.net_for(table)
    for position, seat in _duel_positions(10):
        rated = afterstate_values(table, position, seat, table.legal(position), net.rate)
        assert bot.decide(table, position, seat, 0).action == min(rated, key=lambda a: (-rated[a], a))


def test_a_short_afterstate_run_leaves_fewer_marbles_than_the_random_bot(tiny_afterstate):
    table = Table("soli2", dict(SOLITAIRE), ("Solo",))
    assert _mean_score(table, f"policy:model={tiny_afterstate}", 20) < _mean_score(table, "random", 20) - 2


def test_an_afterstate_run_resumed_from_its_file_makes_the_model_an_unbroken_run_makes(tmp_path):
    run = learn.Run("soli2", SOLITAIRE, ("Solo",), seed=3, method="afterstate")
    whole, part = tmp_path / "whole.zip", tmp_path / "part.zip"
    learn.train(run, 1_000, whole, "test", lambda line: None, chunk=512)
    learn.train(run, 400, part, "test", lambda line: None, chunk=512)
    assert 400 <= read_meta(part)["steps"] < 1_000
    learn.train(run, 1_000, part, "test", lambda line: None, chunk=512)
    a, b = load(whole), load(part)
    assert read_meta(part)["steps"] == read_meta(whole)["steps"] >= 1_000
    for (wa, ba), (wb, bb) in zip(a.value, b.value, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)


def test_a_duel_learns_by_self_play_unless_an_opponent_is_named(tmp_path):
    out = tmp_path / "duel.zip"
    result = CliRunner().invoke(app, ["train", "soli2", "--method", "afterstate", "--steps", "50", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    meta = read_meta(out)
    assert meta["opponent"] == "self" and meta["method"] == "afterstate"
    assert "--opponent self --method afterstate" in meta["command"]
    table = Table("soli2", {"mode": "duel"})
    _game(table, {seat: make_bot(f"policy:model={out}") for seat in table.players}, 0)


@pytest.mark.parametrize("args", [
    ["soli2", "--steps", "10", "--out", "{tmp}/m.zip", "--method", "dqn"],
    ["soli2", "--steps", "10", "--out", "{tmp}/m.zip", "--opponent", "self"],
    ["soli2", "--option", "mode=soli2-solitaire", "--method", "afterstate", "--steps", "10", "--out", "{tmp}/m.zip",
     "--opponent", "self"],
], ids=["method", "self-play-with-ppo", "self-play-in-a-solitaire"])
def test_train_refuses_a_method_it_does_not_have(tmp_path, args):
    result = CliRunner().invoke(app, ["train", *[a.replace("{tmp}", str(tmp_path)) for a in args]])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_afterstate_run_refuses_to_resume_a_ppo_model(tiny, tmp_path):
    meta = read_meta(tiny)
    ppo = learn.Run(meta["game"], tuple(sorted(meta["options"].items())), tuple(meta["players"]), seed=meta["seed"])
    assert ppo.same_as(meta) is None
    why = attrs.evolve(ppo, method="afterstate").same_as(meta)
    assert why == 'it was trained with method "ppo", this run has "afterstate"'
    copy = tmp_path / "m.zip"
    copy.write_bytes(tiny.read_bytes())
    with pytest.raises(learn.TrainError, match="another run's model"):
        learn.train(attrs.evolve(ppo, method="afterstate"), 10, copy, "test", lambda line: None)
    assert copy.read_bytes() == tiny.read_bytes()


@pytest.mark.parametrize("args", [
    ["no-such-game", "--steps", "10", "--out", "{tmp}/m.zip"],
    ["solo-dice", "--steps", "0", "--out", "{tmp}/m.zip"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/m.txt"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/no/m.zip"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/m.zip", "--opponent", "greedy"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/m.zip", "--hidden", "wide"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/m.zip", "--option", "colour=red"],
    ["soli2", "--steps", "10", "--out", "{tmp}/m.zip", "--opponent", "alphazero"],
    ["soli2", "--steps", "10", "--out", "{tmp}/m.zip", "--players", "3"],
    ["solo-dice", "--steps", "10", "--out", "{tmp}/other.zip"],
], ids=["game", "steps", "folder", "suffix", "no-folder", "solitaire-opponent", "hidden", "option", "opponent", "players",
        "another-file"])
def test_train_refuses_bad_input_with_exit_2_and_writes_nothing(tmp_path, args):
    (tmp_path / "other.zip").write_bytes(b"someone's zip")
    before = sorted(p.name for p in tmp_path.iterdir())
    result = CliRunner().invoke(app, ["train", *[a.replace("{tmp}", str(tmp_path)) for a in args]])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "other.zip").read_bytes() == b"someone's zip"


def test_train_refuses_to_resume_another_runs_model(tiny, tmp_path):
    copy = tmp_path / "m.zip"
    copy.write_bytes(tiny.read_bytes())
    result = CliRunner().invoke(app, ["train", "solo-dice", "--steps", "10", "--seed", "8", "--out", str(copy)])
    assert result.exit_code == 2 and "another run's model" in result.stderr
    assert copy.read_bytes() == tiny.read_bytes()


# -- wherever bots play -----------------------------------------------------------------------------------------
def test_simulate_and_review_take_the_learned_bot(cli):
    gid = cli.json("simulate", "solo-dice", "--games", "1", "--seed", "2", "--player", "Solo=bot:policy")["ids"][0]
    review = cli.json("review", gid, "--bot", "policy", "--no-store")
    assert review["bot"] == "policy" and review["moves"]
    assert all(m["loss"] >= 0 for m in review["moves"])


def test_balance_takes_the_learned_bot():
    import json

    result = CliRunner().invoke(app, ["balance", "soli2", "--games", "4", "--bot", "policy", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["bots"] == ["policy"] and report["sets"][0]["games"] == 4


def test_a_game_with_no_model_for_the_learned_bot_is_refused_before_anything_is_played(cli):
    result = cli.run("simulate", "solari", "--games", "1", "--player", "Ann=bot:policy", "--player", "Bob", expect=2)
    assert "no model shipped for solari" in result.stderr
    assert "solari" not in cli.run("list", expect=None).stdout
    result = CliRunner().invoke(app, ["balance", "solari", "--games", "2", "--bot", "policy"])
    assert result.exit_code == 2 and "no model shipped for solari" in result.stderr
