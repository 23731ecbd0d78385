"""Reading the action log (the ``log`` table): a room's entries, a game's, a client's message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tables import log


@dataclass
class LogEntry:
    version: int
    game_no: int
    kind: str
    seat: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    member_id: int | None = None
    msg_id: str | None = None


def entry_of(row: Any) -> LogEntry:
    """The entry a ``log`` row holds."""
    return LogEntry(version=row.version, game_no=row.game_no, kind=row.kind, seat=row.seat,
                    action=row.action, events=row.events, member_id=row.member_id, msg_id=row.msg_id)


async def log_since(engine: AsyncEngine, room_id: str, after: int, *, limit: int = 300,
                    through: int | None = None) -> list[LogEntry]:
    """The last ``limit`` log entries after version ``after`` (oldest first), up to version
    ``through`` when given."""
    where = [log.c.room_id == room_id, log.c.version > after]
    if through is not None:
        where.append(log.c.version <= through)
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(*where).order_by(log.c.version.desc()).limit(limit))).all()
    return [entry_of(row) for row in reversed(rows)]


async def log_range(engine: AsyncEngine, room_id: str, first: int, *, limit: int = 300) -> list[LogEntry]:
    """The first ``limit`` log entries from version ``first`` on (oldest first)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.version >= first)
            .order_by(log.c.version).limit(limit))).all()
    return [entry_of(row) for row in rows]


async def find_msg(engine: AsyncEngine, room_id: str, member_id: int, msg_id: str) -> int | None:
    """The version a client's message was applied at, if it was."""
    async with engine.connect() as conn:
        value = (await conn.execute(
            select(log.c.version).where(log.c.room_id == room_id, log.c.member_id == member_id,
                                        log.c.msg_id == msg_id))).scalar_one_or_none()
    return None if value is None else int(value)


async def game_results(engine: AsyncEngine, room_id: str) -> list[dict[str, Any]]:
    """The ``game_result`` events of a room's finished games, oldest first (each is in its game's
    last log entry)."""
    last = select(func.max(log.c.version)).where(log.c.room_id == room_id).group_by(log.c.game_no)
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log.c.events).where(log.c.room_id == room_id, log.c.version.in_(last))
            .order_by(log.c.version))).all()
    return [dict(event.get("data") or {}) for row in rows for event in (row[0] or [])
            if isinstance(event, dict) and event.get("type") == "game_result"]


async def game_log(engine: AsyncEngine, room_id: str, game_no: int) -> list[LogEntry]:
    """Every log entry of one game of a room, from its deal on (oldest first)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.game_no == game_no)
            .order_by(log.c.version))).all()
    return [entry_of(row) for row in rows]


async def game_log_from(engine: AsyncEngine, room_id: str, game_no: int, first: int, *,
                        limit: int) -> list[LogEntry]:
    """At most ``limit`` log entries of one game of a room from version ``first`` on (oldest first):
    a replay reads the part of a game it draws, not the whole game."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.game_no == game_no, log.c.version >= first)
            .order_by(log.c.version).limit(limit))).all()
    return [entry_of(row) for row in rows]
