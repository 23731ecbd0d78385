"""Every kind of bad input against the real server: each gets its error (or, for protocol abuse,
a clean close), the server keeps running, and nothing changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.client import Client, make_room, seat_clients
from tests.support import ServerProcess, post

ALLOWED = "https://friends.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("web"), HOUSERULES_ALLOWED_ORIGINS=ALLOWED,
                         HOUSERULES_HELLO_TIMEOUT="1").start()
    try:
        yield proc
    finally:
        proc.stop()


class Table:
    def __init__(self, server: ServerProcess, room: str, players: list[Client], watcher: Client) -> None:
        self.server = server
        self.room = room
        self.players = players
        self.watcher = watcher

    def info(self) -> dict[str, Any]:
        answer = httpx.get(f"{self.server.http}/api/rooms/{self.room}", timeout=10)
        assert answer.status_code == 200
        data: dict[str, Any] = answer.json()
        return data

    def fingerprint(self) -> tuple[Any, ...]:
        info = self.info()
        seats = [(s["seat"], s["name"], s["host"]) for s in info["seats"]]
        return info["version"], info["status"], seats, json.dumps(info["sheet"], sort_keys=True)

    def mover(self) -> Client:
        return next(p for p in self.players if p.state and p.state["legal"])

    def idle(self) -> Client:
        return next(p for p in self.players if p.state and not p.state["legal"])


@pytest.fixture
async def table(server: ServerProcess) -> AsyncIterator[Table]:
    room, tokens = await make_room(server.http, 2, preset="hiina-turakas")
    players, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    assert (await players[0].host("start"))["type"] == "ack"
    for client in players + watchers:
        await client.wait_state(lambda s: s["view"] is not None)
    # Play past the swap phase, so exactly one seat is to act.
    while players[0].state["view"]["phase"] == "swap":  # type: ignore[index]
        mover = next(p for p in players if p.state and p.state["legal"])
        ready = [a for a in mover.state["legal"] if a["type"] != "swap"] or mover.state["legal"]  # type: ignore[index]
        reply = await mover.act(ready[0])
        assert reply["type"] == "ack"
        for client in players + watchers:
            await client.wait_version(reply["version"])
    yield Table(server, room, players, watchers[0])
    for client in players + watchers:
        if not client.closed.is_set():
            await client.close()


async def _still_serving(table: Table, client: Client | None = None) -> None:
    assert httpx.get(table.server.http + "/healthz", timeout=10).status_code == 200
    if client is not None:
        await client.send({"type": "ping", "id": "p-after"})
        assert (await client.expect("pong"))["id"] == "p-after"


async def test_malformed_json_gets_an_error_and_the_socket_stays(table: Table) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send_raw('{"type": "action", "id": "x", "action": {')
    error = await client.expect("error")
    assert error["code"] == "bad_json" and error["message"]
    await _still_serving(table, client)
    assert table.fingerprint() == before


async def test_json_nested_too_deep_or_with_nan_gets_an_error(table: Table) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send_raw("[" * 8000 + "]" * 8000)
    assert (await client.expect("error"))["code"] == "bad_json"
    await client.send_raw('{"type": "action", "id": "nan", "action": {"type": "pick_up", "x": NaN}}')
    assert (await client.expect("error"))["code"] == "bad_json"
    await client.send_raw('{"type": "action", "id": "deep", "action": ' + '{"a":' * 500 + "1" + "}" * 501)
    assert (await client.reply("deep"))["type"] == "error"
    await _still_serving(table, client)
    assert table.fingerprint() == before


@pytest.mark.parametrize("message", [
    [1, 2], "hello", {"id": "x"}, {"type": "teleport", "id": "x"},
])
async def test_unknown_or_typeless_messages_are_refused(table: Table, message: Any) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send_raw(json.dumps(message))
    error = await client.expect("error")
    assert error["code"] in ("bad_message", "unknown_type")
    await _still_serving(table, client)
    assert table.fingerprint() == before


@pytest.mark.parametrize("message", [
    {"type": "action", "id": "x"},  # no action
    {"type": "action", "id": "x" * 65, "action": {"type": "pick_up"}},  # id too long
    {"type": "action", "id": "x", "action": "play"},  # action not an object
    {"type": "action", "id": "x", "seat": 1, "action": {"type": "pick_up"}},  # no acting for a named seat
    {"type": "action", "id": "x", "version": -1, "action": {"type": "pick_up"}},
    {"type": "chat", "id": "x", "text": 5},
    {"type": "host", "id": "x", "op": "explode"},
])
async def test_messages_that_do_not_fit_the_schema(table: Table, message: dict[str, Any]) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send(message)
    error = await client.expect("error")
    assert error["code"] == "bad_message", error
    await _still_serving(table, client)
    assert table.fingerprint() == before


async def test_an_oversized_frame_closes_with_1009(table: Table) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send({"type": "chat", "id": "big", "text": "a" * 17_000})
    assert await client.wait_closed() == 1009
    await _still_serving(table, table.watcher)
    assert table.fingerprint() == before


async def test_a_binary_frame_closes_with_1003(table: Table) -> None:
    before = table.fingerprint()
    client = table.mover()
    await client.send_raw(b"\x00\x01")
    assert await client.wait_closed() == 1003
    await _still_serving(table, table.watcher)
    assert table.fingerprint() == before


async def test_a_flood_closes_with_1008(table: Table) -> None:
    before = table.fingerprint()
    client = table.watcher
    for i in range(200):
        try:
            await client.send({"type": "ping", "id": f"f{i}"})
        except websockets.ConnectionClosed:
            break
    assert await client.wait_closed() == 1008
    await _still_serving(table, table.players[0])
    assert table.fingerprint() == before


async def test_a_move_out_of_turn_is_refused_by_the_game(table: Table) -> None:
    before = table.fingerprint()
    mover, idle = table.mover(), table.idle()
    assert mover.state is not None
    reply = await idle.act(mover.state["legal"][0])
    assert reply["type"] == "error" and reply["code"] and reply["message"]
    assert table.fingerprint() == before


async def test_an_illegal_move_is_refused_and_changes_nothing(table: Table) -> None:
    before = table.fingerprint()
    for action in ({"type": "no-such-move"}, {"type": "play", "cards": ["Zz"]}, {}):
        reply = await table.mover().act(action)
        assert reply["type"] == "error", reply
    assert table.fingerprint() == before


async def test_a_stale_version_is_refused(table: Table) -> None:
    before = table.fingerprint()
    mover = table.mover()
    assert mover.state is not None
    reply = await mover.act(mover.state["legal"][0], version=mover.state["version"] - 1)
    assert reply["code"] == "stale_version"
    assert table.fingerprint() == before


async def test_a_repeated_message_id_is_applied_once(table: Table) -> None:
    mover = table.mover()
    assert mover.state is not None
    version = mover.state["version"]
    action = mover.state["legal"][0]
    await mover.send({"type": "action", "id": "twice", "action": action})
    first = await mover.reply("twice")
    assert first == {"type": "ack", "id": "twice", "version": version + 1}
    await mover.wait_version(version + 1)
    await mover.send({"type": "action", "id": "twice", "action": action})
    assert await mover.reply("twice") == first
    await _still_serving(table, mover)
    assert table.info()["version"] == version + 1


async def test_a_spectator_cannot_move_or_chat(table: Table) -> None:
    before = table.fingerprint()
    mover = table.mover()
    assert mover.state is not None
    assert (await table.watcher.act(mover.state["legal"][0]))["code"] == "not_seated"
    await table.watcher.send({"type": "chat", "id": "c1", "text": "hi"})
    assert (await table.watcher.reply("c1"))["code"] == "not_seated"
    assert table.fingerprint() == before


@pytest.mark.parametrize("token", ["not-a-token", "x" * 128])
async def test_a_wrong_token_is_refused_and_closed(table: Table, token: str) -> None:
    before = table.fingerprint()
    client = Client(table.server.ws, table.room, token)
    client.ws = await websockets.connect(f"{table.server.ws}/ws/{table.room}")
    client.reader = asyncio.create_task(client._read())
    await client.send({"type": "hello", "token": token})
    assert (await client.expect("error"))["code"] == "bad_token"
    assert await client.wait_closed() == 1008
    assert table.fingerprint() == before


async def test_the_first_message_must_be_hello(table: Table) -> None:
    client = Client(table.server.ws, table.room, None)
    client.ws = await websockets.connect(f"{table.server.ws}/ws/{table.room}")
    client.reader = asyncio.create_task(client._read())
    await client.send({"type": "ping", "id": "p"})
    assert (await client.expect("error"))["code"] == "hello_first"
    assert await client.wait_closed() == 1008


async def test_a_silent_socket_is_closed_after_the_hello_timeout(table: Table) -> None:
    ws = await websockets.connect(f"{table.server.ws}/ws/{table.room}")
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1008
    await _still_serving(table, table.watcher)


async def test_an_unknown_room_is_refused(server: ServerProcess) -> None:
    client = Client(server.ws, "no-such-room", None)
    client.ws = await websockets.connect(f"{server.ws}/ws/no-such-room")
    client.reader = asyncio.create_task(client._read())
    await client.send({"type": "hello"})
    assert (await client.expect("error"))["code"] == "unknown_room"
    assert await client.wait_closed() == 1008
    answer = httpx.get(f"{server.http}/api/rooms/no-such-room", timeout=10)
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_room"
    answer = post(server, "/api/rooms/no-such-room/join", {"name": "Mati"})
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_room"


async def test_a_foreign_origin_cannot_open_a_socket(table: Table) -> None:
    url = f"{table.server.ws}/ws/{table.room}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url, additional_headers={"Origin": "https://evil.example"})
    assert refused.value.response.status_code == 403
    for origin in (ALLOWED, table.server.http):
        ws = await websockets.connect(url, additional_headers={"Origin": origin})
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.close()


async def test_chat_is_cleaned_limited_and_refused_when_empty(table: Table) -> None:
    before = table.fingerprint()
    player, other = table.players
    await player.send({"type": "chat", "id": "c-empty", "text": " \u0000\u200b "})
    assert (await player.reply("c-empty"))["code"] == "empty_chat"
    await player.send({"type": "chat", "id": "c-long", "text": "a" * 301})
    assert (await player.reply("c-long"))["code"] == "chat_too_long"
    await player.send({"type": "chat", "id": "c-ok", "text": "<b>hi</b>\n\u0007 there"})
    assert (await player.reply("c-ok"))["type"] == "ack"
    line = await other.expect("chat")
    # Plain text, control characters dropped; clients insert it as text, never as HTML.
    assert line["text"] == "<b>hi</b> there" and line["seat"] == player.seat
    assert table.fingerprint() == before


async def test_host_operations_are_for_the_host_only(table: Table) -> None:
    before = table.fingerprint()
    guest = table.players[1]
    for op, args in (("kick", {"seat": 0}), ("handover", {"seat": 1}), ("rematch", {}), ("start", {})):
        assert (await guest.host(op, **args))["code"] == "not_host"
    host = table.players[0]
    assert (await host.host("start"))["code"] == "already_started"
    assert (await host.host("rematch"))["code"] == "not_finished"
    assert (await host.host("sheet", options={"turn_timer_seconds": 5}))["code"] == "sheet_locked"
    assert (await host.host("kick", seat=0))["code"] == "kick_self"
    assert (await host.host("kick", seat=7))["code"] == "empty_seat"
    assert table.fingerprint() == before


async def test_http_bad_bodies_get_codes(server: ServerProcess) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"game": "palace", "name": "K"}, 422, "bad_request"),
        ({"game": "palace", "name": "K", "seats": 3, "colour": "red"}, 422, "bad_request"),
        ({"game": "chess", "name": "K", "seats": 2}, 404, "unknown_game"),
        ({"game": "palace", "name": "K", "seats": 9}, 422, "bad_seats"),
        ({"game": "palace", "name": "K", "seats": 3, "preset": "nope"}, 422, "invalid_sheet"),
        ({"game": "palace", "name": "K", "seats": 3, "options": {"no_such_option": 1}}, 422, "invalid_sheet"),
        ({"game": "palace", "name": " \u0000 ", "seats": 3}, 400, "empty_name"),
        ({"game": "palace", "name": "K", "seats": 3, "sheet_id": "missing"}, 404, "unknown_sheet"),
    ]
    for body, status, code in cases:
        answer = post(server, "/api/rooms", body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (body, answer.text)
        assert answer.json()["message"]
    answer = post(server, "/api/rooms", {"game": "palace", "name": "K", "seats": 3,
                                         "options": {"no_such_option": 1}})
    assert answer.json()["option"] == "no_such_option"
    bad = httpx.post(server.http + "/api/rooms", content=b"{", headers={"content-type": "application/json"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_request"


async def test_joining_a_taken_seat_or_a_full_room(server: ServerProcess) -> None:
    room, _ = await make_room(server.http, 2)
    answer = post(server, f"/api/rooms/{room}/join", {"name": "Mati", "seat": 0})
    assert (answer.status_code, answer.json()["code"]) == (409, "seat_taken")
    answer = post(server, f"/api/rooms/{room}/join", {"name": "Mati"})
    assert (answer.status_code, answer.json()["code"]) == (409, "room_full")
    assert [s["name"] for s in httpx.get(f"{server.http}/api/rooms/{room}").json()["seats"]] == ["Kati", "P1"]

