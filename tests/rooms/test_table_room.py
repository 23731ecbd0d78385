"""What the room adds for the table pages: an optional decision never stalls the table (its own short
timer, even with no turn timer), the finished games' results for the room's tally (kept in the log,
so they survive a restart), the hand history under the players' names (written off the event loop),
and event types that no event data can replace."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.manager import RoomManager
from app.rooms.room import Room
from tests.rooms.helpers import START, Clock, Recorder, dealt_table, started_manager


async def _act(room: Room, subs: list[Recorder], seat: int, action: dict[str, Any]) -> None:
    msg_id = f"m{room.version}-{seat}"
    await room.act(subs[seat], msg_id, action, None)
    assert subs[seat].last("ack")["id"] == msg_id, subs[seat].messages[-1]


async def _check_down_to_showdown(room: Room, subs: list[Recorder]) -> None:
    """Heads-up: call and check every street until the hand reaches its showdown."""
    for _ in range(20):
        hand = room.state.hand
        if hand is None or hand.phase != "bet":
            return
        (seat,) = room.game.to_act(room.state)
        legal = room.game.legal_actions(room.state, seat)
        action = {"type": "check"} if {"type": "check"} in legal else {"type": "call"}
        await _act(room, subs, seat, action)
    raise AssertionError("the hand did not reach its showdown")


async def test_a_show_or_muck_question_has_its_own_timer_without_a_turn_timer(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2, showdown="ask")
    assert room.deadline is None  # betting: no turn timer on this sheet
    await _check_down_to_showdown(room, subs)
    assert room.state.hand is not None and room.state.hand.phase == "showdown"
    (asked,) = room.game.to_act(room.state)
    assert room.game.optional_decision(room.state, asked)
    # The sheet's decision_timer_seconds (10 by default) starts, and every seat is told.
    assert room.deadline == START + 10
    assert subs[1 - asked].last("state")["deadline"] == START + 10
    hand_no = room.state.hand.number
    # Nobody answers: each asked seat in turn gets the quiet choice when its 10 s are up, and the
    # table goes on to the next hand without anyone.
    for _ in range(room.game.seat_count(room.state)):
        hand = room.state.hand
        if hand is None or hand.number > hand_no or hand.phase != "showdown":
            break
        assert room.deadline is not None
        clock.now = room.deadline
        await room.expire(room.version)
        assert any(e["type"] in ("show", "muck") for e in subs[0].last("state")["events"])
    hand = room.state.hand
    assert hand is None or hand.number > hand_no or hand.phase != "showdown"


async def test_no_decision_timer_when_the_sheet_sets_it_to_zero(engine: AsyncEngine, clock: Clock) -> None:
    manager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2, showdown="ask",
                                      decision_timer_seconds=0)
    await _check_down_to_showdown(room, subs)
    assert room.state.hand is not None and room.state.hand.phase == "showdown"
    assert room.deadline is None


async def test_with_a_turn_timer_the_decision_gets_the_shorter_one(engine: AsyncEngine, clock: Clock) -> None:
    manager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2, showdown="ask",
                                      turn_timer_seconds=60, time_bank_seconds=30, decision_timer_seconds=5)
    await _check_down_to_showdown(room, subs)
    assert room.deadline == START + 5


async def _fold_the_one_hand(room: Room, subs: list[Recorder], clock: Clock) -> None:
    (seat,) = room.game.to_act(room.state)
    await _act(room, subs, seat, {"type": "fold"})
    # The table may still offer to show the cards (optional): nobody answers, the decision timer does.
    for _ in range(4):
        if room.game.outcome(room.state) is not None:
            break
        assert room.deadline is not None
        clock.now = room.deadline
        await room.expire(room.version)
    assert room.game.outcome(room.state) is not None


async def test_results_of_finished_games_make_a_tally_that_survives_a_restart(
        engine: AsyncEngine, clock: Clock) -> None:
    manager = await started_manager(engine)
    # A cash table that closes itself after one hand: a fold ends the game.
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2, max_hands=1)
    await _fold_the_one_hand(room, subs, clock)
    first = subs[1].last("room")["results"]
    assert len(first) == 1 and first[0]["game_no"] == 1
    outcome = room.game.outcome(room.state)
    assert outcome is not None
    names = {0: "Kati", 1: "P1"}
    assert first[0]["winners"] == [names[s] for s in outcome.placings[0]]
    assert first[0]["losers"] == [names[s] for s in outcome.placings[-1]]
    # Everyone placed is named, so the room's tally lists players with no win and no last place too.
    assert first[0]["players"] == [names[s] for group in outcome.placings for s in group]
    # The result is in the log too, as a public event of the game's last entry.
    assert any(e["type"] == "game_result" for e in subs[1].last("state")["events"])
    await room.host(subs[0], "again", "rematch", {})
    assert subs[0].last("ack")["id"] == "again"
    await _fold_the_one_hand(room, subs, clock)
    assert [r["game_no"] for r in subs[0].last("room")["results"]] == [1, 2]
    # Another instance (a restart) finds the same results in the database.
    fresh = await started_manager(engine)
    again = await fresh.get(room.id)
    watcher = Recorder()
    await again.attach(watcher, None, None)
    assert watcher.last("room")["results"] == subs[0].last("room")["results"]
    await fresh.stop()
    await manager.stop()


async def test_the_hand_history_names_the_players(engine: AsyncEngine, clock: Clock) -> None:
    manager: RoomManager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2)
    (seat,) = room.game.to_act(room.state)
    await _act(room, subs, seat, {"type": "fold"})
    name, text = await room.history(None)
    assert name.endswith(".phhs")
    # Players in the hand's order (PHH), each by the name of the member in that seat.
    assert "players = ['P1', 'Kati']" in text or "players = ['Kati', 'P1']" in text
    assert "seat 1" not in text
    # A spectator's copy holds no hole card: the fold showed none.
    assert "????" in text


async def test_the_thousand_deal_score_keeps_its_event_type(engine: AsyncEngine, clock: Clock) -> None:
    manager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "thousand", "tuhat", players=3)
    for _ in range(200):
        events = [e for sub in subs for m in sub.messages if m["type"] == "state" for e in m["events"]]
        if any(e["type"] == "deal_scored" for e in events):
            break
        seat = room.game.to_act(room.state)[0]
        action = room.game.timeout_action(room.state, seat)
        assert action is not None
        await _act(room, subs, seat, action)
    scored = [e for m in subs[0].messages if m["type"] == "state"
              for e in m["events"] if e["type"] == "deal_scored"]
    assert scored, "no deal was scored"
    assert scored[0]["contract"] >= 100 and len(scored[0]["points"]) == 3


async def test_the_hand_history_is_written_off_the_event_loop(
        engine: AsyncEngine, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long table's record is a walk over every hand of the game: it runs in a worker thread, so
    one download never holds up the moves of every room on the event loop."""
    manager: RoomManager = await started_manager(engine)
    room, subs, _ = await dealt_table(manager, "holdem", "cash-nl-1-2", players=2)
    (seat,) = room.game.to_act(room.state)
    await _act(room, subs, seat, {"type": "fold"})
    writers: list[int] = []
    game_class = type(room.game)
    original = game_class.history

    def recording(self: Any, *args: Any) -> Any:
        writers.append(threading.get_ident())
        return original(self, *args)

    monkeypatch.setattr(game_class, "history", recording)
    name, _ = await room.history(None)
    assert name.endswith(".phhs")
    assert writers and threading.get_ident() not in writers
    await manager.stop()
