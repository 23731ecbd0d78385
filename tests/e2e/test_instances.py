"""Two server instances on one PostgreSQL: moves are serialised by the version check and each
instance hears of the other's moves by LISTEN/NOTIFY, so players on different instances play on."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.client import Client, make_room, play_moves
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
