"""The ``room`` message follows every change of the room, the end of a game included, on every
open socket (players and spectators), and agrees with GET /api/rooms/{room}."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.e2e.client import Client, make_room, play_moves, room_message, seat_clients, watchers
from tests.e2e.conftest import Backend
from tests.games.thousand.test_properties import discourage
from tests.support import ServerProcess


def choose_thousand(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    preferred = [a for a in legal if not discourage(a)]
    return rng.choice(preferred if preferred and rng.random() < 0.95 else legal)


def last_room(client: Client) -> dict[str, Any]:
    return [r.message for r in client.received if r.message["type"] == "room"][-1]


async def test_the_room_message_says_when_a_game_ends(backend: Backend, server: ServerProcess) -> None:
    rng = random.Random(f"room-{backend.name}")
    room, tokens = await make_room(server.http, 3, game="thousand", preset="tuhat",
                                   options={"target_score": 100, "opening_bid": 60})
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
        await client.expect("room", status="playing")
    await play_moves(seated, everyone, rng, max_moves=4000, chooser=choose_thousand)
    for client in everyone:
        assert client.state is not None and client.state["outcome"] is not None
        # The room message comes right after the final state: no one is left with "playing".
        finished = await client.expect("room", status="finished")
        assert finished["version"] == client.state["version"]
        assert last_room(client)["status"] == "finished"
    info = httpx.get(f"{server.http}/api/rooms/{room}", timeout=10).json()
    assert info["status"] == "finished" and info["version"] == seated[0].state["version"]  # type: ignore[index]
    for client in everyone:
        await client.close()


async def test_watchers_coming_and_going_are_told_as_a_count(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2)
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    player = players[0]
    # What the others' arrival sent this socket is in before counting from here.
    await room_message(player, lambda m: all(s["connected"] for s in m["seats"]))
    mark = len(player.received)
    crowd = []
    for n in range(1, 13):
        newcomer = Client(server.ws, room, None)
        await newcomer.connect()
        # The newcomer's own room message counts it (and every watcher before it).
        assert last_room(newcomer)["spectators"] == n
        crowd.append(newcomer)
    await watchers(player, 12)
    for newcomer in crowd:
        await newcomer.close()
    await watchers(player, 0)
    told = [r.message for r in player.received[mark:]]
    # Nothing but the count changed: no whole room message went to the seated player, only small
    # count messages, each newer than the last.
    assert [m for m in told if m["type"] == "room"] == []
    counts = [m for m in told if m["type"] == "spectators"]
    assert all(set(m) == {"type", "count"} for m in counts)
    rising = [m["count"] for m in counts[:counts.index(next(m for m in counts if m["count"] == 12)) + 1]]
    assert rising == sorted(rising) and rising[-1] == 12
    assert counts[-1]["count"] == 0
    for client in players:
        await client.close()
