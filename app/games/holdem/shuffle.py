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
    counter = 0
    buffer = b""
    at = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        mask = _MASKS[n]
        while True:
            if at == len(buffer):
                buffer = sha(key + counter.to_bytes(8, "big")).digest()
                counter += 1
                at = 0
            value = buffer[at] & mask
            at += 1
            if value < n:
                break
        out[i], out[value] = out[value], out[i]
    return out
