"""What a rule change (or a changed setup option, or another component set) does to a recorded game.

``validate`` stops a game at its first differing event. ``impact`` re-plays the recorded *commands*
under the current code, with the header's options replaced where asked, past the first difference
for as long as each command is still accepted, and classifies the game:

- ``same``: the re-played events are the recorded ones;
- ``events``: the events differ, the final scores and the outcome do not;
- ``scores``: a final score differs (each player's recorded and new score);
- ``outcome``: the winners or the ranking change, or the game now ends where it did not (or the
  other way round);
- ``unplayable``: a recorded command is refused now (its reason), or seeded chance now draws
  differently, so the recorded commands no longer apply;
- ``error``: the stored game is damaged (its ``validate`` verdict).

Recorded scores and outcome are those the store recorded beside the events; a log without them
(a record read from a file) is folded as it stands. Nothing is written: the stored games are
untouched whatever the options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from solrec.core.errors import SolrecError
from solrec.core.game import CHANCE, Event, Game
from solrec.core.play import SEEDED, Header, Step, decide_events, seeded_chance
from solrec.core.registry import get_game
from solrec.core.words import plural, value
from solrec.events import seal as seals
from solrec.events.envelope import genesis_hash

from .log import Log, apply_all, integrity, set_up
from .validate import validate

CLASSES = ("same", "events", "scores", "outcome", "unplayable", "error")
# The classes a report calls changed: every one but ``same``.
CHANGED = CLASSES[1:]


@attrs.frozen
class Impact:
    game_id: str
    game: str
    kind: str  # one of CLASSES
    events: int  # recorded events
    # where the game first differs (or is refused): the position its command's first event leads to, as
    # ``log``'s POS and ``validate`` count (the events before it + 1); a result that differs lies at the end
    position: int | None = None
    move: int | None = None  # the move there (move N: the record's N-th line, as ``log`` numbers it)
    actor: str | None = None
    notation: str | None = None  # the recorded command there
    reason: str | None = None  # what differs there (or why it is refused, or the damage)
    scores_recorded: dict[str, int] | None = None
    scores_now: dict[str, int] | None = None
    winners_recorded: list[str] | None = None
    winners_now: list[str] | None = None
    ended_recorded: bool | None = None
    ended_now: bool | None = None

    @property
    def changed(self) -> bool:
        return self.kind != "same"

    @property
    def score_change(self) -> int:
        """The largest change of one player's score (0 where scores are not compared)."""
        if self.scores_recorded is None or self.scores_now is None:
            return 0
        players = set(self.scores_recorded) | set(self.scores_now)
        return max((abs(self.scores_now.get(p, 0) - self.scores_recorded.get(p, 0)) for p in players), default=0)

    def as_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        return {"id": data.pop("game_id"), **data, "score_change": self.score_change}

    def scores_text(self) -> str:
        """``Saturn 43 -> 38, Uranus 30`` (a player whose score did not move once)."""
        rec, now = self.scores_recorded or {}, self.scores_now or {}
        parts = []
        for p in list(rec) + [p for p in now if p not in rec]:
            a, b = rec.get(p), now.get(p)
            parts.append(f"{p} {a}" if a == b else f"{p} {a} -> {b}")
        return ", ".join(parts)

    def line(self) -> str:
        head = f"{self.game_id}: {self.kind} ({self.game})"
        if self.kind == "same":
            return head
        where = f" at move {self.move}" if self.move is not None else f" at position {self.position}"
        if self.kind in ("error", "unplayable"):
            return f"{head}{where}: {self.reason}"
        text = f"{head}{where}"
        text += f", {self.actor}: {value(self.notation)}" if self.actor is not None else " (the end)"
        if self.kind in ("scores", "outcome"):
            text += f"; scores {self.scores_text()}"
        if self.kind == "outcome":
            text += f"; {self._outcome_text()}"
        return text

    def _outcome_text(self) -> str:
        def said(ended: bool | None, winners: list[str] | None) -> str:
            if not ended:
                return "not over"
            return "won by " + " and ".join(winners) if winners else "nobody wins"

        return f"{said(self.ended_recorded, self.winners_recorded)} -> {said(self.ended_now, self.winners_now)}"


@attrs.frozen
class Replayed:
    """A game as re-played: the header it was re-played under and its steps (for the report page)."""

    header: Header
    steps: tuple[Step, ...]


def changed_header(header: Header, options: Mapping[str, Any] | None) -> Header:
    """The header with ``options`` replacing its own (the recorded ones where none is given)."""
    if not options:
        return header
    merged = {**header.options_dict(), **options}
    return attrs.evolve(header, options=tuple(sorted(merged.items())), upcast=())


def damaged(log: Log, key: bytes | None = None, decodes: bool = True) -> bool:
    """Whether the stored game is damaged: what ``validate`` checks besides re-deciding (chain,
    count and head, seal, browsing columns, a header that sets up; events that decode, as
    ``decodes`` says: the caller has decoded them)."""
    try:
        game = get_game(log.header.game)
    except SolrecError:
        return True
    if integrity(log) is not None or log.unmirrored is not None:
        return True
    if log.seal is not None and key is not None:
        hashes = [r.hash for r in log.rows]
        if seals.check(key, log.game_id, log.seal, hashes, genesis_hash(log.header)) is not None:
            return True
    if not decodes:
        return True
    return set_up(game, log.header)[0] is not None


def impact(log: Log, options: Mapping[str, Any] | None = None, key: bytes | None = None) -> Impact:
    """The class of one recorded game re-played under the current code and ``options``."""
    return replay_commands(log, options, key)[0]


def replay_commands(
    log: Log, options: Mapping[str, Any] | None = None, key: bytes | None = None, keep: bool = False
) -> tuple[Impact, Replayed | None]:
    """``impact``, and with ``keep`` the re-played steps (for the side-by-side page)."""
    recorded, undecodable = log.decoded() if _known(log) else ([], None)
    if damaged(log, key, undecodable is None):
        verdict = validate(log, key)
        return Impact(log.game_id, verdict.game, "error", len(log.rows), verdict.position, verdict.move,
                      reason=verdict.reason), None
    game = log.game
    header = changed_header(log.header, options)
    rows = log.rows
    base = Impact(log.game_id, game.id, "same", len(rows))
    problem, state = set_up(game, header)
    if problem is not None:
        return attrs.evolve(base, kind="unplayable", position=0, move=0,
                            reason=f"the options no longer set up the game: {problem}"), None
    steps: list[Step] = []
    first: dict[str, Any] | None = None  # where the events first differ
    mutators = game.mutators
    position, start, n = 0, 0, len(rows)
    while start < n:  # one recorded command at a time
        row = rows[start]
        end = start + 1
        while end < n and rows[end].step == row.step:
            end += 1
        at: dict[str, Any] = {"position": position + 1, "move": row.step + 1, "actor": row.actor, "notation": row.command}
        try:
            command = game.parse(row.command, state)
            if _seeded_draw_differs(game, header, state, position, row.actor, command):
                reason = (f"move {row.step + 1} (chance's recorded draw: {value(row.command)}) no longer applies:"
                          " seeded chance now draws differently here")
                return attrs.evolve(base, kind="unplayable", **at, reason=reason), _kept(header, steps, keep)
            events = decide_events(game, header, state, position, row.actor, command)
        except SolrecError as err:
            reason = f"move {row.step + 1} ({row.actor}: {value(row.command)}) is refused now: {err}"
            return attrs.evolve(base, kind="unplayable", **at, reason=reason), _kept(header, steps, keep)
        had = tuple(recorded[start:end])
        if first is None and events != had:
            first = {**at, "reason": f"move {row.step + 1} ({row.actor}: {value(row.command)}) now yields [{_described(game, events)}]"
                                     f" but the log has [{_described(game, had)}]"}
        if keep:
            steps.append(Step(row.actor, command, row.command, events))
        for event in events:
            state = mutators[type(event)](state, event)
        position += len(events)
        start = end
    replayed = _kept(header, steps, keep)
    sheet, outcome = game.score(state), game.outcome(state)
    rec_scores, rec_outcome = _recorded_result(log, recorded)
    now_scores = dict(sheet.totals)
    now_outcome = outcome.as_dict() if outcome else None
    kind = classify(first is not None, rec_scores, rec_outcome, now_scores, now_outcome)
    if kind == "same":
        return base, replayed
    if first is None:  # the same events, scored otherwise now (a score read from the state, not an event)
        first = {"position": position, "move": rows[-1].step + 1 if rows else 0,
                 "reason": "the same events, but the recorded scores or outcome differ from those recomputed now"}
    return attrs.evolve(
        base, kind=kind, **first, scores_recorded=rec_scores, scores_now=now_scores,
        winners_recorded=(rec_outcome or {}).get("winners"), winners_now=(now_outcome or {}).get("winners"),
        ended_recorded=rec_outcome is not None, ended_now=now_outcome is not None,
    ), replayed


def classify(events_differ: bool, rec_scores: Mapping[str, int], rec_outcome: Mapping[str, Any] | None,
             now_scores: Mapping[str, int], now_outcome: Mapping[str, Any] | None) -> str:
    """A re-played game's class from what differs: the outcome first, then the scores, then the events."""
    if _result_of(rec_outcome) != _result_of(now_outcome):
        return "outcome"
    if dict(rec_scores) != dict(now_scores):
        return "scores"
    return "events" if events_differ else "same"


def _known(log: Log) -> bool:
    try:
        get_game(log.header.game)
        return True
    except SolrecError:
        return False


def _kept(header: Header, steps: list[Step], keep: bool) -> Replayed | None:
    return Replayed(header, tuple(steps)) if keep else None


def _seeded_draw_differs(game: Game, header: Header, state: Any, position: int, actor: str, command: Any) -> bool:
    """Whether a recorded seeded chance command no longer applies: the seed draws at the position it
    is now at (the events before it may have grown or shrunk). The reason does not name the new
    draw: it may be what the players could not see."""
    if actor != CHANCE or header.chance != SEEDED or game.to_act(state) != CHANCE:
        return False
    return bool(command != seeded_chance(game, header, state, position))


def _described(game: Game, events: tuple[Event, ...]) -> str:
    return "; ".join(game.describe_event(e) for e in events)


def _result_of(outcome: Mapping[str, Any] | None) -> tuple | None:
    """What an outcome decides: who wins and the ranking (its wording may name the scores)."""
    if outcome is None:
        return None
    return tuple(outcome.get("winners") or ()), tuple(outcome.get("ranking") or ())


def _recorded_result(log: Log, recorded: list[Event]) -> tuple[dict[str, int], dict[str, Any] | None]:
    """The recorded final scores and outcome: as the store recorded them, else the recorded events folded."""
    rec = log.recorded
    if rec is not None and rec.get("scores") is not None:
        return dict(rec["scores"]), rec.get("outcome")
    game = log.game
    state = apply_all(game, set_up(game, log.header)[1], log.rows, recorded, log.game_id)
    outcome = game.outcome(state)
    return dict(game.score(state).totals), outcome.as_dict() if outcome else None


def summary(impacts: list[Impact]) -> dict[str, Any]:
    """Counts by class and by game kind; the changed games, the largest score changes first."""
    by_class = {k: 0 for k in CLASSES}
    by_game: dict[str, dict[str, int]] = {}
    for i in impacts:
        by_class[i.kind] += 1
        counts = by_game.setdefault(i.game, {k: 0 for k in CLASSES})
        counts[i.kind] += 1
    changed = sorted((i for i in impacts if i.changed), key=lambda i: (-i.score_change, i.game_id))
    return {"games": len(impacts), "by_class": by_class, "by_game": dict(sorted(by_game.items())), "changed": changed}


def report_lines(impacts: list[Impact], tested: Mapping[str, Any] | None = None) -> list[str]:
    """The text report: what was tested (``tested``), one line per changed game (largest score
    changes first), then the counts."""
    s = summary(impacts)
    lines = tested_lines(tested) if tested else []
    lines += [i.line() for i in s["changed"]]
    if len(s["by_game"]) > 1:
        for game, counts in s["by_game"].items():
            lines.append(f"  {game}: " + ", ".join(f"{counts[k]} {k}" for k in CLASSES if counts[k]))
    counts = s["by_class"]
    lines.append(", ".join(f"{counts[k]} {k}" for k in CLASSES) + f" ({plural(s['games'], 'game')})")
    return lines


@attrs.frozen
class ImpactTask:
    """``impact`` as a corpus task (replay/corpus.py): the options per game kind, the seal key; with
    ``baseline`` (``--from``), each game is re-decided under those options first and the change is
    measured against that, not against what was recorded."""

    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    key: bytes | None = None
    baseline: Mapping[str, Mapping[str, Any]] | None = None

    def __call__(self, store: Any, game_id: str, log: Log | None) -> Impact:
        if log is None:  # a game whose stored data needs reading on its own: validate names the problem
            from .validate import validate_stored

            verdict = validate_stored(store, game_id, self.key)
            if not verdict.ok:
                return Impact(game_id, verdict.game, "error", verdict.events, verdict.position, verdict.move, reason=verdict.reason)
            from .log import load

            log = load(store, game_id, verify=False, mirrors=True)
        if self.baseline is not None:
            return against(log, self.baseline.get(log.header.game), self.options.get(log.header.game), self.key)[0]
        return impact(log, self.options.get(log.header.game), self.key)


def against(log: Log, baseline: Mapping[str, Any] | None, options: Mapping[str, Any] | None,
            key: bytes | None = None, keep: bool = False) -> tuple[Impact, Log | None, Replayed | None]:
    """``impact --from A --to B``: the game re-decided under ``baseline`` (A), then that game's
    commands re-decided under ``options`` (B) and compared with it. A game A does not replay is
    ``unplayable`` (said so). Also, with ``keep``, the game under A as a log and the steps under B."""
    first, replayed = replay_commands(log, baseline, key, keep=True)
    if first.kind in ("error", "unplayable") or replayed is None:
        if first.kind == "unplayable":
            first = attrs.evolve(first, reason=f"under the --from options: {first.reason}")
        return first, None, None
    under_a = Log(log.game_id, replayed.header, tuple(replayed_log(log, replayed).rows))
    result, under_b = replay_commands(under_a, options, key, keep=keep)
    return result, under_a, under_b


def options_per_kind(kinds: list[str], assignments: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The options ``-o`` gives each game kind of ``kinds``: ``KEY=VALUE`` for every kind (each must
    declare KEY), ``GAME:KEY=VALUE`` for that kind only. A kind that does not declare an option, or a
    value it does not take, or a ``GAME:`` of which ``kinds`` holds no game, is refused (InvalidSetup)
    with the reason, before anything is re-played."""
    from solrec.core.errors import InvalidSetup
    from solrec.core.options import parse_options

    out: dict[str, dict[str, Any]] = {}
    for raw_key, given in assignments.items():
        kind, sep, key = raw_key.rpartition(":")
        targets = [kind] if sep else list(kinds)
        for target in targets:
            game = get_game(target)  # an unknown game kind is refused by the registry
            if target not in kinds:  # a change tested on no game is no test: a typo or the wrong corpus
                raise InvalidSetup(f"no {target} games in this corpus")
            declared = [f.name for f in attrs.fields(game.Options)]
            if key not in declared:
                raise InvalidSetup(
                    f"{target} does not declare option {value(key)} (its options: {', '.join(declared) or 'none'})"
                    + ("" if sep or len(targets) == 1 else f"; write GAME:{key}={given} to set it for one game kind")
                )
            # a value the option does not take is refused here; the header keeps the typed value
            out.setdefault(target, {})[key] = getattr(parse_options(game.Options, {key: given}), key)
    return out


def replayed_log(log: Log, replayed: Replayed) -> Log:
    """The re-played game as a log of its own (chained afresh), to show beside the recorded one."""
    from solrec.events.envelope import chain_rows, codec_for

    rows = chain_rows(codec_for(log.game), genesis_hash(replayed.header), 0, 0, replayed.steps)
    return Log(f"{log.game_id} re-played", replayed.header, tuple(rows))


def report_page(impacts: list[Impact], pages: Mapping[str, str], title: str,
                tested: Mapping[str, Any] | None = None) -> str:
    """The report as one self-contained page (no script, no request): what was tested, the counts,
    then a row per changed game linking its side-by-side page (``pages``: game id -> relative link),
    which opens at the move where the game first differs."""
    from html import escape

    s = summary(impacts)
    said = "".join(f"<li>{escape(line)}</li>" for line in tested_lines(tested)) if tested else ""
    counts = "".join(f"<td>{s['by_class'][k]}</td>" for k in CLASSES)
    kinds = "".join(
        f"<tr><th>{escape(g)}</th>" + "".join(f"<td>{c[k]}</td>" for k in CLASSES) + "</tr>"
        for g, c in s["by_game"].items()
    )
    rows = []
    for i in s["changed"]:
        link = pages.get(i.game_id)
        name = f'<a href="{escape(link)}">{escape(i.game_id)}</a>' if link else escape(i.game_id)
        if link and i.move is not None:
            name += f' <a class="move" href="{escape(link)}#move={i.move}">move {i.move}</a>'
        detail = i.line().split(": ", 1)[1] if ": " in i.line() else ""
        rows.append(f"<tr><td>{name}</td><td>{escape(i.kind)}</td><td>{i.score_change}</td><td>{escape(detail)}</td></tr>")
    head = "".join(f"<th>{k}</th>" for k in CLASSES)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{escape(title)}</title><style>body{{font-family:sans-serif;margin:14px}}"
        "table{border-collapse:collapse;margin-bottom:14px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}"
        "</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        + (f'<ul class="tested">{said}</ul>' if said else "")
        + f"<table><tr><th></th>{head}</tr><tr><th>all</th>{counts}</tr>{kinds}</table>"
        "<table><tr><th>game</th><th>class</th><th>largest score change</th><th>where</th></tr>"
        + "".join(rows) + "</table></body></html>\n"
    )


# -- what a report tested ---------------------------------------------------------------------------------


def change_of(recorded: Mapping[str, Mapping[str, Any]], options: Mapping[str, Mapping[str, Any]],
              baseline: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Each option changed, per game kind: ``{"game", "option", "recorded", "from", "to"}`` (``recorded``:
    the values the corpus's games of that kind were played with; ``from``: the ``--from`` value, or
    None when the change is measured against what was recorded). A component set given as options
    (its name, digest and content) is one entry, ``option`` ``components``, named by name and digest."""
    out = []
    for kind in sorted(set(options) | set(baseline or {})):
        given = dict(options.get(kind, {}))
        before = dict((baseline or {}).get(kind, {}))
        seen = recorded.get(kind, {})
        keys = sorted(set(given) | set(before))
        if "components" in keys or "components_digest" in keys:
            keys = [k for k in keys if not k.startswith("components")] + ["components"]

        def named(values: Mapping[str, Any]) -> Any:
            if "components" not in values and "components_digest" not in values:
                return None
            return f"{values.get('components', '?')} (digest {str(values.get('components_digest', '?'))[:16]})"

        for key in keys:
            if key == "components":
                out.append({"game": kind, "option": key,
                            "recorded": sorted({str(v) for v in seen.get("components", ())}),
                            "from": named(before), "to": named(given)})
            else:
                out.append({"game": kind, "option": key, "recorded": sorted(seen.get(key, ()), key=str),
                            "from": before.get(key), "to": given.get(key)})
    return out


def tested_lines(tested: Mapping[str, Any]) -> list[str]:
    """What a report tested, in words: the change, the corpus, the version and the date."""
    from solrec.core import words

    lines = []
    for c in tested["change"]:
        recorded = words.value(c["recorded"]) if c["recorded"] else "the default"
        if c["from"] is not None:
            lines.append(f"tested {c['game']}: {c['option']} {words.value(c['from'])} -> {words.value(c['to'])}"
                         f" (both re-decided; recorded: {recorded})")
        else:
            lines.append(f"tested {c['game']}: {c['option']} {recorded} (as recorded) -> {words.value(c['to'])}")
    if not tested["change"]:
        lines.append("tested: the current code, the recorded options")
    corpus = tested["corpus"]
    lines.append(f"corpus: {words.names(corpus['databases'])} ({plural(corpus['games'], 'game')})")
    lines.append(f"by solrec {tested['version']} on {tested['date']}")
    return lines


def sheets_side_by_side(before: list[tuple[str, int, str, str]], after: list[tuple[str, int, str, str]]
                        ) -> list[tuple[tuple | None, tuple | None]]:
    """Two score sheets' lines paired for showing side by side: the lines both hold, each beside
    itself, then per player the lines only one holds (changed), beside each other."""
    rest_a = list(before)
    rest_b = list(after)
    rows: list[tuple[tuple | None, tuple | None]] = []
    for line in before:
        if line in rest_b:
            rest_b.remove(line)
            rest_a.remove(line)
            rows.append((line, line))
    players = list(dict.fromkeys([x[0] for x in rest_a] + [x[0] for x in rest_b]))
    for p in players:
        a = [x for x in rest_a if x[0] == p]
        b = [x for x in rest_b if x[0] == p]
        for k in range(max(len(a), len(b))):
            rows.append((a[k] if k < len(a) else None, b[k] if k < len(b) else None))
    return rows


def explained_lines(before: list[tuple[str, int, str, str]], after: list[tuple[str, int, str, str]],
                    left: str, right: str, width: int = 100) -> list[str]:
    """The two final score sheets side by side for a terminal, each changed line marked ``*``, then
    the rule sentence of each changed line (why it scores)."""
    import textwrap

    col = (width - 3) // 2
    out = [f"  {left:<{col - 2}} | {right}"]
    why: list[str] = []
    for a, b in sheets_side_by_side(before, after):
        changed = a != b

        def cell(x: tuple | None) -> list[str]:
            if x is None:
                return ["(no line)"]
            return textwrap.wrap(f"{x[0]} {x[1]:+d} {x[2]}", col - 2) or [""]

        ca, cb = cell(a), cell(b)
        mark = "*" if changed else " "
        for k in range(max(len(ca), len(cb))):
            la = ca[k] if k < len(ca) else ""
            lb = cb[k] if k < len(cb) else ""
            out.append(f"{mark if k == 0 else ' '} {la:<{col - 2}} | {lb}".rstrip())
        if changed:
            for x in (a, b):
                if x is not None and x[3] and f"{x[2]}: {x[3]}" not in why:
                    why.append(f"{x[2]}: {x[3]}")
    if why:
        out.append("  why (the rules of the changed lines):")
        out += [w for line in why for w in textwrap.wrap(line, width - 4, initial_indent="    ", subsequent_indent="      ")]
    return out
