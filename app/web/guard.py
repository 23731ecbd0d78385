"""The transport's limits (from the settings) and the open connections counted per client address.

uvicorn makes one protocol object per connection (HTTP, then WebSocket after an upgrade); the
classes ``app.web.launch`` hands it carry these limits as a class attribute, and the count of
connections per address lives beside uvicorn's own server state (one count per server).
"""

from __future__ import annotations

import asyncio
import resource
import time
import weakref
from dataclasses import dataclass
from typing import Any

from uvicorn.middleware.proxy_headers import _TrustedHosts

from app.config import Settings
from app.rooms.limits import address_key

# Addresses whose connection rate is remembered before the ones back to a full burst are forgotten.
RATE_ENTRIES = 10_000
# File descriptors kept free for the database, the log and the files a page reads when the
# connection limit is taken from the open-file limit.
RESERVED_FILES = 128


@dataclass(frozen=True)
class TransportLimits:
    control_rate: float = 5.0
    control_burst: int = 50
    write_mark: int = 64 * 1024
    write_limit: int = 1 << 20
    stall_seconds: float = 10.0
    send_buffer: int = 64 * 1024
    request_timeout: float = 10.0
    max_header_bytes: int = 16 * 1024
    keep_alive_seconds: float = 5.0
    per_address: int = 100
    connect_rate: float = 10.0
    connect_burst: int = 60
    max_connections: int | None = None
    trusted_proxies: str = "127.0.0.1"

    @classmethod
    def from_settings(cls, settings: Settings) -> TransportLimits:
        return cls(control_rate=settings.ws_control_rate, control_burst=settings.ws_control_burst,
                   write_mark=settings.ws_write_mark,
                   write_limit=max(settings.ws_write_limit, settings.ws_write_mark),
                   stall_seconds=settings.ws_stall_seconds, send_buffer=settings.ws_send_buffer,
                   request_timeout=settings.http_request_timeout,
                   max_header_bytes=settings.http_max_header_bytes,
                   keep_alive_seconds=settings.http_keep_alive_seconds,
                   per_address=settings.max_connections_per_address,
                   connect_rate=settings.connections_per_second, connect_burst=settings.connections_burst,
                   max_connections=settings.max_connections or files_limit(),
                   trusted_proxies=settings.trusted_proxies)


def files_limit() -> int | None:
    """Connections the process can hold: its open-file limit less ``RESERVED_FILES``
    (``None`` when unlimited)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(64, soft - RESERVED_FILES)


class Peers:
    """Open connections by client address (of one server), new ones a second by address (a token
    bucket), and whether one more may open."""

    def __init__(self, limits: TransportLimits) -> None:
        self.limit = limits.per_address
        self.rate = limits.connect_rate
        self.burst = float(limits.connect_burst)
        self.trusted = _TrustedHosts(limits.trusted_proxies)
        self.open: dict[str, set[Any]] = {}
        self.key_of: dict[Any, str] = {}
        self.buckets: dict[str, tuple[float, float]] = {}

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count ``transport``; ``False`` (and not counted) when its address has too many open
        or opened too many lately."""
        if not self.limit and not self.rate:
            return True
        peer = transport.get_extra_info("peername")
        if not isinstance(peer, tuple) or not peer:
            return True  # a Unix socket: a local proxy
        host = str(peer[0])
        if host in self.trusted:
            return True
        key = address_key(host)
        if self.rate and not self.take(key):
            return False
        if not self.limit:
            return True
        held = self.open.setdefault(key, set())
        if len(held) >= self.limit:
            if not held:
                del self.open[key]
            return False
        held.add(transport)
        self.key_of[transport] = key
        return True

    def take(self, key: str) -> bool:
        now = time.monotonic()
        tokens, stamp = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        allowed = tokens >= 1
        self.buckets[key] = (tokens - 1 if allowed else tokens, now)
        if len(self.buckets) > RATE_ENTRIES:
            # Forget the addresses whose bucket is full again (as if never seen).
            self.buckets = {k: (t, s) for k, (t, s) in self.buckets.items()
                            if t + (now - s) * self.rate < self.burst}
        return allowed

    def release(self, transport: asyncio.BaseTransport) -> None:
        key = self.key_of.pop(transport, None)
        if key is None:
            return
        held = self.open.get(key)
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[key]


_PEERS: weakref.WeakKeyDictionary[Any, Peers] = weakref.WeakKeyDictionary()


def peers(server_state: Any, limits: TransportLimits) -> Peers:
    """The count of ``server_state``'s server (uvicorn's state shared by its connections)."""
    found = _PEERS.get(server_state)
    if found is None:
        found = _PEERS[server_state] = Peers(limits)
    return found
