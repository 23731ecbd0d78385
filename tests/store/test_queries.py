"""The append transaction: the version check refuses a second writer and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import queries
from app.store.db import make_engine, upgrade
from app.store.notify import asyncpg_url
from app.store.queries import LogEntry, VersionConflict
from tests.support import fresh_postgres, needs_postgres, postgres_url


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


@needs_postgres
async def test_a_deal_and_moves_are_stored_in_one_statement_and_a_stale_one_changes_nothing() -> None:
    import asyncpg  # type: ignore[import-untyped]

    async with fresh_postgres() as url:
        eng = make_engine(url)
        await upgrade(eng)
        room = await _room(eng)
        record = await queries.load_room(eng, room)
        assert record is not None
        member = record.members[0]["id"]
        conn = await asyncpg.connect(asyncpg_url(url))
        try:
            clock = {"status": "playing", "deadline": None, "turn_start": 5.0, "banks": None}
            deal = queries.Commit(room, 0, [_entry(1), _entry(2)],
                                  {**clock, "game_no": 1, "players": 2, "deal_version": 1, "active_at": 12.5},
                                  (2, 1, {"dealt": True}), {member: 1})
            move = queries.Commit("room-x", 0, [_entry(1)], clock)  # no such room: left out alone
            assert deal.one_statement and not deal.simple and move.one_statement
            stored = await queries.append_in_one_statement_pg(conn, [deal, move], "houserules_test", "me")
            assert stored == {room}
            record = await queries.load_room(eng, room)
            assert record is not None
            assert {k: record.room[k] for k in ("version", "status", "game_no", "players", "deal_version",
                                                "active_at", "turn_start")} == {
                "version": 2, "status": "playing", "game_no": 1, "players": 2, "deal_version": 1,
                "active_at": 12.5, "turn_start": 5.0}
            assert (record.members[0]["seat"], record.members[0]["seat_since"]) == (1, 1)
            assert record.snapshot == {"dealt": True}
            # A plain move keeps the deal's fields; a second deal from a stale version changes nothing.
            move_on = queries.Commit(room, 2, [_entry(3)], clock)
            assert await queries.append_in_one_statement_pg(conn, [move_on], "houserules_test", "i") == {room}
            stale = queries.Commit(room, 2, [_entry(3)], {**clock, "game_no": 2, "players": 3,
                                                          "deal_version": 3, "active_at": 99.0},
                                   (3, 2, {"dealt": "again"}), {member: 0})
            assert await queries.append_in_one_statement_pg(conn, [stale], "houserules_test", "me") == set()
            record = await queries.load_room(eng, room)
            assert record is not None
            assert (record.room["version"], record.room["game_no"], record.room["deal_version"],
                    record.room["active_at"]) == (3, 1, 1, 12.5)
            assert (record.members[0]["seat"], record.members[0]["seat_since"]) == (1, 1)
            assert [e.version for e in await queries.log_since(eng, room, 0)] == [1, 2, 3]
        finally:
            await conn.close()
            await eng.dispose()


@needs_postgres
async def test_a_rooms_news_in_one_statement_are_what_each_table_holds() -> None:
    """PostgreSQL's one-statement news (what a follower reads after every move of a room it shares)
    hold the same room row, members, log entries and chat lines as reading each table, after a
    deal with seats, moves with private events, a lease, a fair round and chat; an unknown room
    has none."""
    async with fresh_postgres() as url:
        eng = make_engine(url)
        await upgrade(eng)
        try:
            room = await _room(eng)
            record = await queries.load_room(eng, room)
            assert record is not None
            member = record.members[0]["id"]
            hand = {"cards": ["7♠", "Q♥"], "note": "ütle «jää»"}
            private: list[dict[str, Any]] = [{"type": "hand", "data": hand, "audience": [1]},
                                             {"type": "played", "data": {"seat": 1, "at": 0.1 + 0.2},
                                              "audience": None}]
            clock = {"status": "playing", "deadline": 1000.125, "turn_start": 990.5, "banks": {"0": 7.5}}
            async with eng.begin() as conn:
                await queries.append(conn, room, 0, [LogEntry(1, 1, "deal", None, {"seed": "ab"}, private)],
                                     {**clock, "game_no": 1, "players": 2, "deal_version": 1},
                                     (1, 1, {"s": 1}), {member: 1})
                await queries.append_many(conn, [queries.Commit(room, 1, [
                    LogEntry(2, 1, "move", 1, {"type": "x"}, private, member, "m-1"),
                    LogEntry(3, 1, "timeout", 0, {"type": "y"}, [], None, None)], clock)])
            await queries.take_leases(eng, "me", [room], 30)
            pending = {"commitment": "c", "contributions": {"1": "x"}}
            await queries.store_fair_pending(eng, room, pending, None)
            for i in range(4):
                await queries.add_chat(eng, room, None if i % 2 else 1, "Kati", f"line {i}", i + 0.5, keep=30)
            for after, chat_after in ((0, 0), (1, 2), (3, 0), (5, 9)):
                one = await queries.room_news(eng, room, after, chat_after, chat_rows=3)
                each = await queries.room_news_statements(eng, room, after, chat_after, chat_rows=3)
                assert one is not None and each is not None
                assert one.entries == each.entries
                assert one.chat == each.chat
                # Timestamps apart (text in one, datetime in the other): nobody reads them from news.
                assert _without_created(one.room) == _without_created(each.room)
                assert list(map(_without_created, one.members)) == list(map(_without_created, each.members))
            last = await queries.room_news(eng, room, 3, 0)
            assert last is not None and last.entries == [] and last.room["lease_owner"] == "me"
            first = await queries.room_news(eng, room, 0, 0)
            assert first is not None and [e.version for e in first.entries] == [1, 2, 3]
            assert first.members[0]["seat"] == 1 and first.members[0]["seat_since"] == 1
            assert await queries.room_news(eng, "no-such-room", 0, 0) is None
        finally:
            await eng.dispose()


def _without_created(row: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in row.items() if key != "created_at"}
