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
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING, Any

from app import bots
from app.games.base import IllegalAction
from app.rooms import standin
from app.rooms.errors import RoomError
from app.store import queries
from app.store.queries import LogEntry

if TYPE_CHECKING:
    from app.rooms.room import Member, Room

log = logging.getLogger(__name__)

PREFIX = "bot:"
DEFAULT_LEVEL = "good"
# The level part of a bot that the host removed while it still plays a hand at a table game:
# it plays the hand out and leaves the room once the game has cashed it out.
LEAVING = "leaving"


def bot_token_hash(level: str) -> str:
    return f"{PREFIX}{level}:{secrets.token_hex(24)}"


def bot_level(member: Member | None) -> str | None:
    """The level of a bot member; ``None`` for a person."""
    if member is None or not member.token_hash.startswith(PREFIX):
        return None
    level = member.token_hash.split(":")[1]
    return level if level in bots.LEVELS else DEFAULT_LEVEL


def leaving(member: Member) -> bool:
    return member.token_hash.startswith(f"{PREFIX}{LEAVING}:")


def takeover_seconds(room: Room) -> int:
    return int(getattr(room.sheet, "bot_takeover_seconds", 0) or 0)


class BotDriver:
    """Plans and makes the bots' moves in one room."""

    def __init__(self, room: Room) -> None:
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
        self.alarm = standin.TakeoverAlarm(room)
        # The stand-ins at the host's word last told the other instances (the owner's own list).
        self._shared_forced: list[int] | None = None

    # -- who plays by bot -----------------------------------------------------------------

    def connected_members(self) -> set[int]:
        # Sockets on other instances count too (their presence, see app/rooms/manager.py).
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

    def takeover_at(self, member: Member) -> float | None:
        """When a bot stands in for this away person (None: never, or they are connected)."""
        if member.id in self.forced:
            return self.since
        wait = takeover_seconds(self.room)
        if wait <= 0 or member.id in self.connected_members():
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
            room.manager.share_stand_ins(room.id, members)

    def forced_heard(self, members: Any) -> None:
        """The owner's word on its stand-ins at the host's word (``_share_forced``)."""
        if self.room.owns() or not isinstance(members, list):
            return
        self.forced = {m for m in members if isinstance(m, int) and not isinstance(m, bool)}
        self.arm_alarm()
        self.room.publish_room()

    def arm_alarm(self) -> None:
        """A ``room`` message at the end of the next countdown of a running game."""
        room = self.room
        moments: list[float] = []
        if room.status == "playing" and room.state is not None:
            for member in room.seated().values():
                if bot_level(member) is None:
                    start = self.takeover_at(member)
                    if start is not None:
                        moments.append(start)
        self.alarm.arm(moments)

    def driver_of(self, seat: int) -> tuple[str, float] | None:
        """(level, the time from which the bot may play) for a seat played by bot, else None."""
        member = self.room.seated().get(seat)
        if member is None:
            return None
        level = bot_level(member)
        if level is not None:
            if leaving(member) and seat_open(self.room, seat):
                return None  # cashed out: it leaves the room, it does not sit down again
            return level, 0.0
        start = self.takeover_at(member)
        return None if start is None else (DEFAULT_LEVEL, start)

    def stand_ins(self) -> set[int]:
        """Seats of people that a bot plays now."""
        now = time.time()
        out = set()
        for seat, member in self.room.seated().items():
            if bot_level(member) is None:
                driver = self.driver_of(seat)
                if driver is not None and driver[1] <= now:
                    out.add(seat)
        return out

    def _move_for(self, seat: int, level: str) -> tuple[dict[str, Any], str] | None:
        """The bot's move for ``seat`` now and its kind ("turn" or "table"), or None."""
        room = self.room
        game, state = room.game, room.state
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        if legal:
            try:
                return bots.choose(game.name, view, legal, self.rng, level), "turn"
            except Exception:
                # A bot's bug must not stall the table: the game's own default move instead.
                log.exception("bot of room %s could not choose; the default move is made", room.id)
                fallback = game.timeout_action(state, seat)
                return (fallback, "turn") if fallback is not None else None
        offered = room.table_actions(state, seat)
        move = bots.table_move(game.name, view, offered)
        return (move, "table") if move is not None else None

    def _has_move(self, seat: int) -> bool:
        room = self.room
        if room.game.legal_actions(room.state, seat):
            return True
        view = room.game.view(room.state, seat)
        return bots.table_move(room.game.name, view, room.table_actions(room.state, seat)) is not None

    # -- planning ------------------------------------------------------------------------

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def schedule(self) -> None:
        """Arm one timer for the next bot move, if any seat to act is played by bot."""
        self.cancel()
        room = self.room
        self.arm_alarm()
        if not room.owns():
            return  # the instance that owns the room runs its bots
        seated = room.seated()
        bots_here = False
        for member in seated.values():
            if member.token_hash.startswith(PREFIX):
                bots_here = True
                if leaving(member) and _gone_from_table(room, member):
                    room.manager.spawn(self._release(member.id))
        if not bots_here and takeover_seconds(room) <= 0 and not self.forced:
            return  # people only, and no stand-ins: nothing to plan (most rooms, after most moves)
        if room.status != "playing" or room.state is None or room.game.outcome(room.state) is not None:
            return
        if not room.subscribers and not room.remote:
            # With nobody watching anywhere the bots wait, and go on when someone connects.
            return
        settings = room.manager.settings
        now = time.time()
        due: float | None = None
        for seat in room.seated():
            driver = self.driver_of(seat)
            if driver is None:
                continue
            start = driver[1]
            if not self._has_move(seat):
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
                                      lambda: room.manager.spawn(self.move(expected)))

    async def _release(self, member_id: int) -> None:
        """A removed bot whose table game has cashed it out leaves the room."""
        room = self.room
        async with room.lock:
            member = room.members.get(member_id)
            if member is None or member.status != "seated" or member.seat is None:
                return
            if not (leaving(member) and _gone_from_table(room, member)):
                return
            await queries.update_member(room.manager.engine, member.id, status="gone", seat=None)
            member.status, member.seat = "gone", None
            room.publish_room()

    # -- moving --------------------------------------------------------------------------

    async def move(self, expected: int) -> None:
        """Make the first due bot move, through the room's one path for moves."""
        room = self.room
        async with room.lock:
            if room.version != expected or room.status != "playing" or room.state is None:
                return
            if room.game.outcome(room.state) is not None:
                return
            now = time.time()
            choice: tuple[int, dict[str, Any]] | None = None
            for seat in sorted(room.seated()):
                driver = self.driver_of(seat)
                if driver is None or driver[1] > now:
                    continue
                found = self._move_for(seat, driver[0])
                if found is not None:
                    choice = (seat, found[0])
                    break
            if choice is None:
                self.schedule()
                return
            seat, action = choice
            from app.rooms.room import _event_row  # the room's own log format

            ready, before = room._clock_entries(room.state, room.version, room.game_no)
            try:
                state, events = room.game.apply(ready, seat, action)
            except IllegalAction:
                log.exception("bot move refused in room %s", room.id)
                fallback = room.game.timeout_action(ready, seat)
                if fallback is None:
                    return
                action = fallback
                try:
                    state, events = room.game.apply(ready, seat, action)
                except IllegalAction:
                    log.exception("default move refused in room %s", room.id)
                    return
            entry = LogEntry(room.version + len(before) + 1, room.game_no, "bot", seat, action,
                             [_event_row(e) for e in events])
            state, after = room._auto_entries(state, entry.version, room.game_no)
            entries = [*before, entry, *after]
            try:
                await room._commit(entries, state)
            except Exception as error:
                await room._recover(None, None, error)
                return
            room.publish_state(entries)
            room.publish_room()


# -- the host's operations ----------------------------------------------------------------


async def add_bot(room: Room, args: dict[str, Any]) -> None:
    """Seat a bot in a free seat: in the lobby, between games, at a table game's free seat, or, in
    a running game, in a vacated seat (its player left or was removed): the bot takes over its
    cards, so the table does not wait for a newcomer."""
    level = args.get("level", DEFAULT_LEVEL)
    if level not in bots.LEVELS:
        raise RoomError("bad_level", f"A bot plays at one of these levels: {', '.join(bots.LEVELS)}.")
    free = room.free_seats()
    seat = args.get("seat")
    if seat is None:
        if not free:
            raise RoomError("room_full", "Every seat is taken.")
        seat = free[0]
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in free:
        raise RoomError("seat_taken", "That seat is not free.")
    from app.rooms.room import Member

    number = 1 + sum(1 for m in room.members.values() if bot_level(m) is not None)
    name = f"Bot {number}"
    token_hash = bot_token_hash(level)
    since = room.version + 1  # like a newcomer's: the seat's past is not the bot's
    member_id = await queries.add_member(room.manager.engine, room.id, {
        "name": name, "token_hash": token_hash, "status": "seated", "seat": seat, "wanted_seat": seat,
        "seat_since": since})
    member = Member(member_id, name, "seated", seat, seat, token_hash, since)
    room.members[member_id] = member
    room.by_token[token_hash] = member
    room.bots.schedule()


async def remove_bot(room: Room, args: dict[str, Any]) -> None:
    """Take a bot out of its seat (at a table game it leaves the table after the hand)."""
    seat = args.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RoomError("bad_message", "Name a seat by its number.")
    member = room.seated().get(seat)
    if member is None or bot_level(member) is None:
        raise RoomError("not_a_bot", "No bot sits in that seat.")
    if room.status == "playing" and not _table_game(room):
        raise RoomError("game_running", "A bot leaves between games; a friend can take its seat now.")
    if room.status == "playing" and room.state is not None:
        await _leave_table(room, seat)
        if not seat_open(room, seat):
            # Still in a hand: it plays the hand out, then the driver lets it go.
            token_hash = bot_token_hash(LEAVING)
            await queries.update_member(room.manager.engine, member.id, token_hash=token_hash)
            room.by_token.pop(member.token_hash, None)
            member.token_hash = token_hash
            room.by_token[token_hash] = member
            return
    await queries.update_member(room.manager.engine, member.id, status="gone", seat=None)
    member.status, member.seat = "gone", None


def seat_open(room: Room, seat: int) -> bool:
    """The game's table has this seat free (a newcomer could join it)."""
    return room.state is not None and any(
        a.get("type") == "join" for a in room.game.table_actions(room.state, seat))


def _gone_from_table(room: Room, member: Member) -> bool:
    """A bot's seat is no longer at the game's table: cashed out, or the game is over."""
    if member.seat is None or room.status != "playing" or room.state is None:
        return True
    return room.game.outcome(room.state) is not None or seat_open(room, member.seat)


def _table_game(room: Room) -> bool:
    """A game whose seats change between deals by table actions (Hold'em's join and leave)."""
    if room.state is None:
        return False
    for seat in range(room.game.seat_count(room.state)):
        kinds = {a.get("type") for a in room.game.table_actions(room.state, seat)}
        if kinds & {"join", "leave"}:
            return True
    return False


async def _leave_table(room: Room, seat: int) -> None:
    """A leaving bot cashes out through the game's own table action, logged as the bot's."""
    state = room.state
    if not any(a.get("type") == "leave" for a in room.game.table_actions(state, seat)):
        return
    from app.rooms.room import _event_row

    action = {"type": "leave"}
    state, events = room.game.apply(state, seat, action)
    entry = LogEntry(room.version + 1, room.game_no, "bot", seat, action, [_event_row(e) for e in events])
    state, after = room._auto_entries(state, entry.version, room.game_no)
    entries = [entry, *after]
    await room._commit(entries, state)
    room.publish_state(entries)


async def take_bot_seat(room: Room, seat: int) -> None:
    """A person takes over a bot's seat (the invite link): the bot leaves the room."""
    member = room.seated().get(seat)
    if member is None or bot_level(member) is None:
        return
    await queries.update_member(room.manager.engine, member.id, status="gone", seat=None)
    member.status, member.seat = "gone", None


def bot_seats(room: Room) -> list[int]:
    return sorted(seat for seat, member in room.seated().items() if bot_level(member) is not None)


def practice_ready(room: Room) -> bool:
    """One person and bots fill every seat: the game starts at once."""
    seated = room.seated()
    people = [m for m in seated.values() if bot_level(m) is None]
    return (room.status == "lobby" and len(people) == 1 and len(seated) >= room.capacity
            and len(seated) > 1)
