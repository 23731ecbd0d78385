"""The people of a room (the ``members`` table); tokens are stored as SHA-256 hashes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tables import members, rooms


async def add_member(engine: AsyncEngine, room_id: str, member: dict[str, Any]) -> int:
    async with engine.begin() as conn:
        result = await conn.execute(insert(members).values(room_id=room_id, **member).returning(members.c.id))
        return int(result.scalar_one())


async def update_member(engine: AsyncEngine, member_id: int, **values: Any) -> None:
    async with engine.begin() as conn:
        await conn.execute(update(members).where(members.c.id == member_id).values(**values))


async def delete_unused_members(engine: AsyncEngine, before: float, keep_rooms: Sequence[str],
                                limit: int = 500) -> int:
    """Deletes member rows that hold no seat (refused, left or kicked members, join requests never
    answered) of rooms with no change since ``before`` (Unix seconds), but for rooms in
    ``keep_rooms`` (loaded here: their members are in memory) and for the members who held a seat
    in the room's current game (a kicked player's row tells that their seat's newcomer took it
    over, so the newcomer never gets the earlier holder's private record). Returns how many."""
    cutoff = datetime.fromtimestamp(before, tz=UTC)
    old_rooms = select(rooms.c.id).where(
        or_(rooms.c.active_at < before, and_(rooms.c.active_at.is_(None), rooms.c.created_at < cutoff)))
    deal_version = select(rooms.c.deal_version).where(rooms.c.id == members.c.room_id).scalar_subquery()
    game_no = select(rooms.c.game_no).where(rooms.c.id == members.c.room_id).scalar_subquery()
    doomed = select(members.c.id).where(
        members.c.status.in_(("gone", "pending")), members.c.created_at < cutoff,
        members.c.room_id.in_(old_rooms),
        # Not a seat's holder who left it during the current game (a lobby has no game yet).
        or_(members.c.seat.is_(None), members.c.seat_since.is_(None), members.c.seat_since < deal_version,
            game_no == 0))
    if keep_rooms:
        doomed = doomed.where(members.c.room_id.not_in(list(keep_rooms)))
    async with engine.begin() as conn:
        ids = [row[0] for row in await conn.execute(doomed.limit(limit))]
        if ids:
            await conn.execute(delete(members).where(members.c.id.in_(ids)))
    return len(ids)
