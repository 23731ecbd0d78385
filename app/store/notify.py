"""PostgreSQL LISTEN/NOTIFY between app instances sharing one database.

After a commit that changes a room, an instance sends ``NOTIFY houserules, '<instance> <room> <room> ...'``
(inside the same transaction, so it is delivered only if the commit succeeds; one
notification names up to 200 rooms). Every other
instance that has the room loaded reloads it from the database and publishes the news to its
own sockets. Moves stay serialised by the version check on the room row.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

log = logging.getLogger(__name__)
CHANNEL = "houserules"


async def notify(conn: AsyncConnection, instance: str, room_ids: Iterable[str]) -> None:
    """One NOTIFY per 200 rooms (payloads stay far below PostgreSQL's 8000-byte limit)."""
    ids = sorted(set(room_ids))
    for start in range(0, len(ids), 200):
        await conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                           {"channel": CHANNEL, "payload": " ".join([instance, *ids[start:start + 200]])})


class Listener:
    """Keeps one asyncpg connection listening; calls ``on_room(room_id)`` for other instances' news."""

    def __init__(self, url: str, instance: str, on_room: Callable[[str], None]) -> None:
        self.url = url.replace("postgresql+asyncpg://", "postgresql://")
        self.instance = instance
        self.on_room = on_room
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def _receive(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        instance, *room_ids = payload.split(" ")
        if instance != self.instance:
            for room_id in room_ids:
                self.on_room(room_id)

    async def _run(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        while True:
            try:
                conn = await asyncpg.connect(self.url)
                try:
                    await conn.add_listener(CHANNEL, self._receive)
                    self.ready.set()
                    while not conn.is_closed():
                        await asyncio.sleep(1)
                finally:
                    self.ready.clear()
                    with contextlib.suppress(Exception):
                        await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection failed; retrying")
            await asyncio.sleep(1)
