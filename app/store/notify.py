"""PostgreSQL LISTEN/NOTIFY between app instances sharing one database.

After a commit that changes a room, an instance sends ``NOTIFY houserules, '<instance> <room> <room> ...'``
(inside the same transaction, so it is delivered only if the commit succeeds; one
notification names up to 200 rooms). Every other
instance that has the room loaded reloads it from the database and publishes the news to its
own sockets. Moves stay serialised by the version check on the room row.

One instance owns a room at a time (its lease, see ``app.rooms.manager``); a socket on another
instance has its moves handed to the owner over ``NOTIFY houserules_hand, '<json>'`` (a request
naming the owner, and the owner's reply naming the asking instance). The same channel carries each
instance's presence (``"to": "*"``: which members have sockets open on it), for all the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from app import json_codec
from app.store.queries import LISTENER_APP

log = logging.getLogger(__name__)
CHANNEL = "houserules"
HAND_CHANNEL = "houserules_hand"
# PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
HAND_MAX_BYTES = 7900


def asyncpg_url(url: str) -> str:
    """An engine's URL as asyncpg's own ``connect`` takes it."""
    return url.replace("postgresql+asyncpg://", "postgresql://")


def rooms_changed_payloads(instance: str, room_ids: Iterable[str]) -> list[str]:
    """The ``CHANNEL`` payloads telling that these rooms changed: one per 200 rooms (each stays far
    below PostgreSQL's 8000-byte limit)."""
    ids = sorted(set(room_ids))
    return [" ".join([instance, *ids[start:start + 200]]) for start in range(0, len(ids), 200)]


async def notify(conn: AsyncConnection, instance: str, room_ids: Iterable[str]) -> None:
    """Within the caller's transaction: tell the other instances these rooms changed."""
    for payload in rooms_changed_payloads(instance, room_ids):
        await conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                           {"channel": CHANNEL, "payload": payload})


# Several notifications in one statement, in the order of the arrays.
_NOTIFY_ALL = "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)"


class Notifier:
    """Sends this instance's notifications outside commits (moves and joins handed to an owner, its
    answers, presence, a room changed outside a move) on one connection of its own, those of one
    moment in one statement: each was a pooled connection, a transaction and three round trips, for
    every move a socket here made in a room another instance owns. They go out in the order sent
    (one statement's notifications in its order, then the next statement's)."""

    def __init__(self, url: str) -> None:
        self.url = asyncpg_url(url)
        self._waiting: list[tuple[str, str, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        self._conn: Any = None

    async def hand(self, message: dict[str, Any]) -> None:
        """Send a hand-over message (its ``to`` names the instance it is for); raises if it could
        not be sent."""
        await self._send(HAND_CHANNEL, json_codec.dumps(message))

    async def rooms_changed(self, instance: str, room_ids: Iterable[str]) -> None:
        """Tell the other instances these rooms changed (as a commit's notification does)."""
        for payload in rooms_changed_payloads(instance, room_ids):
            await self._send(CHANNEL, payload)

    async def _send(self, channel: str, payload: str) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, payload, future))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_waiting())
        await future

    async def _send_waiting(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                if self._conn is None or self._conn.is_closed():
                    self._conn = await asyncpg.connect(self.url)
                await self._conn.execute(_NOTIFY_ALL, [c for c, _, _ in batch], [p for _, p, _ in batch])
            except Exception as error:
                await self._drop()
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for _, _, future in batch:
                if not future.done():
                    future.set_result(None)

    async def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        self._conn = None

    async def close(self) -> None:
        """Stop: words not yet sent fail (their senders hear of it rather than wait for good)."""
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        waiting, self._waiting = self._waiting, []
        for _, _, future in waiting:
            if not future.done():
                future.set_exception(ConnectionError("the instance is stopping"))
        await self._drop()


class Listener:
    """Keeps one asyncpg connection listening; calls ``on_room(room_id)`` for other instances' news
    and ``on_hand(message)`` for hand-over messages addressed to this instance."""

    def __init__(self, url: str, instance: str, on_room: Callable[[str], None],
                 on_hand: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.url = asyncpg_url(url)
        self.instance = instance
        self.on_room = on_room
        self.on_hand = on_hand
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

    def _receive_hand(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            message = json_codec.loads(payload)
        except ValueError:
            return
        if not isinstance(message, dict) or self.on_hand is None:
            return
        # "*": for every instance but its sender (presence).
        to = message.get("to")
        if to == self.instance or (to == "*" and message.get("from") != self.instance):
            self.on_hand(message)

    async def _run(self) -> None:
        import asyncpg

        while True:
            try:
                # Named after the instance: others see in pg_stat_activity whether it is alive.
                conn = await asyncpg.connect(
                    self.url, server_settings={"application_name": f"{LISTENER_APP}{self.instance}"})
                try:
                    await conn.add_listener(CHANNEL, self._receive)
                    await conn.add_listener(HAND_CHANNEL, self._receive_hand)
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
