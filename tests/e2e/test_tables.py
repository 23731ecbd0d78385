"""Thousand and Texas Hold'em over real sockets, SQLite and PostgreSQL, like Palace in test_play.

Whole Thousand games; Hold'em tables played to their end (a cash table closing itself after its
hands, a small tournament with a blind clock); table actions (joining mid-game, sitting out),
the server's own clock refused from clients, closing the table refused from a non-host, and a
SIGKILL in the middle of a hand. The leak check runs over every message every socket received.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from app.games.cards import is_card
from app.store import queries
from app.store.db import make_engine
from app.store.queries import LogEntry
from tests.e2e.client import TIMEOUT, Chooser, Client, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.leaks import check_no_early_secrets, check_no_leaks, fair_secrets, states_by_version
from tests.games.holdem.helpers import concrete
from tests.games.holdem.helpers import visible_cards as holdem_visible
from tests.games.properties import cards_in
from tests.games.thousand.test_properties import discourage
from tests.games.thousand.test_properties import visible_cards as thousand_visible
from tests.support import ServerProcess

# About 20 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(20)

CASH = {"max_hands": 8, "buy_in_min": 20, "buy_in_max": 100, "buy_in_default": 40, "straddle": "off"}


def choose_holdem(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    # Random players who seldom fold and often shove end tables (and tournaments) in few hands.
    if rng.random() < 0.3:
        for action in legal:
            if action["type"] == "all_in":
                return concrete(action, rng)
    calm = [a for a in legal if a["type"] != "fold"]
    return concrete(rng.choice(calm if calm and rng.random() < 0.85 else legal), rng)


def choose_calm(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    # Mostly checking and calling: hands reach the flop and beyond.
    calm = [a for a in legal if a["type"] in ("check", "call", "show", "muck", "no_straddle", "run_once")]
    return concrete(rng.choice(calm if calm and rng.random() < 0.9 else legal), rng)


def choose_thousand(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    preferred = [a for a in legal if not discourage(a)]
    return rng.choice(preferred if preferred and rng.random() < 0.95 else legal)


async def play(players: list[Client], everyone: list[Client], rng: random.Random, choose: Chooser,
               limit: int | None = None, max_moves: int = 4000) -> int:
    """Random legal moves, each waited for at every socket; stops at the outcome (or ``limit``)."""
    return await play_moves(players, everyone, rng, limit, max_moves, chooser=choose)


async def _log(backend: Backend, room: str) -> list[LogEntry]:
    engine = make_engine(backend.database_url())
    try:
        return await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()


async def _start(seated: list[Client], everyone: list[Client]) -> None:
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)


def _types(actions: list[dict[str, Any]]) -> set[str]:
    return {a["type"] for a in actions}


async def test_whole_thousand_game(backend: Backend, server: ServerProcess) -> None:
    rng = random.Random(f"thousand-{backend.name}")
    room, tokens = await make_room(server.http, 3, game="thousand", preset="tuhat",
                                   options={"target_score": 100, "opening_bid": 60})
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    await _start(seated, everyone)
    moves = await play(seated, everyone, rng, choose_thousand)
    final = seated[0].state
    assert final is not None and final["outcome"] is not None and moves > 0
    assert sorted(s for group in final["outcome"]["placings"] for s in group) == [0, 1, 2]
    assert max(int(v) for v in final["outcome"]["scores"].values()) >= 100
    for client in everyone:
        assert client.state is not None and client.state["outcome"] == final["outcome"]
        assert client.state["legal"] == [] and client.state["table"] == []
    states = await states_by_version(backend.database_url(), room)
    assert check_no_leaks(everyone, states, thousand_visible) > moves
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > moves
    for client in everyone:
        await client.close()


async def test_cash_table_to_its_end_with_a_mid_game_join(backend: Backend, server: ServerProcess) -> None:
    rng = random.Random(f"cash-{backend.name}")
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"game": "holdem", "name": "Kati", "seats": 4,
                                                   "preset": "cash-nl-1-2", "options": CASH})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        tokens = [made.json()["token"]]
        for name in ("Mati", "Jüri"):
            joined = await http.post(f"/api/rooms/{room}/join", json={"name": name})
            tokens.append(joined.json()["token"])
        seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
        everyone = seated + watchers
        await _start(seated, everyone)
        host, guest = seated[0], seated[1]
        assert host.state is not None and guest.state is not None
        # Table actions come beside `legal`; closing the table is the host's alone.
        assert {"leave", "sit_out", "close_table"} <= _types(host.state["table"])
        assert "close_table" not in _types(guest.state["table"]) and "leave" in _types(guest.state["table"])
        assert "clock" not in _types(host.state["table"]) and watchers[0].state["table"] == []  # type: ignore[index]
        await play(seated, everyone, rng, choose_holdem, limit=6)
        version = host.version
        refused = await guest.act({"type": "close_table"})
        assert refused["type"] == "error" and refused["code"] == "not_host", refused
        refused = await host.act({"type": "clock", "now": 10**9})
        assert refused["type"] == "error" and refused["code"] == "server_only", refused
        # Nor may a player choose the next hand's seed (docs/fairness.md, step 6).
        refused = await guest.act({"type": "reseed", "seed": "0" * 64})
        assert refused["type"] == "error" and refused["code"] == "server_only", refused
        assert host.version == version
        # A fourth player takes the free seat while the table runs and sits down by buying in.
        joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Tiit"})
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == 3
    newcomer = Client(server.ws, room, joined.json()["token"])
    await newcomer.connect()
    seated.append(newcomer)
    everyone.append(newcomer)
    assert newcomer.state is not None and newcomer.state["legal"] == []
    offer = next(a for a in newcomer.state["table"] if a["type"] == "join")
    assert offer["seat"] == 3 and (offer["min"], offer["max"]) == (20, 100)
    too_much = await newcomer.act({"type": "join", "seat": 3, "buy_in": 101})
    assert too_much["type"] == "error" and too_much["code"] == "buy_in_range"
    sat = await newcomer.act({"type": "join", "seat": 3, "buy_in": 60})
    assert sat["type"] == "ack", sat
    for client in everyone:
        await client.wait_version(sat["version"])
    view = newcomer.state["view"]
    assert view["players"][3]["occupied"] and view["players"][3]["bought_in"] == 60
    assert "join" not in _types(newcomer.state["table"]) and "leave" in _types(newcomer.state["table"])
    moves = await play(seated, everyone, rng, choose_holdem)
    final = host.state
    assert final is not None and final["outcome"] is not None
    assert final["outcome"]["reason"] == "table_closed" and final["view"]["hands_played"] == CASH["max_hands"]
    assert sum(final["outcome"]["scores"].values()) == 0  # play money only changes hands
    assert "3" in final["outcome"]["scores"]
    # The newcomer was dealt in and played (it waited for the big blind: H9).
    assert any(e.seat == 3 and e.action["type"] != "join" for e in await _log(backend, room))
    states = await states_by_version(backend.database_url(), room)
    assert check_no_leaks(everyone, states, holdem_visible) > moves
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > moves
    for client in everyone:
        await client.close()


async def test_tournament_to_its_end_with_the_clock_and_a_player_sitting_out(
    backend: Backend, server: ServerProcess
) -> None:
    rng = random.Random(f"tournament-{backend.name}")
    room, tokens = await make_room(server.http, 3, game="holdem", preset="tournament-nl-turbo",
                                   options={"starting_chips": 300})
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    await _start(seated, everyone)
    # The server tells the engine its time right after the deal (levels by minutes), with no seat.
    log = await _log(backend, room)
    assert [e.kind for e in log[:2]] == ["deal", "clock"] and log[1].seat is None
    refused = await seated[1].act({"type": "clock", "now": log[1].action["now"] + 3600})
    assert refused["type"] == "error" and refused["code"] == "server_only"
    refused = await seated[2].act({"type": "join", "seat": 2})
    assert refused["type"] == "error" and refused["code"] == "not_cash"
    # A tournament player sitting out stays dealt in; the server answers its turns at once.
    away = seated[2]
    assert _types(away.state["table"]) == {"sit_out"}  # type: ignore[index]
    reply = await away.act({"type": "sit_out"})
    assert reply["type"] == "ack"
    for client in everyone:
        await client.wait_version(reply["version"])
    assert _types(away.state["table"]) == {"sit_in"}  # type: ignore[index]
    moves = await play(seated, everyone, rng, choose_holdem, limit=12)
    assert away.state is not None and away.state["legal"] == []
    autos = [e for e in await _log(backend, room) if e.kind == "auto"]
    assert autos and {e.seat for e in autos} == {2}
    assert all(e.action["type"] in ("check", "fold") for e in autos)
    if away.state["outcome"] is None and away.state["view"]["players"][2]["occupied"]:
        reply = await away.act({"type": "sit_in"})
        assert reply["type"] == "ack", reply
        for client in everyone:
            await client.wait_version(reply["version"])
    moves += await play(seated, everyone, rng, choose_holdem)
    final = seated[0].state
    assert final is not None and final["outcome"] is not None and final["outcome"]["reason"] == "finished"
    assert sorted(s for group in final["outcome"]["placings"] for s in group) == [0, 1, 2]
    assert sum(final["outcome"]["scores"].values()) == 3 * 300
    states = await states_by_version(backend.database_url(), room)
    assert check_no_leaks(everyone, states, holdem_visible) > moves
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > moves
    for client in everyone:
        await client.close()


async def _reconnect(clients: list[Client], server: ServerProcess) -> None:
    for client in clients:
        await client.close()
        client.base = server.ws
        client.received.clear()
        await client.connect(last_version=client.version)


@pytest.mark.parametrize("snapshot_every", ["4", "50"])
async def test_sigkill_in_the_middle_of_a_holdem_hand(backend: Backend, snapshot_every: str) -> None:
    rng = random.Random(f"kill-{backend.name}-{snapshot_every}")
    # Fixed server seeds (a test-only setting): the same deals, so the same game, in every run.
    # The server started after the kill has seeds of its own (none repeats one of the first's).
    def seeded(run: str) -> dict[str, str]:
        return {"HOUSERULES_SNAPSHOT_EVERY": snapshot_every, "HOUSERULES_ALLOW_TEST_SETTINGS": "1",
                "HOUSERULES_TEST_FIXED_SEED": f"kill-{backend.name}-{snapshot_every}-{run}"}

    server = backend.server(**seeded("first")).start()
    try:
        room, tokens = await make_room(server.http, 4, game="holdem", preset="cash-nl-1-2",
                                       options={**CASH, "max_hands": 12})
        seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
        everyone = seated + watchers
        await _start(seated, everyone)
        # Play on until a later hand is in its betting after the flop (some moves into it).
        for _ in range(400):
            state = seated[0].state
            assert state is not None and state["outcome"] is None
            hand = state["view"]["hand"]
            later = hand is not None and hand["number"] > 1
            if later and hand["phase"] == "bet" and hand["street"] != "preflop":
                break
            await play(seated, everyone, rng, choose_calm, limit=1)
        hand = seated[0].state["view"]["hand"]  # type: ignore[index]
        assert hand is not None and hand["phase"] == "bet" and hand["street"] != "preflop"
        before = {id(c): (c.version, c.state["view"], c.state["legal"]) for c in everyone}  # type: ignore[index]
        server.kill()
        server = backend.server(**seeded("after-the-kill")).start()
        await _reconnect(everyone, server)
        for client in everyone:
            assert client.state is not None
            assert (client.version, client.state["view"], client.state["legal"]) == before[id(client)]
        moves = await play(seated, everyone, rng, choose_holdem)
        assert seated[0].state is not None and seated[0].state["outcome"] is not None
        states = await states_by_version(backend.database_url(), room)
        assert check_no_leaks(everyone, states, holdem_visible) > moves
        assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > moves
        for client in everyone:
            await client.close()
    finally:
        server.stop()


async def test_hand_history_download_holds_only_what_each_seat_saw(
    backend: Backend, server: ServerProcess
) -> None:
    """GET /api/rooms/{room}/history: every finished hand as a PHH set that pokerkit reads, with
    no card the downloading seat (or a spectator, without a token) was not shown over its socket."""
    from pokerkit import HandHistory

    rng = random.Random(f"history-{backend.name}")
    room, tokens = await make_room(server.http, 3, game="holdem", preset="cash-nl-1-2",
                                   options={**CASH, "max_hands": 4})
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    await _start(seated, everyone)

    def fold_often(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        # Folded hands are never shown, so each export has hole cards its reader must not get.
        if {"type": "fold"} in legal and rng.random() < 0.5:
            return {"type": "fold"}
        return choose_holdem(legal, rng)

    await play(seated, everyone, rng, fold_often)
    final = seated[0].state
    assert final is not None and final["outcome"] is not None
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        for client, token in [*zip(seated, tokens, strict=True), (watchers[0], None)]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            reply = await http.get(f"/api/rooms/{room}/history", headers=headers)
            assert reply.status_code == 200, reply.text
            assert "holdem-hands.phhs" in reply.headers["content-disposition"]
            hands = list(HandHistory.loads_all(reply.text))
            assert len(hands) == final["view"]["hands_played"] == 4
            exported = {card for hand in hands for action in hand.actions
                        for part in action.split() for card in _cards_of(part)}
            seen = cards_in([r.message for r in client.received])
            assert exported, "no card at all in the export"
            assert "????" in reply.text, "every hole card was shown: the check below proves nothing"
            assert exported <= seen, f"the export shows {sorted(exported - seen)} its reader never saw"
        wrong = await http.get(f"/api/rooms/{room}/history", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403 and wrong.json()["code"] == "bad_token"
        missing = await http.get("/api/rooms/no-such-room/history")
        assert missing.status_code == 404 and missing.json()["code"] == "unknown_room"
    for client in everyone:
        await client.close()


def _cards_of(part: str) -> list[str]:
    """The cards of a PHH action token ("AsKh", "Jc5h2s"); unknown cards ("????") are none."""
    pairs = [part[i:i + 2] for i in range(0, len(part), 2)] if len(part) % 2 == 0 else []
    return [p for p in pairs if is_card(p)] if pairs and all(is_card(p) or p == "??" for p in pairs) else []
