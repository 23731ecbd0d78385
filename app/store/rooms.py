"""Rooms (the ``rooms`` table): making, changing, finding and deleting them, and loading one with
everything needed to rebuild it (its members, last snapshot, log tail and chat)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app import json_codec
from app.store.log_entries import LogEntry, entry_of
from app.store.tables import chat, log, members, rooms, snapshots


@dataclass
class RoomRecord:
    room: dict[str, Any]
    members: list[dict[str, Any]]
    snapshot: dict[str, Any] | None
    snapshot_version: int
    tail: list[LogEntry]
    recent_msgs: list[tuple[int, str, int]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RoomNews:
    """What changed in a room since a version: its row, members, the log after it and new chat."""

    room: dict[str, Any]
    members: list[dict[str, Any]]
    entries: list[LogEntry]
    chat: list[dict[str, Any]]


async def create_room(engine: AsyncEngine, room: dict[str, Any], host: dict[str, Any]) -> int:
    """Insert the room and its host member; returns the member id."""
    async with engine.begin() as conn:
        await conn.execute(insert(rooms).values(**room))
        result = await conn.execute(
            insert(members).values(room_id=room["id"], **host).returning(members.c.id))
        member_id = int(result.scalar_one())
        await conn.execute(update(rooms).where(rooms.c.id == room["id"]).values(host_member=member_id))
    return member_id


async def update_room(engine: AsyncEngine, room_id: str, **values: Any) -> None:
    """Change room fields that are not part of the game (host, sheet in the lobby)."""
    async with engine.begin() as conn:
        await conn.execute(update(rooms).where(rooms.c.id == room_id).values(**values))


async def room_ids(engine: AsyncEngine, statuses: Sequence[str]) -> list[str]:
    async with engine.connect() as conn:
        result = await conn.execute(select(rooms.c.id).where(rooms.c.status.in_(list(statuses))))
        return [str(row[0]) for row in result]


async def timed_room_ids(engine: AsyncEngine) -> list[str]:
    """Rooms being played with a turn timer running: their deadlines must fire without a visitor."""
    async with engine.connect() as conn:
        result = await conn.execute(
            select(rooms.c.id).where(rooms.c.status == "playing", rooms.c.deadline.is_not(None)))
        return [str(row[0]) for row in result]


async def touch_room(engine: AsyncEngine, room_id: str, at: float) -> None:
    async with engine.begin() as conn:
        await conn.execute(update(rooms).where(rooms.c.id == room_id).values(active_at=at))


async def expired_room_ids(engine: AsyncEngine, status: str, before: float, limit: int = 500) -> list[str]:
    """Rooms of ``status`` with no change since ``before`` (Unix seconds), oldest first."""
    cutoff = datetime.fromtimestamp(before, tz=UTC)
    query = (select(rooms.c.id).where(
        rooms.c.status == status,
        or_(rooms.c.active_at < before, and_(rooms.c.active_at.is_(None), rooms.c.created_at < cutoff)))
        .order_by(rooms.c.active_at).limit(limit))
    async with engine.connect() as conn:
        return [str(row[0]) for row in await conn.execute(query)]


async def delete_rooms(engine: AsyncEngine, room_ids: Sequence[str]) -> None:
    """Delete rooms with everything of theirs (log, snapshots, chat, members), in one transaction."""
    if not room_ids:
        return
    ids = list(room_ids)
    async with engine.begin() as conn:
        for table in (log, snapshots, chat, members):
            await conn.execute(delete(table).where(table.c.room_id.in_(ids)))
        await conn.execute(delete(rooms).where(rooms.c.id.in_(ids)))


async def _room_and_members(conn: AsyncConnection, room_id: str
                            ) -> tuple[Any, Sequence[Any]] | None:
    """The room row and its members (by id), or ``None`` for an unknown room."""
    room = (await conn.execute(select(rooms).where(rooms.c.id == room_id))).mappings().first()
    if room is None:
        return None
    people = (await conn.execute(
        select(members).where(members.c.room_id == room_id).order_by(members.c.id))).mappings().all()
    return room, people


async def room_exists(engine: AsyncEngine, room_id: str) -> bool:
    async with engine.connect() as conn:
        return (await conn.execute(select(rooms.c.id).where(rooms.c.id == room_id))).first() is not None


async def load_room(engine: AsyncEngine, room_id: str, *, recent: int = 64, chat_rows: int = 30
                    ) -> RoomRecord | None:
    """Everything needed to rebuild a room: its row, members, the last snapshot and the log after it."""
    async with engine.connect() as conn:
        found = await _room_and_members(conn, room_id)
        if found is None:
            return None
        room, people = found
        # Each statement may see commits made after the room row was read (PostgreSQL's default
        # isolation): the snapshot and the log tail stop at the row's version, so the state
        # rebuilt is the one of that version and the entries after it reach this instance as news.
        snap = (await conn.execute(
            select(snapshots).where(snapshots.c.room_id == room_id, snapshots.c.version <= room["version"])
            .order_by(snapshots.c.version.desc()).limit(1))).mappings().first()
        since = snap["version"] if snap else 0
        tail = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.version > since,
                              log.c.version <= room["version"])
            .order_by(log.c.version))).all()
        msgs = (await conn.execute(
            select(log.c.member_id, log.c.msg_id, log.c.version)
            .where(log.c.room_id == room_id, log.c.msg_id.is_not(None))
            .order_by(log.c.version.desc()).limit(recent))).all()
        talk = (await conn.execute(
            select(chat).where(chat.c.room_id == room_id).order_by(chat.c.id.desc()).limit(chat_rows)
        )).mappings().all()
    return RoomRecord(
        room=dict(room),
        members=[dict(m) for m in people],
        snapshot=dict(snap["state"]) if snap else None,
        snapshot_version=since,
        tail=[entry_of(row) for row in tail],
        recent_msgs=[(int(m), str(i), int(v)) for m, i, v in msgs],
        chat=[dict(c) for c in reversed(talk)],
    )


async def room_news(engine: AsyncEngine, room_id: str, after: int, chat_after: int, *, chat_rows: int = 30
                    ) -> RoomNews | None:
    """The room row, its members, every log entry after version ``after`` (oldest first) and the
    chat lines after the one of id ``chat_after``: one instance catching up on another's changes."""
    if engine.dialect.name == "postgresql":
        return await _room_news_pg(engine, room_id, after, chat_after, chat_rows)
    return await room_news_statements(engine, room_id, after, chat_after, chat_rows)


async def room_news_statements(engine: AsyncEngine, room_id: str, after: int, chat_after: int,
                               chat_rows: int = 30) -> RoomNews | None:
    """``room_news`` read by one statement per table (SQLite; PostgreSQL's answer is checked
    against it)."""
    async with engine.connect() as conn:
        found = await _room_and_members(conn, room_id)
        if found is None:
            return None
        room, people = found
        tail: list[Any] = []
        if room["version"] > after:
            tail = list((await conn.execute(
                select(log).where(log.c.room_id == room_id, log.c.version > after,
                                  log.c.version <= room["version"])
                .order_by(log.c.version))).all())
        talk = (await conn.execute(
            select(chat).where(chat.c.room_id == room_id, chat.c.id > chat_after)
            .order_by(chat.c.id.desc()).limit(chat_rows))).mappings().all()
    return RoomNews(room=dict(room), members=[dict(m) for m in people],
                    entries=[entry_of(row) for row in tail], chat=[dict(c) for c in reversed(talk)])


# PostgreSQL: a follower catches up after every move of a room it shares, so its news come in one
# statement (one round trip, no transaction to open and close, and the row, the members and the
# log from one snapshot: members never newer or older than the entries they are read with).
_PG_NEWS = text(
    "SELECT json_build_object("
    " 'room', row_to_json(r),"
    " 'members', (SELECT coalesce(json_agg(m ORDER BY m.id), '[]') FROM members m WHERE m.room_id = r.id),"
    " 'log', (SELECT coalesce(json_agg(l ORDER BY l.version), '[]') FROM log l"
    "  WHERE l.room_id = r.id AND l.version > :after AND l.version <= r.version),"
    " 'chat', (SELECT coalesce(json_agg(c ORDER BY c.id), '[]') FROM"
    "  (SELECT id, room_id, seat, name, text, at FROM chat WHERE room_id = r.id AND id > :chat_after"
    "   ORDER BY id DESC LIMIT :chat_rows) c)"
    ")::text FROM rooms r WHERE r.id = :room_id")


async def _room_news_pg(engine: AsyncEngine, room_id: str, after: int, chat_after: int, chat_rows: int
                        ) -> RoomNews | None:
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        found = (await conn.execute(_PG_NEWS, {"room_id": room_id, "after": after, "chat_after": chat_after,
                                               "chat_rows": chat_rows})).scalar()
    if found is None:
        return None
    news = json_codec.loads(found)
    entries = [LogEntry(version=row["version"], game_no=row["game_no"], kind=row["kind"], seat=row["seat"],
                        action=row["action"], events=row["events"], member_id=row["member_id"],
                        msg_id=row["msg_id"]) for row in news["log"]]
    return RoomNews(room=news["room"], members=news["members"], entries=entries, chat=news["chat"])
