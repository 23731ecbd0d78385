"""Nobody stalls the table across two instances on one PostgreSQL: pages on either instance see
an away player's countdown, and the host's "a bot now" (made by the owner's bots) on both."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.client import Client
from tests.e2e.test_instances import LIFTED, _open_room
from tests.e2e.test_standin_host import alone_to_act, play_until, room_after
from tests.support import ServerProcess, fresh_postgres, needs_postgres

KATE = 2


@needs_postgres
async def test_an_away_player_and_her_stand_in_are_shown_on_both_instances(tmp_path: Path) -> None:
    rng = random.Random(6)
    async with fresh_postgres() as url:
        first = ServerProcess(tmp_path, url, **LIFTED).start()
        second = ServerProcess(tmp_path, url, **LIFTED).start()
        try:
            room, tokens = await _open_room(first.http, 3, 3)
            # The host on the first instance (connected first: it owns the room), Mari and Kate
            # on the second; a spectator on each.
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(second.ws, room, tokens[2])]
            watchers = [Client(first.ws, room, None), Client(second.ws, room, None)]
            for client in [*players, *watchers]:
                await client.connect()
            host, kate = players[0], players[KATE]
            assert (await host.host("start"))["type"] == "ack"
            for client in [*players, *watchers]:
                await client.wait_state(lambda s: s["view"] is not None)
            await play_until(players, rng, lambda: alone_to_act(players, KATE))
            marks = [len(w.received) for w in watchers]
            await kate.close()
            for watcher, mark in zip(watchers, marks, strict=True):
                away = await room_after(watcher, mark, lambda m: not m["seats"][KATE]["connected"])
                assert 0 < away["seats"][KATE]["takeover_in"] <= 90
                assert not away["seats"][KATE]["stand_in"]
            # The host's word: a bot now. The owner's bots play; the other instance says so too,
            # long before the countdown would have ended.
            marks = [len(w.received) for w in watchers]
            assert (await host.host("stand_in", seat=KATE))["type"] == "ack"
            for watcher, mark in zip(watchers, marks, strict=True):
                taken = await room_after(watcher, mark, lambda m: m["seats"][KATE]["stand_in"])
                assert taken["seats"][KATE]["takeover_in"] is None
            # She comes back on the second instance: both say she plays her own seat again.
            marks = [len(w.received) for w in watchers]
            await kate.connect(last_version=kate.version)
            for watcher, mark in zip(watchers, marks, strict=True):
                back = await room_after(watcher, mark, lambda m: m["seats"][KATE]["connected"])
                assert not back["seats"][KATE]["stand_in"]
            for client in [*players, *watchers]:
                await client.close()
        finally:
            first.stop()
            second.stop()
