"""An HTTP body cap as plain ASGI middleware: a request body over ``max_bytes`` is answered 413
before the app sees it. A moderately large body is read and dropped first, so the client gets to
read the 413 (closing on unread data resets the connection); a huge one is not read at all: the
413 goes out and the connection closes."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Bodies up to this many times the cap are read and dropped before the 413.
DRAIN_FACTOR = 16
TOO_LARGE = {"code": "body_too_large", "message": "The request body is too large."}


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.max_bytes
            except ValueError:
                too_big = True
            if too_big:
                await _refuse(receive, send, self.max_bytes * DRAIN_FACTOR)
                return
        # Read the (small) body up front, counting: a chunked upload cannot declare its size.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                if message.get("more_body", False):
                    await _refuse(receive, send, self.max_bytes * DRAIN_FACTOR - size)
                else:
                    await _refuse(None, send, 0)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(receive: Receive | None, send: Send, drain: int) -> None:
    drained = receive is None
    while receive is not None and drain > 0:
        message = await receive()
        if message["type"] != "http.request":
            break
        drain -= len(message.get("body", b""))
        if not message.get("more_body", False):
            drained = drain >= 0
            break
    payload: Any = json.dumps(TOO_LARGE).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if not drained:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
