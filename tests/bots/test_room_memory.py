"""A bot's memory at a room's table: its seat's visible events since the deal began, read from the
stored log, so a server that loads the room again (a restart) hands the bot the same memory."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.bots.memory import Recall
from app.store import queries
from tests.rooms.helpers import Recorder, started_manager
from tests.support import until


def expected_memory(game_name: str, entries: list[Any], seat: int, since: int, game_no: int) -> list[Any]:
    """The seat's memory written from the log rows directly (the rows' own audiences)."""
    recall = Recall(game_name)
    for entry in entries:
        if entry.game_no != game_no:
            continue
        for row in entry.events:
            audience = row.get("audience")
            if audience is None or (seat in audience and entry.version >= since):
                recall.add({**row.get("data", {}), "type": row["type"]})
    return recall.events


async def test_a_bots_memory_is_its_seats_events_since_the_deal_and_survives_a_reload(
    engine: AsyncEngine,
) -> None:
    manager = await started_manager(engine, bot_delay_min=0, bot_delay_max=0)
    made = await manager.create_room("thousand", name="Kati", seats=3, preset="tuhat")
    room = await manager.get(made["room"])
    host = Recorder()
    await room.attach(host, made["token"], None)
    await room.host(host, "b1", "add_bot", {"seat": 1})
    await room.host(host, "b2", "add_bot", {"seat": 2})
    await until(lambda: room.status == "playing")
    rng = random.Random(5)
    # The host plays random legal moves until two tricks of a deal have been played.
    def trick_played() -> bool:
        view = room.game.view(room.state, 1)
        return bool(view.get("last_trick")) and view["phase"] == "play"

    for step in range(400):
        await until(lambda: room.state is not None and (
            bool(room.game.legal_actions(room.state, 0)) or trick_played()))
        if trick_played():
            break
        legal = room.game.legal_actions(room.state, 0)
        if legal:
            await room.act(host, f"m{step}", rng.choice(legal), None)
    async with room.lock:
        memory = await room.bots.memory_of(1)
        log = await queries.log_since(engine, room.id, 0, limit=5000)
        since = room.seated()[1].since
        expected = expected_memory("thousand", log, 1, since, room.game_no)
        assert memory == expected
        kinds = {event["type"] for event in memory}
        # From the deal's start (the room's deal, or a later deal's start): the seat's own hand,
        # the auction and the cards played are all remembered.
        assert memory[0]["type"] in ("deal", "deal_started")
        assert {"hand", "bid", "play", "trick"} <= kinds
        assert all(event["type"] != "deal_started" for event in memory[1:])
        # Nothing of another seat's own: no private row seat 1 is not in the audience of.
        private = [row for e in log for row in e.events
                   if row.get("audience") is not None and 1 not in row["audience"]]
        assert private
        assert not any({**row["data"], "type": row["type"]} in memory for row in private
                       if row["type"] in ("hand", "drawn", "talon_taken", "given"))
    await manager.stop()
    # A new server loads the room from the database: the bot remembers the same.
    again = await started_manager(engine, bot_delay_min=0, bot_delay_max=0)
    reloaded = await again.get(made["room"])
    async with reloaded.lock:
        assert await reloaded.bots.memory_of(1) == memory
    await again.stop()
