"""Origin and Host with and without HOUSERULES_PUBLIC_ORIGIN, trusted proxies for client addresses,
uvicorn's own factory launcher refused, and the start-up line."""

from __future__ import annotations

import asyncio
import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from app.main import REFUSED_FACTORY
from tests.e2e.client import Client, make_room
from tests.support import LIFTED_LIMITS, ROOT, ServerProcess, free_port

FRIEND = "https://friends.example"


async def upgrade_status(port: int, host: str, origin: str | None) -> int:
    """The HTTP status of a raw WebSocket upgrade with exactly these Host and Origin headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws/nothing HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return int(status.split()[1])


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("public"), HOUSERULES_ALLOWED_ORIGINS=FRIEND)
    proc.env["HOUSERULES_PUBLIC_ORIGIN"] = f"http://127.0.0.1:{proc.port}"
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("lan"), HOUSERULES_ALLOWED_ORIGINS=FRIEND).start()
    try:
        yield proc
    finally:
        proc.stop()


async def test_with_a_public_origin_only_it_and_the_allowed_ones_open_sockets(public: ServerProcess) -> None:
    room, tokens = await make_room(public.http, 2)
    own = f"127.0.0.1:{public.port}"
    for origin in (public.http, FRIEND, None):
        client = Client(public.ws, room, tokens[0])
        await client.connect(origin=origin)
        await client.close()
    # The public host with a foreign page, the page's own host when it is not the public one
    # (DNS rebinding: evil.example resolving here), and a wrong Host even from the right origin.
    assert await upgrade_status(public.port, own, "https://evil.example") == 403
    for name in ("evil.example", "localhost"):
        host = f"{name}:{public.port}"
        assert await upgrade_status(public.port, host, f"http://{host}") == 403
    assert await upgrade_status(public.port, f"evil.example:{public.port}", public.http) == 403
    assert await upgrade_status(public.port, f"evil.example:{public.port}", None) == 403
    assert await upgrade_status(public.port, own, public.http) == 101
    assert await upgrade_status(public.port, own, FRIEND) == 101


async def test_without_a_public_origin_the_pages_own_host_may_open_sockets(lan: ServerProcess) -> None:
    # LAN use: whatever name the server is reached by, a page from that same name may connect.
    assert await upgrade_status(lan.port, f"cards.lan:{lan.port}", f"http://cards.lan:{lan.port}") == 101
    assert await upgrade_status(lan.port, f"cards.lan:{lan.port}", FRIEND) == 101
    assert await upgrade_status(lan.port, f"cards.lan:{lan.port}", f"http://other.lan:{lan.port}") == 403
    assert await upgrade_status(lan.port, f"cards.lan:{lan.port}", None) == 101


def test_client_addresses_come_from_trusted_proxies_only(tmp_path: Path) -> None:
    limited = {"HOUSERULES_ROOMS_PER_MINUTE": "2"}
    body = {"game": "palace", "name": "K", "seats": 2}
    for trusted, expected in (("127.0.0.1", [201, 201, 201, 201]), ("10.9.9.9", [201, 201, 429, 429])):
        (tmp_path / trusted).mkdir()
        server = ServerProcess(tmp_path / trusted, HOUSERULES_TRUSTED_PROXIES=trusted, **limited).start()
        try:
            statuses = [httpx.post(server.http + "/api/rooms", json=body, timeout=10,
                                   headers={"X-Forwarded-For": client}).status_code
                        for client in ("203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2")]
        finally:
            server.stop()
        # Behind a trusted proxy each client has its own allowance; otherwise X-Forwarded-For is
        # not believed and every request counts against the connecting address.
        assert statuses == expected, (trusted, statuses)


async def _no_deflate(ws_url: str) -> None:
    # The client offers per-message deflate (websockets' default); the server must decline.
    async with websockets.connect(ws_url) as ws:
        assert ws.response is not None
        assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
        assert ws.protocol.extensions == []


async def test_python_m_app_declines_compression_and_says_where_it_listens(lan: ServerProcess) -> None:
    room, _ = await make_room(lan.http, 2)
    await _no_deflate(f"{lan.ws}/ws/{room}")
    log = lan.log.read_text()
    assert f"Houserules listening on http://127.0.0.1:{lan.port}" in log
    assert "database sqlite+aiosqlite:///" in log and "limits: body 65536 B" in log
    # uvicorn's standard extras are installed with the app and used.
    assert "event loop uvloop, HTTP parser httptools, WebSocket websockets-sansio" in log


def test_uvicorn_factory_is_refused_with_the_way_to_start(tmp_path: Path) -> None:
    """``uvicorn --factory app.main:create_app`` would serve with uvicorn's own protocols and options
    (per-message deflate, 16 MiB frames, none of the transport's limits): the app refuses to start
    under it and says how to start instead."""
    env = {**os.environ, **LIFTED_LIMITS, "HOUSERULES_DATA_DIR": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    for factory in (["--factory"], []):  # uvicorn also calls a factory it was not told about
        result = subprocess.run([sys.executable, "-m", "uvicorn", *factory, "app.main:create_app",
                                 "--host", "127.0.0.1", "--port", str(free_port())],
                                cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                                check=False)
        assert result.returncode != 0, result.stdout + result.stderr
        assert REFUSED_FACTORY in result.stderr, result.stderr
        assert "Uvicorn running" not in result.stdout + result.stderr
    assert "python -m app" in REFUSED_FACTORY and "uvicorn_options" in REFUSED_FACTORY
