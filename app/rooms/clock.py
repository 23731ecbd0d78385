"""The turn clock: pure functions of the sheet, the game and the entries of one commit.

The turn timer and the time bank, for any game (the sheet's ``turn_timer_seconds`` and
``time_bank_seconds``; no timer when the first is 0):

- Each seat starts a game with ``time_bank_seconds`` in its bank (a seat that joins a running
  game later starts with a full one).
- The clock runs for the seats whose turn it is (the game's ``turn_seats``), never for seats that
  merely may move out of turn (a look at the cards or a claim before the bidding): those are
  neither charged nor timed out, and their moves do not restart the turn.
- When exactly one seat is to act, its deadline is the turn's start + ``turn_timer_seconds`` + its
  bank left; with several seats to act at once, the turn timer only.
- When a seat to act moves, the time it used beyond the turn timer is taken from its bank (never
  below 0). A move by a seat that was not to act (a table action) keeps the turn's start when the
  same seats are still to act; any other commit starts a new turn.
- When the deadline passes, every seat still to act gets the game's ``timeout_action``; a lone seat
  whose bank was in the deadline is left with 0 (seats that shared a deadline keep theirs: it was
  not offered to them).
- The deadline, the turn's start and the banks are written on the room row in the same transaction
  as the move, so a restart finds them as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Game, RuleSheetBase
from app.store.queries import LogEntry

Clock = tuple[float | None, float | None, dict[int, float]]


def banks_json(banks: Mapping[int, float]) -> dict[str, float]:
    """The time banks left, by seat (public: everyone sees everyone's clock)."""
    return {str(seat): left for seat, left in sorted(banks.items())}


def bank_of(sheet: RuleSheetBase, banks: Mapping[int, float], seat: int) -> float:
    # A seat with no entry (a newcomer at a running table, a room stored before banks) has a full bank.
    return banks.get(seat, float(sheet.time_bank_seconds))


def quiet_seconds(game: Game[Any, Any], sheet: RuleSheetBase, state: Any, optional_decisions: bool
                  ) -> float | None:
    """The sheet's ``decision_timer_seconds`` when every seat to act faces only an optional
    decision (the game's ``optional_decision``), so such a wait never stalls the table."""
    seconds = getattr(sheet, "decision_timer_seconds", 0)
    if state is None or seconds <= 0 or not optional_decisions:
        return None
    if game.outcome(state) is not None:
        return None
    to_act = game.turn_seats(state)
    if to_act and all(game.optional_decision(state, seat) for seat in to_act):
        return float(seconds)
    return None


def _charged(game: Game[Any, Any], sheet: RuleSheetBase, before: Any, players: int,
             banks: Mapping[int, float], turn_start: float | None, entries: Sequence[LogEntry],
             now: float) -> tuple[dict[int, float], list[int], set[int], set[int], bool]:
    """The banks after ``entries`` charged the seats that moved late (and emptied a lone seat's
    that timed out), with the seats that were to act, those of them that moved, those timed out,
    and whether the entries deal anew."""
    base = sheet.turn_timer_seconds
    fresh = any(e.kind == "deal" for e in entries)
    if fresh:
        players = entries[0].action["players"] if entries[0].kind == "deal" else players
        left = {seat: float(sheet.time_bank_seconds) for seat in range(players)}
        waiting: list[int] = []
    else:
        left = dict(banks)
        waiting = [] if before is None else list(game.turn_seats(before))
    movers = {e.seat for e in entries if e.kind == "move" and e.seat in waiting}
    if turn_start is not None and not fresh:
        over = now - turn_start - base
        for seat in movers:
            if over > 0:
                left[seat] = round(max(0.0, bank_of(sheet, left, seat) - over), 3)
    timed_out = {e.seat for e in entries if e.kind == "timeout" and e.seat is not None}
    if len(waiting) == 1 and waiting[0] in timed_out:
        left[waiting[0]] = 0.0
    return left, waiting, movers, timed_out, fresh


def after(game: Game[Any, Any], sheet: RuleSheetBase, before: Any, players: int,
          banks: Mapping[int, float], turn_start: float | None, entries: Sequence[LogEntry], state: Any,
          now: float, optional_decisions: bool) -> Clock:
    """The turn clock after ``entries`` lead from ``before`` to ``state`` at ``now``: the deadline,
    the turn's start and the banks left (see the module's docstring)."""
    base = sheet.turn_timer_seconds
    quiet = quiet_seconds(game, sheet, state, optional_decisions)
    now = round(now, 3)
    if base <= 0:
        if quiet is None:
            return None, None, {}
        return round(now + quiet, 3), now, {}
    left, waiting, movers, timed_out, fresh = _charged(game, sheet, before, players, banks, turn_start,
                                                       entries, now)
    if state is None or game.outcome(state) is not None:
        return None, None, left
    to_act = list(game.turn_seats(state))  # who is on the clock, not who may move
    if not to_act:
        return None, None, left
    keep = (not fresh and turn_start is not None and to_act == waiting
            and not movers and not timed_out)
    start = turn_start if keep and turn_start is not None else now
    if quiet is not None and quiet < base:
        return round(start + quiet, 3), start, left
    extra = bank_of(sheet, left, to_act[0]) if len(to_act) == 1 else 0.0
    return round(start + base + extra, 3), start, left
