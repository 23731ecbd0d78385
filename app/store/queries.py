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
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app import json_codec
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


async def _room_and_members(conn: AsyncConnection, room_id: str
                            ) -> tuple[Any, Sequence[Any]] | None:
    """The room row and its members (by id), or ``None`` for an unknown room."""
    room = (await conn.execute(select(rooms).where(rooms.c.id == room_id))).mappings().first()
    if room is None:
        return None
    people = (await conn.execute(
        select(members).where(members.c.room_id == room_id).order_by(members.c.id))).mappings().all()
    return room, people


async def load_room(engine: AsyncEngine, room_id: str, *, recent: int = 64, chat_rows: int = 30
                    ) -> RoomRecord | None:
    """Everything needed to rebuild a room: its row, members, the last snapshot and the log after it."""
    async with engine.connect() as conn:
        found = await _room_and_members(conn, room_id)
        if found is None:
            return None
        room, people = found
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


@dataclass
class RoomNews:
    """What changed in a room since a version: its row, members, the log after it and new chat."""

    room: dict[str, Any]
    members: list[dict[str, Any]]
    entries: list[LogEntry]
    chat: list[dict[str, Any]]


async def room_news(engine: AsyncEngine, room_id: str, after: int, chat_after: int, *, chat_rows: int = 30
                    ) -> RoomNews | None:
    """The room row, its members, every log entry after version ``after`` (oldest first) and the
    chat lines after the one of id ``chat_after``: one instance catching up on another's changes."""
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
    return RoomNews(room=dict(room), members=[dict(m) for m in people], entries=[_entry(row) for row in tail],
                    chat=[dict(c) for c in reversed(talk)])


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
    epoch: int | None = None,
) -> None:
    """Append ``entries`` after version ``expected`` and update the room, inside ``conn``'s transaction.

    Raises ``VersionConflict`` when the room is no longer at ``expected`` or, with ``epoch``, when
    its lease is no longer of that epoch (another instance took the room over).
    """
    new_version = entries[-1].version if entries else expected
    where = [rooms.c.id == room_id, rooms.c.version == expected]
    if epoch is not None:
        where.append(rooms.c.lease_epoch == epoch)
    result = await conn.execute(update(rooms).where(*where).values(version=new_version, **room_values))
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
    # The lease epoch the change was made under (None: no leases, a single instance).
    epoch: int | None = None

    @property
    def simple(self) -> bool:
        """A plain move: only the status and the turn's clock change besides the version."""
        return bool(self.entries) and self.seats is None and self.room_values.keys() == CLOCK_FIELDS

    @property
    def one_statement(self) -> bool:
        """What ``append_in_one_statement_pg`` stores: a plain move, or a deal or a game's end (the deal's
        fields, the time of the change and the seats besides)."""
        keys = self.room_values.keys()
        return bool(self.entries) and keys >= CLOCK_FIELDS and keys <= CLOCK_FIELDS | DEAL_FIELDS


CLOCK_FIELDS = frozenset(("status", "deadline", "turn_start", "banks"))
DEAL_FIELDS = frozenset(("game_no", "players", "deal_version", "active_at"))


_batch_update = (
    update(rooms)
    .where(rooms.c.id == bindparam("b_id"), rooms.c.version == bindparam("b_expected"))
    .values(version=bindparam("b_version"), status=bindparam("b_status"), deadline=bindparam("b_deadline"),
            turn_start=bindparam("b_turn_start"), banks=bindparam("b_banks"))
)


# Fixed-shape batch statements for PostgreSQL: the batch travels as one array per column.
# Statements that change several rooms' rows first lock them in the order of their ids (``k``), so
# two of them at once (a batch of moves, a lease renewal) wait for each other instead of deadlocking.
_PG_BATCH_UPDATE = text(
    "WITH k AS MATERIALIZED (SELECT id FROM rooms WHERE id = ANY(CAST(:ids AS varchar[]))"
    " ORDER BY id FOR UPDATE)"
    " UPDATE rooms SET version = b.version, status = b.status, deadline = b.deadline,"
    " turn_start = b.turn_start, banks = CAST(b.banks AS json)"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:expected AS integer[]), CAST(:versions AS integer[]),"
    " CAST(:statuses AS varchar[]), CAST(:deadlines AS float8[]), CAST(:turn_starts AS float8[]),"
    " CAST(:banks AS text[]), CAST(:epochs AS integer[]))"
    " AS b(id, expected, version, status, deadline, turn_start, banks, epoch)"
    " WHERE rooms.id = b.id AND rooms.version = b.expected AND rooms.id IN (SELECT id FROM k)"
    " AND (b.epoch IS NULL OR rooms.lease_epoch = b.epoch) RETURNING rooms.id")
_PG_LOG_INSERT = text(
    "INSERT INTO log (room_id, version, game_no, kind, seat, action, events, member_id, msg_id)"
    " SELECT room_id, version, game_no, kind, seat, CAST(action AS json), CAST(events AS json),"
    " member_id, msg_id"
    " FROM unnest(CAST(:room_ids AS varchar[]), CAST(:versions AS integer[]), CAST(:game_nos AS integer[]),"
    " CAST(:kinds AS varchar[]), CAST(:seats AS integer[]), CAST(:actions AS text[]),"
    " CAST(:events AS text[]), CAST(:member_ids AS integer[]), CAST(:msg_ids AS varchar[]))"
    " AS e(room_id, version, game_no, kind, seat, action, events, member_id, msg_id)")


async def append_many(conn: AsyncConnection, commits: Sequence[Commit]) -> None:
    """Several rooms' changes in the caller's one transaction (group commit).

    Plain moves share one UPDATE (an executemany where the driver counts its rows, else one
    statement over arrays) and one INSERT;
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
        # PostgreSQL: one UPDATE ... FROM unnest(arrays) RETURNING for the whole batch. Its text never
        # changes with the batch's size, so SQLAlchemy compiles it once and asyncpg prepares it once.
        result = await conn.execute(_PG_BATCH_UPDATE, {
            "ids": [c.room_id for c in simple],
            "expected": [c.expected for c in simple],
            "versions": [c.entries[-1].version for c in simple],
            "statuses": [c.room_values["status"] for c in simple],
            "deadlines": [c.room_values["deadline"] for c in simple],
            "turn_starts": [c.room_values["turn_start"] for c in simple],
            "banks": [None if c.room_values["banks"] is None else json_codec.dumps(c.room_values["banks"])
                      for c in simple],
            "epochs": [c.epoch for c in simple],
        })
        if len(result.all()) != len(simple):
            raise VersionConflict(",".join(c.room_id for c in simple))
    entries = [(c.room_id, e) for c in simple for e in c.entries]
    if entries and conn.dialect.name == "postgresql":
        await conn.execute(_PG_LOG_INSERT, {
            "room_ids": [room_id for room_id, _ in entries],
            "versions": [e.version for _, e in entries],
            "game_nos": [e.game_no for _, e in entries],
            "kinds": [e.kind for _, e in entries],
            "seats": [e.seat for _, e in entries],
            "actions": [json_codec.dumps(e.action) for _, e in entries],
            "events": [json_codec.dumps(e.events) for _, e in entries],
            "member_ids": [e.member_id for _, e in entries],
            "msg_ids": [e.msg_id for _, e in entries],
        })
    elif entries:
        await conn.execute(insert(log), [
            {"room_id": room_id, "version": e.version, "game_no": e.game_no, "kind": e.kind, "seat": e.seat,
             "action": e.action, "events": e.events, "member_id": e.member_id, "msg_id": e.msg_id}
            for room_id, e in entries])
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
            await append(conn, c.room_id, c.expected, c.entries, c.room_values, c.snapshot, c.seats, c.epoch)


# PostgreSQL, the plain moves of a batch in one statement (its own transaction, no BEGIN and COMMIT
# round trips): each room's row is updated where its version (and lease epoch) is as expected, and
# only those rooms' log entries and snapshots are written and announced. A room whose row did not
# match changes nothing and is left out of the answer (a version conflict for that room alone).
PG_GROUP_COMMIT = (
    "WITH k AS MATERIALIZED (SELECT id FROM rooms WHERE id = ANY($1::varchar[]) ORDER BY id FOR UPDATE),"
    " u AS (UPDATE rooms SET version = b.version, status = b.status, deadline = b.deadline,"
    " turn_start = b.turn_start, banks = CAST(b.banks AS json),"
    " game_no = COALESCE(b.game_no, rooms.game_no), players = COALESCE(b.players, rooms.players),"
    " deal_version = COALESCE(b.deal_version, rooms.deal_version),"
    " active_at = COALESCE(b.active_at, rooms.active_at)"
    " FROM unnest($1::varchar[], $2::integer[], $3::integer[], $4::varchar[], $5::float8[],"
    " $6::float8[], $7::text[], $8::integer[], $24::integer[], $25::integer[], $26::integer[],"
    " $27::float8[])"
    " AS b(id, expected, version, status, deadline, turn_start, banks, epoch, game_no, players,"
    " deal_version, active_at)"
    " WHERE rooms.id = b.id AND rooms.version = b.expected AND rooms.id IN (SELECT id FROM k)"
    " AND (b.epoch IS NULL OR rooms.lease_epoch = b.epoch) RETURNING rooms.id),"
    # A deal's seats: each member holds its seat from the deal's first entry on.
    " m AS (UPDATE members SET seat = x.seat, seat_since = x.since"
    " FROM unnest($28::varchar[], $29::integer[], $30::integer[], $31::integer[])"
    " AS x(room_id, id, seat, since)"
    " WHERE members.id = x.id AND members.room_id = x.room_id AND x.room_id IN (SELECT id FROM u)),"
    " l AS (INSERT INTO log (room_id, version, game_no, kind, seat, action, events, member_id, msg_id)"
    " SELECT e.room_id, e.version, e.game_no, e.kind, e.seat, CAST(e.action AS json),"
    " CAST(e.events AS json), e.member_id, e.msg_id"
    " FROM unnest($9::varchar[], $10::integer[], $11::integer[], $12::varchar[], $13::integer[],"
    " $14::text[], $15::text[], $16::integer[], $17::varchar[])"
    " AS e(room_id, version, game_no, kind, seat, action, events, member_id, msg_id)"
    " WHERE e.room_id IN (SELECT id FROM u)),"
    " s AS (INSERT INTO snapshots (room_id, version, game_no, state)"
    " SELECT p.room_id, p.version, p.game_no, CAST(p.state AS json)"
    " FROM unnest($18::varchar[], $19::integer[], $20::integer[], $21::text[])"
    " AS p(room_id, version, game_no, state) WHERE p.room_id IN (SELECT id FROM u)),"
    # Older snapshots are never read again (the statement does not see the one it inserts).
    " d AS (DELETE FROM snapshots USING unnest($18::varchar[], $19::integer[]) AS q(room_id, version)"
    " WHERE snapshots.room_id = q.room_id AND snapshots.version < q.version"
    " AND q.room_id IN (SELECT id FROM u))"
    " SELECT (SELECT array_agg(id) FROM u),"
    " (SELECT pg_notify($22, $23 || ' ' || string_agg(id, ' ')) FROM u HAVING count(*) > 0)")


async def append_in_one_statement_pg(conn: Any, commits: Sequence[Commit], channel: str, instance: str
                                     ) -> set[str]:
    """Moves and deals (``Commit.one_statement``) of several rooms in one statement on an asyncpg connection,
    announced on ``channel`` as ``instance``; returns the rooms whose change was stored (the others
    were not at their expected version or lease epoch, and nothing of theirs was written)."""
    entries = [(c.room_id, e) for c in commits for e in c.entries]
    snaps = [(c.room_id, c.snapshot) for c in commits if c.snapshot is not None]
    seats = [(c.room_id, member, seat, c.entries[0].version)
             for c in commits if c.seats for member, seat in c.seats.items()]
    dumps = json_codec.dumps
    row = await conn.fetchrow(
        PG_GROUP_COMMIT,
        [c.room_id for c in commits], [c.expected for c in commits],
        [c.entries[-1].version for c in commits], [c.room_values["status"] for c in commits],
        [c.room_values["deadline"] for c in commits], [c.room_values["turn_start"] for c in commits],
        [None if c.room_values["banks"] is None else dumps(c.room_values["banks"]) for c in commits],
        [c.epoch for c in commits],
        [room_id for room_id, _ in entries], [e.version for _, e in entries], [e.game_no for _, e in entries],
        [e.kind for _, e in entries], [e.seat for _, e in entries], [dumps(e.action) for _, e in entries],
        [dumps(e.events) for _, e in entries], [e.member_id for _, e in entries],
        [e.msg_id for _, e in entries],
        [room_id for room_id, _ in snaps], [s[0] for _, s in snaps], [s[1] for _, s in snaps],
        [dumps(s[2]) for _, s in snaps],
        channel, instance,
        *([c.room_values.get(key) for c in commits] for key in ("game_no", "players", "deal_version",
                                                                  "active_at")),
        [s[0] for s in seats], [s[1] for s in seats], [s[2] for s in seats], [s[3] for s in seats])
    return set(row[0] or ())


# -- leases (PostgreSQL: one instance runs a room at a time) --------------------------------------

_DB_NOW = "CAST(extract(epoch from clock_timestamp()) AS float8)"
_LEASE_END = f"{_DB_NOW} + CAST(:seconds AS float8)"
# An instance's LISTEN connection carries ``application_name`` ``houserules <instance>``: a lease
# whose owner has no such session left (its process died) is free at once, not only when it ends.
LISTENER_APP = "houserules "
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
    return [_entry(row) for row in rows]


async def game_log_from(engine: AsyncEngine, room_id: str, game_no: int, first: int, *,
                        limit: int) -> list[LogEntry]:
    """At most ``limit`` log entries of one game of a room from version ``first`` on (oldest first):
    a replay reads the part of a game it draws, not the whole game."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(log).where(log.c.room_id == room_id, log.c.game_no == game_no, log.c.version >= first)
            .order_by(log.c.version).limit(limit))).all()
    return [_entry(row) for row in rows]


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
