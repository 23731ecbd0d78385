"""The ``room`` message follows every change of the room, the end of a game included, on every
open socket (players and spectators), and agrees with GET /api/rooms/{room}."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.e2e.client import Client, make_room, play_moves, seat_clients
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
