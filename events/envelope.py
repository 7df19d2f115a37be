"""The stored form of an event: its row in the log, and the hash chain that binds the rows.

A row's hash covers the previous row's hash and the row's own stored bytes: its head (position,
command number, actor, command, type, version, packed as one msgpack list) and its payload, so an
edited, dropped, inserted or reordered row breaks the chain. The chain starts from the hash of the
header. Neither the game id nor the times are hashed: an exported game imported under another id
reproduces the same hashes.

The store keeps each row's head as the very bytes the hash covers (docs/scaling.md): checking the
chain hashes stored bytes, it never packs them again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

import msgpack

from solrec.core import frozen
from solrec.core.game import Game
from solrec.core.play import Header, Step
from solrec.core.words import at_event

from .codec import EventCodec, pack


class Row(NamedTuple):
    """One stored event. ``step`` numbers the commands (0, 1, ...); events of one command share it.
    ``head`` is ``pack_head`` of the first six fields: a row is built from its head (read back) or
    its head from its fields (written), never otherwise, so the two cannot disagree.

    A named tuple, not an attrs class: replay builds one per stored event, and a tuple is built
    several times faster; it is just as immutable."""

    seq: int
    step: int
    actor: str
    command: str
    type: str
    version: int
    payload: bytes
    hash: str
    head: bytes
    time: str = ""


def genesis_hash(header: Header) -> str:
    return hashlib.sha256(b"solrec-genesis\0" + pack(header.recorded_dict())).hexdigest()


def row_hash(prev: str, seq: int, step: int, actor: str, command: str, tag: str, version: int, payload: bytes) -> str:
    head = pack_head(seq, step, actor, command, tag, version)
    return hashlib.sha256(bytes.fromhex(prev) + head + payload).hexdigest()


def pack_head(seq: int, step: int, actor: str, command: str, tag: str, version: int) -> bytes:
    """The head of a row: a list of plain ints and strings, which ``canonical`` leaves as it is, so
    packed directly it is the same bytes as ``pack`` gives."""
    return _pack_list([seq, step, actor, command, tag, version])


# One packer, built once (``msgpack.packb`` builds one per call); it holds no state between calls.
_pack_list = msgpack.Packer(use_bin_type=True).pack


def chain_rows(
    codec: EventCodec, prev_hash: str, next_seq: int, next_step: int, steps: Sequence[Step], time: str = ""
) -> list[Row]:
    """Envelope the events of ``steps`` as rows continuing a chain."""
    rows: list[Row] = []
    seq, step_no, prev = next_seq, next_step, prev_hash
    for step in steps:
        for event in step.events:
            tag, version, payload = codec.encode(event)
            head = pack_head(seq, step_no, step.actor, step.notation, tag, version)
            digest = hashlib.sha256(bytes.fromhex(prev) + head + payload).hexdigest()
            rows.append(Row(seq, step_no, step.actor, step.notation, tag, version, payload, digest, head, time))
            prev = digest
            seq += 1
        step_no += 1
    return rows


@frozen.value
class ChainBreak:
    seq: int
    reason: str


def check_chain(header: Header, rows: Iterable[Row]) -> ChainBreak | None:
    """The first row where the chain does not hold, or None."""
    prev = bytes.fromhex(genesis_hash(header))
    expected_seq, last_step = 0, -1
    sha256 = hashlib.sha256  # one hash per row: this runs for every event loaded
    for seq, step, _, _, _, _, payload, stored, head, _ in rows:
        if seq != expected_seq:
            return ChainBreak(expected_seq, f"its event is missing (the one for {at_event(seq, step)} is in its place)")
        if (step != last_step and step != last_step + 1) or step < 0:
            return ChainBreak(seq, "the event is out of command order")
        digest = sha256(prev + head + payload).digest()
        if digest.hex() != stored:
            return ChainBreak(seq, "the event does not match its hash: it was edited, or a row before it was")
        prev, last_step, expected_seq = digest, step, expected_seq + 1
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


@cache
def codec_for(game: Game) -> EventCodec:
    """The game's codec, built once per game (it is immutable)."""
    return EventCodec.for_game(game)
