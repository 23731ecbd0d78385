"""Token buckets: per client address for the HTTP calls that create things, per member for moves
and chat (so a seat's many sockets share one allowance); and the key a client address is counted
under (an IPv6 client by its /64: one host is given a whole /64 and may use any address in it)."""

from __future__ import annotations

import functools
import ipaddress
import math
import time
from dataclasses import dataclass, field


# Parsing an address costs more than the rest of a connection's refusal: a flood of new connections
# from a few addresses asks for the same keys again and again.
@functools.lru_cache(maxsize=16_384)
def address_key(host: str | None) -> str:
    """The bucket key of a client address: an IPv4 address itself, an IPv6 address its /64 prefix
    (an IPv4-mapped IPv6 address is its IPv4 address); anything else (a Unix socket, a test
    client's name) as it is."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def whole_seconds(wait: float) -> int:
    """A wait as said to a client (Retry-After, an error's text): whole seconds, rounded up, at
    least 1, so a client never hears "wait 0 seconds" and comes back too early."""
    return max(1, math.ceil(wait)) if math.isfinite(wait) else 3600


@dataclass
class Bucket:
    """``rate`` tokens a second up to ``burst``; a call takes one (or its ``cost``)."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float | None = None) -> float:
        """0 when a token was taken; else the seconds until one is there (nothing taken)."""
        self._refill(time.monotonic() if now is None else now)
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return self.wait()

    def wait(self) -> float:
        """The seconds until a token is there (0: one is)."""
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else math.inf

    def charge(self, cost: float, now: float | None = None) -> None:
        """Takes ``cost`` tokens, into debt if need be: a cost known only once the work is done
        (log entries walked) is paid after it, and the debt is waited off before the next call."""
        self._refill(time.monotonic() if now is None else now)
        self.tokens -= cost

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


class Buckets:
    """One bucket per key (e.g. a client address), created full; full ones are forgotten when
    there are many, so memory stays bounded by the callers active lately."""

    def __init__(self, per_minute: float, burst: float | None = None, keep: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1.0, per_minute))
        self.keep = keep
        self.buckets: dict[str, Bucket] = {}

    def _bucket(self, key: str) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.keep:
                now = time.monotonic()
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full(now)}
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket

    def take(self, key: str) -> float:
        """0 when allowed; else the seconds to wait (see ``Bucket.take``)."""
        if self.rate <= 0:
            return 0.0  # a rate of 0 turns the limit off
        return self._bucket(key).take()

    def admit(self, key: str) -> float:
        """0 when the key's budget is not in debt (the call may go ahead and ``charge`` its cost
        after); else the seconds until it is paid off. Takes nothing."""
        if self.rate <= 0:
            return 0.0
        bucket = self._bucket(key)
        bucket._refill(time.monotonic())
        return bucket.wait()

    def charge(self, key: str, cost: float) -> None:
        """Takes the cost of a call just made (see ``Bucket.charge``)."""
        if self.rate > 0 and cost > 0:
            self._bucket(key).charge(cost)
