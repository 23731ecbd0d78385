"""Room ids and seat tokens: unguessable secrets from the OS CSPRNG; tokens are stored hashed."""

from __future__ import annotations

import hashlib
import secrets


def new_room_id() -> str:
    return secrets.token_urlsafe(16)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """SHA-256 is enough: a token has 256 random bits, so there is nothing to brute-force."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
