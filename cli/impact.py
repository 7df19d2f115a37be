"""``solrec impact``: what the current code (and changed options, or another component set) does to
every recorded game (replay/impact.py); ``validate --components`` is its special case."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from solrec.core.errors import InvalidSetup
from solrec.core.words import quoted

from .app import EXIT_PROBLEM, Json, command, complete_game_id, emit, notice, plural, workflows
from .errors import UsageRefused

Ids = Annotated[list[str] | None, typer.Argument(metavar="ID...", help="Stored games' ids.", autocompletion=complete_game_id)]
All = Annotated[bool, typer.Option("--all", help="Every game in the database.")]
Jobs = Annotated[
    int | None, typer.Option("--jobs", min=1, help="Worker processes for --all (default: every CPU; 1 for a small database).")
]
Dbs = Annotated[
    list[Path] | None,
    typer.Option("--db", envvar="SOLREC_DB", help="SQLite database (default: ~/.local/share/solrec/solrec.db); "
                                                  "repeat it, or name a folder of *.db shards, for a corpus in several files."),
]
Cluster = Annotated[
    str | None,
    typer.Option("--cluster", metavar="ADDRESS", help="Run --all on this Dask cluster (tcp://HOST:8786; pip install "
                                                      "'solrec[cluster]'): workers open the files by path."),
]
ShipRows = Annotated[
    bool, typer.Option("--ship-rows", help="With --cluster: send the games' rows to the workers instead of their paths.")
]


def cluster_address(address: str | None) -> str | None:
    """The Dask scheduler's address ``--cluster`` gives, as ``tcp://HOST:PORT``, or a one-line refusal
    (exit 2) before anything is read: a scheme other than tcp (tls:// needs certificates solrec does
    not configure; inproc:// is another process's memory), no port, a host that is no host name or
    IP address. A bare HOST:PORT is tcp, as Dask reads it."""
    import ipaddress

    if address is None:
        return None
    shown = quoted(address) if len(address) <= 60 else f"{quoted(address[:40])}... ({len(address)} characters)"

    def refused(why: str) -> UsageRefused:
        return UsageRefused(f"--cluster {shown} is not a scheduler's address ({why}); give tcp://HOST:PORT, "
                            "e.g. tcp://127.0.0.1:8786")

    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme.lower() != "tcp":
        extra = ": tls:// needs certificates solrec does not configure" if scheme.lower() == "tls" else ""
        raise refused(f"solrec reaches a cluster over tcp:// only, not {quoted(scheme[:20])}{extra}")
    host, sep, port = rest.rpartition(":")
    if not sep or not port:
        raise refused("no port")
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
        raise refused(f"the port is 1..65535, not {quoted(port[:20])}")
    if host.startswith("[") and host.endswith("]"):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise refused("the bracketed host is not an IPv6 address") from None
    elif not re.fullmatch(_HOST, host) or len(host) > 253:
        raise refused("no host name or IP address before the port; an IPv6 address goes in brackets")
    return f"tcp://{host}:{int(port)}"


_HOST = r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?"  # names and IPv4


def files_of(dbs: list[Path] | None) -> list[Path]:
    """The database files ``--db`` names (the default database when none); what a folder held that is
    not one (and an empty file among several) is skipped with a line on stderr, said with the answer."""
    from solrec.events.shards import corpus
    from solrec.events.store import default_db_path

    files, skipped = corpus(dbs or [default_db_path()])
    if dbs:  # a path given that does not exist is refused (a folder's entries are the corpus' own)
        from solrec.events.store import no_such_database

        for path in dbs:
            if not path.exists():
                raise no_such_database(path)
    for line in skipped:
        notice(line)  # said with the answer (a refusal is its one line)
    return files


def run_corpus(files: list[Path], task: Any, jobs: int | None, cluster: str | None, ship_rows: bool,
               as_json: bool) -> tuple[list[Any], int, list[Any]]:
    """``task`` over every game of ``files``, on ``jobs`` processes or the ``cluster``; the results, the
    batches retried, and each file's orphan events (as validate verdicts)."""
    from solrec.events.store import Store
    from solrec.replay.cluster import map_cluster, map_files
    from solrec.replay.validate import orphan_verdicts

    if ship_rows and cluster is None:
        raise UsageRefused("--ship-rows sends rows to a cluster's workers: give --cluster too")
    total = 0
    orphans = []
    for path in files:
        store = Store(path, create=False)
        try:
            total += len(store.game_ids())
            orphans += orphan_verdicts(store)
        finally:
            store.close()

    def run(progress: Any) -> Any:
        if cluster is not None:
            return map_cluster(cluster, files, task, ship_rows, progress)
        return map_files(files, task, jobs, progress)

    if not as_json and sys.stderr.isatty():
        with typer.progressbar(length=total, label="re-playing", file=sys.stderr) as bar:
            done = run(bar.update)
    else:
        done = run(None)
    return done.results, done.retried, orphans


def select(ids: list[str] | None, all_: bool, what: str) -> list[str] | None:
    """The ids named, or None for --all; both or neither is bad input."""
    if all_ and ids:
        raise UsageRefused("name games or use --all, not both")
    if not all_ and not ids:
        raise UsageRefused(f"name the games to {what}, or use --all")
    return None if all_ else list(ids or [])


def kinds_of(store, ids: list[str] | None) -> list[str]:
    """The game kinds of the games selected (an unknown id is bad input)."""
    from solrec.events.store import UnknownGameId

    if ids is None:
        return store.game_kinds()
    kinds = set()
    for gid in ids:
        if not store.has_game(gid):
            raise UnknownGameId(f"no game {quoted(gid)} in {store.path}")
        kind = store.game_row(gid).get("game")
        if isinstance(kind, str):
            kinds.add(kind)
    return sorted(kinds)


def component_options(path: Path, kinds: list[str]) -> dict[str, dict[str, Any]]:
    """The options a component set gives each kind that has component data; none has: bad input."""
    from solrec.core.registry import get_game

    from .components import read_set

    name, texts = read_set(path)
    out: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        try:
            out[kind] = dict(get_game(kind).components_options(name, texts))
        except InvalidSetup as err:
            if "has no component data" not in str(err) or len(kinds) == 1:
                raise
    if not out:
        raise InvalidSetup(f"none of the games selected ({', '.join(kinds) or 'none'}) has component data")
    return out


def run_impact(store, ids: list[str] | None, options: dict[str, dict[str, Any]], jobs: int | None,
               as_json: bool, baseline: dict[str, dict[str, Any]] | None = None) -> list[Any]:
    """Each selected game's Impact, in id order (with --all, orphan events too, as damaged games)."""
    from solrec.events.seal import key_from
    from solrec.replay.corpus import map_corpus
    from solrec.replay.impact import Impact, ImpactTask
    from solrec.replay.validate import orphan_verdicts

    task = ImpactTask(options, key_from(), baseline)
    if ids is None and not as_json and sys.stderr.isatty():
        with typer.progressbar(length=len(store.game_ids()), label="re-playing", file=sys.stderr) as bar:
            impacts = map_corpus(store, task, None, jobs, bar.update)
    else:
        impacts = map_corpus(store, task, ids, jobs if ids is None else 1)
    if ids is None:
        impacts += [Impact(v.game_id, v.game, "error", v.events, v.position, reason=v.reason) for v in orphan_verdicts(store)]
    return impacts


def changed_pairs(store, impacts: list[Any], options: dict[str, dict[str, Any]],
                  baseline: dict[str, dict[str, Any]] | None) -> Iterator[tuple[Any, Any]]:
    """Each changed game of a report with its two logs (as recorded or under --from; re-decided)."""
    for i in impacts:
        if i.kind not in ("same", "error"):
            pair = compared(store, i.game_id, options, baseline)
            if pair is not None:
                yield i, pair


def compared(store, game_id: str, options: dict[str, dict[str, Any]], baseline: dict[str, dict[str, Any]] | None):
    """The two logs a changed game's page and ``--explain`` compare: as recorded (or as re-decided
    under ``--from``) and as re-decided now; None when it does not re-play."""
    from solrec.replay.impact import against, replay_commands, replayed_log
    from solrec.replay.log import load

    log = load(store, game_id, verify=False)
    kind = log.header.game
    if baseline is not None:
        _, before, replayed = against(log, baseline.get(kind), options.get(kind), keep=True)
        if before is None:
            return None
        log = before
    else:
        _, replayed = replay_commands(log, options.get(kind), keep=True)
    if replayed is None:
        return None
    return log, replayed_log(log, replayed)


def write_pages(store, impacts: list[Any], options: dict[str, dict[str, Any]], html: Path,
                tested: dict[str, Any] | None = None, baseline: dict[str, dict[str, Any]] | None = None) -> None:
    """The report page at ``html``, and beside it (in ``<name>-games/``) a side-by-side page per changed
    game that re-plays at all: recorded on the left, re-played on the right (the replay page's view),
    opening at the first differing move, the final score sheets compared line by line."""
    from solrec.replay.html import diff_page
    from solrec.replay.impact import report_page

    folder = html.parent / f"{html.stem}-games"
    pages: dict[str, str] = {}
    left = "under --from" if baseline is not None else "recorded"
    for i, pair in changed_pairs(store, impacts, options, baseline):
        folder.mkdir(exist_ok=True)
        name = f"{i.game_id}.html"
        (folder / name).write_text(diff_page(*pair, names=(left, "re-decided"), tested=tested), encoding="utf-8")
        pages[i.game_id] = f"{folder.name}/{name}"
    html.write_text(report_page(impacts, pages, f"impact: {plural(len(impacts), 'game')}", tested), encoding="utf-8")


def recorded_options(files: list[Path], ids: list[str] | None) -> dict[str, dict[str, set]]:
    """The option values the selected games were recorded with, per game kind: what a report says
    it changed from."""
    import json

    from solrec.events.store import Store

    out: dict[str, dict[str, set]] = {}
    for path in files:
        store = Store(path, create=True)  # read as impact's corpus was: an empty file holds no game (writes nothing)
        try:
            rows = store.query("select id, game, options from games")
        finally:
            store.close()
        for gid, kind, options in rows:
            if ids is not None and gid not in ids:
                continue
            try:
                values = json.loads(options) if isinstance(options, str) else {}
            except ValueError:
                continue
            for key, value in (values.items() if isinstance(values, dict) else ()):
                try:
                    out.setdefault(str(kind), {}).setdefault(key, set()).add(value)
                except TypeError:  # an unhashable value: shown as text
                    out.setdefault(str(kind), {}).setdefault(key, set()).add(json.dumps(value))
    return out


def tested_of(files: list[Path], ids: list[str] | None, impacts: list[Any], options: dict[str, dict[str, Any]],
              baseline: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    """What a report tested: the change per game kind, the corpus, the solrec version and the date."""
    import datetime

    from solrec.replay.impact import change_of

    from .app import VERSION

    recorded = recorded_options(files, ids)
    change = change_of(recorded, options, baseline)
    for c in change:  # a component set's content is named by its set and digest, never printed
        if c["option"] == "components":
            c["recorded"] = sorted(
                f"{n} (digest {str(d)[:16]})" for n in recorded.get(c["game"], {}).get("components", {"?"})
                for d in recorded.get(c["game"], {}).get("components_digest", {"?"}))
    return {"change": change, "corpus": {"databases": [str(p) for p in files], "games": len(impacts)},
            "version": VERSION, "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")}


def explain_impacts(store, impacts: list[Any], options: dict[str, dict[str, Any]],
                    baseline: dict[str, dict[str, Any]] | None) -> list[str]:
    """``impact ID --explain``: each changed game's final score sheets, before and after side by side,
    changed lines marked, and the rules of the changed lines."""
    from solrec.replay.impact import explained_lines
    from solrec.replay.log import state_at

    out: list[str] = []
    for i, pair in changed_pairs(store, impacts, options, baseline):
        sheets = []
        for log in pair:
            sheet = log.game.score(state_at(log))
            sheets.append([(ln.player, ln.points, ln.what, ln.rule) for ln in sheet.lines])
        where = f"first differs at move {i.move}" if i.move is not None else "differs"
        out.append(f"{i.game_id} ({i.kind}): {where}; the final score sheets:")
        out += explained_lines(sheets[0], sheets[1], "under --from" if baseline is not None else "recorded", "re-decided")
    return out


def per_kind(kinds: list[str], assignments: dict[str, str], components: Path | None) -> dict[str, dict[str, Any]]:
    from solrec.replay.impact import options_per_kind

    options = options_per_kind(kinds, assignments)
    if components is not None:
        for kind, given in component_options(components, kinds).items():
            options[kind] = {**given, **options.get(kind, {})}
    return options


@command("impact")
def impact_cmd(
    ids: Ids = None,
    all_: All = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="KEY=VALUE",
                     help="Re-play under this setup option: KEY=VALUE for every game kind selected (each must "
                          "declare it), GAME:KEY=VALUE for one kind (see `solrec games`). Repeat the option."),
    ] = None,
    components: Annotated[
        Path | None, typer.Option("--components", help="Re-play under this component set (a folder or a TOML file).")
    ] = None,
    from_: Annotated[
        list[str] | None,
        typer.Option("--from", metavar="KEY=VALUE",
                     help="Compare two option sets: re-decide every game under these options first, and report what "
                          "--to (or -o) changes from there rather than from what was recorded. Repeat the option."),
    ] = None,
    to: Annotated[
        list[str] | None, typer.Option("--to", metavar="KEY=VALUE", help="With --from: the other option set (as -o).")
    ] = None,
    explain_: Annotated[
        bool, typer.Option("--explain", help="Each changed game's final score sheets before and after, side by side, "
                                             "changed lines marked, with their rules.")
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the report as a page, with a side-by-side replay of each changed game beside it."),
    ] = None,
    db: Dbs = None,
    as_json: Json = False,
    jobs: Jobs = None,
    cluster: Cluster = None,
    ship_rows: ShipRows = False,
    fail_on: Annotated[
        str | None,
        typer.Option("--fail-on", metavar="outcome|scores|events",
                     help="A CI gate: exit 1 only when a change of at least this kind occurred (outcome; scores or "
                          "outcome; any change of the events); a game that no longer re-plays or is damaged always "
                          "fails. Otherwise 0."),
    ] = None,
) -> None:
    """What the current code does to recorded games: each game's commands re-played, past the first change.

    Each game is classed: same (identical events); events (events differ, scores and outcome do
    not); scores (a final score differs); outcome (the winners or the ranking change, or the game ends
    differently); unplayable (a recorded command is refused now, or seeded chance draws differently);
    error (the stored game is damaged: its validate verdict). One line per changed game, the largest
    score changes first, then the counts by class (and by game). Nothing stored is changed. Exits 0
    when every game is the same, 1 otherwise; with --fail-on KIND, 1 only for a change of at least
    that kind.
    """
    from solrec.core.options import split_assignments
    from solrec.events.store import Store
    from solrec.replay.impact import Impact, ImpactTask, report_lines, summary

    cluster = cluster_address(cluster)
    if fail_on is not None and fail_on not in FAIL_ON:
        raise UsageRefused(f"--fail-on {quoted(fail_on[:40])}: give one of {', '.join(FAIL_ON)}")
    selected = select(ids, all_, "re-play")
    if from_ and not (to or option or components):
        raise UsageRefused("--from compares two option sets: give the other with --to KEY=VALUE")
    if to and not from_:
        raise UsageRefused("--to is the second of two option sets: give the first with --from KEY=VALUE (or use -o)")
    assignments = split_assignments([*(option or []), *(to or [])])
    baseline_assignments = split_assignments(from_ or []) if from_ else None
    if html is not None and not html.parent.is_dir():
        raise InvalidSetup(f"no folder {html.parent} to write {html.name} in")
    files = files_of(db)
    retried = 0
    if len(files) == 1 and cluster is None:
        store = workflows().open_store(files[0], missing_ok=selected is None)  # as validate --all and list read it
        kinds = kinds_of(store, selected)
        options = per_kind(kinds, assignments, components)
        baseline = None if baseline_assignments is None else per_kind(kinds, baseline_assignments, None)
        impacts = run_impact(store, selected, options, jobs, as_json, baseline)
    else:
        if selected is not None:
            raise UsageRefused("several databases or --cluster re-play --all")
        kinds = sorted({k for path in files for k in Store(path, create=False).game_kinds()})
        options = per_kind(kinds, assignments, components)
        baseline = None if baseline_assignments is None else per_kind(kinds, baseline_assignments, None)
        from solrec.events.seal import key_from

        impacts, retried, orphans = run_corpus(files, ImpactTask(options, key_from(), baseline), jobs, cluster,
                                               ship_rows, as_json)
        impacts += [Impact(v.game_id, v.game, "error", v.events, v.position, reason=v.reason) for v in orphans]
    s = summary(impacts)
    tested = tested_of(files, selected, impacts, options, baseline)
    data = {"tested": tested, "games": s["games"], "by_class": s["by_class"], "by_game": s["by_game"],
            "changed": [i.as_dict() for i in s["changed"]], "retried": retried}
    if (html is not None or explain_) and len(files) != 1:
        raise UsageRefused("--html and --explain read the games again: give one database")
    if html is not None:
        write_pages(workflows().open_store(files[0]), impacts, options, html, tested, baseline)
    retries = [f"{retried} batches retried on the cluster"] if retried else []
    lines = report_lines(impacts, tested) + retries
    if explain_:
        lines += explain_impacts(workflows().open_store(files[0]), impacts, options, baseline)
    if html is not None:
        lines.append(f"wrote {html}")
        data["wrote"] = str(html)
    if fail_on is not None:
        data["fail_on"] = fail_on
        data["failed"] = [i.game_id for i in s["changed"] if i.kind in FAIL_ON[fail_on]]
        lines.append(f"--fail-on {fail_on}: " + (f"{plural(len(data['failed']), 'game')} changed that much" if data["failed"]
                                                  else "no game changed that much"))
    emit(as_json, data, "\n".join(lines))
    if (data["failed"] if fail_on is not None else s["changed"]):
        raise typer.Exit(EXIT_PROBLEM)


# --fail-on KIND: the classes that fail the gate, each kind with those above it (replay/impact.py CLASSES:
# outcome above scores above events); a game that no longer re-plays (unplayable) or is damaged (error)
# fails at every kind: its result can no longer be compared at all.
FAIL_ON = {
    "outcome": ("outcome", "unplayable", "error"),
    "scores": ("scores", "outcome", "unplayable", "error"),
    "events": ("events", "scores", "outcome", "unplayable", "error"),
}


@command("shard")
def shard_cmd(
    into: Annotated[Path, typer.Option("--into", help="The folder to write shard-NNNN.db files into (new or empty).")],
    games_per_shard: Annotated[int, typer.Option("--games-per-shard", min=1, help="Games in each shard.")],
    db: Annotated[Path | None, typer.Option("--db", envvar="SOLREC_DB", help="The database to split.")] = None,
    as_json: Json = False,
) -> None:
    """Split a database into shards of whole games (rows copied as stored: every hash and seal unchanged).

    validate, impact, list and export read the shards with --db FOLDER; each shard is a solrec
    database of its own.
    """
    from solrec.events.shards import split

    store = workflows().open_store(db)
    store.game_ids()  # a file that is not a solrec database is refused before anything is written
    paths = split(store, into, games_per_shard)
    data = {"shards": [str(p) for p in paths], "games": len(store.game_ids())}
    emit(as_json, data, f"{plural(len(store.game_ids()), 'game')} in {plural(len(paths), 'shard')} in {into}")


def validate_under(path: Path, ids: list[str], all_: bool, db: Path | None, as_json: bool) -> None:
    """``validate --components FILE``: per game, the first command whose events change under the set
    (``impact --components`` told as validate tells it; with --all, games without component data are
    not concerned)."""
    from .components import read_set

    store = workflows().open_store(db)
    selected = None if all_ else ids
    options = component_options(path, kinds_of(store, selected))
    impacts = run_impact(store, selected, options, 1, as_json)
    results = [
        {"id": i.game_id, "changed": i.changed, "move": i.move, "position": i.position, "reason": i.reason}
        for i in impacts if i.game in options or i.kind == "error"
    ]
    changed = [r for r in results if r["changed"]]
    name = read_set(path)[0]
    data = {"set": name, "games": results, "changed": len(changed), "unchanged": len(results) - len(changed)}
    lines = [
        f"{r['id']}: changes at move {r['move']}: {r['reason']}" if r["changed"] else f"{r['id']}: unchanged"
        for r in results
    ]
    lines.append(f"{len(results) - len(changed)} unchanged, {len(changed)} changed under component set {name}")
    emit(as_json, data, "\n".join(lines))
    if changed:
        raise typer.Exit(EXIT_PROBLEM)
