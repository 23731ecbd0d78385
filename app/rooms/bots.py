"""Bots at a room's table: seated by the host, or standing in for a player who dropped out.

A bot is a member like any other, marked by its token hash (``bot:<level>:<random>``, which no
real token hashes to, so nobody can connect as it). The room's ``BotDriver`` plays for:

- every seat held by a bot;
- a person's seat whose owner has had no socket open, on any instance, for longer than the sheet's
  ``bot_takeover_seconds`` (0: never). The seat is handed back as soon as the owner connects
  again: the next move is theirs. The host may also let a bot stand in at once (``stand_in_now``,
  app/rooms/standin.py), until the same return.

A bot's move goes through the same path as a person's: under the room's lock, the game's clock
action first, ``apply`` (validated), then one commit with the version check before anything is
published, then the automatic moves after it. It is logged with the kind ``bot`` (its events say
``"bot": true``). A bot waits a human-like moment first (``bot_delay_min``..``bot_delay_max``
seconds; 0 in tests). The driver re-plans after every commit, connection and restart, so bots
keep playing when a server comes back and someone connects to the room.

Memory: a bot is handed, with its view, the events its seat was shown since the current deal began
(``app.bots.memory``), read from the stored log (so it survives a restart) and kept per seat.

Declining: a seat that may move but that the table does not wait for (``Game.turn_seats``) asks
``bots.wants``; a bot that lets the chance go is not asked again until the table moves on.

Thinking off the loop: a "strong" bot's decision runs in a worker process (``worker_pool``), with
the room's lock released; the move is made only if the room is still where it was (its version),
so neither this room's other players nor any other room ever wait on it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import secrets
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from app import bots
from app.bots.memory import Recall
from app.games.base import IllegalAction
from app.rooms import pipeline
from app.rooms.bot_seats import DEFAULT_LEVEL, PREFIX, bot_level, gone_from_table, leaving, seat_open
from app.rooms.core import RoomCore
from app.rooms.entries import visible
from app.rooms.members import Member
from app.store import queries

log = logging.getLogger(__name__)

# How many log entries back the memory looks after a restart: more than any one deal makes.
MEMORY_ENTRIES = 3000

_POOL: ProcessPoolExecutor | None = None


def worker_pool() -> Executor:
    """The process that slow bots think in: one worker (the machine's other core serves the rooms),
    started on first use and shared by every room of the process."""
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return _POOL


def shutdown_pool() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


@dataclass
class Decision:
    """What a bot is asked for one seat: its view, legal moves, memory, and whether it may decline."""

    seat: int
    level: str
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    memory: list[dict[str, Any]]
    optional: bool


def takeover_seconds(room: RoomCore) -> int:
    return int(getattr(room.sheet, "bot_takeover_seconds", 0) or 0)


class BotDriver:
    """Plans and makes the bots' moves in one room."""

    def __init__(self, room: RoomCore) -> None:
        self.room = room
        self.handle: asyncio.TimerHandle | None = None
        self.since = time.time()
        # When each person's last socket closed (a person never seen connected since this
        # instance loaded the room counts from the load).
        self.away_since: dict[int, float] = {}
        self.rng = random.Random(secrets.randbits(64))
        # People the host had a bot stand in for before their countdown ended (until they return).
        self.forced: set[int] = set()
        # The seats the last ``room`` message offered the host to skip (app/rooms/standin.py).
        self.skippable: frozenset[int] = frozenset()
        self.alarm = TakeoverAlarm(room)
        # The stand-ins at the host's word last told the other instances (the owner's own list).
        self._shared_forced: list[int] | None = None
        # Each seat's memory of the deal, keyed by the seat and the version its holder sat from;
        # ``_recall_at``: the last version read into them (None: read again from the log).
        self._recall: dict[tuple[int, int], Recall] = {}
        self._recall_at: int | None = None
        self._recall_game: int | None = None
        # The version a slow bot is thinking at (None: nobody thinks).
        self.thinking: int | None = None

    # -- who plays by bot -----------------------------------------------------------------

    def connected_members(self) -> set[int]:
        # Sockets on other instances count too (their presence, see app/rooms/cluster.py).
        return self.room.connected_members()

    def note_connections(self) -> None:
        """Call after a socket came or went: records who just left, then re-plans."""
        now = time.time()
        connected = self.connected_members()
        for member in self.room.members.values():
            if member.id in connected:
                self.away_since.pop(member.id, None)
                self.forced.discard(member.id)
            elif member.id not in self.away_since and member.status == "seated":
                self.away_since[member.id] = now
        self.schedule()
        self.arm_alarm()
        self._share_forced(again=True)

    def takeover_at(self, member: Member, connected: set[int] | None = None) -> float | None:
        """When a bot stands in for this away person (None: never, or they are connected);
        ``connected``: the room's connected members, when the caller has them at hand."""
        if member.id in self.forced:
            return self.since
        wait = takeover_seconds(self.room)
        if wait <= 0:
            return None
        if member.id in (self.connected_members() if connected is None else connected):
            return None
        return self.away_since.get(member.id, self.since) + wait

    def stand_in_now(self, member: Member) -> None:
        """The host lets a bot play an away person's seat at once (until they return)."""
        self.forced.add(member.id)
        self.schedule()
        self.arm_alarm()
        self._share_forced()

    def _share_forced(self, again: bool = False) -> None:
        """As the owner, with sockets of the room on other instances: tell them the stand-ins at the
        host's word (``again``: also unchanged ones, for an instance whose sockets just came)."""
        room = self.room
        if room.epoch is None or not room.remote:
            return
        members = sorted(self.forced)
        if members != self._shared_forced or (again and members):
            self._shared_forced = members
            room.cluster.share_stand_ins(room.id, members)

    def forced_heard(self, members: Any) -> None:
        """The owner's word on its stand-ins at the host's word (``_share_forced``)."""
        if self.room.owns() or not isinstance(members, list):
            return
        self.forced = {m for m in members if isinstance(m, int) and not isinstance(m, bool)}
        self.arm_alarm()
        self.room.publish_room()

    def arm_alarm(self, seated: dict[int, Member] | None = None) -> None:
        """A ``room`` message at the end of the next countdown of a running game."""
        room = self.room
        moments: list[float] = []
        if room.status == "playing" and room.state is not None and (
                self.forced or takeover_seconds(room) > 0):
            connected = self.connected_members()
            for member in (room.seated() if seated is None else seated).values():
                if bot_level(member) is None:
                    start = self.takeover_at(member, connected)
                    if start is not None:
                        moments.append(start)
        self.alarm.arm(moments)

    def driver_of(self, seat: int, seated: dict[int, Member] | None = None,
                  connected: set[int] | None = None) -> tuple[str, float] | None:
        """(level, the time from which the bot may play) for a seat played by bot, else None;
        ``seated`` and ``connected``: the room's, when the caller has them at hand."""
        member = (self.room.seated() if seated is None else seated).get(seat)
        if member is None:
            return None
        level = bot_level(member)
        if level is not None:
            if leaving(member) and seat_open(self.room, seat):
                return None  # cashed out: it leaves the room, it does not sit down again
            return level, 0.0
        start = self.takeover_at(member, connected)
        return None if start is None else (DEFAULT_LEVEL, start)

    def stand_ins(self) -> set[int]:
        """Seats of people that a bot plays now."""
        now = time.time()
        out: set[int] = set()
        if not self.forced and takeover_seconds(self.room) <= 0:
            return out  # nobody is stood in for (most rooms)
        seated, connected = self.room.seated(), self.connected_members()
        for seat, member in seated.items():
            if bot_level(member) is None:
                driver = self.driver_of(seat, seated, connected)
                if driver is not None and driver[1] <= now:
                    out.add(seat)
        return out

    async def memory_of(self, seat: int) -> list[dict[str, Any]]:
        """The events ``seat``'s holder was shown since the current deal began (from the log)."""
        room = self.room
        if self._recall_game != room.game_no or self._recall_at is None or self._recall_at > room.version:
            self._recall, self._recall_game = {}, room.game_no
            self._recall_at = max(room.deal_version - 1, room.version - MEMORY_ENTRIES)
        if self._recall_at < room.version:
            entries = await queries.log_since(room.engine, room.id, self._recall_at,
                                              through=room.version, limit=MEMORY_ENTRIES)
            holders = {s: m.since for s, m in room.seated().items()}
            for key in list(self._recall):
                if holders.get(key[0]) != key[1]:
                    del self._recall[key]
            for entry in entries:
                if entry.game_no != room.game_no:
                    continue
                for other, since in holders.items():
                    recall = self._recall.setdefault((other, since), Recall(room.game.name))
                    recall.extend({**row.get("data", {}), "type": row["type"]} for row in entry.events
                                  if visible(row, other, entry.version, since))
            self._recall_at = room.version
        member = room.seated().get(seat)
        if member is None:
            return []
        return list(self._recall.get((seat, member.since), Recall(room.game.name)).events)

    def _declines(self, seat: int, level: str, legal: list[dict[str, Any]]) -> bool:
        """The bot lets an optional move of ``seat`` go (it is not one the table waits for)."""
        room = self.room
        if seat in room.game.turn_seats(room.state):
            return False
        view = room.game.view(room.state, seat)
        try:
            return bots.declined(room.game.name, view, legal, level)
        except Exception:
            log.exception("bot of room %s could not decide whether to decline", room.id)
            return True

    async def _decision(self, seat: int, level: str) -> Decision | None:
        """What to ask the bot of ``seat`` now, or None (nothing to do, or it declines)."""
        room = self.room
        game, state = room.game, room.state
        legal = game.legal_actions(state, seat)
        if not legal or self._declines(seat, level, legal):
            return None
        optional = seat not in game.turn_seats(state)
        memory = await self.memory_of(seat)
        return Decision(seat, level, game.view(state, seat), legal, memory, optional)

    def _fallback(self, seat: int) -> dict[str, Any] | None:
        # A bot's bug must not stall the table: the game's own default move instead.
        log.exception("bot of room %s could not choose; the default move is made", self.room.id)
        return self.room.game.timeout_action(self.room.state, seat)

    def _decide(self, job: Decision) -> dict[str, Any] | None:
        """The bot's move for ``job`` here, on the loop (quick levels), or None (it declines)."""
        name = self.room.game.name
        try:
            if job.optional:
                return bots.wants(name, job.view, job.legal, self.rng, job.level, job.memory)
            return bots.choose(name, job.view, job.legal, self.rng, job.level, job.memory)
        except Exception:
            return None if job.optional else self._fallback(job.seat)

    async def _think(self, job: Decision) -> dict[str, Any] | None:
        """The bot's move for ``job`` from the worker process (slow levels), the loop free meanwhile."""
        loop = asyncio.get_running_loop()
        seed = self.rng.getrandbits(64)
        try:
            return await loop.run_in_executor(worker_pool(), bots.choose_seeded, self.room.game.name,
                                              job.view, job.legal, seed, job.level, job.memory)
        except Exception:
            return None if job.optional else self._fallback(job.seat)

    def _table_move(self, seat: int) -> dict[str, Any] | None:
        room = self.room
        view = room.game.view(room.state, seat)
        return bots.table_move(room.game.name, view, room.table_actions(room.state, seat))

    def _has_move(self, seat: int, level: str) -> bool:
        room = self.room
        legal = room.game.legal_actions(room.state, seat)
        if legal:
            return not self._declines(seat, level, legal)
        return self._table_move(seat) is not None

    # -- planning ------------------------------------------------------------------------

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def schedule(self) -> None:
        """Arm one timer for the next bot move, if any seat to act is played by bot."""
        self.cancel()
        room = self.room
        seated = room.seated()
        self.arm_alarm(seated)
        if not room.owns():
            return  # the instance that owns the room runs its bots
        bots_here = False
        for member in seated.values():
            if member.token_hash.startswith(PREFIX):
                bots_here = True
                if leaving(member) and gone_from_table(room, member):
                    room.spawn(self._release(member.id))
        if not bots_here and takeover_seconds(room) <= 0 and not self.forced:
            return  # people only, and no stand-ins: nothing to plan (most rooms, after most moves)
        if room.status != "playing" or room.state is None or room.game.outcome(room.state) is not None:
            return
        if not room.subscribers and not room.remote:
            # With nobody watching anywhere the bots wait, and go on when someone connects.
            return
        settings = room.settings
        now = time.time()
        due: float | None = None
        connected = self.connected_members()
        for seat in seated:
            driver = self.driver_of(seat, seated, connected)
            if driver is None:
                continue
            start = driver[1]
            if not self._has_move(seat, driver[0]):
                continue
            low = settings.bot_delay_min
            delay = self.rng.uniform(low, max(low, settings.bot_delay_max))
            when = max(start, now + delay)
            due = when if due is None else min(due, when)
        if due is None:
            return
        expected = room.version
        loop = asyncio.get_running_loop()
        self.handle = loop.call_later(max(0.0, due - now),
                                      lambda: room.spawn(self.move(expected)))

    async def _release(self, member_id: int) -> None:
        """A removed bot whose table game has cashed it out leaves the room."""
        room = self.room
        async with room.lock:
            member = room.members.get(member_id)
            if member is None or member.status != "seated" or member.seat is None:
                return
            if not (leaving(member) and gone_from_table(room, member)):
                return
            await queries.update_member(room.engine, member.id, status="gone", seat=None)
            member.status, member.seat = "gone", None
            room.publish_room()

    # -- moving --------------------------------------------------------------------------

    async def move(self, expected: int) -> None:
        """Make the first due bot move, through the room's one path for moves."""
        room = self.room
        slow: Decision | None = None
        async with room.lock:
            if not self._still(expected) or self.thinking is not None:
                return
            now = time.time()
            choice: tuple[int, dict[str, Any], str] | None = None
            for seat in sorted(room.seated()):
                driver = self.driver_of(seat)
                if driver is None or driver[1] > now:
                    continue
                job = await self._decision(seat, driver[0])
                if job is None:
                    table = None if room.game.legal_actions(room.state, seat) else self._table_move(seat)
                    if table is not None:
                        choice = (seat, table, "table")
                        break
                    continue
                if job.level in bots.SLOW_LEVELS:
                    slow = job
                    break
                action = self._decide(job)
                if action is not None:
                    choice = (seat, action, "turn")
                    break
            if slow is None:
                if choice is None:
                    self.schedule()
                    return
                await self._make(*choice)
                return
            self.thinking = expected
        try:
            action = await self._think(slow)
        finally:
            self.thinking = None
        async with room.lock:
            if not self._still(expected) or action is None:
                self.schedule()  # the table moved on while the bot thought: think again
                return
            await self._make(slow.seat, action, "turn")

    def _still(self, expected: int) -> bool:
        room = self.room
        return (room.version == expected and room.status == "playing" and room.state is not None
                and room.game.outcome(room.state) is None)

    async def _make(self, seat: int, action: dict[str, Any], kind: str) -> None:
        """Apply and commit a bot's move (under the room's lock), through the room's one pipeline."""
        room = self.room
        turn = pipeline.Turn(room)
        try:
            turn.move("bot", seat, action)
        except IllegalAction:
            log.exception("bot move refused in room %s", room.id)
            if kind == "table":
                return
            fallback = room.game.timeout_action(turn.state, seat)
            if fallback is None:
                return
            try:
                turn.move("bot", seat, fallback)
            except IllegalAction:
                log.exception("default move refused in room %s", room.id)
                return
        if await pipeline.play(room, turn):
            room.publish_room()


# -- telling the pages when a countdown ends ------------------------------------------------------


class TakeoverAlarm:
    """Publishes the ``room`` message at the moment a countdown ends (the seat's ``stand_in`` turns
    true then, on every instance, whether or not the bot has a move to make yet)."""

    def __init__(self, room: RoomCore) -> None:
        self.room = room
        self.handle: asyncio.TimerHandle | None = None

    def arm(self, moments: list[float]) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        now = time.time()
        later = [m for m in moments if m > now]
        if not later:
            return
        loop = asyncio.get_running_loop()
        # A little after the moment, so the driver's ``stand_ins`` (``start <= now``) counts it.
        self.handle = loop.call_later(min(later) - now + 0.05, self._ring)

    def _ring(self) -> None:
        self.handle = None
        room = self.room
        if room.closed:
            return
        room.publish_room()
        room.bots.arm_alarm()
