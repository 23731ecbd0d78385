"""Three server instances on one PostgreSQL, a room's seats split over them: every socket gets every
event its seat may see exactly once and in order, on whichever instance it is, while the room's
membership changes through one instance and moves are made through another."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.rooms.entries import event_json, visible
from app.rooms.tokens import hash_token
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import TIMEOUT, Client, choose, room_message
from tests.e2e.relay import SlowAnswers
from tests.support import ServerProcess, fresh_postgres, needs_postgres

# About 30 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(30)

LIFTED = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
# Moves made in each room before its sockets' events are checked: the swap phase (every seat may
# move at once) and the first plays after it.
MOVES = 24
ROOMS = 4


def _events_of(client: Client) -> list[dict[str, Any]]:
    """Every event the socket was sent, in the order it came (state frames carry them)."""
    return [event for r in client.received if r.message["type"] == "state" for event in r.message["events"]]


def _state_versions(client: Client) -> list[int]:
    return [int(r.message["version"]) for r in client.received if r.message["type"] == "state"]


def _newer(version: int, stop: asyncio.Event) -> Callable[[dict[str, Any]], bool]:
    """A state after ``version`` has arrived, or there is no more waiting to do."""
    return lambda state: bool(state["version"] > version or stop.is_set())



async def log_and_record(url: str, room: str) -> tuple[list[Any], Any]:
    """The room's whole log and its stored record, read from the database."""
    engine = make_engine(url)
    try:
        entries = await queries.log_since(engine, room, 0, limit=1_000_000)
        record = await queries.load_room(engine, room)
    finally:
        await engine.dispose()
    assert record is not None
    return entries, record

async def _join(http: str, room: str, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        for _ in range(40):
            joined = await client.post(f"/api/rooms/{room}/join", json={"name": name})
            if joined.status_code != 503:  # room_moving: the owner is changing; ask again
                assert joined.status_code == 201, joined.text
                return dict(joined.json())
        raise AssertionError(f"{name} never got a seat in {room}")


async def _play(player: Client, version_reached: asyncio.Event, rng: random.Random, stored: list[int]
                ) -> None:
    """One seat moving as fast as it may, from the newest state it has, until the room has had
    ``MOVES`` moves: in the swap phase every seat may move at once, so moves race (through the
    instances that do not own the room, handed to its owner). A refused move is followed by one
    from a newer state."""
    while not version_reached.is_set():
        state = await player.wait_state(lambda s: bool(s["legal"]) or s["outcome"] is not None
                                        or version_reached.is_set())
        if version_reached.is_set() or state["outcome"] is not None:
            return
        seen = state["version"]
        reply = await player.act(choose(state["legal"], rng), version=seen)
        if reply["type"] == "ack":
            stored.append(int(reply["version"]))
            if len(stored) >= MOVES:
                version_reached.set()
            continue
        if reply["code"] == "room_moving":
            continue
        # Someone else's move came first: look again once it has arrived here.
        assert reply["code"] in ("stale_version", "not_your_turn", "wrong_phase", "not_playing"), reply
        await player.wait_state(_newer(seen, version_reached))


async def _one_room(servers: list[ServerProcess], url: str, rng: random.Random, owner_moves: bool
                    ) -> list[str]:
    """A room made through instance A (its owner), its spectator on C, its seats taken through B
    (each join handed to the owner) and connected to C, B, C and A, then played at once through
    all three: what each socket missed, duplicated or got out of order (empty when all is well)."""
    first, second, third = servers
    async with httpx.AsyncClient(base_url=first.http, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "palace", "name": "Kati", "seats": 4})
        assert made.status_code == 201, made.text
    room, host_token = made.json()["room"], made.json()["token"]
    host = Client(first.ws, room, host_token)
    if not owner_moves:
        await host.connect()  # the room is loaded on A, which takes its lease: A owns it
    watcher = Client(third.ws, room, None)
    await watcher.connect()  # C has the room in memory from here on
    players = [host]
    for seat, base in ((1, third.ws), (2, second.ws), (3, third.ws)):
        joined = await _join(second.http, room, f"P{seat}")
        assert joined["seat"] == seat, joined
        # C (and B) hear of the newcomer from the owner's announcement; their spectator shows it.
        await room_message(watcher, lambda m, s=seat: m["seats"][s]["name"] is not None)
        players.append(Client(base, room, joined["token"]))
    # The seats' sockets at once: with ``owner_moves``, the owner has none of its own when the
    # others arrive, gives the room up to one of them, and the start is handed to the new owner.
    await asyncio.gather(*(p.connect() for p in players[1:]))
    if owner_moves:
        await host.connect()
    everyone = [*players, watcher]
    # Straight after the last join: the start through A, and every seat moving at once.
    assert (await host.host("start"))["type"] == "ack"
    reached = asyncio.Event()
    stored: list[int] = []
    await asyncio.gather(*(_play(p, reached, random.Random(rng.random()), stored) for p in players))
    entries, record = await log_and_record(url, room)
    final = entries[-1].version
    for client in everyone:
        await client.wait_version(final)
    since: dict[int | None, int] = {m["seat"]: m.get("seat_since") or 0 for m in record.members
                                    if m["status"] == "seated"}
    deal = next(e.version for e in entries if e.kind == "deal")
    problems = []
    for client in everyone:
        where = {id(p): name for p, name in zip(players, ("A", "C", "B", "C"), strict=True)}.get(
            id(client), "C (spectator)")
        versions = [v for v in _state_versions(client) if v >= deal]
        if versions != sorted(set(versions)):
            problems.append(f"{room} seat {client.seat} on {where}: a state came twice or out of order: "
                            f"{versions}")
        holder = client.seat
        expected = [event_json(entry, row) for entry in entries if entry.version >= deal
                    for row in entry.events if visible(row, holder, entry.version, since.get(holder, 0))]
        got = [event for event in _events_of(client) if int(event["version"]) >= deal]
        if got != expected:
            missing = [(e["version"], e["type"]) for e in expected if e not in got]
            extra = [(e["version"], e["type"]) for e in got if e not in expected]
            problems.append(f"{room} seat {holder} on {where}: {len(missing)} events missing {missing}, "
                            f"{len(extra)} extra {extra}, versions {versions}")
    for client in everyone:
        await client.close()
    return problems


@needs_postgres
async def test_every_socket_gets_its_events_once_in_order_with_seats_on_three_instances(
        tmp_path: Path) -> None:
    """Six rooms, one after another, each owned by instance A, its seats joined through B (the
    owner seats them) and split over A, B and C, started through A straight after the last join
    and played at once by every seat (the swap phase lets them all move together). Every socket,
    the spectator's on C included, gets each stored entry's events that its seat may see, once
    and in order (compared with the log itself)."""
    rng = random.Random(26)
    async with fresh_postgres() as url:
        servers = [ServerProcess(tmp_path, url, **LIFTED).start() for _ in range(3)]
        try:
            problems: list[str] = []
            for index in range(ROOMS):
                problems += await _one_room(servers, url, rng, owner_moves=index % 2 == 1)
            assert problems == [], "\n".join(problems)
        finally:
            for server in servers:
                server.stop()


# Bots move at once: the owner commits the table's moves back to back, with no client in the loop.
QUICK_BOTS = {"HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0"}
# Each answer from PostgreSQL to the third instance is held this long: that instance's reads of
# one room (its row, then its members, its snapshot and its log) are spread out, so the owner
# commits moves between them, as it does on a busy machine. It widens a window; no outcome waits
# on it.
SLOW_ANSWERS = 0.03


async def _keep_moving(player: Client, done: asyncio.Event, rng: random.Random) -> None:
    """A person who moves as soon as it may, from the newest state it has, until ``done``."""
    while not done.is_set():
        state = await player.wait_state(lambda s: bool(s["legal"]) or s["outcome"] is not None
                                        or done.is_set(), timeout=60)
        if done.is_set() or state["outcome"] is not None:
            return
        seen = state["version"]
        reply = await player.act(choose(state["legal"], rng), version=seen)
        if reply["type"] == "error":
            # A bot's move came first, or the room is changing hands: look again at a newer state.
            assert reply["code"] in ("stale_version", "room_moving", "not_your_turn", "wrong_phase",
                                     "not_playing"), reply
            if reply["code"] != "room_moving":
                await player.wait_state(_newer(seen, done), timeout=60)


async def _loaded_while_playing(first: ServerProcess, second: ServerProcess, third: ServerProcess, url: str,
                                rng: random.Random) -> list[str]:
    """A room owned by A, seat 0 played through A, seat 1 (joined through B) through B, seats 2
    and 3 bots moving at once on A. Once the game is under way, seat 1 opens a second socket on
    C, which has never had the room in memory: C loads it while A goes on committing. That socket
    must then get every event of the game, once and in order, up to where the test stops."""
    async with httpx.AsyncClient(base_url=first.http, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "palace", "name": "Kati", "seats": 4})
        assert made.status_code == 201, made.text
    room, host_token = made.json()["room"], made.json()["token"]
    host = Client(first.ws, room, host_token)
    await host.connect()  # A loads the room and takes its lease: A owns it
    joined = await _join(second.http, room, "Mari")
    assert joined["seat"] == 1, joined
    remote = Client(second.ws, room, joined["token"])
    await remote.connect()
    for seat in (2, 3):
        assert (await host.host("add_bot", seat=seat, level="easy"))["type"] == "ack"
    assert (await host.host("start"))["type"] == "ack"
    done = asyncio.Event()
    movers = [asyncio.create_task(_keep_moving(p, done, random.Random(rng.random()))) for p in (host, remote)]
    try:
        # Under way: the swap phase is over for some seats (a few moves stored).
        await host.wait_state(lambda s: s["version"] >= 4 or s["outcome"] is not None)
        late = Client(third.ws, room, joined["token"])
        await late.connect()
        joined_at = late.version
        # Well past the load: the moves committed while C was reading the room, and many after.
        await host.wait_state(lambda s: s["version"] >= joined_at + 20 or s["outcome"] is not None,
                              timeout=60)
    finally:
        done.set()
        await asyncio.gather(*movers, return_exceptions=True)
    entries, record = await log_and_record(url, room)
    final = entries[-1].version
    problems = []
    for client, where in ((host, "A"), (remote, "B"), (late, "C")):
        try:
            await client.wait_version(final)
        except TimeoutError:
            problems.append(f"{room}: the socket of seat {client.seat} on {where} stopped at version "
                            f"{client.version} of {final}")
    since: dict[int | None, int] = {m["seat"]: m.get("seat_since") or 0 for m in record.members
                                    if m["status"] == "seated"}
    deal = next(e.version for e in entries if e.kind == "deal")
    for client, where in ((host, "A"), (remote, "B"), (late, "C")):
        versions = _state_versions(client)
        if versions != sorted(set(versions)):
            problems.append(f"{room} seat {client.seat} on {where}: a state came twice or out of order")
        holder = client.seat
        expected = [event_json(entry, row) for entry in entries if entry.version >= deal
                    for row in entry.events if visible(row, holder, entry.version, since.get(holder, 0))]
        # The room's bots play on after the log was read: the events up to that log are compared.
        got = [event for event in _events_of(client) if int(event["version"]) <= final]
        if got != expected:
            missing = sorted({int(e["version"]) for e in expected if e not in got})
            extra = sorted({int(e["version"]) for e in got if e not in expected})
            problems.append(f"{room} seat {holder} on {where} (C's socket connected at version {joined_at}): "
                            f"events of versions {missing} never came, of {extra} came unasked for "
                            f"(state frames at versions {versions})")
    for client in (host, remote, late):
        await client.close()
    return problems


@needs_postgres
async def test_an_instance_that_loads_a_room_while_its_owner_commits_tells_its_sockets_every_event(
        tmp_path: Path) -> None:
    """Three instances: A owns a room whose bots move back to back, B has a player of it, and C
    loads the room for a socket of that player opened mid-game (its database answers are slowed,
    so A commits moves while C reads the room's row, members, snapshot and log). C's socket
    must get every event from the deal on, once and in order, like the sockets on A and B."""
    rng = random.Random(2026)
    async with fresh_postgres() as url:
        relay = SlowAnswers(url, SLOW_ANSWERS)
        await relay.start()
        slow_url = relay.url
        servers = [ServerProcess(tmp_path, url, **LIFTED, **QUICK_BOTS).start(),
                   ServerProcess(tmp_path, url, **LIFTED, **QUICK_BOTS).start()]
        try:
            # Started from a thread: the relay runs on this event loop, which must stay free.
            third = await asyncio.to_thread(ServerProcess(tmp_path, slow_url, **LIFTED, **QUICK_BOTS).start)
            servers.append(third)
            problems: list[str] = []
            for _ in range(3):
                problems += await _loaded_while_playing(servers[0], servers[1], third, url, rng)
            assert problems == [], "\n".join(problems)
        finally:
            # From threads: the third one's shutdown goes through the relay on this event loop.
            await asyncio.gather(*(asyncio.to_thread(server.stop) for server in servers))
            await relay.stop()


# The membership test's stretch: the versions after the deal at which the host frees a seat and a
# newcomer takes it, and the last version played (a random game may run long).
CHANGES_AT = (10, 30)
PLAY_UNTIL = 120
# The third instance hears the others' notifications this much later than they are sent (its reads
# are not slowed): a newcomer's socket may come to it before the owner's word of the join does.
LATE_NEWS = 0.04


def _played_to(version: int) -> Callable[[dict[str, Any]], bool]:
    """The game has reached ``version``, or its end."""
    return lambda state: bool(state["version"] >= version or state["outcome"] is not None)


async def _seat_newcomer(via: ServerProcess, to: ServerProcess, room: str, seat: int, name: str) -> Client:
    """A newcomer joins through ``via`` (which hands the join to the owner) and opens its socket on
    ``to`` at once, without waiting for ``to`` to hear of the join from the owner."""
    joined = await _join(via.http, room, name)
    assert joined["seat"] == seat, joined
    client = Client(to.ws, room, joined["token"])
    try:
        await client.connect()
    except ConnectionError:
        refused = [r.message for r in client.received]
        raise AssertionError(f"{name}'s socket on {to.ws} was refused: {refused}") from None
    return client


class Table:
    """A room's sockets and their movers: each seat's socket moves until its own ``done``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.sockets: list[Client] = []
        self.movers: dict[int, tuple[asyncio.Event, asyncio.Task[None]]] = {}

    def move(self, seat: int, player: Client) -> None:
        done = asyncio.Event()
        task = asyncio.create_task(_keep_moving(player, done, random.Random(self.rng.random())))
        self.movers[seat] = (done, task)

    async def stop(self, seat: int) -> None:
        done, task = self.movers.pop(seat)
        done.set()
        await task

    async def stop_all(self) -> None:
        for seat in list(self.movers):
            await self.stop(seat)


async def _membership_changes(servers: list[ServerProcess], room: str, host_token: str,
                              table: Table) -> bool:
    """The room's seats taken through one follower and connected to the other at once, the game
    started straight after the last, and twice during it a seat freed by the host and taken by a
    newcomer the same way; the game played by every seat at once up to its end (or ``PLAY_UNTIL``).
    Whether a seat changed hands before the end."""
    first, second, third = servers
    host = Client(first.ws, room, host_token)
    await host.connect()  # A owns the room
    admin = Client(first.ws, room, host_token)  # the host's operations, beside its moves
    await admin.connect()
    table.sockets += [host, admin, Client(second.ws, room, None), Client(third.ws, room, None)]
    for client in table.sockets[2:]:
        await client.connect()  # B and C follow the room from here on
    players = [host]
    for seat, via, to in ((1, second, third), (2, third, second), (3, second, third)):
        players.append(await _seat_newcomer(via, to, room, seat, f"P{seat}"))
    table.sockets += players[1:]
    assert (await admin.host("start"))["type"] == "ack"
    deal = (await admin.wait_state(lambda s: s["view"] is not None))["version"]
    for seat, player in enumerate(players):
        table.move(seat, player)
    kicked = False
    for at, (seat, via, to) in zip(CHANGES_AT, ((2, third, second), (1, second, third)), strict=True):
        await admin.wait_state(_played_to(deal + at), timeout=60)
        if admin.state is not None and admin.state["outcome"] is not None:
            break
        await table.stop(seat)
        assert (await admin.host("kick", seat=seat))["type"] == "ack"
        kicked = True
        newcomer = await _seat_newcomer(via, to, room, seat, f"N{seat}")
        table.sockets.append(newcomer)
        table.move(seat, newcomer)
    await admin.wait_state(_played_to(PLAY_UNTIL), timeout=120)
    await table.stop_all()
    return kicked


def _socket_problems(client: Client, entries: list[Any], deal: int, seat: int | None, since: int,
                     whole: bool) -> list[str]:
    """What the socket missed, got twice or out of order of the events its seat may see (held
    since ``since``); a kicked member's socket (not ``whole``) may stop early, at its kick."""
    problems = []
    versions = [v for v in _state_versions(client) if v >= deal]
    if versions != sorted(set(versions)):
        problems.append(f"seat {seat}: a state came twice or out of order: {versions}")
    expected = [event_json(entry, row) for entry in entries if entry.version >= deal
                for row in entry.events if visible(row, seat, entry.version, since)]
    got = [event for event in _events_of(client) if int(event["version"]) >= deal]
    if got != (expected if whole else expected[:len(got)]):
        missing = [(e["version"], e["type"]) for e in expected if e not in got]
        extra = [(e["version"], e["type"]) for e in got if e not in expected]
        problems.append(f"seat {seat} (since {since}) on {client.base}: {len(missing)} events missing "
                        f"{missing}, {len(extra)} extra {extra}")
    return problems


@needs_postgres
async def test_private_events_reach_their_seat_on_every_instance_of_three(tmp_path: Path) -> None:
    """A room owned by A, its seats joined through one of the followers B and C and connected to the
    other at once, started straight after the last join, spectators on B and C; twice during the
    game the host frees a seat and a newcomer takes it, joined through one follower and connected
    to the other at once. C hears the other instances' news late, so a newcomer's socket may reach
    it before the word of the join. Every socket gets exactly the events its seat may see (a
    newcomer's private ones from its joining on), once and in order; a kicked member's up to its
    kick."""
    rng = random.Random(33)
    async with fresh_postgres() as url:
        relay = SlowAnswers(url, LATE_NEWS, news_only=True)
        await relay.start()
        slow_url = relay.url
        servers = [ServerProcess(tmp_path, url, **LIFTED).start() for _ in range(2)]
        try:
            servers.append(await asyncio.to_thread(ServerProcess(tmp_path, slow_url, **LIFTED).start))
            async with httpx.AsyncClient(base_url=servers[0].http, timeout=TIMEOUT) as http:
                made = await http.post("/api/rooms", json={"game": "palace", "name": "Kati", "seats": 4,
                                                           "preset": "hiina-turakas"})
                assert made.status_code == 201, made.text
            room = made.json()["room"]
            table = Table(rng)
            try:
                kicked = await _membership_changes(servers, room, made.json()["token"], table)
            finally:
                await table.stop_all()
            entries, record = await log_and_record(url, room)
            deal = next(e.version for e in entries if e.kind == "deal")
            final = entries[-1].version
            by_token = {m["token_hash"]: m for m in record.members}
            problems: list[str] = []
            for client in table.sockets:
                member = by_token.get(hash_token(client.token)) if client.token is not None else None
                whole = member is None or member["status"] == "seated"
                seat = None if member is None else member["seat"]
                # A kicked member held the seat from the deal; the others since their record says.
                since = deal if not whole else 0 if member is None else member.get("seat_since") or 0
                if whole:
                    await client.wait_version(final)
                problems += _socket_problems(client, entries, deal, seat, since, whole)
            for client in table.sockets:
                await client.close()
            assert kicked and problems == [], "\n".join(problems)
        finally:
            await asyncio.gather(*(asyncio.to_thread(server.stop) for server in servers))
            await relay.stop()
