"""A follower instance that catches up on a game's end and the next deal in one go: its seated
sockets get their private events of the game that ended (the seat they held then) and of the new
one, once and in order, and nothing of another seat's."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from app.rooms.entries import event_json, visible
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client, make_room, play_moves
from tests.e2e.relay import SlowAnswers
from tests.support import ServerProcess, fresh_postgres, needs_postgres

pytestmark = pytest.mark.heavy(15)

LIFTED = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}


def _events_from(client: Client, version: int) -> list[dict[str, Any]]:
    return [event for r in client.received if r.message["type"] == "state"
            for event in r.message["events"] if int(event["version"]) >= version]


@needs_postgres
async def test_a_follower_catching_up_over_a_games_end_and_the_next_deal_tells_each_seat_both(
        tmp_path: Path) -> None:
    """Two seats play on the owner A, each with a second socket on the follower B. B's questions to
    the database are held from just after the first deal until the game has ended and the next one
    has been dealt: B then learns all of it in one catch-up, after which the deal has handed the
    seats out anew. Each B socket must get its seat's private events of the first game (held from
    the first deal) and of the second (held from the second deal)."""
    rng = random.Random(7)
    async with fresh_postgres() as url:
        questions = asyncio.Event()
        questions.set()
        relay = SlowAnswers(url, 0.0, questions=questions)
        await relay.start()
        held_url = relay.url
        owner = ServerProcess(tmp_path, url, **LIFTED).start()
        try:
            follower = await asyncio.to_thread(ServerProcess(tmp_path, held_url, **LIFTED).start)
            try:
                room, tokens = await make_room(owner.http, 2)
                players = [Client(owner.ws, room, token) for token in tokens]
                seconds = [Client(follower.ws, room, token) for token in tokens]
                for client in players + seconds:
                    await client.connect()
                assert (await players[0].host("start"))["type"] == "ack"
                first = (await players[0].wait_state(lambda s: s["view"] is not None))["version"]
                for client in seconds:
                    await client.wait_version(first)
                questions.clear()  # B hears of the moves, but cannot read them yet
                await play_moves(players, players, rng)
                assert (await players[0].host("rematch"))["type"] == "ack"
                second = (await players[0].wait_state(
                    lambda s: s["view"] is not None and s["game_no"] == 2))["version"]
                questions.set()
                for client in seconds:
                    await client.wait_version(second)
                engine = make_engine(url)
                try:
                    entries = await queries.log_since(engine, room, first - 1, limit=1_000_000)
                finally:
                    await engine.dispose()
                deals = [e.version for e in entries if e.kind == "deal"]
                assert deals == [first, second]
                for client in seconds:
                    seat = client.seat
                    assert seat is not None
                    expected = [event_json(e, row) for e in entries if e.version <= client.version
                                for row in e.events
                                if visible(row, seat, e.version, first if e.version < second else second)]
                    got = _events_from(client, first)
                    missing = [(e["version"], e["type"]) for e in expected if e not in got]
                    extra = [(e["version"], e["type"]) for e in got if e not in expected]
                    assert got == expected, f"seat {seat}: missing {missing}, extra {extra}"
                    assert any(row.get("audience") is not None and e.version < second
                               for e in entries for row in e.events if visible(row, seat, e.version, first)
                               and e.version > first), "no private event of the first game to check"
                for client in players + seconds:
                    await client.close()
            finally:
                await asyncio.to_thread(follower.stop)
        finally:
            await asyncio.to_thread(owner.stop)
            await relay.stop()
