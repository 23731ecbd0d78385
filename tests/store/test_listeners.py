"""A move's commit notifies a room's channel only when another instance's listening session is
listed on the room (``rooms.listeners``, app/store/listeners.py), and never misses one listed while
it ran.

A spy session listens on the room's channel without being listed: it hears exactly what the commit
sends. Each test waits for a notification sent after what must not arrive: PostgreSQL delivers a
session's notifications in commit order, so once that one is here, anything sent before it that was
going to arrive has arrived.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import notify as notify_module
from app.store import queries
from app.store.db import upgrade
from app.store.listeners import forget_ended_sessions
from app.store.notify import ROOM_CHANNEL_PREFIX, Listener, asyncpg_url, room_channel
from app.store.queries import Commit, LogEntry
from tests.support import fresh_postgres_engine, needs_postgres, until

pytestmark = needs_postgres

CLOCK = {"status": "playing", "deadline": None, "turn_start": None, "banks": None}


async def _room(engine: AsyncEngine, room_id: str) -> str:
    await queries.create_room(
        engine,
        {"id": room_id, "game": "g", "sheet": {}, "sheet_id": None, "sheet_version": None, "capacity": 2,
         "approval": False, "status": "lobby", "version": 0, "game_no": 0, "players": 0, "deal_version": 0},
        {"name": "Kati", "token_hash": room_id[-1] * 64, "status": "seated", "seat": 0, "wanted_seat": 0})
    return room_id


class Spy:
    """A session listening on rooms' channels, not listed on them: it hears what commits send."""

    def __init__(self) -> None:
        self.heard: list[str] = []
        self.conn: Any = None

    async def start(self, url: str, *room_ids: str) -> None:
        import asyncpg  # type: ignore[import-untyped]

        self.conn = await asyncpg.connect(url)
        for room_id in room_ids:
            await self.conn.add_listener(room_channel(room_id), self._heard)

    def _heard(self, _conn: Any, _pid: int, channel: str, _payload: str) -> None:
        self.heard.append(channel.removeprefix(ROOM_CHANNEL_PREFIX))

    async def until(self, room_id: str, count: int = 1) -> None:
        await until(lambda: self.heard.count(room_id) >= count, f"{count} notification(s) of {room_id}")


@asynccontextmanager
async def _database() -> AsyncIterator[tuple[AsyncEngine, Any, str]]:
    """A migrated database: an engine, the writer's asyncpg connection and its URL for asyncpg."""
    async with fresh_postgres_engine() as (engine, pg):
        await upgrade(engine)
        yield engine, pg, asyncpg_url(engine.url.render_as_string(hide_password=False))


@asynccontextmanager
async def _listener(url: str, instance: str) -> AsyncIterator[Listener]:
    listener = Listener(url, instance, lambda _room: None)
    listener.start()
    try:
        await asyncio.wait_for(listener.ready.wait(), 60)
        yield listener
    finally:
        await listener.stop()


async def _move(pg: Any, room_id: str, version: int, listener: Listener) -> None:
    """A move of ``room_id`` at ``version`` committed by ``listener``'s instance, as its writer does."""
    move = Commit(room_id, version, [LogEntry(version + 1, 1, "move", 0, {"type": "x"}, [])], dict(CLOCK))
    stored = await queries.append_in_one_statement_pg(pg, [move], ROOM_CHANNEL_PREFIX, listener.instance,
                                                      listener.session_pid)
    assert stored == {room_id}


async def _listed(engine: AsyncEngine, room_id: str) -> list[int]:
    record = await queries.load_room(engine, room_id)
    assert record is not None
    return sorted(record.room["listeners"] or [])


async def _listed_only(engine: AsyncEngine, room_id: str, pid: int) -> bool:
    return await _listed(engine, room_id) == [pid]


async def test_a_commit_notifies_only_while_another_instance_listens_on_the_room() -> None:
    async with _database() as (engine, pg, url):
        room, marker = await _room(engine, "room-1"), await _room(engine, "room-2")
        spy = Spy()
        await spy.start(url, room, marker)
        try:
            async with _listener(url, "owner") as owner:
                await owner.listen(room)
                await owner.listen(marker)
                assert await _listed(engine, room) == [owner.session_pid]
                # Only the owner holds the room: its commit wakes nobody.
                await _move(pg, room, 0, owner)
                async with _listener(url, "follower") as follower:
                    await follower.listen(marker)
                    await _move(pg, marker, 0, owner)
                    await spy.until(marker)
                    assert spy.heard == [marker]
                    # Another instance holds it now: told.
                    await follower.listen(room)
                    assert await _listed(engine, room) == sorted([owner.session_pid, follower.session_pid])
                    await _move(pg, room, 1, owner)
                    await spy.until(room)
                    # It let the room go: not told any more.
                    await follower.unlisten(room)
                    assert await _listed(engine, room) == [owner.session_pid]
                    await _move(pg, room, 2, owner)
                    await _move(pg, marker, 1, owner)
                    await spy.until(marker, 2)
                    assert spy.heard == [marker, room, marker]
        finally:
            await spy.conn.close()


async def test_a_session_listed_while_a_commit_waits_for_the_rooms_lock_is_told() -> None:
    """The commit's snapshot is older than the listing: it must read the listing from the row's
    newest version. A batch of two rooms waits for the first one's lock (held elsewhere) while a
    follower lists itself on the second; then the batch goes on, and the second room is told."""
    async with _database() as (engine, pg, url):
        first, second = await _room(engine, "room-a"), await _room(engine, "room-b")
        spy = Spy()
        await spy.start(url, second)
        import asyncpg  # type: ignore[import-untyped]

        blocker = await asyncpg.connect(url)
        try:
            async with _listener(url, "owner") as owner, _listener(url, "follower") as follower:
                await owner.listen(first)
                await owner.listen(second)
                lock = blocker.transaction()
                await lock.start()
                await blocker.execute("SELECT 1 FROM rooms WHERE id = $1 FOR UPDATE", first)
                batch = [Commit(room_id, 0, [LogEntry(1, 1, "move", 0, {"type": "x"}, [])], dict(CLOCK))
                         for room_id in (first, second)]
                commit = asyncio.create_task(queries.append_in_one_statement_pg(
                    pg, batch, ROOM_CHANNEL_PREFIX, owner.instance, owner.session_pid))
                writer_pid = pg.get_server_pid()

                await until(lambda: blocker.fetchval(
                    "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1", writer_pid),
                    "the batch to wait for the first room's lock")
                await follower.listen(second)  # listed after the commit's snapshot, before its lock
                await lock.commit()
                assert await commit == {first, second}
                await spy.until(second)
                assert spy.heard == [second]
        finally:
            await blocker.close()
            await spy.conn.close()


async def test_ended_sessions_are_forgotten_and_live_ones_kept() -> None:
    async with _database() as (engine, pg, url):
        room = await _room(engine, "room-1")
        async with _listener(url, "stays") as stays:
            await stays.listen(room)
            async with _listener(url, "goes") as goes:
                await goes.listen(room)
                gone = goes.session_pid
            assert await _listed(engine, room) == sorted([stays.session_pid, gone])
            await until(lambda: pg.fetchval(
                "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $1", gone), "the session to end")
            assert await forget_ended_sessions(pg) == 1
            assert await _listed(engine, room) == [stays.session_pid]
            assert await forget_ended_sessions(pg) == 0


async def test_a_listening_session_forgets_the_ended_ones_now_and_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notify_module, "FORGET_ENDED_SESSIONS_SECONDS", 0.0)
    async with _database() as (engine, _pg, url):
        room = await _room(engine, "room-1")
        async with _listener(url, "goes") as goes:
            await goes.listen(room)
            gone = goes.session_pid
        async with _listener(url, "stays") as stays:
            await stays.listen(room)
            assert gone in await _listed(engine, room)
            await until(lambda: _listed_only(engine, room, stays.session_pid),
                              "the ended session to be forgotten")
