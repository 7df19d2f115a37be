"""Comments on positions (``solrec note``): stored beside a game, never in it.

A comment is not an event and is not in the game's hash chain: adding or deleting one never changes
the game. Comments keep their own chain per game, in the ``notes`` table: each comment's hash covers
the previous one's and its number, position, author, time, mark and text; the chain starts from a
hash of the game's genesis (so it belongs to that header). ``note_heads`` records each game's comment
count and chain head, the way ``games`` records the events' count and head: a comment edited,
dropped (the last one too), inserted or reordered behind solrec's back is found by ``validate``.
Deleting a comment through solrec chains the comments after it again.

A seal made since comments exist binds their count and head too (events/seal.py); ``note_heads``
keeps what it covered (``sealed_notes``, ``sealed_head``). Like the events' chain, this one is not
keyed: without a seal, someone who can write the file can recompute it (docs/security.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import attrs
import msgpack

from solrec.core import frozen
from solrec.core.errors import CorruptLog, InvalidSetup
from solrec.core.words import quoted

from .envelope import genesis_hash
from .store import MAX_TEXT, Store, now

# A referee's marks: the annotation glyphs players know from chess, and the two a dispute needs.
MARKS = ("!", "?", "!!", "??", "!?", "?!", "disputed", "ruled")
MAX_NOTE = 4000  # characters of one comment's text
MAX_BY = 80  # characters of an author's name


@frozen.value
class Note:
    n: int  # the comment's number in its game (1, 2, ...; never reused while later ones exist)
    position: int  # events applied: the position it comments on
    by: str  # its author ("" for a note read from a record, which names none)
    time: str
    mark: str  # one of MARKS, or ""
    text: str
    hash: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "position": self.position, "by": self.by, "time": self.time,
                "mark": self.mark or None, "text": self.text}

    def line(self) -> str:
        """``#2 [disputed] Ann: text``"""
        mark = f" [{self.mark}]" if self.mark else ""
        who = f" {self.by}:" if self.by else ""
        return f"#{self.n}{mark}{who} {self.text}".rstrip()


@frozen.value
class Notes:
    """A game's comments as stored, and what ``note_heads`` records of them (None: no row)."""

    notes: tuple[Note, ...] = ()
    recorded: tuple[int, str] | None = None  # count, head
    sealed: tuple[int, str] | None = None  # count, head a seal covered

    def at(self, position: int) -> list[Note]:
        return [n for n in self.notes if n.position == position]


NO_NOTES = Notes()


def check_mark(mark: str | None) -> str:
    if mark is None or mark == "":
        return ""
    if mark not in MARKS:
        raise InvalidSetup(f"mark {quoted(mark)}: use one of {', '.join(MARKS)}")
    return mark


def check_text(text: str, by: str) -> None:
    if len(text) > MAX_NOTE:
        raise InvalidSetup(f"a comment is at most {MAX_NOTE} characters (this one has {len(text)})")
    if len(by) > MAX_BY or any(ord(c) < 32 for c in by):
        raise InvalidSetup(f"author {quoted(by[:40])}: a name of at most {MAX_BY} characters, on one line")


def genesis(events_genesis: str) -> str:
    """The start of a game's comment chain: bound to its header through the events' genesis."""
    return hashlib.sha256(b"solrec-notes\0" + events_genesis.encode()).hexdigest()


def note_hash(prev: str, n: int, position: int, by: str, time: str, mark: str, text: str) -> str:
    body = msgpack.packb([n, position, by, time, mark, text], use_bin_type=True)
    return hashlib.sha256(prev.encode() + b"\0" + body).hexdigest()


def chain(start: str, notes: Sequence[Note]) -> list[Note]:
    """The notes with their hashes computed in order from ``start``."""
    out, prev = [], start
    for note in notes:
        prev = note_hash(prev, note.n, note.position, note.by, note.time, note.mark, note.text)
        out.append(attrs.evolve(note, hash=prev))
    return out


def head_after(start: str, notes: Sequence[Note], count: int) -> str:
    return notes[count - 1].hash if count else start


def problem(events_genesis: str, stored: Notes, events: int) -> tuple[int, str] | None:
    """Where a game's stored comments do not hold together: (the position concerned, why), or None."""
    start = genesis(events_genesis)
    prev = start
    for i, note in enumerate(stored.notes):
        if note_hash(prev, note.n, note.position, note.by, note.time, note.mark, note.text) != note.hash:
            return note.position, f"comment {note.n} was edited, or comments were dropped or reordered (its hash does not chain)"
        if i and note.n <= stored.notes[i - 1].n:
            return note.position, f"comment {note.n} is out of order"
        if note.position > events:
            return events, f"comment {note.n} is on position {note.position}, past the end of the log ({events})"
        if note.mark not in ("", *MARKS):
            return note.position, f"comment {note.n} has the mark {quoted(note.mark[:20])}, not one solrec knows"
        prev = note.hash
    if stored.recorded is None:
        if stored.notes:
            return stored.notes[-1].position, f"{len(stored.notes)} comments have no recorded count and head"
        return None
    count, head = stored.recorded
    if count != len(stored.notes):
        at = stored.notes[-1].position if stored.notes else 0
        return at, f"the game records {count} comments but {len(stored.notes)} are stored (comments were dropped)"
    if head != prev:
        at = stored.notes[-1].position if stored.notes else 0
        return at, "the last comment is not the one the game records"
    return None


# -- the store ------------------------------------------------------------------------------------


def _has_tables(store: Store) -> bool:
    return store.has_table("notes")


def _make_tables(store: Store) -> None:
    store.create_table("notes")
    store.create_table("note_heads")


_PICK = ", ".join(
    f"case when length({c}) <= {MAX_TEXT} then {c} end" for c in ("n", "position", "by", "time", "mark", "text", "hash")
)


def read(store: Store, game_id: str) -> Notes:
    """A game's comments as stored (types checked; a value over its bound is damaged, never read)."""
    if not _has_tables(store):
        return NO_NOTES
    notes = []
    for values in store.query(f"select {_PICK} from notes where game_id = ? order by n", [game_id]):
        n, position, by, time, mark, text, digest = values
        if not (type(n) is int and type(position) is int and all(isinstance(v, str) for v in (by, time, mark, text, digest))):
            raise CorruptLog(f"game {quoted(game_id)}: a stored comment is not of its type (or over {MAX_TEXT} long)")
        notes.append(Note(n, position, by, time, mark, text, digest))
    rows = store.query(
        "select notes, case when length(head) <= 200 then head end, sealed_notes,"
        " case when length(sealed_head) <= 200 then sealed_head end from note_heads where game_id = ?",
        [game_id],
    )
    recorded = sealed = None
    if rows:
        count, head, sealed_count, sealed_head = rows[0]
        if type(count) is not int or not isinstance(head, str):
            raise CorruptLog(f"game {quoted(game_id)}: its recorded comment count or head is not of its type")
        recorded = (count, head)
        if sealed_count is not None or sealed_head is not None:
            if type(sealed_count) is not int or not isinstance(sealed_head, str):
                raise CorruptLog(f"game {quoted(game_id)}: what its seal covered of its comments is not of its type")
            sealed = (sealed_count, sealed_head)
    return Notes(tuple(notes), recorded, sealed)


def _events_genesis(store: Store, game_id: str) -> str:
    """The events' genesis as the chain starts from it: the hash of the stored header (never the
    ``genesis`` column, which nothing else reads back either)."""
    return genesis_hash(store.header(game_id))


def _write(store: Store, game_id: str, notes: Sequence[Note], expected: Notes | None) -> list[Note]:
    """Replace the game's comments by ``notes`` (chained again), in one transaction; with
    ``expected``, only if the stored comments are still those (another writer changes nothing)."""
    start = genesis(_events_genesis(store, game_id))
    chained = chain(start, notes)
    with store.transaction() as conn:
        _make_tables(store)
        if expected is not None and read(store, game_id).notes != expected.notes:
            from .store import ConcurrencyConflict

            raise ConcurrencyConflict(f"game {quoted(game_id)}: its comments changed meanwhile; nothing was written")
        conn.execute("delete from notes where game_id = ?", [game_id])
        conn.executemany(
            "insert into notes (game_id, n, position, by, time, mark, text, hash) values (?,?,?,?,?,?,?,?)",
            [(game_id, x.n, x.position, x.by, x.time, x.mark, x.text, x.hash) for x in chained],
        )
        head = head_after(start, chained, len(chained))
        updated = conn.execute(
            "update note_heads set notes = ?, head = ? where game_id = ?", [len(chained), head, game_id]
        ).rowcount
        if not updated:
            conn.execute("insert into note_heads (game_id, notes, head) values (?,?,?)", [game_id, len(chained), head])
    return chained


def checked(store: Store, game_id: str, events: int | None = None) -> Notes:
    """The game's comments, refused (CorruptLog) unless they hold together: a reading command shows
    no damaged comment, and a writer never chains damaged ones again as if they were sound.
    ``events``: the log's length to check positions against (default: the recorded one)."""
    current = read(store, game_id)
    if current is NO_NOTES:
        return current
    row = store.game_row(game_id)
    if events is None:
        events = row["events"] if type(row["events"]) is int else 0
    broken = problem(_events_genesis(store, game_id), current, events)
    if broken is not None:
        raise CorruptLog(f"game {quoted(game_id)} at position {broken[0]}: {broken[1]}")
    return current


def add(store: Store, game_id: str, position: int, by: str, mark: str, text: str, time: str | None = None) -> Note:
    """Append a comment to comments that hold together."""
    current = checked(store, game_id)
    n = current.notes[-1].n + 1 if current.notes else 1
    note = Note(n, position, by, time or now(), check_mark(mark), text)
    check_text(text, by)
    return _write(store, game_id, [*current.notes, note], current)[-1]


def add_many(store: Store, game_id: str, notes: Sequence[tuple[int, str, str, str, str]]) -> list[Note]:
    """Store a new game's comments (position, by, time, mark, text), numbered in order."""
    if not notes:
        return []
    made = [Note(i + 1, p, by, time or now(), mark, text) for i, (p, by, time, mark, text) in enumerate(notes)]
    return _write(store, game_id, made, NO_NOTES)


def delete(store: Store, game_id: str, n: int) -> Note:
    current = checked(store, game_id)
    gone = [x for x in current.notes if x.n == n]
    if not gone:
        numbers = ", ".join(str(x.n) for x in current.notes) or "none"
        raise InvalidSetup(f"{game_id} has no comment {n} (its comments: {numbers})")
    _write(store, game_id, [x for x in current.notes if x.n != n], current)
    return gone[0]


def drop_after(store: Store, game_id: str, end: int, events_before: int) -> list[Note]:
    """Drop the comments on positions past ``end`` (``undo`` from ``events_before`` events); returns them."""
    current = checked(store, game_id, events_before)
    gone = [x for x in current.notes if x.position > end]
    if gone:
        _write(store, game_id, [x for x in current.notes if x.position <= end], current)
    return gone


def mark_sealed(store: Store, game_id: str, count: int, head: str) -> None:
    """Record what a seal about to be made covers of the game's comments."""
    with store.transaction() as conn:
        _make_tables(store)
        updated = conn.execute(
            "update note_heads set sealed_notes = ?, sealed_head = ? where game_id = ?", [count, head, game_id]
        ).rowcount
        if not updated:
            conn.execute(
                "insert into note_heads (game_id, notes, head, sealed_notes, sealed_head) values (?,?,?,?,?)",
                [game_id, count, head, count, head],
            )


def games_marked(store: Store, mark: str | None = None) -> set[str]:
    """The ids of games with a comment carrying a mark (``mark``: that one)."""
    if not _has_tables(store):
        return set()
    if mark is None:
        rows = store.query("select distinct game_id from notes where mark != ''")
    else:
        rows = store.query("select distinct game_id from notes where mark = ?", [mark])
    return {str(r[0]) for r in rows}


def marks_of(store: Store, game_id: str) -> list[str]:
    return [x.mark for x in read(store, game_id).notes if x.mark]
