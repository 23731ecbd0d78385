"""The leak check over whole games: every message any socket received, against the rules.

The game states are rebuilt from the stored log (deal seed, then every move), and each message
may only hold cards its receiver may see (``visible_cards``, written from the rules in the game's
tests): every card that was public at some version up to the newest version the message speaks of,
and the cards the receiver's own seat could see in any state the message covers. One ``state``
message may cover several deals (the missed events after a reconnect, or a move that ends one hand
and deals the next), so every state between its oldest and its newest version counts, not only the
latest two.
A log entry may also hold a card that is public only between two stored versions: a move that
ends a Hold'em hand with a show and deals the next one is one entry, and the state after it no
longer shows the cards that were shown. The cards of an entry's public events count as public
from its version on (that each public event of a single move shows only cards public before or
after that move is the games' property tests' check, ``check_events``).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from app import registry
from app.games import fair
from app.store import queries
from app.store.db import make_engine
from tests.e2e.client import Client
from tests.games.properties import cards_in


class StatesByVersion(dict[int, Any]):
    """The game state after each version, and the cards each version's public events showed."""

    def __init__(self) -> None:
        super().__init__()
        self.published: dict[int, set[str]] = {}


async def states_by_version(database_url: str, room: str) -> StatesByVersion:
    engine = make_engine(database_url)
    try:
        record = await queries.load_room(engine, room)
        assert record is not None
        entries = await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()
    game = registry.get(record.room["game"])
    sheet = game.sheet(record.room["sheet"])
    states = StatesByVersion()
    state: Any = None
    for entry in entries:
        if entry.kind == "deal":
            state = game.new(sheet, entry.action["players"], seed=entry.action["seed"])
        else:
            # Server actions (a clock) are logged with no seat and applied as seat 0.
            state, _ = game.apply(state, 0 if entry.seat is None else entry.seat, entry.action)
        states[entry.version] = state
        shown = set().union(*(cards_in(row.get("data", {})) for row in entry.events
                               if row.get("audience") is None))
        if shown:
            states.published[entry.version] = shown
    return states


class _Visibility:
    """What a seat may have seen by a version: the public cards of every state up to it (once
    public, a card's face is known for good) and its own seat's cards in a range of states."""

    def __init__(self, states: dict[int, Any], visible: Callable[[Any, int | None], set[str]]) -> None:
        self.states = states
        self.visible = visible
        self.versions = sorted(states)
        self._public_upto: dict[int, set[str]] = {}
        published = states.published if isinstance(states, StatesByVersion) else {}
        public: set[str] = set()
        for version in self.versions:
            public = public | visible(states[version], None) | published.get(version, set())
            self._public_upto[version] = public
        self._seen: dict[tuple[int, int | None], set[str]] = {}

    def public_upto(self, version: int) -> set[str]:
        # The last stored version at or before ``version`` (the versions are sorted).
        at = bisect_right(self.versions, version)
        return self._public_upto[self.versions[at - 1]] if at else set()

    def seat_sees(self, version: int, seat: int | None) -> set[str]:
        key = (version, seat)
        if key not in self._seen:
            self._seen[key] = self.visible(self.states[version], seat) if version in self.states else set()
        return self._seen[key]

    def allowed(self, low: int, high: int, seat: int | None) -> set[str]:
        """Cards a message covering versions ``low``..``high`` may hold for ``seat``: the state
        before ``low`` counts too (events of a move describe the change from it)."""
        allowed = set(self.public_upto(high))
        for version in range(low - 1, high + 1):
            allowed |= self.seat_sees(version, seat)
        return allowed


def check_no_leaks(clients: list[Client], states: dict[int, Any],
                   visible: Callable[[Any, int | None], set[str]]) -> int:
    """Asserts that no received message leaks a card (or another seat's chance to move out of
    turn); returns how many messages were checked."""
    seen = _Visibility(states, visible)
    checked = 0
    for client in clients:
        for item in client.received:
            message = item.message
            covered = {item.known}
            if message["type"] == "state":
                covered = {message["version"], *(e["version"] for e in message.get("events", []))}
                # Who may move out of turn tells what they hold: a socket hears only of its own seat.
                assert set(message["to_act"]) <= {client.seat}, message["to_act"]
            allowed = seen.allowed(min(covered), max(covered), client.seat)
            leaked = cards_in(message) - allowed
            assert not leaked, f"seat {client.seat} received {sorted(leaked)} in {message['type']}: {message}"
            checked += 1
    return checked


async def fair_secrets(database_url: str, room: str) -> dict[str, int | None]:
    """Every secret of the room's fair deals (docs/fairness.md) and the version from which it is
    public: server seeds and nonces (the games' and each later hand's or deal's round) from their
    reveal, shuffle keys from their ``shuffle_key`` event, and shuffle seeds never (``None``)."""
    engine = make_engine(database_url)
    try:
        entries = await queries.log_since(engine, room, 0, limit=1_000_000)
    finally:
        await engine.dispose()
    secrets: dict[str, int | None] = {}
    seed = ""
    for entry in entries:
        if entry.kind == "deal" or entry.action.get("type") == "reseed":
            # A game's deal, or a later hand's or deal's own round: its seed keys what follows.
            material = entry.action["fair"]
            seed = entry.action["seed"]
            secrets[seed] = None
            secrets[material["server_seed"]] = None
            secrets[material["nonce"]] = None
        for row in entry.events:
            data = row.get("data", {})
            if row["type"] == "shuffle_commitment":
                secrets.setdefault(fair.shuffle_key(seed, data["label"]), None)
            elif row["type"] == "shuffle_key":
                secrets[data["key"]] = entry.version
            elif row["type"] in ("reveal", "round_reveal"):
                for secret in (data["server_seed"], data["nonce"]):
                    if secrets.get(secret) is None:  # the first reveal (a round's may come early)
                        secrets[secret] = entry.version
    assert secrets, "no fair deal in this room"
    return secrets


def check_no_early_secrets(clients: list[Client], secrets: dict[str, int | None]) -> int:
    """Asserts that no message holds a seed or key before the version that publishes it (a game's
    shuffle seed never); returns how many messages were checked."""
    checked = 0
    for client in clients:
        for item in client.received:
            message = item.message
            newest = item.known
            if message["type"] == "state":
                newest = max([message["version"], *(e["version"] for e in message.get("events", []))])
            text = json.dumps(message)
            for secret, public_from in secrets.items():
                if secret in text:
                    assert public_from is not None and newest >= public_from, \
                        f"seat {client.seat} received a secret before it was published: {message}"
            checked += 1
    return checked
