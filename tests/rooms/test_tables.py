"""The room server and a table game's hooks, in process: table actions beside ``legal``, actions
kept for the server or the host, the game's clock applied by the server, automatic moves for
seats sitting out, and newcomers seated up to the room's capacity while a table runs."""

from __future__ import annotations

import random
import time
from itertools import pairwise
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.store import queries
from tests.games.holdem.helpers import concrete
from tests.rooms.helpers import Recorder, dealt_table
from tests.rooms.helpers import started_manager as _manager

CASH = {"max_hands": 30, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40}


async def _room(manager: RoomManager, capacity: int, players: int, preset: str, **options: Any
                ) -> tuple[Room, list[Recorder]]:
    room, subs, _ = await dealt_table(
        manager, "holdem", preset, players=players, capacity=capacity, **options
    )
    return room, subs


async def _move(room: Room, subs: list[Recorder], rng: random.Random) -> None:
    seat = rng.choice(room.game.to_act(room.state))
    legal = room.game.legal_actions(room.state, seat)
    calm = [a for a in legal if a["type"] in ("check", "call", "show", "muck")] or legal
    await room.act(subs[seat], f"r{room.version}", concrete(rng.choice(calm), rng), None)
    assert subs[seat].messages[-1]["type"] != "error", subs[seat].messages[-1]


async def test_table_actions_go_beside_legal_without_server_actions(engine: AsyncEngine) -> None:
    manager = await _manager(engine)
    room, subs = await _room(manager, 3, 3, "tournament-nl-turbo")
    host_state, guest_state = subs[0].last("state"), subs[1].last("state")
    assert [a["type"] for a in host_state["table"]] == ["sit_out", "close_table"]
    assert [a["type"] for a in guest_state["table"]] == ["sit_out"]  # closing is the host's
    # Handing the host role over moves closing the table with it.
    await room.host(subs[0], "h1", "handover", {"seat": 1})
    assert [a["type"] for a in subs[1].last("state")["table"]] == ["sit_out", "close_table"]
    assert [a["type"] for a in subs[0].last("state")["table"]] == ["sit_out"]
    await manager.stop()


async def test_server_and_host_actions_are_refused_from_clients_and_change_nothing(
    engine: AsyncEngine,
) -> None:
    manager = await _manager(engine)
    room, subs = await _room(manager, 3, 3, "cash-nl-1-2", **CASH)
    version, dump = room.version, room.game.dump(room.state)
    await room.act(subs[0], "c1", {"type": "clock", "now": 10**9}, None)
    assert subs[0].last("error")["code"] == "server_only"
    await room.act(subs[1], "c2", {"type": "close_table"}, None)
    assert subs[1].last("error")["code"] == "not_host"
    assert room.version == version and room.game.dump(room.state) == dump
    # The host closes the table: the hand in play is finished first, then the table is over.
    await room.act(subs[0], "c3", {"type": "close_table"}, None)
    assert subs[0].last("ack")["id"] == "c3"
    rng = random.Random(3)
    while room.game.outcome(room.state) is None:
        await _move(room, subs, rng)
    assert room.status == "finished" and room.game.view(room.state, None)["hands_played"] == 1
    await manager.stop()


async def test_clock_is_applied_by_the_server_when_a_level_is_due(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = await _manager(engine)
    room, subs = await _room(manager, 3, 3, "tournament-nl-turbo", level_length=1)
    entries = await queries.log_since(engine, room.id, 0)
    assert [(e.kind, e.seat) for e in entries] == [("deal", None), ("clock", None)]
    start = entries[1].action["now"]
    rng = random.Random(5)
    await _move(room, subs, rng)
    assert (await queries.log_since(engine, room.id, 2))[0].kind == "move"  # no level due: not logged
    # A minute later the next move is preceded by the clock, which raises the level from the next hand.
    # (The room reads the wall clock through time.time; asyncio's own timing is monotonic.)
    monkeypatch.setattr(time, "time", lambda: start + 61.0)
    before = room.version
    await _move(room, subs, rng)
    later = await queries.log_since(engine, room.id, before)
    assert [e.kind for e in later][:2] == ["clock", "move"] and later[0].seat is None
    assert room.state.clock_level == 1
    # Rebuilt from the log (seatless clock entries included), the room is the same.
    dump, version = room.game.dump(room.state), room.version
    await manager.stop()
    again = await _manager(engine)
    rebuilt = await again.get(room.id)  # loaded on demand (no turn timer)
    assert rebuilt.version == version and rebuilt.game.dump(rebuilt.state) == dump
    await again.stop()


async def test_a_tournament_seat_sitting_out_is_answered_at_once(engine: AsyncEngine) -> None:
    manager = await _manager(engine)
    room, subs = await _room(manager, 3, 3, "tournament-nl-turbo", level_by="hands")
    rng = random.Random(7)
    await room.act(subs[2], "away", {"type": "sit_out"}, None)
    assert subs[2].last("ack")["id"] == "away"
    for _ in range(30):
        if room.game.outcome(room.state) is not None:
            break
        assert 2 not in room.game.to_act(room.state)  # never waited for
        await _move(room, subs, rng)
    entries = await queries.log_since(engine, room.id, 0)
    autos = [e for e in entries if e.kind == "auto"]
    assert autos and all(e.seat == 2 and e.action["type"] in ("check", "fold") for e in autos)
    # A move answered by automatic moves is acknowledged with its own version, also when repeated.
    move = next(e for e, after in pairwise(entries)
                if e.kind == "move" and after.kind == "auto")
    assert move.seat is not None and move.msg_id is not None
    sub = subs[move.seat]
    first = next(m for m in sub.messages if m["type"] == "ack" and m["id"] == move.msg_id)
    assert first["version"] == move.version
    version = room.version
    await room.act(sub, move.msg_id, {"type": "fold"}, None)
    assert sub.messages[-1] == first and room.version == version
    await manager.stop()


async def test_newcomers_take_free_table_seats_up_to_the_capacity(engine: AsyncEngine) -> None:
    manager = await _manager(engine)
    room, _ = await _room(manager, 4, 2, "cash-nl-1-2", seats=6, **CASH)
    assert room.free_seats() == [2, 3]  # the table has 6 seats, the room 4
    joined = [await room.join(name, None) for name in ("Tiit", "Mari")]
    assert [j["seat"] for j in joined] == [2, 3] and room.free_seats() == []
    newcomer = Recorder()
    await room.attach(newcomer, joined[1]["token"], None)
    offer = next(a for a in newcomer.last("state")["table"] if a["type"] == "join")
    assert (offer["seat"], offer["min"], offer["max"]) == (3, 20, 100)
    await room.act(newcomer, "sit", {"type": "join", "seat": 3, "buy_in": 50, "post": True}, None)
    assert newcomer.last("ack")["id"] == "sit"
    assert room.game.view(room.state, 3)["players"][3]["occupied"]
    await manager.stop()
