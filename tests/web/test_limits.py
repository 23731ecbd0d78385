"""Every rate and size limit shows its refusal against a real server, and a probe room on the
same server keeps being served (its moves acknowledged) while the attack runs. Attacks are
bounded loops on loopback; each comes from its own client address (X-Forwarded-For, trusted from
loopback), as the limits are per address."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.client import Client
from tests.support import ServerProcess
from tests.web.probe import Probe

LIMITS = {
    "HOUSERULES_ROOMS_PER_MINUTE": "3",
    "HOUSERULES_JOINS_PER_MINUTE": "5",
    "HOUSERULES_SHEET_SAVES_PER_MINUTE": "3",
    "HOUSERULES_RECORDS_PER_MINUTE": "4",
    "HOUSERULES_MAX_PENDING_REQUESTS": "3",
    "HOUSERULES_MAX_SOCKETS_PER_MEMBER": "2",
    "HOUSERULES_MEMBER_RATE": "1",
    "HOUSERULES_MEMBER_BURST": "25",
    "HOUSERULES_CHAT_PER_MINUTE": "6",
    "HOUSERULES_CHAT_BURST": "3",
    # The sockets' own flood limit is tested in test_bad_input; the probe must not trip it.
    "HOUSERULES_WS_RATE": "10000",
    "HOUSERULES_WS_BURST": "10000",
}
_addresses = itertools.count(1)


def address() -> str:
    """A client address of its own for each caller."""
    return f"198.51.100.{next(_addresses)}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("limits"), **LIMITS).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
async def probe(server: ServerProcess) -> AsyncIterator[Probe]:
    probe = await Probe.open(server.http, server.ws, address=address())
    yield probe
    await probe.close()


def http(server: ServerProcess, client_address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.http, timeout=10, headers={"X-Forwarded-For": client_address})


def allowance(burst: int, per_second: float, started: float) -> range:
    """How many calls a token bucket lets through since ``started``: the burst, plus what refilled
    meanwhile (however slow a loaded machine made the attack)."""
    refilled = int((time.monotonic() - started) * per_second)
    return range(burst, burst + refilled + 1)


def rate_limited(answer: httpx.Response) -> bool:
    if answer.status_code != 429:
        return False
    assert answer.json()["code"] in ("rate_limited", "too_many_pending") and answer.json()["message"]
    assert int(answer.headers["retry-after"]) >= 1
    return True


async def until_refused(call: Any, tries: int = 20) -> int:
    """How many calls succeed before the first 429 (bounded)."""
    for done in range(tries):
        answer = await call()
        if rate_limited(answer):
            return done
        assert answer.status_code in (200, 201), answer.text
    raise AssertionError(f"no 429 in {tries} calls")


async def room_by(client: httpx.AsyncClient, approval: bool = False) -> dict[str, Any]:
    body = {"game": "palace", "name": "K", "seats": 5, "approval": approval}
    made = await client.post("/api/rooms", json=body)
    assert made.status_code == 201, made.text
    result: dict[str, Any] = made.json()
    return result


async def test_room_creation_is_limited_per_address(server: ServerProcess, probe: Probe) -> None:
    async def attack() -> int:
        async with http(server, address()) as client:
            return await until_refused(lambda: client.post("/api/rooms", json={"game": "palace", "name": "K",
                                                                               "seats": 2}))

    started = time.monotonic()
    assert await probe.during(attack()) in allowance(3, 3 / 60, started)
    probe.report("room creation")
    async with http(server, address()) as other:
        await room_by(other)  # another address is not held back


async def test_joins_are_limited_per_address(server: ServerProcess, probe: Probe) -> None:
    async with http(server, address()) as host:
        rooms = [(await room_by(host))["room"], (await room_by(host))["room"]]  # 8 free seats

    async def attack() -> int:
        async with http(server, address()) as client:
            joins = itertools.cycle(rooms)
            return await until_refused(
                lambda: client.post(f"/api/rooms/{next(joins)}/join", json={"name": "M"}))

    started = time.monotonic()
    assert await probe.during(attack()) in allowance(5, 5 / 60, started)
    probe.report("joins")


async def test_sheet_saves_are_limited_per_address(server: ServerProcess, probe: Probe) -> None:
    async def attack() -> int:
        async with http(server, address()) as client:
            body = {"game": "palace", "name": "S"}
            return await until_refused(lambda: client.post("/api/sheets", json=body))

    started = time.monotonic()
    assert await probe.during(attack()) in allowance(3, 3 / 60, started)
    probe.report("sheet saves")


async def test_records_and_replays_are_limited_per_address(server: ServerProcess, probe: Probe) -> None:
    async with http(server, address()) as host:
        room = (await room_by(host))["room"]

    async def attack() -> int:
        # Each of these would replay a game; refused ones are refused before any work (no game yet).
        paths = itertools.cycle([f"/api/rooms/{room}/games/1/replay", f"/api/rooms/{room}/record",
                                 f"/api/rooms/{room}/history"])
        async with http(server, address()) as client:
            for done in range(20):
                answer = await client.get(next(paths))
                if rate_limited(answer):
                    return done
                assert answer.status_code == 404, answer.text
            raise AssertionError("no 429 in 20 calls")

    started = time.monotonic()
    assert await probe.during(attack()) in allowance(4, 4 / 60, started)
    probe.report("records and replays")


async def test_pending_join_requests_per_room_are_capped(server: ServerProcess, probe: Probe) -> None:
    async with http(server, address()) as host:
        room = (await room_by(host, approval=True))["room"]

    async def attack() -> int:
        # Each request from its own address: the cap is the room's, whoever asks.
        for asked in range(10):
            async with http(server, address()) as client:
                answer = await client.post(f"/api/rooms/{room}/join", json={"name": f"W{asked}"})
                if rate_limited(answer):
                    assert answer.json()["code"] == "too_many_pending"
                    return asked
                assert answer.status_code == 201 and answer.json()["pending"]
        raise AssertionError("no cap")

    assert await probe.during(attack()) == 3
    probe.report("pending requests")


async def test_a_member_opening_too_many_sockets_closes_the_oldest(
    server: ServerProcess, probe: Probe
) -> None:
    async with http(server, address()) as host:
        made = await room_by(host)

    async def attack() -> list[Client]:
        sockets = []
        for _ in range(12):
            client = Client(server.ws, made["room"], made["token"])
            await client.connect()
            sockets.append(client)
        return sockets

    sockets = await probe.during(attack())
    probe.report("sockets per member")
    for old in sockets[:-2]:
        assert await old.wait_closed() == 4409
        assert any(r.message.get("code") == "too_many_sockets" for r in old.received)
    for new in sockets[-2:]:
        assert not new.closed.is_set()
        await new.send({"type": "ping", "id": "still"})
        assert (await new.expect("pong"))["id"] == "still"
        await new.close()


async def test_chat_and_moves_are_limited_per_member_over_all_their_sockets(
    server: ServerProcess, probe: Probe
) -> None:
    async with http(server, address()) as host:
        made = await room_by(host)
        joined = await host.post(f"/api/rooms/{made['room']}/join", json={"name": "Kuulaja"})
    listener = Client(server.ws, made["room"], joined.json()["token"])
    await listener.connect()
    talkers = [Client(server.ws, made["room"], made["token"]) for _ in range(2)]
    for client in talkers:
        await client.connect()

    async def attack() -> dict[str, int]:
        answers: dict[str, int] = {}
        for i in range(20):
            talker = talkers[i % 2]
            await talker.send({"type": "chat", "id": f"c-{i}", "text": f"line {i}"})
            reply = await talker.reply(f"c-{i}")
            if reply["type"] == "error" and reply["code"] == "rate_limited":
                # The wait is said in whole seconds, at least 1 (never "wait 0.0 seconds").
                assert re.search(r"wait [1-9]\d* seconds?\.$", reply["message"]), reply
            key = reply["type"] if reply["type"] == "ack" else reply["code"]
            answers[key] = answers.get(key, 0) + 1
        for i in range(40):
            talker = talkers[i % 2]
            # A lobby refuses moves (not_playing), but each still counts against the member's rate.
            await talker.send({"type": "action", "id": f"a-{i}", "action": {"type": "x"}})
            reply = await talker.reply(f"a-{i}")
            answers[reply["code"]] = answers.get(reply["code"], 0) + 1
        return answers

    started = time.monotonic()
    answers = await probe.during(attack())
    probe.report("chat and moves per member")
    # Chat: the burst of 3 (plus what 6 a minute refill meanwhile), whichever socket sent it.
    assert answers["ack"] in allowance(3, 6 / 60, started)
    assert answers["rate_limited"] == 60 - answers["ack"] - answers["not_playing"] > 0
    # Moves: the burst of 25 (plus about one a second), then rate_limited.
    assert answers["not_playing"] in allowance(25, 1.0, started)
    # Everyone heard exactly the accepted lines: a pong after them comes after all of them.
    await listener.send({"type": "ping", "id": "after"})
    await listener.expect("pong")
    assert len([r for r in listener.received if r.message["type"] == "chat"]) == answers["ack"]
    for client in [listener, *talkers]:
        await client.close()
