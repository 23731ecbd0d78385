"""How uvicorn serves the app, the same whatever launches it.

``python -m app`` passes ``uvicorn_options`` to ``uvicorn.run``; under ``uvicorn --factory
app.main:create_app`` the factory runs inside uvicorn's ``Config.load``, after it picked its
protocol classes and before it opens any connection, and ``apply_to`` sets the same options (and
protocol classes) on that config. Either way the server speaks HTTP through
``app.web.http_guard`` and WebSocket through ``app.web.frames.FrameProtocol`` with the settings'
limits, uncompressed, with the app's frame cap.
"""

from __future__ import annotations

import importlib.util
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


def parser_named(http: Any) -> str:
    """``h11`` or ``httptools`` for uvicorn's ``http`` option (a name or a protocol class)."""
    if isinstance(http, type):
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return "h11" if issubclass(http, H11Protocol) else "httptools"
    if http == "h11" or importlib.util.find_spec("httptools") is None:
        return "h11"
    return "httptools"


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


def apply_to(config: Any, settings: Settings) -> None:
    """Set the transport options on another launcher's uvicorn ``Config`` (already past choosing
    its protocol classes: those are set too)."""
    options = uvicorn_options(settings, parser_named(config.http))
    config.http_protocol_class = options.pop("http")
    config.ws_protocol_class = options.pop("ws")
    # What the start-up line names (the parser's name stays as the launcher gave it).
    config.ws = "websockets-sansio"
    for name, value in options.items():
        setattr(config, name, value)


def describe(settings: Settings) -> str:
    """The transport's limits, for the start-up line."""
    limits = TransportLimits.from_settings(settings)
    per_address = limits.per_address or "no limit"
    return (f"transport: control frames {limits.control_rate:g}/s (burst {limits.control_burst}) a socket, "
            f"unread bytes {limits.write_mark} B (abort after {limits.stall_seconds:g} s) / "
            f"{limits.write_limit} B; HTTP request {limits.request_timeout:g} s, headers "
            f"{limits.max_header_bytes} B, keep-alive {limits.keep_alive_seconds:g} s, connections "
            f"{per_address} per address (new: {limits.connect_rate:g}/s, burst {limits.connect_burst}), "
            f"{limits.max_connections or 'no limit'} in all")
