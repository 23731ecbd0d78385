"""What the room tests share: a recording subscriber, a clock the test moves, a started manager and a
dealt table."""

from __future__ import annotations

import json
import time as real_time
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.rooms.manager import RoomManager
from app.rooms.room import Room

START = 1_800_000_000.0


class Clock:
    """Stands in for the ``time`` module inside the room (the ``clock`` fixture puts it there):
    ``time()`` is whatever the test says."""

    def __init__(self) -> None:
        self.now = START

    def time(self) -> float:
        return self.now

    @staticmethod
    def perf_counter() -> float:
        return real_time.perf_counter()

    @staticmethod
    def monotonic() -> float:
        return real_time.monotonic()


class Recorder:
    """A connection as the room sees it: records what it is sent."""

    def __init__(self) -> None:
        self.member_id: int | None = None
        self.messages: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] == kind)


async def started_manager(engine: AsyncEngine, **settings: Any) -> RoomManager:
    manager = RoomManager(engine, Settings(**settings))
    await manager.start()
    return manager


async def dealt_table(
    manager: RoomManager, game: str, preset: str, *, players: int, capacity: int | None = None,
    **options: Any,
) -> tuple[Room, list[Recorder], list[str]]:
    """A room of ``capacity`` seats (``players`` by default) with ``players`` seated and connected,
    started by its host (seat 0); returns the room, the sockets and the tokens in seat order."""
    made = await manager.create_room(
        game, name="Kati", seats=capacity or players, preset=preset, options=options
    )
    room = await manager.get(made["room"])
    tokens = [made["token"]] + [(await room.join(f"P{i}", None))["token"] for i in range(1, players)]
    subs = []
    for token in tokens:
        sub = Recorder()
        await room.attach(sub, token, None)
        subs.append(sub)
    await room.host(subs[0], "start", "start", {})
    assert subs[0].last("ack")["id"] == "start"
    return room, subs, tokens
