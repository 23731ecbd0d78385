"""Memory that does not grow with history: idle rooms leave memory and come back mid-game, start-up
does not load stored rooms, and abandoned lobbies and finished rooms expire with their logs."""

from __future__ import annotations

import random
import time
from pathlib import Path

import httpx
from sqlalchemy import func, insert, select

from app.rooms.tokens import hash_token, new_room_id
from app.store import queries
from app.store.db import make_engine, upgrade
from tests.e2e.client import TIMEOUT, Client, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess, until

FAST_SWEEP = {"HOUSERULES_SWEEP_SECONDS": "0.1"}


def loaded_rooms(server: ServerProcess) -> float:
    text = httpx.get(server.http + "/metrics", timeout=10).text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("houserules_rooms{"))


async def test_an_idle_room_leaves_memory_and_comes_back_mid_game(backend: Backend) -> None:
    server = backend.server(HOUSERULES_IDLE_UNLOAD_SECONDS="0.3", **FAST_SWEEP).start()
    try:
        rng = random.Random(3)
        room, tokens = await make_room(server.http, 2, preset="palace")
        players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
        assert (await players[0].host("start"))["type"] == "ack"
        for client in players:
            await client.wait_state(lambda s: s["view"] is not None)
        await play_moves(players, players, rng, limit=6)
        before = players[0].state
        assert before is not None and before["outcome"] is None
        for client in players:
            await client.close()
        await until(lambda: loaded_rooms(server) == 0, "the idle room left memory", every=0.05)
        # Back on demand: the same game at the same version, and it goes on.
        again = [Client(server.ws, room, token) for token in tokens]
        for client in again:
            await client.connect(last_version=before["version"])
        assert again[0].state is not None and again[0].state["version"] == before["version"]
        assert again[0].state["view"] == before["view"]
        assert loaded_rooms(server) == 1
        assert await play_moves(again, again, rng, limit=3) == 3
        for client in again:
            await client.close()
    finally:
        server.stop()


async def test_start_up_with_ten_thousand_stored_rooms_loads_none(tmp_path: Path) -> None:
    """Start-up does not depend on the stored rooms: none is loaded until someone comes."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'data' / 'houserules.sqlite3'}"
    (tmp_path / "data").mkdir()
    engine = make_engine(url)
    await upgrade(engine)
    ids = [new_room_id() for _ in range(10_000)]
    sheet = {"turn_timer_seconds": 0}
    async with engine.begin() as conn:
        await conn.execute(insert(queries.rooms), [
            {"id": room_id, "game": "palace", "sheet": sheet, "capacity": 4, "approval": False,
             "status": "lobby" if i % 2 else "finished", "version": 0, "game_no": 0, "players": 0,
             "deal_version": 0, "active_at": time.time()} for i, room_id in enumerate(ids)])
        await conn.execute(insert(queries.members), [
            {"room_id": room_id, "name": "Kati", "token_hash": hash_token(room_id), "status": "seated",
             "seat": 0, "wanted_seat": 0} for room_id in ids])
    await engine.dispose()
    started = time.monotonic()
    server = ServerProcess(tmp_path).start()
    took = time.monotonic() - started
    try:
        print(f"start-up with 10,000 stored rooms: {took:.2f} s")
        assert loaded_rooms(server) == 0
        info = httpx.get(f"{server.http}/api/rooms/{ids[1]}", timeout=TIMEOUT)
        assert info.status_code == 200 and info.json()["status"] == "lobby"
        assert loaded_rooms(server) == 1
        host = Client(server.ws, ids[1], ids[1])
        await host.connect()
        assert host.seat == 0
        await host.close()
    finally:
        server.stop()


async def test_abandoned_lobbies_and_finished_rooms_expire_with_their_logs(backend: Backend) -> None:
    two_seconds = str(2 / 86400)
    server = backend.server(HOUSERULES_LOBBY_RETENTION_DAYS=two_seconds,
                            HOUSERULES_FINISHED_RETENTION_DAYS=two_seconds, **FAST_SWEEP).start()
    try:
        lobby, _ = await make_room(server.http, 2)
        # A heads-up table of one hand: played to its end, then left.
        finished, tokens = await make_room(server.http, 2, game="holdem", preset="cash-nl-1-2",
                                           options={"max_hands": 1, "straddle": "off"})
        players, _ = await seat_clients(server.ws, finished, tokens, spectators=0)
        assert (await players[0].host("start"))["type"] == "ack"
        for client in players:
            await client.wait_state(lambda s: s["view"] is not None)
        await play_moves(players, players, random.Random(1), max_moves=200,
                         chooser=lambda legal, rng: concrete(rng.choice(legal), rng))
        assert players[0].state is not None and players[0].state["outcome"] is not None
        await players[0].send({"type": "chat", "id": "bye", "text": "gg"})
        assert (await players[0].reply("bye"))["type"] == "ack"
        # A game being played is never expired, however long ago it started.
        playing, others = await make_room(server.http, 2, preset="palace")
        table, _ = await seat_clients(server.ws, playing, others, spectators=0)
        assert (await table[0].host("start"))["type"] == "ack"
        for client in players:
            await client.close()
        for room in (lobby, finished):
            await until(lambda room=room: httpx.get(f"{server.http}/api/rooms/{room}").status_code == 404,
                        f"room {room} expired", every=0.05)
        engine = make_engine(backend.database_url())
        try:
            async with engine.connect() as conn:
                for table_ in (queries.log, queries.members, queries.chat, queries.snapshots):
                    left = await conn.scalar(select(func.count()).select_from(table_)
                                             .where(table_.c.room_id.in_([lobby, finished])))
                    assert left == 0, table_.name
        finally:
            await engine.dispose()
        assert httpx.get(f"{server.http}/api/rooms/{playing}").json()["status"] == "playing"
        assert "past their retention" in server.log.read_text()
        for client in table:
            await client.close()
    finally:
        server.stop()



