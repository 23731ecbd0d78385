"""SIGKILL at any moment loses no acknowledged move: the server restarts, rebuilds every room
from snapshot + log, the clients reconnect with their last version and the games go on."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client, choose, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.support import ServerProcess

# About 40 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(40)


async def _reconnect(clients: list[Client], server: ServerProcess) -> None:
    for client in clients:
        await client.close()
        client.base = server.ws
        client.received.clear()
        await client.connect(last_version=client.version if client.version >= 0 else None)


async def test_sigkill_between_moves_then_reconnect_and_finish(backend: Backend) -> None:
    rng = random.Random(11)
    server = backend.server(HOUSERULES_SNAPSHOT_EVERY="7").start()
    try:
        room, tokens = await make_room(server.http, 3, preset="hiina-turakas")
        players, watchers = await seat_clients(server.ws, room, tokens)
        everyone = players + watchers
        assert (await players[0].host("start"))["type"] == "ack"
        for client in everyone:
            await client.wait_state(lambda s: s["view"] is not None)
        await play_moves(players, everyone, rng, limit=25)
        before = {id(c): (c.version, c.state["view"] if c.state else None) for c in everyone}
        # The last acknowledged message, to be sent again after the restart.
        mover = next(p for p in players if p.state and p.state["legal"])
        assert mover.state is not None
        action = choose(mover.state["legal"], rng)
        await mover.send({"type": "action", "id": "again-1", "action": action})
        first = await mover.reply("again-1")
        assert first["type"] == "ack"
        for client in everyone:
            await client.wait_version(first["version"])
        before = {id(c): (c.version, c.state["view"] if c.state else None) for c in everyone}
        server.kill()
        server = backend.server(HOUSERULES_SNAPSHOT_EVERY="7").start()
        await _reconnect(everyone, server)
        for client in everyone:
            version, view = before[id(client)]
            assert client.state is not None
            assert client.state["version"] == version == first["version"]
            assert client.state["view"] == view
        # The same message id again: answered with the first answer, applied once.
        await mover.send({"type": "action", "id": "again-1", "action": action})
        assert await mover.reply("again-1") == first
        assert mover.version == first["version"]
        await play_moves(players, everyone, rng)
        assert players[0].state is not None and players[0].state["outcome"] is not None
        for client in everyone:
            await client.close()
    finally:
        server.stop()


async def _burst(room: str, players: list[Client], acked: list[tuple[str, int, str, dict[str, Any]]],
                 rng: random.Random) -> None:
    """Moves as fast as the room takes them, each answered only by an ack, until the socket dies."""
    counter = 0
    while True:
        movers = [p for p in players if p.state and p.state["legal"] and p.state["outcome"] is None]
        if not movers:
            if any(p.closed.is_set() for p in players) or any(
                    p.state is not None and p.state["outcome"] is not None for p in players):
                return  # the server is gone, or this room's game is over: no move left to make
            await asyncio.sleep(0.001)
            continue
        mover = rng.choice(movers)
        assert mover.state is not None
        version = mover.state["version"]
        counter += 1
        msg_id = f"{room[:6]}-{counter}"
        action = choose(mover.state["legal"], rng)
        await mover.send({"type": "action", "id": msg_id, "version": version, "action": action})
        reply = await mover.reply(msg_id)
        if reply["type"] == "ack":
            acked.append((room, reply["version"], msg_id, action))
            await mover.wait_version(reply["version"])
        else:
            assert reply["code"] == "stale_version", reply


async def test_sigkill_in_the_middle_of_a_burst_loses_no_acknowledged_move(backend: Backend) -> None:
    rng = random.Random(5)
    server = backend.server(HOUSERULES_SNAPSHOT_EVERY="5").start()
    rooms: dict[str, list[Client]] = {}
    try:
        for players in (2, 3, 4):
            room, tokens = await make_room(server.http, players, preset="palace")
            seated, _ = await seat_clients(server.ws, room, tokens, spectators=0)
            assert (await seated[0].host("start"))["type"] == "ack"
            rooms[room] = seated
        acked: list[tuple[str, int, str, dict[str, Any]]] = []
        tasks = [asyncio.create_task(_burst(room, seated, acked, random.Random(room)))
                 for room, seated in rooms.items()]
        deadline = time.monotonic() + 15
        while len(acked) < 60 and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        server.kill()  # while every room has a move in flight
        await asyncio.gather(*tasks, return_exceptions=True)
        assert len(acked) >= 60
        engine = make_engine(backend.database_url())
        try:
            for room in rooms:
                stored = {e.version: e for e in await queries.log_since(engine, room, 0, limit=100_000)}
                for at_room, version, msg_id, action in acked:
                    if at_room == room:
                        assert version in stored, f"acknowledged version {version} of {room} is lost"
                        assert stored[version].msg_id == msg_id and stored[version].action == action
        finally:
            await engine.dispose()
        server = backend.server(HOUSERULES_SNAPSHOT_EVERY="5").start()
        for room, seated in rooms.items():
            await _reconnect(seated, server)
            top = max(v for r, v, _, _ in acked if r == room)
            assert all(c.version >= top for c in seated)
            assert len({c.version for c in seated}) == 1
            # The game goes on from where it stood (some moves; whole games are played elsewhere).
            moved = await play_moves(seated, seated, rng, limit=15)
            assert moved == 15 or (seated[0].state is not None and seated[0].state["outcome"] is not None)
            for client in seated:
                await client.close()
    finally:
        server.stop()


async def test_turn_timer_deadline_survives_a_restart(backend: Backend) -> None:
    server = backend.server().start()
    try:
        room, tokens = await make_room(server.http, 2, preset="palace", options={"turn_timer_seconds": 1})
        players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
        assert (await players[0].host("start"))["type"] == "ack"
        state = await players[0].wait_state(lambda s: s["view"] is not None)
        assert state["deadline"] is not None and state["deadline"] > time.time()
        dealt = state["version"]
        server.kill()
        for client in players:
            await client.wait_closed()
        await asyncio.sleep(max(0.0, state["deadline"] - time.time()) + 0.2)
        server = backend.server().start()
        await _reconnect(players, server)
        # Nobody moved: the game's default moves were made for the seats whose time ran out.
        after = await players[0].wait_state(lambda s: s["version"] > dealt)
        events = [e for c in players for m in c.received if m.message["type"] == "state"
                  for e in m.message["events"]]
        assert {e["seat"] for e in events if e["version"] > dealt} <= {0, 1}
        assert after["deadline"] is None or after["deadline"] > state["deadline"]
        for client in players:
            await client.close()
    finally:
        server.stop()


async def test_time_bank_delays_the_timeout_and_survives_a_restart(backend: Backend) -> None:
    server = backend.server().start()
    try:
        options = {"turn_timer_seconds": 1, "time_bank_seconds": 2}
        room, tokens = await make_room(server.http, 2, game="holdem", preset="cash-nl-1-2", options=options)
        players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
        assert (await players[0].host("start"))["type"] == "ack"
        states = [await p.wait_state(lambda s: s["view"] is not None) for p in players]
        # Heads-up: one seat acts (the button), so its deadline holds the turn timer and its bank.
        a = next(i for i, s in enumerate(states) if s["legal"])
        b = 1 - a
        state = states[a]
        assert state["banks"] == {"0": 2.0, "1": 2.0}
        assert 2.5 < state["deadline"] - time.time() <= 3.0
        dealt = state["version"]
        await asyncio.sleep(1.5)  # past the turn timer, within the bank: no timeout yet
        waiting = players[a].state
        assert waiting is not None and waiting["version"] == dealt and waiting["legal"]
        assert (await players[a].act({"type": "call"}))["type"] == "ack"
        called = await players[b].wait_state(lambda s: s["version"] > dealt and bool(s["legal"]))
        left = called["banks"][str(a)]
        assert 0.5 < left < 1.6  # about 0.5 s came from a's bank
        assert called["banks"][str(b)] == 2.0
        assert called["deadline"] > time.time() + 2.0  # b's turn: the timer and b's whole bank
        server.kill()
        for client in players:
            await client.wait_closed()
        server = backend.server().start()
        await _reconnect(players, server)
        # The banks were stored with the move: a's is what was left, b's turn ends when it did.
        again = await players[b].wait_state(lambda s: True)
        assert again["banks"][str(a)] == left
        assert again["version"] > called["version"] or again["deadline"] == called["deadline"]
        # Nobody moves: b's time runs out only once its bank is spent, and then it is empty.
        out = await players[a].wait_state(lambda s: s["banks"].get(str(b)) == 0.0)
        assert time.time() >= called["deadline"] - 0.05
        assert out["banks"][str(a)] == left
        events = [e for m in players[a].received if m.message["type"] == "state" for e in m.message["events"]]
        assert any(e["seat"] == b and e["version"] > called["version"] for e in events)
        for client in players:
            await client.close()
    finally:
        server.stop()
