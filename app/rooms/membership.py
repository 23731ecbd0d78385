"""Who belongs to a room: joining (over HTTP), the host's approval or refusal of a request, kicks,
and a member leaving for good.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from app.rooms import bot_seats
from app.rooms.core import RoomCore
from app.rooms.entries import dumps
from app.rooms.errors import RoomError
from app.rooms.members import NAME_MAX, Member, RoomGone, Subscriber, clean_text
from app.rooms.tokens import hash_token, new_token
from app.store import queries

log = logging.getLogger(__name__)


async def join(room: RoomCore, name: str, seat: int | None) -> dict[str, Any]:
    name = clean_text(name, NAME_MAX, "name")
    async with room.lock:
        if room.closed:
            raise RoomGone(room.id)
        # Seats nobody holds first, then bots' seats: a person may take a bot's place.
        free = room.free_seats() + bot_seats.bot_seats(room)
        if seat is not None and seat not in free:
            raise RoomError("seat_taken", "That seat is not free.", 409)
        if not free:
            raise RoomError("room_full", "Every seat is taken; you can watch as a spectator.", 409)
        if room.approval:
            waiting = sum(1 for m in room.members.values() if m.status == "pending")
            if waiting >= room.settings.max_pending_requests:
                raise RoomError("too_many_pending", "Too many people are waiting for the host's "
                                "answer; try again later.", 429, retry_after=60)
        token = new_token()
        token_hash = hash_token(token)
        status = "pending" if room.approval else "seated"
        given = None if room.approval else (seat if seat is not None else free[0])
        if given is not None:
            await bot_seats.take_bot_seat(room, given)
        since = room.version + 1
        member_id = await queries.add_member(room.engine, room.id, {
            "name": name, "token_hash": token_hash, "status": status, "seat": given, "wanted_seat": seat,
            "seat_since": since})
        await queries.touch_room(room.engine, room.id, round(time.time(), 3))
        member = Member(member_id, name, status, given, seat, token_hash, since)
        room.members[member_id] = member
        room.by_token[token_hash] = member
        room.publish_room()
        await room.announce()
        if room.approval:
            return {"pending": True, "request": member_id, "token": token}
        return {"seat": given, "token": token}


def request_arg(room: RoomCore, args: Mapping[str, Any]) -> Member | None:
    request = args.get("request")
    return room.members.get(request) if isinstance(request, int) else None


def seat_arg(args: Mapping[str, Any]) -> int:
    seat = args.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RoomError("bad_message", "Name a seat by its number.")
    return seat


async def approve(room: RoomCore, args: dict[str, Any]) -> None:
    member = request_arg(room, args)
    if member is None or member.status != "pending":
        raise RoomError("unknown_request", "There is no such request to join.")
    free = room.free_seats() + bot_seats.bot_seats(room)
    seat = args.get("seat", member.wanted_seat)
    if seat is None:
        if not free:
            raise RoomError("room_full", "Every seat is taken.")
        seat = free[0]
    if not isinstance(seat, int) or seat not in free:
        raise RoomError("seat_taken", "That seat is not free.")
    await bot_seats.take_bot_seat(room, seat)
    since = room.version + 1
    await queries.update_member(room.engine, member.id, status="seated", seat=seat, seat_since=since)
    member.status, member.seat, member.since = "seated", seat, since
    # The newcomer's open sockets become the seat's sockets now.
    for other in list(room.subscribers):
        if other.member_id == member.id:
            other.send(dumps(room.welcome_message(other)))
            other.send(dumps(room.state_message(seat, [])))


async def reject(room: RoomCore, args: dict[str, Any]) -> None:
    member = request_arg(room, args)
    if member is None or member.status != "pending":
        raise RoomError("unknown_request", "There is no such request to join.")
    await remove_member(room, member, "refused")


async def kick(room: RoomCore, args: dict[str, Any]) -> None:
    seat = seat_arg(args)
    member = room.seated().get(seat)
    if member is None:
        raise RoomError("empty_seat", "Nobody sits in that seat.")
    if member.id == room.host_member:
        raise RoomError("kick_self", "The host cannot kick themselves; hand the host role over first.")
    await remove_member(room, member, "kicked")


async def remove_member(room: RoomCore, member: Member, reason: str) -> None:
    """Take a member out of the room for good (refused or kicked) and close their sockets."""
    # A kicked member keeps the number of the seat they left and, as ``since``, the version they
    # left at: the seat's next holder is then known to have taken over someone's past.
    await queries.update_member(room.engine, member.id, status="gone", seat_since=room.version)
    member.status, member.since = "gone", room.version
    room.close_member(member.id, reason)


async def leave(room: RoomCore, sub: Subscriber, msg_id: str) -> None:
    """A member gives up their seat (or join request) for good; their token dies like a kicked
    one. During a game the seat waits for a newcomer, who gets nothing of its past."""
    async with room.lock:
        member = room.member_of(sub)
        if member is None or member.status == "gone":
            return room.refuse(sub, msg_id, RoomError("not_seated", "Only a member can leave."))
        if member.id == room.host_member:
            return room.refuse(sub, msg_id, RoomError("host_leave",
                                                      "Hand the host role over before you leave."))
        try:
            await queries.update_member(room.engine, member.id, status="gone", seat_since=room.version)
        except Exception:
            log.exception("leaving failed in room %s", room.id)
            sub.send(dumps(room.error(msg_id, "server_error", "Leaving was not stored; try again.")))
            return
        # The ack first, then the member's sockets close (normally: they asked for it).
        sub.send(dumps({"type": "ack", "id": msg_id, "version": room.version}))
        member.status, member.since = "gone", room.version
        room.close_member(member.id, "left", 1000)
        room.publish_room()
        await room.announce()


def left(room: RoomCore, member_id: int) -> None:
    """The owner acknowledged a member's leaving handed from here: their sockets here close."""
    member = room.members.get(member_id)
    if member is not None:
        member.status = "gone"
    room.close_member(member_id, "left", 1000)
    room.publish_room()
