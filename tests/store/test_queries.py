"""The append transaction: the version check refuses a second writer and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import queries
from app.store.db import make_engine, upgrade
from app.store.queries import LogEntry, VersionConflict
from tests.support import fresh_postgres, postgres_url


@pytest.fixture(params=["sqlite", "postgres"])
async def engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    if request.param == "postgres":
        if postgres_url() is None:
            pytest.skip("no PostgreSQL configured: set HOUSERULES_TEST_POSTGRES_URL")
        async with fresh_postgres() as url:
            eng = make_engine(url)
            await upgrade(eng)
            yield eng
            await eng.dispose()
        return
    eng = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'q.sqlite3'}")
    await upgrade(eng)
    yield eng
    await eng.dispose()


async def _room(engine: AsyncEngine) -> str:
    await queries.create_room(
        engine,
        {"id": "room-1", "game": "g", "sheet": {}, "sheet_id": None, "sheet_version": None, "capacity": 2,
         "approval": False, "status": "lobby", "version": 0, "game_no": 0, "players": 0, "deal_version": 0},
        {"name": "Kati", "token_hash": "h" * 64, "status": "seated", "seat": 0, "wanted_seat": 0},
    )
    return "room-1"


def _entry(version: int, msg: str | None = None, member: int | None = None) -> LogEntry:
    return LogEntry(version, 1, "move", 0, {"type": "x"}, [{"type": "e", "data": {}, "audience": None}],
                    member, msg)


async def test_append_checks_the_version_and_a_conflict_changes_nothing(engine: AsyncEngine) -> None:
    room = await _room(engine)
    async with engine.begin() as conn:
        await queries.append(conn, room, 0, [_entry(1)], {"status": "playing"}, (1, 1, {"s": 1}))
    with pytest.raises(VersionConflict):
        async with engine.begin() as conn:
            await queries.append(conn, room, 0, [_entry(1)], {"status": "finished"})
    record = await queries.load_room(engine, room)
    assert record is not None
    assert record.room["version"] == 1 and record.room["status"] == "playing"
    assert record.snapshot == {"s": 1} and record.tail == []


async def test_a_client_message_id_is_stored_once(engine: AsyncEngine) -> None:
    room = await _room(engine)
    async with engine.begin() as conn:
        await queries.append(conn, room, 0, [_entry(1, "m-1", 1)], {})
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await queries.append(conn, room, 1, [_entry(2, "m-1", 1)], {})
    assert await queries.find_msg(engine, room, 1, "m-1") == 1
    record = await queries.load_room(engine, room)
    assert record is not None and record.room["version"] == 1
    assert record.recent_msgs == [(1, "m-1", 1)]


async def test_snapshots_keep_only_the_latest_and_the_tail_follows_it(engine: AsyncEngine) -> None:
    room = await _room(engine)
    async with engine.begin() as conn:
        await queries.append(conn, room, 0, [_entry(1)], {}, (1, 1, {"at": 1}))
    async with engine.begin() as conn:
        await queries.append(conn, room, 1, [_entry(2), _entry(3)], {})
    async with engine.begin() as conn:
        await queries.append(conn, room, 3, [_entry(4)], {}, (4, 1, {"at": 4}))
    async with engine.begin() as conn:
        await queries.append(conn, room, 4, [_entry(5)], {})
    record = await queries.load_room(engine, room)
    assert record is not None
    assert record.snapshot == {"at": 4} and record.snapshot_version == 4
    assert [e.version for e in record.tail] == [5]
    assert [e.version for e in await queries.log_since(engine, room, 2)] == [3, 4, 5]



async def test_a_batch_of_plain_moves_stores_the_turn_clock_and_banks(engine: AsyncEngine) -> None:
    room = await _room(engine)
    clock = {"status": "playing", "deadline": 1000.5, "turn_start": 990.25, "banks": {"0": 7.5, "1": 0.0}}
    change = queries.Commit(room, 0, [_entry(1)], clock)
    assert change.simple  # the group commit's shared UPDATE carries the clock too
    async with engine.begin() as conn:
        await queries.append_many(conn, [change])
    record = await queries.load_room(engine, room)
    assert record is not None and record.room["version"] == 1
    assert record.room["deadline"] == 1000.5 and record.room["turn_start"] == 990.25
    assert record.room["banks"] == {"0": 7.5, "1": 0.0}
    stale = queries.Commit(room, 0, [_entry(1)], {**clock, "banks": {"0": 1.0}})
    with pytest.raises(VersionConflict):
        async with engine.begin() as conn:
            await queries.append_many(conn, [stale])
    record = await queries.load_room(engine, room)
    assert record is not None and record.room["banks"] == {"0": 7.5, "1": 0.0}


async def test_a_rooms_chat_keeps_only_its_latest_lines(engine: AsyncEngine) -> None:
    room = await _room(engine)
    for i in range(45):
        await queries.add_chat(engine, room, 0, "Kati", f"line {i}", float(i), keep=30)
    async with engine.connect() as conn:
        texts = [row.text for row in await conn.execute(
            queries.chat.select().where(queries.chat.c.room_id == room).order_by(queries.chat.c.id))]
    assert texts == [f"line {i}" for i in range(15, 45)]
