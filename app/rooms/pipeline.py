"""The one way moves reach a room's table, for a player's move, a bot's and a timeout alike:
apply (``Turn``), commit, recover, publish (``play``).

A commit persists its entries in one transaction with the version check (through the room's
writer); only then does memory follow, the mover get its acknowledgement and every socket its news.
A refused or failed commit leaves memory as it was and catches up with the database instead. Deals
and host operations commit through ``commit`` too (app/rooms/host.py answers and publishes them).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from app.rooms import clock, metrics, sealing
from app.rooms.core import RoomCore
from app.rooms.entries import auto_entries, clock_entries, dumps, event_row, moves_metric
from app.rooms.members import Subscriber
from app.store import queries
from app.store.queries import LogEntry, VersionConflict

log = logging.getLogger(__name__)


class Turn:
    """One commit's entries in the making from the room's state: the game's clock action when one
    is due, then the moves (``move``), then, in ``play``, the automatic moves that follow."""

    __slots__ = ("acked", "entries", "game", "game_no", "state", "version")

    def __init__(self, room: RoomCore, *, clock_action: bool = True) -> None:
        self.game, self.version, self.game_no = room.game, room.version, room.game_no
        self.state: Any = room.state
        self.entries: list[LogEntry] = []
        if clock_action:
            self.state, self.entries = clock_entries(room.game, room.state, room.version, room.game_no,
                                                     round(time.time(), 3))
        # The entry a socket's acknowledgement names (its own move, not the automatic ones after it).
        self.acked: LogEntry | None = None

    def move(self, kind: str, seat: int, action: dict[str, Any], member_id: int | None = None,
             msg_id: str | None = None) -> LogEntry:
        """Apply ``action`` as ``seat``'s and log it; raises ``IllegalAction`` (nothing changed)."""
        state, events = self.game.apply(self.state, seat, action)
        entry = LogEntry(self.version + len(self.entries) + 1, self.game_no, kind, seat, action,
                         [event_row(e) for e in events], member_id, msg_id)
        self.entries.append(entry)
        self.state = state
        return entry

    def autos(self) -> list[LogEntry]:
        """The automatic moves after the entries so far, added to them."""
        self.state, after = auto_entries(self.game, self.state, self.version + len(self.entries),
                                         self.game_no)
        self.entries.extend(after)
        return self.entries


async def play(room: RoomCore, turn: Turn, sub: Subscriber | None = None, msg_id: str | None = None,
               started: float | None = None) -> bool:
    """The one way moves reach the table (a player's, a bot's, a timeout's), after ``turn``
    applied them: the automatic moves that follow, one commit, then the acknowledgement of
    ``sub``'s message (``turn.acked``'s version) and everyone's news. A failed commit catches
    up with the database instead (``recover``). Under the room's lock; whether it committed."""
    entries = turn.autos()
    committing = time.perf_counter()
    try:
        await commit(room, entries, turn.state)
    except Exception as error:
        if sub is not None and msg_id is not None and await _applied_before(room, sub, msg_id, error):
            return False
        await recover(room, sub, msg_id, error)
        return False
    metrics.STAGE_COMMIT.observe(time.perf_counter() - committing)
    if sub is not None and msg_id is not None and turn.acked is not None:
        # The move's own version, as a repeat of this id finds it in the log after a restart
        # (moves the server made right after it, ``auto``, have later versions).
        room.answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": turn.acked.version})
        if started is not None:
            metrics.MOVE_LATENCY.observe(time.perf_counter() - started)
    room.publish_state(entries)
    return True


async def _applied_before(room: RoomCore, sub: Subscriber, msg_id: str, error: Exception) -> bool:
    """An id too old for the reply cache hits the log's unique index: answered as before."""
    if isinstance(error, VersionConflict) or sub.member_id is None:
        return False
    applied = None
    with contextlib.suppress(Exception):
        applied = await queries.find_msg(room.engine, room.id, sub.member_id, msg_id)
    if applied is None:
        return False
    room.answer(sub, msg_id, {"type": "ack", "id": msg_id, "version": applied})
    return True


async def commit(room: RoomCore, entries: list[LogEntry], state: Any, *,
                 room_values: dict[str, Any] | None = None, seats: Mapping[int, int | None] | None = None,
                 snapshot: bool = False) -> None:
    """Persist ``entries`` leading to ``state``; on success memory follows, then timers re-arm.

    Raises ``VersionConflict`` (another instance moved first) or a database error; in both
    cases memory is untouched.
    """
    pending = room.fair.pending
    tracking = room.fair.tracking()
    try:
        state, resealed = sealing.seal_rounds(room.game, room.fair, room.state, entries, state, room.seated,
                                              lambda: sorted(room.connected_seats()))
        if resealed:
            room.room_changed = True  # the next round's commitment goes out in the room message
        # Shuffle commitments and keys, and the reveals, ride in the last entry.
        entries[-1].events.extend(await _fair_events(room, entries, state))
    except BaseException:
        room.fair.pending = pending
        room.fair.set_tracking(tracking)
        raise
    finished = state is not None and room.game.outcome(state) is not None
    status = "finished" if finished else "playing"
    result = _result(room, state, entries[-1].game_no) if finished and room.status != "finished" else None
    if result is not None:
        # Kept in the game's last log entry, where the room tally finds it after a restart.
        entries[-1].events.append({"type": "game_result", "data": result, "audience": None})
    turn_clock = clock.after(room.game, room.sheet, room.state, room.players, room.banks, room.turn_start,
                             entries, state, time.time(), room.optional_decisions)
    moves = room.moves_since_snapshot + len(entries)
    take_snapshot = snapshot or finished or moves >= room.settings.snapshot_every
    values = {"status": status, "deadline": turn_clock[0], "turn_start": turn_clock[1],
              "banks": clock.banks_json(turn_clock[2]), **(room_values or {})}
    # A round sealed here: the next one is stored with the commit (a restart keeps it).
    unstored = room.fair.unstored()
    if unstored is not None:
        values["fair_pending"] = unstored
    if status != room.status or room_values:
        # A deal or a game's end: the retention of finished rooms counts from here.
        values["active_at"] = round(time.time(), 3)
    snap = (entries[-1].version, entries[-1].game_no, room.game.dump(state)) if take_snapshot else None
    try:
        await room.writer.commit(queries.Commit(room.id, room.version, entries, values, snap, seats,
                                                room.epoch))
    except BaseException:
        room.fair.set_tracking(tracking)  # not published after all
        if room.fair.pending is not pending:
            # A round sealed for these entries was not stored: its contributions still count.
            room.fair.pending = pending
        raise
    if unstored is not None:
        room.fair.stored = unstored["commitment"]
    room.moves_since_snapshot = 0 if take_snapshot else moves
    _committed(room, entries, state, status, turn_clock, room_values, result)


def _committed(room: RoomCore, entries: list[LogEntry], state: Any, status: str, turn_clock: clock.Clock,
               room_values: dict[str, Any] | None, result: dict[str, Any] | None) -> None:
    """Memory follows a stored commit; the timers and bots re-arm."""
    room.state = state
    room.version = entries[-1].version
    changed = room.status != status
    room.status = status
    room.deadline, room.turn_start, room.banks = turn_clock
    for key, value in (room_values or {}).items():
        setattr(room, key, value)
    for entry in entries:
        moves_metric(entry.kind).inc()
    if changed or room_values:
        # The room message tells the status and the deal: everyone hears of a change (a game's
        # end included) right after the state that made it.
        room.room_changed = True
    if changed:
        room.cluster.status_changed()
    room.arm_timer()
    if result is not None:
        if room.results is not None:
            room.results.append(result)
        room.room_changed = True  # the tally rides in the room message, sent after the state


async def _fair_events(room: RoomCore, entries: Sequence[LogEntry], state: Any) -> list[dict[str, Any]]:
    fresh = any(e.kind == "deal" for e in entries)
    if not fresh and not room.fair.loaded:
        # After a load: the current game's seeds are in its deal entry.
        found = await queries.log_range(room.engine, room.id, room.deal_version, limit=1)
        deal = found[0] if found and found[0].kind == "deal" else None
        room.fair.restore(deal.action if deal is not None else None)
    return room.fair.events(room.game, None if fresh else room.state, state, entries[-1].game_no)


def _result(room: RoomCore, state: Any, game_no: int) -> dict[str, Any] | None:
    """A finished game's result by name: the first place's seats win; a lone last place, after
    others placed above it, is the loser (a shedding game's last player)."""
    outcome = room.game.outcome(state)
    if outcome is None or not outcome.placings:
        return None
    seated = room.seated()

    def names(seats: Sequence[int]) -> list[str]:
        return [seated[seat].name if seat in seated else f"Seat {seat + 1}" for seat in seats]

    last = outcome.placings[-1] if len(outcome.placings) > 1 else ()
    return {"game_no": game_no, "winners": names(outcome.placings[0]),
            "losers": names(last) if len(last) == 1 else [],
            "players": names([seat for group in outcome.placings for seat in group])}


async def recover(room: RoomCore, sub: Subscriber | None, msg_id: str | None, error: Exception) -> None:
    """After a failed commit: catch up with the database (the truth) and tell everyone what
    they missed."""
    if isinstance(error, VersionConflict):
        code, message = "stale_version", "The game moved on before your move arrived; look again."
    else:
        log.exception("commit failed in room %s", room.id, exc_info=error)
        code, message = "server_error", "The move could not be stored; nothing changed. Try again."
    if sub is not None and msg_id is not None:
        # Not remembered: a retry of this id may well succeed.
        sub.send(dumps(room.error(msg_id, code, message)))
        metrics.REFUSED.labels(code).inc()
    try:
        # The room moved on elsewhere (or the commit's fate is unknown): take the log entries
        # this instance missed and publish them, events included, once.
        await room.catch_up()
    except Exception:
        log.exception("catching up failed in room %s", room.id)

