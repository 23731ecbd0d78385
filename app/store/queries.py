"""The few queries the rooms need, in SQLAlchemy Core on the models' tables.

``append`` is the heart: one transaction that checks the room's version, appends log entries,
updates the room row (and members, when a deal renumbers seats) and stores a snapshot. A room is
changed only through it, so a move is durable before anyone hears of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Float,
    Integer,
    String,
    Table,
    and_,
    bindparam,
    cast,
    column,
    delete,
    func,
    insert,
    or_,
    select,
    update,
    values,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.store.models import ChatRow, LogRow, MemberRow, RoomRow, SheetRow, SnapshotRow

rooms: Table = RoomRow.__table__  # type: ignore[assignment]
members: Table = MemberRow.__table__  # type: ignore[assignment]
log: Table = LogRow.__table__  # type: ignore[assignment]
snapshots: Table = SnapshotRow.__table__  # type: ignore[assignment]
sheets: Table = SheetRow.__table__  # type: ignore[assignment]
chat: Table = ChatRow.__table__  # type: ignore[assignment]


class VersionConflict(Exception):
    """The room row's version was not the expected one: another writer moved first."""


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


@dataclass
class RoomRecord:
    room: dict[str, Any]
    members: list[dict[str, Any]]
    snapshot: dict[str, Any] | None
    snapshot_version: int
    tail: list[LogEntry]
    recent_msgs: list[tuple[int, str, int]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)


# -- sheets ------------------------------------------------------------------------------------

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


# -- rooms and members -------------------------------------------------------------------------

async def create_room(engine: AsyncEngine, room: dict[str, Any], host: dict[str, Any]) -> int:
    """Insert the room and its host member; returns the member id."""
    async with engine.begin() as conn:
        await conn.execute(insert(rooms).values(**room))
        result = await conn.execute(
            insert(members).values(room_id=room["id"], **host).returning(members.c.id))
        member_id = int(result.scalar_one())
        await conn.execute(update(rooms).where(rooms.c.id == room["id"]).values(host_member=member_id))
    return member_id


async def add_member(engine: AsyncEngine, room_id: str, member: dict[str, Any]) -> int:
    async with engine.begin() as conn:
        result = await conn.execute(insert(members).values(room_id=room_id, **member).returning(members.c.id))
        return int(result.scalar_one())


async def update_member(engine: AsyncEngine, member_id: int, **values: Any) -> None:
    async with engine.begin() as conn:
        await conn.execute(update(members).where(members.c.id == member_id).values(**values))


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


def _entry(row: Any) -> LogEntry:
    return LogEntry(version=row.version, game_no=row.game_no, kind=row.kind, seat=row.seat,
                    action=row.action, events=row.events, member_id=row.member_id, msg_id=row.msg_id)


async def load_room(engine: AsyncEngine, room_id: str, *, recent: int = 64, chat_rows: int = 30
                    ) -> RoomRecord | None:
    """Everything needed to rebuild a room: its row, members, the last snapshot and the log after it."""
    async with engine.connect() as conn:
        room = (await conn.execute(select(rooms).where(rooms.c.id == room_id))).mappings().first()
        if room is None:
            return None
        people = (await conn.execute(
            select(members).where(members.c.room_id == room_id).order_by(members.c.id))).mappings().all()
        snap = (await conn.execute(
            select(snapshots).where(snapshots.c.room_id == room_id)
            .order_by(snapshots.c.version.desc()).limit(1))).mappings().first()
        since = snap["version"] if snap else 0
        tail = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.version > since)
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
        tail=[_entry(row) for row in tail],
        recent_msgs=[(int(m), str(i), int(v)) for m, i, v in msgs],
        chat=[dict(c) for c in reversed(talk)],
    )


async def log_since(engine: AsyncEngine, room_id: str, after: int, *, limit: int = 300) -> list[LogEntry]:
    """The last ``limit`` log entries after version ``after`` (oldest first)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.version > after)
            .order_by(log.c.version.desc()).limit(limit))).all()
    return [_entry(row) for row in reversed(rows)]


async def log_range(engine: AsyncEngine, room_id: str, first: int, *, limit: int = 300) -> list[LogEntry]:
    """The first ``limit`` log entries from version ``first`` on (oldest first)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.version >= first)
            .order_by(log.c.version).limit(limit))).all()
    return [_entry(row) for row in rows]


async def find_msg(engine: AsyncEngine, room_id: str, member_id: int, msg_id: str) -> int | None:
    """The version a client's message was applied at, if it was."""
    async with engine.connect() as conn:
        value = (await conn.execute(
            select(log.c.version).where(log.c.room_id == room_id, log.c.member_id == member_id,
                                        log.c.msg_id == msg_id))).scalar_one_or_none()
    return None if value is None else int(value)


async def append(
    conn: AsyncConnection,
    room_id: str,
    expected: int,
    entries: Sequence[LogEntry],
    room_values: dict[str, Any],
    snapshot: tuple[int, int, dict[str, Any]] | None = None,
    seats: Mapping[int, int | None] | None = None,
) -> None:
    """Append ``entries`` after version ``expected`` and update the room, inside ``conn``'s transaction.

    Raises ``VersionConflict`` when the room is no longer at ``expected``.
    """
    new_version = entries[-1].version if entries else expected
    result = await conn.execute(
        update(rooms).where(rooms.c.id == room_id, rooms.c.version == expected)
        .values(version=new_version, **room_values))
    if result.rowcount != 1:
        raise VersionConflict(room_id)
    if entries:
        await conn.execute(insert(log), [
            {"room_id": room_id, "version": e.version, "game_no": e.game_no, "kind": e.kind, "seat": e.seat,
             "action": e.action, "events": e.events, "member_id": e.member_id, "msg_id": e.msg_id}
            for e in entries
        ])
    if snapshot is not None:
        version, game_no, state = snapshot
        await conn.execute(insert(snapshots).values(room_id=room_id, version=version, game_no=game_no,
                                                    state=state))
        # Older snapshots are never read again: keep the table small.
        await conn.execute(delete(snapshots).where(snapshots.c.room_id == room_id,
                                                   snapshots.c.version < version))
    # Seats are handed out at a deal (its first entry): each is held from that version on.
    since = entries[0].version if entries else expected
    for member_id, seat in (seats or {}).items():
        await conn.execute(update(members).where(members.c.id == member_id)
                           .values(seat=seat, seat_since=since))


@dataclass
class Commit:
    """One room's change for ``append_many``: log entries after ``expected`` and the room's new fields."""

    room_id: str
    expected: int
    entries: Sequence[LogEntry]
    room_values: dict[str, Any]
    snapshot: tuple[int, int, dict[str, Any]] | None = None
    seats: Mapping[int, int | None] | None = None

    @property
    def simple(self) -> bool:
        """A plain move: only the status and the turn's clock change besides the version."""
        return bool(self.entries) and self.seats is None and set(self.room_values) == CLOCK_FIELDS


CLOCK_FIELDS = {"status", "deadline", "turn_start", "banks"}


_batch_update = (
    update(rooms)
    .where(rooms.c.id == bindparam("b_id"), rooms.c.version == bindparam("b_expected"))
    .values(version=bindparam("b_version"), status=bindparam("b_status"), deadline=bindparam("b_deadline"),
            turn_start=bindparam("b_turn_start"), banks=bindparam("b_banks"))
)


async def append_many(conn: AsyncConnection, commits: Sequence[Commit]) -> None:
    """Several rooms' changes in the caller's one transaction (group commit).

    Plain moves share one UPDATE (where the driver counts rows of an executemany) and one INSERT;
    raises ``VersionConflict`` if any room is not at its expected version, and the caller then
    rolls back and retries the commits one by one.
    """
    simple = [c for c in commits if c.simple]
    if simple and conn.dialect.supports_sane_multi_rowcount:
        result = await conn.execute(_batch_update, [
            {"b_id": c.room_id, "b_expected": c.expected, "b_version": c.entries[-1].version,
             "b_status": c.room_values["status"], "b_deadline": c.room_values["deadline"],
             "b_turn_start": c.room_values["turn_start"], "b_banks": c.room_values["banks"]} for c in simple])
        if result.rowcount != len(simple):
            raise VersionConflict(",".join(c.room_id for c in simple))
    elif simple:
        # One UPDATE ... FROM (VALUES ...) RETURNING for the whole batch (PostgreSQL).
        batch = values(
            column("b_id", String), column("b_expected", Integer), column("b_version", Integer),
            column("b_status", String), column("b_deadline", Float), column("b_turn_start", Float),
            column("b_banks", JSON), name="batch",
        ).data([(c.room_id, c.expected, c.entries[-1].version, c.room_values["status"],
                 c.room_values["deadline"], c.room_values["turn_start"], c.room_values["banks"])
                for c in simple])
        result = await conn.execute(
            update(rooms)
            .where(rooms.c.id == batch.c.b_id, rooms.c.version == batch.c.b_expected)
            .values(version=batch.c.b_version, status=batch.c.b_status,
                    deadline=cast(batch.c.b_deadline, Float),
                    turn_start=cast(batch.c.b_turn_start, Float), banks=cast(batch.c.b_banks, JSON))
            .returning(rooms.c.id))
        if len(result.all()) != len(simple):
            raise VersionConflict(",".join(c.room_id for c in simple))
    rows = [{"room_id": c.room_id, "version": e.version, "game_no": e.game_no, "kind": e.kind, "seat": e.seat,
             "action": e.action, "events": e.events, "member_id": e.member_id, "msg_id": e.msg_id}
            for c in simple for e in c.entries]
    if rows:
        await conn.execute(insert(log), rows)
    snaps = [c for c in simple if c.snapshot is not None]
    if snaps:
        await conn.execute(insert(snapshots), [
            {"room_id": c.room_id, "version": c.snapshot[0], "game_no": c.snapshot[1], "state": c.snapshot[2]}
            for c in snaps if c.snapshot is not None])
        await conn.execute(
            delete(snapshots).where(snapshots.c.room_id == bindparam("b_id"),
                                    snapshots.c.version < bindparam("b_version")),
            [{"b_id": c.room_id, "b_version": c.snapshot[0]} for c in snaps if c.snapshot is not None])
    for c in commits:
        if not c.simple:
            await append(conn, c.room_id, c.expected, c.entries, c.room_values, c.snapshot, c.seats)


async def add_chat(engine: AsyncEngine, room_id: str, seat: int | None, name: str, text: str,
                   at: float, *, keep: int | None = None) -> None:
    """Store a chat line; with ``keep``, only the room's ``keep`` latest lines stay."""
    async with engine.begin() as conn:
        await conn.execute(insert(chat).values(room_id=room_id, seat=seat, name=name, text=text, at=at))
        if keep is not None:
            newest = (select(chat.c.id).where(chat.c.room_id == room_id)
                      .order_by(chat.c.id.desc()).limit(keep).scalar_subquery())
            oldest_kept = select(func.min(chat.c.id)).where(chat.c.id.in_(newest)).scalar_subquery()
            await conn.execute(delete(chat).where(chat.c.room_id == room_id, chat.c.id < oldest_kept))


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
