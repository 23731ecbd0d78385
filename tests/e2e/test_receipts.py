"""A player's receipts against forged records, over real sockets (docs/fairness.md, "Receipts").

A dishonest operator can change a finished game's record and recompute every hash in it, signing
again with the server's own key: the record alone still verifies (``app.verify`` exits 0). With the
receipts a player kept (here made as the page makes them: the commitment shown before the deal,
the bytes sent, the answers, the seat the round was sealed at), ``app.verify --receipts`` fails for
a re-keyed seed, for bytes written at a seat that withheld, and for a player's bytes swapped; an
honest game passes with both.
"""

from __future__ import annotations

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

from tests.e2e.client import TIMEOUT, make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.test_fairness import contribute, download, events_of, last_room
from tests.forge import operator_signer, rekey, write_at
from tests.support import ServerProcess

# Seats contribute here: the documented wait for them (tests/conftest.py).
pytestmark = pytest.mark.fair_wait

ROOT = Path(__file__).resolve().parents[2]


def receipts_of(room: str, key: str, shown: dict[str, Any], sent: str | None, seat: int,
                game_no: int) -> dict[str, Any]:
    """The receipts a page keeps for one deal (static/js/receipts.js), as docs/fairness.md gives them."""
    return {"format": "houserules-receipts/1", "room": room, "server_key": key, "receipts": [{
        "commitment": shown["commitment"], "signature": shown["signature"], "shown_at": 0, "seat_shown": seat,
        "bytes": sent, "hash": None if sent is None else hashlib.sha256(bytes.fromhex(sent)).hexdigest(),
        "hash_acked": sent is not None, "sent": sent is not None, "acked": sent is not None,
        "sealed": {"game_no": game_no, "label": None, "commitment": shown["commitment"], "seat": seat}}]}


def cli(tmp: Path, record: dict[str, Any], receipts: dict[str, Any] | None = None
        ) -> subprocess.CompletedProcess[str]:
    path = tmp / f"record-{secrets.token_hex(4)}.json"
    path.write_text(json.dumps(record))
    args = [str(path)]
    if receipts is not None:
        held = tmp / f"receipts-{secrets.token_hex(4)}.json"
        held.write_text(json.dumps(receipts))
        args += ["--receipts", str(held)]
    return subprocess.run([sys.executable, "-m", "app.verify", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


async def test_forged_records_verify_alone_and_fail_against_the_players_receipts(
        backend: Backend, server: ServerProcess, tmp_path: Path) -> None:
    rng = random.Random(f"receipts-{backend.name}")
    room, tokens = await make_room(server.http, 3, preset="palace")
    seated, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        key = (await http.get("/api/fairness/key")).json()["public_key"]
    shown = last_room(seated[0])["fair"]
    # Seats 0 and 2 give their bytes; seat 1 withholds.
    given = {0: secrets.token_hex(32), 2: secrets.token_hex(32)}
    for seat, value in given.items():
        assert (await contribute(seated[seat], shown["commitment"], value))["type"] == "contributed"
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in seated:
        await client.wait_state(lambda s: s["view"] is not None)
    (deal,) = events_of(seated[0], "deal")
    assert deal["contributions"] == [given[0], None, given[2]] and deal["withheld"] == [1]
    await play_moves(seated, seated, rng)
    players = {seat: (await download(server.http, room, tokens[seat])).json() for seat in (0, 1)}
    assert all(record["finished"] for record in players.values())
    held = {0: receipts_of(room, key, shown, given[0], 0, 1), 1: receipts_of(room, key, shown, None, 1, 1)}
    for seat, record in players.items():
        done = cli(tmp_path, record, held[seat])
        assert done.returncode == 0 and "verified" in done.stdout, done.stdout
        assert "✓ deal: receipt commitment" in done.stdout
        assert f"✓ deal: receipt bytes (seat {seat})" in done.stdout
    signer = await operator_signer(backend.database_url())
    assert signer.public_hex == key
    forged = [
        ("a seed chosen after the contributions", rekey(players[0], signer), 0, "✗ deal: receipt commitment"),
        ("bytes written at the seat that withheld", write_at(players[1], 1, signer), 1,
         "✗ deal: receipt bytes (seat 1)"),
        ("a player's bytes swapped", write_at(players[0], 0, signer), 0, "✗ deal: receipt bytes (seat 0)"),
    ]
    for what, bad, seat, line in forged:
        alone = cli(tmp_path, bad)
        assert alone.returncode == 0 and "verified" in alone.stdout, (what, alone.stdout)
        caught = cli(tmp_path, bad, held[seat])
        assert caught.returncode == 1 and line in caught.stdout, (what, caught.stdout)
        assert "NOT verified" in caught.stdout
    # Receipts of another room, or a file that is no receipts, are no proof either way.
    assert cli(tmp_path, players[0], {**held[0], "room": "elsewhere"}).returncode == 1
    assert cli(tmp_path, players[0], {"format": "something else"}).returncode == 2
    for client in seated:
        await client.close()
