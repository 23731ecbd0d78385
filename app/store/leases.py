"""Room leases (``rooms.lease_*``, PostgreSQL): one instance runs a room at a time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

_DB_NOW = "CAST(extract(epoch from clock_timestamp()) AS float8)"
_LEASE_END = f"{_DB_NOW} + CAST(:seconds AS float8)"
# An instance's LISTEN connection carries ``application_name`` ``houserules <instance>``: a lease
# whose owner has no such session left (its process died) is free at once, not only when it ends.
LISTENER_APP = "houserules "
# Statements that change several rooms' rows first lock them in the order of their ids (``k``), so
# two of them at once (a batch of moves, a lease renewal) wait for each other instead of deadlocking.
_ROOMS_IN_ORDER = ("WITH k AS MATERIALIZED (SELECT id FROM rooms WHERE id = ANY(CAST(:ids AS varchar[]))"
                   " ORDER BY id FOR UPDATE) ")
_TAKE_LEASES = text(
    f"{_ROOMS_IN_ORDER}"
    f"UPDATE rooms SET lease_owner = :owner, lease_epoch = lease_epoch + 1, lease_until = {_LEASE_END}"
    " WHERE id IN (SELECT id FROM k) AND (lease_owner IS NULL OR lease_owner = :owner"
    f" OR lease_until IS NULL OR lease_until < {_DB_NOW}"
    " OR NOT EXISTS (SELECT 1 FROM pg_stat_activity"
    f" WHERE application_name = '{LISTENER_APP}' || lease_owner))"
    " RETURNING id, lease_epoch")
_RENEW_LEASES = text(
    f"{_ROOMS_IN_ORDER}"
    f"UPDATE rooms SET lease_until = {_LEASE_END}"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:epochs AS integer[])) AS l(id, epoch)"
    " WHERE rooms.id = l.id AND rooms.id IN (SELECT id FROM k) AND rooms.lease_owner = :owner"
    " AND rooms.lease_epoch = l.epoch"
    " RETURNING rooms.id")
_RELEASE_LEASES = text(
    f"{_ROOMS_IN_ORDER}"
    "UPDATE rooms SET lease_owner = NULL, lease_until = NULL"
    " WHERE id IN (SELECT id FROM k) AND lease_owner = :owner")


async def take_leases(engine: AsyncEngine, owner: str, room_ids: Sequence[str], seconds: float
                      ) -> dict[str, int]:
    """Take the leases of those rooms nobody holds (none, or ended) or ``owner`` holds already; each
    taken lease gets a new epoch. Returns the rooms taken with their epochs."""
    if not room_ids:
        return {}
    async with engine.begin() as conn:
        result = await conn.execute(_TAKE_LEASES, {"owner": owner, "ids": list(room_ids), "seconds": seconds})
        return {str(room_id): int(epoch) for room_id, epoch in result}


async def renew_leases(engine: AsyncEngine, owner: str, epochs: Mapping[str, int], seconds: float
                       ) -> set[str]:
    """Extend the leases ``owner`` still holds at these epochs; returns the rooms it still holds."""
    if not epochs:
        return set()
    async with engine.begin() as conn:
        result = await conn.execute(_RENEW_LEASES, {"owner": owner, "ids": list(epochs),
                                                    "epochs": list(epochs.values()), "seconds": seconds})
        return {str(row[0]) for row in result}


async def release_leases(engine: AsyncEngine, owner: str, room_ids: Sequence[str]) -> None:
    """Give the leases up (a clean stop): another instance may take the rooms at once."""
    if room_ids:
        async with engine.begin() as conn:
            await conn.execute(_RELEASE_LEASES, {"owner": owner, "ids": list(room_ids)})
