"""The per-room actor in process: rebuild from snapshot + log, snapshots every N moves, turn timers,
two instances on one database (version check, LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.store import queries
from app.store.db import make_engine, upgrade
from tests.rooms.helpers import Recorder, dealt_table, started_manager
from tests.support import fresh_postgres, needs_postgres
from tests.support import until as _wait_for


async def _manager(engine: AsyncEngine, **settings: Any) -> RoomManager:
    return await started_manager(engine, **settings)


async def _table(manager: RoomManager, players: int, preset: str = "palace", **options: Any
                 ) -> tuple[Room, list[Recorder]]:
    room, subs, _ = await dealt_table(manager, "palace", preset, players=players, **options)
    return room, subs


async def _moves(room: Room, subs: list[Recorder], count: int, rng: random.Random) -> None:
    for i in range(count):
        if room.game.outcome(room.state) is not None:
            return
        seat = rng.choice(room.game.to_act(room.state))
        legal = room.game.legal_actions(room.state, seat)
        others = [a for a in legal if "pick" not in a["type"]] or legal
        before = room.version
        await room.act(subs[seat], f"x{before}-{i}", rng.choice(others), None)
        assert room.version == before + 1, subs[seat].messages[-1]


async def test_rebuild_from_snapshot_and_log_is_the_same_state(engine: AsyncEngine) -> None:
    manager = await _manager(engine, snapshot_every=4)
    room, subs = await _table(manager, 3)
    await _moves(room, subs, 30, random.Random(1))
    dump, version = room.game.dump(room.state), room.version
    record = await queries.load_room(engine, room.id)
    assert record is not None
    # Snapshots every 4 moves (and at the deal): at most 3 moves to replay.
    assert len(record.tail) < 4 and record.snapshot_version >= version - 3
    await manager.stop()
    again = await _manager(engine, snapshot_every=4)
    assert room.id not in again.rooms  # no timer: rebuilt when someone comes back, not at start
    rebuilt = await again.get(room.id)
    assert rebuilt.version == version and rebuilt.game.dump(rebuilt.state) == dump
    await again.stop()


async def test_turn_timer_makes_the_default_move(engine: AsyncEngine) -> None:
    manager = await _manager(engine)
    room, subs = await _table(manager, 2, turn_timer_seconds=1)
    dealt = room.version
    assert room.deadline is not None
    state = subs[1].last("state")
    assert state["deadline"] == room.deadline
    await _wait_for(lambda: room.version > dealt, "the turn timer's default move")
    entries = await queries.log_since(engine, room.id, dealt)
    assert entries and all(e.kind == "timeout" for e in entries)
    assert {e.seat for e in entries} <= {0, 1}
    # Everyone heard of it, with the new deadline.
    assert subs[0].last("state")["version"] == room.version
    await manager.stop()


@asynccontextmanager
async def _two_instances(url: str) -> AsyncIterator[tuple[RoomManager, RoomManager, list[AsyncEngine]]]:
    """Two room managers on one database, each with its own engine; stopped and disposed after."""
    engines = [make_engine(url), make_engine(url)]
    await upgrade(engines[0])
    first = await _manager(engines[0])
    second = await _manager(engines[1])
    try:
        yield first, second, engines
    finally:
        for manager in (first, second):
            await manager.stop()
        for eng in engines:
            await eng.dispose()


async def _started_on_two(first: RoomManager, second: RoomManager) -> tuple[Any, Any, Recorder, Recorder]:
    """A two-seat Palace game dealt by the first instance, its host's socket there and the other
    player's on the second: both rooms and both sockets."""
    made = await first.create_room("palace", name="Kati", seats=2, preset="palace")
    room_a = await first.get(made["room"])
    joined = await room_a.join("Mati", None)
    room_b = await second.get(made["room"])
    a0, b1 = Recorder(), Recorder()
    await room_a.attach(a0, made["token"], None)
    await room_b.attach(b1, joined["token"], None)
    await room_a.host(a0, "start", "start", {})
    return room_a, room_b, a0, b1


async def test_a_second_instance_that_moved_late_is_refused_and_catches_up(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
    async with _two_instances(url) as (first, second, engines):
        room_a, room_b, a0, b1 = await _started_on_two(first, second)
        await room_b.sync()  # what a NOTIFY triggers on PostgreSQL
        assert room_a.version == room_b.version == 1
        # Both instances hold version 1; A stores a move first, B's move at version 1 must then fail.
        await room_a.act(a0, "first", room_a.game.legal_actions(room_a.state, 0)[0], None)
        assert room_a.version == 2 and room_b.version == 1
        late = room_b.game.legal_actions(room_b.state, 1)[0]
        await room_b.act(b1, "late", late, None)
        assert b1.last("error") == {"type": "error", "id": "late", "code": "stale_version",
                                    "message": b1.last("error")["message"]}
        # B caught up with the database (the truth) and told its socket what it missed, events
        # included; the same id may now succeed.
        assert room_b.version == 2 and b1.last("state")["version"] == 2
        assert [(e["version"], e["seat"]) for e in b1.last("state")["events"]] == [(2, 0)] * len(
            b1.last("state")["events"]) and b1.last("state")["events"]
        # The NOTIFY of A's move comes after that: B has nothing new, so its sockets hear nothing.
        heard = len(b1.messages)
        await room_b.sync()
        assert len(b1.messages) == heard
        entries = await queries.log_since(engines[0], room_a.id, 0)
        assert [e.msg_id for e in entries] == [None, "first"]
        await room_b.act(b1, "late", room_b.game.legal_actions(room_b.state, 1)[0], None)
        assert b1.last("ack") == {"type": "ack", "id": "late", "version": 3}


async def test_a_sync_applies_the_new_log_entries_without_reloading_the_room(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
    async with _two_instances(url) as (first, second, _engines):
        made = await first.create_room("palace", name="Kati", seats=2, preset="palace")
        room_a = await first.get(made["room"])
        joined = await room_a.join("Mati", None)
        room_b = await second.get(made["room"])
        a0, a1, b1 = Recorder(), Recorder(), Recorder()
        await room_a.attach(a0, made["token"], None)
        await room_a.attach(a1, joined["token"], None)
        await room_b.attach(b1, joined["token"], None)

        def no_reload(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError("the room was reloaded")

        monkeypatch.setattr(queries, "load_room", no_reload)
        await room_a.host(a0, "start", "start", {})
        await room_b.sync()
        rng = random.Random(5)
        seat_one_sent: list[str] = []
        for i in range(12):
            seat = rng.choice(room_a.game.to_act(room_a.state))
            await room_a.act([a0, a1][seat], f"s{i}", room_a.game.legal_actions(room_a.state, seat)[0], None)
            if seat == 1:
                seat_one_sent.append(f"s{i}")
            await room_b.sync()
            # The same state as the instance that made the moves, reached by applying the entries.
            assert room_b.version == room_a.version
            assert room_b.game.dump(room_b.state) == room_a.game.dump(room_a.state)
            assert b1.last("state") == a1.last("state")
        # A retry on B of a message A stored gets its ack, not a second move.
        assert seat_one_sent
        await room_b.act(b1, seat_one_sent[-1], {"type": "anything"}, None)
        assert b1.messages[-1]["type"] == "ack" and b1.messages[-1]["id"] == seat_one_sent[-1]


async def test_a_socket_joining_an_instance_behind_the_database_hears_each_event_once(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
    async with _two_instances(url) as (first, second, _engines):
        room_a, room_b, a0, b1 = await _started_on_two(first, second)
        await room_b.sync()
        # The owner stores a move the second instance has not heard of yet (its NOTIFY is on the
        # way) when a socket connects there that saw nothing of this game yet.
        seat = room_a.game.to_act(room_a.state)[0]
        await room_a.act([a0, b1][seat], "m", room_a.game.legal_actions(room_a.state, seat)[0], None)
        assert room_b.version == 1 < room_a.version
        watcher = Recorder()
        await room_b.attach(watcher, None, 0)
        await room_b.sync()
        states = [m for m in watcher.messages if m["type"] == "state"]
        told = [(e["version"], e["type"], e.get("seat")) for m in states for e in m["events"]]
        assert told and len(told) == len(set(told)), told
        # Each state carries the events up to its own version, none beyond.
        assert all(e["version"] <= m["version"] for m in states for e in m["events"])
        assert states[-1]["version"] == room_a.version


@needs_postgres
async def test_listen_notify_brings_other_instances_sockets_up_to_date() -> None:
    async with fresh_postgres() as url, _two_instances(url) as (first, second, _engines):
        _room_a, room_b, _a0, b1 = await _started_on_two(first, second)

        def dealt() -> list[dict[str, Any]]:
            return [m for m in b1.messages if m["type"] == "state" and m["version"] == 1]

        for _ in range(250):
            if dealt():
                break
            await asyncio.sleep(0.02)
        assert room_b.version == 1
        assert dealt()[0]["view"]["you"] == 1
        assert [e["type"] for e in dealt()[0]["events"]] == ["deal", "shuffle_commitment"]


@needs_postgres
async def test_an_unknown_room_id_never_reaches_the_listening_connection(monkeypatch: pytest.MonkeyPatch
                                                                          ) -> None:
    """Guessed ids are refused before a LISTEN is asked for them: they never queue with the LISTENs
    of the rooms that exist (one connection takes them in turn)."""
    async with fresh_postgres() as url, _two_instances(url) as (first, _second, _engines):
        listened: list[str] = []
        listen = first.cluster.listen

        async def recorded(room_id: str) -> None:
            listened.append(room_id)
            await listen(room_id)

        monkeypatch.setattr(first.cluster, "listen", recorded)
        with pytest.raises(RoomError) as refused:
            await first.get("no-such-room")
        assert refused.value.code == "unknown_room"
        made = await first.create_room("palace", name="Kati", seats=2, preset="palace")
        room = await first.get(made["room"])
        assert room.id == made["room"]
        assert listened == [made["room"]]


async def test_an_id_older_than_the_reply_cache_is_still_applied_once(engine: AsyncEngine) -> None:
    manager = await _manager(engine)
    room, subs = await _table(manager, 2, "hiina-turakas")
    seat = room.game.to_act(room.state)[0]
    action = next(a for a in room.game.legal_actions(room.state, seat) if a["type"] == "swap")
    await room.act(subs[seat], "old-id", action, None)
    first = subs[seat].last("ack")
    room.replies.clear()  # as if many later messages had pushed it out
    # Sent again while that seat may still move (more swaps are allowed in the swap phase: P4).
    others = room.game.legal_actions(room.state, seat)
    await room.act(subs[seat], "old-id", others[0], None)
    assert subs[seat].messages[-1] == first
    entries = await queries.log_since(engine, room.id, 0)
    assert [e.msg_id for e in entries].count("old-id") == 1
    assert room.version == first["version"]
    await manager.stop()


async def test_a_failed_commit_changes_nothing_and_the_same_id_may_be_sent_again(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = await _manager(engine)
    room, subs = await _table(manager, 2)
    seat = room.game.to_act(room.state)[0]
    action = room.game.legal_actions(room.state, seat)[0]
    before = (room.version, room.game.dump(room.state))
    seen = len(subs[1 - seat].messages)
    real = queries.append_many

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(queries, "append_many", broken)
    await room.act(subs[seat], "try-1", action, None)
    assert subs[seat].last("error")["code"] == "server_error"
    assert (room.version, room.game.dump(room.state)) == before
    # Nobody else heard of a move that was not stored.
    heard = [m["version"] for m in subs[1 - seat].messages[seen:] if m["type"] == "state"]
    assert all(version == before[0] for version in heard)
    monkeypatch.setattr(queries, "append_many", real)
    await room.act(subs[seat], "try-1", action, None)
    assert subs[seat].last("ack") == {"type": "ack", "id": "try-1", "version": before[0] + 1}
    await manager.stop()


@needs_postgres
async def test_one_owner_per_room_and_a_stale_owners_write_is_refused() -> None:
    async with fresh_postgres() as url, _two_instances(url) as (first, second, engines):
        made = await first.create_room("palace", name="Kati", seats=2, preset="palace")
        room_a = await first.get(made["room"])
        joined = await room_a.join("Mati", None)
        room_b = await second.get(made["room"])
        # The first instance loaded the room first: it owns it; the second follows.
        assert room_a.epoch is not None and room_b.epoch is None and room_b.lease_owner == first.instance
        # Both players have a socket on each instance.
        on_a, on_b = [Recorder(), Recorder()], [Recorder(), Recorder()]
        for room, subs in ((room_a, on_a), (room_b, on_b)):
            await room.attach(subs[0], made["token"], None)
            await room.attach(subs[1], joined["token"], None)
        await room_a.host(on_a[0], "start", "start", {})
        await _wait_for(lambda: room_b.version == room_a.version == 1, "the deal reached the follower")
        # A move on the follower is handed to the owner, which stores it.
        seat = room_b.game.to_act(room_b.state)[0]
        mover = on_b[seat]
        await room_b.act(mover, "handed", room_b.game.legal_actions(room_b.state, seat)[0], None)
        await _wait_for(lambda: any(m["type"] == "ack" and m["id"] == "handed" for m in mover.messages),
                        "the owner's ack")
        await _wait_for(lambda: room_b.version == room_a.version == 2, "the move reached both")
        # The owner's heartbeat runs out unrenewed (as if it had hung); the follower, with a socket
        # in the room, takes the room over under a new epoch.
        async with engines[0].begin() as conn:
            await conn.execute(text("UPDATE instances SET alive_until = 0 WHERE id = :id"),
                               {"id": first.instance})
        await second.cluster.tend_leases()
        await _wait_for(lambda: room_b.epoch is not None, "the take-over")
        assert room_b.epoch > (room_a.epoch or 0)
        # The stale owner still thinks it owns the room: its write is refused, nothing is stored.
        seat = room_a.game.to_act(room_a.state)[0]
        sub = on_a[seat]
        await room_a.act(sub, "stale", room_a.game.legal_actions(room_a.state, seat)[0], None)
        assert sub.last("error")["code"] == "stale_version"
        entries = await queries.log_since(engines[0], room_a.id, 0)
        assert "stale" not in [e.msg_id for e in entries] and entries[-1].version == 2
        # It learned that it lost the room: it follows now, and hands the same id to the new owner.
        assert room_a.epoch is None and room_a.lease_owner == second.instance
        await room_a.act(sub, "stale", room_a.game.legal_actions(room_a.state, seat)[0], None)
        await _wait_for(lambda: any(m["type"] == "ack" and m["id"] == "stale" for m in sub.messages),
                        "the new owner's ack")
        entries = await queries.log_since(engines[0], room_a.id, 0)
        assert [e.msg_id for e in entries].count("stale") == 1


@needs_postgres
async def test_an_owner_without_sockets_in_a_room_gives_it_to_the_instance_that_has_them() -> None:
    async with fresh_postgres() as url, _two_instances(url) as (first, second, _engines):
        made = await first.create_room("palace", name="Kati", seats=2, preset="palace")
        # The first instance loads the room (an API call, say) and so owns it, with no socket.
        room_a = await first.get(made["room"])
        await room_a.join("Mati", None)
        assert room_a.epoch is not None and not room_a.subscribers
        # The proxy sends the room's players to the second instance: it asks for the room.
        room_b = await second.get(made["room"])
        assert room_b.epoch is None
        sub = Recorder()
        await room_b.attach(sub, made["token"], None)
        await _wait_for(lambda: room_b.epoch is not None, "the hand-over of the room")
        assert room_a.epoch is None and room_b.epoch > 0
        # It runs the room now: the host's start is stored here, under its epoch.
        await room_b.host(sub, "start", "start", {})
        assert sub.last("ack")["id"] == "start" and room_b.version == 1
