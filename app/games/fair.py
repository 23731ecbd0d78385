"""Provably fair deals: the commitment, the players' contributions and the shuffle keys.

The derivation, exactly (``docs/fairness.md`` says the same in prose, and ``static/js/verify.js``
computes it again in the browser):

- The server draws a **server seed** (32 bytes) and a **nonce** (16 bytes) from the operating
  system's CSPRNG. Its **commitment** is ``SHA-256(server_seed || nonce)``, published before the deal.
- Each seat of the deal may send a **contribution** of exactly 32 bytes; a seat that sent none
  contributes nothing (and the deal says so).
- The game's **shuffle seed** is ``SHA-256("houserules-fair-v1" || server_seed || c_0 || … || c_{n-1})``
  in lowercase hex (64 digits), where ``c_i`` is ``0x01`` followed by seat ``i``'s 32 bytes, or the
  single byte ``0x00`` for a seat without one. Seats are numbered as the deal numbers them.
  This is the ``seed`` string the game's ``new`` takes: the engines shuffle with it unchanged.
- Each shuffle of the game has a **label** (Palace ``deal``; Thousand ``deal-0``, ``deal-1`` …;
  Hold'em ``button-draw``, ``hand-1``, ``hand-2`` …). Its **shuffle key** is
  ``SHA-256(utf8(shuffle_seed + "\\0" + label))``: the key of ``cards.SeededRandom``. Its deck is
  the Fisher–Yates shuffle of the unshuffled cards by the key's stream (``shuffle_with_key``).
  The key's commitment ``SHA-256(key)`` is published when the shuffle is made, and the key itself
  when all of that shuffle's cards may be known (a Hold'em hand: at its end), before the server seed.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.games.errors import IllegalAction

DOMAIN = b"houserules-fair-v1"
SERVER_SEED_BYTES = 32
NONCE_BYTES = 16
CONTRIBUTION_BYTES = 32


@dataclass(frozen=True)
class Shuffle:
    """One shuffle a game made from its seed: its label, the cards before the shuffle (in the
    order ``cards.deck`` builds them) and whether all its cards may now be known (``open``)."""

    label: str
    cards: tuple[str, ...]
    open: bool
    # The round this shuffle was keyed by (``reseed``): ``{"seed": …, "fair": {…}}`` as the room
    # gave it; ``None`` for a shuffle keyed by the game's own seed.
    round: Mapping[str, Any] | None = None

    def seed_for(self, game_seed: str) -> str:
        """The seed this shuffle's key comes from: its round's, else the game's."""
        return str(self.round["seed"]) if self.round is not None else game_seed


RESEED = "reseed"
"""The server action that starts a new round for the shuffles to come (a game that deals more than
once: each Hold'em hand, each Thousand deal): ``{"type": "reseed", "seed": <64 hex>, "fair": {…}}``.
The seed keys every later shuffle (``shuffle_key(seed, label)``) until the next round; ``fair`` is the
room's material for it (server seed, nonce, commitment, contributions), kept with the shuffles it
keyed so that a record can show it. The action emits no event: the room publishes the round."""


def parse_reseed(action: Mapping[str, Any]) -> dict[str, Any]:
    """The round a ``reseed`` action starts, or ``IllegalAction`` (``bad_action``)."""
    seed = action.get("seed")
    material = action.get("fair", {})
    extra = set(action) - {"type", "seed", "fair"}
    if extra or not is_contribution(seed) or not isinstance(material, Mapping):
        raise IllegalAction("bad_action", "A reseed names a seed of 64 lowercase hex digits.")
    return {"seed": seed, "fair": dict(material)}


def new_server_seed() -> tuple[str, str]:
    """A fresh server seed and nonce (hex) from the operating system's CSPRNG (or, in a test server
    only, the next of a fixed sequence: ``fix_server_seeds``)."""
    if _fixed is not None:
        made = hashlib.sha256(f"{_fixed[0]}/{next(_fixed[1])}".encode()).hexdigest()
        return made[:2 * SERVER_SEED_BYTES], hashlib.sha256(made.encode()).hexdigest()[:2 * NONCE_BYTES]
    return secrets.token_hex(SERVER_SEED_BYTES), secrets.token_hex(NONCE_BYTES)


_fixed: tuple[str, Iterator[int]] | None = None


def fix_server_seeds(seed: str | None) -> None:
    """Tests only (``HOUSERULES_TEST_FIXED_SEED``, refused by the settings unless test settings are
    allowed): every server seed and nonce from then on is the next of a sequence made from ``seed``,
    so a test's deals repeat exactly from run to run; ``None`` goes back to the CSPRNG. Anyone who
    knows the seed knows every deal: never in a server people play on."""
    global _fixed
    _fixed = None if seed is None else (seed, itertools.count())


_HEX = frozenset("0123456789abcdefABCDEF")


def hex_bytes(value: object, size: int, what: str) -> bytes:
    """``size`` bytes from exactly ``2 * size`` hex digits (either case), else ``ValueError``."""
    return _hex_bytes(value, size, what)


def _hex_bytes(value: object, size: int, what: str) -> bytes:
    # Hex digits only (``bytes.fromhex`` would also skip spaces): the browser's verifier reads the same.
    if not isinstance(value, str) or len(value) != 2 * size or not _HEX.issuperset(value):
        raise ValueError(f"{what} must be {2 * size} hexadecimal digits")
    return bytes.fromhex(value)


def is_contribution(value: object) -> bool:
    """True for a well-formed contribution: 64 lowercase hexadecimal digits."""
    return (isinstance(value, str) and len(value) == 2 * CONTRIBUTION_BYTES
            and all(ch in "0123456789abcdef" for ch in value))


def commitment(server_seed: str, nonce: str) -> str:
    """``SHA-256(server_seed || nonce)`` in hex: what is published before the deal."""
    data = _hex_bytes(server_seed, SERVER_SEED_BYTES, "the server seed")
    data += _hex_bytes(nonce, NONCE_BYTES, "the nonce")
    return hashlib.sha256(data).hexdigest()


def shuffle_seed(server_seed: str, contributions: Sequence[str | None]) -> str:
    """The game's seed from the server seed and each seat's contribution (``None``: none sent)."""
    data = bytearray(DOMAIN)
    data += _hex_bytes(server_seed, SERVER_SEED_BYTES, "the server seed")
    for index, given in enumerate(contributions):
        if given is None:
            data.append(0)
        else:
            data.append(1)
            data += _hex_bytes(given, CONTRIBUTION_BYTES, f"the contribution of seat {index}")
    return hashlib.sha256(bytes(data)).hexdigest()


def shuffle_key(seed: str, label: str) -> str:
    """The key of the shuffle ``label`` of a game with ``seed`` (that of ``cards.SeededRandom``)."""
    return hashlib.sha256(f"{seed}\x00{label}".encode()).hexdigest()


def key_commitment(key: str) -> str:
    """``SHA-256(key)``: published when the shuffle is made, before its key."""
    return hashlib.sha256(_hex_bytes(key, 32, "a shuffle key")).hexdigest()


def shuffle_with_key(key: str, cards: Sequence[str]) -> list[str]:
    """Fisher–Yates of ``cards`` by the key's stream, written out on its own (not through
    ``cards.SeededRandom``) so that a verifier checks the engine rather than repeating it.

    The stream is ``SHA-256(key || counter)`` blocks, the counter 8 bytes big-endian from 0. A draw
    below ``n`` takes ``ceil(bits(n-1) / 8)`` bytes big-endian, masks them to ``bits(n-1)`` bits and
    is taken when below ``n`` (else drawn again). For ``i`` from the last index down to 1, swap
    ``i`` with a draw below ``i + 1``.
    """
    raw = _hex_bytes(key, 32, "a shuffle key")
    stream = bytearray()
    counter = 0

    def take(count: int) -> bytes:
        nonlocal counter
        while len(stream) < count:
            stream.extend(hashlib.sha256(raw + counter.to_bytes(8, "big")).digest())
            counter += 1
        out = bytes(stream[:count])
        del stream[:count]
        return out

    def below(n: int) -> int:
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(take(size), "big") & mask
            if value < n:
                return value

    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
