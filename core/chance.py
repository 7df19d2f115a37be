"""Seeded chance: outcomes derived from a hash of (seed, position), never from ``random``.

The same seed and log position give the same dice, shuffles and draws on every machine and Python
version, because everything is built from SHA-256 and integer arithmetic.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

import attrs

T = TypeVar("T")


@attrs.define
class SeededDraw:
    """A deterministic stream of integers for the chance step at ``position`` of a game's log.

    ``position`` is the number of events already in the log when chance acts, so every chance step
    of a game draws from its own stream.
    """

    seed: int
    position: int
    _counter: int = 0
    _pool: int = 0
    _bits: int = 0

    def _refill(self) -> None:
        digest = hashlib.sha256(f"solrec-chance:{self.seed}:{self.position}:{self._counter}".encode()).digest()
        self._counter += 1
        self._pool = (self._pool << 256) | int.from_bytes(digest, "big")
        self._bits += 256

    def _take(self, nbits: int) -> int:
        while self._bits < nbits:
            self._refill()
        self._bits -= nbits
        value = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        # ``_take`` inlined (validation draws every seeded roll of a corpus again): the same bits, in
        # the same order.
        nbits = (n - 1).bit_length()
        while True:
            while self._bits < nbits:
                self._refill()
            bits = self._bits - nbits
            pool = self._pool
            value = pool >> bits
            self._pool, self._bits = pool & ((1 << bits) - 1), bits
            if value < n:
                return value

    def die(self, sides: int = 6) -> int:
        return 1 + self.below(sides)

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        """``count`` times ``1 + below(sides)``: the same bits in the same order, taken in one loop over
        local integers (validation draws every seeded roll of a corpus again). The pool keeps the bits
        already taken above the ones left until it is stored back, masked."""
        if sides <= 1:
            return tuple([1 + self.below(sides) for _ in range(count)])
        nbits = (sides - 1).bit_length()
        mask = (1 << nbits) - 1
        pool, bits = self._pool, self._bits
        out: list[int] = []
        while len(out) < count:
            if bits < nbits:
                self._pool, self._bits = pool & ((1 << bits) - 1), bits
                self._refill()
                pool, bits = self._pool, self._bits
            bits -= nbits
            value = (pool >> bits) & mask
            if value < sides:
                out.append(1 + value)
        self._pool, self._bits = pool & ((1 << bits) - 1), bits
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """Fisher-Yates over a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)
