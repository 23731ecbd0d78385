"""The leak check over whole games: every message any socket received, against the rules.

The game states are rebuilt from the stored log (deal seed, then every move), and each message
may only hold cards its receiver may see (``visible_cards``, written from the rules in the game's
tests) in the states around the versions the message speaks of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app import games
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client
from tests.games.properties import cards_in


async def states_by_version(database_url: str, room: str) -> dict[int, Any]:
    engine = make_engine(database_url)
    try:
        record = await queries.load_room(engine, room)
        assert record is not None
        entries = await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()
    game = games.get(record.room["game"])
    sheet = game.sheet(record.room["sheet"])
    states: dict[int, Any] = {}
    state: Any = None
    for entry in entries:
        if entry.kind == "deal":
            state = game.new(sheet, entry.action["players"], seed=entry.action["seed"])
        else:
            # Server actions (a clock) are logged with no seat and applied as seat 0.
            state, _ = game.apply(state, 0 if entry.seat is None else entry.seat, entry.action)
        states[entry.version] = state
    return states


def check_no_leaks(clients: list[Client], states: dict[int, Any],
                   visible: Callable[[Any, int | None], set[str]]) -> int:
    """Asserts that no received message leaks a card (or another seat's chance to move out of
    turn); returns how many messages were checked."""
    checked = 0
    for client in clients:
        for item in client.received:
            message = item.message
            covered = {item.known}
            if message["type"] == "state":
                covered = {message["version"], *(e["version"] for e in message.get("events", []))}
                # Who may move out of turn tells what they hold: a socket hears only of its own seat.
                assert set(message["to_act"]) <= {client.seat}, message["to_act"]
            allowed: set[str] = set()
            for version in covered:
                for at in (version - 1, version):
                    if at in states:
                        allowed |= visible(states[at], client.seat)
            leaked = cards_in(message) - allowed
            assert not leaked, f"seat {client.seat} received {sorted(leaked)} in {message['type']}: {message}"
            checked += 1
    return checked
