"""The replay's jump marks: one a frame. A Thousand deal redealt on four nines in the move that
dealt it [T5] starts two deals in one log entry; the replay index marks that frame once, with the
deal that is played (the later number), so the page's jump list has no twin entries."""

from __future__ import annotations

from typing import Any

from app.bots.arena import bot, play
from app.registry import get as game_of
from app.rooms.entries import event_row
from app.rooms.replay_index import GameIndex
from app.store.log_entries import LogEntry


def logged(game: Any, sheet: Any, seed: str) -> list[LogEntry] | None:
    """A whole game by bots, as the room logs it; ``None`` unless a later deal was redealt in the
    move that dealt it (two ``deal_started`` events in one entry)."""
    result = play(game, sheet, [bot("easy")] * 3, seed)
    entries = [LogEntry(1, 1, "deal", None, {"seed": seed, "players": 3}, [])]
    state = game.new(sheet, 3, seed=seed)
    twice = False
    for number, (seat, action) in enumerate(result.log, start=2):
        state, events = game.apply(state, seat, action)
        rows = [event_row(e) for e in events]
        twice = twice or sum(row["type"] == "deal_started" for row in rows) > 1
        entries.append(LogEntry(number, 1, "move", seat, dict(action), rows))
    return entries if twice else None


def test_t5_a_redeal_in_the_dealing_move_is_one_mark_with_the_deal_played() -> None:
    game = game_of("thousand")
    sheet = game.sheet({"four_nines_redeal": True}, preset="tuhat")
    # About one deal in a hundred holds four nines in one hand: a few games find one.
    for attempt in range(60):
        entries = logged(game, sheet, f"marks-{attempt}")
        if entries is not None:
            break
    else:
        raise AssertionError("no later deal was redealt in the move that dealt it")
    index = GameIndex(game, sheet, in_play=False)
    assert index.walk(entries) == len(entries)
    marks = index.shown_marks()
    frames = [m["index"] for m in marks]
    assert frames == sorted(set(frames)), marks
    # Every deal started after the first is reachable, and a frame's mark names its last deal.
    for entry_index, entry in enumerate(entries[1:], start=1):
        deals = [row["data"]["deal"] for row in entry.events if row["type"] == "deal_started"]
        if deals:
            (mark,) = [m for m in marks if m["index"] == entry_index]
            assert mark == {"index": entry_index, "kind": "deal", "number": deals[-1]}
