"""The replay of a game over a real server and database: frame by frame the very views each seat was
sent during play, paged, with the deals and hands marked; a Palace or Thousand game once it has ended,
a Hold'em table's hands each once it has ended while the table plays on."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from app.store.db import make_engine
from app.store.queries import log
from tests.e2e.client import Client, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.test_tables import CASH, choose_holdem
from tests.support import ServerProcess

# About 20 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(20)

TIMEOUT = 30.0


async def forget_fairness(database_url: str, room: str) -> None:
    """Makes the room's first game look dealt before deals were fair: no ``fair`` in its deal and
    none of the fair deal's events (commitments, keys, the reveal) in its log."""
    fair_events = {"shuffle_commitment", "shuffle_key", "reveal"}
    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            rows = (await conn.execute(select(log.c.version, log.c.kind, log.c.action, log.c.events).where(
                log.c.room_id == room, log.c.game_no == 1))).all()
            for row in rows:
                action = {k: v for k, v in row.action.items() if k != "fair" or row.kind != "deal"}
                events = [e for e in row.events if e.get("type") not in fair_events]
                await conn.execute(update(log).where(log.c.room_id == room, log.c.version == row.version)
                                   .values(action=action, events=events))
    finally:
        await engine.dispose()


def sent_views(client: Client) -> dict[int, Any]:
    """The views a socket was sent, by version."""
    return {r.message["version"]: r.message["view"] for r in client.received
            if r.message["type"] == "state" and r.message["view"] is not None}


async def all_frames(http: httpx.AsyncClient, room: str, game_no: int, seat: int | None = None,
                     token: str | None = None) -> dict[str, Any]:
    """Every frame of the game for ``seat`` (a spectator's without one), a page of 50 at a time."""
    seat_params = {} if seat is None else {"seat": seat}
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = await http.get(f"/api/rooms/{room}/games/{game_no}/replay", params={**seat_params, "count": 50},
                            headers=headers)
    assert answer.status_code == 200, answer.text
    first = answer.json()
    frames = list(first["frames"])
    while len(frames) < first["length"]:
        page = await http.get(f"/api/rooms/{room}/games/{game_no}/replay",
                              params={**seat_params, "start": len(frames), "count": 50}, headers=headers)
        assert page.status_code == 200, page.text
        assert page.json()["start"] == len(frames)
        frames += page.json()["frames"]
    return {**first, "frames": frames}


@pytest.mark.parametrize(("game", "preset", "players"),
                         [("palace", "hiina-turakas", 3), ("thousand", "tuhat", 3)])
async def test_a_finished_game_replays_the_views_each_seat_was_sent(
    backend: Backend, server: ServerProcess, game: str, preset: str, players: int
) -> None:
    rng = random.Random(f"replay-{game}-{backend.name}")
    options = {"target_score": 100} if game == "thousand" else None
    room, tokens = await make_room(server.http, players, preset=preset, game=game, options=options)
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        # While the game runs its replay is closed: its hidden cards may not be shown yet.
        await play_moves(seated, everyone, rng, limit=3)
        early = await http.get(f"/api/rooms/{room}/games/1/replay")
        assert early.status_code == 409 and early.json()["code"] == "game_not_over"
        await play_moves(seated, everyone, rng)
        final = seated[0].state
        assert final is not None and final["outcome"] is not None
        # Each player's own seat with their token, and a spectator's view for anyone.
        viewers = [(client.seat, client.token, client) for client in seated]
        for seat, token, client in [*viewers, (None, None, watchers[0])]:
            replay = await all_frames(http, room, 1, seat, token)
            assert replay["game"] == game and replay["players"] == players and replay["seat"] == seat
            assert replay["names"][0] == "Kati"
            frames = replay["frames"]
            assert len(frames) == replay["length"] == final["version"] - frames[0]["version"] + 1
            assert [f["version"] for f in frames] == list(range(frames[0]["version"], final["version"] + 1))
            # Each frame is the view the seat was sent at that version (a state message may cover
            # several versions, so not every frame was sent).
            views = sent_views(client)
            by_version = {f["version"]: f for f in frames}
            assert views and set(views) <= set(by_version)
            for version, view in views.items():
                assert by_version[version]["view"] == view, version
            assert frames[-1]["outcome"] == final["outcome"]
            assert all(f["outcome"] is None for f in frames[:-1])
        # The marks to jump to: the start, then each later deal in order.
        marks = replay["marks"]
        assert marks[0] == {"index": 0, "kind": "start", "number": None}
        deals = [m["number"] for m in marks[1:]]
        assert deals == sorted(deals) and all(m["kind"] == ("deal" if game == "thousand" else "hand")
                                              for m in marks[1:])
        # The game's seed is revealed at its end, so every seat's frames are open to anyone: seat 1's
        # without a token are what seat 1's socket was sent.
        other = await all_frames(http, room, 1, 1)
        assert other["open_seats"] is True
        assert {f["version"]: f["view"] for f in other["frames"]} | sent_views(seated[1]) == {
            f["version"]: f["view"] for f in other["frames"]}
        host_token = {"Authorization": f"Bearer {tokens[0]}"}
        for params, path, status, code, headers in (
            ({"seat": 0}, "1", 403, "bad_token", {"Authorization": "Bearer " + "x" * 43}),
            ({"seat": players}, "1", 422, "bad_seat", host_token),
            ({}, "2", 404, "unknown_game", {}),
            ({"seat": -1}, "1", 422, None, {}),
            ({"count": 201}, "1", 422, None, {}),
            ({}, "0", 422, None, {}),
        ):
            bad = await http.get(f"/api/rooms/{room}/games/{path}/replay", params=params, headers=headers)
            assert bad.status_code == status, (params, path, bad.text)
            if code:
                assert bad.json()["code"] == code
        # A game dealt before deals were fair never revealed its seed: there a seat's frames are its
        # player's only (another player's token or none is refused), a spectator's open to all.
        await forget_fairness(backend.database_url(), room)
        # A server walks a game's log once and keeps the walk (the log only grows): one started anew
        # reads the log as it has just been made.
        server.stop()
        server.start()
        for params, status, headers in (({"seat": 1}, 403, host_token), ({"seat": 0}, 403, {}),
                                        ({"seat": 0}, 200, host_token), ({}, 200, {})):
            answer = await http.get(f"/api/rooms/{room}/games/1/replay", params=params, headers=headers)
            assert answer.status_code == status, (params, answer.text)
            if status == 403:
                assert answer.json()["code"] == "not_your_seat"
            else:
                assert answer.json()["open_seats"] is False
        past_end = await http.get(f"/api/rooms/{room}/games/1/replay", params={"start": 10_000})
        assert past_end.status_code == 200 and past_end.json()["frames"] == []
    for client in everyone:
        await client.close()


def hands_of(frames: list[dict[str, Any]]) -> set[int]:
    """The hands a replay's frames show in play, and those their events start."""
    shown = {f["view"]["hand"]["number"] for f in frames if f["view"]["hand"] is not None}
    started = {e["hand"] for f in frames for e in f["events"] if e["type"] == "hand_started"}
    return shown | started


async def play_until(seated: list[Client], everyone: list[Client], rng: random.Random,
                     done: Callable[[dict[str, Any]], bool], chooser: Any = choose_holdem) -> None:
    """Random Hold'em moves, one at a time, until the table's state is ``done``."""
    for _ in range(2000):
        state = seated[0].state
        assert state is not None and state["outcome"] is None
        if done(state):
            return
        await play_moves(seated, everyone, rng, limit=1, chooser=chooser)
    raise AssertionError("the table never got there")


def in_hand(number: int) -> Callable[[dict[str, Any]], bool]:
    """A state in which hand ``number`` is being played and its cards are dealt."""
    def check(state: dict[str, Any]) -> bool:
        hand = state["view"]["hand"]
        return hand is not None and hand["number"] == number and hand["phase"] == "bet"
    return check


async def holdem_table(server: ServerProcess, seats: int, options: dict[str, Any]
                       ) -> tuple[str, list[str], list[Client], list[Client]]:
    """A cash table of ``seats`` seats with Kati, P1 and P2 seated and one spectator, started:
    its room, the three tokens, their sockets and the spectator's."""
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        body = {"game": "holdem", "name": "Kati", "seats": seats, "preset": "cash-nl-1-2", "options": options}
        made = await http.post("/api/rooms", json=body)
        assert made.status_code == 201, made.text
        room, tokens = made.json()["room"], [made.json()["token"]]
        for name in ("P1", "P2"):
            tokens.append((await http.post(f"/api/rooms/{room}/join", json={"name": name})).json()["token"])
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in seated + watchers:
        await client.wait_state(lambda s: s["view"] is not None)
    return room, tokens, seated, watchers


async def test_a_holdem_tables_finished_hands_replay_while_it_plays_on(
    backend: Backend, server: ServerProcess
) -> None:
    """Each hand of a running table opens to replay once its shuffle key is out: every seat's view of
    it, to anyone; the hand in play never (a trimmed frame ends the replay: the table as the last
    hand left it). The names of an earlier game's seats come from its deal."""
    rng = random.Random(f"replay-holdem-{backend.name}")
    room, tokens, seated, watchers = await holdem_table(server, 4, {**CASH, "max_hands": 5})
    everyone = seated + watchers
    url = f"/api/rooms/{room}/games/1/replay"
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        # Nothing is over yet: the first hand is in play.
        early = await http.get(url, params={"seat": 1})
        assert early.status_code == 409 and early.json()["code"] == "game_not_over"
        await play_until(seated, everyone, rng, in_hand(3))
        now = seated[0].version
        spectator = await all_frames(http, room, 1)
        assert spectator["in_play"] is True and spectator["open_seats"] is True
        frames = spectator["frames"]
        assert len(frames) == spectator["length"] and frames[-1]["version"] <= now
        # Hands 1 and 2 are there (hand 2 marked to jump to); nothing of hand 3.
        assert hands_of(frames) == {1, 2}
        assert [(m["kind"], m["number"]) for m in spectator["marks"]] == [("start", None), ("hand", 2)]
        # The last frame is the table as hand 2 left it: hand 3 began in the same move, but neither
        # its start nor its blinds are in the frame.
        last = frames[-1]
        assert last["view"]["hand"] is None and last["view"]["hands_played"] == 2
        assert last["view"]["last_hand"]["hand"] == 2
        assert not {"hand_started", "posted", "dealt", "hole_cards"} & {e["type"] for e in last["events"]}
        # Every other frame is the view the spectator's socket was sent at its version.
        views = sent_views(watchers[0])
        for frame in frames[:-1]:
            if frame["version"] in views:
                assert frame["view"] == views[frame["version"]], frame["version"]
        # The hand in play is refused, with a code to tell it by.
        beyond = await http.get(url, params={"start": spectator["length"]})
        assert beyond.status_code == 409 and beyond.json()["code"] == "hand_in_play"
        # Another seat's frames of the finished hands, to anyone (their keys show every card): just
        # what that seat's socket was sent, its hole cards of hands 1 and 2 included.
        other = await all_frames(http, room, 1, seat=2)
        assert other["length"] == spectator["length"] and hands_of(other["frames"]) == {1, 2}
        views = sent_views(seated[2])
        seen = 0
        for frame in other["frames"][:-1]:
            if frame["version"] in views:
                assert frame["view"] == views[frame["version"]], frame["version"]
                seen += 1
        assert seen > 0
        # Hole cards dealt by an event (hand 1's come with the deal) are seat 2's only.
        holes = [e for f in other["frames"] for e in f["events"] if e["type"] == "hole_cards"]
        assert {e["seat"] for e in holes} <= {2}
        # The last frame holds no seat's cards: the hand in play had dealt them.
        assert all("cards" not in p for p in other["frames"][-1]["view"]["players"])
        # The own seat with its token is held to the same end.
        own = await all_frames(http, room, 1, seat=0, token=tokens[0])
        assert own["length"] == spectator["length"] and own["frames"][-1]["view"]["hand"] is None
        # A newcomer sits down at the fourth seat while the table plays on.
        joined = await http.post(f"/api/rooms/{room}/join", json={"name": "Tiit"})
        assert joined.status_code == 201 and joined.json()["seat"] == 3, joined.text
        newcomer = Client(server.ws, room, joined.json()["token"])
        await newcomer.connect()
        sat = await newcomer.act({"type": "join", "seat": 3, "buy_in": 60})
        assert sat["type"] == "ack", sat
        seated.append(newcomer)
        everyone.append(newcomer)
        for client in everyone:
            await client.wait_version(sat["version"])
        # Once hand 3 is over it opens too, while hand 4 stays closed; the newcomer's seat is one
        # of the table's, named as the table shows it.
        await play_until(seated, everyone, rng, in_hand(4))
        later = await all_frames(http, room, 1, seat=1)
        assert later["length"] > spectator["length"] and hands_of(later["frames"]) == {1, 2, 3}
        assert later["names"] == ["Kati", "P1", "P2", "Tiit"] and later["players"] == 3
        theirs = await all_frames(http, room, 1, seat=3)
        assert theirs["length"] == later["length"]
        views = sent_views(newcomer)
        assert all(f["view"] == views[f["version"]] for f in theirs["frames"][:-1] if f["version"] in views)
        # The table ends by itself after its last hand: the whole game opens.
        await play_moves(seated, everyone, rng, chooser=choose_holdem)
        whole = await all_frames(http, room, 1, seat=1)
        assert whole["in_play"] is False and whole["frames"][-1]["outcome"] is not None
        assert whole["names"] == ["Kati", "P1", "P2", "Tiit"]
        # P1 is gone and the next game deals three seats, renumbered: Kati 0, P2 1, Tiit 2. The first
        # game's replay names its seats as its deal did.
        assert (await seated[0].host("kick", seat=1))["type"] == "ack"
        assert (await seated[0].host("rematch"))["type"] == "ack"
        await seated[2].wait_state(lambda s: s["game_no"] == 2 and s["view"] is not None)
        assert seated[2].state is not None and seated[2].state["view"]["seat"] == 1
        again = await http.get(url)
        assert again.status_code == 200 and again.json()["names"] == ["Kati", "P1", "P2"]
        second = await http.get(f"/api/rooms/{room}/games/2/replay")
        assert second.status_code == 409 and second.json()["code"] == "game_not_over"
    for client in (seated[0], seated[2], newcomer, *watchers):
        await client.close()


async def test_h7_a_hand_waiting_for_its_straddle_is_not_in_the_replay_of_the_table_in_play(
    backend: Backend, server: ServerProcess
) -> None:
    """[H7] With the straddle offered, a hand posts its blinds and asks UTG before its cards are
    shuffled: while it waits for that answer, and once its cards are dealt, the replay of the table
    in play ends with the table as the hand before left it (a trimmed frame), nothing of the new
    hand in it."""
    rng = random.Random(f"replay-straddle-{backend.name}")
    room, _, seated, watchers = await holdem_table(server, 3, {**CASH, "straddle": "utg"})
    everyone = seated + watchers

    def passive(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        # Nobody raises: nobody busts, and every hand is dealt to all three.
        kinds = ("no_straddle", "check", "call", "show", "muck", "run_once", "fold")
        return next(a for kind in kinds for a in legal if a["type"] == kind)

    def asking(number: int) -> Callable[[dict[str, Any]], bool]:
        def check(state: dict[str, Any]) -> bool:
            hand = state["view"]["hand"]
            return hand is not None and hand["number"] == number and hand["phase"] == "straddle"
        return check

    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        await play_until(seated, everyone, rng, asking(2), passive)
        for when in ("asking", "dealt"):
            spectator = await all_frames(http, room, 1)
            frames = spectator["frames"]
            assert spectator["in_play"] is True and hands_of(frames) == {1}, when
            assert [(m["kind"], m["number"]) for m in spectator["marks"]] == [("start", None)], when
            last = frames[-1]
            assert last["view"]["hand"] is None and last["view"]["last_hand"]["hand"] == 1, when
            assert not {"hand_started", "posted", "straddle", "no_straddle", "dealt"} & {
                e["type"] for e in last["events"]}, when
            if when == "asking":
                await play_until(seated, everyone, rng, in_hand(2), passive)
    for client in everyone:
        await client.close()
