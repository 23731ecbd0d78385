"""Fair deals' storage: the server's signing key (the ``server_keys`` table) and a room's next
round (``rooms.fair_pending``); see docs/fairness.md."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tables import rooms, server_keys


async def server_key(engine: AsyncEngine, make: Any) -> str:
    """The server's signing key (hex), made by ``make()`` and stored at the first start. Two
    instances starting at once both try; the row that landed first is everyone's key."""
    query = select(server_keys.c.private_key).where(server_keys.c.id == 1)
    async with engine.connect() as conn:
        found = (await conn.execute(query)).scalar_one_or_none()
    if found is not None:
        return str(found)
    private, public = make()
    try:
        async with engine.begin() as conn:
            await conn.execute(insert(server_keys).values(id=1, private_key=private, public_key=public))
    except IntegrityError:
        pass
    async with engine.connect() as conn:
        return str((await conn.execute(query)).scalar_one())


async def store_fair_pending(engine: AsyncEngine, room_id: str, pending: dict[str, Any],
                             epoch: int | None) -> bool:
    """Keep a room's next round (a contribution came, or a room had none stored); with ``epoch``,
    only while this instance's lease holds. Whether the row was written."""
    where = [rooms.c.id == room_id]
    if epoch is not None:
        where.append(rooms.c.lease_epoch == epoch)
    async with engine.begin() as conn:
        result = await conn.execute(update(rooms).where(*where).values(fair_pending=pending))
        return bool(result.rowcount == 1)
