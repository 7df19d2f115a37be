"""``solrec balance``: what a rule change does to games not yet played (docs/balance.md). The games
are played by ``solrec.ai.balance``, counted by ``solrec.ai.stats``, drawn by ``solrec.ai.balance_page``
(the ``balance`` extra); this module checks the input, runs them, keeps them and writes the report."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.errors import InvalidSetup
from solrec.core.words import quoted

from .app import EXIT_PROBLEM, GameName, Json, command, emit, plural, workflows
from .errors import UsageRefused
from .impact import cluster_address

Cluster = Annotated[
    str | None,
    typer.Option("--cluster", metavar="ADDRESS", help="Play the games on this Dask cluster (tcp://HOST:8786; pip install "
                                                      "'solrec[cluster]'); the workers need solrec[balance], no shared files."),
]

KEEP_BATCH = 500  # kept games written per transaction
MAX_LINES = 8  # kinds of score line listed in the text report, the largest differences first
LADDER = "random,greedy,mcts"  # --bot-ladder: the bots of docs/ai.md, weakest to strongest
SMALL_RUN = 32  # games: below this, starting worker processes costs more than it saves


def _extra() -> None:
    try:
        import numpy  # noqa: F401

        import solrec.ai.balance  # noqa: F401
    except ImportError as err:
        raise UsageRefused(f"balance needs the balance extra (pip install 'solrec[balance]'): {err}") from None


def _shown_options(game: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A set's options as a report names them: those not at the game's default; a component set by its
    name and digest, never its content."""
    import attrs

    defaults = {f.name: f.default for f in attrs.fields(game.Options)}
    out = {k: v for k, v in sorted(options.items()) if defaults.get(k) != v and k != "components_data"}
    if "components_digest" in out:
        out["components_digest"] = str(out["components_digest"])[:16]
    return out


def change_words(a: dict[str, Any], b: dict[str, Any]) -> str:
    """The change between two sets, as ``target 36 -> 72``; "no change" where they are equal."""
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k not in ("components_data", "components_digest"))
    if not keys:
        return "no change" if a.get("components_digest") == b.get("components_digest") else "components (content)"
    return ", ".join(f"{k} {_word(a.get(k))} -> {_word(b.get(k))}" for k in keys)


def _word(value: Any) -> str:
    from solrec.core import words

    return words.value(value)


@command("balance")
def balance_cmd(
    game_name: GameName,
    games: Annotated[int | None, typer.Option("--games", min=1, max=100_000_000, help="Games per option set (paired: game k of each set is played with the same seeds). Not with --sprt, which plays until it decides (--max-games).")] = None,
    players: Annotated[int | None, typer.Option("--players", min=1, help="How many players (default: the game's own count).")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", metavar="KIND[:SETTINGS]", help="The bot of every seat, or one per seat (repeat): random, greedy, mcts, policy (docs/ai.md), or sampler (the game's own random player, as simulate plays); default greedy. The bots are rotated one seat per game.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="A setup option of the first set (repeat the option).")] = None,
    against: Annotated[list[str] | None, typer.Option("--against", metavar="KEY=VALUE", help="The second set: the first set with this option changed (repeat the option).")] = None,
    components: Annotated[Path | None, typer.Option("--components", help="The first set's component set (a folder or a TOML file).")] = None,
    against_components: Annotated[Path | None, typer.Option("--against-components", help="The second set's component set.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", min=1, max=1024, help="Worker processes on this machine (default: every CPU; 1 for a run of few games).")] = None,
    cluster: Cluster = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run: the same seed, the same report.")] = 0,
    max_moves: Annotated[int, typer.Option("--max-moves", min=1, help="A game not over after this many moves is counted as stuck.")] = 100_000,
    sprt_text: Annotated[str | None, typer.Option("--sprt", metavar="METRIC:H0:H1", help="A sequential test: play pairs in batches until the evidence accepts H0 or H1 (length-ratio:0:0.2 asks \"do games last 20% longer?\"; first-seat:0:5, in points; score:LINE). Exits 1 when H1 is accepted.")] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="With --sprt: the rate of accepting H1 where H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="With --sprt: the rate of accepting H0 where H1 holds.")] = 0.05,
    max_games: Annotated[int | None, typer.Option("--max-games", min=1, max=100_000_000, help="With --sprt: stop undecided after this many pairs (default 1000).")] = None,
    bots_ladder: Annotated[str | None, typer.Option("--bots", metavar="KIND,KIND,...", help="A strength ladder: the same comparison with each bot at every seat in turn (e.g. greedy,mcts); says whether the verdict holds at every one.")] = None,
    bot_ladder: Annotated[bool, typer.Option("--bot-ladder", help=f"The strength ladder {LADDER}: as --bots {LADDER}.")] = False,
    keep: Annotated[Path | None, typer.Option("--keep", metavar="DB", help="Store every game played in this database (replay, validate, impact open them).")] = None,
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE", help="Write the report as one self-contained page with plots.")] = None,
    evaluator: Annotated[str, typer.Option("--evaluator", metavar="score|mcts[:SETTINGS]", help="How Ludii's measures value a position: score (the score lead, default) or mcts (the mcts bot's estimate; slow).")] = "score",
    as_json: Json = False,
) -> None:
    """Play the same games under one option set and another (--against) and report what changed.

    Per set: the win rate of each seat and each bot, the scores (mean, spread, quantiles), the length
    in moves, how the games ended, stuck games; for two sets each difference with its 95% interval
    (a paired bootstrap) and a verdict in words. With --sprt, a sequential test decides how many pairs
    to play; with --bots, the comparison is made at each strength. The same seed gives the same
    report, byte for byte, on one core, --jobs N or a Dask cluster.
    """
    from solrec.core.options import split_assignments
    from solrec.core.play import SEEDED, make_header
    from solrec.core.registry import get_game

    _extra()
    from solrec.ai import balance, sprt
    from solrec.ai.bots import BotError

    address = cluster_address(cluster)
    if address is not None and jobs is not None:
        raise UsageRefused("give --jobs N or --cluster ADDRESS, not both")
    test = None
    if sprt_text is not None:
        if games is not None:
            raise UsageRefused("--sprt plays until it decides: give --max-games N, not --games")
        try:
            test = sprt.parse(sprt_text, alpha, beta)
        except sprt.SprtError as err:
            raise UsageRefused(str(err)) from None
        if against is None and against_components is None:
            raise UsageRefused("--sprt compares two sets: give the change with --against KEY=VALUE")
    elif games is None:
        raise UsageRefused("give --games N (games per set), or --sprt METRIC:H0:H1 to play until a test decides")
    elif max_games is not None or alpha != sprt.DEFAULT_ALPHA or beta != sprt.DEFAULT_BETA:
        raise UsageRefused("--max-games, --alpha and --beta belong to --sprt METRIC:H0:H1")
    count = games if games is not None else max_games or sprt.DEFAULT_MAX_GAMES
    if bot_ladder and bots_ladder is not None:
        raise UsageRefused(f"--bot-ladder is --bots {LADDER}: give one of them")
    ladder_text = LADDER if bot_ladder else bots_ladder
    if ladder_text is not None and bot:
        raise UsageRefused("--bots plays each bot at every seat in turn: give --bot or --bots, not both")
    if ladder_text is not None and keep is not None:
        raise UsageRefused("--keep stores one run's games: give --bot KIND for one strength, not --bots")
    if jobs is None:
        from solrec.replay.corpus import available_cpus

        jobs = available_cpus() if count >= SMALL_RUN else 1
    game = get_game(game_name)
    first = split_assignments(option or [])
    if components is not None:
        from .components import options_for

        first.update(options_for(game.id, components))
    two = against is not None or against_components is not None
    second = {**first, **split_assignments(against or [])}
    if against_components is not None:
        from .components import options_for

        second.update(options_for(game.id, against_components))
    from solrec.core.options import parse_options

    default = tuple(game.default_players_for(parse_options(game.Options, dict(first))))
    names = default if players is None or players == len(default) else tuple(f"Player {i}" for i in range(1, players + 1))
    sets = [make_header(game, names, first, SEEDED, 0)]
    if two:
        try:
            sets.append(make_header(game, names, second, SEEDED, 0))
        except InvalidSetup as err:
            raise InvalidSetup(f"--against: {err}") from None
    try:
        rungs = [balance.parse_bots([b], len(names)) for b in ladder_bots(ladder_text)] if ladder_text is not None \
            else [balance.parse_bots(bot or [], len(names))]
    except BotError as err:
        raise UsageRefused(str(err)) from None
    tabled = balance.has_table(game.id, sets[0].options_dict(), names)
    if not tabled and not bot and ladder_text is None:
        rungs = [(balance.BotSpec(balance.SAMPLER),)]  # the one kind such a game has: said in the report
    plans = [balance.Plan(game.id, tuple(names), bots, tuple(h.options for h in sets), seed, max_moves, keep is not None,
                          tabled, evaluator.strip()) for bots in rungs]
    if test is not None:
        kind, _, key = test.metric.partition(":")
        if kind in ("win", "score") and key.isdigit() and not 1 <= int(key) <= len(names):
            raise UsageRefused(f"--sprt {test.metric}: seats are numbered 1 to {len(names)}")
        if kind == "bot" and any(key not in {str(b) for b in plan.bots} for plan in plans):
            raise UsageRefused(f"--sprt {test.metric}: no bot {quoted(key)} plays (the bots: "
                               f"{', '.join(sorted({str(b) for plan in plans for b in plan.bots}))})")
    for plan in plans:
        why = balance.refusal(plan)
        if why is not None:
            raise UsageRefused(why)
    if html is not None and not html.parent.is_dir():
        raise InvalidSetup(f"no folder {html.parent} to write {html.name} in")
    if html is not None and html.is_dir():
        raise InvalidSetup(f"{html} is a folder, not a file to write the page to")
    store = None
    if keep is not None:
        if keep.is_dir():
            raise InvalidSetup(f"--keep {keep} is a folder, not a database file")
        store = workflows().open_store(keep, create=True)
        store.game_ids()  # a file that is not a solrec database is refused before anything is played

    shown = [_shown_options(game, h.options_dict()) for h in sets]
    change = change_words(sets[0].options_dict(), sets[1].options_dict()) if two else "one set"
    reports = [_compare(plan, count, test, jobs, address, _Keeper(store, plan, sets) if store is not None else None,
                        as_json, change, shown, ladder_text is not None) for plan in plans]
    if ladder_text is None:
        data: dict[str, Any] = {
            "game": game.id, "players": list(names), "bots": reports[0]["bots"], "games": reports[0]["games"],
            "seed": seed, "max_moves": max_moves, "change": change, **{k: v for k, v in reports[0].items() if k not in ("bots", "games")}}
    else:
        data = {"game": game.id, "players": list(names), "bots": [r["bots"][0] for r in reports], "seed": seed,
                "max_moves": max_moves, "change": change, "ladder": ladder_of(reports, test is not None), "rungs": reports}
        data["verdict"] = [data["ladder"]["said"]]
    if html is not None:
        from solrec.ai.balance_page import page

        html.write_text(page(data), encoding="utf-8")
        data["wrote"] = str(html)
    emit(as_json, data, "\n".join(ladder_lines(data) if ladder_text is not None else report_lines(data)))
    if any((r.get("sprt") or {}).get("accepted") == "H1" for r in reports):
        raise typer.Exit(EXIT_PROBLEM)  # the gate: a change that should not move the measure moved it


def ladder_bots(text: str) -> list[str]:
    """``--bots greedy,mcts:simulations=50,rollout=4``: one bot a rung; a ``KEY=VALUE`` after a comma
    is a setting of the bot before it."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if "=" in part and ":" not in part and out:
            out[-1] += f",{part}"
        elif part:
            out.append(part)
    if not out:
        raise UsageRefused("--bots names one bot or more: KIND,KIND,... (e.g. greedy,mcts)")
    return out


def _compare(plan: Any, count: int, test: Any, jobs: int, address: str | None, kept: Any, as_json: bool,
             change: str, shown: list[dict[str, Any]], ladder: bool = False) -> dict[str, Any]:
    """One comparison: ``count`` games per set, or with ``test`` pairs until it decides (at most
    ``count``); the report of the games played: bots, games, sets, differences, verdict (and sprt)."""
    from solrec.ai import balance, metrics, sprt, stats, verdict

    samples = [stats.Sample(count) for _ in plan.sets]
    measured = [stats.Sample(count) for _ in plan.sets]  # Ludii's measures (solrec.ai.metrics)
    played = 0
    identical = True
    last = None

    def play(progress: Any) -> None:
        nonlocal played, identical, last
        pairs = balance.run(plan, count, jobs, address, progress, sprt.BATCH if test is not None else None)
        try:
            for pair in pairs:
                for which, one in enumerate(pair):
                    samples[which].put(one.k, stats.row_of(one))
                    measured[which].put(one.k, metrics.columns_of(one))
                if kept is not None:
                    kept.add(pair)
                played += 1
                identical = identical and len(pair) == 2 and _alike(*pair)
                if test is not None and (played % sprt.BATCH == 0 or played == count):
                    last = _look(test, samples, played, identical)
                    if last.accepted is not None:
                        break
        finally:
            pairs.close()  # a decided test: the batches running ahead are dropped
        if kept is not None:
            kept.flush()

    label = f"playing {plan.game}" + (f" ({', '.join(str(b) for b in plan.bots)})" if ladder else "")
    if not as_json and sys.stderr.isatty():
        with typer.progressbar(length=count, label=label, file=sys.stderr) as bar:
            play(bar.update)
    else:
        play(None)
    if played < count:
        samples = [_first(s, played) for s in samples]
        measured = [_first(s, played) for s in measured]
    names = plan.players
    labels = stats.labels_of(samples)
    analysis = stats.analyse(samples, plan.seed, names, labels)
    out: dict[str, Any] = {
        "bots": [str(b) for b in plan.bots], "games": played,
        "sets": [{"name": name, "options": opts, **s} for name, opts, s in zip(("first", "second"), shown, analysis["sets"])],
    }
    if "differences" in analysis:
        out["differences"] = analysis["differences"]
    # the verdict: a sentence per question (ai/verdict.py); the score lines' rules as footnotes
    found = verdict.findings(analysis, names, out["bots"])
    out["verdict"] = [f["sentence"] for f in found]
    out["findings"] = found
    if "differences" in analysis:
        out["footnotes"] = verdict.footnotes(analysis["differences"])
    out["evaluator"] = plan.evaluator
    out["metrics"] = metrics.analyse(measured, plan.seed, names, plan.evaluator.partition(":")[0])
    if test is not None:
        if last is None:
            last = _look(test, samples, played, identical)
        a, b = _metric(test, samples, played)
        out["sprt"] = sprt.summary(test, last, count, sprt.interval(test, a, b, plan.seed) if a is not None else None)
    if kept is not None:
        out["kept"] = kept.summary()
    return out


def _alike(a: Any, b: Any) -> bool:
    """Game k under both sets the same in every number the report measures."""
    return bool((a.moves, a.events, a.scores, a.wins, a.result, a.ending, a.lines)
                == (b.moves, b.events, b.scores, b.wins, b.result, b.ending, b.lines))


def _first(sample: Any, n: int) -> Any:
    from solrec.ai import stats

    out = stats.Sample(n)
    out.columns = {name: column[:n].copy() for name, column in sample.columns.items()}
    return out


def _metric(test: Any, samples: list[Any], n: int) -> tuple[Any, Any]:
    """The metric's number in each of the first ``n`` games of each set (summed over its columns), or
    (None, None) where no game played has it (a ``score:LINE`` no line matched)."""
    from solrec.ai import sprt

    names = sorted(set().union(*(s.columns for s in samples)))
    columns = sprt.columns_of(test.metric, names)
    if not columns:
        if test.metric.partition(":")[0] == "score" and not test.metric.partition(":")[2].isdigit():
            return None, None
        return samples[0].column(test.metric)[:n] * 0, samples[1].column(test.metric)[:n] * 0
    first, second = (sum(s.column(c)[:n] for c in columns) for s in samples)
    return first, second


def _look(test: Any, samples: list[Any], n: int, identical: bool) -> Any:
    from solrec.ai import sprt

    a, b = _metric(test, samples, n)
    if a is None:
        return sprt.Look(n, 0.0, 0.0, None, f"no game played has a score line whose rule holds "
                                            f"{quoted(test.metric.partition(':')[2])}")
    return sprt.look(test, a, b, identical)


def ladder_of(reports: list[dict[str, Any]], sequential: bool) -> dict[str, Any]:
    """Whether the verdict holds at every strength: with --sprt the same hypothesis accepted at each;
    else the same direction (up, down, or unchanged: the interval holds 0) of the length and of each
    seat's win rate."""
    rungs = []
    for r in reports:
        if sequential:
            answer: Any = r["sprt"]["accepted"]
        else:
            answer = {d["what"]: ("unchanged" if d["covers_zero"] else "up" if d["difference"] > 0 else "down")
                      for d in r.get("differences", []) if d["what"] == "length" or d["what"].startswith("win:")}
        rungs.append({"bot": r["bots"][0], "games": r["games"], "answer": answer})
    holds = len(reports) > 0 and all(x["answer"] == rungs[0]["answer"] for x in rungs) and rungs[0]["answer"] is not None
    if sequential:
        each = ", ".join(f"{x['bot']}: {x['answer'] or 'undecided'} ({x['games']} pairs)" for x in rungs)
    else:
        each = "; ".join(f"{x['bot']}: " + ", ".join(f"{_said(k)} {v}" for k, v in x["answer"].items()) for x in rungs)
    said = (f"the verdict holds at every strength ({each})" if holds
            else f"the verdict does not hold at every strength ({each})")
    return {"bots": [x["bot"] for x in rungs], "holds": holds, "rungs": rungs, "said": said}


def _said(what: str) -> str:
    kind, _, seat = what.partition(":")
    return "length" if kind == "length" else f"seat {seat} wins"


def ladder_lines(data: dict[str, Any]) -> list[str]:
    """A ladder as text: the answer, then each strength's report."""
    lines = [f"{data['game']} balance, strength ladder {', '.join(data['bots'])}: {data['change']}",
             "verdict: " + data["ladder"]["said"]]
    for rung in data["rungs"]:
        lines.append(f"=== bot {rung['bots'][0]} at every seat")
        lines += report_lines({**{k: v for k, v in data.items() if k not in ("rungs", "ladder", "wrote")}, **rung})
    if "wrote" in data:
        lines.append(f"wrote {data['wrote']}")
    return lines


class _Keeper:
    """The games of a run stored as they come (``--keep``), in batches of whole games: game k of the
    first set, then of the second, k = 1, 2, ...; each with its first comment naming its bots."""

    def __init__(self, store: Any, plan: Any, sets: list[Any]):
        from solrec.core.registry import get_game
        from solrec.events.envelope import codec_for

        self.store, self.plan = store, plan
        self.codec = codec_for(get_game(plan.game))
        self.batch: list[Any] = []
        self.ids: list[str] = []

    def add(self, pair: tuple[Any, ...]) -> None:
        self.batch.append(pair)
        if len(self.batch) >= KEEP_BATCH:
            self.flush()

    def flush(self) -> None:
        from solrec.ai.balance import kept_note
        from solrec.core.registry import get_game
        from solrec.events import notes
        from solrec.events.store import NewGame

        from .session import result_of

        if not self.batch:
            return
        game = get_game(self.plan.game)
        new, played_of = [], []
        for pair in self.batch:
            for which, played in enumerate(pair):
                header = self.plan.header(which, played.k)
                state = _final_state(game, header, played.steps)
                scores, outcome = result_of(game, state)
                new.append(NewGame(header, list(played.steps), scores, outcome))
                played_of.append(played)
        ids = self.store.create_games(new, self.codec)
        for gid, played in zip(ids, played_of):
            notes.add_many(self.store, gid, [kept_note(played)])
            self.ids.append(gid)
        self.batch = []

    def summary(self) -> dict[str, Any]:
        from .session import id_span

        sets = len(self.plan.sets)
        return {"db": str(self.store.path), "games": len(self.ids), "ids": id_span(self.ids) if self.ids else "",
                "order": "game 1 of each set in turn, then game 2, ..." if sets == 2 else "game 1, 2, ...",
                "first": self.ids[:sets], "last": self.ids[-sets:]}


def _final_state(game: Any, header: Any, steps: Any) -> Any:
    from solrec.core.play import fold, initial_state

    state = initial_state(game, header)
    for step in steps:
        state = fold(game, state, step.events)
    return state


def report_lines(data: dict[str, Any]) -> list[str]:
    """The report as text: the verdict first (a sentence per question, the rules it cites as
    footnotes), then the run, each set and the differences, in the digits their intervals make
    meaningful; no row for what cannot differ (a bot's win rate when it plays every seat)."""
    from solrec.ai import verdict

    n = data["games"]
    two = len(data["sets"]) == 2
    shown = verdict.shown_differences(data)
    loud = sorted((d for d in shown if d["what"].startswith("line:") and not d["covers_zero"]),
                  key=lambda d: (-abs(d["difference"]), d["what"]))
    quiet = [d for d in shown if d["what"].startswith("line:") and d["covers_zero"]] + loud[MAX_LINES:]
    listed = [d for d in shown if d not in quiet]
    notes = data.get("footnotes", [])
    marks = verdict.marks_of(notes)
    cited = {marks[d["what"]] for d in listed if d["what"] in marks}
    cited |= {int(m) for sentence in data["verdict"] for m in re.findall(r"\[(\d+)\]", sentence)}
    lines = [f"verdict: {data['change']}" + (f", {plural(n, 'paired game')} per set:" if two else f", {plural(n, 'game')}:")]
    lines += [f"  {sentence}" for sentence in data["verdict"]]
    lines += [f"  [{note['mark']}] {note['rule']}" for note in notes if note["mark"] in cited]
    lines.append(f"{data['game']} balance: {plural(n, 'game')}{' per set, paired' if two else ''}; "
                 f"{', '.join(data['players'])}; bots {', '.join(data['bots'])} (rotated one seat a game); seed {data['seed']}")
    for s in data["sets"]:
        opts = ", ".join(f"{k}={_word(v)}" for k, v in s["options"].items()) or "the defaults"
        lines.append(f"{s['name']} set: {opts}")
    if "sprt" in data:
        from solrec.ai.sprt import words as sprt_words

        lines.append("sequential test: " + sprt_words(data["sprt"]))
    one_bot = len(set(data["bots"])) == 1
    for s in data["sets"]:
        length = s["length"]
        q = length["quantiles"]
        at = verdict.mean_places(length, s["games"])
        lines.append(f"== {s['name']} set: {plural(s['games'], 'game')}, {s['stuck']} stuck")
        lines.append(f"  length: mean {verdict.number(length['mean'], at)} moves (sd {verdict.spread(length['sd'])}); "
                     "quantiles 5/25/50/75/95: " + "/".join(verdict.number(q[k], at) for k in ("5", "25", "50", "75", "95"))
                     if q else "  length: none")
        for seat in s["seats"]:
            w, sc = seat["win_rate"], seat["score"]
            rate, between = verdict.rate_with_interval(w)
            at = verdict.mean_places(sc, s["games"])
            lines.append(f"  seat {seat['seat']} {seat['player']}: wins {rate} ({between}); score mean "
                         f"{verdict.number(sc['mean'], at)}, sd {verdict.spread(sc['sd'])}, median "
                         f"{verdict.number(sc['quantiles'].get('50', 0), at)}, {verdict.number(sc['min'], at)} to "
                         f"{verdict.number(sc['max'], at)}")
        for b in () if one_bot else s["bots"]:
            lines.append(f"  bot {b['bot']}: wins {verdict.rate_with_interval(b['win_rate'])[0]}")
        for e in s["endings"]:
            lines.append(f"  ended: {e['ending']}: {e['games']} ({verdict.points(e['share']['mean'], 0)}%)")
    if "differences" in data:
        lines.append("== differences (second - first), 95% intervals (paired bootstrap); * the interval excludes 0")
        for d in listed:
            values, change, between, relative = verdict.difference_cells(d)
            mark = " " if d["covers_zero"] else "*"
            lines.append(f" {mark} {verdict.named(d['what'], d['label'], marks)}: {values}, {change} [{between}]"
                         + (f"; {relative[0]} [{relative[1]}]" if relative else ""))
        if quiet:
            lines.append(f"   {plural(len(quiet), 'other kind')} of score line (--json lists them)")
    if "metrics" in data:
        from solrec.ai.metrics import report_lines as metric_lines

        lines += metric_lines(data["metrics"])
    if "kept" in data:
        k = data["kept"]
        lines.append(f"kept {plural(k['games'], 'game')} in {k['db']}: {k['ids']} ({k['order']})")
    if "wrote" in data:
        lines.append(f"wrote {data['wrote']}")
    return lines
