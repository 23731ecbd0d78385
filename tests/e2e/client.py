"""A scripted player over a real WebSocket, and helpers to set rooms up and play whole games."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

TIMEOUT = 10.0
_ids = itertools.count(1)


@dataclass
class Received:
    message: dict[str, Any]
    # The highest state version this connection had seen before this message.
    known: int


@dataclass
class Client:
    """One socket: records every message it receives (for the leak checks) in order."""

    base: str
    room: str
    token: str | None
    name: str = ""
    ws: Any = None
    seat: int | None = None
    state: dict[str, Any] | None = None
    received: list[Received] = field(default_factory=list)
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int | None = None
    # Bytes pledged by their hash (commitment -> bytes), sent as a page does once the round's
    # hashes are sealed (docs/fairness.md, step 3); the commitments they were sent for.
    pledges: dict[str, str] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    _sending: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def version(self) -> int:
        return -1 if self.state is None else int(self.state["version"])

    async def connect(self, last_version: int | None = None, origin: str | None = None) -> dict[str, Any]:
        headers = {"Origin": origin} if origin else None
        self.ws = await websockets.connect(f"{self.base}/ws/{self.room}", additional_headers=headers,
                                           max_size=2**22, compression=None, open_timeout=TIMEOUT)
        self.closed.clear()
        self.state = None
        self.queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())
        begin = len(self.received)
        await self.send({"type": "hello", "token": self.token, "last_version": last_version})
        welcome = await self.expect("welcome")
        self.seat = welcome["seat"]
        await self.wait_state(lambda s: True)
        # The room message ends what a new socket is sent (after its state and the chat so far).
        deadline = time.monotonic() + TIMEOUT
        while not any(r.message["type"] == "room" for r in self.received[begin:]):
            if time.monotonic() > deadline:
                raise TimeoutError("no room message after the welcome")
            await asyncio.sleep(0.002)
        return welcome

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                self.received.append(Received(message, self.version))
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "welcome":
                    self.seat = message["seat"]
                elif message["type"] == "room":
                    self._reveal(message.get("fair") or {})
                await self.queue.put(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    def _reveal(self, fair: dict[str, Any]) -> None:
        """Phase two: the pledged bytes, once the round's hashes (this seat's among them) are sealed."""
        commitment = fair.get("commitment")
        value = self.pledges.get(str(commitment))
        if (value is None or not fair.get("sealed") or commitment in self.revealed
                or self.seat not in (fair.get("hashed") or [])):
            return
        self.revealed.add(str(commitment))
        task = asyncio.create_task(self.send({"type": "entropy", "id": f"r-{next(_ids)}",
                                              "commitment": commitment, "bytes": value}))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def pledge(self, commitment: str, value: str) -> dict[str, Any]:
        """Phase one: the SHA-256 of ``value`` for ``commitment``; the answer (``contributed`` or an
        error). The bytes follow by themselves when the round's hashes are sealed."""
        msg_id = f"h-{next(_ids)}"
        self.pledges[commitment] = value
        await self.send({"type": "entropy", "id": msg_id, "commitment": commitment,
                         "hash": hashlib.sha256(bytes.fromhex(value)).hexdigest()})
        while True:
            message = await self.next()
            if message.get("id") == msg_id and message["type"] in ("contributed", "error"):
                return message

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message; ``ConnectionError`` once the socket is closed and drained."""
        if not self.queue.empty():
            return self.queue.get_nowait()
        get = asyncio.ensure_future(self.queue.get())
        closed = asyncio.ensure_future(self.closed.wait())
        done, _ = await asyncio.wait({get, closed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        closed.cancel()
        if get in done:
            return get.result()
        get.cancel()
        if self.closed.is_set():
            raise ConnectionError(f"socket closed ({self.close_code})")
        raise TimeoutError("no message")

    async def expect(self, kind: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """The next message of ``kind`` (matching ``match``); other messages are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    async def reply(self, msg_id: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The ack or error answering ``msg_id``."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            if message["type"] in ("ack", "error") and message.get("id") == msg_id:
                return message

    async def wait_state(self, ok: Callable[[dict[str, Any]], bool],
                         timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while self.state is None or not ok(self.state):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no such state; last {self.state and self.state['version']}")
            await asyncio.sleep(0.002)
        return self.state

    async def wait_version(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        return await self.wait_state(lambda s: s["version"] >= version, timeout)

    async def act(self, action: dict[str, Any], **extra: Any) -> dict[str, Any]:
        msg_id = f"m-{next(_ids)}"
        await self.send({"type": "action", "id": msg_id, "action": action, **extra})
        return await self.reply(msg_id)

    async def host(self, op: str, **args: Any) -> dict[str, Any]:
        msg_id = f"h-{next(_ids)}"
        await self.send({"type": "host", "id": msg_id, "op": op, **args})
        return await self.reply(msg_id)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait_for(self.closed.wait(), TIMEOUT)

    async def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        await asyncio.wait_for(self.closed.wait(), timeout)
        return self.close_code


async def make_room(http: str, players: int, *, preset: str | None = None,
                    options: dict[str, Any] | None = None, game: str = "palace",
                    approval: bool = False) -> tuple[str, list[str]]:
    """A room with ``players`` seated people; returns the room id and their tokens (seat order)."""
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        body: dict[str, Any] = {"game": game, "name": "Kati", "seats": players, "approval": approval}
        if preset:
            body["preset"] = preset
        if options:
            body["options"] = options
        made = await client.post("/api/rooms", json=body)
        assert made.status_code == 201, made.text
        room = made.json()
        tokens = [room["token"]]
        for i in range(1, players):
            joined = await client.post(f"/api/rooms/{room['room']}/join", json={"name": f"P{i}"})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
    return room["room"], tokens


async def seat_clients(ws_base: str, room: str, tokens: list[str], spectators: int = 1
                       ) -> tuple[list[Client], list[Client]]:
    players = [Client(ws_base, room, token) for token in tokens]
    watchers = [Client(ws_base, room, None) for _ in range(spectators)]
    for client in players + watchers:
        await client.connect()
    return players, watchers


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    # Voluntary pick-ups make random games very long: prefer other moves most of the time.
    others = [a for a in legal if "pick" not in str(a.get("type", ""))]
    if others and rng.random() < 0.97:
        return rng.choice(others)
    return rng.choice(legal)


Chooser = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]


async def play_moves(players: list[Client], everyone: list[Client], rng: random.Random,
                     limit: int | None = None, max_moves: int = 5000, chooser: Chooser = choose) -> int:
    """Random legal moves, one at a time, each waited for at every socket; stops at the outcome."""
    moves = 0
    while limit is None or moves < limit:
        state = players[0].state
        assert state is not None
        if state["outcome"] is not None:
            return moves
        assert moves < max_moves, "the game did not end"
        movers = [p for p in players if p.state and p.state["legal"]]
        assert movers, f"nobody can move at version {state['version']}"
        mover = rng.choice(movers)
        assert mover.state is not None
        reply = await mover.act(chooser(mover.state["legal"], rng), version=mover.state["version"])
        assert reply["type"] == "ack", reply
        for client in everyone:
            await client.wait_version(reply["version"])
        moves += 1
    return moves


def watchers_told(message: dict[str, Any]) -> int | None:
    """The watcher count a message tells: a ``room`` message's, or a ``spectators`` message's."""
    if message["type"] == "room":
        return int(message["spectators"])
    if message["type"] == "spectators":
        return int(message["count"])
    return None


async def watchers(client: Client, count: int, timeout: float = TIMEOUT) -> None:
    """Waits until the latest watcher count this socket was told is ``count``."""
    told = next((n for n in (watchers_told(r.message) for r in reversed(client.received)) if n is not None),
                None)
    deadline = time.monotonic() + timeout
    while told != count:
        said = watchers_told(await client.next(max(0.01, deadline - time.monotonic())))
        told = said if said is not None else told


async def room_message(client: Client, ok: Any) -> dict[str, Any]:
    """The latest room message this socket received that satisfies ``ok`` (waits for one)."""
    for received in reversed(client.received):
        if received.message["type"] == "room" and ok(received.message):
            return received.message
    while True:
        message = await client.expect("room")
        if ok(message):
            return message
