"""Bots (docs/ai.md): one contract, deterministic given a seed, fair by test (two positions a seat cannot
tell apart, the same seed: the same move), and where people meet them (simulate, hint, review)."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

pytest.importorskip("pyspiel")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from solrec.ai.bots import BotError, BotSpec, make_bot, parse_bot, resample  # noqa: E402
from solrec.ai.records import THRESHOLDS, mark_of  # noqa: E402
from solrec.ai.table import Table, table_of  # noqa: E402
from solrec.core.game import CHANCE  # noqa: E402

from ..conftest import FIXTURES  # noqa: E402
from ..fairness.pairs import pairs  # noqa: E402

QUICK = {"random": "random", "greedy": "greedy", "mcts": "mcts:simulations=24,rollout=4,samples=2,budget=500",
         "ismcts": "mcts:simulations=24,rollout=4,search=ismcts"}


# -- the spelling: KIND[:SETTINGS] ------------------------------------------------------------------------
def test_a_bot_is_spelled_kind_then_its_settings():
    spec = parse_bot("mcts:simulations=50,uct=2")
    assert spec == BotSpec("mcts", (("simulations", 50), ("uct", 2.0)))
    assert str(spec) == "mcts:simulations=50,uct=2.0"
    assert parse_bot(str(spec)) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert str(parse_bot("greedy")) == "greedy"


@pytest.mark.parametrize("text", ["alphazero", "mcts:depth=3", "mcts:simulations=many", "mcts:simulations", "mcts:rollout=-1",
                                  "mcts:policy=chess"])
def test_an_unknown_kind_or_setting_is_refused_in_one_line(text):
    with pytest.raises(BotError) as err:
        parse_bot(text)
    assert "\n" not in str(err.value)


# -- deterministic, and playing to the end ------------------------------------------------------------------
def _play_to(table: Table, rng: random.Random, moves: int):
    position = table.initial()
    while (o := table.to_act(position)).actor is not None:
        if o.actor == CHANCE:
            position = table.draw(position, rng.randrange(o.outcomes))
        elif position.moves >= moves:
            return position
        else:
            legal = table.legal(position)
            going_on = [a for a in legal if table.codec.text(a) != "resign"] or list(legal)
            position = table.play(position, legal[rng.choice(going_on)])
    return position


@pytest.mark.parametrize("kind", list(QUICK))
@pytest.mark.parametrize("game,options,moves", [("soli2", {}, 60), ("solo-dice", {}, 5), ("solari", {}, 10),
                                                ("solar-solitaire", {}, 8), ("solarius-mission", {}, 15)])
def test_a_bot_is_deterministic_given_its_seed(kind, game, options, moves):
    table = Table(game, options)
    position = _play_to(table, random.Random(7), moves)
    seat = table.to_act(position).actor
    assert seat not in (None, CHANCE)
    first = make_bot(QUICK[kind]).decide(table, position, seat, 11)
    again = make_bot(QUICK[kind]).decide(table, position, seat, 11)
    assert first == again
    assert first.action in table.legal(position)


def test_greedy_takes_the_best_immediate_change():
    table = Table("soli2")
    position = _play_to(table, random.Random(3), 70)
    seat = table.to_act(position).actor
    decision = make_bot("greedy").decide(table, position, seat, 1)
    assert decision.value_of(decision.action) == max(v for _, v in decision.values)


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_bots_finish_a_soli2_duel(kind):
    from solrec.ai.bots import play_out

    table = Table("soli2")
    bots = {p: make_bot(QUICK[kind]) for p in table.players}
    end = play_out(table, table.initial(), bots, 5, random.Random(5))
    assert table.over(end)


# -- per-game settings (docs/ai.md, "Per-game settings") ------------------------------------------------
def test_solarius_mission_has_its_own_mcts_defaults_and_the_other_games_keep_the_common_ones():
    from solrec.ai.contract import SETTINGS, defaults

    for game in ("solari", "soli2", "solo-dice", "solar-solitaire"):
        assert defaults("mcts", game) == SETTINGS["mcts"]
    mission = defaults("mcts", "solarius-mission")
    assert mission["policy"] == "sampler" and mission["widening"] > 0
    assert SETTINGS["mcts"]["policy"] == "random" and SETTINGS["mcts"]["widening"] == 0


def test_the_widened_tree_adds_children_in_the_order_of_the_prior_a_few_per_visits():
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    from solrec.ai.search import WideningISMCTSBot

    bot = WideningISMCTSBot(None, None, 1.0, 10, widening=1.0)
    node = ismcts.ISMCTSNode()
    node.prior_map = {3: 0.1, 5: 0.6, 9: 0.3}
    node.total_visits = 0
    assert bot.check_expand(node, [3, 5, 9]) == 5
    node.child_info[5] = ismcts.ChildInfo(1, 0.0, 0.6)
    assert bot.check_expand(node, [3, 5, 9]) == pyspiel.INVALID_ACTION  # one child for one visit
    node.total_visits = 3  # ceil(sqrt(4)) = 2 children
    assert bot.check_expand(node, [3, 5, 9]) == 9


# -- fair by test -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("setup", ["solar-solitaire-seeded", "solar-solitaire-entered", "solari-dominoes-hidden",
                                   "soli2-pouch", "solo-dice", "solarius-mission-2-cards", "solarius-mission-3-choose"])
@pytest.mark.parametrize("kind", list(QUICK))
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_two_positions_a_seat_cannot_tell_apart_give_the_same_move(setup, kind, data):
    pair = data.draw(pairs(setup))
    table_a, table_b = table_of(pair.header_a), table_of(pair.header_b)
    a, b = table_a.follow(pair.steps_a), table_b.follow(pair.steps_b)
    if table_a.to_act(a).actor != pair.seat:
        return  # the seat is not to act at the end of this pair
    seed = data.draw(st.integers(0, 2**32))
    one = make_bot(QUICK[kind]).decide(table_a, a, pair.seat, seed)
    two = make_bot(QUICK[kind]).decide(table_b, b, pair.seat, seed)
    assert one == two


def test_the_resampler_keeps_what_the_seat_sees_and_redraws_the_stock():
    table = Table("solar-solitaire", players=["Solo"])
    position = _play_to(table, random.Random(2), 6)
    drawn = {resample(table, position, "Solo", random.Random(k)).state.stock for k in range(5)}
    assert len(drawn) > 1
    for k in range(5):
        world = resample(table, position, "Solo", random.Random(k))
        assert sorted(world.state.stock) == sorted(position.state.stock)
        assert table.information_state_string(world, "Solo") == table.information_state_string(position, "Solo")


# -- where people meet them --------------------------------------------------------------------------------
def test_simulate_seats_bots_records_them_and_the_games_validate(cli):
    data = cli.json("simulate", "soli2", "--player", "Ann=bot:greedy", "--player", "Bob=bot:random", "--games", "2",
                    "--seed", "4")
    assert data["bots"] == {"Ann": "greedy", "Bob": "random"}
    report = cli.json("validate", "--all")
    assert report["valid"] == 2 and report["invalid"] == 0
    notes = cli.json("note", data["ids"][0])["notes"]
    assert notes[0]["by"] == "solrec simulate" and "Ann is the bot greedy" in notes[0]["text"]
    again = cli.json("simulate", "soli2", "--player", "Ann=bot:greedy", "--player", "Bob=bot:random", "--games", "2",
                     "--seed", "4")
    assert again["summary"] == data["summary"]


def test_a_bad_bot_seat_is_refused_with_exit_2(cli):
    out = cli.run("simulate", "soli2", "--player", "Ann=bot:chess", "--player", "Bob", expect=2)
    assert "unknown bot kind" in out.stderr


def test_hint_suggests_a_command_for_the_seat_to_act_only(cli):
    cli.run("new", "soli2", "--player", "Ann", "--player", "Bob", "--seed", "4", "--id", "duel")
    data = cli.json("hint", "duel", "--as", "Ann", "--bot", "greedy")
    assert data["command"].startswith("place ") and -1 <= data["estimate"] <= 1
    cli.run("hint", "duel", "--as", "Bob", expect=2)


def test_review_marks_at_the_documented_thresholds():
    assert [mark_of(x) for x in (0.05, 0.1, 0.2, 0.3, 0.9)] == ["", "?!", "?", "??", "??"]
    assert [m for m, _, _ in THRESHOLDS] == ["??", "?", "?!"]


def test_review_marks_the_planted_blunder_and_stores_it_as_a_comment(cli):
    record = FIXTURES / "review" / "soli2" / "duel-planted-blunder.jsonl"
    gid = cli.json("import", str(record))["id"]
    data = cli.json("review", gid, "--bot", "greedy")
    blunders = [m for m in data["moves"] if m["mark"] == "??"]
    assert [m["number"] for m in blunders if m["played"] == PLANTED[1]] == [PLANTED[0]]
    notes = cli.json("note", gid)["notes"]
    assert any(n["by"] == "solrec review" and n["mark"] == "??" and n["position"] == blunders[0]["position"] for n in notes)
    assert cli.json("review", gid, "--bot", "greedy", "--no-store")["moves"] == data["moves"]
    cli.run("review", gid, "--bot", "greedy", expect=2)  # reviewed already: nothing stored twice


def test_the_default_review_marks_the_planted_blunder_a_blunder(cli):
    """The default bot (mcts) weighs the planted move ?? as well: its choice and the greedy bot's best
    moves are valued again with the move played, by the same roll-outs (docs/ai.md, "Review")."""
    record = FIXTURES / "review" / "soli2" / "duel-planted-blunder.jsonl"
    gid = cli.json("import", str(record))["id"]
    data = cli.json("review", gid, "--no-store")
    assert data["bot"] == "mcts"
    planted = [m for m in data["moves"] if m["number"] == PLANTED[0]]
    assert planted and planted[0]["played"] == PLANTED[1] and planted[0]["mark"] == "??"


def test_a_stored_review_names_the_better_move_only_where_every_seat_saw_the_position(cli):
    """Every seat reads the comments: where the table did not see all that the player saw (Solar
    Solitaire's unturned stock), the stored comment gives the mark and the loss, not the better move
    (it could name what only the player saw); the review's own output, the referee's, still has it."""
    from solrec.ai.records import Weighed

    gid = cli.json("simulate", "solar-solitaire", "--games", "1", "--seed", "3")["ids"][0]
    hidden = cli.json("review", gid, "--bot", "greedy", "--no-store")["moves"]
    assert hidden and all(m["named"] is False and m["best"] for m in hidden)
    record = FIXTURES / "review" / "soli2" / "duel-planted-blunder.jsonl"
    duel = cli.json("review", cli.json("import", str(record))["id"], "--bot", "greedy", "--no-store")["moves"]
    assert duel and all(m["named"] is True for m in duel)
    weighed = Weighed(3, 9, "Ann", "a6-a4", "c4-a4", 0.39, "??", named=False)
    assert "c4-a4" not in weighed.text("greedy") and "0.39" in weighed.text("greedy")
    assert "c4-a4" in attrs.evolve(weighed, named=True).text("greedy")


PLANTED = (111, "a6-a4")  # move 111 of the fixture: the jump that leaves Ann's lead the lowest


def test_simulate_seats_bots_at_solarius_mission_and_the_games_validate(cli):
    data = cli.json("simulate", "solarius-mission", "--player", "Ann=bot:greedy", "--player", "Bob", "--games", "1",
                    "--seed", "2")
    assert data["bots"] == {"Ann": "greedy"}
    report = cli.json("validate", "--all")
    assert report["valid"] == 1 and report["invalid"] == 0


def test_the_solarius_resampler_keeps_what_the_seat_sees_and_redraws_the_hidden_cards():
    table = Table("solarius-mission", {}, ["Ann", "Bob", "Cid"])
    position = _play_to(table, random.Random(5), 12)
    seat = table.to_act(position).actor
    hands = set()
    for k in range(6):
        world = resample(table, position, seat, random.Random(k))
        assert table.observation_string(world, seat) == table.observation_string(position, seat)
        assert world.state.mats[position.state.index(seat)].hand == position.state.mats[position.state.index(seat)].hand
        hands.add(tuple(m.hand for m in world.state.mats) + (world.state.deck,))
    assert len(hands) > 1  # the other hands and the deck are drawn anew


@pytest.mark.slow  # a whole mcts game of Solar Solitaire: half a minute of CPU
def test_the_solver_bot_never_moves_back_to_a_position_seen_since_the_last_card():
    """A free move back where the player already stood since a card was last turned or played is a
    detour (docs/ai.md): the bot's games end, with no position seen twice between two such cards."""
    from solrec.ai.bots import play_out
    from solrec.core.solar_solitaire.commands import Move

    table = Table("solar-solitaire")
    for seed in (1,):  # the bench's game 1, where the default bot shuttled a card between two pads
        end = play_out(table, table.initial(), {table.players[0]: make_bot("mcts")}, seed,
                       random.Random(f"bench-chance:{seed}"), max_moves=150)
        assert table.over(end)
        seen: set[str] = set()
        p = end
        while p is not None:
            here = table.observation_string(p, table.players[0])
            assert here not in seen
            seen.add(here)
            if p.actor == CHANCE or not isinstance(p.command, Move):
                seen = set()  # a card turned or played: progress
            p = p.parent
