"""A probe room that keeps playing while an attack runs beside it: the limits' tests show both
the refusal and that other rooms are still served. Its move latencies are measured (and printed
with ``-s``); the tests assert on behaviour (every move acknowledged, several during the attack),
never on a timing margin."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

import httpx

from tests.e2e.client import Client, choose, make_room, seat_clients

T = TypeVar("T")


@dataclass
class Probe:
    players: list[Client]
    latencies: list[float] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(5))

    @classmethod
    async def open(cls, http: str, ws: str, address: str | None = None) -> Probe:
        """A 2-player Palace room, dealt; ``address`` makes its HTTP calls come from that client
        address (through the X-Forwarded-For that a server on loopback trusts), away from an
        attack's rate limits."""
        if address is None:
            room, tokens = await make_room(http, 2, preset="palace")
        else:
            headers = {"X-Forwarded-For": address}
            async with httpx.AsyncClient(base_url=http, timeout=10, headers=headers) as client:
                made = await client.post("/api/rooms", json={"game": "palace", "name": "Probe", "seats": 2,
                                                             "preset": "palace"})
                assert made.status_code == 201, made.text
                room = made.json()["room"]
                joined = await client.post(f"/api/rooms/{room}/join", json={"name": "Probe 2"})
                assert joined.status_code == 201, joined.text
                tokens = [made.json()["token"], joined.json()["token"]]
        players, _ = await seat_clients(ws, room, tokens, spectators=0)
        assert (await players[0].host("start"))["type"] == "ack"
        for client in players:
            await client.wait_state(lambda s: s["view"] is not None)
        return cls(players)

    async def step(self) -> None:
        """One move (a ping once the game is over), waited for at both sockets."""
        started = time.perf_counter()
        movers = [p for p in self.players if p.state and p.state["legal"] and p.state["outcome"] is None]
        if not movers:
            await self.players[0].send({"type": "ping", "id": f"probe-{len(self.latencies)}"})
            await self.players[0].expect("pong")
        else:
            mover = self.rng.choice(movers)
            assert mover.state is not None
            reply = await mover.act(choose(mover.state["legal"], self.rng), version=mover.state["version"])
            assert reply["type"] == "ack", reply
            for client in self.players:
                await client.wait_version(reply["version"])
        self.latencies.append(time.perf_counter() - started)

    async def during(self, attack: Awaitable[T], least: int = 3, most: int = 20) -> T:
        """Run ``attack`` while this room keeps moving: every probe move is acknowledged (the
        client's timeout would fail the test otherwise), at least ``least`` and at most ``most``
        of them (a bounded loop, within the per-member move limit)."""
        task: asyncio.Future[T] = asyncio.ensure_future(attack)
        steps = 0
        while (not task.done() and steps < most) or steps < least:
            await self.step()
            steps += 1
        return await task

    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0

    def report(self, label: str) -> str:
        text = f"{label}: probe moves {len(self.latencies)}, p99 {self.p99() * 1000:.1f} ms"
        print(text)
        return text

    async def close(self) -> None:
        for client in self.players:
            await client.close()


__all__ = ["Probe"]
