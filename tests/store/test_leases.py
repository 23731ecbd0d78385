"""Room leases and the instances' heartbeats (PostgreSQL, app/store/leases.py).

A room's lease holds while its owner's heartbeat does and its owner's listening session is
connected; renewing beats one row an instance and locks no room's row.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import queries
from app.store.db import upgrade
from app.store.notify import asyncpg_url
from app.store.queries import LISTENER_APP
from tests.support import fresh_postgres_engine, needs_postgres

pytestmark = needs_postgres

ROOMS = ("room-a", "room-b")


@asynccontextmanager
async def _database() -> AsyncIterator[tuple[AsyncEngine, Any]]:
    """A fresh database with two rooms: its engine and a plain asyncpg connection beside it."""
    async with fresh_postgres_engine() as (engine, pg):
        await upgrade(engine)
        for room_id in ROOMS:
            await queries.create_room(
                engine,
                {"id": room_id, "game": "g", "sheet": {}, "sheet_id": None, "sheet_version": None,
                 "capacity": 2, "approval": False, "status": "lobby", "version": 0, "game_no": 0,
                 "players": 0, "deal_version": 0},
                {"name": "Kati", "token_hash": room_id.ljust(64, "h"), "status": "seated", "seat": 0,
                 "wanted_seat": 0})
        yield engine, pg


@asynccontextmanager
async def _session_of(engine: AsyncEngine, instance: str) -> AsyncIterator[None]:
    """A connection named as ``instance``'s listening session: the instance is running."""
    url = asyncpg_url(engine.url.render_as_string(hide_password=False))
    conn = await asyncpg.connect(url, server_settings={"application_name": LISTENER_APP + instance})
    try:
        yield
    finally:
        await conn.close()


async def test_a_lease_holds_while_its_owners_heartbeat_does() -> None:
    """Another instance cannot take a room while its owner's heartbeat lasts; once it has ended
    (the owner hung), the room is taken under a new epoch and the old owner learns it lost it."""
    async with _database() as (engine, pg), _session_of(engine, "one"), _session_of(engine, "two"):
        taken = await queries.take_leases(engine, "one", list(ROOMS), 30)
        assert set(taken) == set(ROOMS)
        assert await queries.take_leases(engine, "two", ["room-a"], 30) == {}
        assert await queries.renew_leases(engine, "one", taken, 30) == set(ROOMS)
        await pg.execute("UPDATE instances SET alive_until = 0 WHERE id = 'one'")
        assert await queries.take_leases(engine, "two", ["room-a"], 30) == {"room-a": taken["room-a"] + 1}
        # The old owner beats again: it keeps the room nobody took and hears it lost the other.
        assert await queries.renew_leases(engine, "one", taken, 30) == {"room-b"}
        assert await queries.take_leases(engine, "two", ["room-b"], 30) == {}


async def test_a_lease_whose_owner_has_no_session_left_is_free_at_once() -> None:
    """An owner whose process died (no listening session) holds nothing, heartbeat or not."""
    async with _database() as (engine, _):
        async with _session_of(engine, "one"):
            taken = await queries.take_leases(engine, "one", ["room-a"], 30)
            async with _session_of(engine, "two"):
                assert await queries.take_leases(engine, "two", ["room-a"], 30) == {}
        async with _session_of(engine, "two"):
            assert await queries.take_leases(engine, "two", ["room-a"], 30) == {"room-a": taken["room-a"] + 1}


async def test_a_take_beats_the_heartbeat_and_a_clean_stop_ends_it() -> None:
    """The rooms an instance takes are its own before its first renewal (the take writes its
    heartbeat); a clean stop frees its rooms and deletes its heartbeat; heartbeats an hour past
    their end are forgotten."""
    async with _database() as (engine, pg), _session_of(engine, "one"), _session_of(engine, "two"):
        await pg.execute("INSERT INTO instances (id, alive_until) VALUES ('long-gone', 0)")
        taken = await queries.take_leases(engine, "one", ["room-a"], 30)
        left = await pg.fetchval("SELECT alive_until - extract(epoch from clock_timestamp())"
                                 " FROM instances WHERE id = 'one'")
        assert 0 < left <= 30
        assert await queries.take_leases(engine, "two", ["room-a"], 30) == {}
        await queries.renew_leases(engine, "one", taken, 30)
        assert await pg.fetchval("SELECT count(*) FROM instances WHERE id = 'long-gone'") == 0
        await queries.release_leases(engine, "one", ["room-a"], stopping=True)
        assert await pg.fetchval("SELECT count(*) FROM instances WHERE id = 'one'") == 0
        assert await pg.fetchval("SELECT lease_owner FROM rooms WHERE id = 'room-a'") is None
        assert await queries.take_leases(engine, "two", ["room-a"], 30) == {"room-a": taken["room-a"] + 1}


async def test_a_renewal_never_waits_for_a_rooms_row() -> None:
    """A batch of moves holds its rooms' rows until it commits; the owner's renewal meanwhile
    neither waits for them nor leaves anything for the batch to wait for (it used to rewrite every
    owned room's row, and the batch waited for it)."""
    async with _database() as (engine, pg), _session_of(engine, "one"):
        taken = await queries.take_leases(engine, "one", list(ROOMS), 30)
        batch = pg.transaction()
        await batch.start()
        await pg.execute("SELECT id FROM rooms WHERE id = ANY($1::varchar[]) ORDER BY id FOR UPDATE",
                         list(ROOMS))
        # The batch commits only after the renewal has come back: a renewal that waited for the
        # rows would never come back (the bound turns that into a failure).
        kept = await asyncio.wait_for(queries.renew_leases(engine, "one", taken, 30), 60)
        await batch.commit()
        assert kept == set(ROOMS)


async def test_a_followers_take_never_waits_for_a_live_owners_room() -> None:
    """An instance following rooms asks every second to take those whose owner is gone; a room
    whose owner lives is not even locked, so the owner's batch of moves holding it is not in its
    way (nor it in the batch's)."""
    async with _database() as (engine, pg), _session_of(engine, "one"), _session_of(engine, "two"):
        await queries.take_leases(engine, "one", list(ROOMS), 30)
        batch = pg.transaction()
        await batch.start()
        await pg.execute("SELECT id FROM rooms WHERE id = ANY($1::varchar[]) ORDER BY id FOR UPDATE",
                         list(ROOMS))
        taken = await asyncio.wait_for(queries.take_leases(engine, "two", list(ROOMS), 30), 60)
        await batch.commit()
        assert taken == {}
