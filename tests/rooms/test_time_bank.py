"""The time bank on top of the turn timer, for any game (the sheet's ``time_bank_seconds``), with the
room's clock replaced by one the test moves: a lone seat to act gets its bank in its deadline and pays
for the time it used past the turn timer; seats acting together get the timer only; a timeout empties
the bank; banks and the turn's start are rebuilt from the database; seats that merely may move out of
turn (Thousand before the opening bid) are not on the clock."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.store import queries
from tests.rooms.helpers import START, Clock, Recorder, dealt_table, started_manager


async def _manager(engine: AsyncEngine) -> RoomManager:
    return await started_manager(engine)


async def _table(manager: RoomManager, game: str, preset: str, **options: Any
                 ) -> tuple[Room, list[Recorder], list[str]]:
    """A started two-seat table; its sockets and tokens, the seat to act first (the button, in
    heads-up Hold'em) listed first."""
    room, subs, tokens = await dealt_table(manager, game, preset, players=2, **options)
    if room.game.to_act(room.state)[:1] == [1]:
        subs.reverse()
        tokens.reverse()
    return room, subs, tokens


async def _holdem(manager: RoomManager, **options: Any) -> tuple[Room, list[Recorder], list[str]]:
    return await _table(manager, "holdem", "cash-nl-1-2", **options)


async def _act(room: Room, sub: Recorder, action: dict[str, Any]) -> None:
    msg_id = f"m{room.version}"
    await room.act(sub, msg_id, action, None)
    assert sub.last("ack")["id"] == msg_id, sub.messages[-1]


async def test_a_lone_seat_gets_its_bank_and_pays_only_for_time_past_the_timer(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    # Heads-up Hold'em: one seat acts at a time (the button first before the flop, then the big blind).
    room, subs, _ = await _holdem(manager, turn_timer_seconds=10, time_bank_seconds=30)
    a, b = room.game.to_act(room.state)[0], 1 - room.game.to_act(room.state)[0]
    assert room.deadline == START + 10 + 30 and room.turn_start == START
    state = subs[1].last("state")
    assert state["deadline"] == START + 40 and state["banks"] == {"0": 30.0, "1": 30.0}
    clock.now = START + 25  # 15 s past the turn timer
    await _act(room, subs[0], {"type": "call"})
    assert room.banks == {a: 15.0, b: 30.0}
    assert room.game.to_act(room.state) == [b]
    assert room.deadline == START + 25 + 10 + 30
    assert subs[0].last("state")["banks"] == {str(a): 15.0, str(b): 30.0}
    clock.now = START + 25 + 9  # within the turn timer: the bank is untouched
    await _act(room, subs[1], {"type": "check"})
    assert room.banks == {a: 15.0, b: 30.0}
    # Stored with the move, in the same transaction.
    record = await queries.load_room(engine, room.id)
    assert record is not None
    assert record.room["banks"] == {str(a): 15.0, str(b): 30.0}
    assert record.room["turn_start"] == START + 34 and record.room["deadline"] == room.deadline
    await manager.stop()


async def test_a_bank_is_never_overdrawn(engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    room, subs, _ = await _holdem(manager, turn_timer_seconds=10, time_bank_seconds=5)
    a = room.game.to_act(room.state)[0]
    # The move arrives after the deadline, before the timer fired: the bank is 0, not negative.
    clock.now = START + 16
    await _act(room, subs[0], {"type": "call"})
    assert room.banks[a] == 0.0
    await manager.stop()


async def test_the_deadline_passing_makes_the_default_move_and_empties_the_bank(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    room, subs, _ = await _holdem(manager, turn_timer_seconds=10, time_bank_seconds=30)
    a, b = room.game.to_act(room.state)[0], 1 - room.game.to_act(room.state)[0]
    dealt = room.version
    clock.now = START + 39.9
    await room.expire(room.version)  # early: nothing happens
    assert room.version == dealt
    clock.now = START + 40
    await room.expire(room.version)
    entries = await queries.log_since(engine, room.id, dealt)
    assert [(e.kind, e.seat, e.action) for e in entries][:1] == [("timeout", a, {"type": "fold"})]
    assert room.banks[a] == 0.0 and room.banks[b] == 30.0
    assert subs[1].last("state")["banks"][str(a)] == 0.0
    await manager.stop()


async def test_seats_to_act_together_get_the_turn_timer_only_and_keep_their_banks(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    # Palace begins with every seat laying its face-up cards at once.
    room, _, _ = await _table(manager, "palace", "palace", turn_timer_seconds=10, time_bank_seconds=30)
    assert room.game.to_act(room.state) == [0, 1]
    assert room.deadline == START + 10
    dealt = room.version
    clock.now = START + 10
    await room.expire(room.version)
    entries = await queries.log_since(engine, room.id, dealt)
    assert {(e.kind, e.seat) for e in entries if e.kind == "timeout"} == {("timeout", 0), ("timeout", 1)}
    # The bank was not in their deadline, so the timeout does not take it.
    assert room.banks == {0: 30.0, 1: 30.0}
    await manager.stop()


async def test_banks_and_the_turn_start_are_rebuilt_after_a_restart(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    room, subs, tokens = await _holdem(manager, turn_timer_seconds=10, time_bank_seconds=30)
    a, b = room.game.to_act(room.state)[0], 1 - room.game.to_act(room.state)[0]
    clock.now = START + 25
    await _act(room, subs[0], {"type": "call"})  # 15 s left for a; b's turn began at +25
    deadline = room.deadline
    await manager.stop()
    again = await _manager(engine)
    rebuilt = again.rooms[room.id]
    assert rebuilt.banks == {a: 15.0, b: 30.0}
    assert rebuilt.turn_start == START + 25 and rebuilt.deadline == deadline
    second = Recorder()
    await rebuilt.attach(second, tokens[1], None)
    assert second.last("state")["banks"] == {str(a): 15.0, str(b): 30.0}
    assert second.last("state")["deadline"] == deadline
    # b thinks 22 s in all, across the restart: 12 s come from its bank.
    clock.now = START + 25 + 22
    await _act(rebuilt, second, {"type": "check"})
    assert rebuilt.banks == {a: 15.0, b: 18.0}
    await again.stop()


async def test_without_a_turn_timer_there_is_no_deadline_and_no_bank(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    room, subs, _ = await _holdem(manager, time_bank_seconds=30)
    assert room.deadline is None and room.turn_start is None and room.banks == {}
    assert subs[0].last("state")["banks"] == {}
    await manager.stop()


async def test_a_table_action_from_a_seat_not_to_act_keeps_the_turn_running(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await _manager(engine)
    room, subs, _ = await _holdem(manager, turn_timer_seconds=10, time_bank_seconds=30)
    a = room.game.to_act(room.state)[0]
    clock.now = START + 20
    # The other seat asks to sit out the next hand while a thinks: a's clock does not restart.
    await _act(room, subs[1], {"type": "sit_out"})
    assert room.game.to_act(room.state) == [a]
    assert room.turn_start == START and room.deadline == START + 40
    assert room.banks == {0: 30.0, 1: 30.0}
    clock.now = START + 30
    await _act(room, subs[0], {"type": "call"})
    assert room.banks[a] == 10.0
    await manager.stop()


async def test_t5_t6_before_the_opening_bid_only_the_opener_is_on_the_clock(
        engine: AsyncEngine, clock: Clock) -> None:
    """Thousand [T5, T6]: before the opening bid the others may look at their cards or claim a
    redeal or the lottery out of turn, so the game names them to act too; the clock is the
    opener's alone. His deadline holds his bank, a look by another seat neither charges that seat
    nor restarts the opener's turn, and the deadline makes the opener's bid and nobody else's."""
    manager = await _manager(engine)
    room, subs, _ = await dealt_table(manager, "thousand", "tuhat", players=3,
                                      turn_timer_seconds=10, time_bank_seconds=30)
    opener = room.state.turn
    others = [seat for seat in range(3) if seat != opener]
    assert sorted(room.game.to_act(room.state)) == [0, 1, 2]  # all three may move now
    assert room.game.turn_seats(room.state) == [opener]
    assert room.deadline == START + 10 + 30 and room.turn_start == START
    dealt = room.version
    clock.now = START + 25  # 15 s past the turn timer: a bank move would cost 15 s
    await _act(room, subs[others[0]], {"type": "look"})
    assert room.version == dealt + 1
    assert room.banks == {0: 30.0, 1: 30.0, 2: 30.0}
    assert room.turn_start == START and room.deadline == START + 40
    clock.now = START + 40
    await room.expire(room.version)
    entries = await queries.log_since(engine, room.id, dealt + 1)
    timeouts = [(e.seat, e.action) for e in entries if e.kind == "timeout"]
    assert timeouts == [(opener, {"type": "bid", "value": room.sheet.opening_bid})]
    assert room.banks[opener] == 0.0 and all(room.banks[seat] == 30.0 for seat in others)
    # The auction goes on: the next bidder is on the clock, with his bank.
    assert room.state.bid == room.sheet.opening_bid
    assert room.game.turn_seats(room.state) == room.game.to_act(room.state) == [room.state.turn]
    assert room.deadline == START + 40 + 10 + 30
    await manager.stop()
