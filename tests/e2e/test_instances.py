"""Two server instances on one PostgreSQL: moves are serialised by the version check and each
instance hears of the other's moves by LISTEN/NOTIFY, so players on different instances play on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.rooms.entries import event_json as _event_json
from app.rooms.entries import visible as _visible
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import TIMEOUT, Client, choose, make_room, play_moves, room_message
from tests.support import ServerProcess, fresh_postgres, needs_postgres
from tests.support import until as _until

# About 40 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(40)

LIFTED = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}


@needs_postgres
async def test_players_on_two_instances_play_one_game(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        first = ServerProcess(tmp_path, url, **lifted).start()
        second = ServerProcess(tmp_path, url, **lifted).start()
        try:
            room, tokens = await make_room(first.http, 3, preset="hiina-turakas")
            # Seats 0 and 2 on the first instance, seat 1 and a spectator on the second.
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(first.ws, room, tokens[2])]
            watcher = Client(second.ws, room, None)
            for client in [*players, watcher]:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in [*players, watcher]:
                await client.wait_state(lambda s: s["view"] is not None)
            moved = await play_moves(players, [*players, watcher], rng, limit=60)
            assert moved == 60 or (players[0].state is not None and players[0].state["outcome"] is not None)
            assert len({c.version for c in [*players, watcher]}) == 1
            for client in [*players, watcher]:
                await client.close()
        finally:
            first.stop()
            second.stop()


def _events_of(client: Client) -> list[dict[str, Any]]:
    """Every event the socket was sent, in the order it came (state frames carry them)."""
    return [event for r in client.received if r.message["type"] == "state" for event in r.message["events"]]


def _state_versions(client: Client) -> list[int]:
    return [int(r.message["version"]) for r in client.received if r.message["type"] == "state"]


@needs_postgres
async def test_every_update_reaches_every_socket_once_in_order_across_instances(tmp_path: Path) -> None:
    """A whole game with the players split over two instances, where seat 0 also has a socket on the
    other instance and both of its sockets send a move at the same version each time it is to act:
    one is stored, the other is refused (by the version check on the room row, or before it), and
    the refusing instance catches up. Every socket still gets each stored entry's events exactly
    once and in order (compared with the log itself), and no state frame twice."""
    rng = random.Random(11)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        first = ServerProcess(tmp_path, url, **lifted).start()
        second = ServerProcess(tmp_path, url, **lifted).start()
        try:
            room, tokens = await make_room(first.http, 3, preset="hiina-turakas")
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(first.ws, room, tokens[2])]
            twin = Client(second.ws, room, tokens[0])  # seat 0's second socket, on the other instance
            watchers = [Client(first.ws, room, None), Client(second.ws, room, None)]
            everyone = [*players, twin, *watchers]
            for client in everyone:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in everyone:
                await client.wait_state(lambda s: s["view"] is not None)
            refused = 0
            for _ in range(5000):
                state = players[0].state
                assert state is not None
                if state["outcome"] is not None:
                    break
                movers = [p for p in players if p.state and p.state["legal"]]
                assert movers, f"nobody can move at version {state['version']}"
                mover = rng.choice(movers)
                assert mover.state is not None
                version = mover.state["version"]
                if mover is players[0]:
                    assert twin.state is not None and twin.state["version"] == version
                    replies = await asyncio.gather(
                        mover.act(choose(mover.state["legal"], rng), version=version),
                        twin.act(choose(twin.state["legal"], rng), version=version))
                    assert sorted(r["type"] for r in replies) == ["ack", "error"], replies
                    # (not_playing: the stored move ended the game)
                    assert next(r["code"] for r in replies if r["type"] == "error") in (
                        "stale_version", "not_playing")
                    reply = next(r for r in replies if r["type"] == "ack")
                    refused += 1
                else:
                    reply = await mover.act(choose(mover.state["legal"], rng), version=version)
                    assert reply["type"] == "ack", reply
                for client in everyone:
                    await client.wait_version(reply["version"])
            else:
                raise AssertionError("the game did not end")
            assert refused > 0
            final = players[0].version
            for client in everyone:
                await client.wait_version(final)
            engine = make_engine(url)
            try:
                entries = await queries.log_since(engine, room, 0, limit=1_000_000)
            finally:
                await engine.dispose()
            assert entries[-1].version == final
            for client in everyone:
                versions = _state_versions(client)
                assert versions == sorted(set(versions)), f"a state came twice or out of order: {versions}"
                seat = client.seat
                expected = [_event_json(entry, row) for entry in entries for row in entry.events
                            if _visible(row, seat, entry.version, 0)]
                assert _events_of(client) == expected
            for client in everyone:
                await client.close()
        finally:
            first.stop()
            second.stop()


async def _store(client: Client, msg_id: str, action: dict[str, Any], version: int | None = None
                 ) -> dict[str, Any]:
    """Send a move until it gets an answer other than ``room_moving`` (the room is changing hands);
    always with the same id, so a move stored whose ack was lost is acknowledged, never applied twice."""
    for _ in range(40):
        await client.send({"type": "action", "id": msg_id, "action": action, "version": version})
        reply = await client.reply(msg_id)
        if reply["type"] != "error" or reply["code"] != "room_moving":
            return reply
    raise AssertionError(f"{msg_id}: the room never settled on an owner")


@needs_postgres
async def test_sigkill_of_the_owner_mid_burst_loses_no_acknowledged_move_and_the_room_resumes(
        tmp_path: Path) -> None:
    rng = random.Random(5)
    async with fresh_postgres() as url:
        lifted = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
        owner = ServerProcess(tmp_path, url, **lifted).start()
        other = ServerProcess(tmp_path, url, **lifted).start()
        try:
            # Created through the first instance, which loads it first and so owns it.
            room, tokens = await make_room(owner.http, 2, preset="hiina-turakas")
            players = [Client(owner.ws, room, tokens[0]), Client(other.ws, room, tokens[1])]
            watcher = Client(other.ws, room, None)
            for client in [*players, watcher]:
                await client.connect()
            assert (await players[0].host("start"))["type"] == "ack"
            for client in [*players, watcher]:
                await client.wait_state(lambda s: s["view"] is not None)
            acked: dict[str, int] = {}
            in_flight: tuple[str, dict[str, Any]] | None = None
            for i in range(200):
                mover = next(p for p in players if p.state and p.state["legal"])
                assert mover.state is not None
                action = choose(mover.state["legal"], rng)
                msg_id = f"b{i}"
                if len(acked) >= 8 and mover is players[0]:
                    # Mid-burst: the owner dies with this move sent and its answer not yet back.
                    await mover.send({"type": "action", "id": msg_id, "action": action})
                    owner.kill()
                    in_flight = (msg_id, action)
                    break
                reply = await _store(mover, msg_id, action)
                assert reply["type"] == "ack", reply
                acked[msg_id] = reply["version"]
                for client in [*players, watcher]:
                    await client.wait_version(reply["version"])
            assert in_flight is not None
            # The killed instance's players reconnect to the other one (as a proxy would send them).
            players[0] = Client(other.ws, room, tokens[0])
            await players[0].connect(last_version=max(acked.values()))
            # The move in flight: stored once or not at all; its id answers the same either way.
            reply = await _store(players[0], in_flight[0], in_flight[1])
            if reply["type"] == "ack":
                acked[in_flight[0]] = reply["version"]
            # The room resumes on the surviving instance: moves are stored and heard again.
            for i in range(6):
                for client in [*players, watcher]:
                    await client.wait_version(max(acked.values()))
                state = players[0].state
                assert state is not None
                if state["outcome"] is not None:
                    break
                mover = next(p for p in players if p.state and p.state["legal"])
                assert mover.state is not None
                reply = await _store(mover, f"after{i}", choose(mover.state["legal"], rng))
                assert reply["type"] == "ack", reply
                acked[f"after{i}"] = reply["version"]
            engine = make_engine(url)
            try:
                entries = await queries.log_since(engine, room, 0, limit=1_000_000)
            finally:
                await engine.dispose()
            stored = [e.msg_id for e in entries if e.msg_id is not None]
            # Every acknowledged move is stored, once, at the version its ack named.
            assert sorted(stored) == sorted(set(stored))
            by_id = {e.msg_id: e.version for e in entries if e.msg_id is not None}
            assert {msg_id: by_id.get(msg_id) for msg_id in acked} == acked
            for client in [*players, watcher]:
                await client.close()
        finally:
            owner.stop()
            other.stop()


# Chat at a scripted pace and bots that move at once (the takeover test waits for them, not for time).
CHATTY = {"HOUSERULES_CHAT_PER_MINUTE": "100000", "HOUSERULES_CHAT_BURST": "1000",
          "HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0"}


async def _open_room(http: str, seats: int, members: int, options: dict[str, Any] | None = None
                     ) -> tuple[str, list[str]]:
    """A Palace room for ``seats`` with ``members`` people in it (the host first): id and tokens."""
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        made = await client.post("/api/rooms", json={"game": "palace", "name": "Kati", "seats": seats,
                                                     "preset": "hiina-turakas", "options": options or {}})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        tokens = [made.json()["token"]]
        for i in range(1, members):
            joined = await client.post(f"/api/rooms/{room}/join", json={"name": f"P{i}"})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
    return room, tokens


async def _join(http: str, room: str, name: str, seat: int | None = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        return await client.post(f"/api/rooms/{room}/join",
                                 json={"name": name, **({} if seat is None else {"seat": seat})})


def _chat_lines(client: Client) -> list[str]:
    return [r.message["text"] for r in client.received if r.message["type"] == "chat"]


async def _answers(client: Client, ids: list[str]) -> dict[str, str]:
    """The type of the answer (ack or error) to each of ``ids``, in whatever order they come."""
    answered: dict[str, str] = {}
    while len(answered) < len(ids):
        message = await client.next()
        if message["type"] in ("ack", "error") and message.get("id") in ids:
            answered[message["id"]] = message["type"]
    return answered


@needs_postgres
async def test_chat_joins_and_leaving_through_the_other_instance_go_through_the_owner(tmp_path: Path) -> None:
    """Chat, a join and a leave sent to the instance that does not own the room are handed to the
    owner: every socket on either instance gets the same chat lines once each, in one order (each
    sender's own in the order sent); two joins for one seat through the two instances at once seat
    one newcomer there, never two; the leaver's socket gets its ack, then ``left``."""
    async with fresh_postgres() as url:
        first = ServerProcess(tmp_path, url, **LIFTED, **CHATTY).start()
        second = ServerProcess(tmp_path, url, **LIFTED, **CHATTY).start()
        try:
            # Created and joined through the first instance, which loads the room and so owns it.
            room, tokens = await _open_room(first.http, 5, 3)
            host, other = Client(first.ws, room, tokens[0]), Client(first.ws, room, tokens[2])
            remote = Client(second.ws, room, tokens[1])
            watchers = [Client(first.ws, room, None), Client(second.ws, room, None)]
            everyone = [host, other, remote, *watchers]
            for client in everyone:  # the owner's sockets first: it keeps the room
                await client.connect()
            # Both seat 1 (through the second instance) and seat 0 chat at once, ten lines each.
            ids = [f"c{i}" for i in range(20)]
            for i in range(10):
                await remote.send({"type": "chat", "id": ids[2 * i], "text": f"remote {i}"})
                await host.send({"type": "chat", "id": ids[2 * i + 1], "text": f"host {i}"})
            assert await _answers(remote, ids[0::2]) == {msg_id: "ack" for msg_id in ids[0::2]}
            assert await _answers(host, ids[1::2]) == {msg_id: "ack" for msg_id in ids[1::2]}
            for client in everyone:
                await _until(lambda c=client: len(_chat_lines(c)) >= 20, "every chat line arrived")
            order = _chat_lines(host)
            sent = [f"remote {i}" for i in range(10)] + [f"host {i}" for i in range(10)]
            assert sorted(order) == sorted(sent)
            assert [line for line in order if line.startswith("remote")] == [f"remote {i}" for i in range(10)]
            assert [line for line in order if line.startswith("host")] == [f"host {i}" for i in range(10)]
            for client in everyone:
                assert _chat_lines(client) == order
            # Two newcomers ask for seat 3 at once, one through each instance: the owner decides.
            answers = await asyncio.gather(_join(second.http, room, "Mari", 3),
                                           _join(first.http, room, "Jaan", 3))
            assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
            winner = next(a for a in answers if a.status_code == 201)
            loser = next(a for a in answers if a.status_code == 409)
            assert winner.json()["seat"] == 3 and loser.json()["code"] == "seat_taken"
            name = "Mari" if answers[0].status_code == 201 else "Jaan"
            # A join through the second instance with no seat asked for: the owner's next free seat.
            late = await _join(second.http, room, "Liis")
            assert late.status_code == 201, late.text
            assert late.json()["seat"] == 4
            for client in everyone:
                seen = await room_message(client, lambda m: m["seats"][3]["name"] is not None
                                           and m["seats"][4]["name"] is not None)
                assert (seen["seats"][3]["name"], seen["seats"][4]["name"]) == (name, "Liis")
            # The newest member (on the second instance) leaves: ack, then ``left``, then the close.
            liis = Client(second.ws, room, late.json()["token"])
            await liis.connect()
            await liis.send({"type": "leave", "id": "bye"})
            assert (await liis.reply("bye"))["type"] == "ack"
            await liis.expect("left")
            assert await liis.wait_closed() == 1000
            for client in everyone:
                await room_message(client, lambda m: m["seats"][4]["name"] is None)
            engine = make_engine(url)
            try:
                record = await queries.load_room(engine, room)
            finally:
                await engine.dispose()
            assert record is not None
            by_name = {m["name"]: m for m in record.members}
            assert by_name["Liis"]["status"] == "gone"
            assert [m["seat"] for m in record.members if m["status"] == "seated"].count(3) == 1
            assert [c["text"] for c in record.chat][-20:] == order
            for client in everyone:
                await client.close()
        finally:
            first.stop()
            second.stop()


@needs_postgres
async def test_a_player_connected_only_to_the_other_instance_is_never_taken_over_by_a_bot(
        tmp_path: Path) -> None:
    """With ``bot_takeover_seconds`` set, the owner's bots stand in only for players connected
    nowhere: seat 3 (its socket on the second instance, closed after the deal) is played by a bot
    once the takeover delay is over, while seat 1, connected only to the second instance all along,
    plays every turn of its own. Each time seat 1 may move after seat 3's bot has moved, seat 0
    first sends a chat line through the owner: had the owner counted seat 1 as away, its bot's
    move (due at once, bots move without delay here) would hold the room before that line, so
    the line's ack comes only after the bot's state would have."""
    rng = random.Random(8)
    async with fresh_postgres() as url:
        first = ServerProcess(tmp_path, url, **LIFTED, **CHATTY).start()
        second = ServerProcess(tmp_path, url, **LIFTED, **CHATTY).start()
        try:
            room, tokens = await _open_room(first.http, 4, 4, {"bot_takeover_seconds": 1})
            players = [Client(first.ws, room, tokens[0]), Client(second.ws, room, tokens[1]),
                       Client(first.ws, room, tokens[2])]
            leaver = Client(second.ws, room, tokens[3])
            host = players[0]
            for client in [*players, leaver]:  # the owner's sockets first: it keeps the room
                await client.connect()
            # The owner knows of the second instance's sockets (their presence).
            await room_message(host, lambda m: m["seats"][1]["connected"] and m["seats"][3]["connected"])
            assert (await host.host("start"))["type"] == "ack"
            for client in [*players, leaver]:
                await client.wait_state(lambda s: s["view"] is not None)
            await leaver.close()
            await room_message(host, lambda m: not m["seats"][3]["connected"])

            def bot_moves(seat: int) -> list[dict[str, Any]]:
                return [event for r in host.received if r.message["type"] == "state"
                        for event in r.message["events"] if event.get("bot") and event["seat"] == seat]

            checked = 0
            for i in range(3000):
                state = host.state
                assert state is not None and state["outcome"] is None, "the game ended first"
                if checked >= 4:
                    break
                for client in players[1:]:
                    await client.wait_version(state["version"])
                movers = [p for p in players if p.state and p.state["legal"]]
                if not movers:  # seat 3's bot is to move
                    await host.wait_state(lambda s, v=state["version"]: s["version"] > v)
                    continue
                mover = rng.choice(movers)
                assert mover.state is not None
                seat_one_checked = False
                if mover is players[1] and bot_moves(3):
                    # Past the takeover delay (seat 3's bot has played) and seat 1 may move.
                    await host.send({"type": "chat", "id": f"flush{i}", "text": "."})
                    assert (await host.reply(f"flush{i}"))["type"] == "ack"
                    assert bot_moves(1) == [], "a bot played for a player connected to the other instance"
                    seat_one_checked = True
                reply = await mover.act(choose(mover.state["legal"], rng), version=mover.state["version"])
                if reply["type"] == "error":
                    # Seat 3's bot moved first (a move out of turn in the swap phase): look again.
                    assert reply["code"] == "stale_version", reply
                    await host.wait_state(lambda s, v=state["version"]: s["version"] > v)
                    continue
                # Counted once seat 1's own move is stored, as the log check below counts them.
                if seat_one_checked:
                    checked += 1
                await host.wait_version(reply["version"])
            assert checked >= 4
            stand_in = await room_message(host, lambda m: m["seats"][3]["stand_in"])
            assert stand_in["seats"][1]["connected"] and not stand_in["seats"][1]["stand_in"]
            engine = make_engine(url)
            try:
                entries = await queries.log_since(engine, room, 0, limit=1_000_000)
            finally:
                await engine.dispose()
            bots = [e for e in entries if e.kind == "bot"]
            assert bots and {e.seat for e in bots} == {3}
            own = [e for e in entries if e.kind == "move" and e.seat == 1 and e.version > bots[0].version]
            assert len(own) >= 4
            for client in players:
                await client.close()
        finally:
            first.stop()
            second.stop()


@needs_postgres
@pytest.mark.fair_wait  # a seat contributes: the documented wait for it (tests/conftest.py)
async def test_a_seat_on_the_other_instance_contributes_to_the_owners_round(tmp_path: Path) -> None:
    """The sockets of a room on an instance that does not own it are shown the owner's next-deal
    commitment, so their contributions (handed to the owner) count: the deal lists them."""
    async with fresh_postgres() as url:
        first = ServerProcess(tmp_path, url, **LIFTED).start()
        second = ServerProcess(tmp_path, url, **LIFTED).start()
        try:
            room, tokens = await _open_room(first.http, 3, 3)
            host, other = Client(first.ws, room, tokens[0]), Client(first.ws, room, tokens[2])
            remote = Client(second.ws, room, tokens[1])
            watcher = Client(second.ws, room, None)
            everyone = [host, other, remote, watcher]
            for client in everyone:  # the owner's sockets first: it keeps the room
                await client.connect()
            owners = (await room_message(host, lambda m: True))["fair"]["commitment"]
            for client in (remote, watcher):
                await room_message(client, lambda m: m["fair"]["commitment"] == owners)
            given = "ab" * 32
            # Its hash first, handed to the owner; its bytes when the deal seals the hashes.
            answer = await remote.pledge(owners, given)
            assert answer["type"] == "contributed", answer
            for client in everyone:
                await room_message(client, lambda m: m["fair"]["hashed"] == [1])
            assert (await host.host("start"))["type"] == "ack"
            for client in everyone:
                await client.wait_state(lambda s: s["view"] is not None)
            (deal,) = [e for e in _events_of(watcher) if e["type"] == "deal"]
            assert deal["commitment"] == owners and deal["contributions"] == [None, given, None]
            # The next game's commitment reaches the other instance too.
            for client in (remote, watcher):
                await room_message(client, lambda m: m["fair"]["commitment"] not in (owners,))
            fresh = (await room_message(host, lambda m: m["fair"]["commitment"] != owners))["fair"]
            await room_message(remote, lambda m: m["fair"]["commitment"] == fresh["commitment"])
            for client in everyone:
                await client.close()
        finally:
            first.stop()
            second.stop()
