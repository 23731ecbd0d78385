"""Saved rule sheets (the ``sheets`` table): one row per version of a sheet."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tables import rooms, sheets


async def insert_sheet(engine: AsyncEngine, sheet_id: str, version: int, game: str, name: str,
                       options: dict[str, Any], edit_hash: str | None = None) -> None:
    async with engine.begin() as conn:
        await conn.execute(insert(sheets).values(id=sheet_id, version=version, game=game, name=name,
                                                 options=options, edit_hash=edit_hash))


async def get_sheet(engine: AsyncEngine, sheet_id: str, version: int | None = None) -> dict[str, Any] | None:
    query = select(sheets).where(sheets.c.id == sheet_id)
    if version is not None:
        query = query.where(sheets.c.version == version)
    query = query.order_by(sheets.c.version.desc()).limit(1)
    async with engine.connect() as conn:
        row = (await conn.execute(query)).mappings().first()
    return dict(row) if row else None


async def list_sheets(engine: AsyncEngine, game: str | None) -> list[dict[str, Any]]:
    latest = select(sheets.c.id, func.max(sheets.c.version).label("v")).group_by(sheets.c.id).subquery()
    query = select(sheets).join(latest, (sheets.c.id == latest.c.id) & (sheets.c.version == latest.c.v))
    if game is not None:
        query = query.where(sheets.c.game == game)
    query = query.order_by(sheets.c.created_at.desc(), sheets.c.id).limit(200)
    async with engine.connect() as conn:
        return [dict(row) for row in (await conn.execute(query)).mappings()]


async def delete_unused_sheets(engine: AsyncEngine, before: float, limit: int = 500) -> int:
    """Deletes saved rule sheets (every version) that no room was made from and whose latest
    version was saved before ``before`` (Unix seconds). Returns how many sheets."""
    cutoff = datetime.fromtimestamp(before, tz=UTC)
    used = select(rooms.c.sheet_id).where(rooms.c.sheet_id.is_not(None))
    doomed = (select(sheets.c.id).where(sheets.c.id.not_in(used)).group_by(sheets.c.id)
              .having(func.max(sheets.c.created_at) < cutoff).limit(limit))
    async with engine.begin() as conn:
        ids = [row[0] for row in await conn.execute(doomed)]
        if ids:
            await conn.execute(delete(sheets).where(sheets.c.id.in_(ids)))
    return len(ids)
