"""The transport's bounds against a real server (``python -m app``, and a program embedding the app
in uvicorn with ``app.web.launch``'s options and the h11 parser),
each a small fixed-size version of an attack over real sockets: control-frame floods from a
socket that never reads, a spectator that never reads, half-open HTTP requests, an oversized
header, two Host headers. Limits are set small so each runs in seconds; every wait is for an
event (a close, a frame, a count), never for a time."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import re
import selectors
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.frames import Close, Frame, Opcode
from websockets.streams import StreamReader

from tests.e2e.client import Client, make_room, seat_clients, watchers
from tests.support import ServerProcess

CONTROL_BURST = 20
PER_ADDRESS = 24
LIMITS = {
    # The flood tests' sockets say no hello: they must not be closed for that meanwhile.
    "HOUSERULES_HELLO_TIMEOUT": "600",
    "HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000",
    "HOUSERULES_WS_CONTROL_RATE": "1", "HOUSERULES_WS_CONTROL_BURST": str(CONTROL_BURST),
    "HOUSERULES_WS_WRITE_MARK": "4096", "HOUSERULES_WS_WRITE_LIMIT": "65536",
    "HOUSERULES_WS_STALL_SECONDS": "0.5",
    # A small kernel buffer: what a silent socket leaves unread reaches the write mark within a
    # few lines, whatever the kernel's own buffer would have grown to.
    "HOUSERULES_WS_SEND_BUFFER": "4096",
    "HOUSERULES_HTTP_REQUEST_TIMEOUT": "2",
    "HOUSERULES_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
    "HOUSERULES_CONNECTIONS_PER_SECOND": "1000", "HOUSERULES_CONNECTIONS_BURST": "1000",
    # Loopback is not a proxy here: its connections count per address.
    "HOUSERULES_TRUSTED_PROXIES": "192.0.2.1",
    "HOUSERULES_MAX_SPECTATORS": "2",
    "HOUSERULES_CHAT_PER_MINUTE": "1000000", "HOUSERULES_CHAT_BURST": "1000000",
}
MAX_CONNECTIONS = 8  # in all, on the embedding launcher's server
READ_TIMEOUT = 60.0  # only ever reached when the server fails to close a socket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("transport"), **LIMITS).start()
    try:
        yield proc
    finally:
        proc.stop()


EMBEDDING = """
import uvicorn
from app.config import Settings
from app.main import create_app
from app.web import launch
settings = Settings()
uvicorn.run(create_app(settings, http="h11", websocket="websockets-sansio"), host=settings.host,
            port=settings.port, **launch.uvicorn_options(settings, "h11"))
"""


class EmbeddedServer(ServerProcess):
    """The app in a program of its own that runs uvicorn with ``app.web.launch``'s options, as the
    README says to embed it, here with the h11 parser (``python -m app`` serves with httptools)."""

    def command(self) -> list[str]:
        return [sys.executable, "-c", EMBEDDING]


def metric(server: ServerProcess, name: str, **labels: str) -> float:
    text = httpx.get(f"{server.http}/metrics").text
    selector = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = rf"^{name}{{{re.escape(selector)}}} ([0-9.e+]+)$" if labels else rf"^{name} ([0-9.e+]+)$"
    found = re.search(pattern, text, re.M)
    return float(found.group(1)) if found else 0.0


def upgrade(port: int, *, rcvbuf: int = 4096, path: str = "/ws/nowhere") -> socket.socket:
    """A raw WebSocket after its handshake; a small receive buffer, so a socket that does not read
    fills the server's side soon."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                 .encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)
        assert byte, head
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def client_frame(opcode: Opcode, data: bytes = b"", fin: bool = True) -> bytes:
    return bytes(Frame(opcode, data, fin=fin).serialize(mask=True, extensions=[]))


def flood(sock: socket.socket, frame: bytes, count: int) -> int:
    """Send ``frame`` ``count`` times without reading; how many went out before the server cut."""
    batch = frame * 100
    sent = 0
    try:
        while sent < count:
            sock.sendall(batch)
            sent += 100
    except OSError:  # closed or reset by the server: the point
        pass
    return sent


def read_to_end(sock: socket.socket) -> tuple[bytes, bool]:
    """Everything the server sent until it closed; and whether it ended with a reset."""
    sock.settimeout(READ_TIMEOUT)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data, True
        except TimeoutError:
            raise AssertionError(f"the server kept the socket open ({len(data)} bytes read)") from None
        if not chunk:
            return data, False
        data += chunk


def read_response(sock: socket.socket) -> bytes:
    """One HTTP response: its head and its ``content-length`` bytes of body."""
    sock.settimeout(READ_TIMEOUT)
    data = b""
    while b"\r\n\r\n" not in data or len(data) < _expected(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _expected(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    found = re.search(rb"(?im)^content-length: *(\d+)", head)
    return len(head) + 4 + (int(found.group(1)) if found else 0)


def server_frames(data: bytes) -> list[Frame]:
    """The whole frames in ``data`` (a reset may cut the last one short)."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    found: list[Frame] = []
    while True:
        parser = Frame.parse(reader.read_exact, mask=False)
        try:
            next(parser)
        except StopIteration as done:
            found.append(done.value)
        except EOFError:
            return found
        else:
            return found


async def honest_room(server: ServerProcess) -> tuple[list[Client], list[Client]]:
    room, tokens = await make_room(server.http, 2)
    players, watchers = await seat_clients(server.ws, room, tokens, spectators=0)
    assert (await players[0].host("start"))["type"] == "ack"
    await players[0].wait_state(lambda s: s["view"] is not None)
    return players, watchers


async def one_move(players: list[Client]) -> dict[str, Any]:
    for player in players:
        await player.wait_state(lambda s: True)
    mover = next(p for p in players if p.state is not None and p.state["legal"])
    assert mover.state is not None
    return await mover.act(mover.state["legal"][0], version=mover.state["version"])


FLOODS = {
    "pings of 125 bytes": (b"", client_frame(Opcode.PING, b"x" * 125)),
    "empty pings": (b"", client_frame(Opcode.PING)),
    "empty continuation frames": (client_frame(Opcode.TEXT, b"{", fin=False),
                                  client_frame(Opcode.CONT, fin=False)),
}


@pytest.mark.parametrize("kind", list(FLOODS))
async def test_a_control_frame_flood_closes_the_socket_and_the_room_moves_on(
        server: ServerProcess, kind: str) -> None:
    players, _ = await honest_room(server)
    closes = metric(server, "houserules_socket_closes_total", reason="control")
    opening, frame = FLOODS[kind]
    sock = upgrade(server.port)
    try:
        sock.sendall(opening)
        flooding = asyncio.create_task(asyncio.to_thread(flood, sock, frame, 20_000))
        # A move of the honest room while the flood runs is acknowledged.
        assert (await one_move(players))["type"] == "ack"
        await flooding
        data, reset = await asyncio.to_thread(read_to_end, sock)
    finally:
        sock.close()
    received = server_frames(data)
    pongs = [f for f in received if f.opcode is Opcode.PONG]
    # The server answered at most the burst: it holds no pong for the rest.
    assert len(pongs) <= CONTROL_BURST, len(pongs)
    closing = [Close.parse(f.data) for f in received if f.opcode is Opcode.CLOSE]
    assert reset or closing, "the socket ended without a close frame or a reset"
    assert all(c.code == 1008 for c in closing), closing
    assert metric(server, "houserules_socket_closes_total", reason="control") > closes
    assert (await one_move(players))["type"] == "ack"
    for player in players:
        await player.close()


async def test_a_spectator_that_never_reads_is_aborted_and_its_slot_freed(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2)
    players, others = await seat_clients(server.ws, room, tokens, spectators=1)
    aborts = _aborts(server)
    # The second spectator says hello and then never reads again: the room is at its limit (2).
    silent = upgrade(server.port, rcvbuf=1024, path=f"/ws/{room}")
    silent.sendall(client_frame(Opcode.TEXT, b'{"type":"hello","token":null}'))
    await watchers(others[0], 2)
    while not others[0].queue.empty():  # what came before is read: the next count is new
        others[0].queue.get_nowait()
    refused = Client(server.ws, room, None)
    with pytest.raises((ConnectionError, TimeoutError, AssertionError)):
        await refused.connect()
    # The room talks: every line goes to every socket, the silent one's bytes pile up.
    line = "x" * 290
    # The reading spectator watches the room's count (the player's socket takes the chat replies).
    freed = asyncio.create_task(watchers(others[0], 1, timeout=READ_TIMEOUT))
    for n in range(5000):
        if freed.done():
            break
        reply = await asyncio.wait_for(_chat(players[0], f"{n} {line}"), 30)
        assert reply["type"] == "ack", reply
    await asyncio.wait_for(freed, 30)
    silent.close()
    assert _aborts(server) > aborts
    # The freed slot takes a new spectator.
    newcomer = Client(server.ws, room, None)
    await newcomer.connect()
    assert newcomer.seat is None
    for client in (*players, *others, newcomer):
        await client.close()


def _aborts(server: ServerProcess) -> float:
    reasons = ("stalled", "slow", "unread")
    return sum(metric(server, "houserules_socket_aborts_total", reason=r) for r in reasons)


async def _chat(player: Client, text: str) -> dict[str, Any]:
    msg_id = f"c-{id(text)}-{len(player.received)}"
    await player.send({"type": "chat", "id": msg_id, "text": text})
    return await player.reply(msg_id)


def _half_open(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def _answers(socks: list[socket.socket]) -> list[tuple[bytes, float]]:
    """What the server sent each socket until it closed it, and when that close was seen: read
    side by side, so each time is the close's own, not the turn of a socket read in sequence."""
    found: list[tuple[bytes, float] | None] = [None] * len(socks)
    data = [b""] * len(socks)
    with selectors.DefaultSelector() as selector:
        for index, sock in enumerate(socks):
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, index)
        while selector.get_map():
            events = selector.select(READ_TIMEOUT)
            assert events, f"the server kept {len(selector.get_map())} sockets open"
            for key, _ in events:
                index = key.data
                try:
                    chunk = socks[index].recv(65536)
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    data[index] += chunk
                    continue
                found[index] = (data[index], time.monotonic())
                selector.unregister(socks[index])
    return [answer for answer in found if answer is not None]


def test_half_open_requests_time_out_and_a_newcomer_is_served(server: ServerProcess) -> None:
    opened: list[tuple[float, float]] = []  # when each connect began and when it returned
    slow = []
    for _ in range(3 * PER_ADDRESS):
        began = time.monotonic()
        slow.append(_half_open(server.port))
        opened.append((began, time.monotonic()))
    try:
        # Another address (127.0.0.2, still loopback) gets its page while all those are open.
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as newcomer:
            page = newcomer.get(f"{server.http}/")
        assert page.status_code == 200
        answers = _answers(slow)
    finally:
        for sock in slow:
            sock.close()
    statuses = [int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None for data, _ in answers]
    # Each request either waited out its time (408) or was refused at once, past the per-address
    # limit (429); at least the limit's worth waited, and the rest were refused.
    assert set(statuses) == {408, 429}, statuses
    assert statuses.count(408) >= PER_ADDRESS, statuses
    # Each refusal came while the limit's worth of waiting requests were open: the client's own
    # times bound the server's (a waiting request was open from before its connect began until
    # after its close was seen; a refused one was accepted after its connect returned and before
    # its close was seen), so a refusal with fewer open is one the limit did not call for. How
    # long the connects took, against the request timeout, decides only how many are refused.
    waiting = [(opened[i][0], answers[i][1]) for i, status in enumerate(statuses) if status == 408]
    for i, status in enumerate(statuses):
        if status != 429:
            continue
        start, end = opened[i][1], answers[i][1]
        moments = [start] + [began for began, _ in waiting if start <= began <= end]
        most = max(sum(1 for began, closed in waiting if began <= t <= closed) for t in moments)
        assert most >= PER_ADDRESS, (i, most)
    assert httpx.get(f"{server.http}/healthz").status_code == 200


def test_an_oversized_header_is_refused(server: ServerProcess) -> None:
    sock = socket.create_connection(("127.0.0.1", server.port))
    try:
        header = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (4 << 20)
        def send() -> None:
            with contextlib.suppress(OSError):  # the server stops reading and closes: the point
                sock.sendall(header)

        sender = threading.Thread(target=send)
        sender.start()
        data, _ = read_to_end(sock)
        sender.join()
    finally:
        sock.close()
    assert data.startswith(b"HTTP/1.1 431 "), data[:200]
    assert b'"code":"headers_too_large"' in data


def test_two_host_headers_are_refused(server: ServerProcess) -> None:
    two_hosts_refused(server, by_the_app=True)


def two_hosts_refused(server: ServerProcess, by_the_app: bool) -> None:
    """400 for a request and an upgrade with two Host headers: the app's answer, or (h11, which
    refuses them itself) the parser's."""
    for path, extra in (("/healthz", b""), ("/ws/nowhere", b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                                        b"Sec-WebSocket-Version: 13\r\n")):
        sock = socket.create_connection(("127.0.0.1", server.port))
        try:
            sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n"
                         + extra + b"\r\n")
            data = read_response(sock)
        finally:
            sock.close()
        assert data.startswith(b"HTTP/1.1 400 "), (path, data[:200])
        if by_the_app:
            assert b'"code":"duplicate_host"' in data, (path, data)


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = EmbeddedServer(tmp_path_factory.mktemp("embedded"), **LIMITS,
                         HOUSERULES_MAX_CONNECTIONS=str(MAX_CONNECTIONS)).start()
    try:
        yield proc
    finally:
        proc.stop()


def test_an_embedding_launcher_on_h11_has_the_same_bounds(embedded_server: ServerProcess) -> None:
    sock = upgrade(embedded_server.port)
    try:
        flood(sock, client_frame(Opcode.PING, b"x" * 125), 20_000)
        data, reset = read_to_end(sock)
    finally:
        sock.close()
    received = server_frames(data)
    assert len([f for f in received if f.opcode is Opcode.PONG]) <= CONTROL_BURST
    assert reset or any(f.opcode is Opcode.CLOSE for f in received)
    two_hosts_refused(embedded_server, by_the_app=False)
    test_an_oversized_header_is_refused(embedded_server)
    # Connections in all: past the limit one is refused at once, the others time out.
    held = [_half_open(embedded_server.port) for _ in range(MAX_CONNECTIONS + 1)]
    try:
        answers = [read_to_end(sock)[0] for sock in held]
    finally:
        for sock in held:
            sock.close()
    statuses = [int(data.split(b" ", 2)[1]) for data in answers]
    assert statuses == [408] * MAX_CONNECTIONS + [503], statuses
    assert b'"code":"server_busy"' in answers[-1]


class _Peer:
    def __init__(self, host: str) -> None:
        self.host = host

    def get_extra_info(self, name: str) -> Any:
        return (self.host, 40000) if name == "peername" else None


def test_connections_count_per_address_ipv6_per_64_and_trusted_proxies_not_at_all() -> None:
    from app.rooms.limits import address_key
    from app.web.guard import Peers, TransportLimits

    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7"
    peers = Peers(TransportLimits(per_address=2, trusted_proxies="10.0.0.1"))
    first, second, third = _Peer("2001:db8:1:2::1"), _Peer("2001:db8:1:2::2"), _Peer("2001:db8:1:2::3")
    assert peers.admit(first) and peers.admit(second)  # type: ignore[arg-type]
    assert not peers.admit(third)  # type: ignore[arg-type]
    assert peers.admit(_Peer("2001:db8:1:3::1"))  # type: ignore[arg-type]  # another /64
    assert all(peers.admit(_Peer("10.0.0.1")) for _ in range(5))  # type: ignore[arg-type]
    peers.release(first)  # type: ignore[arg-type]
    assert peers.admit(third)  # type: ignore[arg-type]
    peers.release(_Peer("10.0.0.1"))  # type: ignore[arg-type]  # never counted: nothing to release


def test_new_connections_per_address_have_a_rate() -> None:
    from app.web.guard import Peers, TransportLimits

    peers = Peers(TransportLimits(per_address=0, connect_rate=0.001, connect_burst=3))
    client = _Peer("198.51.100.7")
    assert [peers.admit(client) for _ in range(4)] == [True, True, True, False]  # type: ignore[arg-type]
    assert peers.admit(_Peer("198.51.100.8"))  # type: ignore[arg-type]  # another address
