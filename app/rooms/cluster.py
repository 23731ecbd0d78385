"""The instances sharing a database (PostgreSQL): leases, hand-over, presence, LISTEN/NOTIFY.

With PostgreSQL, one instance owns a room at a time: it holds the room's lease (``rooms.lease_*``,
held while the instance's heartbeat is, ``LEASE_SECONDS`` long and beaten every ``RENEW_SECONDS``:
app/store/leases.py) and only it commits the room's moves and runs its timers and bots. Every commit
names the lease's epoch, so a stale owner's write is refused. Another instance with sockets in the
room keeps a copy in step through LISTEN/NOTIFY and hands everything that changes the room to the
owner (``notify.hand``): its sockets' moves, host operations, chat, contributions and leaving, and
the joins it is asked for over HTTP; when the owner's heartbeat ends unrenewed (it hung or died),
such an instance takes the room over from the stored log and snapshots.

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
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.errors import RoomError, refusal_fields
from app.rooms.members import RoomGone, Subscriber
from app.rooms.room import Room
from app.store import queries
from app.store.notify import HAND_MAX_BYTES, Listener, Notifier

log = logging.getLogger(__name__)

# An instance's heartbeat not beaten for this long frees its rooms' leases for another instance
# (app/store/leases.py): failover takes at most LEASE_SECONDS + RENEW_SECONDS.
LEASE_SECONDS = 3.0
RENEW_SECONDS = 1.0
# How long a socket's handed-over message waits for the owner's answer before ``room_moving``.
HAND_WAIT_SECONDS = 3.0
# Another instance's presence in a room counts this long after its last word: a change is told at
# once, and every room's presence again each PRESENCE_REFRESH_SECONDS (three words to a lifetime, so
# a busy instance's late word never makes its players look away). Telling every room each second
# cost each instance notifications that grow with its rooms, not with what changed.
PRESENCE_SECONDS = 10.0
PRESENCE_REFRESH_SECONDS = 3.0
# The frames that answer a message handed to the owner (sent back to the socket that sent it).
REPLY_TYPES = ("ack", "error", "contributed")


def _moving(msg_id: str) -> str:
    return json.dumps({"type": "error", "id": msg_id, "code": "room_moving",
                       "message": "The room is moving to another server; try again in a moment."})


class HandedReply:
    """The owner's stand-in for a socket on another instance: the answer to its message (the ack or
    error with its id) goes back there; the room's news reaches it through that instance."""

    def __init__(self, cluster: Cluster, to: str, room_id: str, member_id: int, msg_id: str) -> None:
        self.cluster = cluster
        self.to = to
        self.room_id = room_id
        self.member_id: int | None = member_id
        self.msg_id = msg_id

    def send(self, text_out: str) -> None:
        frame = json.loads(text_out)
        if frame.get("type") in REPLY_TYPES and frame.get("id") == self.msg_id:
            assert self.member_id is not None
            self.cluster.send_reply(self.to, self.room_id, self.member_id, self.msg_id, text_out)

    def close(self, code: int, reason: str) -> None:
        pass


class Cluster:
    """This instance among those sharing the database: what rooms need of it (app/rooms/port.py's
    ``Cluster``) and the leases, hand-overs and presence it keeps. With SQLite (one instance) there
    are no leases, and nothing is told to anyone."""

    def __init__(self, engine: AsyncEngine, rooms: dict[str, Room], load: Callable[[str], Awaitable[Room]], *,
                 spawn: Callable[[Coroutine[Any, Any, Any]], None],
                 status_changed: Callable[[], None]) -> None:
        self.engine = engine
        self.rooms = rooms
        self.get = load
        self._spawn = spawn
        self._status_changed = status_changed
        self.instance = secrets.token_hex(8)
        self.listener: Listener | None = None
        if engine.dialect.name == "postgresql":
            self.listener = Listener(engine.url.render_as_string(hide_password=False), self.instance,
                                     self._remote_change, self._hand_received)
        # Leases only where several instances can share the database (PostgreSQL).
        self.leases = self.listener is not None
        # Hand-overs, answers and presence (with leases only: it connects at its first word).
        self.notifier = Notifier(engine.url.render_as_string(hide_password=False))
        self._lease_task: asyncio.Task[None] | None = None
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
        self._presence_told = asyncio.Lock()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._spawn(coro)

    def status_changed(self) -> None:
        self._status_changed()

    async def start_listening(self) -> None:
        """PostgreSQL: hear the other instances (before any room is loaded)."""
        if self.listener is not None:
            self.listener.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.listener.ready.wait(), 10)

    def listening_pid(self) -> int:
        """PostgreSQL: this instance's listening session (0 while it is down, or with SQLite)."""
        return 0 if self.listener is None else self.listener.session_pid

    async def listen(self, room_id: str) -> None:
        """PostgreSQL: hear of other instances' changes of ``room_id`` (before a copy is read)."""
        if self.listener is not None:
            await self.listener.listen(room_id)

    async def unlisten(self, room_id: str) -> None:
        """PostgreSQL: a copy of ``room_id`` left memory (or was never loaded after ``listen``)."""
        if self.listener is not None:
            await self.listener.unlisten(room_id)

    def start_leases(self) -> None:
        """PostgreSQL: renew and take leases, and tell presence, from now on."""
        if self.leases:
            self._lease_task = asyncio.get_running_loop().create_task(self._lease_loop())

    async def stop(self) -> None:
        if self._lease_task is not None:
            self._lease_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._lease_task
        if self.leases:
            # A clean stop gives the rooms up at once (a killed instance's leases run out instead).
            owned = [room_id for room_id, room in self.rooms.items() if room.epoch is not None]
            with contextlib.suppress(Exception):
                await queries.release_leases(self.engine, self.instance, owned, stopping=True)
        if self.listener is not None:
            await self.listener.stop()
        if self._sender is not None:
            self._sender.cancel()
        await self.notifier.close()

    async def take_lease(self, room_id: str) -> int | None:
        """The room's lease for this instance when nobody holds it (its epoch), else None."""
        if not self.leases:
            return None
        return (await queries.take_leases(self.engine, self.instance, [room_id], LEASE_SECONDS)).get(room_id)

    async def release(self, room_id: str) -> None:
        with contextlib.suppress(Exception):
            await queries.release_leases(self.engine, self.instance, [room_id])

    def _remote_change(self, room_id: str) -> None:
        room = self.rooms.get(room_id)
        if room is not None and not room.sync_wanted:
            room.sync_wanted = True
            self.spawn(room.sync())

    # -- one owner per room ------------------------------------------------------------------

    async def _lease_loop(self) -> None:
        told = time.monotonic()
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.tend_leases()
            except Exception:  # the lease keeper must live on whatever happens
                log.exception("renewing the room leases failed")
            self.expire_presence()
            if time.monotonic() - told >= PRESENCE_REFRESH_SECONDS:
                told = time.monotonic()
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

    async def hand_over(self, room_id: str, owner: str | None, sub: Subscriber, op: str, msg_id: str,
                        body: dict[str, Any]) -> None:
        """Hand a socket's message to the room's owner; its answer comes back to the socket."""
        assert sub.member_id is not None
        message = {"to": owner, "from": self.instance, "kind": "request", "room": room_id,
                   "member": sub.member_id, "op": op, "id": msg_id, "body": body}
        if owner is None or owner == self.instance:
            sub.send(_moving(msg_id))
            return
        if len(json.dumps(message)) > HAND_MAX_BYTES:
            sub.send(json.dumps({"type": "error", "id": msg_id, "code": "bad_message",
                                 "message": "The message is too large."}))
            return
        key = (room_id, sub.member_id, msg_id)
        self._handed[key] = (sub, op)
        try:
            await self.notifier.hand(message)
        except Exception:
            log.exception("handing a message of room %s to its owner failed", room_id)
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
            await self.notifier.hand({"to": owner, "from": self.instance, "kind": "request", "room": room.id,
                                      "member": 0, "op": "join", "id": join_id,
                                      "body": {"name": name, "seat": seat}})
            return await asyncio.wait_for(future, HAND_WAIT_SECONDS)
        except TimeoutError:
            raise RoomError("room_moving", "The room is moving to another server; try again in a "
                            "moment.", 503, retry_after=1) from None
        finally:
            self._joins.pop(join_id, None)

    async def want(self, room_id: str, owner: str | None) -> None:
        """A socket came to a room another instance owns (the proxy sends the room's sockets here
        now): ask the owner to give the room up if none of its own sockets are in it."""
        if owner is None or owner == self.instance:
            return
        with contextlib.suppress(Exception):
            await self.notifier.hand({"to": owner, "from": self.instance, "kind": "want", "room": room_id})

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
            await self.notifier.hand({"to": to, "from": self.instance, "kind": "released", "room": room_id})

    async def take_released(self, room_id: str) -> None:
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
            self.spawn(self.take_released(str(message.get("room"))))
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
                    future.set_exception(RoomError(str(error.get("code")),
                                                   str(error.get("template") or error.get("message")),
                                                   int(error.get("status") or 400),
                                                   retry_after=error.get("retry_after"),
                                                   **dict(error.get("params") or {})))
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
            kind = "hash" if body.get("kind") == "hash" else "bytes"
            await room.contribute(reply, msg_id, str(body.get("commitment")), str(body.get("value")), kind)

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
            answer["error"] = {"code": refused.code, **refusal_fields(refused.message),
                               "status": refused.status, "retry_after": refused.retry_after}
        except RoomGone:
            answer["error"] = {"code": "room_moving", "status": 503, "retry_after": 1,
                               "message": "The room is moving to another server; try again in a moment."}
        try:
            await self.notifier.hand(answer)
        except Exception:
            log.exception("answering a handed join of room %s failed", room_id)

    # -- presence ----------------------------------------------------------------------------

    def presence_changed(self, room_id: str) -> None:
        """A socket came to or left ``room`` here: tell the other instances (with leases only;
        the changes of one moment share one notification)."""
        if not self.leases:
            return
        if not self._presence_dirty:
            asyncio.get_running_loop().call_soon(self._send_dirty_presence)
        self._presence_dirty.add(room_id)

    def _send_dirty_presence(self) -> None:
        rooms = [room for room_id in self._presence_dirty if (room := self.rooms.get(room_id)) is not None]
        self._presence_dirty.clear()
        if rooms:
            self.spawn(self.send_presence(rooms))

    async def send_presence(self, rooms: Iterable[Room]) -> None:
        """Tell every other instance which members have sockets here in these rooms (an empty list:
        none any more). Several rooms share a notification while it stays under PostgreSQL's limit.

        One word at a time, who is here read once the word before is out: words sent side by side
        on two connections could commit in either order, and a word read before a socket came or
        went, landing after the word of that change, would leave the others wrong until the next
        refresh (a player who left shown connected, so never shown away)."""
        async with self._presence_told:
            await self._tell_presence(rooms)

    async def _tell_presence(self, rooms: Iterable[Room]) -> None:
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
                    await self.notifier.hand({"to": "*", "from": self.instance, "kind": "presence",
                                              "rooms": chunk})
        except Exception:
            log.exception("telling the other instances who is connected failed")

    def share_fair(self, room_id: str, shared: dict[str, Any]) -> None:
        """Tell the other instances a room's next-deal commitment (``RoomCore.share_fair``)."""
        self._tell_others({"kind": "fair", "room": room_id, "fair": shared}, f"room {room_id}'s commitment")

    def share_stand_ins(self, room_id: str, members: list[int]) -> None:
        """Tell the other instances whom the owner's bots stand in for at the host's word
        (``BotDriver.stand_in_now``), so their pages say so too."""
        self._tell_others({"kind": "stand_in", "room": room_id, "members": members},
                          f"room {room_id}'s stand-ins")

    def _tell_others(self, message: dict[str, Any], what: str) -> None:
        """Hand ``message`` to every other instance, in the background; a failure is logged."""

        async def send() -> None:
            try:
                await self.notifier.hand({"to": "*", "from": self.instance, **message})
            except Exception:
                log.exception("telling the other instances %s failed", what)

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
        statement (a socket that sent several messages gets their answers in order)."""
        self._outbox.append({"to": to, "kind": "reply", "room": room_id, "member": member_id,
                             "id": msg_id, "text": text_out})
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_replies())

    async def _send_replies(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            # Handed all at once, in order: the notifier sends them in one statement.
            sent = await asyncio.gather(*(self.notifier.hand(message) for message in batch),
                                        return_exceptions=True)
            failed = [error for error in sent if isinstance(error, Exception)]
            if failed:
                log.error("answering %d handed messages failed", len(failed), exc_info=failed[0])

    async def announce_now(self, room_id: str) -> None:
        if self.listener is not None:
            await self.notifier.rooms_changed(self.instance, [room_id])
