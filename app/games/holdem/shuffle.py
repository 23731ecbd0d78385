"""The per-hand shuffle: exactly ``cards.SeededRandom(seed, label).shuffle(deck)``, made quicker.

A table shuffles once per hand, so this is on the hot path. The draws, the byte stream
(SHA-256 of the key and a counter) and the rejection sampling are those of ``SeededRandom``
for a deck of at most 256 cards (one byte per draw); a test checks that both give the same
decks, so a published seed verifies with either.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASKS = [0, *((1 << (n - 1).bit_length()) - 1 for n in range(1, 257))]


def shuffle(seed: str, label: str, items: Sequence[T]) -> list[T]:
    out = list(items)
    if len(out) > 256:
        raise ValueError("this shuffle is for decks of at most 256 cards")
    key = hashlib.sha256(f"{seed}\x00{label}".encode()).digest()
    sha = hashlib.sha256
    # Three blocks cover a 52-card shuffle almost always; more are drawn when needed.
    buffer = b"".join(sha(key + c.to_bytes(8, "big")).digest() for c in range(3))
    size = len(buffer)
    counter = 3
    at = 0
    masks = _MASKS
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        mask = masks[n]
        while True:
            if at == size:
                buffer += sha(key + counter.to_bytes(8, "big")).digest()
                counter += 1
                size += 32
            value = buffer[at] & mask
            at += 1
            if value < n:
                break
        out[i], out[value] = out[value], out[i]
    return out
