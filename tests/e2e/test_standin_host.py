"""The host's answers to an absence over real sockets (SQLite and PostgreSQL): a bot in a vacated
seat of a running Palace or Thousand game, a bot for an away player at once (and the seat handed
back on return), the game's default move for an away or vacated seat's turn, and every refusal
(stable code, nothing changed)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.e2e.client import TIMEOUT, Client, choose, room_message
from tests.e2e.conftest import Backend
from tests.e2e.test_bots import bot_events, join, open_room
from tests.games.game_cases import cases_of, names
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess

NO_DELAY = {"HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0"}


@pytest.fixture(scope="module")
def host_server(backend: Backend) -> Iterator[ServerProcess]:
    proc = backend.server(**NO_DELAY).start()
    try:
        yield proc
    finally:
        proc.stop()


async def three_at_a_table(server: ServerProcess, game: str, preset: str,
                           options: dict[str, Any] | None = None) -> tuple[str, list[Client], Client]:
    """A started game of three people (host at seat 0) and a spectator."""
    room, token = await open_room(server.http, 3, game=game, preset=preset, options=options)
    tokens = [token]
    for name in ("Mari", "Kati"):
        joined = await join(server.http, room, name)
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    players = [Client(server.ws, room, t) for t in tokens]
    watcher = Client(server.ws, room, None)
    for client in [*players, watcher]:
        await client.connect()
    assert (await players[0].host("start"))["type"] == "ack"
    for client in [*players, watcher]:
        await client.wait_state(lambda s: s["view"] is not None)
    return room, players, watcher


async def play_until(players: list[Client], rng: random.Random, done: Callable[[], bool],
                     max_moves: int = 2000) -> None:
    """Random legal moves by whichever connected player may move, until ``done()``."""
    live = [p for p in players if not p.closed.is_set()]
    for _ in range(max_moves):
        version = max(p.version for p in live)
        for p in live:
            await p.wait_version(version)
        if done():
            return
        movers = [p for p in live if p.state and p.state["legal"]]
        if not movers:  # a bot's turn: the table goes on without anyone here
            await live[0].wait_state(lambda s, v=version: s["version"] > v, timeout=30)
            continue
        mover = rng.choice(movers)
        assert mover.state is not None
        reply = await mover.act(pick(mover.state["legal"], rng), version=version)
        assert reply["type"] == "ack" or reply["code"] == "stale_version", reply
    raise AssertionError("not reached")


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal move, a range (a bet's size) made concrete; calm bets keep a Hold'em table going."""
    calm = [a for a in legal if a["type"] in ("check", "call", "show", "muck", "no_straddle")]
    return concrete(rng.choice(calm), rng) if calm else concrete(choose(legal, rng), rng)


async def room_after(client: Client, start: int, ok: Callable[[dict[str, Any]], bool],
                     timeout: float = TIMEOUT) -> dict[str, Any]:
    """The first room message this socket received after its ``start``-th message that satisfies
    ``ok`` (waits for it to come)."""
    index = start
    deadline = time.monotonic() + timeout
    while True:
        while index < len(client.received):
            message = client.received[index].message
            index += 1
            if message["type"] == "room" and ok(message):
                return message
        # Any message wakes this up (every one is in ``received`` before it is queued).
        await client.next(max(0.01, deadline - time.monotonic()))


def alone_to_act(players: list[Client], seat: int) -> bool:
    """Only ``seat`` may move now (its turn: the table waits for it)."""
    return all(bool(p.state and p.state["legal"]) == (p.seat == seat) for p in players)


# Every registered game whose room (its test folder's ``GameCases.room``) seats three or more: these
# tests seat three people.
GAMES = [(name, cases_of(name).room.preset) for name in names() if cases_of(name).room.seats >= 3]


@pytest.mark.parametrize(("game", "preset"), GAMES)
async def test_host_seats_a_bot_in_a_vacated_seat_mid_game(host_server: ServerProcess, game: str,
                                                           preset: str) -> None:
    _, players, watcher = await three_at_a_table(host_server, game, preset)
    host = players[0]
    rng = random.Random(11)
    await play_until(players, rng, lambda: alone_to_act(players, 2))
    # Kati is removed on her turn: her seat's cards wait, and the table waits with them.
    assert (await host.host("kick", seat=2))["type"] == "ack"
    vacated = await room_message(watcher, lambda m: m["seats"][2]["name"] is None)
    assert vacated["seats"][2]["takes_over"] and vacated["seats"][2]["free"]
    before = host.version
    reply = await host.host("add_bot", seat=2, level="easy")
    assert reply["type"] == "ack", reply
    seated = await room_message(watcher, lambda m: m["seats"][2]["bot"] == "easy")
    assert seated["status"] == "playing" and seated["seats"][2]["name"]
    # The bot plays the seat's cards at once; the game goes on.
    await host.wait_state(lambda s: bool(bot_events(host, 2)))
    assert min(e["version"] for e in bot_events(host, 2)) > before
    await watcher.wait_version(host.version)
    assert bot_events(watcher, 2)
    # Refusals change nothing: no free seat is left to seat a bot in; a bot's seat plays by itself.
    assert (await host.host("add_bot", seat=2))["code"] == "seat_taken"
    assert (await host.host("stand_in", seat=2))["code"] == "bot_plays"
    assert (await host.host("skip", seat=2))["code"] == "bot_plays"
    # A bot's seat in a running game comes with its cards for a friend who takes it.
    latest = await room_message(watcher, lambda m: m["seats"][2]["bot"] == "easy")
    assert latest["seats"][2]["takes_over"] and not latest["seats"][0]["takes_over"]
    for client in [*players[:2], watcher]:
        await client.close()


@pytest.mark.parametrize(("game", "preset"), GAMES)
async def test_host_skips_an_away_seat_and_lets_a_bot_stand_in_and_every_refusal(
        host_server: ServerProcess, game: str, preset: str) -> None:
    # No countdown (0: never): only the host's operations move the away seat.
    _, players, watcher = await three_at_a_table(host_server, game, preset, {"bot_takeover_seconds": 0})
    host, mari, kati = players
    rng = random.Random(5)
    # Refused while everyone is here.
    assert (await host.host("skip", seat=1))["code"] in ("player_connected", "not_their_turn")
    assert (await host.host("stand_in", seat=1))["code"] == "player_connected"
    assert (await host.host("stand_in", seat=0))["code"] == "player_connected"
    assert (await host.host("stand_in", seat=7))["code"] == "empty_seat"
    assert (await mari.host("skip", seat=2))["code"] == "not_host"
    await play_until(players, rng, lambda: alone_to_act(players, 2))
    at_turn = host.version
    await kati.close()
    away = await room_message(watcher, lambda m: not m["seats"][2]["connected"])
    # No countdown with 0 (never), but her turn may be skipped.
    assert away["seats"][2]["takeover_in"] is None and not away["seats"][2]["stand_in"]
    assert away["seats"][2]["skip"] and not away["seats"][1]["skip"]
    assert (await host.host("skip", seat=1))["code"] == "player_connected"
    assert host.version == at_turn
    reply = await host.host("skip", seat=2)
    assert reply["type"] == "ack", reply
    await watcher.wait_version(at_turn + 1)
    skipped = [e for r in watcher.received if r.message["type"] == "state"
               for e in r.message["events"] if e.get("skipped")]
    # One entry, the away seat's default move; its events may speak of other seats too (a pass
    # that ends Thousand's auction is followed by the winner's contract in the same entry).
    assert skipped and skipped[0]["seat"] == 2 and {e["version"] for e in skipped} == {at_turn + 1}
    # The default move may leave her to act again (a card drawn when stuck): skipped until her
    # turn is over, then the host no longer has it to skip.
    for _ in range(20):
        reply = await host.host("skip", seat=2)
        if reply["type"] == "error":
            assert reply["code"] == "not_their_turn", reply
            break
    else:
        raise AssertionError("her turn never ended")
    after = await room_message(host, lambda m: not m["seats"][2]["skip"] and not m["seats"][2]["connected"])
    assert after["version"] > at_turn
    # A bot for her at once, though the sheet never takes over by itself.
    reply = await host.host("stand_in", seat=2)
    assert reply["type"] == "ack", reply
    await room_message(watcher, lambda m: m["seats"][2]["stand_in"])
    assert (await host.host("stand_in", seat=2))["code"] == "stand_in_already"
    assert (await host.host("skip", seat=2))["code"] == "stand_in_already"
    live = [host, mari]
    await play_until(live, rng, lambda: bool(bot_events(host, 2)))
    # She comes back: the seat is hers again from the next move on.
    kati.received.clear()
    mark = len(host.received)
    await kati.connect(last_version=kati.version)
    back_at = kati.version
    back = await room_after(host, mark, lambda m: m["seats"][2]["connected"])
    assert not back["seats"][2]["stand_in"] and back["seats"][2]["takeover_in"] is None
    await play_until(players, rng, lambda: bool(kati.state and kati.state["legal"])
                     or bool(host.state and host.state["outcome"]))
    assert all(e["version"] <= back_at for e in bot_events(host, 2))
    for client in [*players, watcher]:
        await client.close()


async def test_host_operations_are_refused_in_the_lobby(host_server: ServerProcess) -> None:
    room, token = await open_room(host_server.http, 3)
    host = Client(host_server.ws, room, token)
    await host.connect()
    assert (await host.host("skip", seat=1))["code"] == "not_playing"
    assert (await host.host("stand_in", seat=1))["code"] == "not_playing"
    assert (await host.host("skip", seat="x"))["code"] == "bad_message"
    lobby = await room_message(host, lambda m: True)
    assert all(s["takeover_in"] is None and not s["skip"] and not s["takes_over"] for s in lobby["seats"])
    await host.close()
