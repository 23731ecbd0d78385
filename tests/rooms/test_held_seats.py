"""A copy catching up over deals tells each member the private events of the seat it held then,
and only while it held it (``RoomCore.publish_state`` with the seats as held before)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.log_entries import LogEntry
from tests.rooms.helpers import dealt_table, started_manager


def _private(version: int, seat: int, game_no: int) -> LogEntry:
    return LogEntry(version, game_no, "move", seat, {"type": "x"},
                    [{"type": "secret", "data": {"of": seat, "at": version}, "audience": [seat]}])


def _deal(version: int, game_no: int) -> LogEntry:
    return LogEntry(version, game_no, "deal", None, {}, [{"type": "deal", "data": {}, "audience": None}])


def _secrets(messages: list[dict[str, Any]]) -> list[int]:
    return [e["at"] for m in messages if m["type"] == "state" for e in m["events"] if e["type"] == "secret"]


async def test_a_seats_events_before_the_deal_go_to_its_holder_then_and_none_of_a_game_between_two_deals(
        engine: AsyncEngine) -> None:
    """Member A held seat 1 before the catch-up and holds seat 0 after it. Of the first game (before
    the first deal in the entries) A gets seat 1's events and not seat 0's; of a game between the two
    deals, where the seats' holders are unknown to this copy, A gets neither; of the game dealt last,
    seat 0's."""
    manager = await started_manager(engine)
    try:
        room, subs, _ = await dealt_table(manager, "palace", "palace", players=2)
        member = room.members[subs[1].member_id or 0]
        other = room.members[subs[0].member_id or 0]
        held_before = {member.id: (1, 1), other.id: (0, 1)}
        base = room.version
        entries = [_private(base + 1, 1, 1), _private(base + 2, 0, 1), _deal(base + 3, 2),
                   _private(base + 4, 1, 2), _private(base + 5, 0, 2), _deal(base + 6, 3),
                   _private(base + 7, 0, 3), _private(base + 8, 1, 3)]
        member.seat, member.since = 0, base + 6
        other.seat, other.since = 1, base + 6
        subs[1].messages.clear()
        room.publish_state(entries, held_before)
        assert _secrets(subs[1].messages) == [base + 1, base + 7]
        subs[0].messages.clear()
        room.publish_state(entries, held_before)
        assert _secrets(subs[0].messages) == [base + 2, base + 8]
        # Without the seats as held before, the first game's events are withheld from both.
        subs[1].messages.clear()
        room.publish_state(entries)
        assert _secrets(subs[1].messages) == [base + 7]
    finally:
        await manager.stop()
