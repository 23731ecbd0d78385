"""How uvicorn serves the app.

``python -m app`` passes ``uvicorn_options`` to ``uvicorn.run``: the server speaks HTTP through
``app.web.http_guard`` and WebSocket through ``app.web.frames.FrameProtocol`` with the settings'
limits, uncompressed, with the app's frame cap. A program that embeds the app passes the same
options; ``uvicorn --factory app.main:create_app``, which would serve with uvicorn's own protocols
and options, is refused (``app.main.REFUSED_FACTORY``).
"""

from __future__ import annotations

import logging
from typing import Any

from app.config import Settings
from app.web.frames import FrameProtocol
from app.web.guard import TransportLimits
from app.web.http_guard import protocol_for

log = logging.getLogger("app")

# Seconds between the server's keep-alive pings, and to wait for the pong.
PING_INTERVAL = 20.0
PING_TIMEOUT = 20.0
# The most one read from a socket brings (asyncio's and uvloop's read size).
READ_SIZE = 256 * 1024


def uvicorn_options(settings: Settings, parser: str) -> dict[str, Any]:
    """uvicorn ``Config`` options for the transport (``parser``: ``h11`` or ``httptools``)."""
    limits = TransportLimits.from_settings(settings)
    return {
        "http": protocol_for(parser).configured(limits),
        # uvicorn's sans-I/O WebSocket protocol, which also lets the app write its frames itself
        # (``app.web.frames``) and bounds what a client makes it do and hold.
        "ws": FrameProtocol.configured(limits),
        # A move is a few hundred bytes: cap frames (uvicorn closes with 1009 above it).
        "ws_max_size": settings.ws_max_size,
        # Frames are small JSON; compression costs CPU per socket and invites compression oracles.
        "ws_per_message_deflate": False,
        "ws_ping_interval": PING_INTERVAL,
        "ws_ping_timeout": PING_TIMEOUT,
        "timeout_keep_alive": limits.keep_alive_seconds,
        # The h11 parser's own cap on a request's head, a read above the guard's (which answers
        # 431 first, as with httptools, which has no cap of its own).
        "h11_max_incomplete_event_size": limits.max_header_bytes + READ_SIZE,
        "limit_concurrency": limits.max_connections,
    }


def describe(settings: Settings) -> str:
    """The transport's limits, for the start-up line."""
    limits = TransportLimits.from_settings(settings)
    per_address = limits.per_address or "no limit"
    send_buffer = f"{limits.send_buffer} B" if limits.send_buffer else "the system's"
    return (f"transport: control frames {limits.control_rate:g}/s (burst {limits.control_burst}) a socket, "
            f"unread bytes {limits.write_mark} B (abort after {limits.stall_seconds:g} s) / "
            f"{limits.write_limit} B beyond a kernel send buffer of {send_buffer}; "
            f"HTTP request {limits.request_timeout:g} s, headers "
            f"{limits.max_header_bytes} B, keep-alive {limits.keep_alive_seconds:g} s, connections "
            f"{per_address} per address (new: {limits.connect_rate:g}/s, burst {limits.connect_burst}), "
            f"{limits.max_connections or 'no limit'} in all")
