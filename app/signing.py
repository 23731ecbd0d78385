"""Ed25519 signatures on fair deals (docs/fairness.md, "Signatures").

The server signs each commitment it shows (``room.fair.signature``) and each round it seals (the
``deal`` and ``fair_round`` events' ``signature``), so a player holding a signed commitment that
was never sealed nor revealed, or two sealed rounds for one deal, can show anyone that the server
did it. What is signed is a canonical JSON text (keys sorted, no spaces, ASCII), which the page
(``static/js/receipts.js``) builds the same way:

- a commitment: ``{"commitment": C, "room": R, "type": "houserules-commitment/1"}``;
- a sealed round: ``{"commitment": C, "contributions": [...], "game_no": N, "hashes": [...],
  "label": L, "room": R, "type": "houserules-round/1"}`` (``label`` null for the game's own round,
  sealed at the deal; ``hashes`` the seats' SHA-256 of their bytes, left out for a round without).

Used by the server and by ``app.verify``; nothing here touches the network or the database.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

COMMITMENT_TYPE = "houserules-commitment/1"
ROUND_TYPE = "houserules-round/1"


def canonical(value: dict[str, Any]) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def commitment_message(room: str, commitment: str) -> bytes:
    return canonical({"type": COMMITMENT_TYPE, "room": room, "commitment": commitment})


def round_message(room: str, game_no: int, label: str | None, commitment: str,
                  contributions: Sequence[str | None], hashes: Sequence[str | None] = ()) -> bytes:
    """A sealed round; ``hashes`` (the seats' phase-one SHA-256s) only when it had them."""
    value: dict[str, Any] = {"type": ROUND_TYPE, "room": room, "game_no": game_no, "label": label,
                             "commitment": commitment, "contributions": list(contributions)}
    if hashes:
        value["hashes"] = list(hashes)
    return canonical(value)


class Signer:
    """The server's key: signs messages, gives its public key as 64 hex digits."""

    def __init__(self, private_hex: str) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
        raw = self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public_hex = raw.hex()

    @staticmethod
    def new_private_hex() -> str:
        raw = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
        return raw.hex()

    def sign(self, message: bytes) -> str:
        return self._key.sign(message).hex()


_HEX = frozenset("0123456789abcdefABCDEF")


def _is_hex(value: object, size: int) -> bool:
    # Hex digits only, as the page reads them (``bytes.fromhex`` would also skip spaces).
    return isinstance(value, str) and len(value) == 2 * size and all(c in _HEX for c in value)


def valid(public_hex: object, message: bytes, signature: object) -> bool:
    """Whether ``signature`` (hex) is the key's (hex) on ``message``; False for anything malformed."""
    if not _is_hex(public_hex, 32) or not _is_hex(signature, 64):
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(str(public_hex)))
        key.verify(bytes.fromhex(str(signature)), message)
    except (ValueError, InvalidSignature):
        return False
    return True
