"""What a dishonest operator can do to a game record (tests only): change the game's own round
and recompute every hash of the record, re-signing with the server's own key, so that the record
alone still verifies. Only the player's receipts (``app/receipts.py``) catch it.

- ``rekey``: a server seed and nonce chosen after the contributions (a new commitment);
- ``write_at``: bytes written at a seat (one that withheld, or over a player's own bytes).
"""

from __future__ import annotations

import copy
import hashlib
import secrets
from typing import Any

from sqlalchemy import select

from app import registry, signing
from app.games import fair
from app.signing import Signer
from app.store.db import make_engine
from app.store.queries import server_keys


async def operator_signer(database_url: str) -> Signer:
    """The server's signing key, as its operator can read it from the database."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            private = (await conn.execute(select(server_keys.c.private_key))).scalar_one()
    finally:
        await engine.dispose()
    return Signer(str(private))


def _recompute(record: dict[str, Any], signer: Signer | None) -> dict[str, Any]:
    """Every hash of the game's own round again from its server seed, nonce and contributions."""
    out = record
    out["commitment"] = fair.commitment(out["server_seed"], out["nonce"])
    seed = fair.shuffle_seed(out["server_seed"], out["contributions"])
    out["seed"] = seed
    for shuffle in out["shuffles"]:
        if "round" in shuffle:
            continue  # a later round's: untouched
        key = fair.shuffle_key(seed, shuffle["label"])
        shuffle["commitment"] = fair.key_commitment(key)
        if "key" in shuffle:
            shuffle["key"] = key
            shuffle["deck"] = fair.shuffle_with_key(key, shuffle["cards"])
    game = registry.get(out["game"])
    dealt = game.new(game.sheet(out["sheet"]), int(out["players"]), seed=seed)
    out["dealt_view"] = game.view(dealt, out.get("seat"))
    if signer is not None:
        message = signing.round_message(out["room"], out["game_no"], None, out["commitment"],
                                        out["contributions"], out.get("hashes") or [])
        out["signature"] = signer.sign(message)
    return out


def rekey(record: dict[str, Any], signer: Signer | None = None) -> dict[str, Any]:
    """The record with a server seed chosen after the contributions (and all that follows)."""
    bad = copy.deepcopy(record)
    bad["server_seed"], bad["nonce"] = fair.new_server_seed()
    return _recompute(bad, signer)


def write_at(record: dict[str, Any], seat: int, signer: Signer | None = None) -> dict[str, Any]:
    """The record with bytes of the operator's choosing at ``seat`` (and their hash)."""
    bad = copy.deepcopy(record)
    value = secrets.token_hex(32)
    bad["contributions"][seat] = value
    if bad.get("hashes") is not None:
        bad["hashes"][seat] = hashlib.sha256(bytes.fromhex(value)).hexdigest()
    return _recompute(bad, signer)
