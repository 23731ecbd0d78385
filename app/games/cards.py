"""Cards, decks and the shuffle.

A card is a two-character code, rank then suit, as poker tools write them: ``Ah``, ``Ts``, ``9c``.
Ranks run ``23456789TJQKA``; suits are ``c d h s``. Jokers are ``Xr`` and ``Xb`` (red and black).
With several decks the same code occurs more than once; games that need to tell twins apart
keep their own positions, never a card identity.

Randomness: every deal is expanded from a seed by SHA-256 in counter mode and shuffled by
Fisher–Yates with rejection sampling (no modulo bias). A deal is reproducible from its seed and
unpredictable without it; fresh seeds come from the operating system's CSPRNG.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TypeVar

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ("Xr", "Xb")

Card = str
T = TypeVar("T")


def is_card(code: object) -> bool:
    """True for a well-formed card code (jokers included)."""
    if not isinstance(code, str) or len(code) != 2:
        return False
    return (code[0] in RANKS and code[1] in SUITS) or code in JOKERS


def sort_key(order: str = RANKS) -> Callable[[Card], int]:
    """The sort key of a game's card order: by rank as ranked in ``order`` (low first), then by
    suit ``c d h s``; jokers before every other card (red, then black). Hands and shown cards are
    kept in this order, so their order tells nothing."""
    return _sort_keys(order).__getitem__


@cache
def _sort_keys(order: str) -> dict[Card, int]:
    keys = {r + s: 4 * i + j for i, r in enumerate(order) for j, s in enumerate(SUITS)}
    keys.update({joker: j - 4 for j, joker in enumerate(JOKERS)})
    return keys


def deck(*, low_rank: str = "2", jokers: int = 0, decks: int = 1) -> list[Card]:
    """An unshuffled deck: all ranks from ``low_rank`` to the ace in every suit.

    ``low_rank="2"`` gives 52 cards, ``"6"`` the 36-card deck, ``"9"`` the 24-card deck.
    ``jokers`` are added per deck (at most two per deck).
    """
    if low_rank not in RANKS:
        raise ValueError(f"unknown rank {low_rank!r}")
    if not 0 <= jokers <= 2:
        raise ValueError("a deck holds at most two jokers")
    one = [r + s for r in RANKS[RANKS.index(low_rank):] for s in SUITS] + list(JOKERS[:jokers])
    return one * decks


def new_seed() -> str:
    """A fresh secret seed from the operating system's CSPRNG (64 hex digits)."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """What may be published at the deal: the seed's commitment, verifiable once it is revealed."""
    return hashlib.sha256(b"houserules-seed:" + seed.encode()).hexdigest()


class SeededRandom:
    """A deterministic random stream: SHA-256(seed, label, counter) blocks.

    ``label`` separates independent streams from one seed (for example one per hand of a
    table game), so a game needs only one seed for its whole life.
    """

    def __init__(self, seed: str, label: str = "") -> None:
        self._key = hashlib.sha256(f"{seed}\x00{label}".encode()).digest()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A Fisher–Yates shuffled copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def shuffled(cards: Iterable[Card], seed: str, label: str = "deal") -> list[Card]:
    """``cards`` shuffled by the stream of ``seed`` and ``label``; the first card is the top."""
    return SeededRandom(seed, label).shuffle(list(cards))


def parse_cards(value: object, *, field: str = "cards") -> list[Card]:
    """Validate a list of card codes from a client; raises ValueError naming the bad entry."""
    if not isinstance(value, list):
        raise ValueError(f"{field} must be a list of card codes")
    for item in value:
        if not is_card(item):
            raise ValueError(f"{field} holds {str(item)[:8]!r}, which is not a card code like 'Qs' or 'Th'")
    return list(value)
