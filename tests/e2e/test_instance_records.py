"""A room's downloads on an instance that follows it (another instance owns it): a token the owner
handed out a moment ago, whose word has not reached this instance yet, is looked up in the database
before it is refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from tests.e2e.client import TIMEOUT
from tests.e2e.relay import SlowAnswers
from tests.support import ServerProcess, fresh_postgres, needs_postgres

pytestmark = pytest.mark.heavy(15)

LIFTED = {"HOUSERULES_WS_RATE": "10000", "HOUSERULES_WS_BURST": "10000"}
# The follower hears the owner's news this much later than it is sent (its own reads are quick):
# the downloads below are asked for well inside it, so without the database's word the newcomer's
# token would be one it does not know.
LATE_NEWS = 1.0


@needs_postgres
async def test_a_newcomers_token_is_known_to_the_downloads_of_an_instance_that_has_not_heard_of_it(
        tmp_path: Path) -> None:
    """A room owned by A and loaded by B (which hears A's news late); a newcomer joins through A and
    at once asks B for the game record and the verifiable record with their token: B answers as it
    does for any member of a room with no game yet (404), never ``bad_token``; a token of nobody
    is still refused."""
    async with fresh_postgres() as url:
        relay = SlowAnswers(url, LATE_NEWS, news_only=True)
        await relay.start()
        slow_url = relay.url
        owner = ServerProcess(tmp_path, url, **LIFTED).start()
        try:
            follower = await asyncio.to_thread(ServerProcess(tmp_path, slow_url, **LIFTED).start)
            try:
                async with httpx.AsyncClient(timeout=TIMEOUT) as http:
                    made = await http.post(f"{owner.http}/api/rooms",
                                           json={"game": "palace", "name": "Kati", "seats": 4})
                    assert made.status_code == 201, made.text
                    room = made.json()["room"]
                    # A loads the room first (so takes its lease), then B: B's copy knows Kati only.
                    assert (await http.get(f"{owner.http}/api/rooms/{room}")).status_code == 200
                    assert (await http.get(f"{follower.http}/api/rooms/{room}")).status_code == 200
                    joined = await http.post(f"{owner.http}/api/rooms/{room}/join", json={"name": "Mari"})
                    assert joined.status_code == 201, joined.text
                    newcomer = {"Authorization": f"Bearer {joined.json()['token']}"}
                    history = await http.get(f"{follower.http}/api/rooms/{room}/history", headers=newcomer)
                    record = await http.get(f"{follower.http}/api/rooms/{room}/record", headers=newcomer)
                    assert (history.status_code, history.json()["code"]) == (404, "no_history"), history.text
                    assert (record.status_code, record.json()["code"]) == (404, "no_record"), record.text
                    nobody = {"Authorization": "Bearer " + "A" * 43}
                    refused = await http.get(f"{follower.http}/api/rooms/{room}/record", headers=nobody)
                    assert (refused.status_code, refused.json()["code"]) == (403, "bad_token"), refused.text
            finally:
                await asyncio.to_thread(follower.stop)
        finally:
            owner.stop()
            await relay.stop()
