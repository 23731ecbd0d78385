"""What ``app/web/frames.py`` takes from uvicorn's and websockets' internals (and the Hold'em
evaluator from phevaluator's private module), checked against the installed (locked, exactly
pinned) versions. An upgrade that changes them fails here loudly, naming what to re-check, before
a server silently stops pinging, counting control frames or offering the app its frame writer."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import importlib.metadata
import importlib.util
import inspect
import os
import tomllib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
import websockets
from packaging.requirements import Requirement
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from app.web.frames import EXTENSION, CountingServerProtocol, FrameProtocol, encode
from app.web.guard import TransportLimits
from tests.support import ROOT, free_port

# The sources frames.py was written and tested against. A new version of uvicorn or websockets
# changes these: read the diff of each file for what frames.py uses (the attributes and methods
# named in the tests below: the sans-I/O protocol's __init__, conn, loop, queue, read_paused,
# close_sent, disconnected, transport, scope, handle_connect, handle_parser_exception, the
# pause/resume_writing hooks and the keepalive pings; websockets' ServerProtocol.__init__,
# recv_frame, fail, state, extensions, Frame.serialize), run tests/web/test_frames.py and
# tests/web/test_transport.py, then record the new digests here and the new pins in pyproject.toml.
SOURCES = {
    "uvicorn.protocols.websockets.websockets_sansio_impl":
        "8b32a97a1608788bba525c8b1e0d3eb0a93cd09d0f4f41b9b83cebd527336c49",
    "websockets.protocol": "356dcca7cf7a459bccc7c6bfda3a67135eff3c609506b6cd137cf32f4f8cbc5e",
    "websockets.server": "ee41092f540414ef294c1f74c0fe1f51b9336060dc6e44daee34ef762499b509",
    "websockets.frames": "62cb106e8c23dbadf19bb5e74006a18dc4650381ddcb5592058b61b1fc7c10fb",
}


def pinned(name: str) -> str:
    """The exact version pyproject.toml pins ``name`` to."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for line in deps:
        req = Requirement(line)
        if req.name == name:
            specs = list(req.specifier)
            assert len(specs) == 1 and specs[0].operator == "==", (
                f"{name} must stay pinned exactly: app/web/frames.py relies on its internals ({line})")
            return specs[0].version
    raise AssertionError(f"{name} is not a dependency")


def test_uvicorn_and_websockets_are_the_pinned_versions() -> None:
    assert uvicorn.__version__ == pinned("uvicorn")
    assert websockets.version.version == pinned("websockets")


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_the_internals_frames_py_uses_are_unchanged(module: str) -> None:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, f"{module} is gone: app/web/frames.py imports it"
    with open(spec.origin, "rb") as source:
        digest = hashlib.sha256(source.read()).hexdigest()
    assert digest == SOURCES[module], (
        f"{module} changed ({uvicorn.__version__=}, {websockets.version.version=}): app/web/frames.py "
        f"subclasses and reaches into it; re-check it as this test module's SOURCES comment says")


def test_the_hooks_and_signatures_frames_py_overrides_exist() -> None:
    params = list(inspect.signature(WebSocketsSansIOProtocol.__init__).parameters)
    assert params == ["self", "config", "server_state", "app_state", "_loop"], params
    for name in ("connection_made", "connection_lost", "pause_writing", "resume_writing", "receive",
                 "handle_parser_exception", "handle_connect", "start_keepalive", "send_keepalive_ping"):
        assert callable(getattr(WebSocketsSansIOProtocol, name, None)), name
        # frames.py's override is the one uvicorn's protocol code calls.
    for name in ("connection_made", "connection_lost", "pause_writing", "resume_writing", "receive",
                 "handle_parser_exception", "handle_connect"):
        assert name in FrameProtocol.__dict__, name
    server = inspect.signature(ServerProtocol.__init__).parameters
    assert {"extensions", "max_size", "logger"} <= set(server), list(server)
    assert list(inspect.signature(Protocol.recv_frame).parameters) == ["self", "frame"]
    assert list(inspect.signature(Protocol.fail).parameters) == ["self", "code", "reason"]
    assert issubclass(CountingServerProtocol, ServerProtocol)
    assert encode("hi") == b"\x81\x02hi"


async def echo_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accepts a socket and writes one frame through the writer FrameProtocol offers."""
    assert scope["type"] == "websocket"
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    offer = scope["extensions"].get(EXTENSION)
    if offer is not None:
        offer["write"](encode("written by the app"))
    while (await receive())["type"] != "websocket.disconnect":
        pass


@pytest.fixture
async def served() -> AsyncIterator[int]:
    """FrameProtocol in uvicorn, pinging every 50 ms, on a free port."""
    port = free_port()
    config = uvicorn.Config(echo_app, host="127.0.0.1", port=port, lifespan="off", log_level="warning",
                            ws=FrameProtocol.configured(TransportLimits()), ws_per_message_deflate=False,
                            ws_ping_interval=0.05, ws_ping_timeout=20.0)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), task
        await asyncio.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        await task


async def next_frame(reader: asyncio.StreamReader, buffer: bytearray) -> Frame:
    while True:
        stream = StreamReader()
        stream.feed_data(bytes(buffer))
        parser = Frame.parse(stream.read_exact, mask=False)
        try:
            next(parser)
        except StopIteration as done:
            frame: Frame = done.value
            del buffer[:len(buffer) - len(stream.buffer)]
            return frame
        data = await reader.read(65536)
        assert data, "the server closed the connection"
        buffer.extend(data)


@pytest.mark.timeout(60)  # without pings the wait below would never end: fail instead of hanging
async def test_frame_protocol_offers_its_writer_and_sends_keepalive_pings(served: int) -> None:
    """Below uvicorn 0.44 the sans-I/O protocol sent no pings at all (ws_ping_interval did nothing)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", served)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{served}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                 .encode())
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    buffer = bytearray()
    first = await next_frame(reader, buffer)
    assert (first.opcode, first.data) == (Opcode.TEXT, b"written by the app")
    pings = 0
    while pings < 2:  # the keepalive goes on after the first pong
        frame = await next_frame(reader, buffer)
        assert frame.opcode is Opcode.PING, frame
        pings += 1
        writer.write(bytes(Frame(Opcode.PONG, frame.data).serialize(mask=True, extensions=[])))
    writer.close()


def test_phevaluators_private_evaluators_are_there_and_agree_with_its_public_one() -> None:
    """The Hold'em evaluator calls phevaluator's private ``_pheval`` (pinned exactly for it)."""
    import phevaluator
    from phevaluator import _pheval  # type: ignore[import-untyped]

    assert importlib.metadata.version("phevaluator") == pinned("phevaluator")
    royal = [48, 44, 40, 36, 32]  # A K Q J T of clubs: rank * 4 + suit
    cards = [*royal, 0, 5]
    assert _pheval.evaluate_5cards(*royal) == 1
    assert _pheval.evaluate_6cards(*cards[:6]) == 1
    assert _pheval.evaluate_7cards(*cards) == phevaluator.evaluate_cards(*cards) == 1
