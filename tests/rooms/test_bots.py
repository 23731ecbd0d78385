"""The room's bot driver in process: what a bot is handed, and a failing bot never stalls a table."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

import app.bots
from app.rooms.manager import RoomManager
from app.store import queries
from tests.rooms.helpers import Recorder, started_manager
from tests.support import until


async def practice_room(engine: AsyncEngine) -> tuple[Any, Recorder, RoomManager]:
    manager = await started_manager(engine, bot_delay_min=0, bot_delay_max=0)
    made = await manager.create_room("palace", name="Kati", seats=2, preset="hiina-turakas")
    room = await manager.get(made["room"])
    host = Recorder()
    await room.attach(host, made["token"], None)
    return room, host, manager


async def test_a_bot_is_handed_its_seats_view_and_legal_moves_only(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]] = []
    real = app.bots.choose
    room_box: list[Any] = []
    others: list[set[str]] = []

    def recording(game_name: str, view: Any, legal: Any, rng: Any, level: str = "good",
                  memory: Any = ()) -> Any:
        room = room_box[0]
        handed.append((view, room.game.view(room.state, 1), room.game.legal_actions(room.state, 1)))
        others.append(set(room.game.view(room.state, 0)["hand"]))
        assert list(legal) == handed[-1][2]
        return real(game_name, view, legal, rng, level, memory)

    monkeypatch.setattr(app.bots, "choose", recording)
    room, host, manager = await practice_room(engine)
    room_box.append(room)
    await room.host(host, "b1", "add_bot", {"seat": 1})
    assert host.last("ack")["id"] == "b1"
    # The swap phase: the bot swaps as many cards as its hand suggests (none for some deals), then
    # declares itself ready and has nothing more to do until the host is ready too.
    await until(lambda: room.game.view(room.state, None)["players"][1]["ready"])
    assert handed and room.game.legal_actions(room.state, 1) == []
    for (view, expected, _), host_hand in zip(handed, others, strict=True):
        assert view == expected and view["you"] == 1
        assert not host_hand & set(str(card) for card in view["hand"])  # none of the host's cards
        assert view["players"][0]["known_hand"] == []
    await manager.stop()


async def test_a_bot_that_fails_makes_the_games_default_move(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(app.bots, "choose", broken)
    room, host, manager = await practice_room(engine)
    await room.host(host, "b1", "add_bot", {"seat": 1})
    # The swap phase: the bot's seat gets the game's default move (ready) instead of stalling.
    await until(lambda: room.state is not None and room.game.view(room.state, None)["players"][1]["ready"])
    log = await queries.log_since(room.engine, room.id, 0, limit=1000)
    bot_moves = [e for e in log if e.kind == "bot"]
    assert bot_moves and bot_moves[0].seat == 1 and bot_moves[0].action == {"type": "ready"}
    await manager.stop()
