"""PostgreSQL LISTEN/NOTIFY between app instances sharing one database.

After a commit that changes a room, an instance sends ``NOTIFY "houserules_room_<room>", '<instance>'``
(inside the same transaction, so it is delivered only if the commit succeeds). Each instance listens
on the channels of the rooms it has loaded, and only those: a commit wakes the instances that hold
its room, not every instance (with rooms spread over instances by a proxy, most changes concern one
of them). The listening session lists itself on each such room's row (``app.store.listeners``), and
a move's commit notifies only when another instance's session is listed there. Every other
instance that has the room loaded catches up from the database and publishes the news to its own
sockets. Moves stay serialised by the version check on the room row.

One instance owns a room at a time (its lease, see ``app.rooms.manager``); a socket on another
instance has its moves handed to the owner over ``NOTIFY houserules_hand, '<json>'`` (a request
naming the owner, and the owner's reply naming the asking instance). The same channel carries each
instance's presence (``"to": "*"``: which members have sockets open on it), for all the others.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from app import json_codec
from app.store.listeners import forget_ended_sessions, list_session, unlist_session
from app.store.queries import LISTENER_APP

log = logging.getLogger(__name__)
# A room's channel is this prefix and its id (at most 16 + 43 bytes, under PostgreSQL's 63).
ROOM_CHANNEL_PREFIX = "houserules_room_"
HAND_CHANNEL = "houserules_hand"
# How long a LISTEN or UNLISTEN may take before the listening connection is given up for a new one
# (room loads wait for their LISTEN: a connection that hangs must not hold them for good).
LISTEN_SECONDS = 10.0
# How often a listening session takes the sessions that have ended off the rooms they were listed
# on (app/store/listeners.py): until then a commit in such a room notifies for nobody, nothing worse.
FORGET_ENDED_SESSIONS_SECONDS = 30.0
# PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
HAND_MAX_BYTES = 7900


def asyncpg_url(url: str) -> str:
    """An engine's URL as asyncpg's own ``connect`` takes it."""
    return url.replace("postgresql+asyncpg://", "postgresql://")


def room_channel(room_id: str) -> str:
    """The channel on which a change of ``room_id`` is told (its payload: the instance that made it)."""
    return ROOM_CHANNEL_PREFIX + room_id


async def notify(conn: AsyncConnection, instance: str, room_ids: Iterable[str]) -> None:
    """Within the caller's transaction: tell the other instances these rooms changed."""
    await conn.execute(text("SELECT count(pg_notify(:prefix || r, :instance))"
                            " FROM unnest(CAST(:rooms AS text[])) AS r"),
                       {"prefix": ROOM_CHANNEL_PREFIX, "instance": instance, "rooms": sorted(set(room_ids))})


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
        # Sent side by side: the notifier puts them in one statement.
        await asyncio.gather(*(self._send(room_channel(room_id), instance)
                               for room_id in sorted(set(room_ids))))

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
    """Keeps one asyncpg connection listening: on the channels of the rooms ``listen`` named (calling
    ``on_room(room_id)`` for other instances' changes), its session listed on those rooms' rows, and
    on the hand-over channel (calling ``on_hand(message)`` for messages addressed to this instance)."""

    def __init__(self, url: str, instance: str, on_room: Callable[[str], None],
                 on_hand: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.url = asyncpg_url(url)
        self.instance = instance
        self.on_room = on_room
        self.on_hand = on_hand
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        # Rooms to hear of: how many loaded copies here asked (a room unloaded while it is loaded
        # again keeps its channel).
        self._wanted: collections.Counter[str] = collections.Counter()
        # The connection and the rooms it listens to; one LISTEN or UNLISTEN at a time on it.
        self._conn: Any = None
        self._listening: set[str] = set()
        self._changing = asyncio.Lock()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    @property
    def session_pid(self) -> int:
        """The listening session's backend pid (0 while it is down): commits by this instance need not
        notify for it."""
        conn = self._conn
        return 0 if conn is None or conn.is_closed() else int(conn.get_server_pid())

    async def listen(self, room_id: str) -> None:
        """Hear of ``room_id``'s changes from now on: returns once the database listens for this
        instance and its session is listed on the room (a copy read after that misses no change), or
        at once while the connection is down (when it is back, every wanted room is listened to and
        listed again and told as changed)."""
        self._wanted[room_id] += 1
        await self._follow(room_id)

    async def unlisten(self, room_id: str) -> None:
        """A copy of ``room_id`` left memory here (its ``listen`` is undone)."""
        self._wanted[room_id] -= 1
        if self._wanted[room_id] <= 0:
            del self._wanted[room_id]
        await self._follow(room_id)

    async def _follow(self, room_id: str) -> None:
        """Make the connection listen to ``room_id`` exactly while it is wanted."""
        async with self._changing:
            conn = self._conn
            if conn is None or conn.is_closed():
                return
            try:
                if room_id in self._wanted and room_id not in self._listening:
                    # With it, every room wanted meanwhile (loads waiting for this lock, many at once
                    # when a failed instance's sockets arrive): their listing is one statement.
                    rooms = [wanted for wanted in self._wanted if wanted not in self._listening]
                    for wanted in rooms:
                        await asyncio.wait_for(conn.add_listener(room_channel(wanted), self._receive),
                                               LISTEN_SECONDS)
                    # Listed only once the LISTENs hold: a commit that sees the listing notifies.
                    await asyncio.wait_for(list_session(conn, rooms), LISTEN_SECONDS)
                    self._listening.update(rooms)
                elif room_id not in self._wanted and room_id in self._listening:
                    self._listening.discard(room_id)
                    await asyncio.wait_for(unlist_session(conn, room_id), LISTEN_SECONDS)
                    await asyncio.wait_for(conn.remove_listener(room_channel(room_id), self._receive),
                                           LISTEN_SECONDS)
            except Exception:
                # Connected again from scratch: every wanted room is listened to, then told as changed.
                log.warning("LISTEN for room %s failed; reconnecting", room_id, exc_info=True)
                conn.terminate()

    def _receive(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        if payload != self.instance:
            self.on_room(channel[len(ROOM_CHANNEL_PREFIX):])

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

    async def _connect(self) -> Any:
        """A connection listening to the hand-over channel and every wanted room."""
        import asyncpg

        # Named after the instance: others see in pg_stat_activity whether it is alive.
        conn = await asyncpg.connect(
            self.url, server_settings={"application_name": f"{LISTENER_APP}{self.instance}"})
        try:
            await asyncio.wait_for(conn.add_listener(HAND_CHANNEL, self._receive_hand), LISTEN_SECONDS)
            async with self._changing:
                wanted = list(self._wanted)
                for room_id in wanted:
                    await asyncio.wait_for(conn.add_listener(room_channel(room_id), self._receive),
                                           LISTEN_SECONDS)
                if wanted:
                    # A new session: listed afresh (the old one's pid is forgotten once it has ended).
                    await asyncio.wait_for(list_session(conn, wanted), LISTEN_SECONDS)
                # A room wanted meanwhile is listened to by its own ``listen`` (waiting for the lock).
                self._listening = set(wanted)
                self._conn = conn
        except BaseException:
            conn.terminate()
            raise
        return conn

    async def _forget_ended_sessions(self, conn: Any) -> None:
        async with self._changing:  # one statement at a time on the connection
            try:
                await asyncio.wait_for(forget_ended_sessions(conn), LISTEN_SECONDS)
            except Exception:
                # As a LISTEN that failed: connected again from scratch (every wanted room listed).
                log.warning("forgetting the ended listening sessions failed; reconnecting", exc_info=True)
                conn.terminate()

    async def _run(self) -> None:
        while True:
            try:
                conn = await self._connect()
                try:
                    # Rooms loaded here while the connection was down (none at the first start): the
                    # changes since were told to nobody here.
                    for room_id in list(self._wanted):
                        self.on_room(room_id)
                    self.ready.set()
                    forgot = time.monotonic()
                    while not conn.is_closed():
                        await asyncio.sleep(1)
                        if time.monotonic() - forgot >= FORGET_ENDED_SESSIONS_SECONDS:
                            forgot = time.monotonic()
                            await self._forget_ended_sessions(conn)
                finally:
                    self.ready.clear()
                    self._conn = None
                    self._listening = set()
                    with contextlib.suppress(Exception):
                        await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection failed; retrying")
            await asyncio.sleep(1)
