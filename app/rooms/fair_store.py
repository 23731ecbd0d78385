"""The pending fair round in the database (docs/fairness.md, "No silent re-roll").

A room's next round (server seed, nonce, commitment and the contributions so far) lives in its row,
``rooms.fair_pending``: written when a room without one comes into memory, with the commit that
seals the round before it (``pipeline.commit``), and at each contribution (here, before the
``contributed`` answer). So after a restart, a reload or a new owner the room shows the same
commitment with the same contributions; only a commit that stores a deal or a ``reseed`` replaces it.
"""

from __future__ import annotations

import logging

from app.rooms.core import RoomCore
from app.store import queries

log = logging.getLogger(__name__)


async def ensure_stored(room: RoomCore) -> None:
    """A room that came into memory without a stored round (new, or from before rounds were
    stored) stores the one it drew, before anyone is shown its commitment."""
    if not room.owns() or room.fair.unstored() is None:
        return
    pending = room.fair.pending
    if await queries.store_fair_pending(room.engine, room.id, pending.to_json(), room.epoch):
        room.fair.stored = pending.commitment


async def store(room: RoomCore) -> bool:
    """Store the pending round as it stands (its hashes just sealed); whether it was."""
    pending = room.fair.pending
    try:
        stored = await queries.store_fair_pending(room.engine, room.id, pending.to_json(), room.epoch)
    except Exception:
        log.exception("room %s: the pending round could not be stored", room.id)
        return False
    if stored:
        room.fair.stored = pending.commitment
    return stored


async def keep_contribution(room: RoomCore, member_id: int, kind: str) -> bool:
    """Store the pending round with a contribution (its ``hash`` or its ``bytes``) just taken; when
    that fails it is taken back (the member is told to send it again) and ``False`` is returned."""
    pending = room.fair.pending
    try:
        stored = await queries.store_fair_pending(room.engine, room.id, pending.to_json(), room.epoch)
    except Exception:
        log.exception("room %s: a contribution could not be stored", room.id)
        stored = False
    if not stored:
        (pending.hashes if kind == "hash" else pending.contributions).pop(member_id, None)
        return False
    room.fair.stored = pending.commitment
    return True
