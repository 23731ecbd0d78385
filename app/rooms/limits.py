"""Token buckets: per client address for the HTTP calls that create things, per member for moves
and chat (so a seat's many sockets share one allowance)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field


@dataclass
class Bucket:
    """``rate`` tokens a second up to ``burst``; a call takes one."""

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
        return (1 - self.tokens) / self.rate if self.rate > 0 else math.inf

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

    def take(self, key: str) -> float:
        """0 when allowed; else the seconds to wait (see ``Bucket.take``)."""
        if self.rate <= 0:
            return 0.0  # a rate of 0 turns the limit off
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.keep:
                now = time.monotonic()
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full(now)}
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket.take()
