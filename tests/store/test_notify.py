"""LISTEN/NOTIFY between instances: a room's change wakes only the instances holding that room.

Each test waits for a marker notification sent after what must not arrive: PostgreSQL delivers one
session's notifications in commit order, so once the marker is here, anything sent before it that
was going to arrive has arrived.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import notify as notify_module
from app.store.db import make_engine, upgrade
from app.store.notify import Listener, Notifier, notify
from app.store.queries import LISTENER_APP
from tests.e2e.relay import SlowAnswers
from tests.support import fresh_postgres, needs_postgres, until

pytestmark = needs_postgres


class Heard:
    """The rooms a listener was told of, in order."""

    def __init__(self) -> None:
        self.rooms: list[str] = []

    def __call__(self, room_id: str) -> None:
        self.rooms.append(room_id)

    async def until(self, room_id: str, count: int = 1) -> None:
        await until(lambda: self.rooms.count(room_id) >= count, f"{count} notification(s) of {room_id}")


@asynccontextmanager
async def _listening(instance: str = "here") -> AsyncIterator[tuple[AsyncEngine, Listener, Heard]]:
    async with fresh_postgres() as url:
        engine = make_engine(url)
        await upgrade(engine)  # the listening session lists itself on the rooms' rows
        heard = Heard()
        listener = Listener(url, instance, heard)
        listener.start()
        try:
            await asyncio.wait_for(listener.ready.wait(), 60)
            yield engine, listener, heard
        finally:
            await listener.stop()
            await engine.dispose()


async def _changed(engine: AsyncEngine, instance: str, *room_ids: str) -> None:
    """A commit by ``instance`` that changed these rooms, as the writer's general path tells it."""
    async with engine.begin() as conn:
        await notify(conn, instance, room_ids)


async def test_a_change_wakes_only_the_instances_holding_the_room() -> None:
    async with _listening() as (engine, listener, heard):
        await listener.listen("held")
        await listener.listen("marker")
        await _changed(engine, "there", "held", "elsewhere")
        await _changed(engine, "there", "marker")
        await heard.until("marker")
        assert heard.rooms == ["held", "marker"]


async def test_an_instance_is_not_told_of_its_own_changes() -> None:
    async with _listening("here") as (engine, listener, heard):
        await listener.listen("room")
        await _changed(engine, "here", "room")
        await _changed(engine, "there", "room")
        await heard.until("room")
        await _changed(engine, "there", "room")
        await heard.until("room", 2)
        assert heard.rooms == ["room", "room"]


async def test_a_room_loaded_twice_is_heard_until_both_copies_left() -> None:
    async with _listening() as (engine, listener, heard):
        await listener.listen("marker")
        await listener.listen("room")
        await listener.listen("room")  # loaded again while the first copy was being unloaded
        await listener.unlisten("room")
        await _changed(engine, "there", "room")
        await heard.until("room")
        await listener.unlisten("room")
        await _changed(engine, "there", "room")
        await _changed(engine, "there", "marker")
        await heard.until("marker")
        assert heard.rooms == ["room", "marker"]


async def test_notifications_sent_outside_a_commit_reach_the_rooms_holders() -> None:
    async with _listening() as (_engine, listener, heard):
        notifier = Notifier(listener.url)
        try:
            await listener.listen("a")
            await listener.listen("b")
            await notifier.rooms_changed("there", ["a", "b", "c"])
            await heard.until("b")
            assert sorted(heard.rooms) == ["a", "b"]
        finally:
            await notifier.close()


async def test_after_its_connection_was_cut_every_room_held_is_heard_again_and_caught_up() -> None:
    async with _listening("cut") as (engine, listener, heard):
        await listener.listen("before")
        url, listener.url = listener.url, "postgresql://postgres@127.0.0.1:1/nowhere"  # no way back yet
        async with engine.begin() as conn:
            await conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                    " WHERE application_name = :name"), {"name": f"{LISTENER_APP}cut"})
        await until(lambda: not listener.ready.is_set(), "the listener to see its connection cut")
        # Loaded while nothing listened: a change meanwhile is told to nobody here.
        await listener.listen("meanwhile")
        await _changed(engine, "there", "meanwhile")
        assert heard.rooms == []
        listener.url = url
        await asyncio.wait_for(listener.ready.wait(), 60)
        # Back: both rooms are told as changed (their copies catch up on what was missed) ...
        assert sorted(heard.rooms) == ["before", "meanwhile"]
        # ... and heard again.
        await _changed(engine, "there", "meanwhile")
        await heard.until("meanwhile", 2)
        await _changed(engine, "there", "before")
        await heard.until("before", 2)


@pytest.mark.parametrize("room_id", ["A-b_9", "x" * 43])
async def test_any_room_id_has_a_channel(room_id: str) -> None:
    """Room ids are up to 43 characters of letters, digits, ``-`` and ``_``: the channel keeps their
    case and fits PostgreSQL's 63 bytes."""
    async with _listening() as (engine, listener, heard):
        await listener.listen(room_id)
        await _changed(engine, "there", room_id.lower(), room_id)
        await heard.until(room_id)
        assert heard.rooms == [room_id]


async def test_a_listen_that_hangs_gives_the_connection_up_and_the_room_is_caught_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A room's load waits for its LISTEN: a listening connection that stops answering is given up
    (after ``LISTEN_SECONDS``) rather than holding every load; the room is heard on the next one."""
    monkeypatch.setattr(notify_module, "LISTEN_SECONDS", 0.2)
    async with fresh_postgres() as url:
        questions = asyncio.Event()
        questions.set()
        relay = SlowAnswers(url, 0.0, questions=questions)
        await relay.start()
        engine = make_engine(url)
        await upgrade(engine)
        heard = Heard()
        listener = Listener(relay.url, "hung", heard)
        listener.start()
        try:
            await asyncio.wait_for(listener.ready.wait(), 60)
            questions.clear()  # the database hears nothing more from this instance
            await asyncio.wait_for(listener.listen("room"), 60)
            assert heard.rooms == []
            questions.set()
            await heard.until("room")  # connected again: told as changed, to catch up
            await _changed(engine, "there", "room")
            await heard.until("room", 2)
        finally:
            questions.set()
            await listener.stop()
            await relay.stop()
            await engine.dispose()
