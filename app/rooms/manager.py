"""All rooms of this instance: creation, loading and rebuilding, the store's transactions, sheets.

With PostgreSQL, one instance owns a room at a time: it holds the room's lease (``rooms.lease_*``,
``LEASE_SECONDS`` long, renewed every ``RENEW_SECONDS``) and only it commits the room's moves and
runs its timers and bots. Every commit names the lease's epoch, so a stale owner's write is
refused. Another instance with sockets in the room keeps a copy in step through LISTEN/NOTIFY and
hands everything that changes the room to the owner (``notify.hand``): its sockets' moves, host
operations, chat, contributions and leaving, and the joins it is asked for over HTTP; when the
owner's lease ends unrenewed (it died), such an instance takes the room over from the stored log
and snapshots.

Presence: every instance tells the others which members have a socket open on it in each room
(on every change, and again every ``RENEW_SECONDS``), so the owner's bots stand in only for players
connected nowhere, and every instance's room message shows who is connected anywhere. A word not
renewed for ``PRESENCE_SECONDS`` (its instance died) counts no more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Coroutine, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app import games
from app.config import Settings
from app.games.base import Game, IllegalAction
from app.rooms import metrics, replay, replay_index
from app.rooms.bounds import is_room_id, is_sheet_id
from app.rooms.errors import RoomError
from app.rooms.room import NAME_MAX, RECORD_MAX_ENTRIES, Room, RoomGone, Subscriber, clean_text
from app.rooms.tokens import hash_token, new_room_id, new_token
from app.store import queries
from app.store.notify import CHANNEL, HAND_MAX_BYTES, Listener, hand, notify
from app.store.queries import VersionConflict

log = logging.getLogger(__name__)

# A lease not renewed for this long may be taken by another instance: failover takes at most
# LEASE_SECONDS + RENEW_SECONDS.
LEASE_SECONDS = 3.0
RENEW_SECONDS = 1.0
# How long a socket's handed-over message waits for the owner's answer before ``room_moving``.
HAND_WAIT_SECONDS = 3.0
# Another instance's presence in a room counts this long after its last word (renewed every
# RENEW_SECONDS; generous, so a busy instance's late renewal never makes its players look away).
PRESENCE_SECONDS = 10.0
# The frames that answer a message handed to the owner (sent back to the socket that sent it).
REPLY_TYPES = ("ack", "error", "contributed")


def get_game(name: str) -> Game[Any, Any]:
    try:
        return games.get(name)
    except KeyError:
        raise RoomError("unknown_game", f"There is no game called {name[:32]!r}.", 404) from None


def check_sheet_size(options: dict[str, Any] | None, max_items: int, max_bytes: int) -> None:
    """Refuse a sheet whose options hold a list longer than ``max_items`` (anywhere inside an
    option, e.g. a list of blind levels) or whose JSON is over ``max_bytes``: a sheet is kept in
    memory, sent to every socket of its room and stored with it, so its size is bounded."""
    if not options:
        return
    for option, value in options.items():
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                if len(item) > max_items:
                    raise RoomError("invalid_sheet", f"Option {option!r}: at most {max_items} entries.",
                                    422, option)
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
    sizes = {option: len(json.dumps(value)) for option, value in options.items()}
    if sum(sizes.values()) > max_bytes:
        largest = max(sizes, key=lambda option: sizes[option])
        raise RoomError("sheet_too_large", f"The rule sheet is over {max_bytes} bytes; option {largest!r} "
                        "is the largest.", 422, largest)


def _moving(msg_id: str) -> str:
    return json.dumps({"type": "error", "id": msg_id, "code": "room_moving",
                       "message": "The room is moving to another server; try again in a moment."})


class HandedReply:
    """The owner's stand-in for a socket on another instance: the answer to its message (the ack or
    error with its id) goes back there; the room's news reaches it through that instance."""

    def __init__(self, manager: RoomManager, to: str, room_id: str, member_id: int, msg_id: str) -> None:
        self.manager = manager
        self.to = to
        self.room_id = room_id
        self.member_id: int | None = member_id
        self.msg_id = msg_id

    def send(self, text_out: str) -> None:
        frame = json.loads(text_out)
        if frame.get("type") in REPLY_TYPES and frame.get("id") == self.msg_id:
            assert self.member_id is not None
            self.manager.send_reply(self.to, self.room_id, self.member_id, self.msg_id, text_out)

    def close(self, code: int, reason: str) -> None:
        pass


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    # A waiter may have been cancelled (its socket closed); the commit stands regardless, and
    # that room reloads from the database at its next move (version conflict).
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class RoomManager:
    def __init__(self, engine: AsyncEngine, settings: Settings) -> None:
        self.engine = engine
        # Each game's replay walked once and kept (app/rooms/replay_index.py).
        self.replays = replay_index.ReplayIndexes(engine)
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # Every move goes through one writer task (group commit); SQLite has one writer anyway.
        self._queue: asyncio.Queue[tuple[queries.Commit, asyncio.Future[None]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        # PostgreSQL: instances sharing the database tell each other of changed rooms.
        self.instance = secrets.token_hex(8)
        self.listener: Listener | None = None
        if engine.dialect.name == "postgresql":
            self.listener = Listener(engine.url.render_as_string(hide_password=False), self.instance,
                                     self._remote_change, self._hand_received)
        # Leases only where several instances can share the database (PostgreSQL).
        self.leases = self.listener is not None
        self._lease_task: asyncio.Task[None] | None = None
        # PostgreSQL: the writer's own asyncpg connection for plain moves (one statement a batch).
        self._pg: Any = None
        # Messages handed to an owner and not yet answered: (room, member, message id) -> the
        # socket and the message's kind.
        self._handed: dict[tuple[str, int, str], tuple[Subscriber, str]] = {}
        # Joins handed to an owner (HTTP, no socket): their id -> the answer awaited.
        self._joins: dict[str, asyncio.Future[dict[str, Any]]] = {}
        # Answers to other instances' handed messages, waiting for the task that sends them.
        self._outbox: list[dict[str, Any]] = []
        self._sender: asyncio.Task[None] | None = None
        # Rooms whose sockets here changed since presence was last sent.
        self._presence_dirty: set[str] = set()

    def _remote_change(self, room_id: str) -> None:
        room = self.rooms.get(room_id)
        if room is not None and not room.sync_wanted:
            room.sync_wanted = True
            self.spawn(room.sync())

    # -- one owner per room ------------------------------------------------------------------

    async def _lease_loop(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.tend_leases()
            except Exception:  # the lease keeper must live on whatever happens
                log.exception("renewing the room leases failed")
            self.expire_presence()
            await self.send_presence([room for room in self.rooms.values() if room.subscribers])

    async def tend_leases(self) -> None:
        """Renew the leases of the rooms this instance owns (a room whose lease was taken over
        becomes a follower) and take over the rooms with sockets (or a running turn timer) here
        whose owner's lease ended or whose owner is gone (no session of it left in the database)."""
        owned = {room_id: room.epoch for room_id, room in self.rooms.items() if room.epoch is not None}
        kept = await queries.renew_leases(self.engine, self.instance, owned, LEASE_SECONDS)
        for room_id in set(owned) - kept:
            room = self.rooms.get(room_id)
            if room is not None and room.epoch == owned[room_id]:
                log.warning("room %s: lease lost to another instance", room_id)
                room.epoch = None
                room.arm_timer()  # stops its timers and bots: the owner runs them
        # Rooms with sockets here, or with a turn timer that must fire even with nobody there.
        followers = [room_id for room_id, room in self.rooms.items()
                     if room.epoch is None and (room.subscribers or room.deadline is not None)]
        for room_id, epoch in (await queries.take_leases(self.engine, self.instance, followers,
                                                         LEASE_SECONDS)).items():
            room = self.rooms.get(room_id)
            if room is not None:
                log.info("room %s: taken over (lease epoch %d)", room_id, epoch)
                self.spawn(room.take_over(epoch))

    async def hand_over(self, room: Room, sub: Subscriber, op: str, msg_id: str, body: dict[str, Any]
                        ) -> None:
        """Hand a socket's message to the room's owner; its answer comes back to the socket."""
        assert sub.member_id is not None
        owner = room.lease_owner
        message = {"to": owner, "from": self.instance, "kind": "request", "room": room.id,
                   "member": sub.member_id, "op": op, "id": msg_id, "body": body}
        if owner is None or owner == self.instance:
            sub.send(_moving(msg_id))
            return
        if len(json.dumps(message)) > HAND_MAX_BYTES:
            sub.send(json.dumps({"type": "error", "id": msg_id, "code": "bad_message",
                                 "message": "The message is too large."}))
            return
        key = (room.id, sub.member_id, msg_id)
        self._handed[key] = (sub, op)
        try:
            async with self.engine.begin() as conn:
                await hand(conn, message)
        except Exception:
            log.exception("handing a message of room %s to its owner failed", room.id)
            self._handed.pop(key, None)
            sub.send(_moving(msg_id))
            return
        asyncio.get_running_loop().call_later(HAND_WAIT_SECONDS, self._hand_expired, key, sub)

    def _hand_expired(self, key: tuple[str, int, str], sub: Subscriber) -> None:
        handed = self._handed.get(key)
        if handed is not None and handed[0] is sub:
            del self._handed[key]
            sub.send(_moving(key[2]))

    def leave_handed(self, room_id: str, member_id: int) -> bool:
        """Whether a socket here handed the owner its member's leaving, still unanswered (its
        sockets close when the answer comes, after the ack)."""
        return any(key[0] == room_id and key[1] == member_id and op == "leave"
                   for key, (_, op) in self._handed.items())

    async def hand_join(self, room: Room, name: str, seat: int | None) -> dict[str, Any]:
        """Hand an HTTP join to the room's owner, which seats (or queues) the newcomer; its answer
        is this request's answer."""
        owner = room.lease_owner
        if owner is None or owner == self.instance:
            raise RoomError("room_moving", "The room is moving to another server; try again in a moment.",
                            503, retry_after=1)
        join_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._joins[join_id] = future
        try:
            async with self.engine.begin() as conn:
                await hand(conn, {"to": owner, "from": self.instance, "kind": "request", "room": room.id,
                                  "member": 0, "op": "join", "id": join_id,
                                  "body": {"name": name, "seat": seat}})
            return await asyncio.wait_for(future, HAND_WAIT_SECONDS)
        except TimeoutError:
            raise RoomError("room_moving", "The room is moving to another server; try again in a "
                            "moment.", 503, retry_after=1) from None
        finally:
            self._joins.pop(join_id, None)

    async def want(self, room: Room) -> None:
        """A socket came to a room another instance owns (the proxy sends the room's sockets here
        now): ask the owner to give the room up if none of its own sockets are in it."""
        if room.lease_owner is None or room.lease_owner == self.instance:
            return
        with contextlib.suppress(Exception):
            async with self.engine.begin() as conn:
                await hand(conn, {"to": room.lease_owner, "from": self.instance, "kind": "want",
                                  "room": room.id})

    async def _give_up(self, room_id: str, to: str) -> None:
        room = self.rooms.get(room_id)
        if room is None or room.epoch is None or room.subscribers:
            return
        async with room.lock:
            if room.epoch is None or room.subscribers:
                return
            await queries.release_leases(self.engine, self.instance, [room_id])
            room.epoch, room.lease_owner = None, None
            room.arm_timer()  # stops its timers and bots
        log.info("room %s: given up to %s, where its sockets are", room_id, to)
        with contextlib.suppress(Exception):
            async with self.engine.begin() as conn:
                await hand(conn, {"to": to, "from": self.instance, "kind": "released", "room": room_id})

    async def _take_released(self, room_id: str) -> None:
        room = self.rooms.get(room_id)
        if room is None or room.epoch is not None:
            return
        taken = await queries.take_leases(self.engine, self.instance, [room_id], LEASE_SECONDS)
        if room_id in taken:
            await room.take_over(taken[room_id])

    def _hand_received(self, message: dict[str, Any]) -> None:
        if message.get("kind") == "request":
            self.spawn(self._serve_handed(message))
        elif message.get("kind") == "want":
            self.spawn(self._give_up(str(message.get("room")), str(message.get("from"))))
        elif message.get("kind") == "released":
            self.spawn(self._take_released(str(message.get("room"))))
        elif message.get("kind") == "presence":
            self._presence_received(str(message.get("from")), message.get("rooms"))
        elif message.get("kind") == "fair":
            room = self.rooms.get(str(message.get("room")))
            if room is not None:
                room.fair_heard(message.get("fair"))
        elif message.get("kind") == "stand_in":
            room = self.rooms.get(str(message.get("room")))
            if room is not None:
                room.bots.forced_heard(message.get("members"))
        elif message.get("kind") == "reply" and message.get("op") == "join":
            future = self._joins.get(str(message.get("id")))
            if future is not None and not future.done():
                error = message.get("error")
                if isinstance(error, dict):
                    future.set_exception(RoomError(str(error.get("code")), str(error.get("message")),
                                                   int(error.get("status") or 400),
                                                   retry_after=error.get("retry_after")))
                else:
                    future.set_result(dict(message.get("result") or {}))
        elif message.get("kind") == "reply":
            key = (str(message.get("room")), int(message.get("member") or 0), str(message.get("id")))
            handed = self._handed.pop(key, None)
            if handed is not None:
                sub, op = handed
                text_out = str(message.get("text"))
                sub.send(text_out)
                room = self.rooms.get(key[0])
                if op == "leave" and room is not None and json.loads(text_out).get("type") == "ack":
                    room.left(key[1])

    async def _serve_handed(self, message: dict[str, Any]) -> None:
        """As the owner: run another instance's socket's message; the answer goes back to it."""
        room_id, msg_id = str(message["room"]), str(message["id"])
        body = message.get("body") or {}
        if message.get("op") == "join":
            await self._serve_join(str(message["from"]), room_id, msg_id, body)
            return
        reply = HandedReply(self, str(message["from"]), room_id, int(message["member"]), msg_id)
        try:
            room = await self.get(room_id)
        except RoomError:
            reply.send(_moving(msg_id))
            return
        if room.epoch is None:
            reply.send(_moving(msg_id))
            return
        op = message.get("op")
        if op == "action":
            version = body.get("version")
            await room.act(reply, msg_id, dict(body.get("action") or {}),
                           version if isinstance(version, int) else None)
        elif op == "host":
            await room.host(reply, msg_id, str(body.get("op")), dict(body.get("args") or {}))
        elif op == "chat":
            await room.say(reply, msg_id, str(body.get("text")))
        elif op == "leave":
            await room.leave(reply, msg_id)
        elif op == "contribute":
            await room.contribute(reply, msg_id, str(body.get("commitment")), str(body.get("bytes")))

    async def _serve_join(self, to: str, room_id: str, join_id: str, body: dict[str, Any]) -> None:
        """As the owner: another instance's HTTP join; the answer (or refusal) goes back to it."""
        answer: dict[str, Any] = {"to": to, "kind": "reply", "op": "join", "room": room_id, "id": join_id}
        seat = body.get("seat")
        try:
            room = await self.get(room_id)
            if room.epoch is None:
                raise RoomGone(room_id)
            answer["result"] = await room.join(str(body.get("name")),
                                               seat if isinstance(seat, int) and not isinstance(seat, bool)
                                               else None)
        except RoomError as refused:
            answer["error"] = {"code": refused.code, "message": refused.message, "status": refused.status,
                               "retry_after": refused.retry_after}
        except RoomGone:
            answer["error"] = {"code": "room_moving", "status": 503, "retry_after": 1,
                               "message": "The room is moving to another server; try again in a moment."}
        try:
            async with self.engine.begin() as conn:
                await hand(conn, answer)
        except Exception:
            log.exception("answering a handed join of room %s failed", room_id)

    # -- presence ----------------------------------------------------------------------------

    def presence_changed(self, room: Room) -> None:
        """A socket came to or left ``room`` here: tell the other instances (with leases only;
        the changes of one moment share one notification)."""
        if not self.leases:
            return
        if not self._presence_dirty:
            asyncio.get_running_loop().call_soon(self._send_dirty_presence)
        self._presence_dirty.add(room.id)

    def _send_dirty_presence(self) -> None:
        rooms = [room for room_id in self._presence_dirty if (room := self.rooms.get(room_id)) is not None]
        self._presence_dirty.clear()
        if rooms:
            self.spawn(self.send_presence(rooms))

    async def send_presence(self, rooms: Iterable[Room]) -> None:
        """Tell every other instance which members have sockets here in these rooms (an empty list:
        none any more). Several rooms share a notification while it stays under PostgreSQL's limit."""
        chunks: list[dict[str, list[int]]] = [{}]
        size = 0
        for room in rooms:
            members = sorted({sub.member_id for sub in room.subscribers if sub.member_id is not None})
            cost = len(json.dumps({room.id: members}))
            if size + cost > HAND_MAX_BYTES - 200 and chunks[-1]:
                chunks.append({})
                size = 0
            chunks[-1][room.id] = members
            size += cost
        try:
            for chunk in chunks:
                if chunk:
                    async with self.engine.begin() as conn:
                        await hand(conn, {"to": "*", "from": self.instance, "kind": "presence",
                                          "rooms": chunk})
        except Exception:
            log.exception("telling the other instances who is connected failed")

    def share_fair(self, room_id: str, shared: dict[str, Any]) -> None:
        """Tell the other instances a room's next-deal commitment (``Room._share_fair``)."""

        async def send() -> None:
            try:
                async with self.engine.begin() as conn:
                    await hand(conn, {"to": "*", "from": self.instance, "kind": "fair", "room": room_id,
                                      "fair": shared})
            except Exception:
                log.exception("telling the other instances room %s's commitment failed", room_id)

        self.spawn(send())

    def share_stand_ins(self, room_id: str, members: list[int]) -> None:
        """Tell the other instances whom the owner's bots stand in for at the host's word
        (``BotDriver.stand_in_now``), so their pages say so too."""

        async def send() -> None:
            try:
                async with self.engine.begin() as conn:
                    await hand(conn, {"to": "*", "from": self.instance, "kind": "stand_in", "room": room_id,
                                      "members": members})
            except Exception:
                log.exception("telling the other instances room %s's stand-ins failed", room_id)

        self.spawn(send())

    def _presence_received(self, instance: str, rooms: Any) -> None:
        if not isinstance(rooms, dict):
            return
        now = time.monotonic()
        for room_id, members in rooms.items():
            room = self.rooms.get(str(room_id))
            if room is not None and isinstance(members, list):
                room.remote_presence(instance, frozenset(m for m in members if isinstance(m, int)), now)

    def expire_presence(self) -> None:
        now = time.monotonic()
        for room in list(self.rooms.values()):
            room.expire_presence(now - PRESENCE_SECONDS)

    def send_reply(self, to: str, room_id: str, member_id: int, msg_id: str, text_out: str) -> None:
        """Answer a handed message. Answers go out in the order given, those of one moment in one
        transaction (a socket that sent several messages gets their answers in order)."""
        self._outbox.append({"to": to, "kind": "reply", "room": room_id, "member": member_id,
                             "id": msg_id, "text": text_out})
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_replies())

    async def _send_replies(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self.engine.begin() as conn:
                    for message in batch:
                        await hand(conn, message)
            except Exception:
                log.exception("answering %d handed messages failed", len(batch))

    async def announce(self, conn: AsyncConnection, room_ids: Iterable[str]) -> None:
        """Within a transaction: tell the other instances these rooms changed (PostgreSQL only)."""
        if self.listener is not None:
            await notify(conn, self.instance, room_ids)

    async def announce_now(self, room_id: str) -> None:
        if self.listener is not None:
            async with self.engine.begin() as conn:
                await notify(conn, self.instance, [room_id])

    async def commit(self, change: queries.Commit) -> None:
        """Store one room's change; returns once it is committed (raises if it was not).

        Changes from many rooms are written by one writer task, several to a transaction (group
        commit): each room waits for its own, and a failed batch is retried change by change, so
        one room's version conflict never fails another room's move.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 256:
                batch.append(self._queue.get_nowait())
            try:
                await self._write(batch)
            except Exception as error:  # the writer must live on whatever happens
                for _, future in batch:
                    _settle(future, error)

    async def _pg_connection(self) -> Any:
        if self._pg is None or self._pg.is_closed():
            import asyncpg  # type: ignore[import-untyped]

            self._pg = await asyncpg.connect(
                self.engine.url.render_as_string(hide_password=False).replace("postgresql+asyncpg://",
                                                                              "postgresql://"))
        return self._pg

    async def _write_in_one_statement(self, batch: list[tuple[queries.Commit, asyncio.Future[None]]]
                            ) -> list[tuple[queries.Commit, asyncio.Future[None]]]:
        """PostgreSQL: store the batch's moves and deals in one statement on the writer's connection,
        settling their waiters; returns what is left for the general path (with the moves of a
        statement that failed, which changed nothing: a retried message id the log already holds,
        say, is then answered as usual)."""
        single = [(change, future) for change, future in batch if change.one_statement]
        if not single:
            return batch
        stored: set[str] = set()
        try:
            conn = await self._pg_connection()
            # 200 rooms at most a statement: their ids make one notification, under its size limit.
            for start in range(0, len(single), 200):
                stored |= await queries.append_in_one_statement_pg(
                    conn, [change for change, _ in single[start:start + 200]], CHANNEL, self.instance)
        except Exception:
            log.info("the one-statement commit failed; storing the batch the general way", exc_info=True)
            with contextlib.suppress(Exception):
                if self._pg is not None:
                    await self._pg.close()
            self._pg = None
            # Those stored are settled; the rest go the general way.
            left = [(change, future) for change, future in batch if change.room_id not in stored]
            for change, future in single:
                if change.room_id in stored:
                    _settle(future, None)
            return left
        for change, future in single:
            _settle(future, None if change.room_id in stored else VersionConflict(change.room_id))
        return [(change, future) for change, future in batch if not change.one_statement]

    async def _write(self, batch: list[tuple[queries.Commit, asyncio.Future[None]]]) -> None:
        if self.listener is not None:
            batch = await self._write_in_one_statement(batch)
            if not batch:
                return
        try:
            async with self.engine.begin() as conn:
                await queries.append_many(conn, [change for change, _ in batch])
                await self.announce(conn, [change.room_id for change, _ in batch])
        except Exception:
            if len(batch) == 1:
                raise
            for change, future in batch:
                try:
                    async with self.engine.begin() as conn:
                        await queries.append_many(conn, [change])
                        await self.announce(conn, [change.room_id])
                except Exception as error:
                    _settle(future, error)
                else:
                    _settle(future, None)
            return
        for _, future in batch:
            _settle(future, None)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- loading -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild the rooms whose turn timer runs (their deadlines must fire with nobody there)
        and start the housekeeping. Every other room is loaded when someone comes to it, so
        start-up does not grow with the number of stored rooms."""
        if self.listener is not None:
            self.listener.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.listener.ready.wait(), 10)
        for room_id in await queries.timed_room_ids(self.engine):
            try:
                await self.get(room_id)
            except Exception:
                log.exception("room %s could not be rebuilt", room_id)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        if self.leases:
            self._lease_task = asyncio.get_running_loop().create_task(self._lease_loop())

    # -- housekeeping ------------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # housekeeping must live on whatever happens
                log.exception("housekeeping failed")

    async def sweep(self) -> None:
        """Unload idle rooms; delete abandoned lobbies and finished rooms past their retention, then
        unused member rows and saved sheets past theirs."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.idle(now, self.settings.idle_unload_seconds):
                await self._unload(room)
        for status, days in (("lobby", self.settings.lobby_retention_days),
                             ("finished", self.settings.finished_retention_days)):
            if days <= 0:
                continue
            expired = await queries.expired_room_ids(self.engine, status, time.time() - days * 86400)
            gone = []
            for room_id in expired:
                # Under the room's loading lock: a visitor loading it meanwhile waits, then finds
                # it gone (never a copy in memory of rows deleted under it).
                async with self._loading.setdefault(room_id, asyncio.Lock()):
                    loaded = self.rooms.get(room_id)
                    if loaded is not None and loaded.subscribers:
                        continue  # someone is there: not abandoned
                    if loaded is not None:
                        await self._unload(loaded, force=True)
                    await queries.delete_rooms(self.engine, [room_id])
                    gone.append(room_id)
                self._loading.pop(room_id, None)
                stale = self.rooms.get(room_id)
                if stale is not None:  # loaded from the rows just before they were deleted
                    await self._unload(stale, force=True)
            if gone:
                log.info("deleted %d %s rooms past their retention", len(gone), status)
        await self._expire_unused()

    async def _expire_unused(self) -> None:
        """Delete member rows that hold no seat and saved sheets no room uses, past their retention."""
        if self.settings.member_retention_days > 0:
            before = time.time() - self.settings.member_retention_days * 86400
            count = await queries.delete_unused_members(self.engine, before, list(self.rooms))
            if count:
                log.info("deleted %d member rows holding no seat past their retention", count)
        if self.settings.sheet_retention_days > 0:
            before = time.time() - self.settings.sheet_retention_days * 86400
            count = await queries.delete_unused_sheets(self.engine, before)
            if count:
                log.info("deleted %d saved sheets no room used past their retention", count)

    async def _unload(self, room: Room, *, force: bool = False) -> None:
        async with room.lock:
            if room.closed or not (force or room.idle(time.monotonic(), self.settings.idle_unload_seconds)):
                return
            if room.timer is not None:
                room.timer.cancel()
                room.timer = None
            room.closed = True
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]
            if room.epoch is not None:
                # Out of memory here: another instance may take the room at once.
                with contextlib.suppress(Exception):
                    await queries.release_leases(self.engine, self.instance, [room.id])
                room.epoch = None
        self.update_gauges()

    async def stop(self) -> None:
        for task in (self._sweeper, self._lease_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.leases:
            # A clean stop gives the rooms up at once (a killed instance's leases run out instead).
            owned = [room_id for room_id, room in self.rooms.items() if room.epoch is not None]
            with contextlib.suppress(Exception):
                await queries.release_leases(self.engine, self.instance, owned)
        if self.listener is not None:
            await self.listener.stop()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in [*self._tasks, *([self._sender] if self._sender is not None else [])]:
            task.cancel()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        if self._pg is not None:
            with contextlib.suppress(Exception):
                await self._pg.close()
        self.rooms.clear()
        self.update_gauges()

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not is_room_id(room_id):
            raise RoomError("unknown_room", "There is no such room.", 404)
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is None:
                # The lease first (when nobody holds it), then the load: no owner's commit can
                # land between what was read and the epoch this instance commits under.
                epoch = None
                if self.leases:
                    epoch = (await queries.take_leases(self.engine, self.instance, [room_id],
                                                       LEASE_SECONDS)).get(room_id)
                record = await queries.load_room(self.engine, room_id)
                if record is None:
                    self._loading.pop(room_id, None)
                    raise RoomError("unknown_room", "There is no such room.", 404)
                room = Room(self, record, get_game(record.room["game"]), epoch)
                self.rooms[room_id] = room
                room.arm_timer()
                self.update_gauges()
        self._loading.pop(room_id, None)
        return room

    def update_gauges(self) -> None:
        counts = {"lobby": 0, "playing": 0, "finished": 0}
        for room in self.rooms.values():
            counts[room.status] = counts.get(room.status, 0) + 1
        for status, count in counts.items():
            metrics.ROOMS.labels(status).set(count)

    # -- rule sheets -------------------------------------------------------------------------

    def make_sheet(self, game: Game[Any, Any], preset: str | None, options: dict[str, Any] | None
                   ) -> dict[str, Any]:
        self.check_sheet_size(options)
        try:
            full: dict[str, Any] = game.sheet(options, preset=preset).model_dump(mode="json")
            return full
        except IllegalAction as refused:
            raise RoomError(refused.code, refused.message, 422, getattr(refused, "option", None)) from None

    def check_sheet_size(self, options: dict[str, Any] | None) -> None:
        check_sheet_size(options, self.settings.sheet_max_items, self.settings.sheet_max_bytes)

    async def save_sheet(self, game_name: str, name: str, preset: str | None, options: dict[str, Any] | None
                         ) -> dict[str, Any]:
        """A new saved sheet; the answer's ``edit_token`` (given only here) is needed to change it."""
        game = get_game(game_name)
        full = self.make_sheet(game, preset, options)
        name = clean_text(name, 80, "name")
        sheet_id = secrets.token_urlsafe(12)
        edit_token = new_token()
        await queries.insert_sheet(self.engine, sheet_id, 1, game.name, name, full, hash_token(edit_token))
        return {"id": sheet_id, "version": 1, "game": game.name, "name": name, "options": full,
                "edit_token": edit_token}

    async def copy_sheet(self, sheet_id: str, version: int | None, name: str | None) -> dict[str, Any]:
        """Anyone may copy a saved sheet into a new one of their own (with its own edit token)."""
        source = await self.get_sheet(sheet_id, version)
        return await self.save_sheet(source["game"], name if name is not None else source["name"], None,
                                     source["options"])

    async def update_sheet(self, sheet_id: str, options: dict[str, Any], name: str | None,
                           edit_token: str | None) -> dict[str, Any]:
        if not is_sheet_id(sheet_id):
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        current = await queries.get_sheet(self.engine, sheet_id)
        if current is None:
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        owner = current.get("edit_hash")
        if owner is None or edit_token is None or not secrets.compare_digest(owner, hash_token(edit_token)):
            raise RoomError("not_sheet_owner", "Only whoever saved this sheet can change it (with its edit "
                            "token); you can copy it into a sheet of your own.", 403)
        game = get_game(current["game"])
        full = self.make_sheet(game, None, {**current["options"], **options})
        new_name = clean_text(name, 80, "name") if name is not None else current["name"]
        version = current["version"] + 1
        try:
            await queries.insert_sheet(self.engine, sheet_id, version, game.name, new_name, full, owner)
        except Exception:
            message = "The sheet was changed at the same time; try again."
            raise RoomError("sheet_conflict", message, 409) from None
        return {"id": sheet_id, "version": version, "game": game.name, "name": new_name, "options": full}

    async def get_sheet(self, sheet_id: str, version: int | None) -> dict[str, Any]:
        if not is_sheet_id(sheet_id):
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        row = await queries.get_sheet(self.engine, sheet_id, version)
        if row is None:
            raise RoomError("unknown_sheet", "There is no such rule sheet.", 404)
        return {"id": row["id"], "version": row["version"], "game": row["game"], "name": row["name"],
                "options": row["options"]}

    async def list_sheets(self, game: str | None) -> list[dict[str, Any]]:
        return [{"id": r["id"], "version": r["version"], "game": r["game"], "name": r["name"],
                 "options": r["options"]} for r in await queries.list_sheets(self.engine, game)]

    # -- rooms -------------------------------------------------------------------------------

    async def create_room(
        self,
        game_name: str,
        *,
        name: str,
        seats: int,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        sheet_id: str | None = None,
        sheet_version: int | None = None,
        approval: bool = False,
    ) -> dict[str, Any]:
        game = get_game(game_name)
        if sheet_id is not None:
            saved = await self.get_sheet(sheet_id, sheet_version)
            if saved["game"] != game.name:
                raise RoomError("wrong_game", "That rule sheet is for another game.", 422)
            sheet = self.make_sheet(game, None, {**saved["options"], **(options or {})})
            sheet_version = saved["version"]
        else:
            sheet = self.make_sheet(game, preset, options)
        try:
            game.sheet(sheet).check_players(seats)
        except IllegalAction as refused:
            raise RoomError("bad_seats", refused.message, 422) from None
        name = clean_text(name, NAME_MAX, "name")
        room_id = new_room_id()
        token = new_token()
        await queries.create_room(
            self.engine,
            {"id": room_id, "game": game.name, "sheet": sheet, "sheet_id": sheet_id,
             "sheet_version": sheet_version if sheet_id else None, "capacity": seats, "approval": approval,
             "status": "lobby", "version": 0, "game_no": 0, "players": 0, "deal_version": 0,
             "active_at": round(time.time(), 3)},
            {"name": name, "token_hash": hash_token(token), "status": "seated", "seat": 0, "wanted_seat": 0},
        )
        if not self.leases:
            await self.get(room_id)
        # With leases the room is loaded (and owned) where its first visitor is sent: the proxy
        # routes a room's requests by its id, which this request did not carry.
        return {"room": room_id, "invite": f"/r/{room_id}", "seat": 0, "token": token}

    async def join(self, room_id: str, name: str, seat: int | None) -> dict[str, Any]:
        while True:
            room = await self.get(room_id)
            if not room.owns():
                if room.lease_owner in (None, self.instance):
                    await self._take_released(room_id)  # nobody runs it: take it, if free
                    if room.owns():
                        continue
                # The owner seats newcomers: one place decides who gets which seat.
                return await self.hand_join(room, name, seat)
            try:
                return await room.join(name, seat)
            except RoomGone:
                continue  # it left memory meanwhile: load it again

    async def attach(self, room_id: str, sub: Subscriber, token: str | None,
                     last_version: int | None) -> Room:
        while True:
            room = await self.get(room_id)
            try:
                await room.attach(sub, token, last_version)
            except RoomGone:
                continue
            return room

    async def info(self, room_id: str) -> dict[str, Any]:
        room = await self.get(room_id)
        message = room.room_message(False)
        message.pop("type")
        return message

    async def history(self, room_id: str, token: str | None, meter: replay_index.Meter) -> tuple[str, str]:
        """The room's game record as the token's seat (or a spectator, without one) may see it; it
        covers the current game, so ``meter`` is charged the game's log entries."""
        room = await self.get(room_id)
        meter.entries += max(1, room.version - room.deal_version + 1)
        return room.history(token)

    async def record(self, room_id: str, token: str | None, meter: replay_index.Meter
                     ) -> tuple[str, dict[str, Any]]:
        """The current game's verifiable record as the token's seat (or a spectator) may see it;
        ``meter`` is charged the log entries it reads."""
        while True:
            room = await self.get(room_id)
            try:
                name, body = await room.record(token)
            except RoomGone:
                continue
            meter.entries += min(RECORD_MAX_ENTRIES, max(1, room.version - room.deal_version + 1))
            return name, body

    async def replay(self, room_id: str, game_no: int, seat: int | None, token: str | None, start: int,
                     count: int, meter: replay_index.Meter) -> dict[str, Any]:
        """Frames of a game as ``seat`` (``None``: a spectator) was shown it: a finished game whole,
        the current one up to its last finished hand (see app/rooms/replay.py). The log entries
        replayed for it are added to ``meter``."""
        room = await self.get(room_id)
        replay.check_game(game_no, room.game_no)
        in_play = game_no == room.game_no and (room.state is None or room.game.outcome(room.state) is None)
        index = await self.replays.index(room.id, game_no, room.game, room.sheet, in_play, meter)
        # In play only the parts whose shuffle keys are out are shown, so any seat's view of them.
        open_seats = in_play or index.revealed
        seat = replay.viewer_seat(room, game_no, seat, token, open_seats)
        replay.check_page(index.seats, seat, index.length, start, in_play)
        count = max(1, min(count, replay.PAGE_MAX))
        length, marks = index.length, index.shown_marks()  # as the page is drawn (the walk may go on)
        frames = await replay_index.page(self.engine, room.id, game_no, index, seat, start, count, meter)
        # Seats are renumbered at each deal: its entry names who sat where; in the current game the
        # names seated now come first, as the table shows them (a table's newcomers, a taken seat).
        names = list(index.names)
        if game_no == room.game_no:
            for seat_no, member in room.seated().items():
                names.extend([None] * (seat_no + 1 - len(names)))
                names[seat_no] = member.name
        return {"game": room.game.name, "game_no": game_no, "seat": seat, "open_seats": open_seats,
                "names": names, "players": index.players, "length": length, "start": start,
                "frames": frames, "marks": marks, "in_play": in_play}

    async def healthy(self) -> bool:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True
