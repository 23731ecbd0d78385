"""Whole Palace games over real sockets, every preset, 2–5 players, SQLite and PostgreSQL,
with a spectator watching and the leak check over every message every socket received."""

from __future__ import annotations

import random

import pytest

from tests.e2e.client import make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.leaks import check_no_early_secrets, check_no_leaks, fair_secrets, states_by_version
from tests.games.palace.helpers import visible_cards
from tests.support import ServerProcess

# About 20 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(20)

# Every preset, and every player count from 2 to 5 at least once (China Hand is for 2–4: P1).
GAMES = [("hiina-turakas", 2), ("hiina-turakas", 5), ("china-hand", 4), ("palace", 3), ("palace", 5)]


@pytest.mark.parametrize(("preset", "players"), GAMES)
async def test_whole_game_to_the_end(backend: Backend, server: ServerProcess, preset: str,
                                     players: int) -> None:
    rng = random.Random(f"{preset}-{players}-{backend.name}")
    room, tokens = await make_room(server.http, players, preset=preset)
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    host = seated[0]
    assert (await host.host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    moves = await play_moves(seated, everyone, rng)
    assert moves > 0
    final = host.state
    assert final is not None and final["outcome"] is not None
    placed = sorted(seat for group in final["outcome"]["placings"] for seat in group)
    assert placed == list(range(players))
    for client in everyone:
        assert client.state is not None and client.state["version"] == final["version"]
        assert client.state["outcome"] == final["outcome"] and client.state["legal"] == []
    # A rematch in the same room deals a new game with the same sheet.
    assert (await host.host("rematch"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["game_no"] == 2 and s["outcome"] is None)
    states = await states_by_version(backend.database_url(), room)
    assert max(states) == host.version
    checked = check_no_leaks(everyone, states, visible_cards)
    assert checked > moves
    # Both games' seeds and keys: the first's revealed at its end, the rematch's not yet.
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) == checked
    for client in everyone:
        await client.close()

