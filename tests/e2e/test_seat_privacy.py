"""Seat privacy over real sockets, in all three games, on SQLite and PostgreSQL.

Private events, the catch-up after a hello and the history download belong to the member who held
the seat when they happened, not to the seat number: a newcomer who takes a kicked player's seat
gets nothing of the previous holder's (only what a spectator gets of the time before), and the
kicked token is dead everywhere (its sockets, a new hello, the history download).
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from app import verify
from tests.e2e.client import TIMEOUT, Client, choose, make_room, seat_clients
from tests.e2e.conftest import Backend
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess

GAMES = {
    "palace": ("palace", {}),
    "thousand": ("tuhat", {"target_score": 100, "opening_bid": 60}),
    "holdem": ("cash-nl-1-2", {"max_hands": 40, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40,
                               "straddle": "off"}),
}


def choose_any(game: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if game == "holdem":
        calm = [a for a in legal if a["type"] in ("check", "call", "fold")]
        return concrete(rng.choice(calm or legal), rng)
    return choose(legal, rng)


def private_events(client: Client, watcher: Client) -> list[dict[str, Any]]:
    """Events ``client`` received that the spectator did not: the seat's private ones."""
    public = {json.dumps(e, sort_keys=True) for r in watcher.received if r.message["type"] == "state"
              for e in r.message["events"]}
    return [e for r in client.received if r.message["type"] == "state" for e in r.message["events"]
            if json.dumps(e, sort_keys=True) not in public]


def catch_up_events(client: Client) -> list[str]:
    first = next(r.message for r in client.received if r.message["type"] == "state")
    return sorted(json.dumps(e, sort_keys=True) for e in first["events"])


async def hello_as(server: ServerProcess, room: str, token: str | None, last_version: int | None) -> Client:
    client = Client(server.ws, room, token)
    await client.connect(last_version=last_version)
    return client


@pytest.mark.parametrize("how", ["kicked", "left"])
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_newcomer_in_a_vacated_seat_gets_nothing_of_its_holders(
    backend: Backend, server: ServerProcess, game: str, how: str
) -> None:
    """Seat 1's holder is kicked by the host, or leaves (message ``leave``); another person takes
    the seat."""
    preset, options = GAMES[game]
    rng = random.Random(f"privacy-{game}-{backend.name}")
    room, tokens = await make_room(server.http, 3, game=game, preset=preset, options=options)
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    leaver, watcher = seated[1], watchers[0]
    # Play until seat 1 has had private events (cards drawn, a hand looked at, hole cards dealt).
    for _ in range(400):
        if private_events(leaver, watcher):
            break
        movers = [p for p in seated if p.state and p.state["legal"]]
        assert movers and seated[0].state and seated[0].state["outcome"] is None
        mover = rng.choice(movers)
        assert mover.state is not None
        reply = await mover.act(choose_any(game, mover.state["legal"], rng), version=mover.state["version"])
        assert reply["type"] == "ack", reply
        for client in everyone:
            await client.wait_version(reply["version"])
    secret = private_events(leaver, watcher)
    assert secret, "seat 1 never had a private event: the test would prove nothing"

    if how == "kicked":
        assert (await seated[0].host("kick", seat=1))["type"] == "ack"
    else:
        await leaver.send({"type": "leave", "id": "bye"})
        assert (await leaver.reply("bye"))["type"] == "ack"
    await leaver.expect(how)
    assert await leaver.wait_closed() == (4403 if how == "kicked" else 1000)
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        # The kicked token is dead: no socket, no history download.
        dead = await http.get(f"/api/rooms/{room}/history", headers={"Authorization": f"Bearer {tokens[1]}"})
        assert (dead.status_code, dead.json()["code"]) == (403, "bad_token")
        dead = await http.get(f"/api/rooms/{room}/record", headers={"Authorization": f"Bearer {tokens[1]}"})
        assert (dead.status_code, dead.json()["code"]) == (403, "bad_token")
        joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Uus"})
        assert joined.status_code == 201 and joined.json()["seat"] == 1, joined.text
    newcomer_token = joined.json()["token"]
    again = Client(server.ws, room, tokens[1])
    with pytest.raises(ConnectionError):
        await again.connect()
    assert again.close_code == 1008
    assert any(r.message.get("code") == "bad_token" for r in again.received)

    # The newcomer and a fresh spectator catch up on the same past: the newcomer gets no more of it.
    for last_version in (None, 0):
        newcomer = await hello_as(server, room, newcomer_token, last_version)
        spectator = await hello_as(server, room, None, last_version)
        assert newcomer.seat == 1
        assert catch_up_events(newcomer) == catch_up_events(spectator)
        assert not {json.dumps(e, sort_keys=True) for e in secret} & set(catch_up_events(newcomer))
        await newcomer.close()
        await spectator.close()

    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        # The game record (docs/fairness.md) follows the same rule: the newcomer's is the spectator's.
        newcomers = {"Authorization": f"Bearer {newcomer_token}"}
        mine = await http.get(f"/api/rooms/{room}/record", headers=newcomers)
        public = await http.get(f"/api/rooms/{room}/record")
    assert mine.status_code == public.status_code == 200
    assert mine.json()["seat"] is None and mine.json() == public.json()
    if game == "holdem":
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            mine = await http.get(f"/api/rooms/{room}/history",
                                  headers={"Authorization": f"Bearer {newcomer_token}"})
            public = await http.get(f"/api/rooms/{room}/history")
        # The hands so far were played by the previous holder: the newcomer's record is the public one.
        assert mine.status_code == public.status_code == 200
        assert mine.text == public.text
    for client in everyone:
        if not client.closed.is_set():
            await client.close()


async def test_a_refused_request_is_dead_everywhere(backend: Backend, server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "holdem", "name": "Kati", "seats": 3,
                                                   "preset": "cash-nl-1-2", "approval": True})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        host = Client(server.ws, room, made.json()["token"])
        await host.connect()
        asked = await http.post(f"/api/rooms/{room}/join", json={"name": "Võõras"})
        assert asked.status_code == 201 and asked.json()["pending"], asked.text
        token = asked.json()["token"]
        pending = Client(server.ws, room, token)
        await pending.connect()
        assert (await host.host("reject", request=asked.json()["request"]))["type"] == "ack"
        await pending.expect("refused")
        assert await pending.wait_closed() == 4403
        dead = await http.get(f"/api/rooms/{room}/history", headers={"Authorization": f"Bearer {token}"})
        assert (dead.status_code, dead.json()["code"]) == (403, "bad_token")
    again = Client(server.ws, room, token)
    with pytest.raises(ConnectionError):
        await again.connect()
    assert again.close_code == 1008
    # The host cannot leave without handing the role over.
    await host.send({"type": "leave", "id": "host-bye"})
    assert (await host.reply("host-bye"))["code"] == "host_leave"
    await host.close()


async def test_a_newcomer_at_a_fresh_table_seat_downloads_their_own_hands(
    backend: Backend, server: ServerProcess
) -> None:
    """A seat nobody held before is the newcomer's own from the start: their record is the seat's."""
    from app.games.holdem import HOLDEM
    from tests.e2e.leaks import states_by_version

    rng = random.Random(f"fresh-{backend.name}")
    options = {**GAMES["holdem"][1], "max_hands": 6}
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "holdem", "name": "Kati", "seats": 3,
                                                   "preset": "cash-nl-1-2", "options": options})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Mati"})
        tokens = [made.json()["token"], joined.json()["token"]]
        seated, _ = await seat_clients(server.ws, room, tokens, spectators=0)
        assert (await seated[0].host("start"))["type"] == "ack"
        for client in seated:
            await client.wait_state(lambda s: s["view"] is not None)
        late = await http.post(f"/api/rooms/{room}/join", json={"name": "Uus"})
        assert late.status_code == 201 and late.json()["seat"] == 2, late.text
    newcomer = Client(server.ws, room, late.json()["token"])
    await newcomer.connect()
    assert newcomer.state is not None
    sat = await newcomer.act({"type": "join", "seat": 2, "buy_in": 40, "post": True})
    assert sat["type"] == "ack", sat
    players = [*seated, newcomer]
    for client in players:
        await client.wait_version(sat["version"])
    for _ in range(2000):
        state = seated[0].state
        assert state is not None
        if state["outcome"] is not None:
            break
        movers = [p for p in players if p.state and p.state["legal"]]
        mover = rng.choice(movers)
        assert mover.state is not None
        legal = mover.state["legal"]
        # The newcomer folds or mucks whenever it may: its hole cards stay its own secret.
        hidden = [a for a in legal if a["type"] in ("fold", "muck")] if mover is newcomer else []
        action = hidden[0] if hidden else choose_any("holdem", legal, rng)
        reply = await mover.act(action, version=mover.state["version"])
        assert reply["type"] == "ack", reply
        for client in players:
            await client.wait_version(reply["version"])
    states = await states_by_version(backend.database_url(), room)
    final = states[max(states)]
    # The download names the players as the room knows them.
    room_info = [r.message for r in newcomer.received if r.message["type"] == "room"][-1]
    names = {s["seat"]: s["name"] for s in room_info["seats"] if s.get("name")}
    expected = HOLDEM.history(final, 2, names)
    public = HOLDEM.history(final, None, names)
    assert expected is not None and expected != public, "seat 2 never had hidden cards"
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        mine = await http.get(f"/api/rooms/{room}/history",
                              headers={"Authorization": f"Bearer {late.json()['token']}"})
        record = await http.get(f"/api/rooms/{room}/record",
                                headers={"Authorization": f"Bearer {late.json()['token']}"})
    assert mine.status_code == 200 and mine.text == expected[1]
    # The game record is the seat's too, and verifies (the table is over: everything is revealed).
    assert record.status_code == 200 and record.json()["seat"] == 2, record.text
    assert all(check.ok for check in verify.verify(record.json()))
    for client in players:
        await client.close()
