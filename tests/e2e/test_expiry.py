"""The housekeeping deletes what nobody uses any more, over a real server and database (SQLite and
PostgreSQL): member rows that hold no seat (a join request never answered, a member who left) and
saved rule sheets no room was made from, once past their retention; the seated members and a
sheet a room was made from stay."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.store.db import make_engine
from app.store.queries import members, sheets
from tests.e2e.client import TIMEOUT, Client
from tests.e2e.conftest import Backend
from tests.support import ServerProcess

RETENTION_SECONDS = 2.0
SHORT = {
    "HOUSERULES_MEMBER_RETENTION_DAYS": str(RETENTION_SECONDS / 86400),
    "HOUSERULES_SHEET_RETENTION_DAYS": str(RETENTION_SECONDS / 86400),
    "HOUSERULES_SWEEP_SECONDS": "0.2",
    "HOUSERULES_IDLE_UNLOAD_SECONDS": "0.3",
}


@pytest.fixture(scope="module")
def sweeping(backend: Backend) -> Iterator[ServerProcess]:
    proc = backend.server(**SHORT).start()
    try:
        yield proc
    finally:
        proc.stop()


async def rows(backend: Backend) -> tuple[dict[str, str], set[str]]:
    """The member rows (name -> status) and the saved sheets' ids now in the database."""
    engine = make_engine(backend.database_url())
    try:
        async with engine.connect() as conn:
            found = await conn.execute(select(members.c.name, members.c.status))
            people = {row.name: row.status for row in found}
            saved = {str(row[0]) for row in await conn.execute(select(sheets.c.id))}
    finally:
        await engine.dispose()
    return people, saved


async def test_unused_members_and_sheets_expire(backend: Backend, sweeping: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=sweeping.http, timeout=TIMEOUT) as http:
        async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            answer = await http.post(path, json=body)
            assert answer.status_code == 201, answer.text
            result: dict[str, Any] = answer.json()
            return result

        sheet = {"game": "palace", "preset": "palace"}
        unused = (await post("/api/sheets", {**sheet, "name": "Never used"}))["id"]
        used = (await post("/api/sheets", {**sheet, "name": "Used"}))["id"]
        guarded = await post("/api/rooms", {"game": "palace", "name": "Host-A", "seats": 3, "approval": True,
                                            "sheet_id": used})
        waiting = await post(f"/api/rooms/{guarded['room']}/join", {"name": "Never-admitted"})
        assert waiting["pending"] is True
        open_room = await post("/api/rooms", {"game": "palace", "name": "Host-B", "seats": 3})
        leaver = await post(f"/api/rooms/{open_room['room']}/join", {"name": "Left-early"})
        client = Client(sweeping.ws, open_room["room"], leaver["token"])
        await client.connect()
        await client.send({"type": "leave", "id": "bye"})
        assert (await client.reply("bye"))["type"] == "ack"
        await client.close()
    people, saved = await rows(backend)
    assert people["Never-admitted"] == "pending" and people["Left-early"] == "gone"
    assert {unused, used} <= saved
    # Past the retention the next sweeps delete them (the rooms were unloaded meanwhile: no socket).
    deadline = time.monotonic() + 60
    while ("Never-admitted" in people or "Left-early" in people or unused in saved) \
            and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        people, saved = await rows(backend)
    assert "Never-admitted" not in people and "Left-early" not in people, people
    assert unused not in saved
    # What is in use stays: the seated hosts and the sheet a room was made from.
    assert people["Host-A"] == "seated" and people["Host-B"] == "seated"
    assert used in saved
    async with httpx.AsyncClient(base_url=sweeping.http, timeout=TIMEOUT) as http:
        assert (await http.get(f"/api/sheets/{unused}")).status_code == 404
        assert (await http.get(f"/api/sheets/{used}")).status_code == 200
        assert (await http.get(f"/api/rooms/{guarded['room']}")).status_code == 200
