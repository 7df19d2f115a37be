"""The stored form of an event: its row in the log, and the hash chain that binds the rows.

A row's hash covers the previous row's hash and the row's own stored bytes (position, command,
actor, type, version, payload), so an edited, dropped, inserted or reordered row breaks the chain.
The chain starts from the hash of the header. Neither the game id nor the times are hashed: an
exported game imported under another id reproduces the same hashes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import attrs

from solrec.core.game import Game
from solrec.core.play import Header, Step

from .codec import EventCodec, pack


@attrs.frozen
class Row:
    """One stored event. ``step`` numbers the commands (0, 1, ...); events of one command share it."""

    seq: int
    step: int
    actor: str
    command: str
    type: str
    version: int
    payload: bytes
    hash: str
    time: str = ""


def genesis_hash(header: Header) -> str:
    return hashlib.sha256(b"solrec-genesis\0" + pack(header.recorded_dict())).hexdigest()


def row_hash(prev: str, seq: int, step: int, actor: str, command: str, tag: str, version: int, payload: bytes) -> str:
    h = hashlib.sha256()
    h.update(bytes.fromhex(prev))
    h.update(pack([seq, step, actor, command, tag, version]))
    h.update(payload)
    return h.hexdigest()


def chain_rows(
    codec: EventCodec, prev_hash: str, next_seq: int, next_step: int, steps: Sequence[Step], time: str = ""
) -> list[Row]:
    """Envelope the events of ``steps`` as rows continuing a chain."""
    rows: list[Row] = []
    seq, step_no, prev = next_seq, next_step, prev_hash
    for step in steps:
        for event in step.events:
            tag, version, payload = codec.encode(event)
            digest = row_hash(prev, seq, step_no, step.actor, step.notation, tag, version, payload)
            rows.append(Row(seq, step_no, step.actor, step.notation, tag, version, payload, digest, time))
            prev = digest
            seq += 1
        step_no += 1
    return rows


@attrs.frozen
class ChainBreak:
    seq: int
    reason: str


def check_chain(header: Header, rows: Iterable[Row]) -> ChainBreak | None:
    """The first row where the chain does not hold, or None."""
    prev = genesis_hash(header)
    expected_seq, expected_step = 0, 0
    last_step = -1
    for row in rows:
        if row.seq != expected_seq:
            return ChainBreak(row.seq, f"event {expected_seq} is missing (found {row.seq} in its place)")
        if row.step not in (last_step, last_step + 1) or row.step < expected_step:
            return ChainBreak(row.seq, f"event {row.seq} is out of command order")
        digest = row_hash(prev, row.seq, row.step, row.actor, row.command, row.type, row.version, row.payload)
        if digest != row.hash:
            return ChainBreak(row.seq, f"event {row.seq} does not match its hash: it was edited, or a row before it was")
        prev, last_step, expected_seq = row.hash, row.step, expected_seq + 1
    return None


def group_steps(rows: Sequence[Row]) -> list[list[Row]]:
    """Rows grouped by the command that produced them, in order."""
    groups: list[list[Row]] = []
    for row in rows:
        if groups and groups[-1][0].step == row.step:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def codec_for(game: Game) -> EventCodec:
    return EventCodec.for_game(game)
