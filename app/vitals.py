"""The process's own pauses, as metrics: how long each run of the cyclic garbage collector held the
interpreter (by generation) and how late the event loop came back to a timer. Both stall every room
at once, so they are measured where a move's latency is (``bench/load.py`` prints them)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator
from typing import Any

from prometheus_client import Histogram

PAUSE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
GC_PAUSE = Histogram("houserules_gc_pause_seconds", "Each run of the cyclic garbage collector",
                     ["generation"], buckets=PAUSE_BUCKETS)
LOOP_LAG = Histogram("houserules_loop_lag_seconds",
                     "How much later than asked the event loop woke a timer (every LAG_PROBE_SECONDS)",
                     buckets=PAUSE_BUCKETS)
# The lag probe's period: often enough to see a stall of a few tens of milliseconds, seldom enough
# to cost nothing (ten timers a second).
LAG_PROBE_SECONDS = 0.1

_started: list[float] = []
_installed = False


def _collector(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started.append(time.perf_counter())
    elif _started:
        GC_PAUSE.labels(str(info.get("generation", "?"))).observe(time.perf_counter() - _started.pop())


def time_the_collector() -> None:
    """Time every collection from now on (once per process)."""
    global _installed
    if not _installed:
        _installed = True
        gc.callbacks.append(_collector)


async def _probe_lag() -> None:
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + LAG_PROBE_SECONDS
        await asyncio.sleep(LAG_PROBE_SECONDS)
        LOOP_LAG.observe(max(0.0, loop.time() - asked))


@contextlib.asynccontextmanager
async def watching() -> AsyncIterator[None]:
    """While the app serves: the collector timed and the loop's lag probed."""
    time_the_collector()
    probe = asyncio.get_running_loop().create_task(_probe_lag())
    try:
        yield
    finally:
        probe.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await probe
