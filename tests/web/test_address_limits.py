"""Per-address limits against a real server: hellos a second per address (spectators and players
alike), an IPv6 client counted by its /64, the client taken from the right end of X-Forwarded-For
(an address the client wrote at its left is never believed), a proxy missing from the trusted
list warned about, waits said in whole seconds; /metrics, /docs and /redoc closed to strangers;
messages that used to end in a traceback answered as ``bad_message``."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.client import TIMEOUT, make_room
from tests.support import ServerProcess

LIMITS = {
    "HOUSERULES_ROOMS_PER_MINUTE": "2",
    "HOUSERULES_HELLOS_PER_SECOND": "0.2",
    "HOUSERULES_HELLOS_BURST": "3",
    "HOUSERULES_METRICS_TOKEN": "metrics-secret-0123456789",
}
_addresses = itertools.count(1)


def address() -> str:
    return f"198.51.100.{next(_addresses)}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("address-limits"), **LIMITS).start()
    try:
        yield proc
    finally:
        proc.stop()


async def hello(server: ServerProcess, room: str, client: str, token: str | None = None) -> dict[str, Any]:
    """The first answer to a hello from ``client`` (through a trusted proxy on loopback), and how the
    socket ended if it was closed at once."""
    async with websockets.connect(f"{server.ws}/ws/{room}", additional_headers={"X-Forwarded-For": client},
                                  origin=server.http) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": token}))
        first: dict[str, Any] = json.loads(await ws.recv())
        if first["type"] == "error":
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 1008
        return first


async def test_hellos_are_limited_per_address(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2)
    crowd = address()
    answers = [(await hello(server, room, crowd))["type"] for _ in range(3)]
    assert answers == ["welcome"] * 3
    # The burst is spent (0.2 a second refills one in 5 s): the next hello, a spectator's or a
    # player's, is refused with a wait in whole seconds.
    for token in (None, tokens[1]):
        refused = await hello(server, room, crowd, token)
        assert refused["code"] == "rate_limited" and refused["retry_after"] >= 1, refused
        assert isinstance(refused["retry_after"], int)
        assert f"{refused['retry_after']} second" in refused["message"]
    # Another address is not held back.
    assert (await hello(server, room, address(), tokens[0]))["type"] == "welcome"


def create_room(server: ServerProcess, forwarded_for: str) -> httpx.Response:
    return httpx.post(server.http + "/api/rooms", json={"game": "palace", "name": "K", "seats": 2},
                      headers={"X-Forwarded-For": forwarded_for}, timeout=TIMEOUT)


def test_an_ipv6_client_is_counted_by_its_64_prefix(server: ServerProcess) -> None:
    statuses = [create_room(server, f"2001:db8:5:7::{n:x}").status_code for n in (1, 2, 0xbeef)]
    # One host may use any address of its /64: the third address in it is over the allowance of 2.
    assert statuses == [201, 201, 429]
    refused = create_room(server, "2001:db8:5:7:ffff:1:2:3")
    assert refused.status_code == 429
    retry = refused.headers["Retry-After"]
    assert retry.isdigit() and int(retry) >= 1 and f"{retry} second" in refused.json()["message"]
    # The next /64 is another client.
    assert create_room(server, "2001:db8:5:8::1").status_code == 201


def test_a_client_cannot_choose_its_address_by_writing_x_forwarded_for(server: ServerProcess) -> None:
    # The proxy (trusted loopback) appended the client's real address: whatever the client wrote
    # before it changes nothing.
    real = address()
    statuses = [create_room(server, f"10.0.0.{n}, {real}").status_code for n in range(1, 5)]
    assert statuses == [201, 201, 429, 429]


def test_a_proxy_missing_from_the_trusted_list_is_warned_about(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, HOUSERULES_TRUSTED_PROXIES="10.9.9.9").start()
    try:
        for client in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
            assert create_room(server, client).status_code == 201
    finally:
        server.stop()
    log = server.log.read_text()
    # Said once, naming the proxy and the setting.
    assert log.count("is not among the trusted proxies") == 1, log[-2000:]
    assert "127.0.0.1 with X-Forwarded-For" in log and "HOUSERULES_TRUSTED_PROXIES" in log


def test_metrics_need_the_token_and_docs_are_off(server: ServerProcess) -> None:
    url = server.http + "/metrics"
    assert httpx.get(url, timeout=TIMEOUT).status_code == 404
    assert httpx.get(url, headers={"Authorization": "Bearer wrong"}, timeout=TIMEOUT).status_code == 404
    answer = httpx.get(url, headers={"Authorization": f"Bearer {LIMITS['HOUSERULES_METRICS_TOKEN']}"},
                       timeout=TIMEOUT)
    assert answer.status_code == 200 and "houserules_sockets" in answer.text
    for path in ("/docs", "/redoc"):
        page = httpx.get(server.http + path, timeout=TIMEOUT)
        assert page.status_code == 404 and "cdn.jsdelivr.net" not in page.text
    assert httpx.get(server.http + "/openapi.json", timeout=TIMEOUT).status_code == 200


def test_without_a_token_metrics_are_for_direct_scrapes_only(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, HOUSERULES_API_DOCS="true").start()
    try:
        assert httpx.get(server.http + "/metrics", timeout=TIMEOUT).status_code == 200
        for header in ({"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}):
            assert httpx.get(server.http + "/metrics", headers=header, timeout=TIMEOUT).status_code == 404
        # Asked for: the interactive pages are there.
        assert httpx.get(server.http + "/docs", timeout=TIMEOUT).status_code == 200
    finally:
        server.stop()


async def answer_to(ws: Any) -> dict[str, Any]:
    """The next answer to a message (an error or a pong), past the room's own news."""
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] in ("error", "pong"):
            return message


async def test_unanswerable_ids_and_action_types_are_bad_messages(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2)
    async with websockets.connect(f"{server.ws}/ws/{room}", origin=server.http,  # type: ignore[arg-type]
                                  additional_headers={"X-Forwarded-For": address()}) as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        for raw in ('{"type": "ping", "id": "\\ud800"}',
                    '{"type": "action", "id": "\\udfff", "action": {"type": "play"}}',
                    '{"type": "nonsense", "id": "\\ud800"}',
                    '{"type": "action", "id": "m-1", "action": {"type": ["play"]}}',
                    '{"type": "action", "id": "m-2", "action": {"type": {"play": 1}}}'):
            await ws.send(raw)
            answer = await answer_to(ws)
            assert answer["type"] == "error" and answer["code"] in ("bad_message", "unknown_type"), answer
        # The socket lives on and still answers.
        await ws.send(json.dumps({"type": "ping", "id": "p-1"}))
        assert await answer_to(ws) == {"type": "pong", "id": "p-1"}
    log = server.log.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
