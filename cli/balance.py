"""``solrec balance``: what a rule change does to games not yet played (docs/balance.md). The games
are played by ``solrec.ai.balance``, counted by ``solrec.ai.stats``, drawn by ``solrec.ai.balance_page``
(the ``balance`` extra); this module checks the input, runs them, keeps them and writes the report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.errors import InvalidSetup

from .app import GameName, Json, command, emit, plural, workflows
from .errors import UsageRefused
from .impact import cluster_address

Cluster = Annotated[
    str | None,
    typer.Option("--cluster", metavar="ADDRESS", help="Play the games on this Dask cluster (tcp://HOST:8786; pip install "
                                                      "'solrec[cluster]'); the workers need solrec[balance], no shared files."),
]

KEEP_BATCH = 500  # kept games written per transaction
MAX_LINES = 8  # kinds of score line listed in the text report, the largest differences first
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
    games: Annotated[int, typer.Option("--games", min=1, max=100_000_000, help="Games per option set (paired: game k of each set is played with the same seeds).")],
    players: Annotated[int | None, typer.Option("--players", min=1, help="How many players (default: the game's own count).")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", metavar="KIND[:SETTINGS]", help="The bot of every seat, or one per seat (repeat): random, greedy, mcts (docs/ai.md), or sampler (the game's own random player, as simulate plays); default greedy. The bots are rotated one seat per game.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="A setup option of the first set (repeat the option).")] = None,
    against: Annotated[list[str] | None, typer.Option("--against", metavar="KEY=VALUE", help="The second set: the first set with this option changed (repeat the option).")] = None,
    components: Annotated[Path | None, typer.Option("--components", help="The first set's component set (a folder or a TOML file).")] = None,
    against_components: Annotated[Path | None, typer.Option("--against-components", help="The second set's component set.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", min=1, max=1024, help="Worker processes on this machine (default: every CPU; 1 for a run of few games).")] = None,
    cluster: Cluster = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run: the same seed, the same report.")] = 0,
    max_moves: Annotated[int, typer.Option("--max-moves", min=1, help="A game not over after this many moves is counted as stuck.")] = 100_000,
    keep: Annotated[Path | None, typer.Option("--keep", metavar="DB", help="Store every game played in this database (replay, validate, impact open them).")] = None,
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE", help="Write the report as one self-contained page with plots.")] = None,
    evaluator: Annotated[str, typer.Option("--evaluator", metavar="score|mcts[:SETTINGS]", help="How Ludii's measures value a position: score (the score lead, default) or mcts (the mcts bot's estimate; slow).")] = "score",
    as_json: Json = False,
) -> None:
    """Play the same games under one option set and another (--against) and report what changed.

    Per set: the win rate of each seat and each bot, the scores (mean, spread, quantiles), the length
    in moves, how the games ended, stuck games; for two sets each difference with its 95% interval
    (a paired bootstrap) and a verdict in words. The same seed gives the same report, byte for byte,
    on one core, --jobs N or a Dask cluster.
    """
    from solrec.core.options import split_assignments
    from solrec.core.play import SEEDED, make_header
    from solrec.core.registry import get_game

    _extra()
    from solrec.ai import balance, metrics, stats
    from solrec.ai.bots import BotError

    address = cluster_address(cluster)
    if address is not None and jobs is not None:
        raise UsageRefused("give --jobs N or --cluster ADDRESS, not both")
    if jobs is None:
        from solrec.replay.corpus import available_cpus

        jobs = available_cpus() if games >= SMALL_RUN else 1
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
        bots = balance.parse_bots(bot or [], len(names))
    except BotError as err:
        raise UsageRefused(str(err)) from None
    tabled = balance.has_table(game.id, sets[0].options_dict(), names)
    if not tabled and not bot:
        bots = (balance.BotSpec(balance.SAMPLER),)  # the one kind such a game has: said in the report
    plan = balance.Plan(game.id, tuple(names), bots, tuple(h.options for h in sets), seed, max_moves, keep is not None, tabled,
                        evaluator.strip())
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

    samples = [stats.Sample(games) for _ in sets]
    measured = [stats.Sample(games) for _ in sets]  # Ludii's measures (solrec.ai.metrics)
    kept = _Keeper(store, plan, sets) if store is not None else None

    def play(progress: Any) -> None:
        for pair in balance.run(plan, games, jobs, address, progress):
            for which, played in enumerate(pair):
                samples[which].put(played.k, stats.row_of(played))
                measured[which].put(played.k, metrics.columns_of(played))
            if kept is not None:
                kept.add(pair)
        if kept is not None:
            kept.flush()

    if not as_json and sys.stderr.isatty():
        with typer.progressbar(length=games, label=f"playing {game.id}", file=sys.stderr) as bar:
            play(bar.update)
    else:
        play(None)

    labels = stats.labels_of(samples)
    analysis = stats.analyse(samples, seed, names, labels)
    shown = [_shown_options(game, h.options_dict()) for h in sets]
    change = change_words(sets[0].options_dict(), sets[1].options_dict()) if two else "one set"
    words = stats.verdict(change, analysis, names)
    data: dict[str, Any] = {
        "game": game.id, "players": list(names), "bots": [str(b) for b in bots], "games": games, "seed": seed,
        "max_moves": max_moves, "change": change,
        "sets": [{"name": name, "options": opts, **s} for name, opts, s in zip(("first", "second"), shown, analysis["sets"])],
    }
    if "differences" in analysis:
        data["differences"] = analysis["differences"]
    data["verdict"] = words
    data["evaluator"] = plan.evaluator
    data["metrics"] = metrics.analyse(measured, seed, names, plan.evaluator.partition(":")[0])
    if kept is not None:
        data["kept"] = kept.summary()
    if html is not None:
        from solrec.ai.balance_page import page

        html.write_text(page(data), encoding="utf-8")
        data["wrote"] = str(html)
    emit(as_json, data, "\n".join(report_lines(data)))


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
    """The report as text: the run, the verdict, each set, the differences."""
    from solrec.ai.stats import RATES

    n = data["games"]
    two = len(data["sets"]) == 2
    lines = [f"{data['game']} balance: {plural(n, 'game')}{' per set, paired' if two else ''}; "
             f"{', '.join(data['players'])}; bots {', '.join(data['bots'])} (rotated one seat a game); seed {data['seed']}"]
    for s in data["sets"]:
        opts = ", ".join(f"{k}={_word(v)}" for k, v in s["options"].items()) or "the defaults"
        lines.append(f"{s['name']} set: {opts}")
    lines.append("verdict: " + " ".join(data["verdict"]))
    for s in data["sets"]:
        length = s["length"]
        q = length["quantiles"]
        lines.append(f"== {s['name']} set: {plural(s['games'], 'game')}, {s['stuck']} stuck")
        lines.append(f"  length: mean {length['mean']:g} moves (sd {length['sd']:g}); quantiles 5/25/50/75/95: "
                     + "/".join(f"{q[k]:g}" for k in ("5", "25", "50", "75", "95")) if q else "  length: none")
        for seat in s["seats"]:
            w, sc = seat["win_rate"], seat["score"]
            lines.append(f"  seat {seat['seat']} {seat['player']}: wins {w['mean']:.1%} [{w['interval'][0]:.1%}, "
                         f"{w['interval'][1]:.1%}]; score mean {sc['mean']:g}, sd {sc['sd']:g}, "
                         f"median {sc['quantiles'].get('50', 0):g}, {sc['min']:g} to {sc['max']:g}")
        for b in s["bots"]:
            lines.append(f"  bot {b['bot']}: wins {b['win_rate']['mean']:.1%}")
        for e in s["endings"]:
            lines.append(f"  ended: {e['ending']}: {e['games']} ({e['share']['mean']:.1%})")
    if "differences" in data:
        lines.append("== differences (second - first), 95% intervals (paired bootstrap); * the interval excludes 0")
        quiet = [d for d in data["differences"] if d["what"].startswith("line:") and d["covers_zero"]]
        loud = [d for d in data["differences"] if d["what"].startswith("line:") and not d["covers_zero"]]
        loud.sort(key=lambda d: (-abs(d["difference"]), d["what"]))
        quiet += loud[MAX_LINES:]
        for d in data["differences"]:
            if d in quiet:
                continue
            mark = " " if d["covers_zero"] else "*"
            extra = ""
            if "relative" in d:
                extra = f"  ({d['relative']:+.1%} [{d['relative_interval'][0]:+.1%}, {d['relative_interval'][1]:+.1%}])"
            if d["what"].partition(":")[0] in RATES:
                lines.append(f" {mark} {d['label']}: {d['a']:.1%} -> {d['b']:.1%}, {d['difference'] * 100:+.1f} points "
                             f"[{d['interval'][0] * 100:+.1f}, {d['interval'][1] * 100:+.1f}]")
            else:
                lines.append(f" {mark} {d['label']}: {d['a']:g} -> {d['b']:g}, {d['difference']:+g} "
                             f"[{d['interval'][0]:+g}, {d['interval'][1]:+g}]{extra}")
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
