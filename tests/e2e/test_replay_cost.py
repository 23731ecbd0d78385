"""What a replay costs the server, over a real server and database: a long Hold'em table (thousands
of log entries, played by bots with no delay beside a person who folds) is walked once, a page
then replays what it holds (and at most a kept state's stride before it), and one address's budget
of entries replayed refuses with 429 and a whole-second Retry-After once spent. Costs are read
from the server's own counter of entries replayed (``/metrics``), not from timings."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from app.rooms.replay_index import STRIDE
from tests.e2e.client import TIMEOUT, Client
from tests.e2e.conftest import Backend
from tests.e2e.test_bots import NO_DELAY, open_room
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess

# About 15 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(15)

# Log entries the table plays before it is replayed: 20 kept states' strides, two batches of the
# walk (app/rooms/replay_index.py) and more than one address's budget.
LONG = 1000
BUDGET = 600  # entries replayed a minute per address (and the burst)
_addresses = itertools.count(1)


def address() -> dict[str, str]:
    """A client address of its own (X-Forwarded-For, trusted from loopback) for each caller."""
    return {"X-Forwarded-For": f"203.0.113.{next(_addresses)}"}


@dataclass
class Table:
    server: ServerProcess
    room: str
    length: int  # frames the replay of its finished hands has


def replayed(server: ServerProcess) -> dict[str, float]:
    """The server's count of log entries replayed, by kind (index: walking a game; page: frames)."""
    text = httpx.get(server.http + "/metrics", timeout=TIMEOUT).text
    found = dict(re.findall(r'^houserules_replay_entries_total\{kind="(\w+)"\} (\S+)$', text, re.M))
    return {kind: float(found.get(kind, "nan")) for kind in ("index", "page")}


def folding(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person who checks when they may and folds otherwise (the bots play the hands out), and
    buys in again with the most they may when the blinds have eaten their stack."""
    for kind in ("check", "fold", "muck", "no_straddle", "run_once"):
        for action in legal:
            if action["type"] == kind:
                return {"type": kind}
    action = legal[0]
    return concrete({**action, "min": action["max"]} if "max" in action else action, random.Random(0))


@pytest.fixture(scope="module")
def table(backend: Backend) -> Iterator[Table]:
    server = backend.server(**NO_DELAY, HOUSERULES_REPLAY_ENTRIES_PER_MINUTE=str(BUDGET)).start()
    try:
        room, length = asyncio.run(play_long_table(server))
        yield Table(server, room, length)
    finally:
        server.stop()


def bots_gone(client: Client) -> bool:
    """Whether the latest room message shows no bot at the table."""
    rooms = [r.message for r in client.received if r.message["type"] == "room"]
    return bool(rooms) and all(seat["bot"] is None for seat in rooms[-1]["seats"])


async def play_long_table(server: ServerProcess) -> tuple[str, int]:
    """A 9-seat cash table of a person and 8 bots, played until its log holds ``LONG`` entries; then
    the host takes the bots out (each leaves after its hand), and with one player left the table
    stops: its log no longer grows."""
    room, token = await open_room(server.http, 9, game="holdem", preset="fixed-limit-2-4")
    host = Client(server.ws, room, token)
    await host.connect()
    for seat in range(1, 9):
        assert (await host.host("add_bot", seat=seat))["type"] == "ack"
    await host.wait_state(lambda s: s["view"] is not None)
    removing = False
    acted = -1
    while not (removing and bots_gone(host)):
        state = host.state
        assert state is not None and state["outcome"] is None
        if state["version"] >= LONG and not removing:
            removing = True
            for seat in range(1, 9):
                # A bot leaves after the hand in play; one already gone (busted) is no bot.
                reply = await host.host("remove_bot", seat=seat)
                assert reply["type"] == "ack" or reply["code"] == "not_a_bot", reply
            continue
        if state["legal"] and acted < state["version"]:
            acted = state["version"]
            reply = await host.act(folding(state["legal"]), version=state["version"])
            assert reply["type"] == "ack" or reply["code"] in ("stale_version", "not_your_turn"), reply
            continue
        await host.next()  # a new state, or the room's news
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        first = await http.get(f"/api/rooms/{room}/games/1/replay", params={"count": 1}, headers=address())
    assert first.status_code == 200, first.text
    await host.close()
    return room, int(first.json()["length"])


async def test_a_long_table_is_walked_once_and_a_page_costs_what_it_holds(table: Table) -> None:
    assert table.length >= LONG - 200  # all but the hand in play
    url = f"/api/rooms/{table.room}/games/1/replay"
    async with httpx.AsyncClient(base_url=table.server.http, timeout=TIMEOUT) as http:
        pages = ((0, 50), (0, 50), (table.length - 300, 200), (634, 10), (table.length - 7, 200))
        for start, count in pages:
            before = replayed(table.server)
            answer = await http.get(url, params={"start": start, "count": count}, headers=address())
            assert answer.status_code == 200, answer.text
            after = replayed(table.server)
            frames = answer.json()["frames"]
            assert len(frames) == min(count, table.length - start)
            # The game was walked when the table was first replayed: never again.
            assert after["index"] == before["index"], (start, count)
            # The page replays its own entries and at most the stride before it.
            walked = after["page"] - before["page"]
            assert len(frames) <= walked <= len(frames) + STRIDE - 1, (start, count, walked)
        # The frames drawn from a kept state are those drawn from the game's start.
        middle = (await http.get(url, params={"start": 630, "count": 10}, headers=address())).json()
        whole = [(await http.get(url, params={"start": s, "count": 200}, headers=address())).json()
                 for s in range(0, 800, 200)]
        from_start = [f for page in whole for f in page["frames"]][630:640]
        assert middle["frames"] == from_start


async def test_one_address_is_refused_past_its_budget_of_entries_replayed(table: Table) -> None:
    url = f"/api/rooms/{table.room}/games/1/replay"
    caller = address()
    spent = 0.0
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=table.server.http, timeout=TIMEOUT, headers=caller) as http:
        for start in range(0, table.length - 200, 200):
            before = replayed(table.server)["page"]
            answer = await http.get(url, params={"start": start, "count": 200})
            if answer.status_code == 429:
                break
            assert answer.status_code == 200, answer.text
            spent += replayed(table.server)["page"] - before
        else:
            raise AssertionError("the budget never refused")
        # Refused once the address owes entries: it may have run up one page of debt, no more.
        refill = (time.monotonic() - started) * BUDGET / 60
        assert BUDGET <= spent <= BUDGET + refill + 200
        assert answer.json()["code"] == "rate_limited"
        retry = answer.headers["Retry-After"]
        assert retry.isdigit() and int(retry) >= 1
        assert f"{retry} second" in answer.json()["message"] and "0.0" not in answer.json()["message"]
        # Another address is still served: the budget is per address.
        other = await http.get(url, params={"count": 10}, headers=address())
        assert other.status_code == 200, other.text
