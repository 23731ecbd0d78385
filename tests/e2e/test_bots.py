"""Bots in rooms over real sockets (SQLite and PostgreSQL): the host seats and removes them, a
practice room (one person, two bots) plays a whole game, a disconnected player's seat is played by
a bot after the sheet's delay and handed back on return, and bots play on after a SIGKILL."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import TIMEOUT, Client, choose, room_message
from tests.e2e.conftest import Backend
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess

NO_DELAY = {"HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0"}


@pytest.fixture(scope="module")
def bot_server(backend: Backend) -> Iterator[ServerProcess]:
    proc = backend.server(**NO_DELAY).start()
    try:
        yield proc
    finally:
        proc.stop()


async def open_room(http: str, seats: int, *, game: str = "palace", preset: str | None = "hiina-turakas",
                    options: dict[str, Any] | None = None) -> tuple[str, str]:
    """A room for ``seats`` with only its host in it: (room id, host token)."""
    body: dict[str, Any] = {"game": game, "name": "Kati", "seats": seats}
    if preset:
        body["preset"] = preset
    if options:
        body["options"] = options
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        made = await client.post("/api/rooms", json=body)
    assert made.status_code == 201, made.text
    return made.json()["room"], made.json()["token"]


async def join(http: str, room: str, name: str, seat: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        return await client.post(f"/api/rooms/{room}/join", json=body)


def bot_events(client: Client, seat: int | None = None) -> list[dict[str, Any]]:
    return [event for r in client.received if r.message["type"] == "state"
            for event in r.message["events"] if event.get("bot") and (seat is None or event["seat"] == seat)]


async def play_to_end(player: Client, rng: random.Random, *, stop: Any = None, max_moves: int = 3000) -> int:
    """The person plays random legal moves whenever it may; bots play the other seats.

    Waits for a new state whenever it has nothing to do (a stall fails with a timeout).
    Returns the number of its own moves.
    """
    moves = 0
    while True:
        state = player.state
        assert state is not None
        if state["outcome"] is not None or (stop is not None and stop(state)):
            return moves
        assert moves < max_moves, "the game did not end"
        version = state["version"]
        if state["legal"]:
            reply = await player.act(choose(state["legal"], rng), version=version)
            if reply["type"] == "ack":
                moves += 1
            else:
                # A bot moved first (an out-of-turn move): look again.
                assert reply["code"] in ("stale_version", "not_your_turn"), reply
        await player.wait_state(lambda s, v=version: s["version"] > v or s["outcome"] is not None)


async def test_host_seats_and_removes_a_bot_and_a_friend_takes_a_bots_seat(bot_server: ServerProcess) -> None:
    room, token = await open_room(bot_server.http, 3)
    host = Client(bot_server.ws, room, token)
    await host.connect()
    reply = await host.host("add_bot", seat=2, level="easy")
    assert reply["type"] == "ack", reply
    seated = await room_message(host, lambda m: m["seats"][2]["name"] is not None)
    assert seated["seats"][2]["bot"] == "easy" and seated["seats"][2]["free"]
    assert seated["seats"][0]["bot"] is None
    # Bad requests change nothing.
    assert (await host.host("add_bot", seat=0))["code"] == "seat_taken"
    assert (await host.host("remove_bot", seat=0))["code"] == "not_a_bot"
    assert (await host.host("add_bot", seat=1, level="genius"))["type"] == "error"
    reply = await host.host("remove_bot", seat=2)
    assert reply["type"] == "ack", reply
    empty = await room_message(host, lambda m: m["seats"][2]["name"] is None)
    assert empty["seats"][2]["bot"] is None
    # A friend with the invite link takes a bot's seat: the bot leaves.
    assert (await host.host("add_bot", seat=1))["type"] == "ack"
    joined = await join(bot_server.http, room, "Mari", seat=1)
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"] == 1
    friend = await room_message(host, lambda m: m["seats"][1]["name"] == "Mari")
    assert friend["seats"][1]["bot"] is None
    # Not the host: refused.
    mari = Client(bot_server.ws, room, joined.json()["token"])
    await mari.connect()
    assert (await mari.host("add_bot", seat=2))["code"] == "not_host"
    await mari.close()
    await host.close()


async def test_practice_room_one_player_two_bots_plays_a_whole_palace_game(
    backend: Backend, bot_server: ServerProcess
) -> None:
    room, token = await open_room(bot_server.http, 3)
    host = Client(bot_server.ws, room, token)
    await host.connect()
    watcher = Client(bot_server.ws, room, None)
    await watcher.connect()
    assert (await host.host("add_bot", seat=1))["type"] == "ack"
    assert host.state is not None and host.state["view"] is None
    # The room is full with one person and bots: the game starts at once.
    assert (await host.host("add_bot", seat=2, level="easy"))["type"] == "ack"
    await host.wait_state(lambda s: s["view"] is not None)
    await play_to_end(host, random.Random(3))
    assert host.state is not None and host.state["outcome"] is not None
    await watcher.wait_version(host.version)
    assert watcher.state is not None and watcher.state["outcome"] == host.state["outcome"]
    # Every seat's moves were made, the bots' marked as theirs in the log.
    assert {event["seat"] for event in bot_events(host)} == {1, 2}
    assert bot_events(watcher)
    # In the stored log every move of seats 1 and 2 is a bot's, each with its own version.
    engine = make_engine(backend.database_url())
    try:
        log = await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()
    moves = [e for e in log if e.kind != "deal"]
    assert {e.seat for e in moves if e.kind == "bot"} == {1, 2}
    assert all(e.kind == "bot" for e in moves if e.seat in (1, 2))
    assert all(e.kind == "move" for e in moves if e.seat == 0)
    assert [e.version for e in log] == list(range(log[0].version, log[0].version + len(log)))
    await host.close()
    await watcher.close()


async def test_a_disconnected_seat_is_played_by_a_bot_and_handed_back(bot_server: ServerProcess) -> None:
    room, token = await open_room(bot_server.http, 2, options={"bot_takeover_seconds": 1})
    joined = await join(bot_server.http, room, "Mari")
    assert joined.status_code == 201
    host = Client(bot_server.ws, room, token)
    friend = Client(bot_server.ws, room, joined.json()["token"])
    await host.connect()
    await friend.connect()
    assert (await host.host("start"))["type"] == "ack"
    await friend.wait_state(lambda s: s["view"] is not None)
    await friend.close()
    rng = random.Random(5)
    # The host plays on; after the delay the bot plays the friend's seat (or the game ends first).
    await play_to_end(host, rng, stop=lambda s: bool(bot_events(host, 1)))
    assert bot_events(host, 1), "no bot took over the disconnected seat"
    taken = await room_message(host, lambda m: m["seats"][1]["stand_in"])
    assert not taken["seats"][1]["connected"]
    # The bot's first move for the friend (a swap or a play) cannot have ended the game.
    assert host.state is not None and host.state["outcome"] is None
    # The friend comes back: the seat is theirs again from the next move.
    friend.received.clear()
    await friend.connect(last_version=friend.version)
    before = len(bot_events(host, 1))
    back = await room_message(host, lambda m: m["seats"][1]["connected"])
    assert not back["seats"][1]["stand_in"]
    moves = 0
    while host.state is not None and host.state["outcome"] is None and moves < 6:
        mover = next((c for c in (host, friend) if c.state and c.state["legal"]), None)
        if mover is None:
            await host.wait_state(lambda s, v=host.version: s["version"] > v)
            continue
        assert mover.state is not None
        reply = await mover.act(choose(mover.state["legal"], rng), version=mover.state["version"])
        assert reply["type"] == "ack", reply
        await host.wait_version(reply["version"])
        await friend.wait_version(reply["version"])
        moves += 1
    assert len(bot_events(host, 1)) == before
    await host.close()
    await friend.close()


async def test_sigkill_mid_game_with_bots_resumes_with_the_bots_playing(backend: Backend) -> None:
    server = backend.server(**NO_DELAY).start()
    try:
        room, token = await open_room(server.http, 3, options={"finish": "play_to_last"})
        host = Client(server.ws, room, token)
        await host.connect()
        assert (await host.host("add_bot", seat=1))["type"] == "ack"
        assert (await host.host("add_bot", seat=2))["type"] == "ack"
        await host.wait_state(lambda s: s["view"] is not None)
        rng = random.Random(9)
        await play_to_end(host, rng, stop=lambda s: s["version"] >= 20)
        before_kill = host.version
        server.kill()
        await host.close()
        server = backend.server(**NO_DELAY).start()
        host.base = server.ws
        host.received.clear()
        await host.connect(last_version=before_kill)
        assert host.version >= before_kill
        await play_to_end(host, rng)
        assert host.state is not None and host.state["outcome"] is not None
        assert any(e["version"] > before_kill for e in bot_events(host)), "the bots did not play on"
        await host.close()
    finally:
        server.stop()


async def play_humans(people: list[Client], rng: random.Random, chooser: Any, *, stop: Any = None,
                      max_moves: int = 3000) -> None:
    """The people play random legal moves while bots play their seats, until ``stop`` or the end."""
    lead = people[0]
    for _ in range(max_moves):
        state = lead.state
        assert state is not None
        if state["outcome"] is not None or (stop is not None and stop(state)):
            return
        version = state["version"]
        # Everyone's state of this version first: the seat to act may be another person's.
        for person in people:
            await person.wait_state(lambda s, v=version: s["version"] >= v)
        movers = [p for p in people if p.state and p.state["legal"] and p.state["version"] == version]
        mover = movers[0] if movers else None
        if mover is not None:
            assert mover.state is not None
            reply = await mover.act(chooser(mover.state["legal"], rng), version=version)
            if reply["type"] == "error":
                assert reply["code"] == "stale_version", reply
        for person in people:
            await person.wait_state(lambda s, v=version: s["version"] > v or s["outcome"] is not None)
    raise AssertionError("the game did not end")


async def test_a_bot_sits_down_at_a_running_holdem_table_plays_and_leaves(bot_server: ServerProcess) -> None:
    def calm(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        quiet = [a for a in legal if a["type"] in ("check", "call", "show", "muck", "no_straddle")]
        return concrete(rng.choice(quiet or legal), rng)

    cash = {"max_hands": 6, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40, "straddle": "off"}
    room, token = await open_room(bot_server.http, 3, game="holdem", preset="cash-nl-1-2", options=cash)
    joined = await join(bot_server.http, room, "Mati")
    host = Client(bot_server.ws, room, token)
    guest = Client(bot_server.ws, room, joined.json()["token"])
    await host.connect()
    await guest.connect()
    assert (await host.host("start"))["type"] == "ack"
    await host.wait_state(lambda s: s["view"] is not None)
    rng = random.Random(4)
    await play_humans([host, guest], rng, calm, stop=lambda s: s["view"]["hands_played"] >= 1)
    # Between hands the host seats a bot in the free seat: it buys in and is dealt in.
    assert (await host.host("add_bot", seat=2))["type"] == "ack"
    await play_humans([host, guest], rng, calm,
                      stop=lambda s: any(e["type"] not in ("joined",) for e in bot_events(host, 2)))
    assert any(e["type"] == "joined" for e in bot_events(host, 2))
    assert (await host.host("remove_bot", seat=2))["type"] == "ack"
    await play_humans([host, guest], rng, calm)
    assert host.state is not None and host.state["outcome"] is not None
    assert any(e["type"] in ("leaving", "left", "cash_out", "cashed_out") for e in bot_events(host, 2)), \
        [e["type"] for e in bot_events(host, 2)]
    await host.close()
    await guest.close()


async def test_practice_thousand_one_player_two_bots_to_the_target(bot_server: ServerProcess) -> None:
    room, token = await open_room(bot_server.http, 3, game="thousand", preset="tuhat",
                                  options={"target_score": 300})
    host = Client(bot_server.ws, room, token)
    await host.connect()
    assert (await host.host("add_bot", seat=1))["type"] == "ack"
    assert (await host.host("add_bot", seat=2, level="easy"))["type"] == "ack"
    await host.wait_state(lambda s: s["view"] is not None)
    await play_to_end(host, random.Random(8))
    assert host.state is not None and host.state["outcome"] is not None
    assert max(host.state["view"]["scores"]) >= 300
    kinds = {event["type"] for event in bot_events(host)}
    assert {"bid", "play"} <= kinds or {"pass", "play"} <= kinds, kinds
    await host.close()
