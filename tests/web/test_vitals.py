"""The pauses every room feels at once, measured: each run of the garbage collector and the event
loop's lag, in a running server's ``/metrics``."""

from __future__ import annotations

import gc

import httpx
from prometheus_client import REGISTRY

from app import vitals
from tests.support import ServerProcess, until


def _count(text: str, name: str) -> float:
    """A histogram's observation count (summed over its labels) in a ``/metrics`` text."""
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith(name + "_count"))


def _runs(generation: str) -> float:
    return REGISTRY.get_sample_value("houserules_gc_pause_seconds_count", {"generation": generation}) or 0.0


def test_every_collection_is_timed_by_its_generation() -> None:
    vitals.time_the_collector()
    vitals.time_the_collector()  # once per process, however often it is asked
    before = _runs("2")
    counted = sum(1 for callback in gc.callbacks if callback is vitals._collector)
    gc.collect()
    assert counted == 1
    assert _runs("2") >= before + 1


async def test_a_running_server_reports_its_loop_lag_and_collector(server: ServerProcess) -> None:
    """The lag probe wakes every 0.1 s, each wake observed; the collector's histogram is there."""
    def metrics() -> str:
        return httpx.get(server.http + "/metrics").text

    first = _count(metrics(), "houserules_loop_lag_seconds")
    await until(lambda: _count(metrics(), "houserules_loop_lag_seconds") >= first + 3,
                "three more wakes of the lag probe", every=0.05)
    assert "houserules_gc_pause_seconds" in metrics()
