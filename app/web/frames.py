"""Frames written straight to a socket's transport, gathered per event-loop turn.

A move sends an ack and a state to its player and a state to every other socket of the room; in
the ASGI path each of those frames is a trip through Starlette and uvicorn and a ``write`` system
call of its own. ``python -m app`` serves WebSockets with ``FrameProtocol``, uvicorn's sans-I/O
WebSocket protocol that also offers the app (in the ASGI scope's ``extensions``, the place ASGI
gives servers for such offers) a way to write frames the app encoded itself. ``Outbox`` gathers a
socket's frames until the event loop's turn ends and writes them with one call: a player's ack and
state go out together, and a frame shared by many sockets (all spectators' state) is encoded once.

Another launcher (``uvicorn --factory app.main:create_app``) makes no such offer, and the app then
sends each frame through ASGI as before. Frames here are never compressed: the offer is made only
on a connection that negotiated no extension (the app turns per-message deflate off).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from app.rooms import metrics

log = logging.getLogger(__name__)

EXTENSION = "houserules.frames"


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, offering the app ``write`` (encoded frames, one
    call) and ``buffered`` (bytes the transport still holds for a slow client)."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        # Accepted upgrades only (a refused one has no scope), and only without extensions: the
        # app's frames are plain, unmasked, uncompressed text frames.
        if scope is not None and not self.conn.extensions:
            scope["extensions"][EXTENSION] = {"write": self.write_frames, "buffered": self.buffered,
                                              "outbox": outbox(self.loop)}

    def write_frames(self, data: bytes) -> bool:
        """Write encoded frames; ``False`` when the socket takes no more (closing or closed)."""
        if (self.close_sent or self.disconnected or self.conn.state is not State.OPEN
                or self.transport.is_closing()):
            return False
        self.transport.write(data)
        return True

    def buffered(self) -> int:
        return int(self.transport.get_write_buffer_size())


def encode(text: str) -> bytes:
    """One server-to-client text frame (unmasked, as RFC 6455 has servers send them)."""
    return bytes(Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[]))


class Outbox:
    """The frames of this event-loop turn, by socket; written once the turn's callbacks have run.

    A text sent to several sockets in one turn (the same ``str`` object) is encoded once.
    """

    def __init__(self) -> None:
        self.pending: dict[Any, list[bytes]] = {}
        self.encoded: dict[int, tuple[str, bytes]] = {}
        self.scheduled = False

    def add(self, sink: Any, text: str) -> None:
        """Queue ``text`` for ``sink`` (an object with ``flush(data)``)."""
        known = self.encoded.get(id(text))
        if known is None or known[0] is not text:
            known = self.encoded[id(text)] = (text, encode(text))
        frames = self.pending.get(sink)
        if frames is None:
            self.pending[sink] = [known[1]]
            if not self.scheduled:
                self.scheduled = True
                asyncio.get_running_loop().call_soon(self.flush)
        else:
            frames.append(known[1])

    def take(self, sink: Any) -> bytes:
        """What is queued for ``sink``, taken out (its close must not overtake its frames)."""
        frames = self.pending.pop(sink, None)
        return b"".join(frames) if frames else b""

    def flush(self) -> None:
        pending, self.pending = self.pending, {}
        self.encoded.clear()
        self.scheduled = False
        count = 0
        for sink, frames in pending.items():
            count += len(frames)
            try:
                sink.flush(frames[0] if len(frames) == 1 else b"".join(frames))
            except Exception:  # one socket's failure never keeps the others' frames back
                log.exception("could not write to a socket")
        metrics.FRAMES.inc(count)
        metrics.FRAME_WRITES.inc(len(pending))


_OUTBOXES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = weakref.WeakKeyDictionary()


def outbox(loop: asyncio.AbstractEventLoop) -> Outbox:
    """The outbox of ``loop`` (one per event loop: its flush runs there)."""
    found = _OUTBOXES.get(loop)
    if found is None:
        found = _OUTBOXES[loop] = Outbox()
    return found
