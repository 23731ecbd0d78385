"""A player's move and the turn timer's: checked, applied and committed through the room's one
pipeline (app/rooms/pipeline.py), as bots' moves are (app/rooms/bots.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from app.games.base import IllegalAction
from app.rooms import metrics, pipeline
from app.rooms.core import RoomCore
from app.rooms.errors import RoomError
from app.rooms.members import Subscriber

log = logging.getLogger(__name__)


def _refusal(room: RoomCore, seat: int | None, action: dict[str, Any], version: int | None
             ) -> RoomError | None:
    """The room's refusal of this move before the game sees it, or None."""
    if seat is None:
        return RoomError("not_seated", "Spectators cannot make moves.")
    if room.status != "playing" or room.state is None:
        return RoomError("not_playing", "No game is being played.")
    if version is not None and version != room.version:
        return RoomError("stale_version", "The game is at version {current}, not {version}.",
                         current=room.version, version=version)
    kind = action.get("type")
    if isinstance(kind, str) and kind in room.game.server_actions:
        return RoomError("server_only", "Only the server makes that move.")
    if isinstance(kind, str) and kind in room.game.host_actions and seat != room.host_seat():
        return RoomError("not_host", "Only the host can do that.")
    return None


async def act(room: RoomCore, sub: Subscriber, msg_id: str, action: dict[str, Any], version: int | None
              ) -> None:
    """A seated member's move (this instance owns the room)."""
    started = time.perf_counter()
    async with room.lock:
        metrics.STAGE_LOCK.observe(time.perf_counter() - started)
        if room.answered(sub, msg_id) or room.over_rate(sub, msg_id):
            return
        seat = room.seat_of(sub)
        refused = _refusal(room, seat, action, version)
        if refused is not None:
            return room.refuse(sub, msg_id, refused)
        assert seat is not None
        turn = pipeline.Turn(room)
        try:
            turn.acked = turn.move("move", seat, action, sub.member_id, msg_id)
        except IllegalAction as illegal:
            return room.refuse(sub, msg_id, illegal)
        except Exception:
            log.exception("game %s refused an action badly", room.game.name)
            return room.refuse(sub, msg_id, RoomError("bad_action", "That action is malformed."))
        await pipeline.play(room, turn, sub, msg_id, started)


def arm(room: RoomCore) -> None:
    """The turn timer for the room's deadline (the owner runs it)."""
    if room.deadline is None or room.status != "playing":
        return
    loop = asyncio.get_running_loop()
    expected = room.version
    delay = max(0.0, room.deadline - time.time())
    room.timer = loop.call_later(delay, lambda: room.spawn(expire(room, expected)))


async def expire(room: RoomCore, expected: int) -> None:
    """The deadline passed: every seat still to act gets the game's default move (one commit)."""
    async with room.lock:
        if room.version != expected or room.deadline is None or room.state is None:
            return
        if time.time() < room.deadline:
            room.arm_timer()
            return
        turn = pipeline.Turn(room)
        game = room.game
        for seat in list(game.turn_seats(turn.state)):
            if game.outcome(turn.state) is not None or seat not in game.turn_seats(turn.state):
                continue
            action = game.timeout_action(turn.state, seat)
            if action is None:
                continue
            try:
                turn.move("timeout", seat, dict(action))
            except IllegalAction:
                log.exception("timeout action of %s was refused", game.name)
        if any(e.kind == "timeout" for e in turn.entries):
            await pipeline.play(room, turn)
