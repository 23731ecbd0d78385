"""Frames written straight to a socket's transport, gathered per event-loop turn.

A move sends an ack and a state to its player and a state to every other socket of the room; in
the ASGI path each of those frames is a trip through Starlette and uvicorn and a ``write`` system
call of its own. ``python -m app`` serves WebSockets with ``FrameProtocol``, uvicorn's sans-I/O
WebSocket protocol that also offers the app (in the ASGI scope's ``extensions``, the place ASGI
gives servers for such offers) a way to write frames the app encoded itself. ``Outbox`` gathers a
socket's frames until the event loop's turn ends and writes them with one call: a player's ack and
state go out together, and a frame shared by many sockets (all spectators' state) is encoded once.
A crowd's sockets (a hundred spectators sharing one state) are written a chunk a turn, after every
other socket, so that one room's fan-out never keeps the loop from other rooms' moves. The same
offer has ``read``: the app takes each text message as the parser found it, without uvicorn's
queue of ASGI messages, and the socket's reading pauses only while ``INBOX_LIMIT`` messages wait
unread (uvicorn pauses and resumes it around every message).

Every launcher serves WebSockets with ``FrameProtocol`` (``app.web.launch``); on a server that
does not (a test's plain uvicorn), the app sends each frame through ASGI as before. Frames here
are never compressed: the offer is made only on a connection that negotiated no extension (the
app turns per-message deflate off).

``FrameProtocol`` also bounds what one client can make the server do or hold, whatever the app
reads: frames that carry no message (pings, pongs, empty frames, fragments) are counted per
socket and close it (1008) past ``TransportLimits.control_*``; while the bytes held for a client
are over the write mark its reading is paused (a client that does not read makes no more pongs),
and a socket over the mark for ``stall_seconds``, or over the write limit, or closed with bytes
its client never takes, is aborted: its transport released at once, the app told it is gone (the
room frees its slot), ``houserules_socket_aborts_total{reason}`` counts it. The kernel's send
buffer of each socket is capped (``TransportLimits.send_buffer``) so that what a client leaves
unread reaches the write buffer, and its mark, after kilobytes rather than megabytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import weakref
from collections import deque
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import ProtocolError
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.rooms import metrics
from app.web.guard import TransportLimits, peers

log = logging.getLogger(__name__)

EXTENSION = "houserules.frames"


CLOSE_POLICY = 1008
_MESSAGE_OPCODES = (Opcode.TEXT, Opcode.BINARY)
# Whole messages a client may still send once the server's close frame is out.
AFTER_CLOSE_MESSAGES = 1_000
# Messages parsed for the app's own reader (``FrameProtocol.read``) and not yet read, past which the
# socket's reading pauses until the app has read them (uvicorn's ASGI queue pauses after each one).
INBOX_LIMIT = 4


class TooManyControlFrames(ProtocolError):
    pass


class CountingServerProtocol(ServerProtocol):
    """websockets' sans-I/O server protocol that counts the frames carrying no message of their
    own in a token bucket and fails the connection (1008) past it, before it answers the frame
    (a ping's pong) and before it parses the rest of what arrived."""

    def setup_budget(self, rate: float, burst: int, clock: Any) -> None:
        self.control_rate = rate
        self.control_burst = float(burst)
        self.control_tokens = float(burst)
        self.control_clock = clock
        self.control_stamp = clock()
        self.over_budget = False
        self.after_close = 0

    def recv_frame(self, frame: Frame) -> None:
        # A whole non-empty text or binary message in one frame is the app's to count (its
        # message rate); everything else here costs a parse (and a ping a pong) without it.
        message = frame.opcode in _MESSAGE_OPCODES and frame.fin and bool(frame.data)
        if message and self.state is not State.OPEN:
            # Messages the client sent before it read our close frame are normal (RFC 6455 §5.5.1)
            # and cost only a parse: a generous count of them, so an honest client that was
            # flooding when it was closed still reads its close code (failing here would reset the
            # connection with its frames unread, and the client would see 1006).
            self.after_close += 1
            if self.after_close > AFTER_CLOSE_MESSAGES:
                self.over_budget = True
                self.fail(CLOSE_POLICY, "too many messages after the close")
                raise TooManyControlFrames("too many messages after the close")
        elif not message:
            now = self.control_clock()
            self.control_tokens = min(self.control_burst,
                                      self.control_tokens + (now - self.control_stamp) * self.control_rate)
            self.control_stamp = now
            if self.control_tokens < 1:
                self.over_budget = True
                self.fail(CLOSE_POLICY, "too many control frames")
                # Stops the parser here: what else arrived is discarded unread.
                raise TooManyControlFrames("too many control frames")
            self.control_tokens -= 1
        super().recv_frame(frame)


class _Transport:
    """The socket's transport as uvicorn's protocol code sees it: a ``close`` also starts the
    clock after which a client that leaves the last bytes unread is aborted (asyncio's ``close``
    waits for the buffer to drain, for ever if the client never reads). Everything else is the
    transport's own; the app's frames bypass this (``FrameProtocol.write_frames``)."""

    __slots__ = ("on_close", "raw")

    def __init__(self, raw: asyncio.Transport, on_close: Any) -> None:
        self.raw = raw
        self.on_close = on_close

    def close(self) -> None:
        self.raw.close()
        self.on_close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class _AppQueue(asyncio.Queue[Any]):
    """uvicorn's queue of ASGI messages for the app; once the app reads through
    ``FrameProtocol.read``, what uvicorn puts here (a disconnect, a binary message) goes to that
    reader's inbox instead, in order with the text messages."""

    def __init__(self, protocol: FrameProtocol) -> None:
        super().__init__()
        self.protocol = protocol

    def put_nowait(self, item: Any) -> None:
        if self.protocol.reads_direct:
            self.protocol.deliver(item)
        else:
            super().put_nowait(item)


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, offering the app ``write`` (encoded frames, one
    call), ``buffered`` (bytes the transport still holds for a slow client) and ``read`` (the next
    message, a text as it came), and bounding what a client makes the server do and hold (module
    docstring). ``configured(limits)`` is the class uvicorn is given."""

    limits = TransportLimits()

    @classmethod
    def configured(cls, limits: TransportLimits) -> type[FrameProtocol]:
        return type(cls.__name__, (cls,), {"limits": limits, "__module__": cls.__module__})

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.server_state = server_state
        plain = self.conn
        self.conn: CountingServerProtocol = CountingServerProtocol(
            extensions=plain.available_extensions, max_size=config.ws_max_size, logger=plain.logger)
        self.conn.setup_budget(self.limits.control_rate, self.limits.control_burst, self.loop.time)
        self.raw: asyncio.Transport = None  # type: ignore[assignment]
        self.write_paused = False
        self.aborted = False
        self.stall_timer: asyncio.TimerHandle | None = None
        self.linger_timer: asyncio.TimerHandle | None = None
        # The app's own reader (``read``): from its first read on, texts come straight from the
        # parser and everything else uvicorn queues comes after them, in order, in ``inbox``.
        self.queue = _AppQueue(self)
        self.reads_direct = False
        self.inbox: deque[str | dict[str, Any]] = deque()
        self.reader: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.raw = self.transport
        self.transport = _Transport(self.raw, self.closing)  # type: ignore[assignment]
        low = max(1024, self.limits.write_mark // 4)
        self.raw.set_write_buffer_limits(high=self.limits.write_mark, low=low)
        cap_send_buffer(self.raw, self.limits.send_buffer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timers()
        peers(self.server_state, self.limits).release(self.raw)
        super().connection_lost(exc)

    # Reading paused while the client leaves too much unread.

    def pause_writing(self) -> None:
        super().pause_writing()
        self.write_paused = True
        self.raw.pause_reading()
        if self.stall_timer is None:
            self.stall_timer = self.loop.call_later(self.limits.stall_seconds, self.abort, "stalled")

    def resume_writing(self) -> None:
        super().resume_writing()
        self.write_paused = False
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None
        if not self.read_paused and not self.raw.is_closing():
            self.raw.resume_reading()

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.read_paused and self.queue.empty():
            self.read_paused = False
            if not self.write_paused:
                self.raw.resume_reading()
        return message

    # The app's own reader: a text message is handed over as it came, without an ASGI message
    # around it, the ASGI queue, or pausing and resuming the socket's reading for each message.

    async def read(self) -> str | dict[str, Any]:
        """The next text, or an ASGI message (``websocket.disconnect``, a binary
        ``websocket.receive``)."""
        if not self.reads_direct:
            self.reads_direct = True
            queue = self.queue
            while not queue.empty():  # what uvicorn queued before the first read goes first
                self.inbox.append(cast(dict[str, Any], queue.get_nowait()))
        inbox = self.inbox
        while not inbox:
            self.reader = self.loop.create_future()
            try:
                await self.reader
            finally:
                self.reader = None
        item = inbox.popleft()
        if self.read_paused and len(inbox) < INBOX_LIMIT:
            self.read_paused = False
            if not self.write_paused and not self.raw.is_closing():
                self.raw.resume_reading()
        return item

    def deliver(self, item: str | dict[str, Any]) -> None:
        """A message for the app's reader; reading pauses while ``INBOX_LIMIT`` wait unread."""
        self.inbox.append(item)
        reader = self.reader
        if reader is not None and not reader.done():
            reader.set_result(None)
        if len(self.inbox) >= INBOX_LIMIT and not self.read_paused and not self.raw.is_closing():
            self.read_paused = True
            self.raw.pause_reading()

    def send_receive_event_to_app(self) -> None:
        if not self.reads_direct or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        try:
            text = data.decode()
        except UnicodeDecodeError:
            # As uvicorn does: the message is not UTF-8, the connection fails (1007).
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        self.deliver(text)

    def abort(self, reason: str) -> None:
        """Release the transport now (unsent bytes dropped); the app hears the socket is gone
        (``connection_lost``, on the loop's next turn)."""
        self.stop_timers()
        if self.disconnected or self.aborted:
            return
        self.aborted = True
        metrics.ABORTS.labels(reason).inc()
        self.raw.abort()

    def stop_timers(self) -> None:
        for timer in (self.stall_timer, self.linger_timer):
            if timer is not None:
                timer.cancel()
        self.stall_timer = self.linger_timer = None

    def closing(self) -> None:
        """The transport was asked to close: a client that leaves its last bytes unread for
        ``stall_seconds`` is aborted."""
        if (self.linger_timer is None and not self.disconnected and not self.aborted
                and self.raw.get_write_buffer_size()):
            self.linger_timer = self.loop.call_later(self.limits.stall_seconds, self.abort, "unread")

    def handle_parser_exception(self) -> None:
        if self.conn.over_budget:
            metrics.CLOSES.labels("control").inc()
        super().handle_parser_exception()
        if self.write_paused:  # the client does not read: it will not take the close frame either
            self.abort("unread")

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        # Accepted upgrades only (a refused one has no scope), and only without extensions: the
        # app's frames are plain, unmasked, uncompressed text frames.
        if scope is not None and not self.conn.extensions:
            scope["extensions"][EXTENSION] = {"write": self.write_frames, "buffered": self.buffered,
                                              "read": self.read, "outbox": outbox(self.loop)}

    def write_frames(self, data: bytes) -> bool:
        """Write encoded frames; ``False`` when the socket takes no more (closing, closed, or
        aborted now for holding more than the write limit unread)."""
        raw = self.raw
        if self.close_sent or self.disconnected or self.conn.state is not State.OPEN or raw.is_closing():
            return False
        raw.write(data)
        if self.write_paused and raw.get_write_buffer_size() > self.limits.write_limit:
            self.abort("slow")
            return False
        return True

    def buffered(self) -> int:
        return int(self.raw.get_write_buffer_size())


def cap_send_buffer(transport: asyncio.BaseTransport, size: int) -> None:
    """Cap the kernel's send buffer of ``transport``'s socket at ``size`` bytes (0: leave it): what
    a client leaves unread then piles up in the transport's buffer, where the write mark sees it."""
    sock = transport.get_extra_info("socket")
    if not size or sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def encode(text: str) -> bytes:
    """One server-to-client text frame (unmasked, as RFC 6455 has servers send them)."""
    return bytes(Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[]))


# A text sent to at least this many sockets in one turn is a crowd's (a room's spectators sharing
# one state): the sockets that get nothing else that turn are written a chunk at a time.
CROWD = 16
# Crowd sockets written in one loop turn: between two chunks the loop reads what arrived (moves,
# the database's answers), so a room's fan-out to a hundred watchers never holds other rooms up.
CROWD_CHUNK = 128


class _Encoded:
    """A text's frame, encoded once a turn, and how many sockets it was queued for."""

    __slots__ = ("frame", "text", "uses")

    def __init__(self, text: str, frame: bytes) -> None:
        self.text = text
        self.frame = frame
        self.uses = 0


class Outbox:
    """The frames of this event-loop turn, by socket; written once the turn's callbacks have run.

    A text sent to several sockets in one turn (the same ``str`` object) is encoded once. A socket
    whose frames this turn were all sent to a crowd (``CROWD`` sockets or more) is written later,
    ``CROWD_CHUNK`` sockets a turn in the order they were queued; any other socket at the turn's end
    (with its crowd frames still waiting, ahead of the new ones).
    """

    def __init__(self, crowd: int = CROWD, chunk: int = CROWD_CHUNK) -> None:
        self.crowd = crowd
        self.chunk = chunk
        self.pending: dict[Any, list[_Encoded]] = {}
        self.encoded: dict[int, _Encoded] = {}
        self.scheduled = False
        # Crowd frames waiting for their chunk, by socket, in the order they were queued.
        self.later: dict[Any, list[bytes]] = {}
        self.draining = False

    def add(self, sink: Any, text: str) -> None:
        """Queue ``text`` for ``sink`` (an object with ``flush(data)``)."""
        known = self.encoded.get(id(text))
        if known is None or known.text is not text:
            known = self.encoded[id(text)] = _Encoded(text, encode(text))
        known.uses += 1
        frames = self.pending.get(sink)
        if frames is None:
            self.pending[sink] = [known]
            if not self.scheduled:
                self.scheduled = True
                asyncio.get_running_loop().call_soon(self.flush)
        else:
            frames.append(known)

    def take(self, sink: Any) -> bytes:
        """What is queued for ``sink``, taken out (its close must not overtake its frames)."""
        earlier = self.later.pop(sink, [])
        frames = self.pending.pop(sink, None) or []
        return b"".join([*earlier, *(known.frame for known in frames)])

    def flush(self) -> None:
        pending, self.pending = self.pending, {}
        self.encoded = {}
        self.scheduled = False
        count = writes = 0
        crowd = self.crowd
        for sink, frames in pending.items():
            if all(known.uses >= crowd for known in frames):
                self.later.setdefault(sink, []).extend(known.frame for known in frames)
                continue
            data = self.later.pop(sink, [])
            data.extend(known.frame for known in frames)
            count += len(data)
            writes += 1
            _write(sink, data)
        metrics.FRAMES.inc(count)
        metrics.FRAME_WRITES.inc(writes)
        if self.later and not self.draining:
            self.draining = True
            asyncio.get_running_loop().call_soon(self.drain)

    def drain(self) -> None:
        """Write the next chunk of crowd sockets; the rest in a later turn."""
        count = writes = 0
        later = self.later
        for sink in list(itertools.islice(later, self.chunk)):
            data = later.pop(sink)
            count += len(data)
            writes += 1
            _write(sink, data)
        metrics.FRAMES.inc(count)
        metrics.FRAME_WRITES.inc(writes)
        if later:
            asyncio.get_running_loop().call_soon(self.drain)
        else:
            self.draining = False


def _write(sink: Any, data: list[bytes]) -> None:
    try:
        sink.flush(data[0] if len(data) == 1 else b"".join(data))
    except Exception:  # one socket's failure never keeps the others' frames back
        log.exception("could not write to a socket")


_OUTBOXES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = weakref.WeakKeyDictionary()


def outbox(loop: asyncio.AbstractEventLoop) -> Outbox:
    """The outbox of ``loop`` (one per event loop: its flush runs there)."""
    found = _OUTBOXES.get(loop)
    if found is None:
        found = _OUTBOXES[loop] = Outbox()
    return found
