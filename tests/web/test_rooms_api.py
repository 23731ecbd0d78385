"""The HTTP API and a room's life over real sockets: sheets, approval, kick, handover, presence."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.e2e.client import Client, make_room, seat_clients
from tests.games.game_cases import names
from tests.support import ServerProcess, post


def test_games_list_presets_schema_and_player_range(server: ServerProcess) -> None:
    games = httpx.get(server.http + "/api/games").json()
    palace = next(g for g in games if g["name"] == "palace")
    assert set(palace["presets"]) == {"hiina-turakas", "china-hand", "palace"}
    assert (palace["min_players"], palace["max_players"]) == (2, 5)
    assert "turn_timer_seconds" in palace["schema"]["properties"]
    assert set(palace["titles"]) == {"en", "et", "fi"}


@pytest.mark.parametrize("game", names())
def test_games_player_range_agrees_with_the_sheets(server: ServerProcess, game: str) -> None:
    """/api/games spans every sheet the game accepts, and each preset's own range is the one its
    rooms are checked against."""
    info = next(g for g in httpx.get(server.http + "/api/games").json() if g["name"] == game)
    low, high = info["min_players"], info["max_players"]
    assert set(info["players"]) == set(info["presets"])
    for preset, (least, most) in info["players"].items():
        assert low <= least <= most <= high
        for seats, fits in ((least - 1, False), (least, True), (most, True), (most + 1, False)):
            answer = post(server, "/api/rooms", {"game": game, "name": "K", "seats": seats, "preset": preset})
            assert (answer.status_code == 201) is fits, (preset, seats, answer.text)
    # The extremes are reachable with some sheet, and nothing beyond them.
    option = info["schema"]["x-seats"]["option"]  # the sheet's own player count (its form layout)
    widest = {option: high}
    made = post(server, "/api/rooms", {"game": game, "name": "K", "seats": high, "options": widest})
    assert made.status_code == 201, made.text
    beyond = post(server, "/api/rooms", {"game": game, "name": "K", "seats": high + 1,
                                         "options": {k: v + 1 for k, v in widest.items()}})
    assert beyond.status_code == 422


def test_openapi_describes_the_api(server: ServerProcess) -> None:
    paths = httpx.get(server.http + "/openapi.json").json()["paths"]
    assert {
        "/api/games",
        "/api/sheets",
        "/api/sheets/{sheet_id}",
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join",
    } <= set(paths)


async def test_healthz_and_metrics(server: ServerProcess) -> None:
    assert httpx.get(server.http + "/healthz").json() == {"status": "ok"}
    room, tokens = await make_room(server.http, 2, preset="palace")
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    assert (await players[0].host("start"))["type"] == "ack"
    for client in players:
        await client.wait_state(lambda s: bool(s["legal"]))  # the swap phase: everyone may move
    mover = players[0]
    assert mover.state is not None
    assert (await mover.act(mover.state["legal"][0]))["type"] == "ack"
    text = httpx.get(server.http + "/metrics").text

    def value(name: str) -> float:
        line = next(x for x in text.splitlines() if x.startswith(name + " "))
        return float(line.split()[-1])

    assert value("houserules_sockets") >= 2
    assert value('houserules_rooms{status="playing"}') >= 1
    assert value('houserules_moves_total{kind="move"}') >= 1
    assert value('houserules_moves_total{kind="deal"}') >= 1
    assert value("houserules_move_latency_seconds_count") >= 1
    assert value("process_resident_memory_bytes") > 0
    for client in players:
        await client.close()


def test_sheets_are_versioned_and_a_room_keeps_its_copy(server: ServerProcess) -> None:
    made = post(
        server,
        "/api/sheets",
        {"game": "palace", "name": "Friday", "preset": "palace", "options": {"turn_timer_seconds": 30}},
    )
    assert made.status_code == 201
    sheet = made.json()
    assert sheet["version"] == 1 and sheet["options"]["turn_timer_seconds"] == 30
    room = post(server, "/api/rooms", {"game": "palace", "name": "Kati", "seats": 3, "sheet_id": sheet["id"]})
    assert room.status_code == 201
    owner = {"Authorization": f"Bearer {sheet['edit_token']}"}
    changed = httpx.put(
        f"{server.http}/api/sheets/{sheet['id']}", json={"options": {"turn_timer_seconds": 60}}, headers=owner
    )
    assert changed.json()["version"] == 2 and changed.json()["options"]["turn_timer_seconds"] == 60
    old = httpx.get(f"{server.http}/api/sheets/{sheet['id']}", params={"version": 1}).json()
    assert old["options"]["turn_timer_seconds"] == 30
    assert httpx.get(f"{server.http}/api/sheets/{sheet['id']}").json()["version"] == 2
    listed = httpx.get(server.http + "/api/sheets", params={"game": "palace"}).json()
    assert [s["version"] for s in listed if s["id"] == sheet["id"]] == [2]
    # The room was created from version 1 and never sees the later edit (P24).
    info = httpx.get(f"{server.http}/api/rooms/{room.json()['room']}").json()
    assert info["sheet"]["turn_timer_seconds"] == 30
    bad = httpx.put(f"{server.http}/api/sheets/{sheet['id']}", json={"options": {"turn_timer_seconds": -1}},
                    headers=owner)
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_sheet"


def test_a_saved_sheet_is_changed_only_with_its_edit_token_and_anyone_may_copy_it(
    server: ServerProcess,
) -> None:
    body = {"game": "palace", "name": "Mine", "options": {"turn_timer_seconds": 30}}
    made = post(server, "/api/sheets", body)
    assert made.status_code == 201
    sheet = made.json()
    token = sheet["edit_token"]
    assert len(token) >= 40
    url = f"{server.http}/api/sheets/{sheet['id']}"
    # The token is given once: never in a read or a listing.
    assert "edit_token" not in httpx.get(url).json()
    listed = httpx.get(server.http + "/api/sheets", params={"game": "palace"}).json()
    assert all("edit_token" not in s and "edit_hash" not in s for s in listed)
    change = {"options": {"turn_timer_seconds": 90}, "name": "Theirs"}
    for headers in ({}, {"Authorization": "Bearer " + "x" * 43}, {"Authorization": f"Bearer {token}x"},
                    {"Authorization": token}):
        refused = httpx.put(url, json=change, headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (403, "not_sheet_owner"), refused.text
        assert refused.json()["message"]
    after = httpx.get(url).json()
    assert (after["version"], after["name"], after["options"]["turn_timer_seconds"]) == (1, "Mine", 30)
    # Anyone may copy it into a sheet of their own, which their own token changes.
    copied = post(server, f"/api/sheets/{sheet['id']}/copy", {"name": "My copy"})
    assert copied.status_code == 201, copied.text
    copy = copied.json()
    assert copy["id"] != sheet["id"] and copy["edit_token"] != token and copy["name"] == "My copy"
    assert copy["options"] == sheet["options"] and copy["version"] == 1
    theirs = httpx.put(f"{server.http}/api/sheets/{copy['id']}", json=change,
                       headers={"Authorization": f"Bearer {copy['edit_token']}"})
    assert theirs.status_code == 200 and theirs.json()["version"] == 2
    # One sheet's token does not open another.
    crossed = httpx.put(url, json=change, headers={"Authorization": f"Bearer {copy['edit_token']}"})
    assert crossed.status_code == 403
    mine = httpx.put(url, json=change, headers={"Authorization": f"Bearer {token}"})
    assert mine.status_code == 200 and mine.json()["version"] == 2 and "edit_token" not in mine.json()
    missing = post(server, "/api/sheets/nope/copy", {})
    assert (missing.status_code, missing.json()["code"]) == (404, "unknown_sheet")


async def test_host_approval_seats_a_newcomer(server: ServerProcess) -> None:
    room2 = post(
        server, "/api/rooms", {"game": "palace", "name": "Kati", "seats": 3, "approval": True}
    ).json()
    host = Client(server.ws, room2["room"], room2["token"])
    await host.connect()
    asked = post(server, f"/api/rooms/{room2['room']}/join", {"name": "Mati", "seat": 2}).json()
    assert asked["pending"] is True and asked["seat"] is None
    waiting = Client(server.ws, room2["room"], asked["token"])
    welcome = await waiting.connect()
    assert welcome["pending"] is True and welcome["seat"] is None
    room_msg = await host.expect("room")
    while not room_msg["pending"]:
        room_msg = await host.expect("room")
    assert room_msg["pending"] == [{"request": asked["request"], "name": "Mati", "seat": 2}]
    assert (await waiting.host("approve", request=asked["request"]))["code"] == "not_host"
    assert (await host.host("approve", request=asked["request"]))["type"] == "ack"
    again = await waiting.expect("welcome")
    assert again["seat"] == 2 and again["pending"] is False
    info = httpx.get(f"{server.http}/api/rooms/{room2['room']}").json()
    assert [(s["seat"], s["name"]) for s in info["seats"] if s["name"]] == [(0, "Kati"), (2, "Mati")]
    assert info["pending"] == []
    # A refused request: its socket is told and closed, its token is dead.
    other = post(server, f"/api/rooms/{room2['room']}/join", {"name": "Jüri"}).json()
    refused = Client(server.ws, room2["room"], other["token"])
    await refused.connect()
    assert (await host.host("reject", request=other["request"]))["type"] == "ack"
    await refused.expect("refused")
    assert await refused.wait_closed() == 4403
    for client in (host, waiting):
        await client.close()


async def test_kick_handover_and_presence(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 3)
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    host, second, third = players
    info = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert [s["connected"] for s in info["seats"]] == [True, True, True]
    await third.close()
    # The server notices the closed socket when it reads it: ask until it has.
    for _ in range(2000):
        info = httpx.get(f"{server.http}/api/rooms/{room}").json()
        if not info["seats"][2]["connected"]:
            break
        await asyncio.sleep(0.01)
    # A dropped player keeps the seat.
    assert [(s["name"], s["connected"]) for s in info["seats"]] == [
        ("Kati", True),
        ("P1", True),
        ("P2", False),
    ]
    assert (await host.host("start"))["type"] == "ack"
    await second.wait_state(lambda s: s["view"] is not None)
    assert (await host.host("kick", seat=1))["type"] == "ack"
    await second.expect("kicked")
    assert await second.wait_closed() == 4403
    dead = Client(server.ws, room, tokens[1])
    with pytest.raises(ConnectionError):
        await dead.connect()
    assert any(m.message.get("code") == "bad_token" for m in dead.received)
    # The kicked player's seat is free for a newcomer, who takes over that hand.
    info = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert [s["free"] for s in info["seats"]] == [False, True, False]
    joined = post(server, f"/api/rooms/{room}/join", {"name": "Liis"}).json()
    assert joined["seat"] == 1
    newcomer = Client(server.ws, room, joined["token"])
    await newcomer.connect()
    assert newcomer.seat == 1 and newcomer.state is not None and newcomer.state["view"]["you"] == 1
    # Handover: the host role moves; the old host may no longer kick.
    assert (await host.host("handover", seat=1))["type"] == "ack"
    assert (await newcomer.expect("welcome"))["host"] is True
    assert (await host.host("kick", seat=1))["code"] == "not_host"
    info = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert [s["host"] for s in info["seats"]] == [False, True, False]
    for client in (host, newcomer):
        await client.close()


async def test_the_sheet_can_change_in_the_lobby_only(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2, preset="palace")
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    host = players[0]
    assert (await host.host("sheet", options={"no_such": 1}))["code"] == "invalid_sheet"
    assert (await host.host("sheet", options={"turn_timer_seconds": 45}))["type"] == "ack"
    assert httpx.get(f"{server.http}/api/rooms/{room}").json()["sheet"]["turn_timer_seconds"] == 45
    assert (await host.host("start"))["type"] == "ack"
    assert (await host.host("sheet", options={"turn_timer_seconds": 5}))["code"] == "sheet_locked"
    assert httpx.get(f"{server.http}/api/rooms/{room}").json()["sheet"]["turn_timer_seconds"] == 45
    for client in players:
        await client.close()


async def test_a_deal_seats_the_players_without_holes(server: ServerProcess) -> None:
    made = post(
        server, "/api/rooms", {"game": "palace", "name": "Kati", "seats": 5, "preset": "palace"}
    ).json()
    joined = post(server, f"/api/rooms/{made['room']}/join", {"name": "Mati", "seat": 3}).json()
    host = Client(server.ws, made["room"], made["token"])
    late = Client(server.ws, made["room"], joined["token"])
    await host.connect()
    assert (await late.connect())["seat"] == 3
    assert (await host.host("start"))["type"] == "ack"
    again = await late.expect("welcome")
    assert again["seat"] == 1
    state = await late.wait_state(lambda s: s["view"] is not None)
    assert state["view"]["you"] == 1 and state["view"]["seats"] == 2
    info = httpx.get(f"{server.http}/api/rooms/{made['room']}").json()
    assert [(s["seat"], s["name"]) for s in info["seats"] if s["name"]] == [(0, "Kati"), (1, "Mati")]
    for client in (host, late):
        await client.close()
