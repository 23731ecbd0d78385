"""HTTP served directly to strangers: uvicorn's HTTP protocols with the bounds they lack.

uvicorn bounds what it can with its own options (``app.web.launch``: the keep-alive timeout, the
h11 parser's incomplete-event size, ``limit_concurrency``). What it has no option for is added
here, for the httptools and the h11 parser alike:

- a request must arrive whole (request line, headers, body) within ``request_timeout`` of its
  first byte (of the connection, for the first request): a client that trickles its headers
  (slowloris) gets 408 and is closed instead of holding a connection for ever;
- the request line and headers take at most ``max_header_bytes`` (431 and closed): httptools
  buffers a header of any size until it ends;
- at most ``per_address`` open connections per client address (429 and closed at once), the
  trusted proxies excepted; at most ``max_connections`` in all (503 and closed at once: the
  refusal costs no file descriptor for long).

``SingleHost`` (ASGI) refuses a request with more than one Host header (400): the Host check of
the WebSocket origin and a proxy in front might otherwise each read a different one.
"""

from __future__ import annotations

import asyncio
import http
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from app import json_codec
from app.web.guard import TransportLimits, peers

try:  # uvicorn's ``standard`` extras
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools not installed
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


def error_response(status: int, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 response with the app's error body, closing the connection."""
    body = json_codec.dumps({"code": code, "message": message}).encode()
    phrase = http.HTTPStatus(status).phrase
    return (f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


BUSY = error_response(503, "server_busy", "The server has too many open connections; try again soon.")
TOO_MANY = error_response(429, "too_many_connections",
                          "Too many open connections from your address; close some and try again.")
TIMED_OUT = error_response(408, "request_timeout", "The request did not arrive in time.")
HEADERS_TOO_LARGE = error_response(431, "headers_too_large", "The request's headers are too large.")


class Guard:
    """The bounds, mixed into an uvicorn HTTP protocol (before it in the bases)."""

    limits = TransportLimits()
    # Set by the uvicorn protocol's own __init__ and connection_made.
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    server_state: Any

    @classmethod
    def configured(cls, limits: TransportLimits) -> type[Guard]:
        return type(cls.__name__, (cls,), {"limits": limits, "__module__": cls.__module__})

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        # uvicorn's own set-up (its parser, loggers, flow control) waits for ``connection_made``: a
        # connection refused at once never needs it, and a flood of them costs the loop the least.
        self.server_state = server_state
        self.setup = (config, server_state, app_state, _loop)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.refused = False
        self.taken_up = False  # by uvicorn's protocol (not when refused at once)
        self.awaiting_headers = True
        self.boundary = False
        self.header_bytes = 0
        self.deadline: asyncio.TimerHandle | None = None
        limit = self.limits.max_connections
        refusal = None
        if limit and len(self.server_state.connections) >= limit:
            refusal = BUSY
        elif not peers(self.server_state, self.limits).admit(transport):
            refusal = TOO_MANY
        if refusal is not None:
            # Refused before uvicorn sets up, counts or describes the connection.
            self.transport = transport  # type: ignore[assignment]
            self.refuse(refusal)
            return
        self.taken_up = True
        super().__init__(*self.setup)  # type: ignore[call-arg]
        super().connection_made(transport)  # type: ignore[misc]
        self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.taken_up:
            return
        self.disarm()
        peers(self.server_state, self.limits).release(self.transport)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.deadline is None and self.awaiting_headers:
            self.arm()  # the next request on a kept-alive connection begins
        self.boundary = False
        super().data_received(data)  # type: ignore[misc]
        self.after_data()
        # Data in which a request's headers or the request ended is not counted (its body, the
        # start of the next request: at most one read's worth).
        if self.awaiting_headers and not self.boundary and not self.transport.is_closing():
            self.header_bytes += len(data)
            if self.header_bytes > self.limits.max_header_bytes:
                self.refuse(HEADERS_TOO_LARGE)

    def after_data(self) -> None:
        """Follow the parser's state after data (h11: it has no callbacks)."""

    def handle_websocket_upgrade(self, *args: Any) -> None:
        # The WebSocket protocol takes the connection over (and its count: ``FrameProtocol``
        # releases it); the socket's own limits (the hello timeout) apply from here.
        self.awaiting_headers = False
        self.disarm()
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def headers_done(self) -> None:
        self.boundary = True
        self.awaiting_headers = False
        self.header_bytes = 0

    def request_done(self) -> None:
        self.boundary = True
        self.disarm()
        self.awaiting_headers = True

    def arm(self) -> None:
        self.deadline = self.loop.call_later(self.limits.request_timeout, self.timed_out)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def timed_out(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.awaiting_headers:
            self.refuse(TIMED_OUT)
        else:  # the body stopped short: the app hears the client is gone
            self.transport.close()

    def refuse(self, response: bytes) -> None:
        self.refused = True
        self.disarm()
        self.transport.write(response)
        self.transport.close()


class GuardedH11Protocol(Guard, H11Protocol):
    def after_data(self) -> None:
        state = self.conn.their_state
        if state is h11.IDLE:
            return
        if self.awaiting_headers:
            self.headers_done()
        if state is not h11.SEND_BODY and self.deadline is not None:
            self.request_done()


if HttpToolsProtocol is not None:
    class GuardedHttpToolsProtocol(Guard, HttpToolsProtocol):
        def on_headers_complete(self) -> None:
            self.headers_done()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self.request_done()
            super().on_message_complete()


def protocol_for(parser: str) -> type[Guard]:
    """The guarded protocol of ``parser`` (``h11`` or ``httptools``)."""
    if parser == "h11" or HttpToolsProtocol is None:
        return GuardedH11Protocol
    return GuardedHttpToolsProtocol


class SingleHost:
    """ASGI: a request (or WebSocket upgrade) with more than one Host header is refused with 400."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = sum(1 for name, _ in scope["headers"] if name == b"host")
            if hosts > 1:
                await self.refuse(scope, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def refuse(scope: dict[str, Any], send: Any) -> None:
        body = json_codec.dumps({"code": "duplicate_host",
                                 "message": "The request carries more than one Host header."}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})
