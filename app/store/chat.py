"""The room chat (the ``chat`` table)."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tables import chat


async def add_chat(engine: AsyncEngine, room_id: str, seat: int | None, name: str, text: str,
                   at: float, *, keep: int | None = None) -> int:
    """Store a chat line (returns its id); with ``keep``, only the room's ``keep`` latest lines stay."""
    async with engine.begin() as conn:
        line_id = int((await conn.execute(
            insert(chat).values(room_id=room_id, seat=seat, name=name, text=text, at=at)
            .returning(chat.c.id))).scalar_one())
        if keep is not None:
            newest = (select(chat.c.id).where(chat.c.room_id == room_id)
                      .order_by(chat.c.id.desc()).limit(keep).scalar_subquery())
            oldest_kept = select(func.min(chat.c.id)).where(chat.c.id.in_(newest)).scalar_subquery()
            await conn.execute(delete(chat).where(chat.c.room_id == room_id, chat.c.id < oldest_kept))
    return line_id
