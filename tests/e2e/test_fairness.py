"""Provably fair deals over real sockets (docs/fairness.md), SQLite and PostgreSQL.

A commitment is published before the deal; seats contribute (or withhold) without blocking the
deal; the reveal matches the commitment; each seat's downloaded record verifies with
``python -m app.verify`` and fails when a contribution, the seed or one card is changed; a record
taken before the reveal holds no seed and no unopened key.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import os
import random
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app import signing, verify
from tests.e2e.client import TIMEOUT, Client, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.leaks import check_no_early_secrets, fair_secrets
from tests.e2e.test_tables import CASH, choose_calm, choose_holdem, choose_thousand
from tests.support import ServerProcess

# Seats contribute here, and the deal's wait for them is checked: the documented wait (tests/conftest.py).
pytestmark = [pytest.mark.fair_wait, pytest.mark.heavy(90)]

ROOT = Path(__file__).resolve().parents[2]


def last_room(client: Client) -> dict[str, Any]:
    return next(r.message for r in reversed(client.received) if r.message["type"] == "room")


async def room_update(client: Client, ok: Any) -> dict[str, Any]:
    """The ``fair`` part of the first room message (the latest one first) for which ``ok`` holds."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        fair = last_room(client)["fair"]
        if ok(fair):
            return dict(fair)
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"no such room message; last {fair}")
        await asyncio.sleep(0.002)


def events_of(client: Client, kind: str) -> list[dict[str, Any]]:
    """Every event of ``kind`` this socket received, once each (a version may be sent again)."""
    seen: dict[tuple[int, str], dict[str, Any]] = {}
    for item in client.received:
        if item.message["type"] == "state":
            for event in item.message["events"]:
                if event["type"] == kind:
                    seen[(event["version"], json.dumps(event, sort_keys=True))] = event
    return list(seen.values())


async def contribute(client: Client, commitment: str, value: str | None = None) -> dict[str, Any]:
    """Phase one (the hash; the bytes follow by themselves once the round's hashes are sealed)."""
    return await client.pledge(commitment, value or secrets.token_hex(32))


async def send_entropy(client: Client, commitment: str, **fields: str) -> dict[str, Any]:
    """One raw ``entropy`` message and its answer."""
    msg_id = f"e-{secrets.token_hex(4)}"
    await client.send({"type": "entropy", "id": msg_id, "commitment": commitment, **fields})
    while True:
        message = await client.next()
        if message.get("id") == msg_id and message["type"] in ("contributed", "error"):
            return message


async def download(http: str, room: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=http, timeout=TIMEOUT) as client:
        return await client.get(f"/api/rooms/{room}/record", headers=headers)


def run_verify(tmp: Path, record: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    path = tmp / f"record-{secrets.token_hex(4)}.json"
    path.write_text(json.dumps(record))
    return subprocess.run([sys.executable, "-m", "app.verify", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def tampered(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Copies of a revealed record with one thing changed each."""
    out = []
    for index, value in enumerate(record["contributions"]):
        bad = copy.deepcopy(record)
        bad["contributions"][index] = secrets.token_hex(32) if value is None else None
        out.append((f"contribution {index}", bad))
    bad = copy.deepcopy(record)
    bad["server_seed"] = ("0" if bad["server_seed"][0] != "0" else "1") + bad["server_seed"][1:]
    out.append(("server seed", bad))
    bad = copy.deepcopy(record)
    bad.pop("seed")
    bad["contributions"] = list(reversed(bad["contributions"]))
    if bad["contributions"] != record["contributions"]:
        out.append(("contributions' order", bad))
    first = next(i for i, s in enumerate(record["shuffles"]) if "deck" in s)
    bad = copy.deepcopy(record)
    deck = bad["shuffles"][first]["deck"]
    swap = next(i for i in range(1, len(deck)) if deck[i] != deck[0])
    deck[0], deck[swap] = deck[swap], deck[0]
    out.append(("one card of a deck", bad))
    bad = copy.deepcopy(record)
    bad["shuffles"][first]["key"] = secrets.token_hex(32)
    bad.pop("server_seed")
    out.append(("a shuffle key", bad))
    return out


async def check_replays(server: ServerProcess, room: str, clients: list[Client], tokens: list[str | None]
                        ) -> list[dict[str, Any]]:
    """Each client's replay is, frame by frame, what its socket was shown live (views and events)."""
    replays = []
    for client, token in zip(clients, tokens, strict=True):
        assert client.state is not None
        game_no = client.state["game_no"]
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            seat = {} if client.seat is None else {"seat": client.seat}
            pages: list[dict[str, Any]] = []
            while not pages or sum(len(p["frames"]) for p in pages) < pages[0]["length"]:
                start = sum(len(p["frames"]) for p in pages)
                answer = await http.get(f"/api/rooms/{room}/games/{game_no}/replay", headers=headers,
                                        params={**seat, "start": start})
                assert answer.status_code == 200, answer.text
                pages.append(answer.json())
        replay = {**pages[0], "frames": [f for p in pages for f in p["frames"]]}
        frames = {f["version"]: f for f in replay["frames"]}
        assert replay["seat"] == client.seat
        live = [r.message for r in client.received if r.message["type"] == "state" and r.message["view"]]
        assert live and {m["version"] for m in live} <= set(frames)
        for message in live:
            assert frames[message["version"]]["view"] == message["view"]
        shown = {json.dumps(e, sort_keys=True) for m in live for e in m["events"]}
        replayed = {json.dumps(e, sort_keys=True) for f in frames.values() for e in f["events"]}
        assert shown == replayed
        replays.append(replay)
    return replays


async def test_withheld_contribution_does_not_block_and_the_palace_deal_verifies(
        backend: Backend, server: ServerProcess, tmp_path: Path) -> None:
    rng = random.Random(f"fair-palace-{backend.name}")
    room, tokens = await make_room(server.http, 3, preset="palace")
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    commitment = last_room(seated[0])["fair"]["commitment"]
    assert all(last_room(c)["fair"]["commitment"] == commitment for c in everyone)
    given = {0: secrets.token_hex(32), 2: secrets.token_hex(32)}
    for seat, value in given.items():
        answer = await contribute(seated[seat], commitment, value)
        assert answer == {"type": "contributed", "id": answer["id"], "commitment": commitment, "kind": "hash"}
    # A second hash from the same seat does not replace the first.
    other = hashlib.sha256(secrets.token_bytes(32)).hexdigest()
    assert (await send_entropy(seated[0], commitment, hash=other))["type"] == "contributed"
    refused = await contribute(watchers[0], commitment)
    assert refused["type"] == "error" and refused["code"] == "not_seated"
    refused = await contribute(seated[1], "ab" * 32)
    assert refused["type"] == "error" and refused["code"] == "stale_commitment"
    await seated[1].wait_state(lambda s: True)
    for client in everyone:
        while last_room(client)["fair"]["hashed"] != [0, 2]:
            await client.expect("room")

    # Seat 1 never contributes: the deal waits for its hash no longer than the documented 1.5 s,
    # seals the two hashes, takes the two pages' bytes and deals.
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    (deal,) = events_of(seated[1], "deal")
    assert deal["commitment"] == commitment
    assert deal["contributions"] == [given[0], None, given[2]] and deal["withheld"] == [1]
    assert deal["unrevealed"] == [] and deal["hashes"][1] is None
    assert deal["hashes"][0] == hashlib.sha256(bytes.fromhex(given[0])).hexdigest()
    assert last_room(seated[0])["fair"]["commitment"] != commitment  # the rematch's, already
    early = await download(server.http, room, None)
    assert early.status_code == 200, early.text
    assert "server_seed" not in early.json() and all("key" not in s for s in early.json()["shuffles"])
    assert verify.passed(verify.verify(early.json()))
    refused = await contribute(seated[1], commitment)
    assert refused["type"] == "error" and refused["code"] == "stale_commitment"

    await play_moves(seated, everyone, rng)
    (reveal,) = events_of(watchers[0], "reveal")
    raw = bytes.fromhex(reveal["server_seed"]) + bytes.fromhex(reveal["nonce"])
    assert hashlib.sha256(raw).hexdigest() == commitment == reveal["commitment"]
    assert reveal["server_seed"] not in early.text
    secrets_at = await fair_secrets(backend.database_url(), room)
    assert check_no_early_secrets(everyone, secrets_at) > 0

    for seat, token in enumerate([*tokens, None]):
        answer = await download(server.http, room, token)
        assert answer.status_code == 200, answer.text
        assert "attachment" in answer.headers["content-disposition"]
        record = answer.json()
        assert record["seat"] == (seat if token else None) and record["finished"]
        assert record["server_seed"] == reveal["server_seed"]
        checks = verify.verify(record)
        assert all(c.ok for c in checks), [c for c in checks if not c.ok]
        if seat == 0:
            done = run_verify(tmp_path, record)
            assert done.returncode == 0 and "✗" not in done.stdout and "verified" in done.stdout, done
            for what, bad in tampered(record):
                assert not verify.passed(verify.verify(bad)), what
            bad = copy.deepcopy(record)
            hand = bad["dealt_view"]["hand"]
            hand[0] = next(c for c in record["shuffles"][0]["cards"] if c not in hand)
            assert not verify.passed(verify.verify(bad)), "one card seen"
            done = run_verify(tmp_path, bad)
            assert done.returncode == 1 and "✗ dealt" in done.stdout, done
    await check_replays(server, room, everyone, [*tokens, None])
    refused_token = await download(server.http, room, "x" * 43)
    assert refused_token.status_code == 403 and refused_token.json()["code"] == "bad_token"
    for client in everyone:
        await client.close()


@pytest.mark.parametrize("game", ["thousand", "holdem"])
async def test_thousand_and_holdem_records_verify(backend: Backend, server: ServerProcess, game: str) -> None:
    rng = random.Random(f"fair-{game}-{backend.name}")
    if game == "thousand":
        room, tokens = await make_room(server.http, 3, game="thousand", preset="tuhat",
                                       options={"target_score": 100, "opening_bid": 60})
    else:
        room, tokens = await make_room(server.http, 3, game="holdem", preset="cash-nl-1-2", options=CASH)
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    commitment = last_room(seated[0])["fair"]["commitment"]
    for client in seated[:2]:
        assert (await contribute(client, commitment))["type"] == "contributed"
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    chooser = choose_thousand if game == "thousand" else choose_holdem
    await play_moves(seated, everyone, rng, chooser=chooser, max_moves=4000)
    watcher = watchers[0]
    commitments = {e["label"]: e for e in events_of(watcher, "shuffle_commitment")}
    keys = {e["label"]: e for e in events_of(watcher, "shuffle_key")}
    (reveal,) = events_of(watcher, "reveal")
    assert set(keys) == set(commitments) and keys
    for label, published in keys.items():
        assert hashlib.sha256(bytes.fromhex(published["key"])).hexdigest() == commitments[label]["commitment"]
        # A key is published after its commitment; Hold'em hands' keys before the table's end.
        assert published["version"] >= commitments[label]["version"]
    if game == "holdem":
        # Each hand's key comes at the hand's end, not with the table's reveal.
        assert sum(k["version"] < reveal["version"] for k in keys.values()) >= 2
    for token in [*tokens, None]:
        record = (await download(server.http, room, token)).json()
        checks = verify.verify(record)
        assert all(c.ok for c in checks), [c for c in checks if not c.ok]
        assert len(record["shuffles"]) == len(keys)
        for what, bad in tampered(record):
            assert not verify.passed(verify.verify(bad)), what
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > 0
    replays = await check_replays(server, room, everyone, [*tokens, None])
    # Where the replay's "jump to" goes: the game's deal (frame 0), then each later deal (Thousand) or
    # hand (Hold'em). The game's first deal is the room's "deal" event; a Thousand redeal of that
    # first deal is dealt with it, so Thousand may have fewer marks than shuffles.
    marks = [i for i, f in enumerate(replays[0]["frames"])
             if {e["type"] for e in f["events"]} & {"deal", "deal_started", "hand_started"}]
    assert [m["index"] for m in replays[0]["marks"]] == marks
    dealt = [s for s in keys if s != "button-draw"]
    assert marks[0] == 0 and len(marks) <= len(dealt)
    if game == "holdem":
        # Every hand is dealt in some frame; a hand the blinds put all in is played out by the move
        # that dealt it, so one frame (one mark) may deal two hands.
        started = sum(e["type"] in {"deal", "hand_started"}
                      for f in replays[0]["frames"] for e in f["events"])
        assert started == len(dealt)
    for client in everyone:
        await client.close()


@pytest.mark.parametrize("game", ["palace", "holdem"])
async def test_a_kill_before_the_deal_keeps_the_round_and_one_during_the_game_keeps_its_seeds(
        backend: Backend, game: str) -> None:
    """No silent re-roll: the pending round is kept with the room, so after a SIGKILL between the
    contributions and the deal the room shows the same commitment with the same contributions,
    and the deal uses them; a SIGKILL during the game keeps the game's seeds (they are in its deal
    entry, and each later hand's in its round's entry), so the reveals and the record still
    verify. Commitments and sealed rounds carry the server's signature, by the key at
    ``/api/fairness/key``, which survives the restart."""
    rng = random.Random(f"fair-kill-{game}-{backend.name}")
    chooser: Any = choose_holdem if game == "holdem" else None
    server = backend.server().start()
    try:
        if game == "holdem":
            room, tokens = await make_room(server.http, 3, game="holdem", preset="cash-nl-1-2",
                                           options={**CASH, "max_hands": 12})
        else:
            room, tokens = await make_room(server.http, 3, preset="palace")
        seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
        everyone = seated + watchers
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            key = (await http.get("/api/fairness/key")).json()
        assert key["algorithm"] == "Ed25519"
        shown = last_room(seated[0])["fair"]
        first = shown["commitment"]
        assert signing.valid(key["public_key"], signing.commitment_message(room, first), shown["signature"])
        early = [secrets.token_hex(32), secrets.token_hex(32)]
        for client, value in zip(seated[:2], early, strict=True):
            assert (await contribute(client, first, value))["type"] == "contributed"
        server.kill()
        server = backend.server().start()
        await reconnect(everyone, server)
        second = last_room(seated[0])["fair"]
        assert second["commitment"] == first and second["hashed"] == [0, 1] and not second["sealed"]
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            assert (await http.get("/api/fairness/key")).json() == key
        # A repeat changes nothing: the first hash counts.
        assert (await contribute(seated[0], first, early[0]))["type"] == "contributed"
        late = secrets.token_hex(32)
        assert (await contribute(seated[2], first, late))["type"] == "contributed"
        assert (await seated[0].host("start"))["type"] == "ack"
        for client in everyone:
            await client.wait_state(lambda s: s["view"] is not None)
        (deal,) = events_of(seated[0], "deal")
        assert deal["commitment"] == first and deal["contributions"][:3] == [*early, late]
        assert deal["unrevealed"] == []
        sealed = signing.round_message(room, 1, None, first, deal["contributions"], deal["hashes"])
        assert signing.valid(key["public_key"], sealed, deal["signature"])
        assert not signing.valid(key["public_key"], signing.round_message(room, 1, None, first, [
            *early, None, *deal["contributions"][3:]], deal["hashes"]), deal["signature"])
        more = {"chooser": chooser} if chooser else {}
        await play_moves(seated, everyone, rng, limit=10, **more)
        if game == "holdem":
            # Into a later hand, whose round's entry is in the log before the kill.
            await play_until(seated, everyone, rng, choose_calm,
                             lambda: len(events_of(watchers[0], "fair_round")) >= 2)
        server.kill()
        server = backend.server().start()
        await reconnect(everyone, server)
        await play_moves(seated, everyone, rng, max_moves=6000, **more)
        (reveal,) = events_of(watchers[0], "reveal")
        assert reveal["commitment"] == first
        for token in [*tokens, None]:
            record = (await download(server.http, room, token)).json()
            assert record["server_seed"] == reveal["server_seed"]
            assert record["server_key"] == key["public_key"]
            checks = verify.verify(record)
            assert all(check.ok for check in checks) and any(c.name == "signature" for c in checks)
            if game == "holdem":
                assert sum("server_seed" in s.get("round", {}) for s in record["shuffles"]) >= 2
        assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > 0
        for client in everyone:
            await client.close()
    finally:
        server.stop()


async def reconnect(clients: list[Client], server: ServerProcess) -> None:
    for client in clients:
        await client.close()
        client.base = server.ws
        await client.connect(last_version=client.version if client.version >= 0 else None)


async def play_until(seated: list[Client], everyone: list[Client], rng: random.Random, chooser: Any,
                     done: Any) -> None:
    """Random legal moves until ``done()`` holds (or the game ends, which fails the wait)."""
    while not done():
        assert seated[0].state is not None and seated[0].state["outcome"] is None, "the game ended first"
        await play_moves(seated, everyone, rng, limit=1, chooser=chooser)


def round_of(client: Client, commitment: str) -> dict[str, Any] | None:
    return next((e for e in events_of(client, "fair_round") if e["commitment"] == commitment), None)


@pytest.mark.parametrize("game", ["holdem", "thousand"])
async def test_each_later_hand_or_deal_has_its_own_round_of_contributions(
        backend: Backend, server: ServerProcess, tmp_path: Path, game: str) -> None:
    """A Hold'em hand and a Thousand deal after the first take the contributions sent while the one
    before was played, under a commitment published before them; a Hold'em hand's round is revealed
    at the hand's end (the table plays on), a Thousand deal's at the game's end."""
    rng = random.Random(f"fair-rounds-{game}-{backend.name}")
    if game == "thousand":
        # The preset's 1,000 points take many deals (a deal scores at most 400, 800 blind).
        room, tokens = await make_room(server.http, 3, game="thousand", preset="tuhat",
                                       options={"opening_bid": 60})
        chooser: Any = choose_thousand
    else:
        room, tokens = await make_room(server.http, 3, game="holdem", preset="cash-nl-1-2",
                                       options={**CASH, "max_hands": 30})
        # Calm players (checks and calls) keep the table going for the hands the test needs.
        chooser = choose_calm
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    (deal,) = events_of(watchers[0], "deal")
    last = 1 if game == "holdem" else 0  # the game's own round keys hand-1 (deal-0)
    for _ in range(2):
        # The next hand's (deal's) commitment is out while this one is played; seats 0 and 1 give
        # their bytes, seat 2 withholds.
        await seated[0].wait_state(lambda s: True)
        pending = last_room(seated[0])["fair"]["commitment"]
        assert pending != deal["commitment"] and round_of(watchers[0], pending) is None
        given = [secrets.token_hex(32), secrets.token_hex(32)]
        for client, value in zip(seated[:2], given, strict=True):
            assert (await contribute(client, pending, value))["type"] == "contributed"
        # Seat 2 sends no hash: the round's hashes are sealed after the documented wait, and the
        # two pages' bytes follow (the test plays on once they are in, not after some time).
        await room_update(seated[0], lambda f, pending=pending: f["commitment"] == pending
                          and f["sealed"] and f["contributed"] == [0, 1])
        await play_until(seated, everyone, rng, chooser,
                         lambda pending=pending: round_of(watchers[0], pending) is not None)
        sealed = round_of(watchers[0], pending)
        assert sealed is not None
        assert sealed["contributions"][:3] == [*given, None] and 2 in sealed["withheld"]
        label = sealed["label"]
        prefix, at = label.rsplit("-", 1)
        assert prefix == ("hand" if game == "holdem" else "deal") and int(at) > last
        last = int(at)
        record = (await download(server.http, room, tokens[0])).json()
        (listed,) = [s for s in record["shuffles"] if s["label"] == label]
        assert listed["round"]["commitment"] == pending
        assert listed["round"]["contributions"] == sealed["contributions"]
        assert listed["round"]["hashes"] == sealed["hashes"] and sealed["unrevealed"] == []
        assert verify.passed(verify.verify(record))
        if game == "holdem":
            # The hand's end publishes its key and its round's server seed; the table goes on.
            await play_until(seated, everyone, rng, chooser, lambda pending=pending: any(
                e["commitment"] == pending for e in events_of(watchers[0], "round_reveal")))
            (revealed,) = [e for e in events_of(watchers[0], "round_reveal") if e["commitment"] == pending]
            raw = bytes.fromhex(revealed["server_seed"]) + bytes.fromhex(revealed["nonce"])
            assert hashlib.sha256(raw).hexdigest() == pending
            record = (await download(server.http, room, None)).json()
            assert not record["finished"]
            (listed,) = [s for s in record["shuffles"] if s["label"] == label]
            assert listed["round"]["server_seed"] == revealed["server_seed"] and "deck" in listed
            checks = {c.name: c for c in verify.verify(record)}
            assert checks[f"{label}: round commitment"].ok and checks[f"{label}: round seed"].ok
            assert checks[f"{label}: deck"].ok and verify.passed(list(checks.values()))
            others = listed["round"]["contributions"][1:]
            changes: list[tuple[str, Any]] = [("contributions", [None, *others]),
                                              ("server_seed", secrets.token_hex(32))]
            for field, value in changes:
                bad = copy.deepcopy(record)
                bad_round = next(s for s in bad["shuffles"] if s["label"] == label)["round"]
                bad_round[field] = value
                bad_round.pop("seed")
                assert not verify.passed(verify.verify(bad)), field
            done = run_verify(tmp_path, record)
            assert done.returncode == 0 and f"✓ {label}: round seed" in done.stdout, done.stdout
    if game == "holdem":
        # The game's own round keyed the button draw and hand 1: its reveal names both.
        (own,) = [e for e in events_of(watchers[0], "round_reveal") if e["commitment"] == deal["commitment"]]
        assert own["labels"] == ["button-draw", "hand-1"]
    finish = choose_holdem if game == "holdem" else chooser
    await play_moves(seated, everyone, rng, chooser=finish, max_moves=6000)
    record = (await download(server.http, room, tokens[1])).json()
    rounds = [s for s in record["shuffles"] if "round" in s]
    assert len(rounds) >= 2 and all("server_seed" in s["round"] for s in rounds)
    assert all(c.ok for c in verify.verify(record)), [c for c in verify.verify(record) if not c.ok]
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) > 0
    for client in everyone:
        await client.close()


async def test_malformed_bytes_are_a_bad_contribution_and_the_cli_says_how_it_is_used(
        server: ServerProcess, tmp_path: Path) -> None:
    """docs/protocol.md: bytes that are not 64 lowercase hex digits get ``bad_contribution`` (before
    the commitment is looked at) and change nothing; ``app.verify`` parses its arguments."""
    room, tokens = await make_room(server.http, 2, preset="palace")
    seated, _ = await seat_clients(server.ws, room, tokens)
    commitment = last_room(seated[0])["fair"]["commitment"]
    for value in ("AB" * 32, "00" * 31, "zz" * 32, "00" * 33):
        for kind in ("bytes", "hash"):
            refused = await send_entropy(seated[0], commitment, **{kind: value})
            assert refused["type"] == "error" and refused["code"] == "bad_contribution", refused
            refused = await send_entropy(seated[0], "11" * 32, **{kind: value})
            assert refused["code"] == "bad_contribution"
    assert (await contribute(seated[0], "11" * 32))["code"] == "stale_commitment"
    assert last_room(seated[0])["fair"]["contributed"] == []
    # Two phases: bytes before their hash, or before the round's hashes are sealed, are refused.
    value = secrets.token_hex(32)
    assert (await send_entropy(seated[0], commitment, bytes=value))["code"] == "no_hash"
    assert (await contribute(seated[0], commitment, value))["type"] == "contributed"
    seated[0].revealed.add(commitment)  # this socket sends its bytes by hand below
    assert (await send_entropy(seated[0], commitment, bytes=value))["code"] == "hashes_open"
    both = await send_entropy(seated[0], commitment, bytes=value, hash="00" * 32)
    assert both["type"] == "error" and both["code"] == "bad_message"
    assert (await room_update(seated[1], lambda f: f["hashed"] == [0]))["sealed"] is False
    for client in seated:
        await client.close()

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app.verify", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})

    helped = cli("--help")
    assert helped.returncode == 0 and "--receipts" in helped.stdout and "Exit status" in helped.stdout
    assert cli().returncode == 2
    assert cli(str(tmp_path / "missing.json")).returncode == 2
    (tmp_path / "x.json").write_text("{}")
    assert cli(str(tmp_path / "x.json")).returncode == 2


async def test_a_seat_that_sends_its_hash_and_never_its_bytes_is_marked_unrevealed(
        server: ServerProcess) -> None:
    """Two phases (docs/fairness.md step 3): the round seals the hashes of seats 0 and 1; seat 1
    never sends the bytes behind its hash, so the deal counts it as withheld and marks it
    ``unrevealed`` for everyone, and the record still verifies; seat 2 sent nothing at all."""
    room, tokens = await make_room(server.http, 3, preset="palace")
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    commitment = last_room(seated[0])["fair"]["commitment"]
    value = secrets.token_hex(32)
    assert (await contribute(seated[0], commitment, value))["type"] == "contributed"
    hidden = secrets.token_hex(32)
    digest = hashlib.sha256(bytes.fromhex(hidden)).hexdigest()
    answer = await send_entropy(seated[1], commitment, hash=digest)  # and never the bytes
    assert answer["type"] == "contributed" and answer["kind"] == "hash"
    await room_update(watchers[0], lambda f: f["hashed"] == [0, 1])
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    for client in everyone:
        (deal,) = events_of(client, "deal")
        assert deal["commitment"] == commitment
        assert deal["contributions"] == [value, None, None] and deal["withheld"] == [1, 2]
        assert deal["hashes"][:2] == [hashlib.sha256(bytes.fromhex(value)).hexdigest(), digest]
        assert deal["hashes"][2] is None and deal["unrevealed"] == [1]
        assert hidden not in json.dumps([item.message for item in client.received])
    record = (await download(server.http, room, tokens[2])).json()
    assert record["hashes"][1] == digest and record["contributions"][1] is None
    assert verify.passed(verify.verify(record))
    # Its bytes after the deal change nothing: the round is sealed.
    late = await send_entropy(seated[1], commitment, bytes=hidden)
    assert late["type"] == "error" and late["code"] == "stale_commitment"
    for client in everyone:
        await client.close()
