"""What a replay page costs: the game's log is walked once per game (and per finished part of a
game in play), keeping the game state at every ``STRIDE``-th entry; a page is drawn from the
nearest kept state before it, so it reads and replays at most ``STRIDE - 1 + count`` entries
whatever the game's length. What a replay shows is app/rooms/replay.py's.

The walk reads the log in batches and replays each batch in a worker thread, so the event loop
serves the rooms' moves between them. Indexes are kept for the ``CACHED_GAMES`` games asked for
last; a game in play is walked on from where its index stopped when its log has grown.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import Counter
from sqlalchemy.ext.asyncio import AsyncEngine

from app.games.base import Game, RuleSheetBase
from app.rooms.entries import apply_entry
from app.rooms.errors import RoomError
from app.rooms.replay import MARKS, frame, seat_names, trimmed_frame
from app.store import queries
from app.store.queries import LogEntry

# A kept state every this many entries: a page walks at most this many entries besides its own.
STRIDE = 50
# Log entries read from the database at once while walking a game.
BATCH = 500
CACHED_GAMES = 32

REPLAYED = Counter("houserules_replay_entries_total",
                   "Log entries replayed to serve replays (index: walking a game once; page: drawing frames)",
                   ["kind"])

@dataclass
class Meter:
    """What one request made the server do, in log entries replayed (the per-address budget)."""

    entries: int = 0


@dataclass
class Checkpoint:
    index: int  # the state before entry ``index`` is applied
    version: int  # entry ``index``'s version
    state: Any  # ``None`` before the deal
    opened: int  # the game's first shuffles whose keys are out by then


@dataclass
class GameIndex:
    """One game's walk so far: its kept states, marks and length (see ``replay.frames``)."""

    game: Game[Any, Any]
    sheet: RuleSheetBase
    in_play: bool
    players: int = 0
    seats: int = 0
    names: list[str | None] = field(default_factory=list)
    revealed: bool = False
    walked: int = 0  # entries applied (the next one's index)
    next_version: int = 0  # the version of entry ``walked`` (0: from the start)
    seen_version: int = 0  # the last version read from the log
    state: Any = None  # after the entries walked
    opened: int = 0
    keyed: set[str] = field(default_factory=set)
    # Where the game and each later deal or hand start (frame index), for jumping. A game's first
    # deal is its start: the engines announce only the deals after it.
    marks: list[dict[str, Any]] = field(
        default_factory=lambda: [{"index": 0, "kind": "start", "number": None}])
    checkpoints: list[Checkpoint] = field(default_factory=list)
    # In play: the entry at which a shuffle was still closed (the walk stops there), its state.
    closed_at: int | None = None
    closed_state: Any = None
    trimmed: bool = False

    @property
    def length(self) -> int:
        if self.closed_at is None:
            return self.walked
        return self.closed_at + 1 if self.trimmed else self.closed_at

    def shown_marks(self) -> list[dict[str, Any]]:
        # A trimmed frame's mark is the part in play's: the frame shows the end of the part before.
        return [mark for mark in self.marks if mark["index"] < self.length - self.trimmed]

    def walk(self, entries: list[LogEntry]) -> int:
        """Applies ``entries`` (the next ones of the log) until a shuffle still closed stops the
        walk (in play); returns the entries applied. Runs in a worker thread: it touches only
        this index, which the caller's lock keeps to one walker."""
        applied = 0
        for entry in entries:
            index = self.walked
            if index % STRIDE == 0 and len(self.checkpoints) == index // STRIDE:
                self.checkpoints.append(Checkpoint(index, entry.version, self.state, self.opened))
            state = apply_entry(self.game, self.sheet, self.state, entry)
            applied += 1
            if index == 0:
                self.players = int(entry.action["players"])
                # A table game has seats beyond the deal's, where newcomers sit down later.
                self.seats = max(self.players, self.game.seat_count(state))
                self.names = seat_names([entry], self.players)
            opened = self.opened
            if self.in_play:
                closed = False
                for shuffle in self.game.shuffles(state, opened):
                    if shuffle.label not in self.keyed:
                        closed = True
                        break
                    opened += 1
                if closed:
                    self.closed_at, self.closed_state = index, state
                    self.trimmed = index > 0 and any(row.get("type") in MARKS for row in entry.events)
                    self.next_version = entry.version
                    return applied
            self.state, self.opened = state, opened
            for row in entry.events:
                kind = MARKS.get(row.get("type", ""))
                if kind is not None and index > 0:
                    number = (row.get("data") or {}).get(kind)
                    mark = {"index": index, "kind": kind, "number": number}
                    if self.marks and self.marks[-1]["index"] == index:
                        # One mark a frame: a game may deal again in the move that dealt (a
                        # redeal), and the jump goes to the deal that is played, the later one.
                        self.marks[-1] = mark
                    else:
                        self.marks.append(mark)
                self.revealed = self.revealed or row.get("type") == "reveal"
            # In this order the length a page reads meanwhile only grows, over entries walked.
            self.walked = index + 1
            self.next_version = entry.version + 1
            self.closed_at = self.closed_state = None
            self.trimmed = False
        return applied


def _note(index: GameIndex, entries: list[LogEntry]) -> None:
    """What the index learns from log entries merely read: the published shuffle keys (a game in
    play shows a part once all its shuffles' keys are out, wherever in the log they are)."""
    for entry in entries:
        index.seen_version = max(index.seen_version, entry.version)
        for row in entry.events:
            if row.get("type") == "shuffle_key":
                index.keyed.add(str((row.get("data") or {}).get("label")))


class ReplayIndexes:
    """The games' indexes of one instance, the ``CACHED_GAMES`` asked for last."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.indexes: OrderedDict[tuple[str, int, bool], GameIndex] = OrderedDict()
        self.locks: dict[tuple[str, int, bool], asyncio.Lock] = {}

    async def index(self, room_id: str, game_no: int, game: Game[Any, Any], sheet: RuleSheetBase,
                    in_play: bool, meter: Meter) -> GameIndex:
        """The game's index, walked up to the end of its log (a game in play: up to its first
        shuffle still closed); the entries this call replayed are added to ``meter``."""
        key = (room_id, game_no, in_play)
        lock = self.locks.setdefault(key, asyncio.Lock())
        async with lock:
            index = self.indexes.get(key)
            if index is None:
                index = GameIndex(game, sheet, in_play)
                await self._walk(room_id, game_no, index, meter, index.next_version)
                if index.walked == 0 and index.closed_at is None:
                    self.locks.pop(key, None)
                    raise RoomError("unknown_game", "This room has no such game.", 404)
                self.indexes[key] = index
                while len(self.indexes) > CACHED_GAMES:
                    self.locks.pop(self.indexes.popitem(last=False)[0], None)
            elif in_play:
                # Only what was logged since it was last read: nothing when the table has not moved.
                keys = len(index.keyed)
                fresh = await queries.game_log_from(self.engine, room_id, game_no, index.seen_version + 1,
                                                    limit=BATCH)
                if fresh:
                    _note(index, fresh)
                    if index.closed_at is None or len(index.keyed) > keys:
                        await self._walk(room_id, game_no, index, meter, index.next_version)
            self.indexes.move_to_end(key)
            return index

    async def _walk(self, room_id: str, game_no: int, index: GameIndex, meter: Meter, first: int) -> None:
        """Reads the log from version ``first`` to its end, then walks it from there."""
        entries: list[LogEntry] = []
        while True:
            batch = await queries.game_log_from(self.engine, room_id, game_no, first, limit=BATCH)
            _note(index, batch)
            entries += batch
            if len(batch) < BATCH:
                break
            first = batch[-1].version + 1
        if entries and index.walked == 0 and index.closed_at is None and entries[0].kind != "deal":
            raise RoomError("unknown_game", "This room has no such game.", 404)
        for start in range(0, len(entries), BATCH):
            applied = await asyncio.to_thread(index.walk, entries[start:start + BATCH])
            meter.entries += applied
            REPLAYED.labels("index").inc(applied)
            if index.closed_at is not None:
                break


async def page(engine: AsyncEngine, room_id: str, game_no: int, index: GameIndex, seat: int | None,
               start: int, count: int, meter: Meter) -> list[dict[str, Any]]:
    """Frames ``start`` … ``start + count - 1`` (those the game has) for ``seat``, drawn from the
    kept state before ``start``: the entries read and replayed are the page's and at most
    ``STRIDE - 1`` before it."""
    # What the page needs of the index, read at once: another request may walk it on meanwhile.
    end = min(start + count, index.length)
    closed_at, closed_state, trimmed = index.closed_at, index.closed_state, index.trimmed
    if start >= end:
        return []
    checkpoint = index.checkpoints[start // STRIDE]
    entries = await queries.game_log_from(engine, room_id, game_no, checkpoint.version,
                                          limit=end - checkpoint.index)

    def draw() -> list[dict[str, Any]]:
        state = checkpoint.state
        frames: list[dict[str, Any]] = []
        for offset, entry in enumerate(entries):
            at = checkpoint.index + offset
            if at == closed_at:
                if trimmed and at >= start:
                    frames.append(trimmed_frame(index.game, closed_state, entry, seat))
                break
            state = apply_entry(index.game, index.sheet, state, entry)
            if at >= start:
                frames.append(frame(index.game, state, entry, seat))
        return frames

    frames = await asyncio.to_thread(draw)
    meter.entries += len(entries)
    REPLAYED.labels("page").inc(len(entries))
    return frames
