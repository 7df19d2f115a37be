"""The record format of ``export`` and ``import``: JSON Lines (see docs/record-format.md).

Line 1 is the header ``{"solrec": 1, "game": ..., "players": [...], "chance": "seeded"|"entered",
"seed"?: int, "options"?: {...}, "rules"?: str, "bots"?: {player: "KIND[:SETTINGS]"}}``; every further line is one command
``{"actor": <player>|"chance", "command": <notation>}``, optionally with the ``events`` and ``hashes``
it produced (``export --events``), which ``import`` then verifies, and the comments on the position
after it: ``note`` (a text) and ``notes`` (comments with author, time and mark).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from solrec.core.errors import SolrecError, json_reason
from solrec.core.game import CHANCE
from solrec.core.play import (
    SEEDED,
    Header,
    Step,
    advance_chance,
    decide_as,
    fold,
    initial_state,
    make_header,
    upcast_options,
)
from solrec.core.registry import get_game
from solrec.core.words import quoted

from .codec import to_plain
from .envelope import Row, chain_rows, codec_for, genesis_hash, group_steps
from .notes import Note, check_mark, check_text

FORMAT_VERSION = 1
MAX_LINE = 1_000_000  # characters of one record line (a line with its events is a few KiB)
_HEADER_KEYS = {"solrec", "game", "players", "chance", "seed", "options", "rules", "bots", "id", "notes", "fork"}
_LINE_KEYS = {"actor", "command", "events", "hashes", "note", "notes"}
_NOTE_KEYS = {"text", "by", "time", "mark"}


class InvalidRecord(SolrecError):
    """A record file that cannot be imported; the message names the line."""


def header_line(header: Header, game_id: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"solrec": FORMAT_VERSION, "game": header.game, "players": list(header.players),
                           "chance": header.chance}
    if header.seed is not None:
        out["seed"] = header.seed
    out["options"] = header.recorded_options()  # as recorded, so that its hashes still verify
    out["rules"] = header.rules
    if header.bots:  # absent without bots: such a record is byte for byte what it was before the field
        out["bots"] = dict(header.bots)
    if game_id is not None:
        out["id"] = game_id
    return out


def notes_fields(comments: Sequence[Note]) -> dict[str, Any]:
    """A position's comments as a record writes them: one comment with no author and no mark (a
    record's own ``note``) as ``"note": TEXT``; anything else as ``"notes": [{text, by, time, mark}]``."""
    if not comments:
        return {}
    if len(comments) == 1 and not comments[0].by and not comments[0].mark:
        return {"note": comments[0].text}
    out = []
    for c in comments:
        item: dict[str, Any] = {"text": c.text}
        if c.by:
            item["by"] = c.by
        item["time"] = c.time
        if c.mark:
            item["mark"] = c.mark
        out.append(item)
    return {"notes": out}


def export_lines(
    game_id: str, header: Header, rows: Iterable[Row], with_events: bool = False, notes: Sequence[Note] = ()
) -> Iterator[str]:
    game = get_game(header.game)
    codec = codec_for(game)
    first = header_line(header, game_id)
    first.update(notes_fields([c for c in notes if c.position == 0]))
    if "note" in first:  # the header carries its comments as a list, always
        first["notes"] = [{"text": first.pop("note")}]
    yield json.dumps(first)
    position = 0
    for group in group_steps(list(rows)):
        position += len(group)
        line: dict[str, Any] = {"actor": group[0].actor, "command": group[0].command}
        if with_events:
            line["events"] = [
                {"type": r.type, "version": r.version, "data": to_plain(codec.decode(r.type, r.version, r.payload))}
                for r in group
            ]
            line["hashes"] = [r.hash for r in group]
        line.update(notes_fields([c for c in notes if c.position == position]))
        yield json.dumps(line)


# A comment read from a record: (position, by, time, mark, text); time "" is the time of the import.
RecordNote = tuple[int, str, str, str, str]


def read_notes(data: dict[str, Any], lineno: int, position: int) -> list[RecordNote]:
    """The comments a record line (or the header, position 0) carries."""
    out: list[RecordNote] = []
    if "note" in data:
        if not isinstance(data["note"], str):
            raise InvalidRecord(f'line {lineno}: "note" is a string')
        out.append((position, "", "", "", data["note"]))
    items = data.get("notes", [])
    if not isinstance(items, list):
        raise InvalidRecord(f'line {lineno}: "notes" is a list of comments')
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or set(item) - _NOTE_KEYS:
            raise InvalidRecord(f'line {lineno}: a comment is {{"text", "by"?, "time"?, "mark"?}} with text')
        by, time, mark = item.get("by", ""), item.get("time", ""), item.get("mark", "")
        if not all(isinstance(v, str) for v in (by, time, mark)):
            raise InvalidRecord(f"line {lineno}: a comment's by, time and mark are strings")
        out.append((position, by, time, mark, item["text"]))
    for _, by, _, mark, text in out:
        try:
            check_mark(mark)
            check_text(text, by)
        except SolrecError as err:
            raise InvalidRecord(f"line {lineno}: {err}") from None
    return out


def _load_json(text: str, lineno: int) -> dict[str, Any]:
    if len(text) > MAX_LINE:
        raise InvalidRecord(f"line {lineno}: longer than {MAX_LINE} characters")
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidRecord(f"line {lineno}: nested too deeply") from None
    except ValueError as err:  # not JSON, or a number of more than 4300 digits
        raise InvalidRecord(f"line {lineno}: not JSON ({json_reason(err)})") from None
    if not isinstance(value, dict):
        raise InvalidRecord(f"line {lineno}: expected a JSON object")
    return value


def read_header(data: dict[str, Any]) -> Header:
    unknown = set(data) - _HEADER_KEYS
    if unknown:
        raise InvalidRecord(f"line 1: unknown header field {quoted(sorted(unknown)[0])}")
    version = data.get("solrec")
    if type(version) is not int or version != FORMAT_VERSION:  # not True, not 1.0: the integer 1
        raise InvalidRecord(f'line 1: not a solrec record (expected "solrec": {FORMAT_VERSION})')
    if not isinstance(data.get("game"), str):
        raise InvalidRecord('line 1: the header needs "game"')
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidRecord('line 1: "players" is a list of names')
    chance = data.get("chance")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidRecord('line 1: "seed" is a whole number')
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidRecord('line 1: "options" is an object')
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, str):
        raise InvalidRecord('line 1: "rules" is a string')
    bots = data.get("bots")
    if bots is not None and (not isinstance(bots, dict) or not bots
                             or not all(isinstance(b, str) for b in bots.values())):
        raise InvalidRecord('line 1: "bots" is an object of players and their bots ("KIND[:SETTINGS]")')
    try:
        game = get_game(data["game"])
        options, upcast = upcast_options(game, options)
        header = make_header(game, players, options, chance if isinstance(chance, str) else "", seed, rules, bots)
        return attrs.evolve(header, upcast=upcast)
    except SolrecError as err:
        raise InvalidRecord(f"line 1: {err}") from None


def decide_record(text: str, notes: list[RecordNote] | None = None) -> tuple[Header, list[Step], Any, str | None]:
    """Decide every command of a record in turn, exactly as live play would.

    Returns the header, the steps to store, the final state and the id the record proposes; the
    record's comments are appended to ``notes`` when it is given, each on the position after its
    line's command (the header's on position 0). Raises InvalidRecord naming the first bad line;
    nothing is written by this function.
    """
    found: list[RecordNote] = []
    lines = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
    if not lines:
        raise InvalidRecord("the record is empty")
    head = _load_json(lines[0][1], lines[0][0])
    header = read_header(head)
    proposed_id = head.get("id") if isinstance(head.get("id"), str) else None
    if "notes" in head:
        found.extend(read_notes({"notes": head["notes"]}, lines[0][0], 0))
    game = get_game(header.game)
    codec = codec_for(game)
    state = initial_state(game, header)
    position = 0
    steps: list[Step] = []
    # The hash chain is only needed to verify recorded hashes; it is brought up to date lazily, so
    # a record without them is not encoded twice (the store encodes and chains the rows it writes).
    chain: dict[str, Any] = {"hash": genesis_hash(header), "steps": 0, "position": 0}

    def chained_hash() -> str:
        pending = steps[chain["steps"] :]
        if pending:
            rows = chain_rows(codec, chain["hash"], chain["position"], chain["steps"], pending)
            chain.update(hash=rows[-1].hash, steps=len(steps), position=position)
        return chain["hash"]

    def take(new_steps: list[Step]) -> None:
        nonlocal state, position
        for step in new_steps:
            state = fold(game, state, step.events)
            position += len(step.events)
            steps.append(step)

    for lineno, raw in lines[1:]:
        data = _load_json(raw, lineno)
        unknown = set(data) - _LINE_KEYS
        if unknown:
            raise InvalidRecord(f"line {lineno}: unknown field {quoted(sorted(unknown)[0])}")
        actor, notation = data.get("actor"), data.get("command")
        if not isinstance(actor, str) or not isinstance(notation, str):
            raise InvalidRecord(f'line {lineno}: a command line needs "actor" and "command" strings')
        if header.chance == SEEDED and actor != CHANCE:
            # chance lines may be left out of a seeded record: chance acts from the seed.
            take(advance_chance(game, header, state, position)[0])
        try:
            command = game.parse(notation, state)
            step = decide_as(game, header, state, position, actor, command)
        except SolrecError as err:
            raise InvalidRecord(f"line {lineno}: {actor} {quoted(notation)}: {err}") from None
        if "events" in data or "hashes" in data:
            _verify(lineno, data, step, codec, chained_hash(), position, len(steps))
        take([step])
        if "note" in data or "notes" in data:
            found.extend(read_notes(data, lineno, position))
    take(advance_chance(game, header, state, position)[0])
    if notes is not None:
        notes.extend(found)
    return header, steps, state, proposed_id


def split_records(text: str) -> list[tuple[int, str]]:
    """The records of a file written by ``export --with-forks``: each starts at a header line (one
    holding ``"solrec"``). Returns (the number of lines before it, its text); a file of one record
    gives itself."""
    lines = text.splitlines()
    starts = [0]
    for i, line in enumerate(lines[1:], 1):
        if '"solrec"' in line:  # only such lines are parsed here
            try:
                data = json.loads(line)
            except (ValueError, RecursionError):
                continue  # decide_record names the bad line
            if isinstance(data, dict) and "solrec" in data:
                starts.append(i)
    ends = starts[1:] + [len(lines)]
    return [(a, "\n".join(lines[a:b])) for a, b in zip(starts, ends)]


def fork_of(text: str, lineno: int) -> tuple[str, int] | None:
    """A variation's header names the record it forks from and where: ``"fork": {"of": ID, "at": POS}``."""
    head = _load_json(text.splitlines()[0], lineno)
    fork = head.get("fork")
    if fork is None:
        return None
    if (not isinstance(fork, dict) or set(fork) != {"of", "at"} or not isinstance(fork["of"], str)
            or type(fork["at"]) is not int or fork["at"] < 0):
        raise InvalidRecord(f'line {lineno}: "fork" is {{"of": ID, "at": POSITION}}')
    return fork["of"], fork["at"]


def _verify(lineno: int, data: dict, step: Step, codec, prev_hash: str, position: int, step_no: int) -> None:
    events = data.get("events")
    if events is not None:
        if not isinstance(events, list):
            raise InvalidRecord(f'line {lineno}: "events" is a list')
        produced = [{"type": e.TYPE, "version": e.VERSION, "data": to_plain(e)} for e in step.events]
        given = [to_plain(e) if isinstance(e, dict) else e for e in events]
        if produced != given:
            raise InvalidRecord(
                f"line {lineno}: {quoted(step.notation)} yields {json.dumps(produced)} under the current rules, "
                f"but the record says {json.dumps(events)}"
            )
    hashes = data.get("hashes")
    if hashes is not None:
        rows = chain_rows(codec, prev_hash, position, step_no, [step])
        if hashes != [r.hash for r in rows]:
            raise InvalidRecord(f"line {lineno}: the hashes do not match the events this command produces")


__all__ = ["InvalidRecord", "decide_record", "fork_of", "split_records", "export_lines", "header_line", "notes_fields", "read_header", "read_notes"]
