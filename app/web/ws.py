"""The WebSocket endpoint ``/ws/{room}``: Origin check, hello, size cap, flood control, dispatch.

A room's actor never waits for a client. Served by ``python -m app`` (``app.web.frames``), a
socket's frames are gathered for the event loop's turn and written to its transport at once, and a
client that leaves too much unread is closed. Under another launcher each frame is an ASGI send:
the socket has a bounded outgoing queue drained by its own writer task, and a frame for a socket
with nothing queued is written at once instead (the ASGI send finishes without waiting unless the
client's buffer is full, and then the writer task finishes it before the queue's next).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import types
from collections.abc import Coroutine, Generator
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from app import json_codec
from app.config import Settings
from app.games.base import Sentence
from app.rooms import metrics
from app.rooms.bounds import INT_MAX, MSG_ID_PATTERN, json_problem
from app.rooms.errors import RoomError, refusal_fields
from app.rooms.fair_phase import DEAL_OPS
from app.rooms.limits import whole_seconds
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.web import frames
from app.web.client_address import client_key
from app.web.schemas import (
    CLIENT_MESSAGE,
    MESSAGE_TYPES,
    ActionMsg,
    ChatMsg,
    EntropyMsg,
    Hello,
    HostMsg,
    LeaveMsg,
    PingMsg,
)

log = logging.getLogger(__name__)
router = APIRouter()

QUEUE_LIMIT = 512
# Bytes a client may leave unread in its socket's write buffer before it is closed as too slow
# (about 500 state frames of a four-seat table).
WRITE_BUFFER_LIMIT = 1 << 20
# In the queue: the writer finishes the send that was started at once and had to wait; the writer
# stops (a send started at once failed: the socket is gone).
_RESUME = (0, "resume")
_STOP = (0, "stop")


@types.coroutine
def _finish(coro: Coroutine[Any, Any, Any], waiting: Any) -> Generator[Any, Any, None]:
    """Drive ``coro`` on, from the point where it yielded ``waiting`` to the event loop."""
    value = waiting
    while True:
        try:
            sent = yield value
        except BaseException as error:  # cancellation and the like go into the send
            try:
                value = coro.throw(error)
            except StopIteration:
                return
        else:
            try:
                value = coro.send(sent)
            except StopIteration:
                return
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_UNSUPPORTED = 1003


def origin_allowed(ws: WebSocket, settings: Settings) -> bool:
    """Browsers always send Origin on an upgrade; CORS does not cover WebSockets, so check it here.

    With a public origin set: the Host header must be its host (a page on another name that
    resolves here, DNS rebinding, is refused whatever it claims), and an Origin, when sent, must
    be the public origin or a configured one. Without one (LAN use): no Origin (not a browser),
    the page's own host, or a configured origin.
    """
    origin = ws.headers.get("origin")
    host = ws.headers.get("host")
    if settings.public_origin is not None:
        if host is None or host.lower() != (settings.public_host or "").lower():
            return False
        if origin is None:
            return True
        origin = origin.rstrip("/")
        return origin == settings.public_origin or origin in settings.allowed_origins
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in settings.allowed_origins:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class Connection:
    """One socket as a room's subscriber.

    Served by ``FrameProtocol`` (``python -m app``), its frames go through the loop's ``Outbox``,
    written straight to the transport once a turn; a client whose unsent frames pile up beyond
    ``WRITE_BUFFER_LIMIT`` is too slow and is closed. Otherwise each frame is an ASGI send.
    """

    def __init__(self, ws: WebSocket, settings: Settings) -> None:
        self.ws = ws
        offer = ws.scope.get("extensions", {}).get(frames.EXTENSION)
        self.direct: Any = offer
        self.outbox: frames.Outbox | None = offer["outbox"] if offer is not None else None
        self.member_id: int | None = None
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(QUEUE_LIMIT)
        self.closed = False
        # A send under way (the writer's, or one started at once that had to wait): frames queue.
        self.sending = False
        self.started: tuple[Coroutine[Any, Any, Any], Any] | None = None
        self.rate = settings.ws_rate
        self.burst = float(settings.ws_burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.outbox is not None:
            self.outbox.add(self, text)
            return
        if not self.sending and self.queue.empty():
            # Nothing ahead of it: write it now, sparing the writer task a wake-up.
            coro = self.ws.send_text(text)
            try:
                waiting = coro.send(None)
            except StopIteration:
                return
            except Exception:
                self.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    self.queue.put_nowait(_STOP)
                return
            self.sending = True
            self.started = (coro, waiting)
            self.queue.put_nowait(_RESUME)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            metrics.CLOSES.labels("slow").inc()
            self.close(CLOSE_POLICY, "too slow")

    def flush(self, data: bytes) -> None:
        """Write this turn's frames (``Outbox``)."""
        if self.closed:
            return
        if not self.direct["write"](data):
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(_STOP)
        elif self.direct["buffered"]() > WRITE_BUFFER_LIMIT:
            metrics.CLOSES.labels("slow").inc()
            self.close(CLOSE_POLICY, "too slow")

    def close(self, code: int, reason: str) -> None:
        if self.closed:
            return
        if self.outbox is not None:
            # Frames of this turn go out before the close frame.
            queued = self.outbox.take(self)
            if queued:
                self.direct["write"](queued)
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait((code, reason))
        if self.queue.full():
            # No room for the close marker: drop the backlog, the socket is going away.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait((code, reason))

    def allow(self) -> bool:
        """Token bucket: ``ws_rate`` messages a second with bursts up to ``ws_burst``."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                self.sending = True
                if item is _STOP:
                    return
                if item is _RESUME:
                    if self.started is not None:
                        started, self.started = self.started, None
                        await _finish(*started)
                elif isinstance(item, tuple):
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                else:
                    await self.ws.send_text(item)
                self.sending = False
        except Exception:
            self.closed = True
        finally:
            if self.started is not None:
                self.started[0].close()
                self.started = None


def _error(msg_id: Any, code: str, message: str, **extra: Any) -> str:
    metrics.REFUSED.labels(code).inc()
    # An id is echoed only when it is one (a lone surrogate, say, cannot even be written as JSON).
    echoed = msg_id if isinstance(msg_id, str) and _MSG_ID.fullmatch(msg_id) is not None else None
    return json_codec.dumps({"type": "error", "id": echoed, "code": code, **refusal_fields(message), **extra})


# Matched whole (``fullmatch``: a ``$`` in ``re`` would let a final newline through).
_MSG_ID = re.compile(MSG_ID_PATTERN.removeprefix("^").removesuffix("$"))
_ACTION_KEYS = frozenset(("type", "id", "version", "action"))


class PlainMove:
    """A well-formed move, as ``_plain_action`` found it (what ``ActionMsg`` would hold)."""

    __slots__ = ("action", "id", "version")

    def __init__(self, msg_id: str, version: int | None, action: dict[str, Any]) -> None:
        self.id, self.version, self.action = msg_id, version, action


def _plain_action(data: dict[str, Any]) -> PlainMove | None:
    """The move of a well-formed ``action`` message, checked as ``ActionMsg`` would, without its
    validator (most messages are moves); ``None`` for anything else, which the schema then judges."""
    if data.get("type") != "action" or not _ACTION_KEYS.issuperset(data):
        return None
    msg_id, version, action = data.get("id"), data.get("version"), data.get("action")
    if type(msg_id) is not str or not 1 <= len(msg_id) <= 64 or _MSG_ID.fullmatch(msg_id) is None:
        return None
    if version is not None and (type(version) is not int or not 0 <= version <= INT_MAX):
        return None
    if type(action) is not dict or json_problem(action) is not None or type(action.get("type")) is not str:
        return None
    return PlainMove(msg_id, version, action)


def parse(text: str) -> tuple[Any, str | None]:
    """The validated message, or (None, an error frame) for a bad one."""
    try:
        # NaN and Infinity are not JSON: refused here, never let through into the log.
        data = json_codec.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting too deep for a frame this small
        return None, _error(None, "bad_json", "The message is not valid JSON.")
    if not isinstance(data, dict):
        return None, _error(None, "bad_message", "A message is a JSON object with a 'type'.")
    msg_id = data.get("id")
    if data.get("type") not in MESSAGE_TYPES:
        return None, _error(msg_id, "unknown_type",
                            Sentence("Unknown message type; expected one of: {expected}.",
                                     expected=", ".join(MESSAGE_TYPES)))
    fast = _plain_action(data)
    if fast is not None:
        return fast, None
    action = data.get("action")
    if data.get("type") == "action" and isinstance(action, dict) and "type" in action \
            and not isinstance(action["type"], str):
        # The games look an action up by its type: a list or an object there is no action at all.
        return None, _error(msg_id, "bad_message", "Field 'action.type': an action's type is a text.")
    try:
        return CLIENT_MESSAGE.validate_python(data), None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        return None, _error(msg_id, "bad_message", Sentence("Field '{field}': {detail}.", field=where,
                                                             detail=str(first["msg"])))


@router.websocket("/ws/{room_id}")
async def socket(ws: WebSocket, room_id: str) -> None:
    settings: Settings = ws.app.state.settings
    rooms: RoomManager = ws.app.state.rooms
    if not origin_allowed(ws, settings):
        metrics.CLOSES.labels("origin").inc()
        await ws.close(code=CLOSE_POLICY)
        return
    await ws.accept()
    conn = Connection(ws, settings)
    writer = asyncio.create_task(conn.writer())
    metrics.SOCKETS.inc()
    room: Room | None = None
    try:
        room = await _handshake(ws, conn, rooms, room_id, settings)
        if room is not None:
            # Served in a task of its own: each of a move's wake-ups then resumes the few frames of
            # the serving loop, not also the two dozen of the ASGI app and middleware around it.
            await asyncio.ensure_future(_serve(ws, conn, room, settings))
    finally:
        metrics.SOCKETS.dec()
        if room is not None:
            with contextlib.suppress(Exception):
                await room.detach(conn)
        conn.close(1000, "bye")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
        writer.cancel()


async def _read(ws: WebSocket, conn: Connection, settings: Settings) -> str | None:
    """The next text frame; ``None`` when the socket is done (closed by the peer or by us)."""
    # A text as it came from the transport's own reader (``FrameProtocol.read``), else an ASGI message.
    message = await conn.direct["read"]() if conn.direct is not None else await ws.receive()
    if isinstance(message, str):
        text: str | None = message
    elif message["type"] == "websocket.disconnect":
        return None
    else:
        text = message.get("text")
    if text is None:
        metrics.CLOSES.labels("binary").inc()
        conn.close(CLOSE_UNSUPPORTED, "text frames only")
        return None
    if len(text) > settings.ws_max_size or len(text.encode("utf-8", "surrogatepass")) > settings.ws_max_size:
        metrics.CLOSES.labels("too_big").inc()
        conn.close(CLOSE_TOO_BIG, "frame too big")
        return None
    if not conn.allow():
        metrics.CLOSES.labels("flood").inc()
        conn.close(CLOSE_POLICY, "too many messages")
        return None
    return str(text)


async def _handshake(ws: WebSocket, conn: Connection, rooms: RoomManager, room_id: str,
                     settings: Settings) -> Room | None:
    try:
        text = await asyncio.wait_for(_read(ws, conn, settings), settings.hello_timeout)
    except TimeoutError:
        conn.close(CLOSE_POLICY, "no hello")
        return None
    if text is None:
        return None
    message, error = parse(text)
    if message is None or not isinstance(message, Hello):
        conn.send(error or _error(getattr(message, "id", None), "hello_first", "Say hello first."))
        conn.close(CLOSE_POLICY, "hello first")
        return None
    # Each hello attaches a socket to a room (presence, catch-up): an address may say only so many a
    # second, spectators and players alike.
    wait = ws.app.state.limits["hellos"].take(client_key(ws))
    if wait > 0:
        seconds = whole_seconds(wait)
        conn.send(_error(None, "rate_limited", Sentence(
            "Too many connections from your address; try again in {seconds} second." if seconds == 1
            else "Too many connections from your address; try again in {seconds} seconds.", seconds=seconds),
            retry_after=seconds))
        metrics.CLOSES.labels("hello_rate").inc()
        conn.close(CLOSE_POLICY, "rate_limited")
        return None
    try:
        room = await rooms.attach(room_id, conn, message.token, message.last_version)
    except RoomError as refused:
        conn.send(_error(None, refused.code, refused.message))
        conn.close(CLOSE_POLICY, refused.code)
        return None
    return room


async def _serve(ws: WebSocket, conn: Connection, room: Room, settings: Settings) -> None:
    while not conn.closed:
        text = await _read(ws, conn, settings)
        if text is None:
            return
        message, error = parse(text)
        if error is not None:
            conn.send(error)
        elif isinstance(message, (PlainMove, ActionMsg)):
            await room.act(conn, message.id, message.action, message.version)
        elif isinstance(message, ChatMsg):
            await room.say(conn, message.id, message.text)
        elif isinstance(message, HostMsg):
            args = message.model_dump(exclude={"type", "id", "op"}, exclude_none=True)
            if message.op in DEAL_OPS:
                # A deal first waits for the seats' hashes and bytes (app/rooms/fair_phase.py),
                # this socket's own among them: its messages are read on meanwhile.
                room.spawn(room.host(conn, message.id, message.op, args))
            else:
                await room.host(conn, message.id, message.op, args)
        elif isinstance(message, LeaveMsg):
            await room.leave(conn, message.id)
        elif isinstance(message, EntropyMsg):
            if (message.hash is None) == (message.bytes is None):
                conn.send(_error(message.id, "bad_message", "An entropy message has 'hash' or 'bytes'."))
            elif message.hash is not None:
                await room.contribute(conn, message.id, message.commitment, message.hash, "hash")
            else:
                await room.contribute(conn, message.id, message.commitment, str(message.bytes), "bytes")
        elif isinstance(message, PingMsg):
            conn.send(json_codec.dumps({"type": "pong", "id": message.id}))
        elif isinstance(message, Hello):
            conn.send(_error(None, "already_hello", "This connection has already said hello."))
