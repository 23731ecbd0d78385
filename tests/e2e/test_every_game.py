"""Every registered game over real sockets: a whole game in the room its test folder names
(``GameCases.room``), with a spectator watching, then the leak check over every message every
socket received, against the rules' own ``visible_cards`` (tests/games/game_cases.py). A new game
is played here with no change to this file."""

from __future__ import annotations

import random

import pytest

from tests.e2e.client import make_room, play_moves, seat_clients
from tests.e2e.conftest import Backend
from tests.e2e.leaks import check_no_early_secrets, check_no_leaks, fair_secrets, states_by_version
from tests.games.game_cases import cases_of, names
from tests.support import ServerProcess


@pytest.mark.parametrize("game", names())
async def test_a_whole_game_leaks_nothing(backend: Backend, server: ServerProcess, game: str) -> None:
    cases = cases_of(game)
    room_case = cases.room
    rng = random.Random(f"every-{game}-{backend.name}")
    room, tokens = await make_room(server.http, room_case.seats, game=game, preset=room_case.preset,
                                   options=dict(room_case.options))
    seated, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    everyone = seated + watchers
    assert (await seated[0].host("start"))["type"] == "ack"
    for client in everyone:
        await client.wait_state(lambda s: s["view"] is not None)
    moves = await play_moves(seated, everyone, rng, chooser=cases.move)
    final = seated[0].state
    assert moves > 0 and final is not None and final["outcome"] is not None
    states = await states_by_version(backend.database_url(), room)
    checked = check_no_leaks(everyone, states, cases.property_case().visible_cards)
    assert checked > moves
    # The game's seed and keys were revealed at its end, and not one message before it.
    assert check_no_early_secrets(everyone, await fair_secrets(backend.database_url(), room)) == checked
    for client in everyone:
        await client.close()
