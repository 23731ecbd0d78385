"""A strong bot thinks in a worker process: no other room, and no other player, waits on it.

A real server (the app under uvicorn, in this test's process so the test can reach the bots'
worker pool) on a free port, real sockets. The worker is first kept busy by a job that waits for
the test's word, so room A's strong bot's decision is certainly still pending; meanwhile room B's
player moves and is acknowledged, and room B's own bot moves. Only then is the worker let go, and
room A's bot moves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from app.config import Settings
from app.main import create_app
from app.rooms.bots import worker_pool
from tests.e2e.client import TIMEOUT, Client
from tests.support import free_port


def hold(started: Any, release: Any) -> bool:
    """Runs in the worker: says it started, then waits for the test's word."""
    started.set()
    return bool(release.wait(120))


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Any]]:
    port = free_port()
    settings = Settings(data_dir=tmp_path / "data", bot_delay_min=0, bot_delay_max=0,
                        ws_rate=10000, ws_burst=10000)
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        await task


async def practice(address: str, level: str) -> tuple[Client, str]:
    """A 2-seat Palace room: the host connected, and a bot of ``level`` in seat 1 (the game starts)."""
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "palace", "name": "Kati", "seats": 2,
                                                   "preset": "hiina-turakas"})
    assert made.status_code == 201, made.text
    room, token = made.json()["room"], made.json()["token"]
    host = Client(f"ws://{address}", room, token, "Kati")
    await host.connect()
    answer = await host.host("add_bot", seat=1, level=level)
    assert answer["type"] == "ack", answer
    return host, room


def bot_moved(client: Client) -> bool:
    return any(event.get("bot") for r in client.received if r.message["type"] == "state"
               for event in r.message.get("events", []))


async def test_a_strong_bot_thinking_delays_no_other_room(served: tuple[str, Any]) -> None:
    address, app = served
    with multiprocessing.Manager() as manager:
        started, release = manager.Event(), manager.Event()
        busy = worker_pool().submit(hold, started, release)
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 60)
        try:
            host_a, room_a = await practice(address, "strong")
            driver = (await app.state.rooms.get(room_a)).bots
            while driver.thinking is None:  # the bot has asked the worker and waits for it
                await asyncio.sleep(0.005)
            host_b, _ = await practice(address, "good")
            # Room B's good bot makes its swap-phase moves at once (it is ready); then its player is.
            await host_b.wait_state(lambda s: bool(s["view"]["players"][1]["ready"]))
            reply = await host_b.act({"type": "ready"}, version=host_b.version)
            assert reply["type"] == "ack", reply
            # Room B moved on, its bot too, while room A's strong bot still waits for its answer.
            assert driver.thinking is not None and not bot_moved(host_a)
        finally:
            release.set()
        assert busy.result(timeout=60)
        await host_a.wait_state(lambda s: bot_moved(host_a))
        await host_a.close()
        await host_b.close()
