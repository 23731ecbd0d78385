"""Two server instances on one PostgreSQL: moves are serialised by the version check and each
instance hears of the other's moves by LISTEN/NOTIFY, so players on different instances play on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from app.rooms.room import _event_json, _visible
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client, choose, make_room, play_moves
from tests.support import ServerProcess, fresh_postgres, needs_postgres


@needs_postgres
async def test_players_on_two_instances_play_one_game(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        first = ServerProcess(tmp_path, url, **lifted).start()
        second = ServerProcess(tmp_path, url, **lifted).start()
        try:
            room, tokens = await make_room(first.http, 3, preset="hiina-turakas")
            # Seats 0 and 2 on the first instance, seat 1 and a spectator on the second.
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(first.ws, room, tokens[2])]
            watcher = Client(second.ws, room, None)
            for client in [*players, watcher]:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in [*players, watcher]:
                await client.wait_state(lambda s: s["view"] is not None)
            moved = await play_moves(players, [*players, watcher], rng, limit=60)
            assert moved == 60 or (players[0].state is not None and players[0].state["outcome"] is not None)
            assert len({c.version for c in [*players, watcher]}) == 1
            for client in [*players, watcher]:
                await client.close()
        finally:
            first.stop()
            second.stop()


def _events_of(client: Client) -> list[dict[str, Any]]:
    """Every event the socket was sent, in the order it came (state frames carry them)."""
    return [event for r in client.received if r.message["type"] == "state" for event in r.message["events"]]


def _state_versions(client: Client) -> list[int]:
    return [int(r.message["version"]) for r in client.received if r.message["type"] == "state"]


@needs_postgres
async def test_every_update_reaches_every_socket_once_in_order_across_instances(tmp_path: Path) -> None:
    """A whole game with the players split over two instances, where seat 0 also has a socket on the
    other instance and both of its sockets send a move at the same version each time it is to act:
    one is stored, the other is refused (by the version check on the room row, or before it), and
    the refusing instance catches up. Every socket still gets each stored entry's events exactly
    once and in order (compared with the log itself), and no state frame twice."""
    rng = random.Random(11)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        first = ServerProcess(tmp_path, url, **lifted).start()
        second = ServerProcess(tmp_path, url, **lifted).start()
        try:
            room, tokens = await make_room(first.http, 3, preset="hiina-turakas")
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(first.ws, room, tokens[2])]
            twin = Client(second.ws, room, tokens[0])  # seat 0's second socket, on the other instance
            watchers = [Client(first.ws, room, None), Client(second.ws, room, None)]
            everyone = [*players, twin, *watchers]
            for client in everyone:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in everyone:
                await client.wait_state(lambda s: s["view"] is not None)
            refused = 0
            for _ in range(5000):
                state = players[0].state
                assert state is not None
                if state["outcome"] is not None:
                    break
                movers = [p for p in players if p.state and p.state["legal"]]
                assert movers, f"nobody can move at version {state['version']}"
                mover = rng.choice(movers)
                assert mover.state is not None
                version = mover.state["version"]
                if mover is players[0]:
                    assert twin.state is not None and twin.state["version"] == version
                    replies = await asyncio.gather(
                        mover.act(choose(mover.state["legal"], rng), version=version),
                        twin.act(choose(twin.state["legal"], rng), version=version))
                    assert sorted(r["type"] for r in replies) == ["ack", "error"], replies
                    # (not_playing: the stored move ended the game)
                    assert next(r["code"] for r in replies if r["type"] == "error") in (
                        "stale_version", "not_playing")
                    reply = next(r for r in replies if r["type"] == "ack")
                    refused += 1
                else:
                    reply = await mover.act(choose(mover.state["legal"], rng), version=version)
                    assert reply["type"] == "ack", reply
                for client in everyone:
                    await client.wait_version(reply["version"])
            else:
                raise AssertionError("the game did not end")
            assert refused > 0
            final = players[0].version
            for client in everyone:
                await client.wait_version(final)
            engine = make_engine(url)
            try:
                entries = await queries.log_since(engine, room, 0, limit=1_000_000)
            finally:
                await engine.dispose()
            assert entries[-1].version == final
            for client in everyone:
                versions = _state_versions(client)
                assert versions == sorted(set(versions)), f"a state came twice or out of order: {versions}"
                seat = client.seat
                expected = [_event_json(entry, row) for entry in entries for row in entry.events
                            if _visible(row, seat, entry.version, 0)]
                assert _events_of(client) == expected
            for client in everyone:
                await client.close()
        finally:
            first.stop()
            second.stop()


async def _store(client: Client, msg_id: str, action: dict[str, Any], version: int | None = None
                 ) -> dict[str, Any]:
    """Send a move until it gets an answer other than ``room_moving`` (the room is changing hands);
    always with the same id, so a move stored whose ack was lost is acknowledged, never applied twice."""
    for _ in range(40):
        await client.send({"type": "action", "id": msg_id, "action": action, "version": version})
        reply = await client.reply(msg_id)
        if reply["type"] != "error" or reply["code"] != "room_moving":
            return reply
    raise AssertionError(f"{msg_id}: the room never settled on an owner")


@needs_postgres
async def test_sigkill_of_the_owner_mid_burst_loses_no_acknowledged_move_and_the_room_resumes(
        tmp_path: Path) -> None:
    rng = random.Random(5)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        owner = ServerProcess(tmp_path, url, **lifted).start()
        other = ServerProcess(tmp_path, url, **lifted).start()
        try:
            # Created through the first instance, which loads it first and so owns it.
            room, tokens = await make_room(owner.http, 2, preset="hiina-turakas")
            players = [Client(owner.ws, room, tokens[0]), Client(other.ws, room, tokens[1])]
            watcher = Client(other.ws, room, None)
            for client in [*players, watcher]:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in [*players, watcher]:
                await client.wait_state(lambda s: s["view"] is not None)
            acked: dict[str, int] = {}
            in_flight: tuple[str, dict[str, Any]] | None = None
            for i in range(200):
                mover = next(p for p in players if p.state and p.state["legal"])
                assert mover.state is not None
                action = choose(mover.state["legal"], rng)
                msg_id = f"b{i}"
                if len(acked) >= 8 and mover is players[0]:
                    # Mid-burst: the owner dies with this move sent and its answer not yet back.
                    await mover.send({"type": "action", "id": msg_id, "action": action})
                    owner.kill()
                    in_flight = (msg_id, action)
                    break
                reply = await _store(mover, msg_id, action)
                assert reply["type"] == "ack", reply
                acked[msg_id] = reply["version"]
                for client in [*players, watcher]:
                    await client.wait_version(reply["version"])
            assert in_flight is not None
            # The killed instance's players reconnect to the other one (as a proxy would send them).
            players[0] = Client(other.ws, room, tokens[0])
            await players[0].connect(last_version=max(acked.values()))
            # The move in flight: stored once or not at all; its id answers the same either way.
            reply = await _store(players[0], in_flight[0], in_flight[1])
            if reply["type"] == "ack":
                acked[in_flight[0]] = reply["version"]
            # The room resumes on the surviving instance: moves are stored and heard again.
            for i in range(6):
                for client in [*players, watcher]:
                    await client.wait_version(max(acked.values()))
                state = players[0].state
                assert state is not None
                if state["outcome"] is not None:
                    break
                mover = next(p for p in players if p.state and p.state["legal"])
                assert mover.state is not None
                reply = await _store(mover, f"after{i}", choose(mover.state["legal"], rng))
                assert reply["type"] == "ack", reply
                acked[f"after{i}"] = reply["version"]
            engine = make_engine(url)
            try:
                entries = await queries.log_since(engine, room, 0, limit=1_000_000)
            finally:
                await engine.dispose()
            stored = [e.msg_id for e in entries if e.msg_id is not None]
            # Every acknowledged move is stored, once, at the version its ack named.
            assert sorted(stored) == sorted(set(stored))
            by_id = {e.msg_id: e.version for e in entries if e.msg_id is not None}
            assert {msg_id: by_id.get(msg_id) for msg_id in acked} == acked
            for client in [*players, watcher]:
                await client.close()
        finally:
            owner.stop()
            other.stop()
