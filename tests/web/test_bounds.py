"""Bounds on everything a stranger sends, on SQLite and PostgreSQL: a bad id, a huge integer, a NUL
byte, an oversized body or rule sheet is refused with a stable code (4xx, or an error frame), never
a 500 or ``server_error``, changes nothing, and a probe room keeps being served meanwhile."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.client import Client, make_room, seat_clients
from tests.e2e.conftest import Backend
from tests.support import ServerProcess, fresh_postgres_sync, postgres_url
from tests.web.probe import Probe

HUGE = 2**40


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"bounds-{request.param}")
    if request.param == "sqlite":
        proc = Backend("sqlite", None, tmp).server().start()
        try:
            yield proc
        finally:
            proc.stop()
        return
    if postgres_url() is None:
        pytest.skip("no PostgreSQL configured")
    with fresh_postgres_sync() as url:
        proc = Backend("postgres", url, tmp).server().start()
        try:
            yield proc
        finally:
            proc.stop()


@pytest.fixture
async def probe(server: ServerProcess) -> AsyncIterator[Probe]:
    probe = await Probe.open(server.http, server.ws)
    yield probe
    await probe.close()


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.text
    assert answer.json()["message"]


async def test_bad_ids_and_integers_over_http(server: ServerProcess, probe: Probe) -> None:
    room, _ = await make_room(server.http, 2)
    before = httpx.get(f"{server.http}/api/rooms/{room}").json()

    async def attack() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            for bad in ("ab%00cd", "x" * 44, "a%20b", "%F0%9F%83%8F"):
                refused(await http.get(f"/api/rooms/{bad}"), 404, "unknown_room")
                refused(await http.post(f"/api/rooms/{bad}/join", json={"name": "M"}), 404, "unknown_room")
                refused(await http.get(f"/api/rooms/{bad}/history"), 404, "unknown_room")
                refused(await http.get(f"/api/sheets/{bad}"), 404, "unknown_sheet")
                refused(await http.put(f"/api/sheets/{bad}", json={"options": {}}), 404, "unknown_sheet")
            saved = await http.post("/api/sheets", json={"game": "palace", "name": "S"})
            assert saved.status_code == 201
            sheet = saved.json()["id"]
            for version in ("1e20", str(HUGE), "0", "-1", "x"):
                refused(await http.get(f"/api/sheets/{sheet}?version={version}"), 422, "bad_request")
            body = {"game": "palace", "name": "K", "seats": 2, "sheet_id": sheet, "sheet_version": HUGE}
            refused(await http.post("/api/rooms", json=body), 422, "bad_request")
            for options in ({"turn_timer_seconds": HUGE * HUGE}, {"x\u0000": 1}, {"deck": "a\u0000"},
                            {"turn_timer_seconds": 10**400}):
                body = {"game": "palace", "name": "K", "seats": 2, "options": options}
                refused(await http.post("/api/rooms", json=body), 422, "bad_request")
                sheet_body = {"game": "palace", "name": "S", "options": options}
                refused(await http.post("/api/sheets", json=sheet_body), 422, "bad_request")
            refused(await http.post(f"/api/rooms/{room}/join", json={"name": "M", "seat": HUGE}),
                    422, "bad_request")
            refused(await http.post("/api/rooms", json={"game": "palace\u0000", "name": "K", "seats": 2}),
                    404, "unknown_game")
            history = await http.get(f"/api/rooms/{room}/history",
                                     headers={"Authorization": b"Bearer a\xffb"})
            assert history.status_code == 403 and history.json()["code"] == "bad_token"

    await probe.during(attack())
    probe.report("bad ids over HTTP")
    assert httpx.get(f"{server.http}/api/rooms/{room}").json() == before
    assert "Traceback" not in server.log.read_text()


async def test_bad_values_on_the_socket_get_error_frames(server: ServerProcess, probe: Probe) -> None:
    room, tokens = await make_room(server.http, 2, preset="palace")
    players, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    assert (await players[0].host("start"))["type"] == "ack"
    for client in players:
        await client.wait_state(lambda s: s["view"] is not None)
    version = httpx.get(f"{server.http}/api/rooms/{room}").json()["version"]
    player = next(p for p in players if p.state and p.state["legal"])
    assert player.state is not None
    legal = player.state["legal"][0]

    async def attack() -> None:
        cases: list[dict[str, Any]] = [
            {"type": "action", "id": "nul\u0000id", "action": legal},
            {"type": "action", "id": "spaced id", "action": legal},
            {"type": "action", "id": "\u00e9", "action": legal},
            {"type": "action", "id": "big-version", "version": HUGE, "action": legal},
            {"type": "action", "id": "nul-inside", "action": {**legal, "note": "a\u0000b"}},
            {"type": "action", "id": "huge-inside", "action": {**legal, "n": HUGE * HUGE}},
            {"type": "host", "id": "big-seat", "op": "kick", "seat": HUGE},
            {"type": "host", "id": "big-request", "op": "reject", "request": HUGE},
            {"type": "chat", "id": "chat\u0000", "text": "hi"},
        ]
        for message in cases:
            await player.send(message)
            error = await player.expect("error")
            assert error["code"] == "bad_message", (message, error)
        # A surrogate that JSON allows but UTF-8 does not.
        await player.send_raw('{"type": "action", "id": "m-sur", "action": {"type": "x", "t": "\\ud800"}}')
        assert (await player.expect("error"))["code"] == "bad_message"
        await player.send({"type": "chat", "id": "c-nul", "text": "hi\u0000 there"})
        assert (await player.reply("c-nul"))["type"] == "ack"
        # A hello with a huge version or a NUL in the token: refused, closed, nothing stored.
        for hello in ({"type": "hello", "last_version": HUGE}, {"type": "hello", "token": "a\u0000b"},
                      {"type": "hello", "token": tokens[1] + "\u0000"}):
            client = Client(server.ws, room, None)
            client.ws = await websockets.connect(f"{server.ws}/ws/{room}")
            client.reader = asyncio.create_task(client._read())
            await client.send(hello)
            assert (await client.expect("error"))["code"] in ("bad_message", "bad_token")
            assert await client.wait_closed() == 1008

    await probe.during(attack())
    probe.report("bad values on a socket")
    assert httpx.get(f"{server.http}/api/rooms/{room}").json()["version"] == version
    for client in players + watchers:
        await client.close()
    assert "server_error" not in json.dumps([r.message for p in players for r in p.received])


async def test_a_body_over_the_cap_gets_413(server: ServerProcess, probe: Probe) -> None:
    big = json.dumps({"game": "holdem", "name": "K", "seats": 2, "options": {"x": "a" * 70_000}})

    async def attack() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            for path in ("/api/rooms", "/api/sheets"):
                refused(await http.post(path, content=big, headers={"content-type": "application/json"}),
                        413, "body_too_large")

            async def chunks() -> AsyncIterator[bytes]:
                for _ in range(40):
                    yield b" " * 4096

            chunked = await http.post("/api/rooms", content=chunks(),
                                      headers={"content-type": "application/json"})
            refused(chunked, 413, "body_too_large")

    await probe.during(attack())
    probe.report("bodies over the cap")


def levels(count: int) -> list[dict[str, int]]:
    return [{"small_blind": i + 1, "big_blind": 2 * (i + 1), "ante": 0} for i in range(count)]


async def test_rule_sheet_caps_name_the_option(server: ServerProcess, probe: Probe) -> None:
    async def attack() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            base = {"game": "holdem", "name": "K", "seats": 2, "preset": "tournament-nl-turbo"}
            ok = await http.post("/api/rooms", json={**base, "options": {"levels": levels(50)}})
            assert ok.status_code == 201, ok.text
            too_many = await http.post("/api/rooms", json={**base, "options": {"levels": levels(51)}})
            refused(too_many, 422, "invalid_sheet")
            assert too_many.json()["option"] == "levels"
            saved = await http.post("/api/sheets", json={"game": "holdem", "name": "S",
                                                         "options": {"levels": levels(51)}})
            refused(saved, 422, "invalid_sheet")
            assert saved.json()["option"] == "levels"
            nested = await http.post("/api/rooms", json={**base, "options": {"levels": [[1] * 60]}})
            refused(nested, 422, "invalid_sheet")
            assert nested.json()["option"] == "levels"
            wide = {f"o{i}": "a" * 1000 for i in range(17)}
            wide["o3"] = "b" * 2000
            large = await http.post("/api/rooms", json={**base, "options": wide})
            refused(large, 422, "sheet_too_large")
            assert large.json()["option"] == "o3"

    await probe.during(attack())
    probe.report("rule sheet caps")
    room, tokens = await make_room(server.http, 2, game="holdem", preset="tournament-nl-turbo")
    host = Client(server.ws, room, tokens[0])
    await host.connect()
    reply = await host.host("sheet", options={"levels": levels(51)})
    assert reply["code"] == "invalid_sheet"
    await host.close()
