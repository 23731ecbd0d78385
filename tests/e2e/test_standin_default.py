"""Nobody stalls the table, with every game's preset defaults over real sockets: in a Palace, a
Hold'em and a Thousand room at once (one server, so the real 90 s pass once), a player's socket
closes on her turn; every other page is told at once that she is away, with a countdown; a bot
moves for her once it is over; she reconnects and her next turn is hers; nothing is lost."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.registry import get
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client, choose
from tests.e2e.test_bots import join, open_room
from tests.e2e.test_standin_host import alone_to_act, room_after
from tests.games.game_cases import cases_of, names
from tests.games.holdem.helpers import concrete
from tests.support import ServerProcess

# About 90 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(90)

# Every registered game whose room (its test folder's ``GameCases.room``) seats three or more: these
# tests seat three people.
GAMES = [(name, cases_of(name).room.preset) for name in names() if cases_of(name).room.seats >= 3]
KATE = 2
# Generous: the wait is the preset's own countdown, on a machine that may be busy.
PATIENCE = 60.0


@pytest.fixture(scope="module")
def default_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # The bots' human-like delay as configured by default; only the flood limit is lifted.
    proc = ServerProcess(tmp_path_factory.mktemp("standin"), None,
                         HOUSERULES_WS_RATE="10000", HOUSERULES_WS_BURST="10000").start()
    try:
        yield proc
    finally:
        proc.stop()


def pick(game: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if game == "holdem":  # calm betting keeps the hands going
        quiet = [a for a in legal if a["type"] in ("check", "call", "show", "muck", "no_straddle")]
        return concrete(rng.choice(quiet or legal), rng)
    return choose(legal, rng)


async def play_to_turn(game: str, players: list[Client], seat: int, rng: random.Random,
                       since: int = -1, max_moves: int = 3000) -> None:
    """Random moves by the connected players until ``seat`` alone is to act (after version ``since``)."""
    for _ in range(max_moves):
        version = max(p.version for p in players)
        for p in players:
            await p.wait_version(version)
        state = players[0].state
        assert state is not None and state["outcome"] is None, "the game ended first"
        if version > since and alone_to_act(players, seat):
            return
        movers = [p for p in players if p.state and p.state["legal"]]
        if not movers:  # an automatic or timed move is due (a quiet decision's timer)
            await players[0].wait_state(lambda s, v=version: s["version"] > v, timeout=PATIENCE)
            continue
        mover = rng.choice(movers)
        assert mover.state is not None
        reply = await mover.act(pick(game, mover.state["legal"], rng), version=version)
        assert reply["type"] == "ack" or reply["code"] == "stale_version", reply
    raise AssertionError("her turn never came")


def stand_in_moves(client: Client, seat: int) -> list[dict[str, Any]]:
    return [e for r in client.received if r.message["type"] == "state"
            for e in r.message["events"] if e.get("bot") and e["seat"] == seat]


async def one_room(server: ServerProcess, game: str, preset: str, seed: int) -> None:
    takeover = get(game).presets[preset].bot_takeover_seconds
    assert takeover == 90
    room, token = await open_room(server.http, 3, game=game, preset=preset)
    tokens = [token]
    for name in ("Mari", "Kate"):
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
    kate = players[KATE]
    others = [players[0], players[1], watcher]
    rng = random.Random(seed)
    await play_to_turn(game, players, KATE, rng)
    at_turn = kate.version
    marks = [len(c.received) for c in others]
    await kate.close()
    # Every other page hears at once that she is away, with the preset's countdown.
    loop = asyncio.get_running_loop()
    closed_at = loop.time()
    for client, mark in zip(others, marks, strict=True):
        away = await room_after(client, mark, lambda m: not m["seats"][KATE]["connected"])
        seat = away["seats"][KATE]
        assert seat["name"] == "Kate" and not seat["stand_in"]
        assert seat["takeover_in"] is not None and 0 < seat["takeover_in"] <= takeover
    # The table goes on without her (her turn waits, or a quiet decision's timer makes its choice)
    # until the countdown is over and a bot moves for her.
    here = players[:KATE]
    while not stand_in_moves(watcher, KATE):
        assert loop.time() - closed_at < takeover + PATIENCE, "no bot stood in for her"
        version = watcher.version
        movers = [p for p in here if p.state and p.state["legal"] and p.state["version"] == version]
        if movers:
            mover = rng.choice(movers)
            assert mover.state is not None
            reply = await mover.act(pick(game, mover.state["legal"], rng), version=version)
            assert reply["type"] == "ack" or reply["code"] == "stale_version", reply
        await watcher.wait_state(lambda s, v=version: s["version"] > v, timeout=takeover + PATIENCE)
        for p in here:
            await p.wait_version(watcher.version, timeout=PATIENCE)
    waited = loop.time() - closed_at
    # Not before the countdown was over (the test's clock started after the server's did).
    assert waited >= takeover - 5, waited
    for client in others:
        taken = await room_after(client, 0, lambda m: m["seats"][KATE]["stand_in"])
        assert not taken["seats"][KATE]["connected"]
    # She comes back: the seat is hers again, her next turn hers alone.
    marks = [len(c.received) for c in others]
    await kate.connect(last_version=kate.version)
    back_at = kate.version
    for client, mark in zip(others, marks, strict=True):
        back = await room_after(client, mark, lambda m: m["seats"][KATE]["connected"])
        assert not back["seats"][KATE]["stand_in"] and back["seats"][KATE]["takeover_in"] is None
    await play_to_turn(game, players, KATE, rng, since=back_at)
    assert kate.state is not None
    reply = await kate.act(pick(game, kate.state["legal"], rng), version=kate.state["version"])
    assert reply["type"] == "ack", reply
    await watcher.wait_version(reply["version"])
    assert all(e["version"] <= back_at for e in stand_in_moves(watcher, KATE))
    # Nothing lost: the stored log is gapless, the spectator saw every public entry's events, and
    # Kate's two connections together saw every public entry of the game.
    engine = make_engine(f"sqlite+aiosqlite:///{Path(server.tmp) / 'data' / 'houserules.sqlite3'}")
    try:
        log = await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()
    versions = [e.version for e in log]
    # Only the bot or the game's own timers moved her seat while she was away.
    assert not [e for e in log if e.seat == KATE and at_turn < e.version <= back_at and e.kind == "move"]
    assert any(e.seat == KATE and at_turn < e.version <= back_at and e.kind == "bot" for e in log)
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    public = {e.version for e in log if any(row.get("audience") is None for row in e.events)
              and e.version <= reply["version"]}
    seen_by = {id(c): {ev["version"] for r in c.received if r.message["type"] == "state"
                       for ev in r.message["events"]} for c in (watcher, kate)}
    assert public <= seen_by[id(watcher)]
    assert public <= seen_by[id(kate)]
    for client in [*players, watcher]:
        await client.close()


async def test_a_dropped_player_is_stood_in_for_after_the_preset_default_and_gets_her_seat_back(
        default_server: ServerProcess) -> None:
    await asyncio.gather(*(one_room(default_server, game, preset, seed)
                           for seed, (game, preset) in enumerate(GAMES)))
