"""Bots' seats: who is a bot (a member marked by its token hash, ``bot:<level>:<random>``, which no
real token hashes to, so nobody can connect as it), and the host's operations that seat a bot or
take it out (app/rooms/bots.py plays them).
"""

from __future__ import annotations

import secrets
from typing import Any

from app import bots
from app.rooms import pipeline
from app.rooms.core import RoomCore
from app.rooms.errors import RoomError
from app.rooms.members import Member
from app.store import queries

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



# -- the host's operations ----------------------------------------------------------------


async def add_bot(room: RoomCore, args: dict[str, Any]) -> None:
    """Seat a bot in a free seat: in the lobby, between games, at a table game's free seat, or, in
    a running game, in a vacated seat (its player left or was removed): the bot takes over its
    cards, so the table does not wait for a newcomer."""
    level = args.get("level", DEFAULT_LEVEL)
    if level not in bots.LEVELS:
        raise RoomError("bad_level", "A bot plays at one of these levels: {levels}.",
                        levels=", ".join(bots.LEVELS))
    free = room.free_seats()
    seat = args.get("seat")
    if seat is None:
        if not free:
            raise RoomError("room_full", "Every seat is taken.")
        seat = free[0]
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in free:
        raise RoomError("seat_taken", "That seat is not free.")
    number = 1 + sum(1 for m in room.members.values() if bot_level(m) is not None)
    name = f"Bot {number}"
    token_hash = bot_token_hash(level)
    since = room.version + 1  # like a newcomer's: the seat's past is not the bot's
    member_id = await queries.add_member(room.engine, room.id, {
        "name": name, "token_hash": token_hash, "status": "seated", "seat": seat, "wanted_seat": seat,
        "seat_since": since})
    member = Member(member_id, name, "seated", seat, seat, token_hash, since)
    room.members[member_id] = member
    room.by_token[token_hash] = member
    room.bots.schedule()


async def remove_bot(room: RoomCore, args: dict[str, Any]) -> None:
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
            await queries.update_member(room.engine, member.id, token_hash=token_hash)
            room.by_token.pop(member.token_hash, None)
            member.token_hash = token_hash
            room.by_token[token_hash] = member
            return
    await queries.update_member(room.engine, member.id, status="gone", seat=None)
    member.status, member.seat = "gone", None


def seat_open(room: RoomCore, seat: int) -> bool:
    """The game's table has this seat free (a newcomer could join it)."""
    return room.state is not None and any(
        a.get("type") == "join" for a in room.game.table_actions(room.state, seat))


def gone_from_table(room: RoomCore, member: Member) -> bool:
    """A bot's seat is no longer at the game's table: cashed out, or the game is over."""
    if member.seat is None or room.status != "playing" or room.state is None:
        return True
    return room.game.outcome(room.state) is not None or seat_open(room, member.seat)


def _table_game(room: RoomCore) -> bool:
    """A game whose seats change between deals by table actions (Hold'em's join and leave)."""
    if room.state is None:
        return False
    for seat in range(room.game.seat_count(room.state)):
        kinds = {a.get("type") for a in room.game.table_actions(room.state, seat)}
        if kinds & {"join", "leave"}:
            return True
    return False


async def _leave_table(room: RoomCore, seat: int) -> None:
    """A leaving bot cashes out through the game's own table action, logged as the bot's."""
    if not any(a.get("type") == "leave" for a in room.game.table_actions(room.state, seat)):
        return
    turn = pipeline.Turn(room, clock_action=False)
    turn.move("bot", seat, {"type": "leave"})
    entries = turn.autos()
    await pipeline.commit(room, entries, turn.state)
    room.publish_state(entries)


async def take_bot_seat(room: RoomCore, seat: int) -> None:
    """A person takes over a bot's seat (the invite link): the bot leaves the room."""
    member = room.seated().get(seat)
    if member is None or bot_level(member) is None:
        return
    await queries.update_member(room.engine, member.id, status="gone", seat=None)
    member.status, member.seat = "gone", None


def bot_seats(room: RoomCore) -> list[int]:
    return sorted(seat for seat, member in room.seated().items() if bot_level(member) is not None)


def practice_ready(room: RoomCore) -> bool:
    """One person and bots fill every seat: the game starts at once."""
    seated = room.seated()
    people = [m for m in seated.values() if bot_level(m) is None]
    return (room.status == "lobby" and len(people) == 1 and len(seated) >= room.capacity
            and len(seated) > 1)
