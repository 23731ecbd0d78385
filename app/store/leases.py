"""Room leases (``rooms.lease_owner``, ``lease_epoch``, PostgreSQL): one instance runs a room at a time.

A room's lease holds while its owner's heartbeat (``instances.alive_until``) has not passed and the
owner's listening session is still connected. Renewing is one row an instance, whatever the number
of its rooms: renewing each room's own lease rewrote (and locked) every row an instance ran once a
second, and a batch of moves to those rooms waited for the renewal (up to 0.1 s at 1,000 rooms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.room_locks import rooms_locked_in_order

_DB_NOW = "CAST(extract(epoch from clock_timestamp()) AS float8)"
# An instance's LISTEN connection carries ``application_name`` ``houserules <instance>``: a lease
# whose owner has no such session left (its process died) is free at once, not only when its
# heartbeat ends.
LISTENER_APP = "houserules "
# The owner's heartbeat, beaten (or first written) with every renewal and every take: a room this
# instance takes is never free for want of a heartbeat not written yet.
_BEAT = ("beat AS (INSERT INTO instances (id, alive_until)"
         f" VALUES (:owner, {_DB_NOW} + CAST(:seconds AS float8))"
         " ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until)")
# Heartbeats an hour past their end belong to instances long gone (a clean stop deletes its own).
_FORGET_GONE = f"gone AS (DELETE FROM instances WHERE alive_until < {_DB_NOW} - 3600 AND id <> :owner)"
# The rooms a take or release names (``:ids``), locked in id order (``app.store.room_locks``).
_IDS = "CAST(:ids AS varchar[])"


# The instances alive: heartbeat not ended and listening session connected. Worked out once a
# statement (a follower's take asks about every room it follows, every second; looking each room's
# owner up in ``pg_stat_activity`` built the list of sessions again for each one).
_ALIVE = ("alive AS MATERIALIZED (SELECT i.id FROM instances AS i"
          f" WHERE i.alive_until >= {_DB_NOW} AND EXISTS (SELECT 1 FROM pg_stat_activity AS a"
          f" WHERE a.application_name = '{LISTENER_APP}' || i.id))")
# A room whose lease is free to take: nobody's, ``owner``'s own, or its owner not alive.
_FREE = "(lease_owner IS NULL OR lease_owner = :owner OR lease_owner NOT IN (SELECT id FROM alive))"
# Only the rooms that look free are locked (and looked at again once locked): a follower asking
# every second for the rooms it follows never holds a row their owner's moves are waiting for. Two
# takes at once: the later one reads heartbeats as they were when it began, so it may take a room
# the earlier one has just taken, under the next epoch; the earlier taker's commits are then refused
# (the epoch) and it follows.
_TAKE_LEASES = text(
    f"WITH {_BEAT}, {_ALIVE}, {rooms_locked_in_order(_IDS, _FREE)} "
    "UPDATE rooms SET lease_owner = :owner, lease_epoch = lease_epoch + 1"
    f" WHERE id = ANY(ARRAY(SELECT id FROM k)) AND {_FREE}"
    " RETURNING id, lease_epoch")
# A read of the rooms, no lock on them: a batch of moves never waits for a renewal. It answers with
# the rooms lost (taken over), usually none, rather than the many kept.
_RENEW_LEASES = text(
    f"WITH {_BEAT}, {_FORGET_GONE} "
    "SELECT l.id FROM unnest(CAST(:ids AS varchar[]), CAST(:epochs AS integer[])) AS l(id, epoch)"
    " WHERE NOT EXISTS (SELECT 1 FROM rooms WHERE rooms.id = l.id AND rooms.lease_owner = :owner"
    " AND rooms.lease_epoch = l.epoch)")
_RELEASE_LEASES = text(
    f"WITH {rooms_locked_in_order(_IDS)} "
    "UPDATE rooms SET lease_owner = NULL"
    " WHERE id = ANY(ARRAY(SELECT id FROM k)) AND lease_owner = :owner")
_STOP_BEATING = text("DELETE FROM instances WHERE id = :owner")


async def take_leases(engine: AsyncEngine, owner: str, room_ids: Sequence[str], seconds: float
                      ) -> dict[str, int]:
    """Take the leases of those rooms nobody holds (none, or its owner's heartbeat ended or its
    owner is gone) or ``owner`` holds already, and beat ``owner``'s heartbeat for ``seconds``; each
    taken lease gets a new epoch. Returns the rooms taken with their epochs."""
    if not room_ids:
        return {}
    async with engine.begin() as conn:
        result = await conn.execute(_TAKE_LEASES, {"owner": owner, "ids": list(room_ids), "seconds": seconds})
        return {str(room_id): int(epoch) for room_id, epoch in result}


async def renew_leases(engine: AsyncEngine, owner: str, epochs: Mapping[str, int], seconds: float
                       ) -> set[str]:
    """Beat ``owner``'s heartbeat for ``seconds`` more, which keeps every lease it holds; returns
    which of these rooms it still holds at these epochs (the others were taken over). An instance
    that holds no room has no heartbeat to keep (its next take beats it)."""
    if not epochs:
        return set()
    async with engine.begin() as conn:
        result = await conn.execute(_RENEW_LEASES, {"owner": owner, "ids": list(epochs),
                                                    "epochs": list(epochs.values()), "seconds": seconds})
        lost = {str(row[0]) for row in result}
    return set(epochs) - lost


async def release_leases(engine: AsyncEngine, owner: str, room_ids: Sequence[str], *,
                         stopping: bool = False) -> None:
    """Give the leases up (a clean stop, or rooms handed to another instance): another instance
    may take the rooms at once. ``stopping``: the heartbeat goes too."""
    if not room_ids and not stopping:
        return
    async with engine.begin() as conn:
        if room_ids:
            await conn.execute(_RELEASE_LEASES, {"owner": owner, "ids": list(room_ids)})
        if stopping:
            await conn.execute(_STOP_BEATING, {"owner": owner})
